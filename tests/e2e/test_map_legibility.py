"""Every turn map of the demo and both examples reads at a phone's and a desktop's
width: its smallest text, as drawn (font size times the map's scale on screen), is at
least 9 px at 390 px wide and 11 px at 1280; no label (a world's name or value) overlaps
a counter or another label; screenshots of each map are kept under test-artifacts/."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from .conftest import ARTIFACTS, served
from .test_every_page_fits import DEMOS, built  # noqa: F401 (a fixture)

SMALLEST = {390: 9.0, 1280: 11.0}

#: In the page: the smallest text of every map as drawn, and each pair of boxes that
#: overlap, a label (a world's name or value) against a counter or another label.
MEASURE = """() => {
  const found = {smallest: Infinity, text: '', overlaps: []};
  const boxes = [];
  for (const svg of document.querySelectorAll('svg.starmap')) {
    for (const t of svg.querySelectorAll('text')) {
      const r = t.getBoundingClientRect();
      if (r.width === 0) continue;
      const px = t.getScreenCTM().a * parseFloat(getComputedStyle(t).fontSize);
      if (px < found.smallest) { found.smallest = px; found.text = t.textContent; }
      const cls = t.getAttribute('class') || '';
      if (cls === 'name' || cls === 'value') boxes.push({what: cls + ' ' + t.textContent, r});
    }
    for (const c of svg.querySelectorAll('.counter rect')) {
      boxes.push({what: 'counter ' + c.parentNode.querySelector('title').textContent,
                  r: c.getBoundingClientRect(), counter: true});
    }
  }
  const cut = 0.5;  // antialiasing: boxes that touch do not overlap
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    if (a.counter && b.counter) continue;  // a stack's counters lie on each other
    if (a.r.left + cut < b.r.right && b.r.left + cut < a.r.right &&
        a.r.top + cut < b.r.bottom && b.r.top + cut < a.r.bottom)
      found.overlaps.push(a.what + ' / ' + b.what);
  }
  return found;
}"""


@pytest.mark.parametrize("width", sorted(SMALLEST), ids=["phone", "desktop"])
def test_turn_maps_read_at_every_width(browser, built, width):  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": 844},
                                  is_mobile=width < 500, device_scale_factor=1)
    page = context.new_page()
    small, overlapping = [], []
    folder = ARTIFACTS / "maps"
    folder.mkdir(parents=True, exist_ok=True)
    try:
        for name, site in built.items():
            with served(site, urlsplit(DEMOS[name].base_url).path) as url:
                for turn in sorted(p.name for p in (site / "turns").glob("t[0-9]*")):
                    page.goto(f"{url}turns/{turn}/")
                    found = page.evaluate(MEASURE)
                    if found["smallest"] < SMALLEST[width]:
                        small.append(f"{name}/{turn}: {found['smallest']:.1f}px "
                                     f"({found['text']!r})")
                    overlapping += [f"{name}/{turn}: {o}" for o in found["overlaps"]]
                    page.locator("svg.starmap").first.screenshot(
                        path=str(folder / f"{name}-{turn}-{width}.png"))
    finally:
        context.close()
    assert small == []
    assert overlapping == []
