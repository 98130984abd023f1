"""Archives a reader can scan and tags in the order people count."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from ftpress.render.blog import natural_key

from conftest import post


def test_tags_sort_by_the_numbers_in_them():
    tags = ["rule-10", "rule-2", "economy", "rule-1", "turn-13", "rule-10.2", "turn-9"]
    assert sorted(tags, key=natural_key) == [
        "economy", "rule-1", "rule-2", "rule-10", "rule-10.2", "turn-9", "turn-13"]


@given(st.lists(st.integers(0, 500), min_size=1, unique=True))
def test_numbered_tags_sort_as_their_numbers_do(numbers):
    tags = [f"rule-{n}" for n in numbers]
    assert sorted(tags, key=natural_key) == [f"rule-{n}" for n in sorted(numbers)]


def test_the_tags_page_lists_rule_tags_in_natural_order(demo_site):
    html = (demo_site / "tags/index.html").read_text(encoding="utf-8")
    rules = re.findall(r'<a href="/ftpress/tags/(rule-\d+)/">', html)
    assert rules == sorted(rules, key=lambda t: int(t.split("-")[1]))
    assert rules.index("rule-2") < rules.index("rule-10")


def test_a_year_and_a_month_list_a_line_per_post_and_a_day_keeps_its_cards(demo_site):
    year = (demo_site / "posts/2026/index.html").read_text(encoding="utf-8")
    month = (demo_site / "posts/2026/04/index.html").read_text(encoding="utf-8")
    posts = list((demo_site / "posts/2026").glob("*/*/*/index.html"))
    april = list((demo_site / "posts/2026/04").glob("*/*/index.html"))
    assert 'class="card ' not in year and 'class="card ' not in month
    assert year.count('<li class="post-line ') == len(posts)
    assert month.count('<li class="post-line ') == len(april)
    assert ('<li class="post-line kind-status"><time datetime="2026-04-14T22:15:00+01:00">'
            in month)
    day = (demo_site / "posts/2026/04/14/index.html").read_text(encoding="utf-8")
    assert '<article class="card kind-status">' in day


def test_a_rule_tag_links_to_its_rule_and_another_tag_to_none(campaign, run):
    root = campaign({
        "content/rules/10-defences.md": "---\nrule: 10\ntitle: Defences\ndate: 2026-03-02\n"
                                        "---\n## 10.1 Attack\nText.\n",
        "content/posts/2026/04/07-a.md": post(extra="tags: [rule-10, rule-99, sieges]\n"),
    })
    assert run("build", "--source", root, "--out", root / "_site")[0] == 0
    rule10 = (root / "_site/tags/rule-10/index.html").read_text(encoding="utf-8")
    assert ('<p class="intro related-rule">About <a href="/camp/rules/#r-10">rule 10, '
            'Defences</a>, as the rulebook now stands.</p>') in rule10
    for other in ("rule-99", "sieges"):
        assert "related-rule" not in (root / f"_site/tags/{other}/index.html").read_text()
