"""The SVG document every campaign map is drawn on, and the parts both kinds of
map (:mod:`ftpress.maps.starmap`, hexes; :mod:`ftpress.maps.planemap`, a plane)
draw alike: the drawing with its title and move arrow, the key under the map,
the moves' group and a task group's counter. Rounding is left to the callers, so
each map's bytes stay what they were.

A map is written as text fragments joined in order: each part (the hex grid, a
world, a counter, the key) is made of svgwrite elements as usual, then written
out on its own by :func:`~ftpress.maps.svgtext.svg_text`, and
:func:`~ftpress.maps.svgtext.splice` puts the fragments inside
their parent exactly where svgwrite would have written them. So a part that is
the same on every turn's map (the grid, most worlds) can be drawn once per
process and its text reused, and the document is the same, byte for byte, as if
the whole tree had been written at once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from xml.etree import ElementTree

import svgwrite

from ftpress.maps.svgtext import svg_text

#: A rectangle as the viewBox gives it: left, top, width, height.
Box = tuple[float, float, float, float]

#: Light ink on the dark ground of a map.
LIGHT = "#f4f1e8"
#: The dark ground every map is drawn on (its own, so that a map printed without
#: backgrounds, or opened as a file, still has its light text on dark).
GROUND = "#10182b"
#: The two inks a label on a coloured shape is written in, whichever reads better.
DARK_INK = "#000000"
LIGHT_INK = "#ffffff"
#: Height of one row of the key under the map, and how many entries stand in a row
#: (two, so a power's full name fits beside its counter).
KEY_ROW = 26.0
KEY_COLUMNS = 2
#: A counter's size, and the size of the smallest text on any map (a counter's
#: initials): the page keeps a map wide enough for this to read (:func:`legible_width`).
COUNTER_W = 26.0
COUNTER_H = 16.0
SMALLEST_TEXT = 10.0
#: The on-screen size the smallest text must have on a desktop (11 px, and a little to
#: spare for the rounding of widths): a map is never drawn
#: narrower than that allows, and scrolls inside its frame instead.
READABLE_PX = 11.5
#: How many drawn parts (worlds, counters, keys…) each cache keeps per process: a
#: map at radius 10 has ~170 worlds and ~30 counters, and consecutive turns repeat
#: most of them, so a few thousand hold many turns' worth at a few hundred bytes each.
FRAGMENTS_KEPT = 4096
#: How many of the parts a map has one of (its hex grid, routes, wormholes, key) each
#: cache keeps per process: they change only when the map's size, its routes or its
#: powers do, which a campaign does a few times at most.
WHOLE_PARTS_KEPT = 8


class _Drawing(svgwrite.Drawing):
    """svgwrite's drawing less the xml-events namespace, which HTML forbids on inline SVG."""

    def get_xml(self) -> ElementTree.Element:
        xml: ElementTree.Element = super().get_xml()
        xml.attrib.pop("xmlns:ev", None)
        return xml


#: What every fragment's elements are made with (``SHAPES.circle(…)``, ``SHAPES.g(…)``):
#: a drawing that is never written, only lending its settings (full profile, no
#: validation), which are the same as every map document's, so a fragment's
#: elements are written exactly as they would be inside the document.
SHAPES = _Drawing(profile="full", debug=False)


def luminance(colour: str) -> float:
    """The relative luminance of ``#rrggbb`` as WCAG 2 defines it (0 black, 1 white)."""
    channels = [int(colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    """The WCAG 2 contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    a, b = sorted((luminance(one), luminance(other)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def ink_on(fill: str) -> str:
    """Black or white, whichever reads better on ``fill``: the better of the two is at
    least 4.58:1 on any colour, past WCAG 1.4.3's 4.5:1 for small text."""
    return max((LIGHT_INK, DARK_INK), key=lambda ink: contrast(ink, fill))


def key_rows(entries: int) -> int:
    """How many rows the key takes for that many entries."""
    return math.ceil(entries / KEY_COLUMNS)


def blank_drawing(box: Box, element_id: str, css_class: str, title: str,
                  desc: str) -> svgwrite.Drawing:
    """An empty picture filling its width, with its title and description (read
    out by screen readers and searchable)."""
    d = _Drawing(size=("100%", None), profile="full", debug=False,
                 viewBox=" ".join(f"{v:.1f}" for v in box))
    d.attribs.update({"id": element_id, "role": "img", "class": css_class})
    d.set_desc(title=title, desc=desc)
    return d


def legible_width(box: Box) -> str:
    """The map's style: the width (``--map-min``) below which its smallest text would
    read under :data:`READABLE_PX`; the page's style sheet keeps the map at least that
    wide on a desktop (a little less on a phone) and lets its frame scroll."""
    return f"--map-min: {box[2] * READABLE_PX / SMALLEST_TEXT:.0f}px"


def new_drawing(box: Box, element_id: str, css_class: str, title: str,
                desc: str) -> svgwrite.Drawing:
    """An empty map (:func:`blank_drawing`) that knows the width it reads at."""
    d = blank_drawing(box, element_id, css_class, title, desc)
    d.attribs["style"] = legible_width(box)
    return d


def moves_group() -> svgwrite.container.Group:
    """The group the arrows of this turn's moves are drawn in."""
    group = SHAPES.g(class_="moves")
    group.set_desc(title="Moves made this turn")
    return group


def arrow(group: svgwrite.container.Group, start: tuple[float, float],
          end: tuple[float, float], colour: str) -> None:
    """A move from ``start`` to ``end`` in the mover's colour: a thick line with a
    broad head, both edged in the ground's dark blue and a light rim so they show
    on any colour and on the dark ground alike."""
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    head = min(14.0, length / 2)
    bx, by = x2 - ux * head, y2 - uy * head
    points = [(round(x2, 1), round(y2, 1)),
              (round(bx - uy * 8, 1), round(by + ux * 8, 1)),
              (round(bx + uy * 8, 1), round(by - ux * 8, 1))]
    g = group.add(SHAPES.g(class_="move"))
    g.add(SHAPES.line((round(x1, 1), round(y1, 1)), (round(bx, 1), round(by, 1)),
                      stroke=LIGHT, stroke_width=7, stroke_linecap="round"))
    g.add(SHAPES.line((round(x1, 1), round(y1, 1)), (round(bx, 1), round(by, 1)),
                      stroke=colour, stroke_width=4, stroke_linecap="round"))
    g.add(SHAPES.polygon(points, fill=colour, stroke=LIGHT, stroke_width=1.5,
                         stroke_linejoin="round"))


def counter(cx: float, cy: float, title: str, fill: str, initial: str, ink: str) -> str:
    """One counter with its top left at (``cx``, ``cy``): ``fill`` the owner's colour,
    ``initial`` in ``ink`` on it, ``title`` what a reader hovering it is told."""
    g = SHAPES.g(class_="counter")
    g.set_desc(title=title)
    _counter_shape(g, cx, cy, fill, initial, ink)
    return svg_text(g)


def _counter_shape(g: svgwrite.container.Group, cx: float, cy: float, fill: str,
                   initial: str, ink: str) -> None:
    g.add(SHAPES.rect((cx, cy), (COUNTER_W, COUNTER_H), fill=fill, stroke="#ffffff",
                      stroke_width=1))
    # A mark longer than a power's initials (a group's id) is fitted to the counter.
    fit = {"textLength": COUNTER_W - 4, "lengthAdjust": "spacingAndGlyphs"} \
        if len(initial) > 3 else {}
    g.add(SHAPES.text(initial, insert=(round(cx + COUNTER_W / 2, 1), round(cy + 12, 1)),
                      text_anchor="middle", font_size=SMALLEST_TEXT, font_weight="bold",
                      fill=ink, **fit))


def key(box: Box, powers: Sequence[tuple[str, str, str]], symbols: Sequence[str], *,
        margin: float,
        symbol: Callable[[svgwrite.Drawing, svgwrite.container.Group, str, float, float],
                         None]) -> str:
    """The key along the bottom of ``box``: each power (name, colour, initial) as its
    counter, its initial in the ink that reads on it, then each symbol drawn by ``symbol(SHAPES,
    g, kind, x, y)`` at the entry's left edge; ``margin``: the key's panel above its
    first row."""
    top = box[1] + box[3] - KEY_ROW * key_rows(len(powers) + len(symbols))
    left = box[0] + 12
    d = SHAPES
    g = d.g(class_="legend", font_size=12, fill="#1d2129")
    g.set_desc(title="Key")
    g.add(d.rect((box[0], round(top - margin, 1)),
                 (box[2], round(box[1] + box[3] - top + margin, 1)), fill="#fbfaf6"))
    column_w = box[2] / KEY_COLUMNS
    entries = [*powers, *((k, "", "") for k in symbols)]
    for index, (text, colour, initial) in enumerate(entries):
        x = round(left + column_w * (index % KEY_COLUMNS), 1)
        y = round(top + KEY_ROW * (index // KEY_COLUMNS), 1)
        if colour:
            _counter_shape(g, x - 2, round(y - COUNTER_H / 2, 1), colour, initial, ink_on(colour))
        else:
            symbol(d, g, text, x, y)
        g.add(d.text(text, insert=(x + 30, y + 4)))
    return svg_text(g)
