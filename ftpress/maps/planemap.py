"""A planar campaign map as SVG: systems at points in MU, with the symbols of a
printed map key.

Each system is drawn as that key describes it: an outer ring in the
star's spectral colour, an inner circle in the colour of the nation that held
it at the start, the z-coordinate inside, the EV above and the name below; a
black circle to the left for a supply depot, a black square to the right for a
base, a black triangle above and to the right for a shipyard. Since the map is
drawn on a dark ground, the key's black marks are drawn black with a light
rim, so they show. Task forces are counters at their position in MU.

Like :mod:`ftpress.maps.starmap` this module draws a plain view value
(:class:`PlaneMap`) and knows no rule. svgwrite escapes every text; every
system and counter carries a ``<title>``, the map a ``<title>`` and ``<desc>``.
Coordinates are rounded to one decimal so the bytes never wobble.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

import svgwrite

from ftpress.maps.canvas import (
    COUNTER_H,
    COUNTER_W,
    GROUND,
    KEY_ROW,
    LIGHT,
    SHAPES,
    Box,
    arrow,
    ink_on,
    key,
    key_rows,
    moves_group,
    new_drawing,
)
from ftpress.maps.placing import Item, Rect, TextSpot, arrange, segment_rects, text_item
from ftpress.maps.starmap import (
    BATTLE,
    MOVE,
    NEUTRAL,
    Power,
    draw_stack,
    key_symbol,
    stack_size,
    stack_spots,
)
from ftpress.maps.svgtext import splice, svg_text

#: SVG units per MU: enough to keep systems a few MU apart clear of each other's
#: labels, no more, so that a whole map stays legible at a desktop page's width.
SCALE = 22.0
#: The outer (spectral) ring and the inner (nation) circle, in SVG units.
RING = 13.0
CORE = 9.0
#: Colours of the spectral classes (the outer ring of the key).
SPECTRAL_COLOURS = {"O": "#9bb0ff", "B": "#aabfff", "A": "#cad7ff", "F": "#f8f7ff",
                    "G": "#fff4ea", "K": "#ffd2a1", "M": "#ffb16e"}


@dataclass(frozen=True, slots=True)
class SystemMark:
    """One system as the map shows it."""

    x: float
    y: float
    z: float
    name: str
    ev: int | None
    owner: str | None
    #: The nation that held it at the start (the inner circle's colour).
    nation: str | None = None
    spectral: str | None = None
    depot: bool = False
    base: bool = False
    shipyard: bool = False
    capital: bool = False


@dataclass(frozen=True, slots=True)
class ForceMark:
    """A task force counter at a point, with what the reader may know of it."""

    x: float
    y: float
    owner: str
    label: str


@dataclass(frozen=True, slots=True)
class Track:
    """A move made this turn, from one point to another."""

    x1: float
    y1: float
    x2: float
    y2: float
    owner: str


@dataclass(frozen=True, slots=True)
class Burst:
    """A battle marked at a point."""

    x: float
    y: float
    text: str


@dataclass(frozen=True, slots=True)
class PlaneMap:
    #: MU from the centre to each edge.
    radius: int
    title: str
    description: str
    powers: tuple[Power, ...]
    systems: tuple[SystemMark, ...]
    forces: tuple[ForceMark, ...] = ()
    tracks: tuple[Track, ...] = ()
    bursts: tuple[Burst, ...] = ()


def _xy(x: float, y: float) -> tuple[float, float]:
    """MU (y north) → SVG units (y down), rounded."""
    return (round(x * SCALE, 1), round(-y * SCALE, 1))


def _num(value: float) -> str:
    return f"{value:g}"


_KEY = ("supply depot", "base", "shipyard", "task force (a counter)", "EV (above a system)",
        "EV not yet known", "z-coordinate (inside)")


def _keys(m: PlaneMap) -> tuple[str, ...]:
    """The key's entries, with moves and battles when the map has any."""
    return _KEY + ((MOVE,) if m.tracks else ()) + ((BATTLE,) if m.bursts else ())


def render_plane(m: PlaneMap, element_id: str = "starmap") -> str:
    """The whole map as an SVG document string: the ground and its grid, the
    systems, this turn's battles and tracks, the counters and the key, each part
    written on its own and joined in that order (:mod:`ftpress.maps.canvas`)."""
    half = (m.radius + 1) * SCALE
    rows = key_rows(len(m.powers) + len(_keys(m)))
    box = (-half, -half, 2 * half, 2 * half + KEY_ROW * rows + 12)
    d = new_drawing(box, element_id, "starmap planemap", m.title, m.description)
    owners = {p.id: p for p in m.powers}
    systems = sorted(m.systems, key=lambda s: (s.x, s.y, s.name))
    spots, stacks = _layout(m, systems, Rect(-half, -half, half, half))
    return splice(d, [
        _ground(m, half),
        *(_system(system, owners, *spots[system.x, system.y]) for system in systems),
        _bursts(m),
        _tracks(m, owners),
        _forces(m, owners, stacks),
        _legend(m, box),
    ])


def _ground(m: PlaneMap, half: float) -> str:
    d = SHAPES
    g = d.g(class_="plane")
    g.add(d.rect((-half, -half), (2 * half, 2 * half), fill=GROUND))
    grid = g.add(d.g(stroke="#2c3a5c", stroke_width=0.6))
    step = 2 if m.radius <= 20 else 5
    for v in range(-m.radius, m.radius + 1, step):
        grid.add(d.line(_xy(v, -m.radius), _xy(v, m.radius)))
        grid.add(d.line(_xy(-m.radius, v), _xy(m.radius, v)))
    grid.set_desc(title=f"Grid lines every {step} MU")
    return svg_text(g)


def _marks(s: SystemMark) -> list[Rect]:
    """The boxes a system's rings and its depot, base and shipyard fill."""
    x, y = _xy(s.x, s.y)
    rects = [Rect(x - RING - 1, y - RING - 1, x + RING + 1, y + RING + 1)]
    if s.depot:
        rects.append(Rect(x - RING - 13, y - 6, x - RING - 1, y + 6))
    if s.base:
        rects.append(Rect(x + RING + 1, y - 6, x + RING + 13, y + 6))
    if s.shipyard:
        rects.append(Rect(x + RING - 3, y - RING - 9, x + RING + 11, y - RING + 4))
    return rects


#: Each system's EV and name spots, and each stack's top left, by point.
_Placed = tuple[dict[tuple[float, float], tuple[TextSpot, TextSpot]],
                dict[tuple[float, float], tuple[float, float]]]


def _layout(m: PlaneMap, systems: list[SystemMark], bounds: Rect) -> _Placed:
    """Each system's EV and name spots, and each stack's top left, clear of the rest."""
    labels: list[tuple[list[TextSpot], list[TextSpot]]] = []
    items = []
    for s in systems:
        x, y = _xy(s.x, s.y)
        side = RING + 3
        below = round(y + RING + 12, 1)
        values = [TextSpot(x, round(y - RING - 4, 1)), TextSpot(round(x - side, 1), y - 9, "end"),
                  TextSpot(round(x + side, 1), y - 9, "start"),
                  TextSpot(round(x - side - 4, 1), y + 4, "end")]
        names = [TextSpot(x, below), TextSpot(round(x - 8, 1), below, "start"),
                 TextSpot(round(x + 8, 1), below, "end"), TextSpot(x, round(below + 10, 1)),
                 TextSpot(round(x + side + 4, 1), y + 4, "start"),
                 TextSpot(round(x - side - 4, 1), y + 4, "end")]
        labels.append((values, names))
        items += [text_item(values, str(s.ev) if s.ev is not None else "?", 11.0),
                  text_item(names, s.name, 10.0)]
    counts: dict[tuple[float, float], int] = defaultdict(int)
    for force in m.forces:
        counts[force.x, force.y] += 1
    points = sorted(counts)
    corners = []
    for point in points:
        wide, high = stack_size(counts[point])
        corners.append(stack_spots(*_xy(*point), wide, high))
        items.append(Item(tuple(Rect(cx, cy, cx + wide, cy + high) for cx, cy in corners[-1]),
                          mind_lines=False))
    lines = [rect for t in m.tracks for rect in segment_rects(_xy(t.x1, t.y1), _xy(t.x2, t.y2))]
    chosen = arrange(bounds, [rect for s in systems for rect in _marks(s)], lines, items)
    spots = {(s.x, s.y): (values[chosen[2 * i]], names[chosen[2 * i + 1]])
             for i, (s, (values, names)) in enumerate(zip(systems, labels, strict=True))}
    first = 2 * len(systems)
    stacks = {p: (round(corners[i][chosen[first + i]][0], 1),
                  round(corners[i][chosen[first + i]][1], 1)) for i, p in enumerate(points)}
    return spots, stacks


def _system(s: SystemMark, owners: dict[str, Power], value_at: TextSpot,
            name_at: TextSpot) -> str:
    d = SHAPES
    x, y = _xy(s.x, s.y)
    owner = owners.get(s.owner or "")
    nation = owners.get(s.nation or "")
    facts = [f"held by {owner.name}" if owner else "neutral",
             f"EV {s.ev} MUCr" if s.ev is not None else "EV unknown",
             f"z {_num(s.z)}", f"at ({_num(s.x)}, {_num(s.y)}) MU"]
    if s.spectral:
        facts.append(f"class {s.spectral} star")
    if nation is not None and nation is not owner:
        facts.append(f"originally {nation.name}")
    facts += [k for k, on in (("capital", s.capital), ("supply depot", s.depot),
                              ("base", s.base), ("shipyard", s.shipyard)) if on]
    g = d.g(class_="world", tabindex="0")
    g.attribs["data-world"] = s.name
    g.set_desc(title=f"{s.name}: {', '.join(facts)}")
    ring = SPECTRAL_COLOURS.get(s.spectral or "", "#d9d9d9")
    g.add(d.circle((x, y), r=RING, fill=ring, class_="spectral"))
    inner = nation.colour if nation else (owner.colour if owner else NEUTRAL)
    g.add(d.circle((x, y), r=CORE, fill=inner, class_="nation",
                   stroke=LIGHT if s.capital else "none", stroke_width=2))
    g.add(d.text(_num(s.z), insert=(x, round(y + 3.5, 1)), text_anchor="middle",
                 class_="z", font_size=10, font_weight="bold", fill=ink_on(inner)))
    g.add(d.text(str(s.ev) if s.ev is not None else "?", insert=(value_at.x, value_at.y),
                 text_anchor=value_at.anchor, class_="value", font_size=11, fill=LIGHT))
    g.add(d.text(s.name, insert=(name_at.x, name_at.y), text_anchor=name_at.anchor,
                 class_="name", font_size=10, fill=LIGHT))
    mark = {"fill": "#000000", "stroke": LIGHT, "stroke_width": 1}
    if s.depot:  # black circle to the left
        g.add(d.circle((round(x - RING - 7, 1), y), r=5, class_="depot", **mark))
    if s.base:  # black square to the right
        g.add(d.rect((round(x + RING + 2, 1), round(y - 5, 1)), (10, 10), class_="base",
                     **mark))
    if s.shipyard:  # black triangle above and to the right
        tx, ty = round(x + RING + 4, 1), round(y - RING - 2, 1)
        g.add(d.polygon([(tx, round(ty - 6, 1)), (round(tx + 6, 1), round(ty + 5, 1)),
                         (round(tx - 6, 1), round(ty + 5, 1))], class_="shipyard", **mark))
    return svg_text(g)


def _bursts(m: PlaneMap) -> str:
    if not m.bursts:
        return ""
    d = SHAPES
    group = d.g(class_="markers")
    for burst in sorted(m.bursts, key=lambda b: (b.x, b.y, b.text)):
        x, y = _xy(burst.x, burst.y)
        g = group.add(d.g(class_="battle"))
        g.set_desc(title=burst.text)
        points = []
        for i in range(16):
            r = 22 if i % 2 == 0 else 11
            angle = math.pi * i / 8
            points.append((round(x + r * math.sin(angle), 1), round(y - r * math.cos(angle), 1)))
        g.add(d.polygon(points, fill="#ff5a4f", fill_opacity=0.55, stroke="#ff5a4f"))
    return svg_text(group)


def _tracks(m: PlaneMap, owners: dict[str, Power]) -> str:
    if not m.tracks:
        return ""
    group = moves_group()
    for t in sorted(m.tracks, key=lambda t: (t.x1, t.y1, t.x2, t.y2, t.owner)):
        owner = owners.get(t.owner)
        arrow(group, _xy(t.x1, t.y1), _xy(t.x2, t.y2), owner.colour if owner else NEUTRAL)
    return svg_text(group)


def _forces(m: PlaneMap, owners: dict[str, Power],
            at: dict[tuple[float, float], tuple[float, float]]) -> str:
    stacks: dict[tuple[float, float], list[ForceMark]] = defaultdict(list)
    for force in m.forces:
        stacks[force.x, force.y].append(force)
    parts = []
    for point in sorted(stacks):
        forces = sorted(stacks[point], key=lambda f: (f.owner, f.label))
        parts += draw_stack(at[point], [
            (f"Task force {f.label} ({owners[f.owner].name if f.owner in owners else f.owner})",
             owners.get(f.owner)) for f in forces], "task force")
    return splice(SHAPES.g(class_="counters"), parts)


def _legend(m: PlaneMap, box: Box) -> str:
    return key(box, [(p.name, p.colour, p.initial) for p in m.powers], _keys(m), margin=14,
               symbol=_key_symbol)


def _key_symbol(d: svgwrite.Drawing, g: svgwrite.container.Group, kind: str, x: float,
                y: float) -> None:
    """The seed's black marks, and a counter, in the key (``x``: the entry's left edge)."""
    if kind == "supply depot":
        g.add(d.circle((x + 8, y), r=5, fill="#000000"))
    elif kind == "base":
        g.add(d.rect((x + 3, y - 5), (10, 10), fill="#000000"))
    elif kind == "shipyard":
        g.add(d.polygon([(x + 8, y - 6), (x + 14, y + 5), (x + 2, y + 5)], fill="#000000"))
    elif kind.startswith("task force"):
        g.add(d.rect((x - 5, y - 8), (COUNTER_W, COUNTER_H), fill=NEUTRAL))
    elif kind.startswith("EV"):
        g.add(d.text("?" if "known" in kind else "40", insert=(x + 8, y + 4),
                     text_anchor="middle", font_weight="bold"))
    elif kind.startswith("z-"):
        g.add(d.circle((x + 8, y), r=10, fill=NEUTRAL))
        g.add(d.text("2", insert=(x + 8, y + 4), text_anchor="middle", font_weight="bold",
                     fill=ink_on(NEUTRAL)))
    else:
        key_symbol(d, g, kind, x + 8, y)
