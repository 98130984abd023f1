"""axe-core on every kind of page: no serious or critical violations."""

from __future__ import annotations

import pytest

PAGE_KINDS = {
    "home": "",
    "home page 2": "page/2/",
    "post": None,  # the newest post, found from the home page
    "post with a table and footnotes": "posts/2026/04/08/damage-is-spread-by-mass/",
    "powers": "players/",
    "power": "players/nac/",
    "systems": "systems/",
    "turns": "turns/",
    "turn report": "turns/t001/",
    "setup report": "turns/t000/",
    "rulebook as of a date": "rules/2026-03-24/",
    "archive": "posts/",
    "year": "posts/2026/",
    "month": "posts/2026/04/",
    "kind": "kinds/rulings/",
    "kinds": "kinds/",
    "tags": "tags/",
    "tag": "tags/economy/",
    "page": "about/",
    "rulebook": "rules/",
    "rule changes": "rules/changes/",
    "search": "search/",
    "not found": "no/such/page/",
}


@pytest.fixture(scope="module")
def axe():
    module = pytest.importorskip("axe_playwright_python.sync_playwright")
    return module.Axe()


@pytest.mark.parametrize("width", [390, 1280], ids=["phone", "desktop"])
@pytest.mark.parametrize("kind", sorted(PAGE_KINDS))
def test_no_serious_accessibility_violations(browser, site_url, axe, kind, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    path = PAGE_KINDS[kind]
    if path is None:
        page.goto(site_url)
        path = page.locator(".card-title a").first.get_attribute("href").removeprefix("/ftpress/")
    page.goto(site_url + path)
    results = axe.run(page)
    serious = [v for v in results.response["violations"]
               if v["impact"] in ("serious", "critical")]
    context.close()
    assert serious == [], "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in serious)


DARK_KINDS = ("home", "post with a table and footnotes", "turn report", "rulebook",
              "rule changes", "kind", "not found")


@pytest.mark.parametrize("kind", DARK_KINDS)
def test_a_dark_system_scheme_gets_a_dark_page_that_still_passes(browser, site_url, axe, kind):
    """``prefers-color-scheme: dark``: the paper turns dark and every colour pair
    axe checks (contrast above all) still passes."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="dark")
    page = context.new_page()
    page.goto(site_url + PAGE_KINDS[kind])
    paper = page.evaluate("getComputedStyle(document.body).backgroundColor")
    results = axe.run(page)
    serious = [v for v in results.response["violations"]
               if v["impact"] in ("serious", "critical")]
    context.close()
    assert paper == "rgb(18, 22, 31)"
    assert serious == [], "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in serious)
