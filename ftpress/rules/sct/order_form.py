"""The order form of one player for the open turn: every task force staying where
it is (an order with nothing in it), and in comments what it holds, the systems a
move can reach this turn with the facing that points at each (§4.1, §4.3, and one
more move for an endurance point, §4.4), which orders apply (§6 combat, §2.1
split and merge) and the economic orders of phase 2 (§3, §7). Written as is, it
passes ``ftpress check``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ftpress.rules.form_comments import form_for, wrapped
from ftpress.rules.sct import plane
from ftpress.rules.sct.orderfile import MAX_MOVE
from ftpress.state.hexes import Hex
from ftpress.state.model import Group, Player, Point, State


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
    found = []
    for system in state.map.systems:
        at = plane.where(state, system.id)
        if at is None:
            continue
        mu = plane.distance(start, at)
        if 0 < mu <= 2 * MAX_MOVE:
            facing = round(plane.bearing(start, at) / 30) % 12 or 12
            found.append((mu, f"{system.name} ({system.id}) {mu:.1f} MU at {facing} o'clock"
                          + ("" if mu <= MAX_MOVE else " (with a secondary move)")))
    return ", ".join(text for _, text in sorted(found))


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
