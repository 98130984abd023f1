"""Geometry of the sct map: points in MU on a plane, clock facings and bearings.

``x`` grows to the east and ``y`` to the north; 12 o'clock is north and the
facings run clockwise, 3 o'clock east (§4.1). Bearings are degrees clockwise
from 12 o'clock. Positions are rounded to ``POINT_DECIMALS`` places of an MU
after every move, so a state written to YAML reads back the same.
"""

from __future__ import annotations

import math

from ftpress.rules.sct.state_ext import position
from ftpress.state.hexes import Hex
from ftpress.state.model import POINT_DECIMALS, Location, Point, State

#: §4.3: how far a move may turn off its clock facing, in degrees.
DEVIATION = 15.0

#: Ruling: a task force that ends a move within this many MU of a star has ended
#: its movement *at* that system (the seed's systems are points; half an MU is
#: the size of a symbol on the suggested one-inch scale). It is placed on the star.
AT_SYSTEM = 0.5

#: §6.1: opposing task forces that end within this many MU may fight.
COMBAT_RANGE = 3.0


def facing_bearing(facing: int) -> float:
    """The bearing of a clock facing (§4.1): 12 → 0°, 3 → 90°, 9 → 270°."""
    return (facing % 12) * 30.0


def bearing(a: Point, b: Point) -> float:
    """The bearing from ``a`` to ``b`` in degrees, 0 ≤ b < 360 (0 for the same point)."""
    if a.x == b.x and a.y == b.y:
        return 0.0
    return math.degrees(math.atan2(b.x - a.x, b.y - a.y)) % 360.0


def off_facing(facing: int, to: float) -> float:
    """How many degrees bearing ``to`` lies off the clock facing (0 to 180)."""
    diff = abs(to - facing_bearing(facing)) % 360.0
    return min(diff, 360.0 - diff)


def distance(a: Point, b: Point) -> float:
    return math.hypot(b.x - a.x, b.y - a.y)


def _norm(value: float) -> int | float:
    """Rounded to ``POINT_DECIMALS``; a whole number as an int (it reads back the same)."""
    rounded = round(value, POINT_DECIMALS) + 0.0
    return int(rounded) if rounded.is_integer() else rounded


def step(start: Point, degrees: float, length: float) -> Point:
    """The point ``length`` MU from ``start`` on bearing ``degrees``, rounded."""
    rad = math.radians(degrees)
    return Point(_norm(start.x + length * math.sin(rad)),
                 _norm(start.y + length * math.cos(rad)))


def flat(point: Point) -> Point:
    """The point on the plane of movement (z is only shown, §7.1)."""
    return Point(point.x, point.y)


def where(state: State, at: Location) -> Point | None:
    """The point of a location: a system's position, or the point itself (a hex,
    which sct's state legality refuses, is no place on the plane)."""
    if isinstance(at, Point):
        return flat(at)
    if isinstance(at, Hex):
        return None
    system = state.system(at)
    found = position(system) if system is not None else None
    return flat(found) if found is not None else None


def settle(state: State, point: Point) -> str | Point:
    """Where a task force that stops at ``point`` is: the nearest system within
    :data:`AT_SYSTEM`, else the point itself."""
    placed = [(flat(p), s.id) for s in state.map.systems if (p := position(s)) is not None]
    near = [(distance(point, p), s) for p, s in placed if distance(point, p) <= AT_SYSTEM]
    return min(near)[1] if near else point


def near(a: Point, b: Point, reach: float = COMBAT_RANGE) -> bool:
    """Within ``reach`` MU, with a hair's allowance for rounding."""
    return distance(a, b) <= reach + 1e-9


def place_name(state: State, at: Location) -> str:
    """How an event names where something happened: the system's name, or the point."""
    if not isinstance(at, str):
        return f"{at}"
    system = state.system(at)
    return system.name if system is not None else at
