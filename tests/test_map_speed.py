"""The fast way of writing maps and charts (ftpress/maps/svgtext.py, the fragment
caches of ftpress/maps/starmap.py) gives exactly the bytes svgwrite's own
``tostring`` gives: for any element tree, for a parent with children spliced in,
for a map drawn after other maps have filled the caches, and for the sample
maps and chart, whose digests were taken from the code before the change."""

from __future__ import annotations

import hashlib
import xml.etree.ElementTree as ET

import svgwrite
from hypothesis import given, settings
from hypothesis import strategies as st

from ftpress.maps import starmap
from ftpress.maps.canvas import FRAGMENTS_KEPT, SHAPES, WHOLE_PARTS_KEPT
from ftpress.maps.chart import Chart, Series, render_chart
from ftpress.maps.planemap import Burst, ForceMark, PlaneMap, SystemMark, Track, render_plane
from ftpress.maps.starmap import (
    CounterMark,
    Marker,
    Move,
    Power,
    Route,
    StarMap,
    WorldMark,
    render_svg,
)
from ftpress.maps.svgtext import escape_attribute, escape_text, splice, svg_text
from ftpress.state.hexes import Hex, hexagon
from ftpress.text.xmlchars import xml_chars

# --- any element tree, written both ways ---------------------------------------------

#: Text with every character XML escapes (and the ones it leaves alone), of the
#: characters XML 1.0 can hold: the rest become U+FFFD (ftpress.text.xmlchars), where
#: svgwrite would write malformed XML.
TEXT = st.text(st.characters(blacklist_categories=("Cs",)).filter(lambda c: xml_chars(c) == c)
               | st.sampled_from('&<>"\'\r\n\t'), max_size=10)
VALUE = st.one_of(TEXT, st.integers(-10**6, 10**6), st.floats(allow_nan=False), st.none())
ATTRS = st.dictionaries(st.sampled_from(["fill", "class", "data-world", "stroke-width", "id",
                                         "x", "font-size"]), VALUE, max_size=4)
POINTS = st.lists(st.tuples(st.floats(-1e3, 1e3), st.floats(-1e3, 1e3)), max_size=4)
LEAF = st.one_of(st.tuples(st.just("circle"), ATTRS), st.tuples(st.just("rect"), ATTRS),
                 st.tuples(st.just("text"), ATTRS, TEXT),
                 st.tuples(st.just("polygon"), ATTRS, POINTS),
                 st.tuples(st.just("polyline"), ATTRS, POINTS))
TREE = st.recursive(LEAF, lambda kids: st.tuples(st.just("g"), ATTRS, st.none() | TEXT,
                                                 st.lists(kids, max_size=4)), max_leaves=12)


def build(spec: tuple) -> svgwrite.base.BaseElement:
    """A fresh svgwrite element from its plain description (elements are mutable,
    so each way of writing gets its own)."""
    kind, attrs = spec[0], spec[1]
    if kind == "g":
        el = SHAPES.g()
        if spec[2] is not None:
            el.set_desc(title=spec[2])
        for child in spec[3]:
            el.add(build(child))
    elif kind == "text":
        el = SHAPES.text(spec[2])
    elif kind in ("polygon", "polyline"):
        el = getattr(SHAPES, kind)(spec[2])
    else:
        el = getattr(SHAPES, kind)()
    el.attribs.update(attrs)
    return el


@settings(max_examples=150, deadline=None)
@given(TREE)
def test_any_tree_is_written_as_svgwrite_writes_it(spec):
    assert svg_text(build(spec)) == build(spec).tostring()


@settings(max_examples=100, deadline=None)
@given(ATTRS, st.none() | TEXT, st.lists(TREE, max_size=5), st.data())
def test_children_spliced_in_are_written_as_if_added(attrs, title, children, data):
    whole = build(("g", attrs, title, children))
    kept = data.draw(st.integers(0, len(children)))
    parent = build(("g", attrs, title, children[:kept]))
    spliced = splice(parent, [svg_text(build(c)) for c in children[kept:]])
    assert spliced == whole.tostring()


def test_an_empty_parent_is_closed_short_and_opened_for_its_parts():
    assert splice(SHAPES.g(class_="counters"), []) == '<g class="counters" />'
    assert splice(SHAPES.g(class_="counters"), ["<rect />"]) == \
        '<g class="counters"><rect /></g>'


def test_escaping_is_elementtrees():
    for text in ('a & b < c > d " e \' f', "tab\there\r\nnew", "plain"):
        assert escape_attribute(text) == ET._escape_attrib(text)
        assert escape_text(text) == ET._escape_cdata(text)


def test_a_character_xml_cannot_hold_is_the_replacement_character():
    """A lone surrogate (a YAML "\\ud800" escape) or a control character has no form
    in XML 1.0, not even as a reference (svgwrite writes "&#55296;", which no XML
    parser reads): it becomes U+FFFD, and the map still parses."""
    el = SHAPES.text("odd \ud800 name\x08", insert=(1, 2))
    el.attribs["data-world"] = "x\udfffy"
    written = svg_text(el)
    assert "odd \ufffd name\ufffd" in written and 'data-world="x\ufffdy"' in written
    ET.fromstring(written)


def test_other_elements_are_left_to_elementtree():
    """A <style> (CDATA) and an element that validates its values are written by
    svgwrite itself."""
    d = svgwrite.Drawing(debug=True)
    checked = d.circle((1, 2), r=3, fill="red")
    assert svg_text(checked) == checked.tostring()
    style = SHAPES.style("a > b { fill: red }")
    assert svg_text(style) == style.tostring()
    assert "<![CDATA[" in svg_text(style)


# --- the caches never hand back another map's part --------------------------------------

POWERS = (Power("nac", "New Anglian <Confederation>", "#0072B2", "NAC"),
          Power("yel", "Yellow & Co", "#F0E442", "YEL"))
RADIUS = 3
#: Names and notes of a map: what a reader might type (XML can hold it).
NAME = st.text(st.characters(whitelist_categories=("L", "N", "P", "S", "Zs")), max_size=8)
HEXES = list(hexagon(RADIUS))
WORLD = st.builds(WorldMark, st.sampled_from(HEXES),
                  st.sampled_from(["Marrow", "Quill", "<b>"]) | NAME,
                  st.none() | st.integers(0, 200), st.sampled_from([None, "nac", "yel", "gone"]),
                  st.booleans(), st.booleans(), st.booleans(), st.booleans(), st.booleans())
COUNTER = st.builds(CounterMark, st.sampled_from(HEXES[:4]), st.sampled_from(["nac", "yel", "x"]),
                    st.sampled_from(["1", "2", "<i>"]))
MAP = st.builds(StarMap, st.just(RADIUS), NAME, NAME, st.just(POWERS),
                st.lists(WORLD, max_size=6).map(tuple),
                st.lists(st.builds(Route, st.lists(st.sampled_from(HEXES), min_size=2,
                                                   max_size=3).map(tuple)),
                         max_size=1).map(tuple),
                st.lists(COUNTER, max_size=8).map(tuple),
                dust=st.lists(st.sampled_from(HEXES), max_size=2).map(tuple))
CACHED = (starmap._grid, starmap._routes, starmap._wormholes, starmap._world,
          starmap._counter, starmap._legend)


@settings(max_examples=60, deadline=None)
@given(MAP, MAP)
def test_a_map_drawn_after_another_is_the_map_drawn_alone(first, other):
    for cached in CACHED:
        cached.cache_clear()
    alone = render_svg(first, "m")
    for cached in CACHED:
        cached.cache_clear()
    render_svg(other, "m")  # fills the caches with the other map's parts
    assert render_svg(first, "m") == alone
    ET.fromstring(alone)  # well-formed


def test_the_caches_are_bounded():
    assert starmap._world.cache_info().maxsize == FRAGMENTS_KEPT
    assert starmap._counter.cache_info().maxsize == FRAGMENTS_KEPT
    assert all(c.cache_info().maxsize in (FRAGMENTS_KEPT, WHOLE_PARTS_KEPT) for c in CACHED)


# --- the same bytes as before the change ------------------------------------------------


def rich_map() -> StarMap:
    """Every kind of mark: capital with every symbol, unknown income, a neutral, a
    stack of six counters (four drawn, two counted), dust, a wormhole, a route, a
    move, a battle and a siege, and names that must be escaped."""
    worlds = (WorldMark(Hex(0, 0), "Marrow", 90, "nac", capital=True, depot=True, base=True,
                        shipyard=True, interdicted=True),
              WorldMark(Hex(2, -1), "<script>alert(1)</script>", None),
              WorldMark(Hex(-1, 2), "Quill & Ink", 12, "yel", base=True))
    return StarMap(4, "The Reach & turn 3", "A map <of> the Reach", POWERS, worlds,
                   (Route((Hex(0, 0), Hex(1, 0), Hex(2, -1))),),
                   (*(CounterMark(Hex(1, 1), ("nac", "yel")[i % 2], str(i)) for i in range(6)),
                    CounterMark(Hex(-2, 0), "ghost", "<i>")),
                   (Move(Hex(-2, 0), Hex(0, 0), "yel"), Move(Hex(1, 1), Hex(1, 1), "nac")),
                   (Marker(Hex(0, 0), "siege", "YEL besieges Marrow"),
                    Marker(Hex(1, 1), "battle", "A fight <here>")),
                   dust=(Hex(3, 0), Hex(0, -3)), wormholes=((Hex(-3, 0), Hex(3, -3)),))


def plane() -> PlaneMap:
    return PlaneMap(10, "The map & more", "A test map", POWERS,
                    (SystemMark(0, 8, 3, "Cedar <Point>", 400, "nac", "nac", "G", depot=True,
                                base=True, shipyard=True, capital=True),
                     SystemMark(-4.5, -2, -1, "Quill", 150, "yel", "nac", "M"),
                     SystemMark(3, 3, 0, "Void", None, None)),
                    (ForceMark(1.5, 2, "nac", "1"), ForceMark(0, 8, "yel", "2")),
                    (Track(0, 8, 1.5, 2, "nac"),), (Burst(1.5, 2, "A battle <here>"),))


def chart() -> Chart:
    return Chart("Treasury & more", "Each <power>", ("t000", "t001", "t002"),
                 (Series("NAC", "#0072B2", "NAC", (100, 1250, -40)),
                  Series("Yellow & Co", "#F0E442", "YEL", (0, 0, 7))))


#: sha256 of each sample as the code before the fragment writer drew it (commit fc93339),
#: the maps since redrawn with their labels and stacks placed clear of each other, bigger
#: counters, broad arrows and a fuller key (branch maps, issue 23), and the chart since
#: drawn with its end labels pushed apart (branch site, issue 23); the maps' initials
#: since drawn dark or light for contrast on their power's colour, and the hex map on a
#: ground of its own (commit b1cc1e0, issue 32: these digests are that commit's, and the
#: faster placement of issue 33 draws the same bytes).
BEFORE = {
    "rich_map": "85c2e70287aeadcb26226f9b80308cdac253a40e02d13f74a50e1aa68bb26e32",
    "plane": "9184003bc54b4b0184c04121f6e11acc9d613227ca344f73185f9ffaf237546a",
    "chart": "4495a86543856330123ddd63c7d4cd4ac83e057e01a231a5b83af9fe472fbc25",
}


def test_the_samples_are_the_bytes_they_were():
    drawn = {"rich_map": render_svg(rich_map(), "map-t003"), "plane": render_plane(plane()),
             "chart": render_chart(chart(), "treasury-t002")}
    for name, svg in drawn.items():
        assert hashlib.sha256(svg.encode()).hexdigest() == BEFORE[name], name
