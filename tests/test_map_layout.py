"""Maps that read: each world's value and name, and each counter stack, stand clear of
every disc, mark and each other (by the boxes the layout reserves), inside the map; the
key explains every mark the map draws; a map says the width it reads at."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from ftpress.maps.canvas import COUNTER_H, COUNTER_W
from ftpress.maps.placing import Item, Rect, TextSpot, arrange, text_rect
from ftpress.maps.starmap import (
    CounterMark,
    Marker,
    Move,
    Route,
    StarMap,
    WorldMark,
    centre,
    colour_powers,
    render_svg,
)
from ftpress.state.hexes import hexagon

SVG = "{http://www.w3.org/2000/svg}"
POWERS = colour_powers([("nac", "New Anglian Confederation"), ("esu", "Eastern Star Union")])


NAMES = ("Arcturus Gate", "Hollow Crown", "Port Anselm", "Peregrine", "Kessel Drift",
         "Eastmarch", "Wyrdmoor", "Avalon Deep", "New Carthage", "Greywater")


def crowded() -> StarMap:
    """Worlds on every other hex of a small map, as dense as the demo's, long names,
    a stack of counters on several, a route, a move and a battle."""
    hexes = [h for h in hexagon(3) if (h.q + 2 * h.r) % 2 == 0]
    worlds = tuple(WorldMark(h, NAMES[i % len(NAMES)], 100 if i % 3 else None,
                             "nac" if i % 2 else None, capital=i == 0, depot=i % 4 == 0,
                             base=i % 5 == 0, shipyard=i % 3 == 0)
                   for i, h in enumerate(hexes))
    counters = tuple(CounterMark(h, "esu" if j % 2 else "nac", f"{i}.{j}")
                     for i, h in enumerate(hexes[::3]) for j in range(3 + i % 4))
    return StarMap(4, "Crowded", "A crowded map", POWERS, worlds,
                   (Route((hexes[0], hexes[1], hexes[2])),), counters,
                   (Move(hexes[4], hexes[5], "esu"),), (Marker(hexes[0], "battle", "A fight"),))


def boxes(svg: str) -> list[tuple[str, Rect]]:
    """The box of every world's value and name (as the layout measures text) and of
    every counter, read back from the drawn map."""
    root = ET.fromstring(svg)
    found = []
    for t in root.iter(f"{SVG}text"):
        if t.get("class") in ("value", "name"):
            spot = TextSpot(float(t.get("x")), float(t.get("y")), t.get("text-anchor"))
            found.append((f"{t.get('class')} {t.text}",
                          text_rect(spot, t.text, float(t.get("font-size")))))
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "counter":
            r = g.find(f"{SVG}rect")
            x, y = float(r.get("x")), float(r.get("y"))
            found.append((f"counter {g.find(f'{SVG}title').text}",
                          Rect(x, y, x + COUNTER_W, y + COUNTER_H)))
    return found


def test_no_label_or_counter_covers_another_a_disc_or_the_edge():
    m = crowded()
    placed = boxes(render_svg(m))
    discs = [(w.name, Rect(centre(w.hex)[0] - 13, centre(w.hex)[1] - 13,
                           centre(w.hex)[0] + 13, centre(w.hex)[1] + 13)) for w in m.worlds]
    clashes = [(a, b) for (a, ra), (b, rb) in itertools.combinations(placed, 2)
               if ra.hits(rb) and not (a.startswith("counter") and b.startswith("counter"))]
    over_discs = [(a, w) for a, ra in placed for w, rw in discs if ra.hits(rw)]
    assert clashes == [] and over_discs == []


def test_a_stack_stands_beside_its_world_not_on_it():
    m = crowded()
    placed = dict(boxes(render_svg(m)))
    first = placed["counter Task group 0.0 (New Anglian Confederation)"]
    x, y = centre(m.worlds[0].hex)
    assert not first.hits(Rect(x - 13, y - 13, x + 13, y + 13))
    assert abs((first.left + first.right) / 2 - x) < 80 and abs(first.top - y) < 80


def test_arrange_takes_the_first_free_spot_and_places_clashes_first_again():
    bounds = Rect(0, 0, 100, 100)
    wall = Rect(0, 0, 10, 10)
    a = Item((Rect(0, 0, 10, 10), Rect(20, 0, 30, 10)))
    b = Item((Rect(20, 0, 30, 10), Rect(40, 0, 50, 10)))
    assert arrange(bounds, [wall], [], [a, b]) == [1, 1]
    # Outside the map counts as covered.
    assert arrange(bounds, [], [], [Item((Rect(95, 0, 105, 10), Rect(80, 0, 90, 10)))]) == [1]


def test_the_key_explains_counters_values_unknowns_moves_and_battles():
    root = ET.fromstring(render_svg(crowded()))
    legend = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "legend")
    texts = [t.text for t in legend.iter(f"{SVG}text")]
    for entry in ("task group (a counter)", "income (above a world)", "income not yet scouted",
                  "move this turn", "battle this turn", "New Anglian Confederation"):
        assert entry in texts
    assert "siege this turn" not in texts  # none on this map


def test_a_map_says_the_width_its_smallest_text_reads_at():
    root = ET.fromstring(render_svg(crowded()))
    width = float(root.get("viewBox").split()[2])
    assert root.get("style") == f"--map-min: {width * 11.5 / 10:.0f}px"
    sizes = {float(t.get("font-size")) for t in root.iter(f"{SVG}text") if t.get("font-size")}
    assert min(sizes) == 10.0


# --- the fast placing loop decides as the plain definition does ------------------------

def _plain_arrange(bounds: Rect, solid: list[Rect], lines: list[Rect],
                   items: list[Item]) -> list[int]:
    """arrange's definition, every candidate priced against every box (no grid, no
    early stop): the fast loop must choose exactly as this does."""
    order = list(range(len(items)))
    best: tuple[int, list[int]] | None = None
    for _ in range(6):
        placed: list[Rect] = []
        chosen, clashed = [0] * len(items), []
        for index in order:
            costs = []
            for rect in items[index].candidates:
                inside = (bounds.left <= rect.left and rect.right <= bounds.right
                          and bounds.top <= rect.top and rect.bottom <= bounds.bottom)
                cost = 100 * (sum(r.hits(rect) for r in [*solid, *placed]) + (not inside))
                if items[index].mind_lines:
                    cost += sum(r.hits(rect) for r in lines)
                costs.append(cost)
            chosen[index] = costs.index(min(costs))
            if min(costs) >= 100:
                clashed.append(index)
            placed.append(items[index].candidates[chosen[index]])
        if best is None or len(clashed) < best[0]:
            best = (len(clashed), chosen)
        if not clashed:
            break
        order = clashed + [i for i in order if i not in clashed]
    assert best is not None
    return best[1]


_COORD = st.integers(-200, 200).map(float)
_RECT = st.builds(lambda x, y, w, h: Rect(x, y, x + w, y + h), _COORD, _COORD,
                  st.integers(1, 150).map(float), st.integers(1, 40).map(float))


@settings(max_examples=300, deadline=None)
@given(solid=st.lists(_RECT, max_size=8), lines=st.lists(_RECT, max_size=8),
       items=st.lists(st.builds(Item, st.lists(_RECT, min_size=1, max_size=6).map(tuple),
                                st.booleans()), max_size=14))
def test_arrange_chooses_as_its_plain_definition(solid, lines, items):
    bounds = Rect(-150.0, -150.0, 150.0, 150.0)
    assert arrange(bounds, solid, lines, items) == _plain_arrange(bounds, solid, lines, items)
