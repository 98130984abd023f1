"""The SVG document every campaign map is drawn on, and the parts both kinds of
map (:mod:`ftpress.maps.starmap`, hexes; :mod:`ftpress.maps.planemap`, a plane)
draw alike: the drawing with its title and move arrow, the key under the map,
the moves' group and a task group's counter. Rounding is left to the callers, so
each map's bytes stay what they were."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import svgwrite

#: A rectangle as the viewBox gives it: left, top, width, height.
Box = tuple[float, float, float, float]

#: Light ink on the dark ground of a map.
LIGHT = "#f4f1e8"
#: Height of one row of the key under the map, and how many entries stand in a row.
KEY_ROW = 26.0
KEY_COLUMNS = 3


class _Drawing(svgwrite.Drawing):
    """svgwrite's drawing less the xml-events namespace, which HTML forbids on inline SVG."""

    def get_xml(self):
        xml = super().get_xml()
        xml.attrib.pop("xmlns:ev", None)
        return xml


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


def new_drawing(box: Box, element_id: str, css_class: str, title: str, desc: str,
                ) -> tuple[svgwrite.Drawing, svgwrite.container.Marker]:
    """An empty map (:func:`blank_drawing`) with the arrowhead moves end in
    (``<element_id>-arrow``)."""
    d = blank_drawing(box, element_id, css_class, title, desc)
    arrow = d.marker(id=f"{element_id}-arrow", insert=(8, 5), size=(10, 10), orient="auto",
                     markerUnits="userSpaceOnUse")
    arrow.add(d.path(d="M0,0 L10,5 L0,10 z", fill=LIGHT))
    d.defs.add(arrow)
    return d, arrow


def moves_group(d: svgwrite.Drawing) -> svgwrite.container.Group:
    """The group the arrows of last turn's moves are drawn in."""
    group = d.add(d.g(class_="moves", stroke_width=2.5, fill="none"))
    group.set_desc(title="Moves made last turn")
    return group


def draw_counter(d: svgwrite.Drawing, group: svgwrite.container.Group, cx: float, cy: float,
                 title: str, fill: str, initial: str, ink: str) -> None:
    """One counter with its top left at (``cx``, ``cy``): ``fill`` the owner's colour,
    ``initial`` in ``ink`` on it, ``title`` what a reader hovering it is told."""
    g = group.add(d.g(class_="counter"))
    g.set_desc(title=title)
    g.add(d.rect((cx, cy), (18, 14), fill=fill, stroke="#ffffff", stroke_width=1))
    g.add(d.text(initial, insert=(round(cx + 9, 1), round(cy + 10.5, 1)),
                 text_anchor="middle", font_size=7, font_weight="bold", fill=ink))


def draw_key(d: svgwrite.Drawing, box: Box, powers: Sequence[tuple[str, str, str]],
             symbols: Sequence[str], *, margin: float,
             ink: Callable[[str], str],
             symbol: Callable[[svgwrite.Drawing, svgwrite.container.Group, str, float, float],
                              None]) -> None:
    """The key along the bottom of ``box``: each power (name, colour, initial) as a
    disc with its initial in ``ink(colour)``, then each symbol drawn by ``symbol(d,
    g, kind, x, y)`` at the entry's left edge; ``margin``: the key's panel above its
    first row."""
    top = box[1] + box[3] - KEY_ROW * key_rows(len(powers) + len(symbols))
    left = box[0] + 12
    g = d.add(d.g(class_="legend", font_size=12, fill="#1d2129"))
    g.set_desc(title="Key")
    g.add(d.rect((box[0], round(top - margin, 1)),
                 (box[2], round(box[1] + box[3] - top + margin, 1)), fill="#fbfaf6"))
    column_w = box[2] / KEY_COLUMNS
    entries = [*powers, *((k, "", "") for k in symbols)]
    for index, (text, colour, initial) in enumerate(entries):
        x = round(left + column_w * (index % KEY_COLUMNS), 1)
        y = round(top + KEY_ROW * (index // KEY_COLUMNS), 1)
        if colour:
            g.add(d.circle((x + 8, y), r=8, fill=colour))
            g.add(d.text(initial, insert=(x + 8, y + 3), text_anchor="middle", font_size=6,
                         font_weight="bold", fill=ink(colour)))
        else:
            symbol(d, g, text, x, y)
        g.add(d.text(text, insert=(x + 22, y + 4)))
