"""The ftcamp02 turn case table: one YAML case per rule clause in tests/turns/ftcamp02/.

Each case gives a small state (:func:`build_state`), each player's orders, the
dice, and what must come of it, as :mod:`caserunner` reads it. Holds, missing
orders and the calendar are left out of the events compared unless the case
says ``every_event: true``.

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

from typing import Any

import pytest
from caserunner import CaseTable
from turnfixture import case_calendar, case_players, case_ship

from ftpress.rules.ftcamp02.state_ext import (
    Beacon,
    Ftcamp02Design,
    Ftcamp02Group,
    Ftcamp02Map,
    Ftcamp02Player,
    Ftcamp02Ship,
    Ftcamp02System,
    Wormhole,
)
from ftpress.state.hexes import Hex
from ftpress.state.model import (
    Abstract,
    CampaignFile,
    Design,
    DesignsFile,
    Group,
    GroupsFile,
    MapFile,
    QueuesFile,
    Setup,
    State,
    System,
)

_A = Abstract(1, 1, (0, 0), (0, 0))


def design(*shared: Any, **ftcamp02: Any) -> Design:
    """A design: the shared fields in order, then ftcamp02's by name."""
    return Design(*shared, ext=Ftcamp02Design(**ftcamp02))


DESIGNS = (
    # Standard military craft (§5.1.3).
    design("dd", "Ticonderoga", "x", "DD", 32, 108, (3, 3, 2, 2), _A),
    design("ff", "Lis", "x", "FF", 20, 68, (2, 2, 2), _A),
    design("ch", "Tverdost", "x", "CH", 70, 238, (5, 5, 4, 4), _A, sensors="enhanced"),
    # A battleship of 346 points: alone, the seed's 346-point task force (§2.2, §3.1).
    design("bb", "Majestic", "x", "BB", 100, 346, (8, 8, 8, 8), _A),
    design("sup", "Argus", "x", "DH", 40, 100, (3, 3), _A, sensors="superior"),
    design("ecm", "Veil", "x", "CE", 50, 150, (4, 4), _A, ecm=True),
    design("aecm", "Shroud", "x", "CE", 60, 180, (4, 4), _A, area_ecm=True),
    design("stealth", "Wraith", "x", "DD", 30, 100, (3, 3), _A, stealth=True),
    design("blind", "Mole", "x", "FF", 20, 60, (2, 2), _A, sensors="none"),
    design("slow", "Barge", "x", "FF", 20, 50, (2, 2), _A, ftl=False),
    design("mtug", "Hauler", "x", "CL", 50, 120, (4, 4), _A, tug=100),
    # Independents (§5.1.1, §5.1.2).
    design("i100", "Packet", "x", "SC", 20, 100, (2,), _A, craft="civilian", sensors="none"),
    design("i150", "Trader", "x", "FF", 30, 150, (2, 2), _A, craft="civilian",
           sensors="none"),
    design("i600", "Bastion", "x", "BB", 110, 600, (8, 8), _A, craft="military"),
    design("troop", "Lander", "x", "FF", 20, 80, (2,), _A, craft="civilian", sensors="none",
           troops=True),
    design("ctug", "Mule", "x", "CL", 40, 90, (3, 3), _A, craft="civilian", sensors="none",
           tug=80, tug_grade="civilian"),
    # A military static (§5.1.4, §5.2.3).
    design("static", "Citadel", "x", "CE", 60, 150, (4, 4, 4), _A, craft="military",
           ftl=False, main_drive=False),
)


def build_state(spec: dict[str, Any]) -> State:
    """A small ftcamp02 state from a compact description (see the module docstring)."""
    turn = spec.get("turn", 1)
    systems = tuple(System(s["id"], s.get("name", s["id"].title()), Hex(*s["hex"]),
                           owner=s.get("owner"), income=0 if s.get("owner") else None,
                           idp=0 if s.get("owner") else None,
                           ext=Ftcamp02System(bio=s.get("bio"),
                                              loyalty=s.get("loyalty", 5 if s.get("owner")
                                                            else 0),
                                              claimed_by=s.get("claimed_by")))
                    for s in spec["systems"])
    groups = []
    for g in spec.get("groups", ()):
        at = Hex(*g["at"]) if isinstance(g["at"], list) else g["at"]
        ships = tuple(case_ship(g["id"], i, s, Ftcamp02Ship)
                      for i, s in enumerate(g.get("ships", ())))
        groups.append(Group(g["id"], g["owner"], at, ships, endurance=g.get("endurance", 0),
                            ext=Ftcamp02Group(attached_to=g.get("attached_to"),
                                              lost=g.get("lost", False), parent=g.get("parent"),
                                              reserve=g.get("reserve", False))))
    players = case_players(systems, {
        p: {"treasury": 0, "ext": Ftcamp02Player(tuple(spec.get("supplied_by", {}).get(p, ())))}
        for p in ("nac", "esu")})
    wormholes = tuple(Wormhole(w, (Hex(*a), Hex(*b)))
                      for w, (a, b) in spec.get("wormholes", {}).items())
    beacons = tuple(Beacon(b["id"], Hex(*b["hex"]), b["bonus"], b.get("active", True))
                    for b in spec.get("beacons", ()))
    return State(CampaignFile("case", "Case", "ftcamp02", case_calendar(turn), Setup(1)),
                 players,
                 MapFile(spec.get("radius", 8), systems, ext=Ftcamp02Map(
                     dust=tuple(Hex(*h) for h in spec.get("dust", ())) or None,
                     wormholes=wormholes or None, beacons=beacons or None)),
                 DesignsFile(DESIGNS), GroupsFile(tuple(groups)), QueuesFile())


TABLE = CaseTable("ftcamp02", build_state, quiet=frozenset(
    {"calendar", "unordered", "no-orders", "hold"}), minimum=40)
#: Each player's order text parsed as an ftcamp02 order file (used by other tests).
build_orders = TABLE.build_orders


def test_there_are_enough_cases():
    TABLE.check_enough()


@pytest.mark.parametrize("path", TABLE.cases, ids=TABLE.ids)
def test_case(path):
    TABLE.run(path)
