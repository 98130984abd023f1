"""Hex geometry: directions, distance, the hexagon, and "nearest in a direction"."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ftpress.state.hexes import (
    ORIGIN,
    Bearing,
    Hex,
    bearings,
    hexagon,
    in_direction,
    nearest_in_direction,
    on_map,
    ring,
)

hexes = st.builds(Hex, st.integers(-30, 30), st.integers(-30, 30))


@pytest.mark.parametrize(("radius", "count"), [(0, 1), (1, 7), (5, 91), (20, 1261)])
def test_hexagon_sizes(radius, count):
    assert len(hexagon(radius)) == count == len(set(hexagon(radius)))


def test_hexagon_reads_column_by_column_west_to_east_and_north_to_south():
    assert hexagon(1) == (Hex(-1, 0), Hex(-1, 1), Hex(0, -1), Hex(0, 0), Hex(0, 1),
                          Hex(1, -1), Hex(1, 0))


def test_directions_run_clockwise_from_north():
    assert ORIGIN.neighbours() == (Hex(0, -1), Hex(1, -1), Hex(1, 0), Hex(0, 1), Hex(-1, 1),
                                   Hex(-1, 0))
    assert Hex(2, -1).step(4, 3) == Hex(2, 2)


@given(hexes, hexes)
def test_distance_is_a_metric(a, b):
    assert a.distance(b) == b.distance(a) >= 0
    assert (a.distance(b) == 0) == (a == b)
    assert all(a.distance(n) == 1 for n in a.neighbours())


@given(hexes, st.integers(0, 6))
def test_ring_holds_every_hex_at_that_distance_once(centre, radius):
    found = ring(centre, radius)
    assert len(found) == max(1, 6 * radius) == len(set(found))
    assert all(centre.distance(h) == radius for h in found)


@given(hexes, hexes)
def test_every_other_hex_lies_in_one_direction_or_on_the_line_between_two(a, b):
    found = bearings(a, b)
    if a == b:
        assert found == ()
        return
    assert len(found) in (1, 2)
    assert all(f.distance == a.distance(b) for f in found)
    if len(found) == 2:
        first, second = found
        assert second.direction == first.direction % 6 + 1
        assert first.off == -second.off == first.distance / 2 * (1 if first.off > 0 else -1)


@pytest.mark.parametrize(("target", "expected"), [
    (Hex(0, -3), (Bearing(1, 3, 0),)),           # straight north
    (Hex(1, -3), (Bearing(1, 3, 1),)),           # north, one step clockwise off the line
    (Hex(1, -2), (Bearing(1, 2, 1), Bearing(2, 2, -1))),  # on the line between north and north-east
    (Hex(-1, -2), (Bearing(1, 3, -1),)),         # north, one step anticlockwise
    (Hex(2, 0), (Bearing(3, 2, 0),)),            # south-east
])
def test_bearings(target, expected):
    assert bearings(ORIGIN, target) == expected


def test_nearest_in_direction_prefers_near_then_central_then_clockwise():
    assert nearest_in_direction(ORIGIN, 1, [Hex(0, -3), Hex(1, -3)]) == Hex(0, -3)
    assert nearest_in_direction(ORIGIN, 1, [Hex(0, -3), Hex(1, -2)]) == Hex(1, -2)
    # Mirror images either side of the line north: the clockwise one wins.
    assert nearest_in_direction(ORIGIN, 1, [Hex(-1, -2), Hex(1, -3)]) == Hex(1, -3)
    assert nearest_in_direction(ORIGIN, 1, [Hex(0, 3)]) is None
    assert nearest_in_direction(ORIGIN, 1, [Hex(0, -5)], within=4) is None
    assert in_direction(ORIGIN, 4, Hex(0, -1)) is None


def test_on_map():
    assert on_map(Hex(5, -5), 5) and not on_map(Hex(6, 0), 5) and not on_map(Hex(3, 3), 5)


@pytest.mark.parametrize(("text", "hex_"), [("2,-1", Hex(2, -1)), ("(2, -1)", Hex(2, -1)),
                                            (" -3 , 0 ", Hex(-3, 0))])
def test_parse_and_format(text, hex_):
    assert Hex.parse(text) == hex_
    assert Hex.parse(str(hex_)) == hex_
    assert eval(repr(hex_)) == hex_


def test_parse_refuses_anything_else():
    with pytest.raises(ValueError, match="'E7' is not a hex; expected 'q,r' such as '2,-1'"):
        Hex.parse("E7")
