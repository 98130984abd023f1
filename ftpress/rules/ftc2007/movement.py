"""§8 Movement and §15.4 simultaneous plotting: every group moves at once.

Every move is worked out from where all groups stood when the turn began, so
no order depends on another's outcome (§15.4). Ships in FTL cannot be reached
(§8.2), so groups that cross or swap places never meet on the way; they meet
only where they end up (:mod:`.encounters`).
"""

from __future__ import annotations

import dataclasses

from ftpress.rules.ftc2007.departures import land_jumps
from ftpress.rules.ftc2007.orderfile import Posture
from ftpress.rules.ftc2007.orders import Movement, place
from ftpress.rules.ftc2007.plan import Plan
from ftpress.rules.ftc2007.sections import rule
from ftpress.rules.ftc2007.state_ext import interdictor
from ftpress.state.events import PUBLIC, Event
from ftpress.state.hexes import Hex
from ftpress.state.model import GroupsFile, Location, State
from ftpress.state.words import group, plural, power

#: §8.2: arriving in a system by charted route adds this to the initiative roll.
ROUTE_INITIATIVE = 1


def move_groups(state: State, plan: Plan) -> tuple[State, list[Event]]:
    """§8.1 jumps, §8.2 charted routes, §17.2 postures on arrival, §15.4 all at once.

    A route move stops at the last world of the mover's own before the first
    world along the way that was interdicted when the turn began, or stays where
    it set out if there is none (§8.2 as amended 27 May). An interdicted world
    can still be the destination. A group arriving by route, even one stopped
    short, gets +1 initiative, recorded on its arrival event. A group that
    jumped out of a system last turn has made its move this turn (§18.4,
    :func:`.departures.land_jumps`).
    """
    state = land_jumps(state)
    where_to: dict[str, str | Hex] = {}
    events: list[Event] = []
    for player, group_id, order, movement in plan.accepted():
        posture = plan.posture(group_id, player)
        at = next((g.at for g in state.groups.groups if g.id == group_id), None)
        if at is None:
            # Lost as the week opened (the damage a repulse owed, called in when the next
            # economic turn opens, §10.8): no group is left to move, and its loss is told
            # where it happened.
            continue
        key = order.action
        order_at = plan.where(player, "groups", group_id, key, key=True)
        who = group(state, group_id, PUBLIC, start=True)
        if movement is None or movement.to == at or state.hex_of(movement.to) == \
                state.hex_of(at):
            events.append(Event(
                "hold", rule("17.2"), f"{who} holds at {place(state, at)}"
                f"{_posture_words(posture)}.", audience=PUBLIC, player=player, group=group_id,
                at=at,
                posture=posture, order=order_at, note=order.note))
            continue
        end, blocked_at = _destination(state, player, movement)
        if blocked_at is not None:
            blocking = state.system(blocked_at)
            owner = interdictor(blocking) if blocking is not None else None
            stop = "stays at" if end == at else "stops at"
            events.append(Event(
                "blocked", rule("8.2"), f"The route of {group(state, group_id, PUBLIC)} to "
                f"{place(state, movement.to)} "
                f"is blocked at {place(state, blocked_at)}, interdicted by "
                f"{power(state, owner)}; it "
                f"{stop} {place(state, end)}.", audience=PUBLIC, player=player, group=group_id,
                at=end, origin=at, route=order.route, order=order_at))
            if end == at:
                events.append(Event(
                    "hold", rule("8.2"), f"{who} holds at {place(state, at)}"
                    f"{_posture_words(posture)}.", audience=PUBLIC, player=player, group=group_id,
                at=at,
                    posture=posture, order=order_at, note=order.note))
                continue
        where_to[group_id] = end
        events.append(_arrival(state, player, group_id, at, end, movement, posture,
                               order.route, order_at, order.note))
    groups = tuple(dataclasses.replace(g, at=where_to[g.id]) if g.id in where_to else g
                   for g in state.groups.groups)
    return dataclasses.replace(state, groups=GroupsFile(groups)), events


def _destination(state: State, player: str, movement: Movement) -> tuple[str | Hex, str | None]:
    """Where the move ends, and the interdicted world that stopped it (or None)."""
    if not movement.by_route:
        return movement.to, None
    path = movement.path
    for i, world_id in enumerate(path[1:-1], start=1):
        world = state.system(world_id)
        if world is not None and interdictor(world) is not None:
            friendly = [w for w in path[1:i]
                        if (s := state.system(w)) is not None and s.owner == player]
            return (friendly[-1] if friendly else path[0]), world_id
    return movement.to, None


def _arrival(state: State, player: str, group_id: str, origin: Location, end: str | Hex,
             movement: Movement, posture: Posture, route: str | None, order_at: str | None,
             note: str | None) -> Event:
    who = group(state, group_id, PUBLIC, start=True)
    if movement.by_route:
        passed = movement.path[1:movement.path.index(end)] if isinstance(end, str) else ()
        via = f" by way of {', '.join(place(state, w) for w in passed)}" if passed else ""
        return Event(
            "arrival", rule("8.2"), f"{who} travelled the charted route from "
            f"{place(state, origin)} to {place(state, end)}{via}, arriving"
            f"{_posture_words(posture, arriving=True)}; +{ROUTE_INITIATIVE} initiative for "
            "arriving by route.", audience=PUBLIC, player=player, group=group_id, at=end,
            origin=origin, route=route, posture=posture, initiative=ROUTE_INITIATIVE,
            order=order_at, note=note)
    start, dest = state.hex_of(origin), state.hex_of(end)
    assert start is not None and dest is not None
    hexes = start.distance(dest)
    return Event(
        "arrival", rule("8.1"), f"{who} jumped from {place(state, origin)} to "
        f"{place(state, end)} ({plural(hexes, 'hex', 'hexes')}), arriving"
        f"{_posture_words(posture, arriving=True)}.", audience=PUBLIC, player=player,
        group=group_id, at=end, origin=origin, posture=posture, order=order_at, note=note)


def _posture_words(posture: str, arriving: bool = False) -> str:
    words = {"stand-off": "to stand off", "attack": "on attack orders",
             "withdraw-if-contested": "to withdraw if contested"}[posture]
    return f" {words}" if arriving else f", {words}"
