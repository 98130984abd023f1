"""The order form of one player for the open turn: every task force staying where
it is (an order with nothing in it), and in comments what it holds, the systems a
move can reach this turn with the facing that points at each (§4.1, §4.3, and one
more move for an endurance point, §4.4), which orders apply (§6 combat, §2.1
split and merge) and the economic orders of phase 2 (§3, §7). Written as is, it
passes ``ftpress check``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

from ftpress.rules.choices import (
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
from ftpress.rules.sct import plane
from ftpress.rules.sct.orderfile import FACINGS, MAX_MOVE
from ftpress.state.hexes import Hex
from ftpress.state.model import Group, Player, Point, State, System


def order_form(state: State, player_id: str) -> str:
    """The YAML text of ``player_id``'s order form for the open turn."""
    form = form_for(state, player_id)
    turn, player, mine = form.turn, form.player, form.groups
    lines = [
        form.heading,
        "# Every task force stays where it is as written. To move one, give it",
        f"# 'move: <clock facing>/<MU>' (1-12 / 0-{MAX_MOVE}, §4.1), and 'toward: <system>' to",
        "# aim at a system within 15° (§4.3); then check the file with 'ftpress check'.",
        f"turn: {turn}",
        f"player: {player_id}",
    ]
    lines.append("forces:" if mine else "forces: {}  # you have no task forces")
    for group in mine:
        lines.extend(f"  {line}" for line in wrapped(_force_lines(state, group, mine), 2))
    lines.extend(_economy_lines(state, player))
    return "\n".join(wrapped(lines)) + "\n"


def order_choices(state: State, player_id: str) -> OrderChoices:
    """Each task force's orders this turn for the "Your view" form: staying where it is,
    or a move aimed at each system in reach (§4.1, §4.3: the clock facing that points
    at it, and the whole MU up to it, where the move stops), and one further away with
    a secondary move toward it where the force has an endurance point (§4.4), or a
    whole move on each clock facing into open space (§4.1); and with
    its order each ship's part in battle (a screen, §6.6, or a combined attack, §6.7),
    ships split off into a new force, or another force at the same place merged into
    it while both stay there (§2.1 phase 9, after movement)."""
    form = form_for(state, player_id)
    taken = {g.id for g in state.groups.groups}
    forces = []
    for group in form.groups:
        orders = [Choice("stay where it is", ())]
        start = None if isinstance(group.at, Hex) else plane.where(state, group.at)
        if start is not None:
            orders += _moves(state, start, bool(group.endurance))
            orders += [Choice(f"move {MAX_MOVE} MU at {facing} o'clock",
                              (f"move: {facing}/{MAX_MOVE}",)) for facing in FACINGS]
        extras = [Choice("no merge", ())]
        extras += [Choice(f"merge {other.id} into it (both stay)", (f"merge: [{other.id}]",),
                          absorbs=(other.id,), with_orders=(0,))
                   for other in form.groups if other.id != group.id and other.at == group.at]
        tables = []
        if len(group.ships) > 1:
            names = tuple(ship.name for ship in group.ships)
            new_ids = []
            for _ in range(new_groups(names)):
                new_ids.append(_fresh_id(group.id, taken))
                taken.add(new_ids[-1])
            tables = [_battle(names), split_table(tuple(new_ids), names, "§2.1")]
        where = group.at if isinstance(group.at, Hex) else plane.place_name(state, group.at)
        ships = ", ".join(f"{s.name} ({s.design})" for s in group.ships) or "no ships"
        forces.append(GroupChoices(group.id, f"{group.id} at {where}: {ships}", tuple(orders),
                                   tuple(extras) if len(extras) > 1 else (), tuple(tables)))
    return OrderChoices((f"turn: {form.turn}", f"player: {player_id}"), "forces",
                        tuple(forces), (),
                        ("a move of less than 3 MU on a bearing, or aimed at a task force, "
                         "and a secondary move other than toward a system (§4.1, §4.3, §4.4)",
                         "a combined attack with a ship of another task force, breaking off "
                         "and unsupplied fighting (§6)",
                         f"a split into more than {MOST_NEW_GROUPS} new task forces",
                         "the economic orders of phase 2 (§3, §7)"))


def _battle(names: tuple[str, ...]) -> Assignments:
    """Each ship's part in the force's battles: attacking on its own, screening
    another ship of the force (§6.6), or joining another's attack (§6.7); a ship
    another joins attacks on its own (every combined attack joins a ship that
    attacks); a ship screened may screen a third in turn, but no screen loops back."""
    quoted = {name: json.dumps(name, ensure_ascii=False) for name in names}
    return Assignments(
        "In battle (§6.6 screens, §6.7 combined attacks)",
        tuple(Assign(name, quoted[name], (
            Choice("attacks on its own", ()),
            *(Choice(f"screens {other}", ("screen", quoted[other]))
              for other in names if other != name),
            *(Choice(f"joins {other}'s attack", ("combine", quoted[other]))
              for other in names if other != name))) for name in names),
        (("screen", MAP), ("combine", MAP)), free_targets=True, chains=("screen",))


def _moves(state: State, start: Point, endurance: bool) -> list[Choice]:
    """A move aimed at each system in reach, nearest first (see :func:`order_choices`)."""
    found = []
    for mu, facing, system in _in_reach(state, start):
        if mu <= MAX_MOVE:
            found.append(Choice(f"move to {system.name} ({system.id}), {mu:.1f} MU",
                                (f"move: {facing}/{math.ceil(mu - 1e-9)}",
                                 f"toward: {system.id}")))
        elif endurance:
            found.append(Choice(f"move to {system.name} ({system.id}), {mu:.1f} MU, with a "
                                "secondary move (an endurance point)",
                                (f"move: {facing}/{MAX_MOVE}", f"toward: {system.id}",
                                 f"secondary: {{toward: {system.id}}}")))
    return found


def _in_reach(state: State, start: Point) -> list[tuple[float, int, System]]:
    """The systems within twice :data:`MAX_MOVE` MU of ``start`` (a move and a secondary
    one, §4.1, §4.4), nearest first, each with its distance and the clock facing that
    points at it (within 15° of it, §4.3)."""
    found = []
    for system in state.map.systems:
        at = plane.where(state, system.id)
        if at is None:
            continue
        mu = plane.distance(start, at)
        if 0 < mu <= 2 * MAX_MOVE:
            found.append((mu, round(plane.bearing(start, at) / 30) % 12 or 12, system))
    return sorted(found, key=lambda item: (item[0], item[2].name, item[2].id))


def _fresh_id(force_id: str, taken: set[str]) -> str:
    """A new task force's id, from its parent's: ``<parent>-2``, ``-3``…, unused."""
    n = 2
    while f"{force_id}-{n}" in taken:
        n += 1
    return f"{force_id}-{n}"


def _force_lines(state: State, group: Group, mine: Sequence[Group]) -> list[str]:
    start = None if isinstance(group.at, Hex) else plane.where(state, group.at)
    ships = ", ".join(f"{s.name} ({s.design})" for s in group.ships) or "no ships"
    where = group.at if isinstance(group.at, Hex) else plane.place_name(state, group.at)
    lines = [f"# {group.id} at {where}: {ships}; endurance "
             f"{group.endurance if group.endurance is not None else 'not kept'}"]
    if start is not None:
        lines.append(f"# in reach this turn: {_reach(state, start) or 'no system'}")
    others = [g.id for g in mine if g.id != group.id and g.at == group.at]
    lines.append("# also: secondary (an endurance point, §4.4), engage, supplied, rounds, "
                 "screen, combine (§6)")
    if len(group.ships) > 1 or others:
        lines.append("# reorganise (§2.1): " + "; ".join(
            [*(["split: {new-id: [ship, …]}"] if len(group.ships) > 1 else []),
             *([f"merge: [{', '.join(others)}]"] if others else [])]))
    lines.append(f"{group.id}: {{}}")
    return lines


def _reach(state: State, start: Point) -> str:
    """The systems a move reaches (within :data:`MAX_MOVE` MU, twice that with a
    secondary move), each with its distance and the clock facing toward it."""
    return ", ".join(f"{system.name} ({system.id}) {mu:.1f} MU at {facing} o'clock"
                     + ("" if mu <= MAX_MOVE else " (with a secondary move)")
                     for mu, facing, system in _in_reach(state, start))


def _economy_lines(state: State, player: Player) -> list[str]:
    """Phase 2's orders, as comments to fill in (§3, §7)."""
    yards = [s.id for s in state.map.systems
             if s.owner == player.id and s.shipyard]
    at = yards[0] if yards else "<your shipyard>"
    return [
        "# Economic orders (phase 2, §3 and §7) go under 'economy:':",
        "# economy:",
        f"#   builds: [{{design: <design>, at: {at}, name: <ship name>}}]   # §3.3",
        "#   repairs: [{force: <task force>, ship: <ship name>}]   # §3.3",
        f"#   works: [{{kind: depot, at: {at}}}]   # depot, base or shipyard (§7.2-§7.4)",
        f"# your shipyards: {', '.join(yards) or 'none'}",
    ]
