"""Hex geometry for strategic maps: axial coordinates, distance, directions.

The map is drawn with **flat-topped** hexes, so every hex has a side facing
straight up (north, the top of the map and of the tabletop, ftc2007 §17.8).
The six hex sides, and the six directions out of them, are numbered as a die
rolls them, clockwise from north::

    1 north        (0, -1)         5 south-west   (-1, +1)
    2 north-east   (+1, -1)        6 north-west   (-1, 0)
    3 south-east   (+1, 0)
    4 south        (0, +1)

A hex is ``Hex(q, r)``: ``q`` counts columns west to east, ``r`` runs north to
south within a column; the map's centre is ``Hex(0, 0)``.

"In direction d" means inside the 60° wedge centred on side d, edges
included, so a hex on the line between two wedges lies in both (see
:func:`bearings`). The nearest hex in a direction is the closest by hex
distance; among equally close ones, the one nearest the wedge's centre line;
between two mirror images, the clockwise one (:data:`CLOCKWISE_FIRST`).

Nothing in this module knows a rule; every ruleset shares it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

#: Direction number → (dq, dr), clockwise from north; see the module docstring.
DIRECTIONS: dict[int, tuple[int, int]] = {
    1: (0, -1),
    2: (1, -1),
    3: (1, 0),
    4: (0, 1),
    5: (-1, 1),
    6: (-1, 0),
}
DIRECTION_NAMES = {1: "north", 2: "north-east", 3: "south-east", 4: "south",
                   5: "south-west", 6: "north-west"}

#: Ruling: of two hexes equally near and equally far off a direction's centre
#: line, mirror images either side of it, the clockwise one counts as nearer.
CLOCKWISE_FIRST = True

#: A coordinate has at most six digits: no map comes near, and a 5,000-digit one is a
#: mistake or an attack (Python will not even convert more than 4,300).
_PARSE = re.compile(r"\(?\s*(-?\d{1,6})\s*,\s*(-?\d{1,6})\s*\)?")


@dataclass(frozen=True, slots=True, order=True)
class Hex:
    """One hex in axial coordinates. ``repr`` pastes back into a test."""

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate: q + r + s = 0."""
        return -self.q - self.r

    def step(self, direction: int, times: int = 1) -> Hex:
        """The hex ``times`` steps away out of side ``direction`` (1–6)."""
        dq, dr = DIRECTIONS[direction]
        return Hex(self.q + dq * times, self.r + dr * times)

    def distance(self, other: Hex) -> int:
        """Jumps between the two hexes through adjacent hexes."""
        dq, dr = self.q - other.q, self.r - other.r
        return max(abs(dq), abs(dr), abs(dq + dr))

    def neighbours(self) -> tuple[Hex, ...]:
        """The six adjacent hexes, in direction order 1–6."""
        return tuple(self.step(d) for d in DIRECTIONS)

    def __str__(self) -> str:
        return f"({self.q}, {self.r})"

    @classmethod
    def parse(cls, text: str) -> Hex:
        """'2,-1' or '(2, -1)' → ``Hex(2, -1)``; ``ValueError`` otherwise."""
        match = _PARSE.fullmatch(text.strip())
        if match is None:
            raise ValueError(f"{text!r} is not a hex; expected 'q,r' such as '2,-1' "
                             "(at most six digits each)")
        return cls(int(match.group(1)), int(match.group(2)))


ORIGIN = Hex(0, 0)


def hexagon(radius: int) -> tuple[Hex, ...]:
    """Every hex within ``radius`` of the centre: 1 + 3·r·(r+1) of them.

    Six hexes on a side is radius 5, 91 hexes. The order is the map's reading
    order, which generators roll in: column by column west to east, each column
    north to south.
    """
    return tuple(Hex(q, r) for q in range(-radius, radius + 1)
                 for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1))


def on_map(h: Hex, radius: int) -> bool:
    return h.distance(ORIGIN) <= radius


def ring(centre: Hex, radius: int) -> tuple[Hex, ...]:
    """The hexes exactly ``radius`` away, clockwise from the one due north."""
    if radius == 0:
        return (centre,)
    found = []
    h = centre.step(1, radius)
    for direction in (3, 4, 5, 6, 1, 2):  # walk the sides clockwise from the north corner
        for _ in range(radius):
            found.append(h)
            h = h.step(direction)
    return tuple(found)


@dataclass(frozen=True, slots=True)
class Bearing:
    """Where a hex lies seen from another: in direction ``direction``'s wedge,
    ``distance`` away, ``off`` steps off the centre line (positive clockwise)."""

    direction: int
    distance: int
    off: int

    def key(self) -> tuple[int, int, int]:
        """Sort key for "nearest in this direction": distance, then how far off
        the centre line (compared as a fraction of the distance, which at equal
        distance is just the steps), then clockwise before anticlockwise."""
        side = 0 if self.off >= 0 else 1
        return (self.distance, abs(self.off), side if CLOCKWISE_FIRST else 1 - side)


def bearings(origin: Hex, target: Hex) -> tuple[Bearing, ...]:
    """The direction wedges ``target`` lies in, seen from ``origin``: one, or two
    for a hex exactly on the line between wedges; none for the origin itself.

    Every hex is ``a`` steps one way plus ``b`` steps the next way clockwise
    (a > 0, b ≥ 0); it is in the first direction's wedge if a ≥ b and in the
    second's if b ≥ a.
    """
    if target == origin:
        return ()
    hq, hr = target.q - origin.q, target.r - origin.r
    for d in DIRECTIONS:
        nxt = d % 6 + 1
        (aq, ar), (bq, br) = DIRECTIONS[d], DIRECTIONS[nxt]
        det = aq * br - ar * bq
        a = (hq * br - hr * bq) // det
        b = (aq * hr - ar * hq) // det
        if a > 0 and b >= 0:
            found = []
            if a >= b:
                found.append(Bearing(d, a + b, b))
            if b >= a:
                found.append(Bearing(nxt, a + b, -a))
            return tuple(found)
    raise AssertionError((origin, target))  # the six wedges cover the plane


def in_direction(origin: Hex, direction: int, target: Hex) -> Bearing | None:
    """``target``'s bearing in ``direction``'s wedge, or None if it is not in it."""
    return next((b for b in bearings(origin, target) if b.direction == direction), None)


def nearest_in_direction(origin: Hex, direction: int, candidates: Iterable[Hex],
                         within: int | None = None) -> Hex | None:
    """The candidate nearest ``origin`` in ``direction`` (see the module docstring),
    at most ``within`` hexes away if given; None if there is none."""
    best: tuple[tuple[int, int, int], Hex] | None = None
    for h in candidates:
        bearing = in_direction(origin, direction, h)
        if bearing is None or (within is not None and bearing.distance > within):
            continue
        if best is None or bearing.key() < best[0]:
            best = (bearing.key(), h)
    return best[1] if best else None
