"""Words a reader sees: counts in the right number, one style of date, the turns
numbered by turn."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from demos import FTCAMP02, SCT

from ftpress.render.theme import long_date
from ftpress.render.words import plural

#: Counted nouns the site writes; "1 posts" and the like must never appear.
NOUNS = ("posts", "powers", "worlds", "players", "events", "counters", "task groups",
         "task-group counters", "words", "tags", "hull boxes", "dummies")
MONTH = ("January|February|March|April|May|June|July|August|September|October|November|"
         "December")


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory, demo_site: Path) -> dict[str, Path]:
    return {"demo": demo_site, "sct": SCT.build_once(tmp_path_factory, "sct"),
            "ftcamp02": FTCAMP02.build_once(tmp_path_factory, "ftcamp02")}


@pytest.mark.parametrize(("count", "noun", "expected"), [
    (1, "post", "1 post"), (0, "post", "0 posts"), (2, "world", "2 worlds"),
    (1, "dummy", "1 dummy"), (3, "dummy", "3 dummies"), (2, "hull box", "2 hull boxes"),
    (1200, "post", "1,200 posts"), (2, "entry", "2 entries")])
def test_plural(count, noun, expected):
    many = "entries" if noun == "entry" else None
    assert plural(count, noun, many) == expected


def test_one_thing_is_never_counted_as_many_on_any_page(sites):
    wrong = re.compile(r"(?<![\d.,+−-])1 (" + "|".join(NOUNS) + r")\b")
    found = [f"{name}/{page.relative_to(site)}: {m.group(0)}"
             for name, site in sites.items() for page in site.rglob("*.html")
             for m in wrong.finditer(page.read_text(encoding="utf-8"))]
    assert found == []


def test_every_date_shown_is_written_one_way(sites):
    """Each <time> reads '7 April 2026' (an edit adds its clock), whatever the page."""
    style = re.compile(rf"\d{{1,2}} ({MONTH}) \d{{4}}(, \d\d:\d\d)?")
    shown = {m for site in sites.values() for page in site.rglob("*.html")
             for m in re.findall(r"<time [^>]*>([^<]*)</time>", page.read_text("utf-8"))}
    assert shown and [d for d in shown if not style.fullmatch(d)] == []
    assert long_date(date(2026, 11, 29)) == "29 November 2026"


def test_the_turns_list_is_numbered_by_turn_with_the_setup_as_0(demo_site):
    html = (demo_site / "turns/index.html").read_text(encoding="utf-8")
    numbers = re.findall(r'<li value="(\d+)"><a href="/ftpress/turns/(t\d{3})/">', html)
    assert numbers[0] == ("9", "t009") and numbers[-1] == ("0", "t000")
    assert all(int(n) == int(t[1:]) for n, t in numbers)


def test_powers_that_sent_no_orders_are_one_or_many(demo_site):
    one = (demo_site / "turns/t001/index.html").read_text(encoding="utf-8")
    assert "No orders came from Sa&#39;Vasku; its groups held." in one
    two = (demo_site / "turns/t009/index.html").read_text(encoding="utf-8")
    assert "No orders came from Eastern Star Union and Sa&#39;Vasku; their groups held." in two
