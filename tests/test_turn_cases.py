"""The ftc2007 turn case table: one YAML case per rule clause in tests/turns/ftc2007/.

Each case gives a small state (see ``turnfixture``), each player's orders,
the dice, and what must come of it: the problems ``ftpress check`` reports,
the events in order (each a subset of the event's fields; ``text`` matches a
fragment; ``quiet`` names kinds a case leaves out), and where groups and what worlds are afterwards (``after``:
``groups`` where, ``ships`` names, ``damage`` hull boxes per ship, ``gone``
groups no longer there, ``systems`` and ``players`` fields, ``queues`` entries
by kind, each a subset of the entry's fields). Every case also checks that each
player's treasury changed by the sum of the ``amount`` of their events. Holds, missing
orders and the calendar are left out of the events compared unless the case
says ``every_event: true``.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import yaml
from battlefixture import build_battles, prize_list, with_prizes
from turnfixture import build_orders, build_state

from ftpress.dice import Dice, SuppliedDice
from ftpress.errors import InputError
from ftpress.hexes import Hex
from ftpress.rules.ftc2007.orders import problems
from ftpress.rules.ftc2007.turn import resolve

CASES = sorted((Path(__file__).parent / "turns" / "ftc2007").glob("*.yaml"))
#: Kinds left out of the comparison unless a case lists them under ``show``.
QUIET = {"calendar", "unordered", "no-orders", "hold", "contact"}


def _plain(value):
    if isinstance(value, Hex):
        return [value.q, value.r]
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def test_there_are_enough_cases():
    assert len(CASES) >= 20
    for case in CASES:
        data = yaml.safe_load(case.read_text())
        assert data["rule"].startswith("ftc2007 §"), case.name


@pytest.mark.parametrize("path", CASES, ids=[c.stem for c in CASES])
def test_case(path):
    case = yaml.safe_load(path.read_text())
    state = with_prizes(build_state(case["state"]), case["state"].get("prizes", {}))
    orders = build_orders(state, case.get("orders", {}))
    found = [str(p) for loaded in orders.values() for p in problems(state, loaded)]
    assert found == case.get("problems", []), "problems ftpress check reports"
    dice = Dice(SuppliedDice(case.get("dice", []), path.name))
    battles = build_battles(case.get("battles", {}))  # the umpire's tabletop results
    if "battle_problems" in case:
        with pytest.raises(InputError) as raised:
            resolve(state, orders, dice, battles=battles)
        assert [str(p) for p in raised.value.problems] == case["battle_problems"]
        return
    after, events = resolve(state, orders, dice, battles=battles)
    assert dice.source.unused == 0, "every die supplied is rolled"
    # A case may leave out more kinds, or show some that are usually left out.
    quiet = (QUIET | set(case.get("quiet", ()))) - set(case.get("show", ()))
    shown = [e for e in events if case.get("every_event") or e.kind not in quiet]
    expected = case.get("events", [])
    got = [{k: _plain(getattr(e, k)) for k in want} for e, want in zip(shown, expected, strict=False)]
    for g, want in zip(got, expected, strict=True):
        if "text" in want:
            g["text"] = want["text"] if want["text"] in g["text"] else g["text"]
    assert got == expected, "\n".join(e.text for e in shown)
    assert len(shown) == len(expected), "\n".join(e.text for e in shown)
    where = {g.id: _plain(g.at) for g in after.groups.groups}
    for group_id, at in case.get("after", {}).get("groups", {}).items():
        assert where.get(group_id) == at, group_id
    ships = {g.id: [s.name for s in g.ships] for g in after.groups.groups}
    for group_id, names in case.get("after", {}).get("ships", {}).items():
        assert ships.get(group_id) == names, group_id
    damage = {g.id: [s.damage for s in g.ships] for g in after.groups.groups}
    for group_id, boxes in case.get("after", {}).get("damage", {}).items():
        assert damage.get(group_id) == boxes, group_id
    if "revealed" in case.get("after", {}):  # the groups an enemy has seen into (§15.3)
        assert sorted(g.id for g in after.groups.groups if g.revealed) == \
            sorted(case["after"]["revealed"])
    gone = set(case.get("after", {}).get("gone", ()))
    assert not gone & set(damage), "groups that should be gone"
    for system_id, fields in case.get("after", {}).get("systems", {}).items():
        system = after.system(system_id)
        assert {k: getattr(system, k) for k in fields} == fields, system_id
    for player_id, want in case.get("after", {}).get("prizes", {}).items():
        assert prize_list(after, player_id) == want, player_id
    for player_id, fields in case.get("after", {}).get("players", {}).items():
        player = after.player(player_id)
        assert {k: getattr(player, k) for k in fields} == fields, player_id
    for kind, want in case.get("after", {}).get("queues", {}).items():
        entries = [dataclasses.asdict(x) for x in getattr(after.queues, kind)]
        assert [{k: _plain(e[k]) for k in w} for e, w in zip(entries, want, strict=False)] == want
        assert len(entries) == len(want), kind
    for player in state.players.players:
        moved = sum(e.amount or 0 for e in events if e.player == player.id)
        assert after.player(player.id).treasury - player.treasury == moved, player.id
    if "calendar" in case.get("after", {}):
        cal = dataclasses.asdict(after.campaign.calendar)
        want = case["after"]["calendar"]
        assert {k: str(cal[k]) for k in want} == {k: str(v) for k, v in want.items()}
