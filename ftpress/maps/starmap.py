"""The strategic star map as SVG: hexes, worlds, routes, counters, moves, markers.

The map is drawn from a :class:`StarMap` view — plain public facts, already
filtered by whoever builds the view — so nothing here knows a rule or could
leak a hidden one. Symbols follow the Simple Campaign Thrust map key: a supply
depot is a circle to the left of the world, a base a square to its right, a
shipyard a triangle above right; the world's value stands above it and its
name below. Each power has a colour from the Okabe–Ito palette (told apart
with the common kinds of colour blindness) *and* its initial, so colour is
never the only cue.

Output is deterministic: coordinates are rounded to one decimal, and elements
are written in a fixed order.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import svgwrite

from ftpress.maps.canvas import (
    COUNTER_H,
    COUNTER_W,
    FRAGMENTS_KEPT,
    GROUND,
    KEY_ROW,
    LIGHT,
    SHAPES,
    WHOLE_PARTS_KEPT,
    Box,
    arrow,
    counter,
    ink_on,
    key,
    key_rows,
    moves_group,
    new_drawing,
)
from ftpress.maps.placing import Item, Rect, TextSpot, arrange, segment_rects, text_item
from ftpress.maps.svgtext import splice, svg_text
from ftpress.state.hexes import Hex, hexagon

#: Okabe & Ito's colour-blind-safe palette, in the order powers are given colours.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442",
           "#000000")
NEUTRAL = "#8a8f98"
#: Features a ruleset may give a hex map: dust-cloud hexes and wormhole rings.
DUST = "#3b3046"
WORMHOLE = "#b58cf0"
SIZE = 30.0  # hex radius in SVG units
_SQRT3 = math.sqrt(3)


@dataclass(frozen=True, slots=True)
class Power:
    id: str
    name: str
    colour: str
    initial: str


@dataclass(frozen=True, slots=True)
class WorldMark:
    hex: Hex
    name: str
    #: Income as the public knows it; ``None`` while unscouted.
    income: int | None
    owner: str | None = None
    capital: bool = False
    depot: bool = False
    base: bool = False
    shipyard: bool = False
    interdicted: bool = False


@dataclass(frozen=True, slots=True)
class Route:
    hexes: tuple[Hex, ...]


@dataclass(frozen=True, slots=True)
class CounterMark:
    """A task-group counter as the public sees it: owner and label, never contents."""

    hex: Hex
    owner: str
    label: str
    #: What the counter says instead of its owner's initials: the group's id, on the
    #: map of a player's own view, for their own groups.
    mark: str = ""


@dataclass(frozen=True, slots=True)
class Move:
    start: Hex
    end: Hex
    owner: str


@dataclass(frozen=True, slots=True)
class Marker:
    hex: Hex
    kind: Literal["battle", "siege"]
    note: str


@dataclass(frozen=True, slots=True)
class StarMap:
    radius: int
    title: str
    description: str
    powers: tuple[Power, ...]
    worlds: tuple[WorldMark, ...]
    routes: tuple[Route, ...] = ()
    counters: tuple[CounterMark, ...] = ()
    moves: tuple[Move, ...] = ()
    markers: tuple[Marker, ...] = ()
    #: Dust-cloud hexes (every other hex is deep space) and wormholes by their ends.
    dust: tuple[Hex, ...] = ()
    wormholes: tuple[tuple[Hex, Hex], ...] = ()


def colour_powers(ids_and_names: list[tuple[str, str]]) -> tuple[Power, ...]:
    """Give each power a palette colour, in the order given, and its id as its mark."""
    return tuple(Power(pid, name, PALETTE[index % len(PALETTE)], pid[:3].upper())
                 for index, (pid, name) in enumerate(ids_and_names))


def _pt(x: float, y: float) -> tuple[float, float]:
    """A point rounded to one decimal, so output bytes never wobble with float noise."""
    return (round(x, 1), round(y, 1))


def _ink(owner: Power | None) -> str:
    """Text colour that reads on the owner's colour, or on a neutral world's grey."""
    return ink_on(owner.colour if owner is not None else NEUTRAL)


def centre(h: Hex) -> tuple[float, float]:
    """Pixel centre of a flat-topped hex."""
    return (round(SIZE * 1.5 * h.q, 1), round(SIZE * _SQRT3 * (h.r + h.q / 2), 1))


def _corners(h: Hex) -> list[tuple[float, float]]:
    x, y = centre(h)
    return [(round(x + SIZE * math.cos(math.radians(60 * i)), 1),
             round(y + SIZE * math.sin(math.radians(60 * i)), 1)) for i in range(6)]


def render_svg(m: StarMap, element_id: str = "starmap") -> str:
    """The whole map as an SVG document string (inline in a page, or as a file).

    Drawn bottom to top: the grid, routes and wormholes, the worlds, then this
    turn's markers, moves and counters, and the key. Each world's value and name,
    and each counter stack, is placed clear of the others (:func:`_layout`). The
    parts that recur from turn to turn (grid, routes, worlds, counters, key) are
    drawn once per process and their text reused (:mod:`ftpress.maps.canvas`).
    """
    half_w = SIZE * (1.5 * m.radius + 1.5)
    half_h = SIZE * _SQRT3 * (m.radius + 0.75)
    keys = _keys(m)
    rows = key_rows(len(m.powers) + len(keys))
    box = (-half_w, -half_h - SIZE, 2 * half_w, 2 * half_h + SIZE * 2 + KEY_ROW * rows)
    d = new_drawing(box, element_id, "starmap", m.title, m.description)
    owners = {p.id: p for p in m.powers}
    worlds = sorted(m.worlds, key=lambda w: (w.hex.q, w.hex.r))
    spots, stacks = _layout(m, worlds, Rect(box[0], box[1], box[0] + box[2],
                                            box[1] + box[3] - KEY_ROW * rows - 12))
    return splice(d, [
        _ground(box),
        _grid(m.radius, m.dust),
        _routes(m.routes),
        _wormholes(m.wormholes),
        *(_world(world, owners.get(world.owner or ""), *spots[world.hex]) for world in worlds),
        *_markers(m),
        _moves(m, owners),
        _counters(m, owners, stacks),
        _legend(m.powers, keys, box),
    ])


#: A world's value and name sizes, and how far its disc reaches from its centre.
_VALUE_SIZE = 11.0
_NAME_SIZE = 10.0
_DISC = SIZE * 0.42
#: How far each counter of a stack stands right of and below the one before, and
#: how many are drawn (the rest are counted beside them).
STACK_STEP = 3.0
_SHOWN = 4
_MORE_W = 18.0


def _value_text(w: WorldMark) -> str:
    return str(w.income) if w.income is not None else "?"


@lru_cache(maxsize=FRAGMENTS_KEPT)
def _marks(w: WorldMark) -> tuple[Rect, ...]:
    """The boxes a world's disc and its depot, base and shipyard fill."""
    x, y = centre(w.hex)
    reach = SIZE * 0.62 if w.interdicted else _DISC + 1.5
    rects = [Rect(x - reach, y - reach, x + reach, y + reach)]
    if w.depot:
        rects.append(Rect(x - SIZE * 0.62 - 5, y - 5, x - SIZE * 0.62 + 5, y + 5))
    if w.base:
        rects.append(Rect(x + SIZE * 0.5, y - 5, x + SIZE * 0.5 + 10, y + 5))
    if w.shipyard:
        rects.append(Rect(x + SIZE * 0.45 - 6, y - SIZE * 0.42 - 6, x + SIZE * 0.45 + 6,
                          y - SIZE * 0.42 + 5))
    return tuple(rects)


def stack_size(count: int) -> tuple[float, float]:
    shown = min(count, _SHOWN)
    more = _MORE_W if count > _SHOWN else 0.0
    return (COUNTER_W + STACK_STEP * (shown - 1) + more, COUNTER_H + STACK_STEP * (shown - 1))


def stack_spots(x: float, y: float, w: float, h: float) -> list[tuple[float, float]]:
    """Top-left corners for a stack beside a world at (``x``, ``y``): right, left,
    above and below its disc first, then the same a little further out."""
    spots = []
    for far in (0.0, 8.0, 16.0, 26.0, 38.0):
        gap = _DISC + 4 + far
        spots += [(x + gap, y - h / 2), (x - gap - w, y - h / 2),
                  (x + gap - 4, y - gap - h + 4), (x - gap - w + 4, y - gap - h + 4),
                  (x + gap - 4, y + gap - 4), (x - gap - w + 4, y + gap - 4),
                  (x - w / 2, y - gap - h - 6), (x - w / 2, y + gap + 8)]
    return spots


#: Each world's value and name spots, and each counter stack's top left, by hex.
_Placed = tuple[dict[Hex, tuple[TextSpot, TextSpot]], dict[Hex, tuple[float, float]]]


def _layout(m: StarMap, worlds: list[WorldMark], bounds: Rect) -> _Placed:
    """Each world's value and name spots, and each counter stack's top left, placed
    so that none covers a disc, a mark or another, and labels keep off routes and
    this turn's moves."""
    lines = [rect for route in m.routes for a, b in itertools.pairwise(route.hexes)
             for rect in _segment(a, b)]
    lines += [rect for move in m.moves for rect in _segment(move.start, move.end)]
    labels: list[tuple[tuple[TextSpot, ...], tuple[TextSpot, ...]]] = []
    items = []
    for w in worlds:
        values, names, value_item, name_item = _labels(w.hex, _value_text(w), w.name)
        labels.append((values, names))
        items += [value_item, name_item]
    counts: dict[Hex, int] = defaultdict(int)
    for c in m.counters:
        counts[c.hex] += 1
    stacked = sorted(counts, key=lambda k: (k.q, k.r))
    corners = []
    for h in stacked:
        spots_at, item = _stack(h, counts[h])
        corners.append(spots_at)
        items.append(item)
    chosen = arrange(bounds, [rect for w in worlds for rect in _marks(w)], lines, items)
    spots = {w.hex: (values[chosen[2 * i]], names[chosen[2 * i + 1]])
             for i, (w, (values, names)) in enumerate(zip(worlds, labels, strict=True))}
    first = 2 * len(worlds)
    stacks = {h: (round(corners[i][chosen[first + i]][0], 1),
                  round(corners[i][chosen[first + i]][1], 1)) for i, h in enumerate(stacked)}
    return spots, stacks


@lru_cache(maxsize=FRAGMENTS_KEPT)
def _stack(h: Hex, count: int) -> tuple[tuple[tuple[float, float], ...], Item]:
    """Where a stack of ``count`` counters in ``h`` may stand (its top left corners), and
    the item placing it: worked out once per hex and count."""
    wide, high = stack_size(count)
    corners = tuple(stack_spots(*centre(h), wide, high))
    return corners, Item(tuple(Rect(cx, cy, cx + wide, cy + high) for cx, cy in corners),
                         mind_lines=False)


@lru_cache(maxsize=FRAGMENTS_KEPT)
def _labels(h: Hex, value: str, name: str
            ) -> tuple[tuple[TextSpot, ...], tuple[TextSpot, ...], Item, Item]:
    """A world's value and name spots, and the items placing them (the same from map to
    map while the world's value and name stay the same: worked out once)."""
    x, y = centre(h)
    values, names = _value_spots(x, y), _name_spots(x, y)
    return (tuple(values), tuple(names), text_item(values, value, _VALUE_SIZE),
            text_item(names, name, _NAME_SIZE))


@lru_cache(maxsize=FRAGMENTS_KEPT)
def _segment(a: Hex, b: Hex) -> tuple[Rect, ...]:
    """The boxes labels keep off along a route's or a move's line from ``a`` to ``b``."""
    return tuple(segment_rects(centre(a), centre(b)))


def _value_spots(x: float, y: float) -> list[TextSpot]:
    """Where a world's value may stand: above its disc first, then beside it."""
    side = _DISC + 3
    return [TextSpot(x, round(y - SIZE * 0.55, 1)), TextSpot(round(x - side, 1), y - 10, "end"),
            TextSpot(round(x + side, 1), y - 10, "start"),
            TextSpot(round(x - side - 4, 1), y + 4, "end"),
            TextSpot(round(x + side + 4, 1), y + 4, "start")]


def _name_spots(x: float, y: float) -> list[TextSpot]:
    """Where a world's name may stand: below its disc first, then beside or above it."""
    side = _DISC + 3
    below = round(y + SIZE * 0.8, 1)
    return [TextSpot(x, below), TextSpot(round(x - 8, 1), below, "start"),
            TextSpot(round(x + 8, 1), below, "end"), TextSpot(x, round(below + 9, 1)),
            TextSpot(round(x + side + 4, 1), y + 4, "start"),
            TextSpot(round(x - side - 4, 1), y + 4, "end"),
            TextSpot(x, round(y - SIZE * 0.55 - 12, 1)),
            TextSpot(round(x - 16, 1), below, "start"), TextSpot(round(x + 16, 1), below, "end"),
            TextSpot(round(x + side + 4, 1), round(y + 14, 1), "start"),
            TextSpot(round(x - side - 4, 1), round(y + 14, 1), "end"),
            TextSpot(round(x + side + 4, 1), round(y - 6, 1), "start"),
            TextSpot(round(x - side - 4, 1), round(y - 6, 1), "end"),
            TextSpot(x, round(below + 18, 1))]


@lru_cache(maxsize=WHOLE_PARTS_KEPT)
def _ground(box: Box) -> str:
    """The map's own dark ground under everything, the key's panel drawn over it."""
    return svg_text(SHAPES.rect((box[0], box[1]), (box[2], box[3]), fill=GROUND,
                                class_="ground"))


@lru_cache(maxsize=WHOLE_PARTS_KEPT)
def _grid(radius: int, dust: tuple[Hex, ...]) -> str:
    grid = SHAPES.g(class_="hexes", fill=GROUND, stroke="#2c3a5c", stroke_width=1)
    clouds = set(dust)
    for h in hexagon(radius):
        if h in clouds:
            poly = grid.add(SHAPES.polygon(_corners(h), class_="hex dust", fill=DUST))
        else:
            poly = grid.add(SHAPES.polygon(_corners(h), class_="hex"))
        poly.attribs["data-hex"] = f"{h.q},{h.r}"
    return svg_text(grid)


@lru_cache(maxsize=WHOLE_PARTS_KEPT)
def _wormholes(wormholes: tuple[tuple[Hex, Hex], ...]) -> str:
    if not wormholes:
        return ""
    group = SHAPES.g(class_="wormholes", fill="none", stroke=WORMHOLE, stroke_width=2)
    group.set_desc(title="Wormholes")
    for a, b in wormholes:
        group.add(SHAPES.line(centre(a), centre(b), stroke_dasharray="2 6",
                              stroke_linecap="round"))
        for end in (a, b):
            group.add(SHAPES.circle(centre(end), r=round(SIZE * 0.55, 1)))
    return svg_text(group)


@lru_cache(maxsize=WHOLE_PARTS_KEPT)
def _routes(routes: tuple[Route, ...]) -> str:
    if not routes:
        return ""
    group = SHAPES.g(class_="routes", fill="none", stroke="#c9a227", stroke_width=3,
                     stroke_dasharray="8 5", stroke_linecap="round")
    group.set_desc(title="Charted routes")
    for route in routes:
        group.add(SHAPES.polyline([centre(h) for h in route.hexes]))
    return svg_text(group)


@lru_cache(maxsize=FRAGMENTS_KEPT)
def _world(w: WorldMark, owner: Power | None, value_at: TextSpot, name_at: TextSpot) -> str:
    d = SHAPES
    x, y = centre(w.hex)
    facts = [owner.name if owner else "neutral",
             f"income {w.income}" if w.income is not None else "income unknown"]
    facts += [k for k, on in (("capital", w.capital), ("supply depot", w.depot),
                              ("base", w.base), ("shipyard", w.shipyard),
                              ("interdicted", w.interdicted)) if on]
    g = d.g(class_="world", tabindex="0")
    g.attribs["data-world"] = w.name
    g.set_desc(title=f"{w.name}: {', '.join(facts)}")
    colour = owner.colour if owner else NEUTRAL
    if w.interdicted:
        g.add(d.circle((x, y), r=SIZE * 0.62, fill="none", stroke="#ff5a4f", stroke_width=3,
                       stroke_dasharray="4 3", class_="interdicted"))
    g.add(d.circle((x, y), r=SIZE * 0.42, fill=colour, stroke="#ffffff",
                   stroke_width=3 if w.capital else 1.2))
    g.add(d.text(owner.initial if owner else "·", insert=_pt(x, y + 3.5), text_anchor="middle",
                 class_="initial", font_size=10, font_weight="bold", fill=_ink(owner)))
    g.add(d.text(_value_text(w), insert=(value_at.x, value_at.y), text_anchor=value_at.anchor,
                 class_="value", font_size=_VALUE_SIZE, fill=LIGHT))
    g.add(d.text(w.name, insert=(name_at.x, name_at.y), text_anchor=name_at.anchor,
                 class_="name", font_size=_NAME_SIZE, fill=LIGHT))
    if w.depot:  # circle to the left
        g.add(d.circle((round(x - SIZE * 0.62, 1), y), r=4.5, fill=LIGHT, class_="depot"))
    if w.base:  # square to the right
        g.add(d.rect((round(x + SIZE * 0.5, 1), round(y - 4.5, 1)), (9, 9), fill=LIGHT,
                     class_="base"))
    if w.shipyard:  # triangle above right
        tx, ty = round(x + SIZE * 0.45, 1), round(y - SIZE * 0.42, 1)
        g.add(d.polygon([(tx, round(ty - 5, 1)), (round(tx + 5, 1), round(ty + 4, 1)),
                         (round(tx - 5, 1), round(ty + 4, 1))], fill=LIGHT,
                        class_="shipyard"))
    return svg_text(g)


def _markers(m: StarMap) -> list[str]:
    parts = []
    for marker in sorted(m.markers, key=lambda k: (k.hex.q, k.hex.r, k.kind)):
        x, y = centre(marker.hex)
        g = SHAPES.g(class_=f"marker {marker.kind}")
        g.set_desc(title=marker.note)
        if marker.kind == "battle":  # a starburst
            g.add(SHAPES.polygon(_burst(x, y, SIZE * 0.95, SIZE * 0.7), fill="none",
                                 stroke="#ff5a4f", stroke_width=2.5))
        else:  # a siege: a ring of ticks
            g.add(SHAPES.circle((x, y), r=SIZE * 0.8, fill="none", stroke="#ffb000",
                                stroke_width=3, stroke_dasharray="2 5"))
        parts.append(svg_text(g))
    return parts


def _burst(x: float, y: float, outer: float, inner: float) -> list[tuple[float, float]]:
    """A sixteen-pointed star's corners about (``x``, ``y``)."""
    return [(round(x + r * math.cos(math.radians(22.5 * i)), 1),
             round(y + r * math.sin(math.radians(22.5 * i)), 1))
            for i in range(16) for r in [outer if i % 2 == 0 else inner]]


def _moves(m: StarMap, owners: dict[str, Power]) -> str:
    if not m.moves:
        return ""
    group = moves_group()
    for move in sorted(m.moves, key=lambda v: (v.start.q, v.start.r, v.end.q, v.end.r, v.owner)):
        (x1, y1), (x2, y2) = centre(move.start), centre(move.end)
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        # From the edge of one disc to the edge of the other.
        trim = min(_DISC + 2, length / 3)
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        owner = owners.get(move.owner)
        arrow(group, (x1 + ux * trim, y1 + uy * trim), (x2 - ux * trim, y2 - uy * trim),
              owner.colour if owner else NEUTRAL)
    return svg_text(group)


def _counters(m: StarMap, owners: dict[str, Power], at: dict[Hex, tuple[float, float]]) -> str:
    stacks: dict[Hex, list[CounterMark]] = defaultdict(list)
    for c in m.counters:
        stacks[c.hex].append(c)
    parts = []
    for h in sorted(stacks, key=lambda k: (k.q, k.r)):
        stack = sorted(stacks[h], key=lambda c: (c.owner, c.label))
        parts += draw_stack(at[h], [(f"Task group {c.label} ({_name(owners, c.owner)})",
                                     owners.get(c.owner)) for c in stack], "task group",
                            [c.mark for c in stack])
    return splice(SHAPES.g(class_="counters"), parts)


def _name(owners: dict[str, Power], owner: str) -> str:
    power = owners.get(owner)
    return power.name if power else owner


def draw_stack(at: tuple[float, float], counters: list[tuple[str, Power | None]],
               noun: str, marks: list[str] | None = None) -> list[str]:
    """A stack of counters (each its tooltip and owner) with its top left at ``at``:
    four drawn, each a little right of and below the one before, and the rest
    counted beside them ("+2", its tooltip "2 more task groups"); ``marks``: what
    each says instead of its owner's initials, where not empty."""
    left, top = at
    parts = []
    for index, (title, owner) in enumerate(counters[:_SHOWN]):
        step = index * STACK_STEP
        mark = marks[index] if marks else ""
        parts.append(_counter(round(left + step, 1), round(top + step, 1), title,
                              owner.colour if owner else NEUTRAL,
                              mark or (owner.initial if owner else "?"), _ink(owner)))
    if len(counters) > _SHOWN:
        shown = STACK_STEP * (_SHOWN - 1)
        more = len(counters) - _SHOWN
        extra = SHAPES.text(f"+{more}", insert=_pt(left + COUNTER_W + shown + 2, top + shown + 12),
                            font_size=10, fill=LIGHT, class_="more")
        extra.set_desc(title=f"{more} more {noun}{'' if more == 1 else 's'}")
        parts.append(svg_text(extra))
    return parts


@lru_cache(maxsize=FRAGMENTS_KEPT)
def _counter(left: float, top: float, title: str, fill: str, initial: str, ink: str) -> str:
    """One counter of a stack, its top left at (``left``, ``top``), already rounded."""
    return counter(left, top, title, fill, initial, ink)


#: The symbol key under the map, besides one entry per power.
_KEY = ("neutral world", "capital", "supply depot", "base", "shipyard", "interdicted",
        "charted route", "task group (a counter)", "income (above a world)",
        "income not yet scouted")
#: Entries shown only when the map has one.
MOVE, BATTLE, SIEGE = "move this turn", "battle this turn", "siege this turn"


def _keys(m: StarMap) -> tuple[str, ...]:
    """The key's entries: the usual ones, and dust clouds, wormholes, moves, battles
    and sieges when the map has any."""
    kinds = {marker.kind for marker in m.markers}
    return _KEY + tuple(entry for entry, shown in (
        ("dust cloud", m.dust), ("wormhole", m.wormholes), (MOVE, m.moves),
        (BATTLE, "battle" in kinds), (SIEGE, "siege" in kinds)) if shown)


@lru_cache(maxsize=WHOLE_PARTS_KEPT)
def _legend(powers: tuple[Power, ...], keys: tuple[str, ...], box: Box) -> str:
    return key(box, [(p.name, p.colour, p.initial) for p in powers], keys, margin=12,
               symbol=lambda d, g, kind, x, y: key_symbol(d, g, kind, x + 8, y))


def key_symbol(d: svgwrite.Drawing, g: svgwrite.container.Group, kind: str, x: float,
                y: float) -> None:
    if kind == "neutral world":
        g.add(d.circle((x, y), r=8, fill=NEUTRAL))
    elif kind == "capital":
        g.add(d.circle((x, y), r=7, fill=NEUTRAL, stroke="#1d2129", stroke_width=3))
    elif kind == "supply depot":
        g.add(d.circle((x, y), r=5, fill="none", stroke="#1d2129", stroke_width=2))
    elif kind == "base":
        g.add(d.rect((x - 5, y - 5), (10, 10), fill="#1d2129"))
    elif kind == "shipyard":
        g.add(d.polygon([(x, y - 6), (x + 6, y + 5), (x - 6, y + 5)], fill="#1d2129"))
    elif kind == "dust cloud":
        g.add(d.polygon([(x - 8, y), (x - 4, y - 7), (x + 4, y - 7), (x + 8, y), (x + 4, y + 7),
                         (x - 4, y + 7)], fill=DUST))
    elif kind == "wormhole":
        g.add(d.circle((x, y), r=7, fill="none", stroke=WORMHOLE, stroke_width=2))
    elif kind.startswith("task group"):
        g.add(d.rect((x - 13, y - 8), (COUNTER_W, COUNTER_H), fill=NEUTRAL))
    elif kind.startswith("income"):
        g.add(d.text("?" if "scouted" in kind else "90", insert=(x, y + 4), text_anchor="middle",
                     font_weight="bold"))
    elif kind == MOVE:
        g.add(d.line((x - 11, y), (x + 2, y), stroke="#1d2129", stroke_width=4))
        g.add(d.polygon([(x + 11, y), (x + 1, y - 7), (x + 1, y + 7)], fill="#1d2129"))
    elif kind == BATTLE:
        g.add(d.polygon(_burst(x, y, 10.0, 7.0), fill="none", stroke="#d62d20", stroke_width=2))
    elif kind == SIEGE:
        g.add(d.circle((x, y), r=8, fill="none", stroke="#b07800", stroke_width=3,
                       stroke_dasharray="2 4"))
    elif kind == "interdicted":
        g.add(d.circle((x, y), r=7, fill="none", stroke="#d62d20", stroke_width=2.5,
                       stroke_dasharray="4 3"))
    else:
        g.add(d.line((x - 9, y), (x + 9, y), stroke="#a0801a", stroke_width=3,
                     stroke_dasharray="6 4"))
