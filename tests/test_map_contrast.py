"""Every piece of text on every map of the demo and both examples reads at WCAG 1.4.3's
4.5:1 or more against what it is drawn on (a power's counter, a world's disc, a hex,
the map's own ground, the key's panel).

The maps are read as the built sites publish them (each page's inline SVG and each
turn's ``map.svg``). For each ``<text>`` the test finds the shape painted last under
it, before it, at its middle and near both its ends (its width estimated from its
length and size), and compares the text's fill with that shape's fill. The contrast is
WCAG 2's formula written out here, not the map code's, so the check stands apart from
what it checks. Strokes (routes, arrows, rings) are not grounds: the maps keep labels
off them (``tests/e2e/test_map_legibility.py`` checks that labels overlap nothing)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

import pytest
from demos import FTCAMP02, SCT

SVG = "{http://www.w3.org/2000/svg}"
#: The least contrast small text must have (WCAG 2, success criterion 1.4.3).
LEAST = 4.5
#: What an SVG text is filled with when nothing says (SVG's initial value).
BLACK = "#000000"
#: A glyph's average width against its font size (DejaVu Sans, digits and capitals).
GLYPH = 0.62


def luminance(colour: str) -> float:
    """WCAG 2's relative luminance of ``#rgb`` or ``#rrggbb``."""
    hexes = colour.lstrip("#")
    if len(hexes) == 3:
        hexes = "".join(c * 2 for c in hexes)
    linear = []
    for i in (0, 2, 4):
        c = int(hexes[i:i + 2], 16) / 255
        linear.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def ratio(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@dataclass(frozen=True)
class Shape:
    """A filled shape as painted: its kind, its geometry and its fill."""

    kind: str
    geometry: tuple[float, ...]
    fill: str

    def covers(self, x: float, y: float) -> bool:
        g = self.geometry
        if self.kind == "rect":
            return g[0] <= x <= g[0] + g[2] and g[1] <= y <= g[1] + g[3]
        if self.kind == "circle":
            return math.hypot(x - g[0], y - g[1]) <= g[2]
        points = list(zip(g[0::2], g[1::2], strict=True))  # a polygon: ray casting
        inside = False
        for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1], strict=True):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
        return inside


def _shape(node: ElementTree.Element, fill: str) -> Shape | None:
    tag = node.tag.removeprefix(SVG)
    num = lambda name: float(node.get(name, "0"))  # noqa: E731
    if tag == "rect":
        return Shape("rect", (num("x"), num("y"), num("width"), num("height")), fill)
    if tag == "circle":
        return Shape("circle", (num("cx"), num("cy"), num("r")), fill)
    if tag == "polygon":
        values = [float(v) for v in re.split(r"[\s,]+", node.get("points", "").strip())]
        return Shape("polygon", tuple(values), fill)
    return None


@dataclass(frozen=True)
class Label:
    text: str
    fill: str
    #: The points the text covers: near its left end, its middle and its right end.
    points: tuple[tuple[float, float], ...]
    #: The filled shapes painted before it, in paint order.
    under: tuple[Shape, ...]

    def ground(self, x: float, y: float) -> str | None:
        for shape in reversed(self.under):
            if shape.covers(x, y):
                return shape.fill
        return None


def labels(svg: ElementTree.Element) -> Iterator[Label]:
    """Every text of a map with the shapes painted before it."""
    painted: list[Shape] = []

    def walk(node: ElementTree.Element, fill: str, size: float) -> Iterator[Label]:
        fill = node.get("fill", fill)
        size = float(node.get("font-size", size))
        tag = node.tag.removeprefix(SVG)
        if tag in ("title", "desc", "defs"):
            return
        if tag == "text":
            x, y = float(node.get("x", "0")), float(node.get("y", "0"))
            width = GLYPH * size * len(node.text or "")
            left = {"middle": x - width / 2, "end": x - width}.get(
                node.get("text-anchor", "start"), x)
            middle = y - size * 0.35  # half a capital's height above the baseline
            inset = min(size * 0.3, width / 2)
            points = ((left + inset, middle), (left + width / 2, middle),
                      (left + width - inset, middle))
            yield Label(node.text or "", fill, points, tuple(painted))
            return
        shape = _shape(node, fill) if fill != "none" else None
        if shape is not None and node.get("fill-opacity") is None:
            painted.append(shape)
        for child in node:
            yield from walk(child, fill, size)

    yield from walk(svg, BLACK, 16.0)


def maps(site: Path) -> Iterator[tuple[str, ElementTree.Element]]:
    """Every map of a built site: the inline ones of each page, each turn's map.svg."""
    for page in sorted(site.rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        for found in re.finditer(r'<svg[^>]*class="starmap[^"]*".*?</svg>', html, re.S):
            yield page.relative_to(site).as_posix(), ElementTree.fromstring(found.group())
    for file in sorted(site.rglob("map.svg")):
        yield file.relative_to(site).as_posix(), ElementTree.parse(file).getroot()


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory, demo_site: Path) -> dict[str, Path]:
    return {"demo": demo_site, "sct": SCT.build_once(tmp_path_factory, "sct"),
            "ftcamp02": FTCAMP02.build_once(tmp_path_factory, "ftcamp02")}


def test_every_map_label_reads_against_what_it_is_drawn_on(sites):
    failing, measured, seen = [], 0, set()
    for name, site in sites.items():
        for where, svg in maps(site):
            for label in labels(svg):
                for x, y in label.points:
                    ground = label.ground(x, y)
                    if ground is None:
                        failing.append(f"{name}/{where}: {label.text!r} at ({x:.0f}, {y:.0f}) "
                                       "is drawn on nothing (the page's background)")
                        continue
                    measured += 1
                    found = ratio(label.fill, ground)
                    seen.add((label.fill.lower(), ground.lower()))
                    if found < LEAST:
                        failing.append(f"{name}/{where}: {label.text!r} {label.fill} on "
                                       f"{ground}: {found:.2f}:1")
    assert sorted(set(failing)) == []
    assert measured > 3000  # every label of every map was measured, not none
    # The power colours are all there, under both inks.
    assert {ground for _, ground in seen} >= {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                               "#e69f00", "#8a8f98", "#10182b", "#fbfaf6"}


@pytest.mark.parametrize(("fill", "expected"), [
    ("#ffffff", 1.0), ("#000000", 21.0), ("#0072B2", 5.19), ("#E69F00", 2.25),
    ("#CC79A7", 3.06),
])
def test_the_contrast_formula_gives_the_wcag_figures(fill, expected):
    """White on each colour, as WebAIM's contrast checker gives it."""
    assert ratio("#ffffff", fill) == pytest.approx(expected, abs=0.01)


def test_a_white_initial_on_a_pink_counter_is_caught():
    """The check finds what it looks for: white on the palette's pink (3.06:1) fails."""
    svg = ElementTree.fromstring(
        '<svg xmlns="http://www.w3.org/2000/svg"><rect x="0" y="0" width="26" height="16" '
        'fill="#CC79A7"/><text x="13" y="12" font-size="10" fill="#ffffff" '
        'text-anchor="middle">SAV</text></svg>')
    [label] = labels(svg)
    assert [round(ratio(label.fill, label.ground(x, y) or ""), 2) for x, y in label.points] \
        == [3.06, 3.06, 3.06]
