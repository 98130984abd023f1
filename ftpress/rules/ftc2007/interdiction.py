"""§8.2 (as amended 27 May) and §17.2.1: when interdiction ends."""

from __future__ import annotations

import dataclasses

from ftpress.rules.ftc2007.plan import Plan
from ftpress.rules.ftc2007.sections import rule
from ftpress.rules.ftc2007.state_ext import Ftc2007System, interdictor
from ftpress.state.events import PUBLIC, Event
from ftpress.state.extension import extended
from ftpress.state.model import State
from ftpress.state.words import power


def lift_interdictions(state: State, plan: Plan) -> tuple[State, list[Event]]:
    """An interdiction ends at the end of the turn unless the interdictor still has
    a group at the world on attack orders: a fleet that leaves, or switches to
    stand off, ends it (§8.2; stand off never interdicts, §17.2.1). One that stays
    on attack keeps it until the next attack roll (§10.6) says otherwise.
    """
    events: list[Event] = []
    systems = []
    for world in state.map.systems:
        owner = interdictor(world)
        if owner is not None and not any(
                g.owner == owner and state.hex_of(g.at) == world.hex
                and plan.posture(g.id, g.owner) == "attack" for g in state.groups.groups):
            events.append(Event(
                "interdiction-ends", rule("8.2"),
                f"{power(state, owner, start=True)} no longer has a group on attack orders at "
                f"{world.name}, so its interdiction ends.", audience=PUBLIC, player=owner,
                at=world.id))
            world = extended(world, Ftc2007System, interdicted_by=None)
        systems.append(world)
    new_map = dataclasses.replace(state.map, systems=tuple(systems))
    return dataclasses.replace(state, map=new_map), events
