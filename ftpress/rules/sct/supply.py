"""Endurance and supply (§5): how much a task force carries, and refilling it."""

from __future__ import annotations

import dataclasses

from ftpress.rules.sct.plan import force, rule
from ftpress.state.events import PUBLIC, Event
from ftpress.state.model import Group, State

#: §5.1: endurance points of military and of civilian ships.
MILITARY_ENDURANCE = 6
CIVILIAN_ENDURANCE = 2

#: Ruling: endurance is kept per task force, the counter that moves (§4.4 spends it
#: for a move of the whole force). A force with any military ship carries the
#: military allowance; one of civilian ships only (designs marked ``freighter``)
#: carries the civilian allowance.
#: §5.4 says auxiliaries extend a force's range but not by how much: they add
#: this many points (none, until the umpire rules otherwise).
AUXILIARY_BONUS = 0

#: Ruling: a depot supplies only its owner's task forces (§5.3 says "a system with a
#: Supply Depot"; supplying an enemy would make depots a prize for whoever sits there).
DEPOT_SUPPLIES_OWNER_ONLY = True


def max_endurance(state: State, group: Group) -> int:
    """§5.1: the endurance a task force holds when full; auxiliaries add
    :data:`AUXILIARY_BONUS` to it (§5.4)."""
    civilian = [s for s in group.ships
                if (d := state.design(s.design)) is not None and d.freighter]
    if group.ships and len(civilian) == len(group.ships):
        return CIVILIAN_ENDURANCE
    return MILITARY_ENDURANCE + (AUXILIARY_BONUS if civilian else 0)


def endurance_of(state: State, group: Group) -> int:
    """Endurance left now; a force that never had it recorded is full."""
    return max_endurance(state, group) if group.endurance is None else group.endurance


def replenish(state: State) -> tuple[State, list[Event]]:
    """§5.3: every task force that ends its movement at a system with a supply
    depot (§7.2) is filled up again."""
    events: list[Event] = []
    groups = []
    for group in state.groups.groups:
        full = max_endurance(state, group)
        system = state.system(group.at) if isinstance(group.at, str) else None
        if system is not None and system.depot and endurance_of(state, group) < full and (
                system.owner == group.owner or not DEPOT_SUPPLIES_OWNER_ONLY):
            events.append(Event("endurance", rule("5.3"), f"{force(state, group.id, start=True)} "
                                f"is resupplied at the "
                                f"depot of {system.name}: {endurance_of(state, group)} → "
                                f"{full} endurance points.", player=group.owner,
                                group=group.id, at=system.id, audience=PUBLIC))
            group = dataclasses.replace(group, endurance=full)
        groups.append(group)
    return dataclasses.replace(state, groups=dataclasses.replace(
        state.groups, groups=tuple(groups))), events


def spend(group: Group, state: State) -> Group:
    """One endurance point spent (§5.2)."""
    return dataclasses.replace(group, endurance=endurance_of(state, group) - 1)


def within_allowance(state: State) -> tuple[State, list[Event]]:
    """§5.1: a task force carries no more endurance than its ships hold. One left
    with only civilian ships after its losses or a reorganisation keeps at most
    the civilian allowance; the points over it are lost."""
    events: list[Event] = []
    groups = []
    for group in state.groups.groups:
        full = max_endurance(state, group)
        if group.endurance is not None and group.endurance > full:
            events.append(Event("endurance", rule("5.1"), f"{force(state, group.id, start=True)} "
                                f"now carries only "
                                f"{full} endurance points, all its ships can hold: "
                                f"{group.endurance} → {full}.", player=group.owner,
                                group=group.id, at=group.at, audience=PUBLIC))
            group = dataclasses.replace(group, endurance=full)
        groups.append(group)
    return dataclasses.replace(state, groups=dataclasses.replace(
        state.groups, groups=tuple(groups))), events
