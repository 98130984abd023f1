"""A long campaign's treasury chart stays legible: a dozen turn labels at most, and
no dot per point once they would crowd the line (the series' title keeps every value)."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET

from hypothesis import given
from hypothesis import strategies as st

from ftpress.maps.chart import (
    LABEL_GAP,
    MAX_DOTS,
    MAX_LABELS,
    Chart,
    Series,
    _labelled,
    render_chart,
    spread,
)

SVG = "{http://www.w3.org/2000/svg}"


def chart(turns: int) -> Chart:
    labels = tuple(f"t{i:03d}" for i in range(turns))
    return Chart("Treasury", "Each power's treasury", labels,
                 (Series("NAC", "#0072B2", "NAC", tuple(100 + 10 * i for i in range(turns))),))


@given(st.integers(1, 400))
def test_labels_are_few_evenly_spaced_and_include_both_ends(count):
    picked = _labelled(count)
    assert picked[0] == 0 and picked[-1] == count - 1
    assert len(picked) <= MAX_LABELS and picked == sorted(set(picked))
    if count <= MAX_LABELS:
        assert picked == list(range(count))


def test_a_hundred_turns_chart_has_a_line_and_a_dozen_labels_but_every_value():
    root = ET.fromstring(render_chart(chart(101)))
    labels = [t.text for t in root.iter(f"{SVG}text") if t.text and t.text.startswith("t")]
    assert labels[0] == "t000" and labels[-1] == "t100" and len(labels) <= MAX_LABELS
    assert not list(root.iter(f"{SVG}circle"))
    assert len(list(root.iter(f"{SVG}polyline"))) == 1
    series = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "series")
    title = series.find(f"{SVG}title").text
    assert re.findall(r"t\d{3} ", title) == [f"t{i:03d} " for i in range(101)]


def test_a_short_chart_keeps_a_dot_and_a_label_for_every_turn():
    root = ET.fromstring(render_chart(chart(MAX_DOTS)))
    assert len(list(root.iter(f"{SVG}circle"))) == MAX_DOTS


@given(st.lists(st.floats(0, 300, allow_nan=False), min_size=1, max_size=12))
def test_spread_labels_never_closer_than_a_label_and_keep_their_order(wanted):
    got = spread(wanted, 13.0, 10.0, 400.0)
    by_wish = [got[i] for i in sorted(range(len(wanted)), key=lambda i: (wanted[i], i))]
    assert all(b - a >= 13.0 - 0.11 for a, b in itertools.pairwise(by_wish))
    assert all(10.0 - 0.05 <= y <= 400.05 for y in got)


def test_end_labels_of_lines_ending_together_do_not_overlap():
    """Five powers whose treasuries end within a few credits of each other: each name
    at the end of its line keeps a label's height from the next."""
    labels = ("t000", "t001")
    series = tuple(Series(n, "#000000", n, (100, 5000 + 3 * k))
                   for k, n in enumerate(("NAC", "NSL", "FSE", "ESU", "SAV")))
    root = ET.fromstring(render_chart(Chart("Treasury", "Each power's treasury", labels, series)))
    ends = sorted(float(t.get("y")) for t in root.iter(f"{SVG}text")
                  if t.text in {"NAC", "NSL", "FSE", "ESU", "SAV"})
    assert len(ends) == 5
    assert all(b - a >= LABEL_GAP - 0.11 for a, b in itertools.pairwise(ends))
