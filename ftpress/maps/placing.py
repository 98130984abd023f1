"""Where a map's labels and counter stacks go so that none covers another.

Every world's value, its name and the counters beside it are placed in turn
(:func:`arrange`), each at the first of its candidate spots (the map key's usual
one first) that touches nothing already placed, no world's disc or marks, nothing
outside the map, and, where it can be helped, no route line; what found no free
spot is placed first in the next round. Text is measured by estimate, a little
generously, so that what the browser draws fits inside the box reserved for it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Anchor = Literal["start", "middle", "end"]

#: A character's width as a share of the font size: generous for the serif and
#: sans faces a map's text may fall back to, capitals and digits included.
_CHAR = 0.64
#: Above and below a text's baseline, as shares of the font size.
_ASCENT = 0.95
_DESCENT = 0.3


@dataclass(frozen=True, slots=True)
class Rect:
    left: float
    top: float
    right: float
    bottom: float

    def hits(self, other: Rect) -> bool:
        return (self.left < other.right and other.left < self.right
                and self.top < other.bottom and other.top < self.bottom)


@dataclass(frozen=True, slots=True)
class TextSpot:
    """Where a text is written: its baseline point and how it is anchored there."""

    x: float
    y: float
    anchor: Anchor = "middle"


def text_rect(spot: TextSpot, text: str, size: float) -> Rect:
    """The box a text written at ``spot`` in ``size`` units fills, by estimate."""
    width = len(text) * size * _CHAR + 2
    left = {"start": spot.x, "middle": spot.x - width / 2, "end": spot.x - width}[spot.anchor]
    return Rect(left, spot.y - size * _ASCENT, left + width, spot.y + size * _DESCENT)


def segment_rects(a: tuple[float, float], b: tuple[float, float], step: float = 6.0,
                  ) -> list[Rect]:
    """Small boxes along a line from ``a`` to ``b``, for labels to keep off it."""
    (x1, y1), (x2, y2) = a, b
    count = max(1, int(max(abs(x2 - x1), abs(y2 - y1)) / step))
    half = 1.5
    return [Rect(x - half, y - half, x + half, y + half)
            for i in range(count + 1)
            for x, y in [(x1 + (x2 - x1) * i / count, y1 + (y2 - y1) * i / count)]]


@dataclass(frozen=True, slots=True)
class Item:
    """One thing to place: the boxes it may fill, the one it would rather first, and
    whether it keeps off lines too (a label does, a counter stack need not)."""

    candidates: tuple[Rect, ...]
    mind_lines: bool = True


def text_item(spots: Sequence[TextSpot], text: str, size: float) -> Item:
    return Item(tuple(text_rect(spot, text, size) for spot in spots))


#: How many times the items are placed again, those that found no free spot first.
_ROUNDS = 6


def arrange(bounds: Rect, solid: Sequence[Rect], lines: Sequence[Rect],
            items: Sequence[Item]) -> list[int]:
    """Which candidate each item takes: each in turn takes the first that covers
    nothing (no solid box, nothing placed before it, nothing outside ``bounds``) and
    the fewest line boxes. Items that found no free spot go first in the next round;
    the round with the fewest such clashes wins (the first, among equals)."""
    order = list(range(len(items)))
    best: tuple[int, list[int]] | None = None
    for _ in range(_ROUNDS):
        chosen, clashed = _greedy(bounds, solid, lines, items, order)
        if best is None or len(clashed) < best[0]:
            best = (len(clashed), chosen)
        if not clashed:
            break
        order = clashed + [i for i in order if i not in set(clashed)]
    assert best is not None
    return best[1]


class _Grid:
    """Boxes filed by the cells of a coarse grid they touch, so that a candidate is
    checked against its neighbours alone, not every box on a large map."""

    CELL = 64.0

    def __init__(self, rects: Sequence[Rect] = ()) -> None:
        self._cells: dict[tuple[int, int], list[Rect]] = defaultdict(list)
        for rect in rects:
            self.add(rect)

    def _keys(self, r: Rect) -> list[tuple[int, int]]:
        c = self.CELL
        return [(i, j) for i in range(math.floor(r.left / c), math.floor(r.right / c) + 1)
                for j in range(math.floor(r.top / c), math.floor(r.bottom / c) + 1)]

    def add(self, rect: Rect) -> None:
        for k in self._keys(rect):
            self._cells[k].append(rect)

    def hits(self, rect: Rect) -> int:
        """How many boxes ``rect`` covers (each once, though it lie in several cells)."""
        return len({id(r) for k in self._keys(rect) for r in self._cells.get(k, ())
                    if r.hits(rect)})


def _greedy(bounds: Rect, solid: Sequence[Rect], lines: Sequence[Rect],
            items: Sequence[Item], order: list[int]) -> tuple[list[int], list[int]]:
    taken, drawn = _Grid(solid), _Grid(lines)
    chosen = [0] * len(items)
    clashed = []
    for index in order:
        item = items[index]
        costs = []
        for rect in item.candidates:
            inside = (bounds.left <= rect.left and rect.right <= bounds.right
                      and bounds.top <= rect.top and rect.bottom <= bounds.bottom)
            cost = 100 * (taken.hits(rect) + (0 if inside else 1))
            if item.mind_lines:
                cost += drawn.hits(rect)
            costs.append(cost)
        pick = costs.index(min(costs))
        if costs[pick] >= 100:
            clashed.append(index)
        chosen[index] = pick
        taken.add(item.candidates[pick])
    return chosen, clashed
