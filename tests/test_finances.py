"""The accounts: every power's money lines add up to its treasury, turn by turn
and economic turn by economic turn, in the demo and in made-up turns; the
tables show worlds by name but never a ship."""

from __future__ import annotations

import dataclasses
import html
import re

from demos import FTC2007

from ftpress.render.finances import economic_rows, turn_ledgers
from ftpress.rules import STATE_EXTENSIONS
from ftpress.state.events import PUBLIC, Event
from ftpress.state.records import load_turns

from conftest import REPO


def demo_turns():
    turns = load_turns(REPO, extensions=STATE_EXTENSIONS, umpire=FTC2007.umpire)
    return [(t.id, turns[i - 1].state if i else None, t.state, t.events)
            for i, t in enumerate(turns)]


def test_every_demo_turn_balances_for_every_power():
    for turn, before, after, events in demo_turns():
        powers = {p.id: p.id for p in after.players.players}
        for ledger in turn_ledgers(events, before, after, powers):
            assert ledger.unexplained == 0, (turn, ledger.power, ledger.lines)


def test_every_demo_economic_turn_balances_for_every_power():
    turns = demo_turns()
    powers = {p.id: p.id for p in turns[-1][2].players.players}
    rows = economic_rows(turns, powers)
    assert rows
    for row in rows:
        assert row.ledger.opening + row.ledger.moved == row.ledger.closing, row


def _money(state, player, amount, account, at=None, kind="income"):
    return Event(kind, "ftc2007 §5.2", "money moved", audience=PUBLIC, player=player, at=at,
                 amount=amount, account=account)


def test_lines_are_per_world_for_income_and_per_account_for_spending():
    state = FTC2007.state()
    player = state.players.players[0]
    worlds = state.worlds_of(player.id)[:2]
    events = [_money(state, player.id, 50, "income", worlds[0].id),
              _money(state, player.id, 30, "income", worlds[1].id),
              Event("income-lost", "ftc2007 §10.6", "lost", audience=PUBLIC, player=player.id, at=worlds[1].id,
                    amount=0, account="interdicted"),
              _money(state, player.id, -40, "maintenance", kind="upkeep"),
              _money(state, player.id, -10, "purchases", kind="purchase"),
              _money(state, player.id, -5, "purchases", kind="purchase")]
    after = dataclasses.replace(state, players=dataclasses.replace(state.players, players=(
        dataclasses.replace(player, treasury=player.treasury + 25),
        *state.players.players[1:])))
    ledger = turn_ledgers(events, state, after, {player.id: "me"})[0]
    labels = [(line.label, line.amount) for line in ledger.lines]
    income = sorted([(f"Income from {worlds[0].name}", 50), (f"Income from {worlds[1].name}", 30)])
    assert labels == [*income, (f"{worlds[1].name}, interdicted", 0), ("Maintenance", -40),
                      ("Purchases", -15)]
    assert ledger.unexplained == 0
    assert ledger.lost() == worlds[1].income
    # A treasury the events do not explain shows the gap instead of hiding it.
    short = turn_ledgers(events[:-1], state, after, {player.id: "me"})[0]
    assert short.unexplained == -5


def test_the_accounts_tables_name_no_hidden_ship(demo_site):
    """The public turn pages' accounts list lines, never a ship: the money of events the
    public reads line by line, what the others moved as one line it is not told."""
    lines = {"Maintenance", "Ordnance", "Construction", "Purchases", "Repairs", "Spares",
             "Defence rebuilding", "Sales of prizes", "Prizes"}
    untold = 0
    for page in demo_site.glob("turns/t*/index.html"):
        text = html.unescape(page.read_text(encoding="utf-8"))
        for table in re.findall(r'<table class="campaign-table ledger-table">.*?</table>', text,
                                re.S):
            for row in re.findall(r'<th scope="row">([^<]*)', table):
                untold += row == "Not told in this view"
                assert row.startswith(("Treasury", "Income from", "Not told in this view")) \
                    or row.endswith(", interdicted") or row.strip() in lines, row
    assert not untold  # what the public is not told moves no line, not even as a sum (§5.4)
