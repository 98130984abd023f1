"""Task force attacks (§6, phase 7): who meets whom, and the battles fought.

Opposing task forces that end their movement within 3 MU (§6.1), and a base
with an enemy force that close (§7.3), meet. Forces linked through such
meetings make one battle between two players. A battle is fought if either
side elects to (a force's ``engage``). The campaign's ``settings.battles``
says how: on the tabletop (the turn reports the battle for the umpire to
settle, :mod:`.tabletop`), or by the shared abstract combat
(:mod:`ftpress.rules.abstract_combat`),
or the abstract combat when every force in it agreed (``abstract: true``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from itertools import combinations

from ftpress.rules import abstract_combat as ac
from ftpress.rules.sct import plane
from ftpress.rules.sct.losses import AFLOAT, CRIPPLED, DESTROYED, take_losses
from ftpress.rules.sct.orderfile import ForceOrder
from ftpress.rules.sct.plan import Plan, force, rule
from ftpress.rules.sct.plane import place_name
from ftpress.rules.sct.state_ext import position
from ftpress.rules.sct.supply import endurance_of
from ftpress.rules.sct.tabletop import settle_on_table
from ftpress.state import words
from ftpress.state.battle_results import LoadedBattle
from ftpress.state.dice import Dice
from ftpress.state.events import PUBLIC, Event
from ftpress.state.hexes import Hex
from ftpress.state.model import Group, Point, State, System

#: Ruling: a task force with no orders, or with orders that do not say, elects to
#: fight (§6.1 lets either side start a combat; holding back is an order).
ENGAGE_BY_DEFAULT = True

#: Ruling: a base always elects to fight enemy forces within 3 MU of its system;
#: it has no orders of its own (§7.3).
BASE_ENGAGES = True

#: Ruling: endurance is spent once a battle, not once a round: §6.5 charges a ship
#: "entering combat".
SUPPLY_PER_BATTLE = True

#: §6.9: fighter groups fight like small ships, but the seed gives them no values
#: (rule 8 lists ships only). They are left out of the abstract combat, and the
#: battle's event says so.
FIGHTERS_FOUGHT = False


@dataclasses.dataclass(frozen=True, slots=True)
class Meeting:
    """One battle to settle: two players' forces (and bases) within reach."""

    players: tuple[str, str]
    groups: tuple[str, ...]
    bases: tuple[str, ...]
    #: Where the first of its forces is.
    at: str | Point


def meetings(state: State, initiative: Sequence[str]) -> list[Meeting]:
    """§6.1, §7.3: for every two players (highest initiative first), the clusters of
    their forces and bases that lie within 3 MU of an opponent."""
    rank = {p: i for i, p in enumerate(initiative)}
    owners = {g.owner for g in state.groups.groups if g.ships} | {
        s.owner for s in state.map.systems if s.base and s.owner is not None}
    players = sorted(owners, key=lambda p: (rank.get(p, len(rank)), p))
    found: list[Meeting] = []
    for a, b in combinations(players, 2):
        nodes: list[tuple[str, str, Point]] = []  # (kind:id, owner, where)
        for g in state.groups.groups:
            point = plane.where(state, g.at)
            if g.owner in (a, b) and g.ships and point is not None:
                nodes.append((f"g:{g.id}", g.owner, point))
        for s in state.map.systems:
            if s.base and s.owner in (a, b) and (p := position(s)) is not None:
                nodes.append((f"b:{s.id}", s.owner, plane.flat(p)))
        links: dict[str, set[str]] = {n[0]: set() for n in nodes}
        for x, y in combinations(nodes, 2):
            either_a_force = x[0].startswith("g:") or y[0].startswith("g:")
            if x[1] != y[1] and either_a_force and plane.near(x[2], y[2]):
                links[x[0]].add(y[0])
                links[y[0]].add(x[0])
        seen: set[str] = set()
        for node in nodes:
            if node[0] in seen or not links[node[0]]:
                continue
            cluster, todo = set(), [node[0]]
            while todo:
                item = todo.pop()
                if item not in cluster:
                    cluster.add(item)
                    todo.extend(links[item] - cluster)
            seen |= cluster
            groups = tuple(n[0][2:] for n in nodes if n[0] in cluster and n[0].startswith("g:"))
            bases = tuple(n[0][2:] for n in nodes if n[0] in cluster and n[0].startswith("b:"))
            first = next(g for g in state.groups.groups if g.id == groups[0])
            assert not isinstance(first.at, Hex)  # where() placed it, so it is on the plane
            found.append(Meeting((a, b), groups, bases, first.at))
    return found


def attacks(state: State, plan: Plan, initiative: Sequence[str], dice: Dice,
            results: Mapping[str, LoadedBattle] | None = None,
            ) -> tuple[State, list[Event]]:
    """§6, §6.1 (phase 7): every meeting fought, on the table (``results``: the
    umpire's filled-in battle files by battle id) or by the abstract combat."""
    events: list[Event] = []
    for meeting in meetings(state, initiative):
        state, found = _settle(state, plan, initiative, dice, meeting, results or {})
        events += found
    return state, events


def _engages(order: ForceOrder | None) -> bool:
    """Does a task force elect to fight (§6.1)? One with no order does by ruling."""
    return order.engage if order is not None else ENGAGE_BY_DEFAULT


def _settle(state: State, plan: Plan, initiative: Sequence[str], dice: Dice,
            meeting: Meeting, results: Mapping[str, LoadedBattle],
            ) -> tuple[State, list[Event]]:
    groups = [g for g in state.groups.groups if g.id in meeting.groups and g.ships]
    if len({g.owner for g in groups} | {_system(state, b).owner for b in meeting.bases}) < 2:
        return state, []  # an earlier battle this turn has already settled it
    orders = {g.id: plan.force(g.owner, g.id) for g in groups}
    engaged = [g.id for g in groups if _engages(orders[g.id])]
    names = words.powers(state, meeting.players)
    where = place_name(state, meeting.at)
    if not engaged and not (meeting.bases and BASE_ENGAGES):
        return state, [Event("encounter", rule("6.1"),
                             f"{words.sentence(names)} meet near {where}, but neither "
                             "elects to fight.", at=meeting.at,
                             groups=meeting.groups, players=meeting.players, audience=PUBLIC)]
    mode = state.campaign.settings.battles
    agreed = all(o is not None and o.abstract for o in orders.values())
    if mode == "tabletop" or (mode == "agreed" and not agreed):
        played, found = settle_on_table(state, meeting.at, meeting.players, groups, results)
        if any(e.kind == "battle-pending" for e in found):
            return state, found
        spent, supply, _supplied = _enter(state, plan, meeting, groups)
        kept = tuple(dataclasses.replace(g, endurance=spent[g.id].endurance)
                     if g.id in spent else g for g in played.groups.groups)
        played = dataclasses.replace(played, groups=dataclasses.replace(played.groups,
                                                                        groups=kept))
        return played, supply + found
    return _abstract(state, plan, initiative, dice, meeting, groups)


def _enter(state: State, plan: Plan, meeting: Meeting, groups: list[Group],
           ) -> tuple[dict[str, Group], list[Event], dict[str, bool]]:
    """§6.5: each force going into the battle spends an endurance point (§5.2) to
    fight supplied, unless it has none or its orders save them. Returns the forces with
    the point spent, the events, and whether each force fights supplied."""
    spent: dict[str, Group] = {}
    events: list[Event] = []
    supplied: dict[str, bool] = {}
    for player in meeting.players:
        for group in (g for g in groups if g.owner == player):
            order = plan.force(player, group.id)
            wants = order.supplied if order is not None else True
            supplied[group.id] = wants and endurance_of(state, group) >= 1
            who = force(state, group.id, start=True)
            if supplied[group.id] and SUPPLY_PER_BATTLE:
                spent[group.id] = dataclasses.replace(group,
                                                      endurance=endurance_of(state, group) - 1)
                events.append(Event("endurance", rule("6.5"), f"{who} spends an "
                                    f"endurance point to fight supplied "
                                    f"({spent[group.id].endurance} left).", player=player,
                                    group=group.id, audience=PUBLIC))
            elif wants:
                events.append(Event("endurance", rule("6.5"), f"{who} has no endurance "
                                    "left and fights out of supply, at half values.",
                                    player=player, group=group.id, audience=PUBLIC))
    return spent, events, supplied


def _system(state: State, system_id: str) -> System:
    system = state.system(system_id)
    assert system is not None
    return system


def _abstract(state: State, plan: Plan, initiative: Sequence[str], dice: Dice,
              meeting: Meeting, groups: list[Group]) -> tuple[State, list[Event]]:
    """§6.2–§6.9, §7.3 by the shared abstract combat; every ship of a force fights,
    freighters and auxiliaries too (§5.4)."""
    spent, events, supplies = _enter(state, plan, meeting, groups)
    sides = []
    fighters = 0
    for player in meeting.players:
        units: list[ac.Unit] = []
        rounds: list[int] = []
        mine = [g for g in groups if g.owner == player]
        home = {s.name: g.id for g in mine for s in g.ships}
        for group in mine:
            order = plan.force(player, group.id)
            supplied = supplies[group.id]
            if order is not None and order.rounds is not None:
                rounds.append(order.rounds)
            for ship in group.ships:
                design = state.design(ship.design)
                if design is None:
                    continue
                fighters += design.fighter_groups
                v = design.abstract
                screen = order.screen.get(ship.name) if order is not None else None
                if screen not in {s.name for s in group.ships}:
                    screen = None  # the ship it screened was lost in an earlier battle
                lead = order.combine.get(ship.name) if order is not None else None
                units.append(ac.Unit(
                    f"{group.id}/{ship.name}", v.offence, v.defence, v.half, v.quarter,
                    name=ship.name, crippled=ship.crippled, supplied=supplied,
                    screening=f"{group.id}/{screen}" if screen else None,
                    combine_with=f"{home[lead]}/{lead}" if lead in home else None))
        for base in meeting.bases:
            system = _system(state, base)
            if system.owner == player:
                units.extend(ac.base_elements(f"base:{system.id}", system.income or 0,
                                              f"the base of {system.name}"))
        sides.append(ac.Side(player, tuple(units), min(rounds) if rounds else None,
                             title=words.power(state, player)))
    first = 0 if list(initiative).index(meeting.players[0]) <= list(initiative).index(
        meeting.players[1]) else 1
    result = ac.fight(sides[0], sides[1], first, dice, rule("6.3"))
    note = (f" The seed gives fighter groups no values, so the "
            f"{words.plural(fighters, 'fighter group')} aboard did not fight (§6.9)."
            if fighters and not FIGHTERS_FOUGHT else "")
    for attack in result.attacks:
        events.append(Event("battle", rule("6.3"), f"Round {attack.round}: {attack.text}",
                            at=meeting.at, players=meeting.players, rolls=attack.rolls,
                            audience=PUBLIC))
    events.append(Event("battle", rule("6.8"),
                        f"{words.sentence(words.powers(state, meeting.players))} fight near "
                        f"{place_name(state, meeting.at)}. {result.summary}{note}",
                        at=meeting.at, groups=meeting.groups, players=meeting.players,
                        audience=PUBLIC))
    return _apply(state, result, spent, meeting, events)


def _fate(unit: ac.Unit | None) -> str:
    """What the abstract combat left of a ship (§6.4)."""
    if unit is not None and unit.destroyed:
        return DESTROYED
    if unit is not None and unit.crippled:
        return CRIPPLED
    return AFLOAT


def _apply(state: State, result: ac.CombatResult, spent: dict[str, Group],
           meeting: Meeting, events: list[Event]) -> tuple[State, list[Event]]:
    """The battle's losses on the state: ships destroyed, ships crippled, forces
    emptied, bases wiped out (§6.4, §7.3)."""
    by_id = {u.id: u for side in result.sides for u in side.units}
    groups = []
    for group in state.groups.groups:
        group = spent.get(group.id, group)
        if group.id not in meeting.groups:
            groups.append(group)
            continue
        kept = take_losses(state, group, lambda g, ship: _fate(by_id.get(f"{g.id}/{ship.name}")),
                           events)
        if kept is not None:
            groups.append(kept)
    systems = []
    for system in state.map.systems:
        elements = [u for u in by_id.values() if u.base == f"base:{system.id}"]
        if elements and all(u.destroyed for u in elements):
            events.append(Event("ship-lost", rule("7.3"), f"The base of {system.name} is "
                                "destroyed, all five elements.", player=system.owner,
                                at=system.id, audience=PUBLIC))
            system = dataclasses.replace(system, base=False)
        systems.append(system)
    state = dataclasses.replace(
        state, groups=dataclasses.replace(state.groups, groups=tuple(groups)),
        map=dataclasses.replace(state.map, systems=tuple(systems)))
    return state, events
