"""The planar map (ftpress/maps/planemap.py): seed 001's symbology, escaped text,
a title and description for every mark, and the same bytes every time."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ftpress.maps.planemap import (
    SPECTRAL_COLOURS,
    Burst,
    ForceMark,
    PlaneMap,
    SystemMark,
    Track,
    render_plane,
)
from ftpress.maps.starmap import Power

NS = {"svg": "http://www.w3.org/2000/svg"}
POWERS = (Power("nac", "New Anglian <Confederation>", "#0072B2", "NAC"),
          Power("esu", "Eastern Star Union", "#D55E00", "ESU"))


def sample() -> PlaneMap:
    return PlaneMap(
        10, "The map & more", "A test map",
        POWERS,
        (SystemMark(0, 8, 3, "Cedar <Point>", 400, "nac", "nac", "G", depot=True, base=True,
                    shipyard=True, capital=True),
         SystemMark(-4.5, -2, -1, "Quill", 150, "esu", "nac", "M")),
        (ForceMark(1.5, 2, "nac", "1"),),
        (Track(0, 8, 1.5, 2, "nac"),),
        (Burst(1.5, 2, "A battle <here>"),))


def _worlds(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "world"]


def test_a_system_is_drawn_as_the_seed_describes():
    root = ET.fromstring(render_plane(sample()))
    cedar = _worlds(root)[1]  # sorted by position: Quill (-4.5) first
    title = cedar.find("svg:title", NS).text
    assert title.startswith("Cedar <Point>: held by New Anglian <Confederation>, EV 400 MUCr")
    circles = {c.get("class"): c for c in cedar.findall("svg:circle", NS)}
    assert circles["spectral"].get("fill") == SPECTRAL_COLOURS["G"]  # the outer ring
    assert circles["nation"].get("fill") == "#0072B2"  # the first nation's colour
    texts = {t.get("class"): t for t in cedar.findall("svg:text", NS)}
    x, y = float(circles["nation"].get("cx")), float(circles["nation"].get("cy"))
    assert texts["z"].text == "3" and abs(float(texts["z"].get("y")) - y) < 5  # inside
    assert texts["value"].text == "400" and float(texts["value"].get("y")) < y  # EV above
    assert texts["name"].text == "Cedar <Point>" and float(texts["name"].get("y")) > y
    depot = circles["depot"]
    assert float(depot.get("cx")) < x and depot.get("fill") == "#000000"  # circle left
    base = cedar.find("svg:rect[@class='base']", NS)
    assert float(base.get("x")) > x and base.get("fill") == "#000000"  # square right
    yard = cedar.find("svg:polygon[@class='shipyard']", NS)
    points = [tuple(map(float, p.split(","))) for p in yard.get("points").split()]
    assert all(px > x for px, _ in points) and all(py < y for _, py in points)  # above right


def test_the_inner_circle_is_the_first_nation_not_the_holder():
    root = ET.fromstring(render_plane(sample()))
    quill = _worlds(root)[0]
    nation = next(c for c in quill.findall("svg:circle", NS) if c.get("class") == "nation")
    assert nation.get("fill") == "#0072B2"
    assert "originally New Anglian <Confederation>" in quill.find("svg:title", NS).text


def test_text_is_escaped_and_the_map_is_described():
    svg = render_plane(sample())
    assert "<Point>" not in svg and "&lt;Point&gt;" in svg
    assert "A battle &lt;here&gt;" in svg
    root = ET.fromstring(svg)
    assert root.find("svg:title", NS).text == "The map & more"
    assert root.find("svg:desc", NS).text == "A test map"
    assert root.get("role") == "img"


def test_the_same_map_gives_the_same_bytes():
    assert render_plane(sample()) == render_plane(sample())
    assert render_plane(sample(), "other").count('id="other"') == 1
