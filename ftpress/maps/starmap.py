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

import math
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import svgwrite

from ftpress.hexes import Hex, hexagon
from ftpress.maps.canvas import (
    FRAGMENTS_KEPT,
    KEY_ROW,
    LIGHT,
    SHAPES,
    WHOLE_PARTS_KEPT,
    Box,
    counter,
    key,
    key_rows,
    moves_group,
    new_drawing,
)
from ftpress.maps.svgtext import splice, svg_text

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
    """Text colour that reads on the owner's colour (dark on the palette's yellow)."""
    return "#000000" if owner is not None and owner.colour == "#F0E442" else "#ffffff"


def centre(h: Hex) -> tuple[float, float]:
    """Pixel centre of a flat-topped hex."""
    return (round(SIZE * 1.5 * h.q, 1), round(SIZE * _SQRT3 * (h.r + h.q / 2), 1))


def _corners(h: Hex) -> list[tuple[float, float]]:
    x, y = centre(h)
    return [(round(x + SIZE * math.cos(math.radians(60 * i)), 1),
             round(y + SIZE * math.sin(math.radians(60 * i)), 1)) for i in range(6)]


def _label(hex_: Hex) -> str:
    return f"hex {hex_.q},{hex_.r}"


def render_svg(m: StarMap, element_id: str = "starmap") -> str:
    """The whole map as an SVG document string (inline in a page, or as a file).

    Drawn bottom to top: the grid, routes and wormholes, the worlds, then this
    turn's markers, moves and counters, and the key. The parts that recur from
    turn to turn (grid, routes, worlds, counters, key) are drawn once per process
    and their text reused (:mod:`ftpress.maps.canvas`).
    """
    half_w = SIZE * (1.5 * m.radius + 1.5)
    half_h = SIZE * _SQRT3 * (m.radius + 0.75)
    keys = _keys(m)
    rows = key_rows(len(m.powers) + len(keys))
    box = (-half_w, -half_h - SIZE, 2 * half_w, 2 * half_h + SIZE * 2 + KEY_ROW * rows)
    d, arrow = new_drawing(box, element_id, "starmap", m.title, m.description)
    owners = {p.id: p for p in m.powers}
    return splice(d, [
        _grid(m.radius, m.dust),
        _routes(m.routes),
        _wormholes(m.wormholes),
        *(_world(world, owners.get(world.owner or ""))
          for world in sorted(m.worlds, key=lambda w: (w.hex.q, w.hex.r))),
        *_markers(m),
        _moves(m, owners, arrow),
        _counters(m, owners),
        _legend(m.powers, keys, box),
    ])


@lru_cache(maxsize=WHOLE_PARTS_KEPT)
def _grid(radius: int, dust: tuple[Hex, ...]) -> str:
    grid = SHAPES.g(class_="hexes", fill="#10182b", stroke="#2c3a5c", stroke_width=1)
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
def _world(w: WorldMark, owner: Power | None) -> str:
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
    g.add(d.text(owner.initial if owner else "·", insert=_pt(x, y + 5), text_anchor="middle",
                 class_="initial", font_size=9, font_weight="bold", fill=_ink(owner)))
    value = str(w.income) if w.income is not None else "?"
    g.add(d.text(value, insert=(x, round(y - SIZE * 0.55, 1)), text_anchor="middle",
                 class_="value", font_size=11, fill=LIGHT))
    g.add(d.text(w.name, insert=(x, round(y + SIZE * 0.8, 1)), text_anchor="middle",
                 class_="name", font_size=10, fill=LIGHT))
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
            points = []
            for i in range(16):
                radius = SIZE * (0.95 if i % 2 == 0 else 0.7)
                angle = math.radians(22.5 * i)
                points.append((round(x + radius * math.cos(angle), 1),
                               round(y + radius * math.sin(angle), 1)))
            g.add(SHAPES.polygon(points, fill="none", stroke="#ff5a4f", stroke_width=2.5))
        else:  # a siege: a ring of ticks
            g.add(SHAPES.circle((x, y), r=SIZE * 0.8, fill="none", stroke="#ffb000",
                                stroke_width=3, stroke_dasharray="2 5"))
        parts.append(svg_text(g))
    return parts


def _moves(m: StarMap, owners: dict[str, Power], arrow: svgwrite.container.Marker) -> str:
    if not m.moves:
        return ""
    group = moves_group()
    for move in sorted(m.moves, key=lambda v: (v.start.q, v.start.r, v.end.q, v.end.r, v.owner)):
        (x1, y1), (x2, y2) = centre(move.start), centre(move.end)
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        shorten = min(SIZE * 0.5, length / 3)
        end = _pt(x2 - (x2 - x1) * shorten / length, y2 - (y2 - y1) * shorten / length)
        owner = owners.get(move.owner)
        line = group.add(SHAPES.line((x1, y1), end, stroke=owner.colour if owner else NEUTRAL))
        line.set_markers((None, None, arrow))
    return svg_text(group)


def _counters(m: StarMap, owners: dict[str, Power]) -> str:
    stacks: dict[Hex, list[CounterMark]] = defaultdict(list)
    for c in m.counters:
        stacks[c.hex].append(c)
    parts = []
    for h in sorted(stacks, key=lambda k: (k.q, k.r)):
        stack = sorted(stacks[h], key=lambda c: (c.owner, c.label))
        for index, c in enumerate(stack[:4]):  # four show; the rest are counted
            owner = owners.get(c.owner)
            parts.append(_counter(h, index, f"Task group {c.label} "
                                  f"({owner.name if owner else c.owner})",
                                  owner.colour if owner else NEUTRAL,
                                  owner.initial if owner else "?", _ink(owner)))
        if len(stack) > 4:
            x, y = centre(h)
            extra = SHAPES.text(f"+{len(stack) - 4}", insert=_pt(x - SIZE * 0.95,
                                                                y + SIZE * 0.55),
                                font_size=10, fill=LIGHT, class_="more")
            extra.set_desc(title=f"{len(stack) - 4} more task groups")
            parts.append(svg_text(extra))
    return splice(SHAPES.g(class_="counters"), parts)


@lru_cache(maxsize=FRAGMENTS_KEPT)
def _counter(h: Hex, index: int, title: str, fill: str, initial: str, ink: str) -> str:
    """The ``index``-th counter (from 0) of the stack on ``h``: each stands 6 units
    right of and below the one before. Keyed by the hex, not by the point, so
    the cache never mistakes one float for an equal one written differently."""
    x, y = centre(h)
    return counter(round(x - SIZE * 0.95 + index * 6, 1), round(y - SIZE * 0.2 + index * 6, 1),
                   title, fill, initial, ink)


#: The symbol key under the map, besides one entry per power.
_KEY = ("neutral world", "capital", "supply depot", "base", "shipyard", "interdicted",
        "charted route")


def _keys(m: StarMap) -> tuple[str, ...]:
    """The key's entries: the usual ones, and dust clouds and wormholes when there are any."""
    return _KEY + (("dust cloud",) if m.dust else ()) + (("wormhole",) if m.wormholes else ())


@lru_cache(maxsize=WHOLE_PARTS_KEPT)
def _legend(powers: tuple[Power, ...], keys: tuple[str, ...], box: Box) -> str:
    return key(box, [(p.name, p.colour, p.initial) for p in powers], keys, margin=12,
               ink=lambda colour: "#000000" if colour == "#F0E442" else "#ffffff",
               symbol=lambda d, g, kind, x, y: _key_symbol(d, g, kind, x + 8, y))


def _key_symbol(d: svgwrite.Drawing, g: svgwrite.container.Group, kind: str, x: float,
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
    elif kind == "interdicted":
        g.add(d.circle((x, y), r=7, fill="none", stroke="#d62d20", stroke_width=2.5,
                       stroke_dasharray="4 3"))
    else:
        g.add(d.line((x - 9, y), (x + 9, y), stroke="#a0801a", stroke_width=3,
                     stroke_dasharray="6 4"))
