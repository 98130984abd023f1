"""§4.3 Maintain Orbit and §8 Claim systems.

A group that maintains orbit at a neutral system, uninterrupted, claims it in
name (§8.1); its loyalty rating only moves in the Resources Phase, which is not
part of this rulebook, so ftpress reports that part and does not invent it.
At another power's system the group is invading (§8.2).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from ftpress.rules.ftcamp02.orders import Vetted
from ftpress.rules.ftcamp02.plan import rule
from ftpress.rules.ftcamp02.space import place_hex
from ftpress.rules.ftcamp02.state_ext import Ftcamp02System, of_group, of_system
from ftpress.state import words
from ftpress.state.events import PUBLIC, Event
from ftpress.state.extension import extended
from ftpress.state.model import MapFile, State
from ftpress.state.words import power, powers, powers_own

#: Ruling: battles are not fought by this chapter, so the only interruption ftpress
#: knows is another power's marker in the system's hex at the end of the round:
#: then nobody's claim stands this round (a battle will decide).
CONTESTED_INTERRUPTS = True

#: Ruling: a claim in name stands until another power makes an uninterrupted
#: claim of its own on the same neutral system.
LATEST_CLAIM_STANDS = True


def maintain_orbits(state: State, vetted: Mapping[str, Vetted],
                    where: Mapping[tuple[str, str], str | None]) -> tuple[State, list[Event]]:
    """§4.3, §8: every Maintain Orbit order, at the end of the round's movement: a
    claim in name on a neutral system (§8.1), an invasion elsewhere (§8.2)."""
    events: list[Event] = []
    claims: dict[str, str] = {}
    for player, v in sorted(vetted.items()):
        for group_id, order in sorted(v.accepted.items()):
            if order.action != "maintain_orbit":
                continue
            group = next((g for g in state.groups.groups if g.id == group_id), None)
            if group is None:
                continue
            here = place_hex(state, group)
            system = state.system_at(here)
            if system is None:
                continue
            order_at = where.get((player, group_id))
            who = power(state, player, start=True)
            others = sorted({g.owner for g in state.groups.groups if g.owner != player
                             and of_group(g).attached_to is None and place_hex(state, g) == here})
            if system.owner == player and of_system(system).loyalty > 0:
                orbiting = words.group(state, group_id, PUBLIC, noun="group", start=True)
                events.append(Event("not-resolved", rule("4.3"), f"{orbiting} maintains "
                                    f"orbit at {system.name}, loyal to {power(state, player)}; "
                                    "how that "
                                    "strengthens its loyalty is for the Resources Phase, which "
                                    "is not part of this rulebook.", player=player,
                                    group=group_id, at=system.id, order=order_at,
                                    audience=PUBLIC))
            elif system.owner is not None and of_system(system).loyalty > 0:
                events.append(Event("claim", rule("8.2"), f"{who} invades {system.name}, "
                                    f"loyal to {power(state, system.owner)}: its loyalty must "
                                    "first fall to zero, which the Resources Phase decides "
                                    "(not part of this rulebook).", player=player, group=group_id,
                                    at=system.id, players=(player, system.owner), order=order_at,
                                    audience=PUBLIC))
            elif CONTESTED_INTERRUPTS and others:
                events.append(Event("claim", rule("8.1"),
                                    f"{powers_own(state, player, start=True)} claim on "
                                    f"{system.name} is interrupted: {powers(state, others)} "
                                    f"{'is' if len(others) == 1 else 'are'} in the system.",
                                    player=player, group=group_id, at=system.id,
                                    players=(player, *others), order=order_at, audience=PUBLIC))
            elif system.id not in claims:
                claims[system.id] = player
                events.append(Event("claim", rule("8.1"), f"{who} claims {system.name} in "
                                    "name; its loyalty rises only in the Resources Phase, "
                                    "which is not part of this rulebook.", player=player,
                                    group=group_id, at=system.id, order=order_at, audience=PUBLIC))
    if not claims:
        return state, events
    systems = tuple(extended(s, Ftcamp02System, claimed_by=claims[s.id]) if s.id in claims and (
        LATEST_CLAIM_STANDS or of_system(s).claimed_by is None) else s for s in state.map.systems)
    new_map: MapFile = dataclasses.replace(state.map, systems=systems)
    return dataclasses.replace(state, map=new_map), events
