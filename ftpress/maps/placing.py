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
from collections import OrderedDict, defaultdict
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
    anchor = spot.anchor
    left = spot.x - width / 2 if anchor == "middle" else spot.x if anchor == "start" \
        else spot.x - width
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
    fixed = _Fixed(bounds, solid, lines, items)
    order = list(range(len(items)))
    best: tuple[int, list[int]] | None = None
    for _ in range(_ROUNDS):
        chosen, clashed = _greedy(fixed, items, order)
        if best is None or len(clashed) < best[0]:
            best = (len(clashed), chosen)
        if not clashed:
            break
        first = set(clashed)
        again = clashed + [i for i in order if i not in first]
        if again == order:
            break  # the same order places the same way: every round left would be this one
        order = again
    assert best is not None
    return best[1]


#: A box as plain numbers (left, top, right, bottom), and the grid cells it spans
#: (first column, first row, last column, last row): what the placing loop reads.
_Box = tuple[float, float, float, float]
_Cells = tuple[int, int, int, int]
#: The side of a grid cell, in map units: about a label's length.
_CELL = 64.0


def _box(rect: Rect) -> _Box:
    return (rect.left, rect.top, rect.right, rect.bottom)


def _cells(box: _Box) -> _Cells:
    return (math.floor(box[0] / _CELL), math.floor(box[1] / _CELL),
            math.floor(box[2] / _CELL), math.floor(box[3] / _CELL))


class _Grid:
    """Boxes filed by the cells of a coarse grid they touch, so that a candidate is
    checked against its neighbours alone, not every box on a large map."""

    def __init__(self, boxes: Sequence[_Box] = ()) -> None:
        self._cells: dict[tuple[int, int], list[tuple[_Box, int, int]]] = defaultdict(list)
        for box in boxes:
            self.add(box, _cells(box))

    def add(self, box: _Box, cells: _Cells) -> None:
        i0, j0, i1, j1 = cells
        entry = (box, i0, j0)
        for i in range(i0, i1 + 1):
            for j in range(j0, j1 + 1):
                self._cells[i, j].append(entry)

    def hits(self, box: _Box, cells: _Cells) -> int:
        """How many boxes ``box`` covers, each once though it lie in several cells (a
        pair is counted in the one cell where their overlap's top left corner lies)."""
        left, top, right, bottom = box
        qi, qj, i1, j1 = cells
        found = 0
        get = self._cells.get
        for i in range(qi, i1 + 1):
            for j in range(qj, j1 + 1):
                for (x0, y0, x1, y1), bi, bj in get((i, j), ()):
                    if x0 < right and left < x1 and y0 < bottom and top < y1 and \
                            (bi if bi > qi else qi) == i and (bj if bj > qj else qj) == j:
                        found += 1
        return found


#: How many sets of solid boxes (with the bounds) keep what each box costs for them:
#: a campaign's maps share their worlds' marks from turn to turn.
_SOLIDS_KEPT = 4
_SOLIDS: OrderedDict[tuple[_Box, tuple[Rect, ...]], tuple[_Grid, dict[_Box, int]]] = \
    OrderedDict()


def _solid(bounds: _Box, solid: Sequence[Rect]) -> tuple[_Grid, dict[_Box, int]]:
    """The grid of ``solid`` and what each box looked at so far costs for it and for
    ``bounds``, shared by every map with the same solid boxes and bounds."""
    key = (bounds, tuple(solid))
    kept = _SOLIDS.get(key)
    if kept is None:
        kept = _SOLIDS[key] = (_Grid([_box(r) for r in solid]), {})
        while len(_SOLIDS) > _SOLIDS_KEPT:
            _SOLIDS.popitem(last=False)
    else:
        _SOLIDS.move_to_end(key)
    return kept


class _Fixed:
    """What does not change from round to round: each candidate's box and what it costs
    for the solid boxes, the bounds and the lines (each worked out the first time a
    round looks at that candidate), and which items could cover which."""

    def __init__(self, bounds: Rect, solid: Sequence[Rect], lines: Sequence[Rect],
                 items: Sequence[Item]) -> None:
        self.bounds = _box(bounds)
        self.solid, self.solid_costs = _solid(self.bounds, solid)
        self.lines = _Grid([_box(r) for r in lines])
        self.items = items
        #: Per item, per candidate: (box, fixed cost) once looked at.
        self.known: list[list[tuple[_Box, int] | None]] = [
            [None] * len(item.candidates) for item in items]
        #: Per item, the items that could cover it, and its choices (the candidate,
        #: whether it still covers something, its box) by where those stood when it chose.
        self.near = _neighbours(items)
        self.decided: list[dict[tuple[int, ...], tuple[int, bool, _Box]]] = [{} for _ in items]

    def candidate(self, item: int, pick: int) -> tuple[_Box, int]:
        """Candidate ``pick`` of item ``item``: its box and its fixed cost."""
        box = _box(self.items[item].candidates[pick])
        cells = _cells(box)
        cost = self.solid_costs.get(box)
        if cost is None:
            left, top, right, bottom = self.bounds
            inside = left <= box[0] and box[2] <= right and top <= box[1] and box[3] <= bottom
            cost = self.solid_costs[box] = 100 * (self.solid.hits(box, cells)
                                                  + (0 if inside else 1))
        if self.items[item].mind_lines:
            cost += self.lines.hits(box, cells)
        known = self.known[item][pick] = (box, cost)
        return known


def _neighbours(items: Sequence[Item]) -> list[list[int]]:
    """Per item, the other items one of whose candidates could cover one of its own: those
    whose candidates' outline (the box round all of them) overlaps its own outline, found
    by sweeping the outlines from left to right."""
    outlines = sorted((min([r.left for r in item.candidates]), index,
                       max([r.right for r in item.candidates]),
                       min([r.top for r in item.candidates]),
                       max([r.bottom for r in item.candidates]))
                      for index, item in enumerate(items))
    near: list[list[int]] = [[] for _ in items]
    for n, (_, index, right, top, bottom) in enumerate(outlines):
        mine = near[index]
        for left2, other, _, top2, bottom2 in outlines[n + 1:]:
            if left2 >= right:
                break  # every outline from here starts right of this one's end
            if top2 < bottom and top < bottom2:
                mine.append(other)
                near[other].append(index)
    return near


def _greedy(fixed: _Fixed, items: Sequence[Item], order: list[int]
            ) -> tuple[list[int], list[int]]:
    """One round: each item in ``order`` takes its cheapest candidate (the first among
    equals), each box placed costing 100; those whose cheapest still covers something.

    An item's choice depends only on which candidate each of its neighbours (the items
    that could cover it) has taken so far, so it is remembered by that and taken again,
    unpriced, in a later round where its neighbours stand as they stood."""
    known, near, seen = fixed.known, fixed.near, fixed.decided
    at = [-1] * len(items)  # each item's candidate this round, -1 while unplaced
    box_of: list[_Box | None] = [None] * len(items)
    chosen = [0] * len(items)
    clashed = []
    for index in order:
        neighbours = near[index]
        key = tuple([at[j] for j in neighbours])
        decided = seen[index].get(key)
        if decided is None:
            placed = [box for j in neighbours if (box := box_of[j]) is not None]
            best, pick, pick_box = -1, 0, None
            for n, cached in enumerate(known[index]):
                box, cost = cached if cached is not None else fixed.candidate(index, n)
                if best >= 0 and cost >= best:
                    continue  # what is placed can only add to it
                left, top, right, bottom = box
                # Only as many placed boxes as could still make it the cheapest are counted.
                enough = (best - cost + 99) // 100 if best >= 0 else -1
                covered = 0
                for x0, y0, x1, y1 in placed:
                    if x0 < right and left < x1 and y0 < bottom and top < y1:
                        covered += 1
                        if covered == enough:
                            break
                cost += 100 * covered
                if best < 0 or cost < best:
                    best, pick, pick_box = cost, n, box
                    if best == 0:
                        break  # nothing is cheaper
            assert pick_box is not None
            decided = seen[index][key] = (pick, best >= 100, pick_box)
        pick, clash, box_of[index] = decided
        if clash:
            clashed.append(index)
        chosen[index] = at[index] = pick
    return chosen, clashed
