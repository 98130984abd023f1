"""What a ruleset played on a hex map (ftc2007, ftcamp02) requires of any state.

The shared state model also holds sct's planar maps, whose systems have a
``position`` and whose groups may stand at a point; the rules of a hex map read
either as nowhere, so its ruleset refuses them.
"""

from __future__ import annotations

from ftpress.errors import Problem
from ftpress.state.load import LoadedState
from ftpress.state.model import Point


def hex_map_problems(loaded: LoadedState, ruleset: str) -> list[Problem]:
    """The map is of hexes: every system has a hex, every group is at a system or a hex."""
    state = loaded.state
    found = []
    if state.map.geometry is not None:
        found.append(Problem(*loaded.where("map", "geometry"), f"{ruleset} is played on a "
                             f"hex map; remove 'geometry: {state.map.geometry}'"))
    for i, s in enumerate(state.map.systems):
        if s.hex is None:
            found.append(Problem(*loaded.where("map", "systems", i), f"{s.id!r} has no hex; "
                                 f"{ruleset} is played on a hex map, so give 'hex: [q, r]'"))
    for i, g in enumerate(state.groups.groups):
        if isinstance(g.at, Point):
            found.append(Problem(*loaded.where("groups", "groups", i, "at"), f"{g.id} is at "
                                 f"{g.at}, a point; {ruleset} is played on a hex map, so give "
                                 "a system id or a hex [q, r]"))
    return found
