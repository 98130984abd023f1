"""§18.4: a jump out of a system, under fire or on withdraw if contested
(§17.2.3), is the group's move for the next strategic turn, and reaches no
further than a move does.

The state has no ships in transit, so a group that jumps out stands at its
destination when the turn ends (``battles.WITHDRAWAL_LANDS_AT_TURN_END``),
marked ``jumped_out``. Its orders of the next turn may not move it
(:func:`.orders.vet` refuses them), since that week's move is the jump; the mark
comes off as that turn's moves are made.

News travels no faster than ships: everyone at the system it left sees it go
(:func:`seen_leaving`, a public event there), but where it went is told to its
owner alone, and others learn it only when they meet it again (the ruleset's
:data:`~.state_ext.KNOWLEDGE` keeps the group off their map while it is marked).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection

from ftpress.events import PUBLIC, Event
from ftpress.hexes import Hex
from ftpress.rules.ftc2007.orders import WORLD_JUMP, place
from ftpress.rules.ftc2007.sections import rule
from ftpress.rules.ftc2007.state_ext import Ftc2007Group, jumped_out
from ftpress.state.extension import extended
from ftpress.state.model import GroupsFile, Location, State


def mark_jumped(state: State, group_ids: Collection[str]) -> State:
    """§18.4: the groups that jumped out this turn, marked so that next turn's move
    is made."""
    if not group_ids:
        return state
    groups = tuple(extended(g, Ftc2007Group, jumped_out=True) if g.id in group_ids else g
                   for g in state.groups.groups)
    return dataclasses.replace(state, groups=GroupsFile(groups))


def seen_leaving(state: State, group_id: str, owner: str, origin: Location,
                 section: str = "18.4") -> Event:
    """§18.4: the public's news of a jump out: the group left ``origin``, destination
    untold (the owner's own event, told to them alone, says where it went)."""
    return Event("withdrawal", rule(section), f"{group_id} ({owner}) jumps out of "
                 f"{place(state, origin)}; where to, only {owner} knows.", audience=PUBLIC,
                 player=owner, group=group_id, at=origin)


def land_jumps(state: State) -> State:
    """§18.4: this turn's moves are being made: last turn's jumps out were them."""
    if not any(jumped_out(g) for g in state.groups.groups):
        return state
    groups = tuple(dataclasses.replace(g, ext=None) if jumped_out(g) else g
                   for g in state.groups.groups)
    return dataclasses.replace(state, groups=GroupsFile(groups))


def jump_problem(state: State, start: Hex, end: Hex) -> str | None:
    """§18.4: why a jump out of ``start`` cannot reach ``end`` in one move, or None: one hex,
    up to WORLD_JUMP hexes between two worlds (§8.1), or a world on a charted route
    through the one it leaves (§8.2)."""
    here, there = state.system_at(start), state.system_at(end)
    distance = start.distance(end)
    if distance == 1 or (distance <= WORLD_JUMP and here is not None and there is not None):
        return None
    if here is not None and there is not None and any(
            {here.id, there.id} <= {w for link in r.links for w in link}
            for r in state.map.routes):
        return None
    return (f"{place(state, end)} is {distance} hexes from {place(state, start)}; the jump "
            f"out is the fleet's next move (§18.4), so it reaches one hex, up to {WORLD_JUMP} "
            "between two worlds (§8.1), or a world on a charted route from there (§8.2)")
