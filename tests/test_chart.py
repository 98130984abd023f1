"""A long campaign's treasury chart stays legible: a dozen turn labels at most, and
no dot per point once they would crowd the line (the series' title keeps every value)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from hypothesis import given
from hypothesis import strategies as st

from ftpress.maps.chart import MAX_DOTS, MAX_LABELS, Chart, Series, _labelled, render_chart

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
