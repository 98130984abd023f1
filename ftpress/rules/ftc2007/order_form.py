"""The order form of one player for the open turn: every group holding, and in
comments what it holds, where it can go this week (§8.1 jumps, §8.2 charted routes)
and which orders apply (§2.3 scouting, §15.1 split and merge, §5.2 economic orders
in an economic week). Written as is, it passes ``ftpress check``: a player edits
the orders they want and leaves the rest holding.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ftpress.rules.choices import (
    MOST_NEW_GROUPS,
    Choice,
    GroupChoices,
    OrderChoices,
    new_groups,
    split_table,
)
from ftpress.rules.form_comments import form_for, wrapped
from ftpress.rules.ftc2007.construction import own_navy
from ftpress.rules.ftc2007.economy_form import economy_choices
from ftpress.rules.ftc2007.orderfile import POSTURES
from ftpress.rules.ftc2007.orders import economic_week, place, reach
from ftpress.rules.ftc2007.scouts import is_scout
from ftpress.rules.ftc2007.state_ext import jumped_out, owed_by
from ftpress.state.hexes import Hex
from ftpress.state.model import Group, Player, Point, State


def order_form(state: State, player_id: str) -> str:
    """The YAML text of ``player_id``'s order form for the open turn."""
    form = form_for(state, player_id)
    turn, player, mine = form.turn, form.player, form.groups
    lines = [
        form.heading,
        "# Every group holds as written. To move one, replace its 'hold: true' with",
        "# 'move: <world id or hex>' and a posture (stand-off, attack or",
        "# withdraw-if-contested, §17.2); then check the file with 'ftpress check'.",
        f"turn: {turn}",
        f"player: {player_id}",
    ]
    lines.append("groups:" if mine else "groups: {}  # you have no groups")
    for group in mine:
        lines.extend(f"  {line}" for line in wrapped(_group_lines(state, group, mine), 2))
    if economic_week(state):
        lines.extend(_economy_lines(state, player))
    return "\n".join(wrapped(lines)) + "\n"


def _group_lines(state: State, group: Group, mine: Sequence[Group]) -> list[str]:
    """One group's comments and its hold."""
    lines = [f"# {group.id} at {_where(state, group.at)}: {_holds(state, group)}"]
    if jumped_out(group):
        lines.append(f"# {group.id} jumped out of a system last week: that was this week's "
                     "move (§18.4), so it holds")
    else:
        found = reach(state, group)
        jumps = found.jump_places(state)
        lines.append(f"# move by a jump (§8.1): {', '.join(jumps) if jumps else 'nowhere'}")
        for route_id, along in found.routes:
            lines.append(f"# move along {route_id} (route: {route_id}, §8.2): "
                         f"{', '.join(along)}")
        scouted = _scout_targets(state, group, found.jumps)
        if scouted:
            lines.append(f"# scout (one light ship on its own, §2.3): {', '.join(scouted)}")
    others = [g.id for g in mine if g.id != group.id and not g.dummy
              and state.hex_of(g.at) == state.hex_of(group.at)]
    reorganise = [*(["split: {new-id: [ship, …]}"] if len(group.ships) > 1 else []),
                  *([f"merge: [{', '.join(others)}]"] if others and not group.dummy else [])]
    if reorganise:
        lines.append(f"# reorganise (§15.1): {'; '.join(reorganise)}")
    lines.append(f"{group.id}:")
    lines.append("  hold: true")
    return lines


def order_choices(state: State, player_id: str) -> OrderChoices:
    """Each group's legal orders this week for the "Your view" form: hold, a move to
    each world a jump reaches (§8.1) or a charted route leads to (§8.2), scouting a
    neutral world in reach by a lone escort (§2.3), each move and scout with its
    posture (§17.2); and with any of them ships split off into new groups (up to
    :data:`MOST_NEW_GROUPS`, their ids the next free ones, kept for this group alone), or
    a merge of a group in the same place (§15.1); in a week with economic orders, those
    (:mod:`.economy_form`)."""
    form = form_for(state, player_id)
    hold = Choice("hold", ("hold: true",))
    taken = {g.id for g in state.groups.groups}
    fresh = _fresh_ids(player_id, taken)
    groups = []
    for group in form.groups:
        orders = [hold]
        if not jumped_out(group):
            found = reach(state, group)
            orders += [Choice(f"move to {place(state, w)} ({w}) by a jump", (f"move: {w}",),
                              needs_posture=True) for w in found.jumps]
            orders += [Choice(f"move to {place(state, w)} ({w}) along {route_id}",
                              (f"move: {w}", f"route: {route_id}"), needs_posture=True)
                       for route_id, along in found.routes for w in along]
            orders += [Choice(f"scout {place(state, w)} ({w})", (f"scout: {w}",),
                              needs_posture=True)
                       for w in _scout_targets(state, group, found.jumps)]
        names = tuple(s.name for s in group.ships)
        splits = (split_table(tuple(next(fresh) for _ in range(new_groups(names))), names,
                              "§15.1"),) if len(names) > 1 else ()
        groups.append(GroupChoices(group.id, f"{group.id} at {_where(state, group.at)}: "
                                   f"{_holds(state, group)}", tuple(orders),
                                   _merges(state, group, form.groups), splits))
    postures = tuple(Choice(p, (f"posture: {p}",)) for p in POSTURES)
    return OrderChoices((f"turn: {form.turn}", f"player: {player_id}"), "groups",
                        tuple(groups), postures,
                        ("a move to an open hex", f"a split into more than {MOST_NEW_GROUPS} "
                         "new groups (§15.1)", "orders for a group a split forms: it holds",
                         "a battle fought abstractly (§14.1)"),
                        economy=economy_choices(state, form.player))


def _fresh_ids(player_id: str, taken: set[str]) -> Iterator[str]:
    """New group ids for splits, ``<player>-<n>`` after the highest number in use."""
    numbers = [int(tail) for g in taken if g.startswith(f"{player_id}-")
               and (tail := g.removeprefix(f"{player_id}-")).isdigit()]
    n = max(numbers, default=0)
    while True:
        n += 1
        if f"{player_id}-{n}" not in taken:
            yield f"{player_id}-{n}"


def _merges(state: State, group: Group, mine: Sequence[Group]) -> tuple[Choice, ...]:
    """§15.1, what may go with the group's order: another group of the player's in the
    same place merged into it."""
    extras = [Choice("no merge", ())]
    if not group.dummy:
        here = state.hex_of(group.at)
        extras += [Choice(f"merge {other.id} into it", (f"merge: [{other.id}]",),
                          absorbs=(other.id,))
                   for other in mine if other.id != group.id and not other.dummy
                   and state.hex_of(other.at) == here]
    return tuple(extras) if len(extras) > 1 else ()


def _where(state: State, at: str | Hex | Point) -> str:
    if isinstance(at, str):
        return f"{place(state, at)} ({at})"
    world = state.system_at(at) if isinstance(at, Hex) else None
    return f"{world.name} ({world.id})" if world else f"hex {at}"


def _holds(state: State, group: Group) -> str:
    if group.dummy:
        return "a dummy counter, no ships (§15.2)"
    ships = []
    for ship in group.ships:
        design = state.design(ship.design)
        what = f"{design.name}, {design.size}" if design else ship.design
        ships.append(f"{ship.name} ({what})")
    return ", ".join(ships) or "no ships"


def _scout_targets(state: State, group: Group, jumps: tuple[str, ...]) -> list[str]:
    """The neutral, unscouted worlds in reach, if the group is one escort (§2.3)."""
    if not is_scout(state, [group]):
        return []
    start = state.hex_of(group.at)
    here = state.system_at(start) if start is not None else None
    candidates = ([here.id] if here is not None else []) + list(jumps)
    return [w for w in candidates if (world := state.system(w)) is not None
            and world.owner is None and world.income is None]


def _economy_lines(state: State, player: Player) -> list[str]:
    """Economic orders, as comments to fill in: this is an economic week (§5.2)."""
    worlds = [s.id for s in state.map.systems if s.owner == player.id]
    designs = [d.id for d in state.designs.designs if d.navy == own_navy(player)]
    at = worlds[0] if worlds else "<your world>"
    keels = [k.name for k in state.queues.keels if k.owner == player.id]
    owed = [d.world for d in owed_by(player)]
    design = designs[0] if designs else "<design>"
    return [
        "# This is an economic week (§5.2): economic orders go under 'economy:'.",
        "# economy:",
        "#   maintenance: full        # full, standardised or reduced (§7)",
        f"#   keels: [{{design: {design}, at: {at}, name: <ship name>}}]   # §13",
        f"#   purchases: [{{design: {design}, at: {at}, name: <ship name>}}]   # §13.1",
        "#   repairs: [{group: <group>, ship: <ship name>, boxes: 1}]   # §11",
        f"#   spares: [{{at: {at}, points: 10}}]   # §6.2.1",
        f"#   defences: [{{system: {at}, points: 1}}]   # §10.5",
        "#   ordnance: 40             # build price of ordnance spent (§7.1)",
        *([f"#   changes: [{{keel: {keels[0]}, design: {design}}}]   # §13.2"] if keels else []),
        *([f"#   owed: [{owed[0]}]   # repulse damage repaired for its price (§10.8)"]
          if owed else []),
        f"# your worlds: {', '.join(worlds) or 'none'}",
        f"# your designs: {', '.join(designs) or 'none'}",
    ]
