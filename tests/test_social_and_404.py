"""Small things a reader meets: the 404 page offers the search (a turn's preview image
for social media: tests/test_preview_image.py)."""

from __future__ import annotations


def test_the_404_page_has_a_search_box_that_goes_to_the_search_page(demo_site):
    html = (demo_site / "404.html").read_text(encoding="utf-8")
    assert ('<form class="search-form lost-search" role="search" action="/ftpress/search/" '
            'method="get">') in html
    assert '<input id="lost-q" type="search" name="q"' in html


def test_without_search_the_404_page_offers_none(campaign, run):
    root = campaign({}, site="title: T\nbase_url: https://example.org/t/\nsearch: false\n")
    assert run("build", "--source", root, "--out", root / "_site")[0] == 0
    assert 'role="search"' not in (root / "_site/404.html").read_text(encoding="utf-8")
