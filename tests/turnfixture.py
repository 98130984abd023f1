"""Small campaign states for turn tests, built from a compact description.

A case says only what it needs::

    systems:                                   # id, hex, and what differs
      - {id: home, hex: [0, 0], owner: nac}
      - {id: far, hex: [2, -1]}
    routes: {r1: [[home, far]]}
    groups:                                    # ships by design id
      - {id: g1, owner: nac, at: home, ships: [dd, dd]}
    turn: 1

Players ``nac`` and ``esu`` are always there; designs are ``dd`` (a
destroyer), ``sc`` (a scout) and ``bb`` (a battleship, which brings a dummy),
and the Union's ``gb``, ``ch`` and ``ff`` (120, 60 and 20 mass). A ship may be
``{design: dd, damage: 3, system_checks: [1]}`` (:func:`case_ship`); a group may say
``jumped_out: true`` (§18.4); a system may give ``idp`` and ``idp_full``;
``forces: orders`` makes turn 1 the set-up turn, whose orders buy the starting
forces (§6);
``keels`` and ``spares`` list queue entries by their fields.

For the economy: ``players: {nac: {treasury: 500, maintenance: reduced, ally: esu}}``
sets player fields (the treasury is 1000 otherwise); ``repairs`` and
``defences`` list queue entries too; the designs also hold ``fr`` (a
freighter), ``nx`` (a non-standard destroyer), ``kx`` (a destroyer with
non-indigenous technology, 110 points), both approved (§16.2), ``ux`` (non-standard,
not approved: ``approved: {ux: 2026-03-20}`` records the umpires' approval, not yet
told to the players), ``cl`` (a second
NAC light cruiser), the Sa'Vasku ``sv``, and for the tabletop rulings (§20) ``nv``
(a nova cannon and a cloaking field) and the Union's ``hm`` (heavy missiles). A
player may owe repulse damage: ``players: {nac: {owed: [{world: east, boxes: 6,
cost: 20, ships: [g1-1], economic_turn: 1}]}}`` (§10.7).
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime, timedelta
from typing import Any

from ftpress.orders.load import LoadedOrders, parse_orders
from ftpress.rules.ftc2007.orderfile import ADAPTER
from ftpress.rules.ftc2007.state_ext import (
    DefenceWork,
    Ftc2007Design,
    Ftc2007Group,
    Ftc2007Player,
    Ftc2007Queues,
    Ftc2007Ship,
    Ftc2007System,
    OwedDamage,
    Spares,
)
from ftpress.state.extension import Extension
from ftpress.state.hexes import Hex
from ftpress.state.model import (
    Abstract,
    Calendar,
    CampaignFile,
    Design,
    DesignsFile,
    Group,
    GroupsFile,
    Keel,
    MapFile,
    Player,
    PlayersFile,
    QueuesFile,
    Repair,
    Route,
    Settings,
    Setup,
    Ship,
    State,
    System,
)
from ftpress.state.turns import turn_id

_ABSTRACT = Abstract(5, 5, (3, 3), (1, 1))
#: The day the umpires approved the case designs of non-standard technology (§16.2).
APPROVED = date(2026, 3, 1)
DESIGNS = (
    Design("dd", "Ticonderoga", "nac", "DD", 32, 108, (3, 3, 2, 2), _ABSTRACT),
    Design("sc", "Harrison", "nac", "SC", 10, 34, (1, 1, 1), _ABSTRACT),
    Design("bb", "Majestic", "nac", "BB", 100, 340, (8, 8, 8, 8), _ABSTRACT),
    # The Union's fleet at Marrow (8 April ruling): 120, 60 and 20 mass, 1,088 points.
    Design("gb", "Gorizont", "esu", "BB", 120, 408, (9, 9, 9, 9), _ABSTRACT),
    Design("ch", "Tverdost", "esu", "CH", 60, 204, (5, 5, 4, 4), _ABSTRACT),
    Design("ff", "Lis", "esu", "FF", 20, 68, (2, 2, 2), _ABSTRACT),
    Design("fr", "Mule", "nac", "DD", 30, 62, (3, 3, 3, 3), _ABSTRACT, freighter=True),
    Design("nx", "Nighthawk", "nac", "DD", 32, 120, (3, 3, 2, 2), _ABSTRACT,
           ext=Ftc2007Design(tech="non-standard", approved=APPROVED, announced=True)),
    Design("kx", "Kestrel", "nac", "DD", 32, 110, (3, 3, 2, 2), _ABSTRACT,
           ext=Ftc2007Design(tech="non-indigenous", approved=APPROVED, announced=True)),
    # §16.2: a non-standard design not approved (a case may approve it, ``approved``).
    Design("ux", "Umbra", "nac", "DD", 32, 120, (3, 3, 2, 2), _ABSTRACT,
           ext=Ftc2007Design(tech="non-standard")),
    # §20: a cruiser with a nova cannon and a cloaking field, and one with heavy missiles.
    Design("nv", "Novak", "nac", "CH", 60, 204, (5, 5, 4, 4), _ABSTRACT,
           ext=Ftc2007Design(fits=("nova-cannon", "cloaking-field"))),
    Design("hm", "Hammer", "esu", "CL", 44, 150, (4, 4, 3, 3), _ABSTRACT,
           ext=Ftc2007Design(fits=("heavy-missiles",))),
    Design("cl", "Huron", "nac", "CL", 44, 150, (4, 4, 3, 3), _ABSTRACT),
    Design("sv", "Hollow", "sav", "CL", 40, 136, (4, 4, 4), _ABSTRACT),
)


def build_state(spec: dict[str, Any]) -> State:
    turn = spec.get("turn", 1)
    systems = tuple(System(s["id"], s.get("name", s["id"].title()), Hex(*s["hex"]),
                           owner=s.get("owner"), income=s.get("income", 50 if s.get("owner")
                                                              else None),
                           idp=s.get("idp", s.get("income", 50) if s.get("owner") else None),
                           idp_full=s.get("idp_full"),
                           ext=Ftc2007System(interdicted_by=s.get("interdicted_by"),
                                              paid_income_to=s.get("paid_income_to")))
                    for s in spec["systems"])
    routes = tuple(Route(rid, tuple(tuple(link) for link in links))
                   for rid, links in spec.get("routes", {}).items())
    groups = tuple(Group(g["id"], g["owner"], Hex(*g["at"]) if isinstance(g["at"], list)
                         else g["at"],
                         tuple(case_ship(g["id"], i, d, Ftc2007Ship)
                               for i, d in enumerate(g.get("ships", ()))),
                         dummy=g.get("dummy", False), revealed=g.get("revealed", False),
                         seen_by=tuple(g.get("seen_by", ())),
                         ext=Ftc2007Group(jumped_out=True) if g.get("jumped_out") else None)
                   for g in spec.get("groups", ()))
    given = {p: dict(fields) for p, fields in spec.get("players", {}).items()}
    for fields in given.values():  # ftc2007's keys of a player, as the state writes them
        mine = {k: fields.pop(k) for k in ("owed", "maintenance", "ally") if k in fields}
        if "owed" in mine:  # §10.7: repulse damage owed
            mine["owed"] = tuple(OwedDamage(**{**d, "ships": tuple(d["ships"])})
                                 for d in mine["owed"])
        if mine:
            fields["ext"] = Ftc2007Player(**mine)
    players = case_players(systems, {p: {"treasury": 1000,
                                         **given.get(p, {})} for p in ("nac", "esu")})
    per = spec.get("turns_per_economic_turn", 6)
    calendar = case_calendar(turn, per, deadline_moves=True)
    return State(CampaignFile("case", "Case", "ftc2007", calendar,
                              Setup(1, forces=spec.get("forces")),
                              Settings(spec.get("battles", "tabletop"))),
                 players, MapFile(spec.get("radius", 5), systems, routes),
                 DesignsFile(tuple(approved(d, spec.get("approved", {})) for d in DESIGNS)),
                 GroupsFile(groups),
                 QueuesFile(keels=tuple(Keel(**k) for k in spec.get("keels", ())),
                            repairs=tuple(Repair(**r) for r in spec.get("repairs", ())),
                            ext=Ftc2007Queues(
                                tuple(Spares(**x) for x in spec.get("spares", ())),
                                tuple(DefenceWork(**d) for d in spec.get("defences", ())))))


def approved(design: Design, days: dict[str, date]) -> Design:
    """``design`` with the umpires' approval of ``days`` recorded, not yet told (§16.2)."""
    if design.id not in days:
        return design
    return dataclasses.replace(design, ext=dataclasses.replace(
        design.ext or Ftc2007Design(), approved=days[design.id]))


def case_ship(group: str, i: int, spec: str | dict[str, Any],
              extension: type[Extension] | None = None) -> Ship:
    """A ship of a case's group: a design id (the ship named ``<group>-<n>``), or
    ``{design: dd, name: Lexington, damage: 3, …}`` giving any of the ship's fields,
    the shared ones' or (with ``extension``, the ruleset's record for a ship) its
    ruleset's."""
    if isinstance(spec, str):
        return Ship(f"{group}-{i + 1}", spec)
    shared = {f.name for f in dataclasses.fields(Ship)}
    fields = {k: v for k, v in spec.items() if k not in ("design", "name") and k in shared}
    more = {k: v for k, v in spec.items() if k not in shared}
    if more:
        assert extension is not None, f"not a ship's field: {sorted(more)}"
        fields["ext"] = extension(**{k: tuple(v) if isinstance(v, list) else v
                                     for k, v in more.items()})
    return Ship(spec.get("name", f"{group}-{i + 1}"), spec["design"], **fields)


def build_orders(state: State, texts: dict[str, str],
                 adapter: Any = ADAPTER) -> dict[str, LoadedOrders]:
    """Each player's order text (without its turn and player lines) parsed as the
    file ``orders/<turn>/<player>.yaml``, in ``adapter``'s format (ftc2007's unless
    another ruleset's is given)."""
    turn = turn_id(state.campaign.calendar.turn)
    return {player: parse_orders(f"turn: {turn}\nplayer: {player}\n{text}".encode(),
                                 f"orders/{turn}/{player}.yaml", adapter)
            for player, text in texts.items()}


#: The case players' colours, in the order they are given.
COLOURS = ("#0072b2", "#d55e00", "#009e73")
#: A case campaign opens on this day; its first turn's orders are due then.
OPENED = date(2026, 3, 9)
FIRST_DEADLINE = datetime(2026, 3, 15, 20, tzinfo=UTC)


def case_calendar(turn: int, per: int = 6, deadline_moves: bool = False) -> Calendar:
    """Strategic turn ``turn`` of a case campaign, ``per`` turns to an economic turn;
    its deadline is the first one, or (``deadline_moves``) a week later a turn."""
    deadline = FIRST_DEADLINE + (turn - 1) * timedelta(days=7) if deadline_moves \
        else FIRST_DEADLINE
    return Calendar(OPENED, turn, (turn - 1) // per + 1, deadline, turns_per_economic_turn=per)


def case_players(systems: tuple[System, ...] | list[System],
                 fields: dict[str, dict[str, Any]]) -> PlayersFile:
    """The players by id, in order (named by their id in capitals), each with the
    given fields (``treasury`` among them) and the first system they own as capital."""
    capital = capitals(systems, tuple(fields))
    return PlayersFile(tuple(Player(p, p.upper(), COLOURS[i], capital=capital[p], **given)
                             for i, (p, given) in enumerate(fields.items())))


def capitals(systems: tuple[System, ...] | list[System],
             players: tuple[str, ...] | list[str]) -> dict[str, str]:
    """Each player's capital: the first system they own, else the first system."""
    return {p: next((s.id for s in systems if s.owner == p), systems[0].id) for p in players}
