"""The money phases of a turn: income (phase 1), economic orders (phase 2) and
deliveries (phase 8). Rules §3 and §7.2–§7.4.

Money moves by events with ``amount`` and ``account``: a turn's amounts for a
player add up to the change in their treasury. This turn's income can pay for
work at the system that earned it; what is not spent goes to the treasury,
which pays for work anywhere from the next turn on (§3.2).
"""

from __future__ import annotations

import dataclasses
import math

from ftpress.rules.sct import costs
from ftpress.rules.sct.orderfile import BuildOrder, RepairOrder, WorkOrder
from ftpress.rules.sct.orders import paid_for
from ftpress.rules.sct.plan import FORCES_ARE_PUBLIC, Plan, rule
from ftpress.rules.sct.state_ext import Installation, SctSystem, of_system
from ftpress.rules.sct.supply import max_endurance
from ftpress.state import words
from ftpress.state.events import PUBLIC, Audience, Event
from ftpress.state.extension import extended
from ftpress.state.model import Group, Keel, Repair, Ship, State, System

#: Ruling: a finished repair waits for its ship to be back at the yard (the seed
#: delivers repairs in phase 8 but does not say whether the ship must stay there).
REPAIR_WAITS_FOR_SHIP = True


def collect_income(state: State) -> tuple[dict[str, int], list[Event]]:
    """§3.1 (phase 1): every player's systems pay their EV for this turn."""
    income: dict[str, int] = {}
    events: list[Event] = []
    for player in state.players.players:
        worlds = state.worlds_of(player.id)
        total = sum(s.income or 0 for s in worlds)
        income[player.id] = total
        yields = "yields" if len(worlds) == 1 else "yield"
        events.append(Event("income", rule("3.1"),
                            f"{words.powers_own(state, player.id, start=True)} "
                            f"{words.plural(len(worlds), 'system')} {yields} "
                            f"{total} MUCr this turn.", player=player.id,
                            amount=total, account="income", audience=PUBLIC))
    return income, events


def economic_orders(state: State, plan: Plan, income: dict[str, int],
                    ) -> tuple[State, list[Event]]:
    """§3.2, §3.3, §7 (phase 2): begin the builds, repairs and installations that
    stand, paid in full now; the income left over goes into the treasury."""
    events: list[Event] = []
    turn = state.campaign.calendar.turn
    keels = list(state.queues.keels)
    repairs = list(state.queues.repairs)
    systems = {s.id: s for s in state.map.systems}
    players = []
    for player in state.players.players:
        vetted = plan.vetted.get(player.id)
        spent = 0
        who = words.power(state, player.id, start=True)
        for n, spend in enumerate(paid_for(vetted) if vetted else (), start=1):
            spent += spend.cost
            where = plan.where(player.id, *spend.loc)
            order = spend.order
            system = systems[spend.at]
            if isinstance(order, BuildOrder):
                design = state.design(order.design)
                assert design is not None
                keel = Keel(f"{player.id}-{turn}-{n}", player.id, system.id, design.id,
                            order.name)
                keels.append(keel)
                rate = costs.yard_rate(system)
                # A ship on the slips is in no task force, so the ruling that makes
                # forces public (§1.1) does not reach it: its builder's until delivered.
                events.append(Event("keel-laid", rule("3.3"), f"{who} begins "
                                    f"{order.name}, a {design.name} {design.size}, at "
                                    f"{system.name} for {spend.cost} MUCr "
                                    f"({_paid(spend.from_income, spend.from_treasury)}); "
                                    f"about {words.plural(math.ceil(spend.cost / rate), 'turn')} "
                                    f"at {rate} MUCr a turn.", player=player.id, at=system.id,
                                    order=where, amount=-spend.cost, account="construction",
                                    audience=Audience.told(player.id)))
            elif isinstance(order, RepairOrder):
                rate = costs.yard_rate(system)
                ready = turn + math.ceil(spend.cost / rate) - 1
                repairs.append(Repair(f"{player.id}-{turn}-{n}", player.id, order.force,
                                      order.ship, system.id, 1, spend.cost, ready))
                events.append(Event("repair", rule("3.3"), f"{who} begins repairing "
                                    f"{order.ship} at {system.name} for "
                                    f"{spend.cost} MUCr, half its value "
                                    f"({_paid(spend.from_income, spend.from_treasury)}); "
                                    f"ready at the end of turn {ready}.", player=player.id,
                                    group=order.force, at=system.id, order=where,
                                    amount=-spend.cost, account="repairs", audience=PUBLIC))
            else:
                assert isinstance(order, WorkOrder)
                _cost, turns = costs.works_cost(order.kind, system)
                systems[system.id] = extended(
                    system, SctSystem, works={**of_system(system).works, order.kind: turns})
                events.append(Event("works-begun", rule(_WORKS_RULE[order.kind]),
                                    f"{who} begins a {order.kind} at {system.name} for "
                                    f"{spend.cost} MUCr "
                                    f"({_paid(spend.from_income, spend.from_treasury)}); "
                                    f"done in {words.plural(turns, 'turn')}.", player=player.id,
                                    at=system.id, order=where, amount=-spend.cost,
                                    account="construction", audience=PUBLIC))
        earned = income.get(player.id, 0)
        players.append(dataclasses.replace(player, treasury=player.treasury + earned - spent))
    state = dataclasses.replace(
        state, players=dataclasses.replace(state.players, players=tuple(players)),
        map=dataclasses.replace(state.map, systems=tuple(systems[s.id]
                                                         for s in state.map.systems)),
        queues=dataclasses.replace(state.queues, keels=tuple(keels), repairs=tuple(repairs)))
    return state, events


_WORKS_RULE = {"depot": "7.2", "base": "7.3", "shipyard": "7.4"}


def _free_id(wanted: str, taken: set[str]) -> str:
    """``wanted``, or ``wanted-2``, ``wanted-3``… if a task force already has it."""
    found, n = wanted, 1
    while found in taken:
        n += 1
        found = f"{wanted}-{n}"
    return found


def _paid(from_income: int, from_treasury: int) -> str:
    parts = []
    if from_income:
        parts.append(f"{from_income} from this turn's income there")
    if from_treasury:
        parts.append(f"{from_treasury} from the treasury")
    return " and ".join(parts) or "nothing to pay"


def deliver(state: State) -> tuple[State, list[Event]]:
    """Phase 8 (§3.3, §7.2–§7.4): a turn's work at every yard and site; finished
    ships join a new task force at their yard, finished repairs lift the
    crippling, finished installations stand."""
    events: list[Event] = []
    turn = state.campaign.calendar.turn
    groups = list(state.groups.groups)
    keels: list[Keel] = []
    for keel in state.queues.keels:
        system, design = state.system(keel.at), state.design(keel.design)
        if system is None or design is None or system.owner != keel.owner \
                or not system.shipyard:
            keels.append(keel)  # a yard lost or gone: the work waits for the umpire
            continue
        built = keel.built + costs.yard_rate(system)
        if built < costs.ship_cost(design):
            keels.append(dataclasses.replace(keel, built=built))
            continue
        force_id = _free_id(keel.id, {g.id for g in groups})
        force = Group(force_id, keel.owner, keel.at, (Ship(keel.name, keel.design),),
                      revealed=FORCES_ARE_PUBLIC)
        force = dataclasses.replace(force, endurance=max_endurance(state, force))
        groups.append(force)
        own = words.powers_own(state, keel.owner, start=True)
        events.append(Event("ship-built", rule("3.3"), f"{own} {keel.name}, a {design.name} "
                            f"{design.size}, is delivered at {system.name} and forms a new task "
                            f"force.", player=keel.owner, group=force_id,
                            at=keel.at, audience=PUBLIC))
    repairs: list[Repair] = []
    for repair in state.queues.repairs:
        home = next((i for i, g in enumerate(groups) if g.owner == repair.owner
                     and g.at == repair.at and any(s.name == repair.ship for s in g.ships)),
                    None)
        alive = any(s.name == repair.ship for g in groups if g.owner == repair.owner
                    for s in g.ships)
        if not alive:
            own = words.powers_own(state, repair.owner, start=True)
            events.append(Event("repaired", rule("3.3"), f"{own} {repair.ship} was lost before "
                                "its repair was done; the money is spent.",
                                player=repair.owner, at=repair.at, audience=PUBLIC))
            continue
        if home is None and not REPAIR_WAITS_FOR_SHIP:
            home = next(i for i, g in enumerate(groups) if g.owner == repair.owner
                        and any(s.name == repair.ship for s in g.ships))
        if repair.ready > turn or home is None:
            repairs.append(repair)  # not done yet, or done once she is back at the yard
            continue
        group = groups[home]
        ships = tuple(dataclasses.replace(s, crippled=False) if s.name == repair.ship else s
                      for s in group.ships)
        groups[home] = dataclasses.replace(group, ships=ships)
        own = words.powers_own(state, repair.owner, start=True)
        events.append(Event("repaired", rule("3.3"), f"{own} {repair.ship} is repaired at "
                            f"{words.world(state, repair.at)} and no longer crippled.",
                            player=repair.owner, group=group.id, at=repair.at, audience=PUBLIC))
    systems: list[System] = []
    for system in state.map.systems:
        works: dict[Installation, int] = {}
        done: list[Installation] = []
        for kind, left in of_system(system).works.items():
            if left <= 1:
                done.append(kind)
            else:
                works[kind] = left - 1
        if done or works != of_system(system).works:
            system = dataclasses.replace(system, depot=system.depot or "depot" in done,
                                         base=system.base or "base" in done,
                                         shipyard=system.shipyard or "shipyard" in done)
            system = extended(system, SctSystem, works=works)
        for kind in done:
            events.append(Event("works-done", rule(_WORKS_RULE[kind]), f"The {kind} at "
                                f"{system.name} is complete.", player=system.owner,
                                at=system.id, audience=PUBLIC))
        systems.append(system)
    state = dataclasses.replace(
        state, groups=dataclasses.replace(state.groups, groups=tuple(groups)),
        map=dataclasses.replace(state.map, systems=tuple(systems)),
        queues=dataclasses.replace(state.queues, keels=tuple(keels), repairs=tuple(repairs)))
    return state, events

