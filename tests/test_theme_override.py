"""A campaign's own theme files win over the built-in theme's, one file at a time:
the demo's masthead (themes/default/_masthead.html at the root of this repository)
and a throw-away campaign's."""

from __future__ import annotations

from pathlib import Path

from ftpress.render.theme import BUILTIN

from conftest import post


def test_the_demo_shows_its_own_masthead_on_every_page_and_the_rest_is_built_in(demo_site):
    assert 'class="crest"' not in (BUILTIN / "_masthead.html").read_text(encoding="utf-8")
    for page in ("index.html", "turns/t001/index.html", "404.html"):
        html = (demo_site / page).read_text(encoding="utf-8")
        assert '<header class="masthead" style="--navy: #1c1633;' in html, page
        assert '<svg class="crest"' in html, page
    # Only the masthead is the demo's: the stylesheet is the built-in theme's, unchanged.
    assert (demo_site / "static/style.css").read_bytes() == (
        BUILTIN / "static/style.css").read_bytes()


def test_a_campaigns_template_wins_and_the_others_still_come_from_ftpress(campaign, run):
    root: Path = campaign({
        "content/posts/2026/04/07-a-post.md": post(),
        "themes/default/_masthead.html": '<header class="masthead">Our own banner</header>\n',
    })
    code, _, err = run("build", "--source", root, "--out", root / "_site")
    assert (code, err) == (0, "")
    html = (root / "_site/posts/2026/04/07/a-post/index.html").read_text(encoding="utf-8")
    assert '<header class="masthead">Our own banner</header>' in html
    assert 'class="site-nav"' not in html  # the built-in masthead's menu is gone
    assert '<article class="post' in html  # the post's own template is still ftpress's
