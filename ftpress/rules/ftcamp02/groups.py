"""§5.2 Types of group, §5.3 group limits and structure, and the EP ratings
(§2.2, §5.2) and attachment limits (§3.1) that follow from them.

A group's kind is worked out from its craft each time it is asked for, never
stored, so it cannot disagree with what the group holds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Literal

from ftpress.rules.ftcamp02.crafts import is_independent, is_static
from ftpress.rules.ftcamp02.state_ext import of_design, of_group
from ftpress.state.model import Design, Group, State

GroupKind = Literal["standard", "reserve", "static", "independent", "empty"]

#: §5.3: class code, name, largest size in points (None: no limit), and how many
#: groups of each smaller class must stand below it in the structure.
GROUP_CLASSES: tuple[tuple[str, str, int | None, Mapping[str, int]], ...] = (
    ("TF", "task force", 500, {}),
    ("CG", "combat group", 1000, {"TF": 2}),
    ("BG", "battle group", 1500, {"CG": 2, "TF": 8}),
    ("WG", "war group", 2000, {"BG": 1, "CG": 4, "TF": 16}),
    ("AA", "armada", None, {"WG": 1, "BG": 2, "CG": 8, "TF": 32}),
)

#: Ruling: the seed does not say how the numbers required below a group add up
#: across levels. Each is read as a minimum count of groups of that class
#: ANYWHERE below the group in the structure (children, their children, and so on).
REQUIRED_BELOW = "descendants"

#: Ruling: an armada has no largest size, so the points of independents it may
#: have attached (§3.1) are not limited either.
ARMADA_ATTACH_LIMIT = None

#: §5.2: EPs a group may keep in store, as a multiple of its EP rating.
STORE_MULTIPLE: Mapping[str, int] = {"standard": 10, "static": 10, "reserve": 20}
#: Ruling: the seed gives no store for an independent on its own; it stores ten
#: times its EP rating, as a standard group does.
INDEPENDENT_STORE_MULTIPLE = 10


def designs_of(state: State, group: Group) -> list[Design]:
    """The designs of a group's craft, in order (unknown designs left out)."""
    return [d for s in group.ships if (d := state.design(s.design)) is not None]


def group_kind(designs: Iterable[Design]) -> GroupKind:
    """§5.2: what kind of group these craft make.

    Only standard military craft make a standard fleet group (§5.2.1); only
    military statics a military static group (§5.2.3); any other mix is a
    reserve fleet group (§5.2.2). Ruling: a single independent craft on its own
    is an independent (a marker that may be attached, §3), not a reserve group.
    """
    found = list(designs)
    if not found:
        return "empty"
    if len(found) == 1 and is_independent(found[0]):
        return "independent"
    if all(of_design(d).craft == "standard" for d in found):
        return "standard"
    if all(of_design(d).craft == "military" and is_static(d) for d in found):
        return "static"
    return "reserve"


def kind_of(state: State, group: Group) -> GroupKind:
    """§5.2: the group's kind; a group marked as a reserve group (§5.2.2) stays one."""
    kind = group_kind(designs_of(state, group))
    return "reserve" if of_group(group).reserve and kind == "standard" else kind


def points(designs: Iterable[Design]) -> int:
    """Everything counts towards a group's size (§5.3)."""
    return sum(d.points for d in designs)


def ep_rating(total_points: int) -> int:
    """§2.2, §5.2: 1 EP per 100 points or part of 100 (346 points need 4)."""
    return math.ceil(total_points / 100)


def store_limit(kind: GroupKind, total_points: int) -> int:
    """§5.2: the most EPs a group of this kind and size may keep in store."""
    if kind == "empty":
        return 0
    multiple = STORE_MULTIPLE.get(kind, INDEPENDENT_STORE_MULTIPLE)
    return multiple * ep_rating(total_points)


def group_class(total_points: int) -> str:
    """§5.3: the class of a standard fleet group of this size (TF up to 500 …)."""
    for code, _name, largest, _below in GROUP_CLASSES:
        if largest is None or total_points <= largest:
            return code
    raise AssertionError("the armada has no largest size")


def class_limit(code: str) -> int | None:
    """§3.1, §5.3: a class's largest size in points (None: no limit)."""
    return next(largest for c, _n, largest, _b in GROUP_CLASSES if c == code)


def class_name(code: str) -> str:
    return next(name for c, name, _l, _b in GROUP_CLASSES if c == code)


def attach_allowed(group_points: int, attached: Iterable[int], new: int) -> bool:
    """§3.1: may an independent of ``new`` points join a standard group of
    ``group_points`` that already has independents of ``attached`` points?

    The group may have independents up to its class limit in points, and may
    always have at least one, whatever it costs.
    """
    already = list(attached)
    if not already:
        return True
    limit = class_limit(group_class(group_points))
    if limit is None:
        return ARMADA_ATTACH_LIMIT is None or sum(already) + new <= ARMADA_ATTACH_LIMIT
    return sum(already) + new <= limit


def structure_problems(state: State) -> list[tuple[str, str]]:
    """§5.3: (group id, what is wrong) for every standard group out of structure.

    Each group's parent must be another standard group of the same power, of a
    larger class, with no loop; each group must have below it the groups its
    class requires. Reserve groups, military static groups and independents
    stand outside the structure.
    """
    groups = {g.id: g for g in state.groups.groups}
    standard = {g.id: g for g in state.groups.groups if kind_of(state, g) == "standard"}
    cls = {gid: group_class(points(designs_of(state, g))) for gid, g in standard.items()}
    order = [c for c, _n, _l, _b in GROUP_CLASSES]
    found: list[tuple[str, str]] = []
    children: dict[str, list[str]] = {}
    for gid, g in groups.items():
        above = of_group(g).parent
        if above is None:
            continue
        parent = standard.get(above)
        if gid not in standard:
            found.append((gid, f"{gid} is not a standard fleet group, so it has no place "
                          "in the group structure; remove its parent"))
        elif parent is None:
            found.append((gid, f"{gid}'s parent {above!r} is not a standard fleet group"))
        elif parent.owner != g.owner:
            found.append((gid, f"{gid}'s parent {above} belongs to {parent.owner}"))
        elif order.index(cls[above]) <= order.index(cls[gid]):
            found.append((gid, f"{gid} ({cls[gid]}) is placed under {above} "
                          f"({cls[above]}); a group stands under a larger class"))
        else:
            children.setdefault(above, []).append(gid)
    for gid in standard:
        below: dict[str, int] = {}
        stack, seen = list(children.get(gid, ())), {gid}
        while stack:
            child = stack.pop()
            if child in seen:
                continue
            seen.add(child)
            below[cls[child]] = below.get(cls[child], 0) + 1
            stack.extend(children.get(child, ()))
        needed = dict(GROUP_CLASSES[order.index(cls[gid])][3])
        short = [f"{n} {c}" for c, n in needed.items() if below.get(c, 0) < n]
        if short:
            found.append((gid, f"{gid} is a {class_name(cls[gid])} ({cls[gid]}), which needs "
                          f"{', '.join(f'{n} {c}' for c, n in needed.items())} below it in "
                          f"the group structure; it is short of {', '.join(short)}"))
    return found
