"""Every page of the demo and of both examples fits a phone and a desktop: nothing
makes the page scroll sideways (a wide table scrolls inside its own box instead);
and no page shows a reader Markdown that was never rendered (``**``, ``[[rule:``),
as a diff of the rules' source text once did.

One browser, one tab per width, every page visited in turn: about half a minute."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest
from demos import FTC2007, FTCAMP02, SCT, Demo

from .conftest import served

WIDTHS = (390, 1280)


def pages(site: Path) -> list[str]:
    """The path of every HTML page of a built site below its root, redirects left out
    (an alias page only sends the browser on to a page already in the list)."""
    found = []
    for file in sorted(site.rglob("*.html")):
        if b'http-equiv="refresh"' in file.read_bytes():
            continue
        rel = file.relative_to(site).as_posix()
        found.append(rel.removesuffix("index.html"))
    return found


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, demo_site: Path) -> dict[str, Path]:
    return {"demo": demo_site,
            "sct": SCT.build_once(tmp_path_factory, "sct"),
            "ftcamp02": FTCAMP02.build_once(tmp_path_factory, "ftcamp02")}


DEMOS: dict[str, Demo] = {"demo": FTC2007, "sct": SCT, "ftcamp02": FTCAMP02}


@pytest.mark.parametrize("width", WIDTHS, ids=["phone", "desktop"])
def test_no_page_is_wider_than_the_window_or_shows_raw_markdown(browser, built, width):
    context = browser.new_context(viewport={"width": width, "height": 844},
                                  is_mobile=width < 500, device_scale_factor=1)
    page = context.new_page()
    too_wide, raw = [], []
    try:
        for name, site in built.items():
            # A phone lays a too-wide page out at its full width and zooms out, so the
            # window's own width would hide the overflow: measure against the viewport.
            with served(site, urlsplit(DEMOS[name].base_url).path) as url:
                for path in pages(site):
                    page.goto(url + path)
                    width_now = page.evaluate("document.documentElement.scrollWidth")
                    if width_now > width:
                        too_wide.append(f"{name}/{path}: {width_now}px")
                    if width == WIDTHS[0]:  # the text is the same at every width
                        # Folded text counts too: a reader opens the fold.
                        text = page.evaluate("document.querySelectorAll('details')"
                                             ".forEach(d => { d.open = true; }),"
                                             " document.body.innerText")
                        raw += [f"{name}/{path}: {mark}" for mark in ("**", "[[rule:")
                                if mark in text]
    finally:
        context.close()
    assert too_wide == []
    assert raw == []
