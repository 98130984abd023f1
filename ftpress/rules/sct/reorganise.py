"""Task force reorganisation (§2.1 phase 9): splits, then merges, where the
forces stand after movement and combat."""

from __future__ import annotations

import dataclasses

from ftpress.rules.sct import plane
from ftpress.rules.sct.plan import Plan, force, rule
from ftpress.state import words
from ftpress.state.events import PUBLIC, Event
from ftpress.state.model import Group, Location, State

#: Ruling: forces merge only where they stand together: at the same system, or at
#: the same point of open space (the seed names the phase but no condition).
MERGE_SAME_PLACE = True

#: Ruling: a new force takes its parent's endurance; a merged force keeps the lowest
#: endurance of the forces that made it (supplies are not shared out).
MERGED_ENDURANCE = min


def reorganise(state: State, plan: Plan) -> tuple[State, list[Event]]:
    """Phase 9: every standing split and merge, player by player in file order.

    A split or merge that the turn has made impossible (the force or its ships
    were lost, or the forces no longer stand together) is refused with an event.
    """
    groups = {g.id: g for g in state.groups.groups}
    order_ids = [g.id for g in state.groups.groups]
    events: list[Event] = []
    for player, vetted in sorted(plan.vetted.items()):
        for force_id, order in vetted.accepted.items():
            who = force(state, force_id, start=True)
            forces = f"Two task forces of {words.power(state, player)}"
            for new_id, names in order.split.items():
                where = plan.where(player, "forces", force_id, "split", new_id, key=True)
                parent = groups.get(force_id)
                leaving = tuple(s for s in parent.ships if s.name in names) if parent else ()
                if parent is None or not leaving or len(leaving) == len(parent.ships):
                    events.append(Event("rejected", rule("2.1"), f"{who} cannot split: the "
                                        "ships it was to split off are no longer there.",
                                        player=player, group=force_id, order=where,
                                        audience=PUBLIC))
                    continue
                if new_id in groups:
                    events.append(Event("rejected", rule("2.1"), f"{who} cannot split: the "
                                        "id its orders give the new task force is taken.",
                                        player=player, group=force_id, order=where,
                                        audience=PUBLIC))
                    continue
                groups[force_id] = dataclasses.replace(parent, ships=tuple(
                    s for s in parent.ships if s.name not in names))
                groups[new_id] = Group(new_id, player, parent.at, leaving,
                                       revealed=parent.revealed, endurance=parent.endurance)
                order_ids.append(new_id)
                events.append(Event("split", rule("2.1"), f"{who} splits: "
                                    f"{words.listed(s.name for s in leaving)} form a new task "
                                    "force.",
                                    player=player, group=force_id, at=parent.at,
                                    groups=(force_id, new_id), order=where, audience=PUBLIC))
    for player, vetted in sorted(plan.vetted.items()):
        for force_id, order in vetted.accepted.items():
            for other_id in order.merge:
                where = plan.where(player, "forces", force_id, "merge", key=True)
                host, other = groups.get(force_id), groups.get(other_id)
                if host is None or other is None:
                    events.append(Event("rejected", rule("2.1"), f"{forces} cannot merge: "
                                        "one of them is gone.",
                                        player=player, group=force_id, order=where,
                                        audience=PUBLIC))
                    continue
                if MERGE_SAME_PLACE and not _together(state, host.at, other.at):
                    events.append(Event("rejected", rule("2.1"), f"{forces} cannot merge: "
                                        "they do not stand together.",
                                        player=player, group=force_id, order=where,
                                        audience=PUBLIC))
                    continue
                lows = [e for e in (host.endurance, other.endurance) if e is not None]
                groups[force_id] = dataclasses.replace(
                    host, ships=host.ships + other.ships,
                    endurance=MERGED_ENDURANCE(lows) if lows else None)
                del groups[other_id]
                events.append(Event("merge", rule("2.1"), f"{forces} merge into one "
                                    f"at {words.place(state, host.at)}.", player=player,
                                    group=force_id, at=host.at, groups=(force_id, other_id),
                                    order=where, audience=PUBLIC))
    kept = tuple(groups[i] for i in order_ids if i in groups)
    # A ship under repair may have changed force: its repair follows it.
    home = {(g.owner, s.name): g.id for g in kept for s in g.ships}
    repairs = tuple(dataclasses.replace(r, group=home.get((r.owner, r.ship), r.group))
                    for r in state.queues.repairs)
    return dataclasses.replace(
        state, groups=dataclasses.replace(state.groups, groups=kept),
        queues=dataclasses.replace(state.queues, repairs=repairs)), events


def _together(state: State, a: Location, b: Location) -> bool:
    if a == b:
        return True
    pa, pb = plane.where(state, a), plane.where(state, b)
    return pa is not None and pb is not None and plane.distance(pa, pb) < 0.01
