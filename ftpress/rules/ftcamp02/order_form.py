"""The order form of one player for the round: every group on Hold-Nothing (§4.0),
and in comments what it holds, the systems within its optimal move (§4.1.1), the
groups it may support (§4.4), whether it may maintain orbit (§4.3) and the hold
sub-orders there are rules for (§4.2). Attached independents follow their group
(§3) and get a comment only. Written as is, it passes ``ftpress check``.
"""

from __future__ import annotations

from ftpress.rules.choices import (
    LIST,
    MAP,
    MOST_NEW_GROUPS,
    Assign,
    Assignments,
    Choice,
    GroupChoices,
    OrderChoices,
    new_groups,
    split_table,
)
from ftpress.rules.form_comments import form_for, wrapped
from ftpress.rules.ftcamp02.groups import kind_of
from ftpress.rules.ftcamp02.orderfile import HOLD_SUBS
from ftpress.rules.ftcamp02.orders import MISSING_CHAPTER, within_optimal
from ftpress.rules.ftcamp02.state_ext import of_group
from ftpress.state.hexes import Hex
from ftpress.state.model import Group, State

#: The hold sub-orders this ruleset has the chapters for (§4.2).
PLAYABLE_SUBS = tuple(sub for sub in HOLD_SUBS if sub not in MISSING_CHAPTER)


def order_form(state: State, player_id: str) -> str:
    """The YAML text of ``player_id``'s order form for the open round."""
    form = form_for(state, player_id)
    turn, mine = form.turn, form.groups
    lines = [
        form.heading,
        "# Every group holds (Hold-Nothing, §4.0) as written. Give a group one of",
        "# 'move: <system or hex>', 'support: <group>', 'maintain_orbit: true' or",
        "# 'hold: <sub-order>' instead; then check the file with 'ftpress check'.",
        f"# hold sub-orders (§4.2): {', '.join(PLAYABLE_SUBS)}",
        f"turn: {turn}",
        f"player: {player_id}",
    ]
    free = [g for g in mine if of_group(g).attached_to is None]
    lines.append("groups:" if free else "groups: {}  # no group of yours takes orders")
    for group in mine:
        lines.extend(f"  {line}" for line in wrapped(_group_lines(state, group, free), 2))
    return "\n".join(wrapped(lines)) + "\n"


def order_choices(state: State, player_id: str) -> OrderChoices:
    """Each free group's legal orders this round for the "Your view" form: Hold-Nothing
    (§4.0), a move to each system within its optimal move (§4.1.1), support of a group
    beside it (§4.4), maintaining orbit at a system (§4.3), or a hold sub-order the
    ruleset has the chapter for (§4.2); and with a hold, one craft split off into a new
    group or another group in its hex merged into it (§4.2.2: the check keeps them
    to the reorganising hold)."""
    form = form_for(state, player_id)
    free = [g for g in form.groups if of_group(g).attached_to is None]
    taken = {g.id for g in state.groups.groups}
    groups = []
    for group in free:
        orders = [Choice("hold (nothing, §4.0)", ("hold: nothing",))]
        start = state.hex_of(group.at)
        _, near = within_optimal(state, group)
        orders += [Choice(f"move to {_name(state, id_)} ({id_}), {d} hexes", (f"move: {id_}",))
                   for d, id_ in near]
        orders += [Choice(f"support {g.id}", (f"support: {g.id}",)) for g in free
                   if g.id != group.id and state.hex_of(g.at) == start]
        if isinstance(start, Hex) and state.system_at(start) is not None:
            orders.append(Choice("maintain orbit (§4.3)", ("maintain_orbit: true",)))
        orders += [Choice(f"hold: {sub} (§4.2)", (f"hold: {sub}",)) for sub in PLAYABLE_SUBS
                   if sub != "nothing"]
        crafts = ", ".join(f"{s.name} ({s.design})" for s in group.ships) or "no craft"
        groups.append(GroupChoices(group.id, f"{group.id} at {_where(state, group)}: {crafts}",
                                   tuple(orders), *_reorganise(state, group, free, taken)))
    return OrderChoices((f"turn: {form.turn}", f"player: {player_id}"), "groups",
                        tuple(groups), (), ("a move to an open hex", "two independents "
                                            "attached to one group in one round (§3.1)",
                                            f"a split into more than {MOST_NEW_GROUPS} new "
                                            "groups, places "
                                            "in the structure (§5.3) and sub-orders of "
                                            "single craft"),
                        _independents(state, form.groups))


def _independents(state: State, mine: tuple[Group, ...] | list[Group]
                  ) -> tuple[Assignments, ...]:
    """§3: each independent of the player's detached from its group, or attached to a
    standard group in its hex (one a round to each group: the class limit counts
    what is attached already, §3.1)."""
    items = []
    for group in mine:
        if kind_of(state, group) != "independent":
            continue
        options: tuple[Choice, ...]
        if of_group(group).attached_to is not None:
            options = (Choice(f"stays with {of_group(group).attached_to}", ()),
                       Choice("detaches (§3.1)", ("detach",)))
        else:
            here = state.hex_of(group.at)
            options = (Choice("stays on its own", ()), *(
                Choice(f"attaches to {other.id} (§3.1)", ("attach", other.id),
                       absorbs=(group.id,))
                for other in mine if other.id != group.id and state.hex_of(other.at) == here
                and kind_of(state, other) == "standard"
                and of_group(other).attached_to is None))
        if len(options) > 1:
            items.append(Assign(group.id, group.id, options))
    return (Assignments("Independents (§3)", tuple(items),
                        (("attach", MAP), ("detach", LIST)), distinct=("attach",)),) \
        if items else ()


def _reorganise(state: State, group: Group, free: list[Group], taken: set[str]
                ) -> tuple[tuple[Choice, ...], tuple[Assignments, ...]]:
    """§4.2.2: craft split off into a new group (an id of the player's not in use),
    or another free group in the same hex merged into this one."""
    extras = [Choice("no merge", ())]
    splits: tuple[Assignments, ...] = ()
    if len(group.ships) > 1:
        names = tuple(craft.name for craft in group.ships)
        new_ids = []
        n = 1
        for _ in range(new_groups(names)):
            while f"{group.owner}-{n}" in taken:
                n += 1
            new_ids.append(f"{group.owner}-{n}")
            taken.add(new_ids[-1])
        splits = (split_table(tuple(new_ids), names, "§4.2.2"),)
    here = state.hex_of(group.at)
    extras += [Choice(f"merge {other.id} into it", (f"merge: [{other.id}]",),
                      absorbs=(other.id,))
               for other in free if other.id != group.id and state.hex_of(other.at) == here]
    return tuple(extras) if len(extras) > 1 else (), splits


def _group_lines(state: State, group: Group, free: list[Group]) -> list[str]:
    crafts = ", ".join(f"{s.name} ({s.design})" for s in group.ships) or "no craft"
    head = f"# {group.id} at {_where(state, group)}: {crafts}"
    parent = of_group(group).attached_to
    if parent is not None:
        return [head, f"# {group.id} is attached to {parent} and goes with it (§3); "
                f"'detach: [{group.id}]' gives it orders of its own"]
    lines = [head]
    start = state.hex_of(group.at)
    optimal, near = within_optimal(state, group)
    if optimal:
        lines.append(f"# move within its optimal {optimal} hexes (§4.1.1): "
                     + (", ".join(f"{_name(state, id_)} ({id_}) {d} hexes" for d, id_ in near)
                        or "no system"))
    beside = [g.id for g in free if g.id != group.id and state.hex_of(g.at) == start]
    if beside:
        lines.append(f"# support (§4.4): {', '.join(beside)}")
    if isinstance(start, Hex) and state.system_at(start) is not None:
        lines.append("# maintain_orbit: true (§4.3)")
    lines.append(f"{group.id}:")
    lines.append("  hold: nothing")
    return lines


def _where(state: State, group: Group) -> str:
    start = state.hex_of(group.at)
    world = state.system_at(start) if isinstance(start, Hex) else None
    return f"{world.name} ({world.id})" if world is not None else f"hex {start}"


def _name(state: State, system_id: str) -> str:
    system = state.system(system_id)
    return system.name if system is not None else system_id
