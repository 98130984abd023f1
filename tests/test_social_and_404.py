"""Small things a reader meets: a turn shared on social media shows its map, and the
404 page offers the search."""

from __future__ import annotations

import re


def test_a_turn_page_names_its_own_map_as_the_preview_image(demo_site):
    html = (demo_site / "turns/t005/index.html").read_text(encoding="utf-8")
    # SVG: ftpress draws no raster image of a map (see turn.html).
    assert ('<meta property="og:image" content="https://ftpress.github.io/ftpress/turns/t005/'
            'map.svg">\n<meta property="og:image:type" content="image/svg+xml">') in html
    assert (demo_site / "turns/t005/map.svg").is_file()
    assert re.search(r'<meta property="og:image:alt" content="The map after Turn 5">', html)


def test_the_404_page_has_a_search_box_that_goes_to_the_search_page(demo_site):
    html = (demo_site / "404.html").read_text(encoding="utf-8")
    assert ('<form class="search-form lost-search" role="search" action="/ftpress/search/" '
            'method="get">') in html
    assert '<input id="lost-q" type="search" name="q"' in html


def test_without_search_the_404_page_offers_none(campaign, run):
    root = campaign({}, site="title: T\nbase_url: https://example.org/t/\nsearch: false\n")
    assert run("build", "--source", root, "--out", root / "_site")[0] == 0
    assert 'role="search"' not in (root / "_site/404.html").read_text(encoding="utf-8")
