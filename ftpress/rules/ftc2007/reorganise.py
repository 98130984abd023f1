"""§15.1 Task groups: splitting and merging, done before anything moves (and §18.4:
a jump out's mark goes with the ships)."""

from __future__ import annotations

import dataclasses

from ftpress.rules.ftc2007.orders import place
from ftpress.rules.ftc2007.plan import Plan
from ftpress.rules.ftc2007.recce import who_knows
from ftpress.rules.ftc2007.sections import rule
from ftpress.rules.ftc2007.state_ext import Ftc2007Group, jumped_out
from ftpress.state import words
from ftpress.state.events import PUBLIC, Event
from ftpress.state.extension import extended
from ftpress.state.model import Group, GroupsFile, State
from ftpress.state.words import may_know_id


def reorganise_groups(state: State, plan: Plan) -> tuple[State, list[Event]]:
    """§15.1: every accepted split and merge, in player then file order.

    Splits first, then merges, so a group may split off some ships and take in
    others in one turn. A new group stands where its parent stood; a merged
    group's counter leaves the map and its ships join the group named. A group
    that jumped out last week (§18.4) passes its mark to the group split from it,
    and to the group it merges into: the mark says this week's move of those ships
    is made (:mod:`.departures`).
    """
    groups = list(state.groups.groups)
    index = {g.id: i for i, g in enumerate(groups)}
    events: list[Event] = []
    for player, group_id, order, _ in plan.accepted():
        if not order.split or group_id not in index:
            continue
        parent = groups[index[group_id]]
        for new_id, names in order.split.items():
            leaving = [s for s in parent.ships if s.name in names]
            parent = dataclasses.replace(parent, ships=tuple(
                s for s in parent.ships if s.name not in names))
            groups.append(Group(new_id, player, parent.at, tuple(leaving),
                                revealed=parent.revealed, seen_by=parent.seen_by,
                                ext=Ftc2007Group(jumped_out=True) if jumped_out(parent)
                                else None))
            index[new_id] = len(groups) - 1
            # It names the ships that left: who may know what the group holds (§15.3).
            told = who_knows(state, group_id, player)
            formed = new_id if may_know_id(told, player) else "a new task group"
            events.append(Event(
                "split", rule("15.1"),
                f"{words.group(state, group_id, told, start=True)} split at "
                f"{place(state, parent.at)}: {words.listed(names)} formed {formed}.",
                audience=told, player=player, group=group_id,
                at=parent.at, groups=(group_id, new_id),
                order=plan.where(player, "groups", group_id, "split", new_id, key=True)))
        groups[index[group_id]] = parent
    gone: set[str] = set()
    for player, group_id, order, _ in plan.accepted():
        if not order.merge:
            continue
        host = groups[index[group_id]]
        ships = list(host.ships)
        for other_id in order.merge:
            ships.extend(groups[index[other_id]].ships)
            if jumped_out(groups[index[other_id]]):
                host = extended(host, Ftc2007Group, jumped_out=True)
            gone.add(other_id)
        groups[index[group_id]] = dataclasses.replace(host, ships=tuple(ships))
        # Public: it names counters only, and no dummy merges (§15.2: refused in orders).
        events.append(Event(
            "merge", rule("15.1"),
            f"{words.plural(len(order.merge) + 1, 'task group')} of {words.power(state, player)} "
            f"merged into one at {place(state, host.at)}.", audience=PUBLIC, player=player,
            group=group_id,
            at=host.at,
            groups=(group_id, *order.merge),
            order=plan.where(player, "groups", group_id, "merge", key=True)))
    kept = tuple(g for g in groups if g.id not in gone)
    return dataclasses.replace(state, groups=GroupsFile(kept)), events
