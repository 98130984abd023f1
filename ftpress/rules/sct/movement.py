"""Movement (§4): task forces carry out their orders one at a time (phase 5),
then may move again for an endurance point (phase 6)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence

from ftpress.rules.sct import plane
from ftpress.rules.sct.plan import Plan, force, rule
from ftpress.rules.sct.supply import endurance_of, spend
from ftpress.state import words
from ftpress.state.events import PUBLIC, Event
from ftpress.state.model import Group, Point, State

#: Ruling: a move aimed at a system or task force (§4.3) stops there if it is
#: nearer than the distance ordered, rather than flying past it.
STOP_AT_TARGET = True

#: Ruling: a player's task forces take their turns to move in the order their order
#: file lists them (§4.2 leaves the choice of "a single TF" to the player).
ORDER_OF_THE_FILE = True


def interleave(players_low_first: Sequence[str], queues: dict[str, list[str]],
               ) -> Iterator[tuple[str, str]]:
    """§4.2: the lowest initiative moves one task force, then the next lowest, …;
    round after round until every force has moved. Yields (player, force id)."""
    queues = {p: list(q) for p, q in queues.items()}
    while any(queues.get(p) for p in players_low_first):
        for player in players_low_first:
            if queues.get(player):
                yield player, queues[player].pop(0)


def _queues(state: State, plan: Plan, want: str) -> dict[str, list[str]]:
    queues: dict[str, list[str]] = {}
    for player in state.players.players:
        vetted = plan.vetted.get(player.id)
        if vetted is None:
            continue
        listed = [f for f, o in vetted.accepted.items() if getattr(o, want) is not None]
        if not ORDER_OF_THE_FILE:
            listed.sort()
        queues[player.id] = listed
    return queues


def _replace_group(state: State, group: Group) -> State:
    groups = tuple(group if g.id == group.id else g for g in state.groups.groups)
    return dataclasses.replace(state, groups=dataclasses.replace(state.groups, groups=groups))


def _group(state: State, group_id: str) -> Group | None:
    return next((g for g in state.groups.groups if g.id == group_id), None)


def _target(state: State, target_id: str) -> Point | None:
    if state.system(target_id) is not None:
        return plane.where(state, target_id)
    group = _group(state, target_id)
    return plane.where(state, group.at) if group is not None else None


def _toward(state: State, target_id: str) -> str:
    """What a force aims at, by name: a system, or another power's task force."""
    if state.system(target_id) is not None:
        return words.world(state, target_id)
    return force(state, target_id)


def primary_movement(state: State, plan: Plan, initiative: Sequence[str],
                     ) -> tuple[State, list[Event]]:
    """§4.1–§4.3 (phase 5): each ordered task force moves its distance on its clock
    facing, turned by up to 15° toward the system or force it aims at."""
    events: list[Event] = []
    low_first = list(reversed(initiative))
    for player, force_id in interleave(low_first, _queues(state, plan, "move")):
        group = _group(state, force_id)
        order = plan.force(player, force_id)
        if group is None or order is None or order.move is None:
            continue
        start = plane.where(state, group.at)
        if start is None:
            continue
        move = order.move
        heading, length, note = plane.facing_bearing(move.facing), float(move.distance), ""
        if order.toward is not None and move.distance > 0:
            target = _target(state, order.toward)
            if target is None:
                note = f"; {order.toward} is gone, so it keeps to its facing"
            elif target == start:
                length = 0.0
            else:
                aim = plane.bearing(start, target)
                off = plane.off_facing(move.facing, aim)
                if off <= plane.DEVIATION + 1e-9:
                    heading = aim
                    if STOP_AT_TARGET:
                        length = min(length, plane.distance(start, target))
                    note = f", turning {off:.0f}° toward {_toward(state, order.toward)}"
                else:
                    note = (f"; {_toward(state, order.toward)} now lies {off:.0f}° off its "
                            "facing, more than "
                            f"{plane.DEVIATION:.0f}°, so it keeps to its facing")
        end = plane.step(start, heading, length) if length else start
        at = plane.settle(state, end) if length else group.at
        state = _replace_group(state, dataclasses.replace(group, at=at))
        events.append(Event("movement", rule("4.3" if order.toward else "4.1"),
                            f"{force(state, force_id, start=True)} moves {move}{note}: "
                            f"{words.place(state, group.at)} → {words.place(state, at)}.",
                            player=player, group=force_id, at=at, origin=group.at,
                            order=plan.where(player, "forces", force_id, "move"),
                            audience=PUBLIC))
    return state, events


def secondary_movement(state: State, plan: Plan, initiative: Sequence[str],
                       ) -> tuple[State, list[Event]]:
    """§4.4 (phase 6): a task force may move again, up to 3 MU in any direction,
    for one endurance point (§5.2)."""
    events: list[Event] = []
    low_first = list(reversed(initiative))
    for player, force_id in interleave(low_first, _queues(state, plan, "secondary")):
        group = _group(state, force_id)
        order = plan.force(player, force_id)
        if group is None or order is None or order.secondary is None:
            continue
        where = plan.where(player, "forces", force_id, "secondary")
        if endurance_of(state, group) < 1:
            events.append(Event("rejected", rule("4.4"),
                                f"{force(state, force_id, start=True)} has no endurance "
                                "left for a secondary move; it stays.", player=player,
                                group=force_id, order=where, audience=PUBLIC))
            continue
        start = plane.where(state, group.at)
        if start is None:
            continue
        second = order.secondary
        length = float(second.distance)
        if second.toward is not None:
            target = _target(state, second.toward)
            if target is None:
                gone = words.sentence(_toward(state, second.toward))
                events.append(Event("rejected", rule("4.4"), f"{gone} is gone; "
                                    f"{force(state, force_id)} "
                                    "makes no secondary move.", player=player,
                                    group=force_id, order=where, audience=PUBLIC))
                continue
            heading = plane.bearing(start, target)
            length = min(length, plane.distance(start, target))
        else:
            assert second.bearing is not None
            heading = second.bearing
        if length == 0:
            events.append(Event("secondary-move", rule("4.4"),
                                f"{force(state, force_id, start=True)} is already at "
                                f"{words.place(state, group.at)}; it makes no secondary "
                                "move and spends nothing.", player=player, group=force_id,
                                at=group.at, order=where, audience=PUBLIC))
            continue
        end = plane.step(start, heading, length)
        at = plane.settle(state, end)
        moved = spend(dataclasses.replace(group, at=at), state)
        state = _replace_group(state, moved)
        events.append(Event("secondary-move", rule("4.4"),
                            f"{force(state, force_id, start=True)} spends an endurance "
                            f"point ({moved.endurance} left) and moves "
                            f"{round(length, 2):g} MU on {heading:.0f}°: "
                            f"{words.place(state, group.at)} → {words.place(state, at)}.",
                            player=player, group=force_id, at=at, origin=group.at,
                            order=where, audience=PUBLIC))
    return state, events
