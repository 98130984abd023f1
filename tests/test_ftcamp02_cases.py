"""The ftcamp02 turn case table: one YAML case per rule clause in tests/turns/ftcamp02/.

Each case gives a small state (:func:`build_state`), each player's orders (the
file without its turn and player lines), the dice, and what must come of it:
the problems ``ftpress check`` reports, the events in order (each a subset of
the event's fields; ``text`` matches a fragment), and the state afterwards
(``after``: ``groups`` where, ``ships`` names, ``gone`` groups, ``group_fields``
and ``ship_fields`` by group, ``systems`` fields). Holds, missing orders and
the calendar are left out of the events compared unless the case says
``every_event: true``.

A state description::

    radius: 6
    systems: [{id: home, hex: [0, 0], owner: nac, loyalty: 5, bio: 10}]
    dust: [[1, 0]]
    wormholes: {rift: [[2, 0], [-3, 3]]}
    beacons: [{id: b1, hex: [3, 3], bonus: 2}]
    groups:
      - {id: g1, owner: nac, at: home, ships: [dd, {design: ff, crew_lost: 2}],
         endurance: 10, attached_to: g2, lost: true, parent: g3}

Players ``nac`` and ``esu`` are always there; the designs are in :data:`DESIGNS`.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from ftpress.dice import Dice, SuppliedDice
from ftpress.hexes import Hex
from ftpress.orders.load import LoadedOrders, parse_orders
from ftpress.rules.ftcamp02.orderfile import ADAPTER
from ftpress.rules.ftcamp02.orders import problems
from ftpress.rules.ftcamp02.turn import resolve
from ftpress.state.model import (
    Abstract,
    Beacon,
    Calendar,
    CampaignFile,
    Design,
    DesignsFile,
    Group,
    GroupsFile,
    MapFile,
    Player,
    PlayersFile,
    QueuesFile,
    Setup,
    Ship,
    State,
    System,
    Wormhole,
)
from ftpress.state.turns import turn_id

CASES = sorted((Path(__file__).parent / "turns" / "ftcamp02").glob("*.yaml"))
QUIET = {"calendar", "unordered", "no-orders", "hold"}

_A = Abstract(1, 1, (0, 0), (0, 0))
DESIGNS = (
    # Standard military craft (§5.1.3).
    Design("dd", "Ticonderoga", "x", "DD", 32, 108, (3, 3, 2, 2), _A),
    Design("ff", "Lis", "x", "FF", 20, 68, (2, 2, 2), _A),
    Design("ch", "Tverdost", "x", "CH", 70, 238, (5, 5, 4, 4), _A, sensors="enhanced"),
    # A battleship of 346 points: alone, the seed's 346-point task force (§2.2, §3.1).
    Design("bb", "Majestic", "x", "BB", 100, 346, (8, 8, 8, 8), _A),
    Design("sup", "Argus", "x", "DH", 40, 100, (3, 3), _A, sensors="superior"),
    Design("ecm", "Veil", "x", "CE", 50, 150, (4, 4), _A, ecm=True),
    Design("aecm", "Shroud", "x", "CE", 60, 180, (4, 4), _A, area_ecm=True),
    Design("stealth", "Wraith", "x", "DD", 30, 100, (3, 3), _A, stealth=True),
    Design("blind", "Mole", "x", "FF", 20, 60, (2, 2), _A, sensors="none"),
    Design("slow", "Barge", "x", "FF", 20, 50, (2, 2), _A, ftl=False),
    Design("mtug", "Hauler", "x", "CL", 50, 120, (4, 4), _A, tug=100),
    # Independents (§5.1.1, §5.1.2).
    Design("i100", "Packet", "x", "SC", 20, 100, (2,), _A, craft="civilian", sensors="none"),
    Design("i150", "Trader", "x", "FF", 30, 150, (2, 2), _A, craft="civilian",
           sensors="none"),
    Design("i600", "Bastion", "x", "BB", 110, 600, (8, 8), _A, craft="military"),
    Design("troop", "Lander", "x", "FF", 20, 80, (2,), _A, craft="civilian", sensors="none",
           troops=True),
    Design("ctug", "Mule", "x", "CL", 40, 90, (3, 3), _A, craft="civilian", sensors="none",
           tug=80, tug_grade="civilian"),
    # A military static (§5.1.4, §5.2.3).
    Design("static", "Citadel", "x", "CE", 60, 150, (4, 4, 4), _A, craft="military",
           ftl=False, main_drive=False),
)


def build_state(spec: dict[str, Any]) -> State:
    """A small ftcamp02 state from a compact description (see the module docstring)."""
    turn = spec.get("turn", 1)
    systems = tuple(System(s["id"], s.get("name", s["id"].title()), Hex(*s["hex"]),
                           owner=s.get("owner"), income=0 if s.get("owner") else None,
                           idp=0 if s.get("owner") else None, bio=s.get("bio"),
                           loyalty=s.get("loyalty", 5 if s.get("owner") else 0),
                           claimed_by=s.get("claimed_by"))
                    for s in spec["systems"])
    groups = []
    for g in spec.get("groups", ()):
        at = Hex(*g["at"]) if isinstance(g["at"], list) else g["at"]
        ships = tuple(_ship(g["id"], i, s) for i, s in enumerate(g.get("ships", ())))
        groups.append(Group(g["id"], g["owner"], at, ships, endurance=g.get("endurance", 0),
                            attached_to=g.get("attached_to"), lost=g.get("lost", False),
                            parent=g.get("parent"), reserve=g.get("reserve", False)))
    capital = {p: next((s.id for s in systems if s.owner == p), systems[0].id)
               for p in ("nac", "esu")}
    players = tuple(Player(p, p.upper(), colour, 0, capital[p],
                           supplied_by=tuple(spec.get("supplied_by", {}).get(p, ())))
                    for p, colour in (("nac", "#0072b2"), ("esu", "#d55e00")))
    calendar = Calendar(date(2026, 3, 9), turn, (turn - 1) // 6 + 1,
                        datetime(2026, 3, 15, 20, tzinfo=UTC))
    wormholes = tuple(Wormhole(w, (Hex(*a), Hex(*b)))
                      for w, (a, b) in spec.get("wormholes", {}).items())
    beacons = tuple(Beacon(b["id"], Hex(*b["hex"]), b["bonus"], b.get("active", True))
                    for b in spec.get("beacons", ()))
    return State(CampaignFile("case", "Case", "ftcamp02", calendar, Setup(1)),
                 PlayersFile(players),
                 MapFile(spec.get("radius", 8), systems,
                         dust=tuple(Hex(*h) for h in spec.get("dust", ())) or None,
                         wormholes=wormholes or None, beacons=beacons or None),
                 DesignsFile(DESIGNS), GroupsFile(tuple(groups)), QueuesFile())


def _ship(group: str, i: int, spec: str | dict[str, Any]) -> Ship:
    if isinstance(spec, str):
        return Ship(f"{group}-{i + 1}", spec)
    fields = {k: v for k, v in spec.items() if k not in ("design", "name")}
    return Ship(spec.get("name", f"{group}-{i + 1}"), spec["design"], **fields)


def build_orders(state: State, texts: dict[str, str]) -> dict[str, LoadedOrders]:
    """Each player's order text (without its turn and player lines) parsed as a file."""
    turn = turn_id(state.campaign.calendar.turn)
    return {player: parse_orders(f"turn: {turn}\nplayer: {player}\n{text}".encode(),
                                 f"orders/{turn}/{player}.yaml", ADAPTER)
            for player, text in texts.items()}


def _plain(value: Any) -> Any:
    if isinstance(value, Hex):
        return [value.q, value.r]
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def test_there_are_enough_cases():
    assert len(CASES) >= 40
    for case in CASES:
        data = yaml.safe_load(case.read_text())
        assert data["rule"].startswith("ftcamp02 §"), case.name


@pytest.mark.parametrize("path", CASES, ids=[c.stem for c in CASES])
def test_case(path):
    case = yaml.safe_load(path.read_text())
    state = build_state(case["state"])
    orders = build_orders(state, case.get("orders", {}))
    found = [str(p) for loaded in orders.values() for p in problems(state, loaded)]
    assert found == case.get("problems", []), "problems ftpress check reports"
    dice = Dice(SuppliedDice(case.get("dice", []), path.name))
    after, events = resolve(state, orders, dice)
    assert dice.source.unused == 0, "every die supplied is rolled"
    shown = [e for e in events if case.get("every_event") or e.kind not in QUIET]
    expected = case.get("events", [])
    got = [{k: _plain(getattr(e, k)) for k in want}
           for e, want in zip(shown, expected, strict=False)]
    for g, want in zip(got, expected, strict=False):
        if "text" in want and want["text"] in g["text"]:
            g["text"] = want["text"]
    assert got == expected[:len(got)], "\n".join(e.text for e in shown)
    assert len(shown) == len(expected), "\n".join(e.text for e in shown)
    result = case.get("after", {})
    groups = {g.id: g for g in after.groups.groups}
    for group_id, at in result.get("groups", {}).items():
        assert group_id in groups and _plain(groups[group_id].at) == at, group_id
    for group_id, names in result.get("ships", {}).items():
        assert [s.name for s in groups[group_id].ships] == names, group_id
    for group_id, fields in result.get("group_fields", {}).items():
        assert {k: getattr(groups[group_id], k) for k in fields} == fields, group_id
    for group_id, per_ship in result.get("ship_fields", {}).items():
        ships = {s.name: s for s in groups[group_id].ships}
        for name, fields in per_ship.items():
            assert {k: getattr(ships[name], k) for k in fields} == fields, (group_id, name)
    assert not set(result.get("gone", ())) & set(groups), "groups that should be gone"
    for system_id, fields in result.get("systems", {}).items():
        system = after.system(system_id)
        assert {k: getattr(system, k) for k in fields} == fields, system_id
    if "calendar" in result:
        cal = dataclasses.asdict(after.campaign.calendar)
        assert {k: str(cal[k]) for k in result["calendar"]} == {
            k: str(v) for k, v in result["calendar"].items()}
