"""One runner for the turn case tables of every ruleset (tests/turns/<ruleset>/*.yaml).

A case gives a small state (built by the ruleset's own fixture), each player's
orders (the file without its ``turn`` and ``player`` lines), the dice, and what
must come of it:

``state_problems``
    what the ruleset's check of the state itself reports (the state written to
    a folder and loaded, as ``ftpress check`` reads it), in order;
``problems``
    what ``ftpress check`` reports of the orders, in order;
``battles`` / ``battle_problems``
    the umpire's tabletop results by battle id (the file's text), and the
    problems a wrong result stops the turn with (then nothing else is checked);
``events``
    the events in order, each a subset of the event's fields (``text`` matches a
    fragment; ``audience`` is written as in ``events.yaml``); the ruleset's quiet kinds are left out unless the case says
    ``every_event: true``, and a case may leave out more (``quiet``) or show some
    quiet ones (``show``);
``after``
    the state afterwards, each key checked only when the case gives it:
    ``groups`` (sct: ``forces``) where each is, ``ships`` names, ``damage`` hull
    boxes per ship, ``crippled`` the names of crippled ships, ``endurance``,
    ``group_fields`` and ``ship_fields`` by group, ``revealed`` the groups known to
    all, ``seen_by`` the powers that have seen into each group, ``gone`` groups, ``systems`` and ``players`` fields, ``prizes``
    ``[id, ship, at]`` per player, ``queues`` entries by kind (each a subset of the
    entry's fields), ``keels`` ``[name, built]`` pairs, ``repairs`` how many, and
    ``calendar`` fields.

Every die supplied must be rolled. A ruleset's table adds its own invariants
(:attr:`CaseTable.invariants`), checked on every case that resolves.
"""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
import yaml
from battlefixture import build_battles, prize_list
from turnfixture import build_orders

from ftpress.errors import InputError
from ftpress.orders.load import LoadedOrders
from ftpress.rules import RULESETS, STATE_EXTENSIONS
from ftpress.state.dice import Dice, SuppliedDice
from ftpress.state.events import Audience, Event
from ftpress.state.extension import extension_of
from ftpress.state.hexes import Hex
from ftpress.state.load import load_state
from ftpress.state.model import Point, State
from ftpress.state.save import save_state
from ftpress.state.turns import turn_id

TURNS = Path(__file__).parent / "turns"
#: The ``after`` keys the runner knows; any other is a mistake in the case.
AFTER_KEYS = frozenset({
    "groups", "forces", "ships", "damage", "crippled", "endurance", "group_fields",
    "ship_fields", "revealed", "seen_by", "gone", "systems", "players", "prizes", "queues", "keels",
    "repairs", "calendar"})


def field_of(state: State, kind: str, record: Any, key: str) -> Any:
    """A record's field by name: a shared one, or one the campaign's ruleset adds
    to records of ``kind`` (its extension, :mod:`ftpress.state.extension`)."""
    if key in {f.name for f in dataclasses.fields(record)}:
        return getattr(record, key)
    extension = STATE_EXTENSIONS[state.campaign.ruleset].records[kind]
    return getattr(extension_of(record, extension), key)


def plain(value: Any) -> Any:
    """A value as a case writes it: a hex as ``[q, r]``, a point as ``{x, y}``, an
    audience as ``public``, ``umpire`` or ``[nac]``."""
    if isinstance(value, Audience):
        return plain(value.yaml())
    if isinstance(value, Hex):
        return [value.q, value.r]
    if isinstance(value, Point):
        return {"x": value.x, "y": value.y}
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):  # a record in an
        return {f.name: plain(getattr(value, f.name))                  # extension's field
                for f in dataclasses.fields(value)}
    return value


def _no_invariants(before: State, after: State, events: Sequence[Event]) -> None:
    return None


@dataclasses.dataclass(frozen=True, slots=True)
class CaseTable:
    """The cases of one ruleset, run through the ruleset as registered."""

    ruleset: str
    build_state: Callable[[dict[str, Any]], State]
    #: Event kinds left out of the comparison unless a case shows them.
    quiet: frozenset[str]
    #: The table holds at least this many cases.
    minimum: int
    invariants: Callable[[State, State, Sequence[Event]], None] = _no_invariants

    @property
    def cases(self) -> list[Path]:
        return sorted((TURNS / self.ruleset).glob("*.yaml"))

    @property
    def ids(self) -> list[str]:
        return [c.stem for c in self.cases]

    def build_orders(self, state: State, texts: Mapping[str, str]) -> dict[str, LoadedOrders]:
        return build_orders(state, texts, RULESETS[self.ruleset].orders_adapter)

    def check_enough(self) -> None:
        """Enough cases, each naming a rule of this ruleset."""
        assert len(self.cases) >= self.minimum
        for case in self.cases:
            data = yaml.safe_load(case.read_text())
            assert data["rule"].startswith(f"{self.ruleset} §"), case.name

    def run(self, path: Path) -> None:
        """One case: its problems, events and state afterwards as it says."""
        ruleset = RULESETS[self.ruleset]
        assert ruleset.check_orders is not None
        case = yaml.safe_load(path.read_text())
        state = self.build_state(case["state"])
        if "state_problems" in case:  # most cases' states are not a setup that adds up
            assert state_problems(self.ruleset, state) == case["state_problems"], \
                "problems the state's own check reports"
        orders = self.build_orders(state, case.get("orders", {}))
        found = [str(p) for loaded in orders.values()
                 for p in ruleset.check_orders(state, loaded)]
        assert found == case.get("problems", []), "problems ftpress check reports"
        dice = Dice(SuppliedDice(case.get("dice", []), path.name))
        # The umpire's tabletop results.
        battles = build_battles(case.get("battles", {}), turn_id(state.campaign.calendar.turn))
        if "battle_problems" in case:
            with pytest.raises(InputError) as raised:
                ruleset.resolve(state, orders, dice, battles)
            assert [str(p) for p in raised.value.problems] == case["battle_problems"]
            return
        after, events = ruleset.resolve(state, orders, dice, battles)
        assert dice.source.unused == 0, "every die supplied is rolled"
        check_events(events, case, self.quiet)
        check_hidden_rolls(events)
        check_after(after, case.get("after", {}))
        self.invariants(state, after, events)


def state_problems(ruleset: str, state: State) -> list[str]:
    """What ``ruleset``'s check of the state reports, with the state saved and
    loaded again so that each problem has its file and line."""
    with tempfile.TemporaryDirectory() as folder:
        save_state(Path(folder), state)
        loaded = load_state(Path(folder), extensions=STATE_EXTENSIONS)
        return [str(p) for p in RULESETS[ruleset].check_state(loaded)]


def check_events(events: Sequence[Event], case: dict[str, Any], quiet: frozenset[str]) -> None:
    """The events shown (all, or all but the quiet kinds) are the case's, in order."""
    # A case may leave out more kinds, or show some that are usually left out.
    quiet = (quiet | set(case.get("quiet", ()))) - set(case.get("show", ()))
    shown = [e for e in events if case.get("every_event") or e.kind not in quiet]
    expected = case.get("events", [])
    got = [{k: plain(getattr(e, k)) for k in want}
           for e, want in zip(shown, expected, strict=False)]
    for g, want in zip(got, expected, strict=False):
        if "text" in want and want["text"] in g["text"]:
            g["text"] = want["text"]
    assert got == expected, "\n".join(e.text for e in shown)
    assert len(shown) == len(expected), "\n".join(e.text for e in shown)


def check_hidden_rolls(events: Sequence[Event]) -> None:
    """Each roll site marks its roll hidden exactly when the rules keep it from the
    public: a roll a public event carries is not hidden, one carried only by events the
    public may not read is (a sealed campaign's public stream must not hold it)."""
    for event in events:
        for roll in event.rolls:
            assert roll.hidden is not event.audience.public, \
                f"{roll.purpose} ({roll.rule}) is {'' if roll.hidden else 'not '}marked " \
                f"hidden, yet it is told in a {event.audience.yaml()} event: {event.text}"


def check_after(after: State, want: dict[str, Any]) -> None:
    """The state after the turn has what the case's ``after`` gives."""
    assert not set(want) - AFTER_KEYS, f"unknown 'after' keys {set(want) - AFTER_KEYS}"
    groups = {g.id: g for g in after.groups.groups}
    for group_id, at in {**want.get("groups", {}), **want.get("forces", {})}.items():
        assert group_id in groups, group_id
        assert plain(groups[group_id].at) == at, group_id
    for group_id, names in want.get("ships", {}).items():
        assert group_id in groups, group_id
        assert [s.name for s in groups[group_id].ships] == names, group_id
    for group_id, boxes in want.get("damage", {}).items():
        assert group_id in groups, group_id
        assert [s.damage for s in groups[group_id].ships] == boxes, group_id
    for group_id, names in want.get("crippled", {}).items():
        assert [s.name for s in groups[group_id].ships if s.crippled] == names, group_id
    for group_id, points in want.get("endurance", {}).items():
        assert groups[group_id].endurance == points, group_id
    for group_id, fields in want.get("group_fields", {}).items():
        assert {k: plain(field_of(after, "group", groups[group_id], k))
                for k in fields} == fields, \
            group_id
    for group_id, per_ship in want.get("ship_fields", {}).items():
        ships = {s.name: s for s in groups[group_id].ships}
        for name, fields in per_ship.items():
            assert {k: plain(field_of(after, "ship", ships[name], k))
                    for k in fields} == fields, \
                (group_id, name)
    if "revealed" in want:  # the groups whose make-up everyone knows
        assert sorted(g.id for g in after.groups.groups if g.revealed) == \
            sorted(want["revealed"])
    if "seen_by" in want:  # the groups an enemy has seen into, and who has (§15.3)
        assert {g.id: list(g.seen_by) for g in after.groups.groups if g.seen_by} == \
            want["seen_by"]
    assert not set(want.get("gone", ())) & set(groups), "groups that should be gone"
    for system_id, fields in want.get("systems", {}).items():
        system = after.system(system_id)
        assert {k: field_of(after, "system", system, k) for k in fields} == fields, system_id
    for player_id, fields in want.get("players", {}).items():
        player = after.player(player_id)
        assert {k: plain(field_of(after, "player", player, k))
                for k in fields} == fields, player_id
    for player_id, prizes in want.get("prizes", {}).items():
        assert prize_list(after, player_id) == prizes, player_id
    for kind, entries_wanted in want.get("queues", {}).items():
        entries = [dataclasses.asdict(x) for x in field_of(after, "queues", after.queues, kind)]
        assert [{k: plain(e[k]) for k in w}
                for e, w in zip(entries, entries_wanted, strict=False)] == entries_wanted
        assert len(entries) == len(entries_wanted), kind
    if "keels" in want:
        assert [(k.name, k.built) for k in after.queues.keels] == [
            tuple(k) for k in want["keels"]]
    if "repairs" in want:
        assert len(after.queues.repairs) == want["repairs"]
    if "calendar" in want:
        cal = dataclasses.asdict(after.campaign.calendar)
        assert {k: str(cal[k]) for k in want["calendar"]} == {
            k: str(v) for k, v in want["calendar"].items()}
