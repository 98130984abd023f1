"""§4.2.2 Re-organise: split craft off into new groups, merge groups, and place
groups in the group structure (§5.3), all of which must fit the grouping rules
(§5) once done.

:func:`reorganise` makes the change; :func:`reorganise_problem` says why an
order cannot be carried out (used when orders are vetted, and again when the
round is resolved, since other changes may have come first).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Mapping

from ftpress.rules.ftcamp02.groups import (
    designs_of,
    group_kind,
    kind_of,
    points,
    store_limit,
    structure_problems,
)
from ftpress.rules.ftcamp02.orderfile import GroupOrder, OrdersFile
from ftpress.rules.ftcamp02.plan import rule
from ftpress.rules.ftcamp02.space import friendly, place_hex
from ftpress.rules.ftcamp02.state_ext import Ftcamp02Group, of_group, of_system
from ftpress.state.events import Audience, Event
from ftpress.state.extension import extended
from ftpress.state.model import Group, GroupsFile, State, check_id
from ftpress.state.words import listed

#: Ruling: the seed does not say how EPs in store are shared out. A group split off
#: takes the share of its parent's store that its points are of the parent's points
#: (rounded down); merged stores add up; EPs above the new group's store limit are lost.
STORE_ON_SPLIT = "share by points"

#: Ruling: a split that would take every craft out of the group is refused; the
#: group keeps at least one craft (give the new id to the old group instead).
SPLIT_KEEPS_ONE = True


def reorganise(state: State, player: str, group_id: str, order: GroupOrder) -> State:
    """§4.2.2: the state once ``group_id`` has split, merged and been placed.

    Independents attached to a merged group go over to the group that absorbs
    it; groups placed under a merged group move up to the absorbing group.
    """
    groups = list(state.groups.groups)
    index = {g.id: i for i, g in enumerate(groups)}
    me = groups[index[group_id]]
    leaving = {name for names in order.split.values() for name in names}
    kept = tuple(s for s in me.ships if s.name not in leaving)
    merged = [groups[index[m]] for m in order.merge]
    ships = kept + tuple(s for g in merged for s in g.ships)
    store = (me.endurance or 0) + sum(g.endurance or 0 for g in merged)
    total = points(designs_of(state, me)) or 1
    new = []
    for new_id, names in order.split.items():
        group = Group(new_id, player, me.at, tuple(s for s in me.ships if s.name in names))
        share = store * points(designs_of(state, group)) // total
        new.append(dataclasses.replace(group, endurance=share))
    store -= sum(g.endurance or 0 for g in new)
    limit = store_limit(group_kind(d for s in ships if (d := state.design(s.design))),
                        points(d for s in ships if (d := state.design(s.design))))
    store = min(store, limit)
    gone = set(order.merge)
    out = []
    for g in groups:
        if g.id in gone:
            continue
        if g.id == group_id:
            g = extended(dataclasses.replace(g, ships=ships, endurance=store), Ftcamp02Group,
                         reserve=False)
        if of_group(g).attached_to in gone:
            g = extended(g, Ftcamp02Group, attached_to=group_id)
        if of_group(g).parent in gone:
            g = extended(g, Ftcamp02Group, parent=group_id)
        out.append(g)
    out.extend(new)
    for placed, parent in order.place.items():
        out = [extended(g, Ftcamp02Group, parent=parent) if g.id == placed else g for g in out]
    return dataclasses.replace(state, groups=GroupsFile(tuple(out)))


def reorganise_problem(state: State, orders: OrdersFile, group_id: str, order: GroupOrder,
                       attached_to: Callable[[str], str | None],
                       ) -> tuple[tuple[Hashable, ...], str] | None:
    """Why ``group_id``'s reorganisation cannot be carried out, and where (None: it can):
    a military static group is never split (§5.2.3), among the rest."""
    me = next(g for g in state.groups.groups if g.id == group_id)
    player = me.owner
    here = place_hex(state, me)
    names = [s.name for s in me.ships]
    taken = {g.id for g in state.groups.groups}
    leaving: list[str] = []
    for new_id, ships in order.split.items():
        if new_id in taken:
            return ("split", new_id), f"{new_id} is already a group's id; a new group " \
                                      "needs a new id"
        splitter = next((gid for gid, o in orders.groups.items()
                         if gid != group_id and new_id in o.split), None)
        if splitter is not None:
            return ("split", new_id), f"{splitter} splits off a group called {new_id} too; " \
                                      "give each new group its own id"
        for name in ships:
            if name not in names:
                return ("split", new_id), f"{group_id} has no craft named {name!r}; " \
                                          f"expected one of {', '.join(names)}"
            if name in leaving:
                return ("split", new_id), f"{name} is split off twice; each craft " \
                                          "leaves once"
            leaving.append(name)
    held = state.system_at(here)
    if of_group(me).reserve and (held is None or held.owner != player
                                 or of_system(held).loyalty <= 0):
        return ("hold",), f"{group_id} has lost the craft that made it a reserve group; it " \
                          "re-organises into a standard group only at a system you hold " \
                          "(§5.2.2)"
    if leaving and kind_of(state, me) == "static":
        return ("split",), f"{group_id} is a military static group, which cannot be split " \
                           "(§5.2.3); its statics stay together in one orbit-sector"
    if SPLIT_KEEPS_ONE and leaving and len(leaving) == len(names) and not order.merge:
        return ("split",), f"the split takes every craft out of {group_id}; a group keeps " \
                           "at least one craft (§4.2.2)"
    mine = {g.id: g for g in state.groups_of(player)}
    for i, other_id in enumerate(order.merge):
        other = mine.get(other_id)
        if other is None:
            return ("merge", i), f"no group {other_id!r} of yours to merge"
        if other_id == group_id:
            return ("merge", i), "a group cannot merge with itself"
        if place_hex(state, other) != here:
            return ("merge", i), f"{other_id} is at {other.at}, not with {group_id} at " \
                                 f"{me.at}; only groups in one hex merge (§4.2.2)"
        if of_group(other).lost:
            return ("merge", i), f"{other_id} is lost and can do nothing until it is " \
                                 "located (§4.1.1)"
        if attached_to(other_id) is not None:
            return ("merge", i), f"{other_id} is an attached independent; detach it " \
                                 "before merging it (§3.1)"
        given = orders.groups.get(other_id)
        if given is not None and (given.action != "hold" or given.sub != "nothing"):
            return ("merge", i), f"{other_id} has its own order; a group that merges " \
                                 "holds with nothing else to do (§4.2.2)"
    new_ids = set(order.split)
    for placed, parent in order.place.items():
        if placed != group_id and placed not in new_ids:
            return ("place", placed), f"{group_id}'s reorganisation can place itself or " \
                                      f"the groups it splits off, not {placed} (§5.3)"
        if parent is not None and parent not in mine and parent not in new_ids:
            return ("place", placed), f"no group {parent!r} of yours to place {placed} " \
                                      "under (§5.3)"
    try:
        for new_id in new_ids:
            check_id(new_id)
    except ValueError as exc:
        return ("split",), str(exc)
    after = reorganise(state, player, group_id, order)
    result = next(g for g in after.groups.groups if g.id == group_id)
    before_kinds = {kind_of(state, me)} | {kind_of(state, mine[m]) for m in order.merge}
    kind = kind_of(after, result)
    if "reserve" in before_kinds and kind == "standard" and not friendly(
            state, state.system_at(here), player):
        return ("hold",), f"{group_id} would become a standard fleet group again, which " \
                          "a reserve group may do only at a system loyal to you (§5.2.2)"
    riders = [g.id for g in after.groups.groups if of_group(g).attached_to == group_id
              and attached_to(g.id) is not None]
    if riders and kind != "standard":
        return ("hold",), f"{group_id} would become a {kind} group with {', '.join(riders)} " \
                          "attached; independents attach only to standard fleet groups, " \
                          "so detach them first (§5.2.1)"
    for g in (result, *(x for x in after.groups.groups if x.id in new_ids)):
        if group_kind(designs_of(after, g)) == "empty":
            return ("hold",), f"{g.id} would have no craft (§5.2)"
    return None


def settle_structure(state: State, player: str, orders: Mapping[str, GroupOrder],
                     ) -> tuple[State, dict[str, str]]:
    """§5.3: a player's reorganisations together, and those refused because the group
    structure does not fit "by the end of the sequence of changes" (§4.2.2).

    All are made, in group order; if the structure then has a problem it did not
    have before, the reorganisations of the groups it names (or, failing that, all
    of them) are refused and the rest are tried again.
    """
    refused: dict[str, str] = {}
    before = set(structure_problems(state))
    while True:
        after = state
        for group_id, order in sorted(orders.items()):
            if group_id not in refused:
                after = reorganise(after, player, group_id, order)
        new = [(gid, m) for gid, m in structure_problems(after)
               if (gid, m) not in before and after_owner(after, gid) == player]
        if not new:
            return after, refused
        origin = {new_id: gid for gid, o in orders.items() for new_id in o.split}
        blamed: dict[str, str] = {}
        for gid, message in new:
            culprit = gid if gid in orders else origin.get(gid)
            if culprit is not None and culprit not in refused:
                blamed.setdefault(culprit, message)
        if not blamed:
            blamed = {gid: new[0][1] for gid in orders if gid not in refused}
        refused.update({gid: f"after the reorganisation {m} (§5.3)"
                        for gid, m in blamed.items()})


def after_owner(state: State, group_id: str) -> str | None:
    return next((g.owner for g in state.groups.groups if g.id == group_id), None)


def reorganise_event(player: str, group_id: str, order: GroupOrder, where: str | None,
                     restored: bool = False) -> Event:
    """The event of one reorganisation, naming groups (never craft, which may be secret);
    ``restored``: a marked reserve group becomes a standard group again (§5.2.2).
    Re-organise is a hold sub-order, which other powers are not told (§4.2): the
    event goes to the player alone; the map shows the markers placed and removed."""
    parts = ["becomes a standard fleet group again"] if restored else []
    if order.split:
        parts.append(f"splits off {listed(order.split)}")
    if order.merge:
        parts.append(f"absorbs {listed(order.merge)}")
    if order.place:
        parts.append("takes its place in the group structure" if len(order.place) == 1
                     else "places its groups in the group structure")
    text = f"{group_id} reorganises: {'; '.join(parts) or 'no change'}."
    kind = "split" if order.split else "merge"
    return Event(kind, rule("4.2.2"), text, player=player, group=group_id,
                 groups=(group_id, *order.split, *order.merge), order=where,
                 audience=Audience.told(player))
