"""What sct requires of any state, beyond what the state model checks."""

from __future__ import annotations

from ftpress.errors import Problem
from ftpress.rules.campaign_setup import option_problems
from ftpress.rules.sct import plane
from ftpress.rules.sct.setup import Options
from ftpress.rules.sct.state_ext import position
from ftpress.rules.sct.supply import max_endurance
from ftpress.state.hexes import Hex
from ftpress.state.load import LoadedState
from ftpress.state.model import Point

#: Ruling: two systems stand at least this far apart, so that "at a system" (within
#: ``plane.AT_SYSTEM``) is never two systems at once.
MIN_SYSTEM_SPACING = 2 * plane.AT_SYSTEM


def check_state(loaded: LoadedState) -> list[Problem]:
    """Every sct problem with a loaded state, located."""
    return [*setup_options(loaded), *planar_map(loaded), *forces(loaded)]


def setup_options(loaded: LoadedState) -> list[Problem]:
    """The options the map was made with are ones ``ftpress init`` takes."""
    return option_problems(loaded, Options.from_dict)


def planar_map(loaded: LoadedState) -> list[Problem]:
    """§7.1: the map is a plane in MU; every system has a position on it."""
    state = loaded.state
    problems = []
    if state.map.geometry != "plane":
        problems.append(Problem(*loaded.where("map", "radius", key=True), "an sct map is a "
                                "plane in MU; expected 'geometry: plane' in state/map.yaml"))
    r = state.map.radius
    placed: list[tuple[Point, str]] = []
    for i, s in enumerate(state.map.systems):
        at = position(s)
        if s.hex is not None:
            problems.append(Problem(*loaded.where("map", "systems", i, "hex", key=True),
                                    f"{s.id!r} is placed by hex; an sct system has a "
                                    "position: {x: …, y: …, z: …} in MU"))
        elif at is None:
            problems.append(Problem(*loaded.where("map", "systems", i), f"{s.id!r} has no "
                                    "position; an sct system has a position: {x: …, y: …, "
                                    "z: …} in MU"))
        if at is None:
            continue
        if abs(at.x) > r or abs(at.y) > r:
            problems.append(Problem(*loaded.where("map", "systems", i, "position"),
                                    f"{s.id!r} at {at} is off the map; x and y run "
                                    f"from -{r} to {r} MU"))
        point = plane.flat(at)
        for other, other_id in placed:
            if plane.distance(point, other) < MIN_SYSTEM_SPACING:
                problems.append(Problem(*loaded.where("map", "systems", i, "position"),
                                        f"{s.id!r} is within {MIN_SYSTEM_SPACING:g} MU of "
                                        f"{other_id!r}; systems stand further apart"))
        placed.append((point, s.id))
        if s.income is None:
            problems.append(Problem(*loaded.where("map", "systems", i), f"{s.id!r} has no "
                                    "income; every sct system has an EV (§3.1)"))
    return problems


def forces(loaded: LoadedState) -> list[Problem]:
    """§4, §5: task forces stand at a system or a point, with their endurance."""
    state = loaded.state
    problems = []
    r = state.map.radius
    for i, g in enumerate(state.groups.groups):
        if isinstance(g.at, Hex):
            problems.append(Problem(*loaded.where("groups", "groups", i, "at"),
                                    f"{g.id} is placed at a hex; on an sct map a task force "
                                    "is at a system id or a point {x: …, y: …}"))
        elif isinstance(g.at, Point) and (abs(g.at.x) > r or abs(g.at.y) > r):
            problems.append(Problem(*loaded.where("groups", "groups", i, "at"),
                                    f"{g.id} at {g.at} is off the map; x and y run from "
                                    f"-{r} to {r} MU"))
        if g.endurance is not None and g.endurance > max_endurance(state, g):
            problems.append(Problem(*loaded.where("groups", "groups", i, "endurance"),
                                    f"{g.id} has {g.endurance} endurance points; it holds "
                                    f"at most {max_endurance(state, g)} (§5.1)"))
        if g.dummy:
            problems.append(Problem(*loaded.where("groups", "groups", i, "dummy"),
                                    "sct has no dummy counters; every task force has ships"))
    return problems
