"""The sct turn case table: one YAML case per rule clause in tests/turns/sct/.

Each case gives a small planar state (:func:`build_state`), each player's orders,
the dice, and what must come of it, as :mod:`caserunner` reads it (where each
force is afterwards goes under ``after: forces``, a system id or ``{x, y}``).
Income, initiative, missing orders and the calendar are left out of the events
compared unless the case says ``every_event: true``. Every case also checks that
each repair names a ship of its force and that the turn has moved on.

The state spec::

    systems:                       # id, position [x, y] or [x, y, z], and what differs
      - {id: home, at: [0, 0], owner: nac, ev: 200, shipyard: true}
    forces:                        # ships by design id
      - {id: tf1, owner: nac, at: home, ships: [dd, {design: ff, crippled: true}]}
    treasury: {nac: 100}
    battles: abstract              # the campaign's settings.battles
    players: [nac, esu, fse]       # left out: nac and esu
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from caserunner import CaseTable
from turnfixture import case_calendar, case_players, case_ship

from ftpress.rules.sct.state_ext import SctSystem
from ftpress.state.events import Event
from ftpress.state.model import (
    Abstract,
    CampaignFile,
    Design,
    DesignsFile,
    Group,
    GroupsFile,
    Keel,
    MapFile,
    Point,
    QueuesFile,
    Repair,
    Settings,
    Setup,
    State,
    System,
)

#: Values from seed 001's table (points are ftpress's estimates).
DESIGNS = (
    Design("dd", "Ticonderoga", "nac", "DD", 32, 109, (3, 3, 2, 2), Abstract(5, 5, (3, 3), (1, 1))),
    Design("ff", "Minerva", "nac", "FF", 22, 75, (2, 2, 2), Abstract(4, 3, (2, 2), (1, 1))),
    Design("bb", "Victoria", "nac", "BB", 100, 340, (8, 8, 8, 8), Abstract(10, 10, (5, 5), (3, 3))),
    Design("cv", "Inflexible", "nac", "CVL", 90, 380, (7, 7, 7), Abstract(4, 13, (2, 7), (1, 3)),
           fighter_groups=4),
    Design("fr", "Hauler", "nac", "FF", 20, 30, (2, 2), Abstract(0, 2, (0, 1), (0, 1)),
           freighter=True),
    Design("ch", "Gorshkov", "esu", "CH", 60, 204, (5, 5, 4, 4), Abstract(7, 6, (4, 3), (2, 2))),
    Design("fe", "Novgorod", "esu", "FF", 22, 75, (2, 2, 2), Abstract(4, 4, (2, 2), (1, 1))),
)


def build_state(spec: dict[str, Any]) -> State:
    turn = spec.get("turn", 1)
    systems = []
    for s in spec["systems"]:
        x, y, *z = s["at"]
        systems.append(System(s["id"], s.get("name", s["id"].title()), owner=s.get("owner"),
                              income=s.get("ev", 100), idp=0, depot=s.get("depot", False),
                              base=s.get("base", False), shipyard=s.get("shipyard", False),
                              ext=SctSystem(position=Point(x, y, z[0] if z else 0),
                                            works=s.get("works", {}))))
    groups = []
    for g in spec.get("forces", ()):
        at = Point(*g["at"]) if isinstance(g["at"], list) else g["at"]
        ships = tuple(case_ship(g["id"], i, d) for i, d in enumerate(g.get("ships", ())))
        groups.append(Group(g["id"], g["owner"], at, ships, endurance=g.get("endurance", 6)))
    treasury = spec.get("treasury", {})
    players = case_players(systems, {p: {"treasury": treasury.get(p, 0)}
                                     for p in spec.get("players", ("nac", "esu"))})
    return State(CampaignFile("case", "Case", "sct", case_calendar(turn, per=1), Setup(1),
                              Settings(spec.get("battles", "abstract"))),
                 players, MapFile(spec.get("radius", 20), tuple(systems),
                                               geometry="plane"),
                 DesignsFile(DESIGNS), GroupsFile(tuple(groups)),
                 QueuesFile(keels=tuple(Keel(**k) for k in spec.get("keels", ())),
                            repairs=tuple(Repair(**r) for r in spec.get("repairs", ()))))


def _repairs_name_their_ships_and_the_turn_moves_on(before: State, after: State,
                                                   events: Sequence[Event]) -> None:
    forces = {g.id: g for g in after.groups.groups}
    for repair in after.queues.repairs:  # a repair names the force its ship is in
        assert repair.ship in {s.name for s in forces[repair.group].ships}, repair
    assert after.campaign.calendar.turn == before.campaign.calendar.turn + 1


TABLE = CaseTable("sct", build_state, quiet=frozenset(
    {"calendar", "no-orders", "income", "initiative"}), minimum=40,
    invariants=_repairs_name_their_ships_and_the_turn_moves_on)
#: Each player's order text parsed as an sct order file (used by other sct tests).
build_orders = TABLE.build_orders


def test_there_are_enough_cases():
    TABLE.check_enough()


@pytest.mark.parametrize("path", TABLE.cases, ids=TABLE.ids)
def test_case(path):
    TABLE.run(path)
