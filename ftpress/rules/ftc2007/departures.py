"""§18.4: a jump out of a system, under fire, on withdraw if contested
(§17.2.3) or thrown back by the defences (§10.7), is the group's move for the
next strategic turn, and reaches no further than a move does.

The state has no ships in transit, so a group that jumps out stands at its
destination when the turn ends (reading ``withdrawal-lands-at-turn-end``),
marked ``jumped_out``. Its orders of the next turn may not move it
(:func:`.orders.vet` refuses them), since that week's move is the jump; the mark
comes off as that turn's moves are made. The mark goes with the ships: a group
split from a marked one is marked, and a group that takes a marked one in by a
merge is marked (:func:`.reorganise.reorganise_groups`) and may not move either.

A jump out along a charted route obeys §8.2 like any move on one: a route
interdicted partway stops the fleet at the last world of its own before the
blockage (:func:`jump_out`).

News travels no faster than ships: everyone at the system it left sees it go
(:func:`seen_leaving`, a public event there), but where it went is told to its
owner alone, and others learn it only when they meet it again (the ruleset's
:data:`~.state_ext.KNOWLEDGE` keeps the group off their map while it is marked).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from dataclasses import dataclass

from ftpress.rules.ftc2007.orders import WORLD_JUMP, place, route_path
from ftpress.rules.ftc2007.sections import rule
from ftpress.rules.ftc2007.state_ext import Ftc2007Group, interdictor, jumped_out
from ftpress.state import words
from ftpress.state.events import PUBLIC, Event
from ftpress.state.extension import extended
from ftpress.state.hexes import Hex
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
    return Event("withdrawal", rule(section),
                 f"{words.group(state, group_id, PUBLIC, owner=owner, start=True)} jumps out "
                 f"of {place(state, origin)}; where to, only {words.power(state, owner)} "
                 "knows.", audience=PUBLIC, player=owner, group=group_id, at=origin)


def land_jumps(state: State) -> State:
    """§18.4: this turn's moves are being made: last turn's jumps out were them."""
    if not any(jumped_out(g) for g in state.groups.groups):
        return state
    groups = tuple(extended(g, Ftc2007Group, jumped_out=False) if jumped_out(g) else g
                   for g in state.groups.groups)
    return dataclasses.replace(state, groups=GroupsFile(groups))


@dataclass(frozen=True, slots=True)
class JumpOut:
    """Where a jump out ends (§18.4), and the interdicted world on its charted route
    that stopped it short (§8.2), if one did."""

    to: Hex
    blocked_at: str | None = None


def jump_out(state: State, player: str, start: Hex, end: Hex) -> JumpOut | str:
    """§18.4, §8.2: where a jump of ``player``'s fleet out of ``start`` for ``end`` ends,
    or why it cannot be made (:func:`jump_problem`,
    reading ``jump-out-stops-before-an-interdiction``)."""
    problem = jump_problem(state, start, end)
    if problem is not None:
        return problem
    here, there = state.system_at(start), state.system_at(end)
    if start.distance(end) == 1 or (start.distance(end) <= WORLD_JUMP and here and there):
        return JumpOut(end)
    assert here is not None and there is not None  # a route joins them (jump_problem)
    paths = [found for r in state.map.routes
             if (found := route_path(r, here.id, there.id)) is not None]
    stops = [_stop(state, player, path) for path in paths]
    open_ = next((stop for stop in stops if stop.blocked_at is None), None)
    if open_ is not None:
        return open_
    stop = stops[0]
    if stop.to == start:
        blocking = state.system(stop.blocked_at or "")
        return (f"the charted route from {place(state, start)} to {place(state, end)} is "
                f"blocked at {place(state, stop.blocked_at or '')}, interdicted by "
                f"{interdictor(blocking) if blocking else None}, and there is no world of "
                f"{player}'s before it to stop at (§8.2), so the jump out cannot go that way")
    return stop


def _stop(state: State, player: str, path: tuple[str, ...]) -> JumpOut:
    for i, world_id in enumerate(path[1:-1], start=1):
        world = state.system(world_id)
        if world is not None and interdictor(world) is not None:
            friendly = [s.hex for w in path[1:i] if (s := state.system(w)) is not None
                        and s.owner == player and s.hex is not None]
            back = state.system(path[0])
            assert back is not None and back.hex is not None
            return JumpOut(friendly[-1] if friendly else back.hex, world_id)
    last = state.system(path[-1])
    assert last is not None and last.hex is not None
    return JumpOut(last.hex)


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
