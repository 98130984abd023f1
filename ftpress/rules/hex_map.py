"""What a ruleset played on a hex map (ftc2007, ftcamp02) requires of any state.

The shared state model also holds planar maps (sct's), where a group may stand at a
point; the rules of a hex map would read one as nowhere, so its ruleset refuses
them. On a hex map the shared checks already give every system a hex.
"""

from __future__ import annotations

from ftpress.errors import Problem
from ftpress.state.load import LoadedState
from ftpress.state.model import Point


def hex_map_problems(loaded: LoadedState, ruleset: str) -> list[Problem]:
    """The map is of hexes, and every group is at a system or a hex."""
    state = loaded.state
    found = []
    if state.map.geometry is not None:
        found.append(Problem(*loaded.where("map", "geometry"), f"geometry "
                             f"{state.map.geometry!r}: {ruleset} is played on a hex map, so "
                             "leave out 'geometry'"))
    for i, g in enumerate(state.groups.groups):
        if isinstance(g.at, Point):
            found.append(Problem(*loaded.where("groups", "groups", i, "at"), f"{g.id} is at "
                                 f"{g.at}, a point; {ruleset} is played on a hex map, so give "
                                 "a system id or a hex [q, r]"))
    return found
