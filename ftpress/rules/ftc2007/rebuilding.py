"""§10.5 Rebuilding planetary defences: five times the points replaced, and one
economic turn for each third of the defences being replaced."""

from __future__ import annotations

import dataclasses

from ftpress.rules.ftc2007.orderfile import DefenceOrder
from ftpress.rules.ftc2007.sections import rule
from ftpress.rules.ftc2007.state_ext import DefenceWork, defence_works, with_defence_works
from ftpress.rules.ftc2007.treasury import balance, credit, unpaid
from ftpress.state.events import PUBLIC, Event
from ftpress.state.model import State
from ftpress.state.words import plural, power

#: §10.5: each defence point replaced costs this much.
DEFENCE_POINT_COST = 5


def rebuild_time(points: int, full: int) -> int:
    """Economic turns to replace ``points`` of a world's ``full`` IDP (§10.5).

    Reading ``part-of-a-third-takes-a-turn`` (the ruleset's readings).
    """
    return -(-3 * points // full)


def defence_problem(state: State, player_id: str, order: DefenceOrder) -> str | None:
    """§10.5 replaces losses only, at a world you hold, one rebuilding at a time;
    more than the full IDP was setup's alone (§6.2.2)."""
    world = state.system(order.system)
    if world is None:
        return f"there is no world {order.system!r} on the map"
    if world.owner != player_id:
        return f"{world.name} is not yours; you rebuild the defences of your own worlds"
    if any(w.system == world.id for w in defence_works(state)):
        return (f"the defences of {world.name} are already being rebuilt; one rebuilding at a "
                "time")
    full, standing = world.full_idp or 0, world.idp or 0
    lost = full - standing
    if order.points > lost:
        return (f"{world.name} has {standing} of its {full} defence points standing, so "
                f"{lost} can be replaced, not {order.points}; defences beyond their full "
                "strength are bought only at setup (§6.2.2)")
    return None


def order_rebuilding(state: State, player_id: str, order: DefenceOrder,
                     where: str | None) -> tuple[State, list[Event]]:
    """§10.5: pay five times the points now; they stand again when the work is done."""
    world = state.system(order.system)
    assert world is not None and world.full_idp
    cost = DEFENCE_POINT_COST * order.points
    what = f"rebuilding {order.points} defence points at {world.name}"
    if balance(state, player_id) < cost:
        return state, [unpaid(player_id, what, cost, "defences", "10.5", order=where,
                              at=world.id)]
    cal = state.campaign.calendar
    turns = rebuild_time(order.points, world.full_idp)
    ready = cal.economic_turn + turns
    state = credit(state, player_id, -cost)
    work = DefenceWork(world.id, player_id, order.points, cost, ready)
    state = with_defence_works(state, (*defence_works(state), work))
    return state, [Event(
        "defences-ordered", rule("10.5"),
        f"{power(state, player_id, start=True)} pays {cost} for {what} (five times the points);"
        f" {plural(turns, 'economic turn')} of work, standing "
        f"from economic turn {ready}.", audience=PUBLIC, player=player_id, at=world.id,
        order=where,
        note=order.note, amount=-cost, account="defences")]


def defences_ready(state: State) -> tuple[State, list[Event]]:
    """§10.5: works due by this economic turn stand again, up to the full IDP."""
    cal = state.campaign.calendar
    events = []
    done = [w for w in defence_works(state) if w.ready <= cal.economic_turn]
    systems = list(state.map.systems)
    for work in done:
        i = next(i for i, s in enumerate(systems) if s.id == work.system)
        world = systems[i]
        full = world.full_idp or 0
        idp = min(full, (world.idp or 0) + work.points)
        systems[i] = dataclasses.replace(world, idp=idp, idp_full=full if idp < full else None)
        events.append(Event("defences-rebuilt", rule("10.5"), f"{work.points} defence points "
                            f"of {world.name} stand again: {idp} of {full}.",
                            audience=PUBLIC, player=work.owner,
                            at=world.id))
    if not done:
        return state, []
    state = with_defence_works(state, tuple(w for w in defence_works(state) if w not in done))
    new_map = dataclasses.replace(state.map, systems=tuple(systems))
    return dataclasses.replace(state, map=new_map), events
