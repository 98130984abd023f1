"""Legality of a player's sct orders: what the rules forbid *now*.

:func:`vet` sorts one player's orders into the ones that stand and the ones the
rules forbid, each with its place in the file and the reason. ``ftpress check``
reports the forbidden ones as illegal orders at ``path:line:col``; the turn
turns a refused force order into a hold and drops a refused economic order,
each with an event. One function decides both.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import TypeAlias

from ftpress.errors import Problem
from ftpress.orders.load import LoadedOrders
from ftpress.rules import planning
from ftpress.rules.sct import costs, plane
from ftpress.rules.sct.orderfile import BuildOrder, ForceOrder, RepairOrder, SctOrders, WorkOrder
from ftpress.rules.sct.state_ext import of_system
from ftpress.rules.suggest import aside, did_you_mean
from ftpress.state.model import Group, Point, State


@dataclass(frozen=True, slots=True)
class Rejection:
    """An order the rules forbid: where it is in the file, and why."""

    loc: tuple[Hashable, ...]
    message: str
    #: The task force whose order it is; None for the file or the economy.
    force: str | None = None
    key: bool = False


@dataclass(frozen=True, slots=True)
class Spend:
    """An accepted economic order, priced: where the money goes and where from."""

    order: BuildOrder | RepairOrder | WorkOrder
    #: The file location of the order, for events.
    loc: tuple[Hashable, ...]
    #: The system the work is done at.
    at: str
    cost: int
    #: Paid out of that system's income this turn, and out of the treasury.
    from_income: int
    from_treasury: int


#: One player's orders sorted (:class:`ftpress.rules.planning.Vetted`): each task
#: force's order that stands, the orders refused, and beside them the economic orders
#: paid for (phase 2), in file order.
Vetted: TypeAlias = planning.Vetted[ForceOrder, Rejection, tuple[Spend, ...]]


def paid_for(vetted: Vetted) -> tuple[Spend, ...]:
    """The player's economic orders that stand, priced, in file order."""
    return vetted.rest


def vet(state: State, loaded: LoadedOrders[SctOrders]) -> Vetted:
    """Sort one player's orders into those that stand and those the rules forbid."""
    orders = loaded.orders
    rejected: list[Rejection] = []
    player = state.player(orders.player)
    if player is None:
        known = ", ".join(p.id for p in state.players.players)
        rejected.append(Rejection(("player",), f"there is no player {orders.player!r} in "
                                  f"this campaign; expected one of {known}"))
        return planning.Vetted(orders.player, {}, tuple(rejected), ())
    forces: dict[str, ForceOrder] = {}
    mine = {g.id: g for g in state.groups_of(player.id)}
    # Ships that do not lead an attack of their own this turn: a combined attack
    # must join a ship that does (§6.7).
    holding = {ship for o in orders.forces.values() for ship in (*o.combine, *o.screen)}
    for force_id, order in orders.forces.items():
        found = list(_force(state, mine, force_id, order, holding))
        if found:
            rejected.extend(found)
        else:
            forces[force_id] = order
    spends: list[Spend] = []
    _economy(state, loaded, rejected, spends)
    return planning.Vetted(orders.player, forces, tuple(rejected), tuple(spends))


def problems(state: State, loaded: LoadedOrders[SctOrders]) -> list[Problem]:
    """Every illegal order in one player's file, located (``IllegalOrder``)."""
    return [Problem(*loaded.where(*r.loc, key=r.key), r.message)
            for r in vet(state, loaded).rejected]


# --- task forces (phase 3) ------------------------------------------------------------

def _force(state: State, mine: dict[str, Group], force_id: str,
           order: ForceOrder, holding: set[str]) -> list[Rejection]:
    loc = ("forces", force_id)
    group = mine.get(force_id)
    if group is None:
        theirs = next((g for g in state.groups.groups if g.id == force_id), None)
        why = (f"task force {force_id!r} is {theirs.owner}'s, not yours" if theirs else
               f"there is no task force {force_id!r}{aside(force_id, ((g, g) for g in mine))}")
        listing = ", ".join(sorted(mine)) or "none"
        return [Rejection(loc, f"{why}; expected one of your task forces: {listing}",
                          force_id, key=True)]
    found: list[Rejection] = []
    start = plane.where(state, group.at)
    if order.toward is not None and order.move is not None and start is not None:
        target = _target(state, order.toward)
        if target is None:
            found.append(Rejection((*loc, "toward"), f"there is no system or task force "
                                   f"{order.toward!r} to aim at"
                                   f"{did_you_mean(order.toward, _targets(state))}", force_id))
        elif order.move.distance == 0:
            found.append(Rejection((*loc, "toward"), "a move of 0 MU goes nowhere; give a "
                                   "distance of 1 to 3 MU to aim it", force_id))
        elif target != start:
            off = plane.off_facing(order.move.facing, plane.bearing(start, target))
            if off > plane.DEVIATION + 1e-9:
                found.append(Rejection((*loc, "toward"), f"{order.toward} lies {off:.0f}° off "
                                       f"facing {order.move.facing}; a move may turn at most "
                                       f"{plane.DEVIATION:.0f}° (§4.3)", force_id))
    if order.secondary is not None:
        if not group.endurance:
            found.append(Rejection((*loc, "secondary"), f"{force_id} has no endurance points "
                                   "left; a secondary move costs one (§4.4, §5.2)", force_id))
        toward = order.secondary.toward
        if toward is not None and _target(state, toward) is None:
            found.append(Rejection((*loc, "secondary", "toward"), f"there is no system or "
                                   f"task force {toward!r} to move toward"
                                   f"{did_you_mean(toward, _targets(state))}", force_id))
    names = {s.name for s in group.ships}
    for kind in ("screen", "combine"):
        pairs: dict[str, str] = getattr(order, kind)
        for ship, other in pairs.items():
            if ship not in names:
                found.append(Rejection((*loc, kind, ship), f"{force_id} has no ship named "
                                       f"{ship!r}; expected one of {_names(names)}", force_id,
                                       key=True))
            elif other == ship:
                found.append(Rejection((*loc, kind, ship), f"{ship} cannot {kind} itself",
                                       force_id))
            elif kind == "screen" and other not in names:
                found.append(Rejection((*loc, kind, ship), f"{ship} can screen only a ship "
                                       f"of its own task force (§6.6); {force_id} has no "
                                       f"{other!r}", force_id))
            elif kind == "combine" and other not in _all_names(state, group.owner):
                found.append(Rejection((*loc, kind, ship), f"you have no ship named "
                                       f"{other!r} to combine with", force_id))
            elif kind == "combine" and other in holding:
                found.append(Rejection((*loc, kind, ship), f"{other} screens or combines "
                                       "itself, so it makes no attack to join; combine with "
                                       "a ship that attacks (§6.7)", force_id))
    for ship in order.screen:
        seen, follow = {ship}, order.screen.get(ship)
        while follow is not None and follow not in seen:
            seen.add(follow)
            follow = order.screen.get(follow)
        if follow == ship:
            found.append(Rejection((*loc, "screen", ship), f"{ship} screens a ship that in "
                                   f"turn screens it; a screen protects a ship that does not "
                                   "screen it back (§6.6)", force_id))
    for ship in sorted(set(order.screen) & set(order.combine)):
        found.append(Rejection((*loc, "combine", ship), f"{ship} screens, and a screening "
                               "ship does not attack (§6.2); give it one of screen or combine",
                               force_id, key=True))
    taken = {g.id for g in state.groups.groups}
    for new_id, leaving in order.split.items():
        if new_id in taken:
            found.append(Rejection((*loc, "split", new_id), f"task force {new_id!r} already "
                                   "exists; a split needs a new id", force_id, key=True))
        for ship in leaving:
            if ship not in names:
                found.append(Rejection((*loc, "split", new_id), f"{force_id} has no ship "
                                       f"named {ship!r}", force_id))
    leaving_all = {s for ships in order.split.values() for s in ships}
    if names and names <= leaving_all:
        found.append(Rejection((*loc, "split"), f"every ship leaves {force_id}; keep at "
                               "least one in it", force_id, key=True))
    for other in order.merge:
        if other == force_id or other not in mine:
            found.append(Rejection((*loc, "merge"), f"{other!r} is not another of your task "
                                   "forces; merge lists your forces that join this one",
                                   force_id))
    return found


def _targets(state: State) -> list[tuple[str, str]]:
    """What a move may aim at (§4.3): every system, by id and name, and task force."""
    return [*((s.id, s.name) for s in state.map.systems),
            *((g.id, g.id) for g in state.groups.groups)]


def _target(state: State, target_id: str) -> Point | None:
    system = state.system(target_id)
    if system is not None:
        return plane.where(state, target_id)
    group = next((g for g in state.groups.groups if g.id == target_id), None)
    return plane.where(state, group.at) if group is not None else None


def _names(names: set[str]) -> str:
    return ", ".join(sorted(names)) or "none"


def _all_names(state: State, owner: str) -> set[str]:
    return {s.name for g in state.groups_of(owner) for s in g.ships}


# --- economy (phase 2) ----------------------------------------------------------------

def _economy(state: State, loaded: LoadedOrders[SctOrders], rejected: list[Rejection],
             spends: list[Spend]) -> None:
    """§3, §7: what the player may pay for now, with this turn's income at each
    system and the treasury of earlier turns (§3.2): each order paid for added to
    ``spends``, each refused to ``rejected``."""
    orders = loaded.orders
    owner = orders.player
    player = state.player(owner)
    assert player is not None
    income = {s.id: s.income or 0 for s in state.worlds_of(owner)}
    treasury = player.treasury
    booked: dict[str, int] = {}
    names = _all_names(state, owner) | {k.name for k in state.queues.keels if k.owner == owner}
    repairing = {(r.group, r.ship) for r in state.queues.repairs}
    works_ordered: set[tuple[str, str]] = set()
    economy = orders.economy
    for i, build in enumerate(economy.builds):
        loc = ("economy", "builds", i)
        design = state.design(build.design)
        system = state.system(build.at)
        why = None
        if design is None:
            why = (f"there is no design {build.design!r}; expected a design id from "
                   "state/designs.yaml")
        elif player.navy is not None and design.navy != player.navy:
            why = f"{design.name} is a {design.navy} design; you build {player.navy} designs"
        elif system is None or system.owner != owner:
            why = f"{build.at!r} is not one of your systems"
        elif not system.shipyard:
            why = f"{system.name} has no shipyard; ships are built at shipyards (§3.3)"
        elif build.name in names:
            why = f"you already have a ship named {build.name!r}; give the new ship its own"
        if why is None:
            assert design is not None and system is not None
            why = _yard_room(state, system.id, costs.ship_cost(design), booked)
        if why is not None:
            rejected.append(Rejection(loc, why))
            continue
        assert design is not None and system is not None
        spend = _pay(rejected, spends, build, loc, system.id, costs.ship_cost(design),
                     income, treasury)
        if spend is None:
            continue
        treasury -= spend.from_treasury
        booked[system.id] = booked.get(system.id, 0) + spend.cost
        names.add(build.name)
    for i, repair in enumerate(economy.repairs):
        loc = ("economy", "repairs", i)
        group = next((g for g in state.groups_of(owner) if g.id == repair.force), None)
        ship = next((s for s in group.ships if s.name == repair.ship), None) if group else None
        design = state.design(ship.design) if ship is not None else None
        system = state.system(group.at) if group is not None and isinstance(group.at, str) \
            else None
        why = None
        if group is None:
            why = f"you have no task force {repair.force!r}"
        elif ship is None or design is None:
            why = f"{repair.force} has no ship named {repair.ship!r}"
        elif not ship.crippled:
            why = f"{ship.name} is not crippled; only crippled ships are repaired (§3.3)"
        elif (group.id, ship.name) in repairing:
            why = f"{ship.name} is already under repair"
        elif system is None or system.owner != owner or not system.shipyard:
            why = (f"{repair.force} is not at one of your shipyards; a ship is repaired at a "
                   "shipyard (§3.3)")
        if why is None:
            assert design is not None and system is not None
            why = _yard_room(state, system.id, costs.repair_cost(design), booked)
        if why is not None:
            rejected.append(Rejection(loc, why))
            continue
        assert design is not None and system is not None and ship is not None
        spend = _pay(rejected, spends, repair, loc, system.id, costs.repair_cost(design),
                     income, treasury)
        if spend is None:
            continue
        treasury -= spend.from_treasury
        booked[system.id] = booked.get(system.id, 0) + spend.cost
        repairing.add((repair.force, ship.name))
    for i, work in enumerate(economy.works):
        loc = ("economy", "works", i)
        system = state.system(work.at)
        why = None
        if system is None or system.owner != owner:
            why = f"{work.at!r} is not one of your systems"
        elif getattr(system, work.kind):
            why = f"{system.name} already has a {work.kind}"
        elif work.kind in of_system(system).works or (work.at, work.kind) in works_ordered:
            why = f"a {work.kind} is already being built at {system.name}"
        if why is not None:
            rejected.append(Rejection(loc, why))
            continue
        assert system is not None
        cost, _turns = costs.works_cost(work.kind, system)
        spend = _pay(rejected, spends, work, loc, system.id, cost, income, treasury)
        if spend is None:
            continue
        treasury -= spend.from_treasury
        works_ordered.add((work.at, work.kind))


def _yard_room(state: State, system_id: str, cost: int, booked: dict[str, int]) -> str | None:
    system = state.system(system_id)
    assert system is not None
    used = costs.in_hand(state, system_id) + booked.get(system_id, 0)
    limit = costs.yard_limit(system)
    if used + cost > limit:
        return (f"this costs {cost} MUCr but the shipyard at {system.name} may have at most "
                f"{limit} MUCr of projects in hand (half its EV, §7.4) and has {used}")
    return None


def _pay(rejected: list[Rejection], spends: list[Spend],
         order: BuildOrder | RepairOrder | WorkOrder, loc: tuple[Hashable, ...],
         at: str, cost: int, income: dict[str, int], treasury: int) -> Spend | None:
    """Pay ``cost`` from the system's income this turn, then the treasury (§3.2)."""
    local = min(cost, income.get(at, 0))
    rest = cost - local
    if rest > treasury:
        rejected.append(Rejection(loc, f"this costs {cost} MUCr; {at} has "
                                  f"{income.get(at, 0)} MUCr of income left this turn and "
                                  f"the treasury {treasury} MUCr (this turn's income "
                                  "reaches the treasury only next turn, §3.2)"))
        return None
    income[at] = income.get(at, 0) - local
    spend = Spend(order, loc, at, cost, local, rest)
    spends.append(spend)
    return spend
