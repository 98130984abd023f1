"""What "Your view" shows a player after a turn, as plain data.

:func:`player_report` is the one place that decides it, from what the player knows
(their known state after the turn, the turn's events told to them); the browser
page and ``build --view`` only lay it out, so the two show the same. The document is
a mapping of plain values (JSON), made of titled sections of lines or table rows:
no markup, every text the player's or the umpire's shown as text by both.

Order of the sections: refused orders and why; the player's groups by id, with
their ships; what else they hold, where their ruleset keeps more (ftc2007's
prizes); what the player learned this turn (what was told to them alone first,
their own groups by id where the words told to others name them by whose they
are); their accounts. Then, for the order composer: the open turn, the path of
its order file, the ruleset's order form for the player (every group holding,
where each may go and which orders apply in its comments, as ``ftpress orders
new`` writes it), the legal orders of each group where the ruleset computes them
(:mod:`ftpress.rules.choices`: the page's form offers those and no other), and the
recipients orders are sealed to.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from typing import Any

from ftpress import rules
from ftpress.orders.load import orders_path
from ftpress.rules.ruleset import Ruleset
from ftpress.secrecy.knowledge import known_state
from ftpress.secrecy.visibility import Viewer
from ftpress.state import words
from ftpress.state.events import Event
from ftpress.state.model import Group, State
from ftpress.state.turns import SETUP, turn_id
from ftpress.state.words import place
from ftpress.yourview.compose import legal_choices, written

__all__ = ["legal_choices", "player_report", "written"]

#: The form of the document; the page refuses one it does not know.
VERSION = 1
#: The kind of event of an order a ruleset refused.
REFUSED = "rejected"


def player_report(state: State, events: Iterable[Event], turn: str, player: str
                  ) -> dict[str, Any]:
    """``player``'s report of ``turn``: ``state`` is the state after it (the full
    state, or one the player knows: it is narrowed to theirs), ``events`` the turn's
    (those not told to the player are left out here)."""
    known = known_state(state, Viewer.of(player))
    told = [e for e in events if e.audience.tells(player)]
    me = known.player(player)
    name = me.name if me is not None else player
    refused = [e for e in told if e.kind == REFUSED and e.player in (player, None)]
    learned = sorted((e for e in told if e not in refused),
                     key=lambda e: e.audience.public)  # told to you alone first
    open_turn = turn_id(known.campaign.calendar.turn)
    ruleset = rules.find_ruleset(known.campaign.ruleset)
    form = ruleset.order_form(known, player) if ruleset.order_form is not None else None
    choices = legal_choices(known, player)
    return {
        "version": VERSION,
        "campaign": known.campaign.id,
        "player": player,
        "name": name,
        "turn": turn,
        "open_turn": open_turn,
        "deadline": known.campaign.calendar.deadline.isoformat(),
        "sections": [
            _lines("refused", "Refused orders", [_refusal(e) for e in refused],
                   "No turn has been resolved yet." if turn == SETUP else
                   f"None: every order you gave for {turn} was carried out."),
            _groups(known, player),
            *_holdings(known, ruleset, player),
            _lines("learned", f"What you learned in {turn}",
                   [_told(known, e, player) for e in learned],
                   "Nothing was told to you this turn."),
            _accounts(known, told, player),
        ],
        "orders": {
            "path": orders_path(open_turn, player),
            "form": form,
            "choices": dataclasses.asdict(choices) if choices is not None else None,
            "umpires": list(known.campaign.umpire_recipients or ()),
            "recipient": me.recipient if me is not None else None,
        },
    }


def _lines(key: str, title: str, lines: list[str], empty: str) -> dict[str, Any]:
    return {"id": key, "title": title, "lines": lines or [empty]}


def _refusal(event: Event) -> str:
    where = f" ({' '.join(event.order.split())})" if event.order else ""
    return f"{event.text}{where}"


def _told(known: State, event: Event, player: str) -> str:
    text = _own_ids(known, event, player)
    return text if event.audience.public else f"{text} (told to you alone)"


#: How an event names a group whose id its readers may not know (:func:`words.group`).
_NOUNS = ("task group", "task force", "group", "counter")


def _own_ids(known: State, event: Event, player: str) -> str:
    """The event's words with the player's own groups by their ids: an event told to
    others names them by whose they are ('A task group of the New Anglian
    Confederation'), which their owner may read as 'nac-1'. Where the event is about
    one group of theirs and names one such counter of theirs, that is it; where it
    is about several, or names none, their ids follow in brackets."""
    power = words.power(known, player)
    ids = [g for g in dict.fromkeys((event.group, *event.groups)) if g is not None
           and (words.owner_of(known, g) == player
                or (g == event.group and event.player == player
                    and words.owner_of(known, g) is None))]
    if not ids:
        return event.text
    text = event.text
    phrases = [f"{article} {noun} of {power}" for noun in _NOUNS for article in ("a", "A")]
    found = [p for p in phrases if p in text]
    if len(ids) == 1 and len(found) == 1 and text.count(found[0]) == 1:
        return text.replace(found[0], ids[0])
    unnamed = [g for g in ids if not re.search(rf"(?<![\w-]){re.escape(g)}(?![\w-])", text)]
    return f"{text} (yours: {words.listed(unnamed)})" if unnamed else text


def _holdings(known: State, ruleset: Ruleset[Any], player: str) -> list[dict[str, Any]]:
    """What else the player holds, as their ruleset says (ftc2007's prizes)."""
    rows = [list(row) for row in ruleset.display.holdings(known, player)]
    return [{"id": "holdings", "title": "What else you hold", "head": ["What", "At", "About"],
             "rows": rows, "empty": ""}] if rows else []


def _groups(known: State, player: str) -> dict[str, Any]:
    """The player's own groups, by id: where each is and what it holds."""
    rows = [[g.id, place(known, g.at), _ships(known, g)] for g in known.groups_of(player)]
    return {"id": "groups", "title": "Your groups", "head": ["Group", "At", "Ships"],
            "rows": rows, "empty": "You have no groups."}


def _ships(known: State, group: Group) -> str:
    if group.dummy:
        return "a dummy counter (no ships)"
    if not group.ships:
        return "no ships"
    parts = []
    for ship in group.ships:
        design = known.design(ship.design)
        size = f", {design.size}" if design is not None else ""
        harm = f", {ship.damage} hull lost" if ship.damage else ""
        parts.append(f"{ship.name} ({ship.design}{size}{harm})")
    return "; ".join(parts)


def _accounts(known: State, told: list[Event], player: str) -> dict[str, Any]:
    """Each amount the turn added to or took from the treasury, and the treasury now."""
    rows = [[e.text, f"{e.amount:+,}"] for e in told
            if e.player == player and e.amount is not None and e.amount != 0]
    me = known.player(player)
    if me is not None:
        rows.append(["Treasury now", f"{me.treasury:,}"])
    return {"id": "accounts", "title": "Your accounts", "head": ["What", "Credits"],
            "rows": rows, "empty": "No money moved."}
