"""The SVG star map: well-formed, one element per hex, world and counter, text escaped."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ftpress.maps.starmap import (
    CounterMark,
    Marker,
    Move,
    Route,
    StarMap,
    WorldMark,
    colour_powers,
    render_svg,
)
from ftpress.state.hexes import Hex, hexagon

SVG = "{http://www.w3.org/2000/svg}"
POWERS = colour_powers([("nac", "New Anglian Confederation"), ("esu", "Eastern Star Union")])


def sample(radius: int = 5, counters: int = 3) -> StarMap:
    worlds = (WorldMark(Hex(0, 0), "Marrow", 90, "nac", capital=True, depot=True, base=True,
                        shipyard=True, interdicted=True),
              WorldMark(Hex(2, -1), "<script>alert(1)</script>", None))
    ring = list(hexagon(radius))
    return StarMap(radius, "The Reach & turn 3", "A map <of> the Reach", POWERS, worlds,
                   (Route((Hex(0, 0), Hex(1, 0), Hex(2, -1))),),
                   tuple(CounterMark(ring[i % len(ring)], "esu" if i % 2 else "nac", str(i))
                         for i in range(counters)),
                   (Move(Hex(-2, 0), Hex(0, 0), "esu"),),
                   (Marker(Hex(0, 0), "siege", "ESU besieges Marrow"),))


def test_map_is_well_formed_with_an_element_per_thing():
    root = ET.fromstring(render_svg(sample()))
    assert root.find(f"{SVG}title").text == "The Reach & turn 3"
    assert root.find(f"{SVG}desc").text == "A map <of> the Reach"
    assert len(root.findall(f".//{SVG}polygon[@class='hex']")) == 91
    assert len(root.findall(f".//{SVG}g[@class='world']")) == 2
    assert len(root.findall(f".//{SVG}g[@class='counter']")) == 3


def test_names_are_text_never_markup():
    svg = render_svg(sample())
    assert "<script>" not in svg
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg


def test_every_world_says_what_it_is_to_a_screen_reader():
    root = ET.fromstring(render_svg(sample()))
    titles = [g.find(f"{SVG}title").text for g in root.iter(f"{SVG}g")
              if g.get("class") == "world"]
    assert "Marrow: New Anglian Confederation, income 90, capital, supply depot, base, " \
           "shipyard, interdicted" in titles
    assert any(t.endswith("neutral, income unknown") for t in titles)


def test_same_map_same_bytes():
    assert render_svg(sample()) == render_svg(sample())


def test_radius_20_with_1000_counters_renders():
    root = ET.fromstring(render_svg(sample(radius=20, counters=1000)))
    assert len(root.findall(f".//{SVG}polygon[@class='hex']")) == 1261
    shown = len(root.findall(f".//{SVG}g[@class='counter']"))
    more = sum(int(t.text[1:]) for t in root.iter(f"{SVG}text") if t.get("class") == "more")
    assert shown + more == 1000


def test_one_arrow_per_move_and_one_marker_per_battle_or_siege():
    m = sample()
    root = ET.fromstring(render_svg(m))
    arrows = root.findall(f".//{SVG}g[@class='moves']/{SVG}g[@class='move']")
    assert len(arrows) == len(m.moves) == 1
    # A head broad enough to see, in the mover's colour (ESU's), not a marker's tiny one.
    head = arrows[0].find(f"{SVG}polygon")
    assert head is not None and head.get("fill") == POWERS[1].colour
    sieges = root.findall(f".//{SVG}g[@class='marker siege']")
    assert len(sieges) == 1 and sieges[0].find(f"{SVG}title").text == "ESU besieges Marrow"
    assert root.findall(f".//{SVG}g[@class='marker battle']") == []


def test_a_counter_label_and_a_marker_note_are_text():
    m = sample()
    m = StarMap(m.radius, m.title, m.description, m.powers, m.worlds, m.routes,
                (CounterMark(Hex(0, 0), "nac", "<script>x</script>"),), m.moves,
                (Marker(Hex(1, 0), "battle", "<script>y</script> fight"),))
    svg = render_svg(m)
    assert "<script>" not in svg
    assert "&lt;script&gt;x&lt;/script&gt;" in svg and "&lt;script&gt;y&lt;/script&gt;" in svg
    assert len(ET.fromstring(svg).findall(f".//{SVG}g[@class='counter']")) == 1
