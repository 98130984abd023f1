"""Turn reports printed on A4 by Chromium, as a reader's "Save as PDF" makes them (the
print style sheet, backgrounds off as Chromium's default is), read back with poppler's
``pdftotext``: the first played turn and the latest of the demo and both examples.

On paper every word of the map (each world's name, income and initials, each counter,
the key) is printed on one page, within the page's width (not cut off at the right)
and at a size that reads; no page is blank; every power's accounts are printed line by
line although they are folded on screen; the colour chips keep their colour; and
nothing meant for a screen is printed ("Scroll the map sideways", "Hover over a
world", "open a power's accounts"). The page is laid out at a phone's width before it
is printed, where the scroll hints are shown, so their absence is no accident. The
PDFs are kept under test-artifacts/print/ to look at."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from .conftest import ARTIFACTS, require, served
from .test_every_page_fits import DEMOS, built  # noqa: F401 (a fixture)

#: Text a screen shows that paper must not: the scroll hints, the map's hover line,
#: the accounts' "open" line.
SCREEN_ONLY = ("Scroll the map sideways", "Scroll the table sideways", "Hover over a world",
               "open a power's accounts")
#: The smallest printed text of a map, in points (a word's box is about its font size).
SMALLEST_PT = 6.0
#: A4's width in points and the style sheet's side margin (12 mm).
PAGE_MARGIN_PT = 12 / 25.4 * 72

#: In the page: every word on the maps, the accounts' captions, the chips' print colour.
READ = """() => ({
  mapWords: [...document.querySelectorAll('svg.starmap text')]
              .flatMap(t => [...t.childNodes].filter(n => n.nodeType === Node.TEXT_NODE)
                                  .map(n => n.textContent).join('').split(/\\s+/))
              .filter(w => w),
  accounts: [...document.querySelectorAll('details.ledger caption')].map(c => c.textContent),
  chips: [...document.querySelectorAll('.power-badge')]
           .map(b => getComputedStyle(b).printColorAdjust),
})"""


@dataclass(frozen=True)
class Word:
    page: int
    text: str
    x_max: float
    height: float


def pdf_words(pdf: Path) -> tuple[list[Word], float, int]:
    """Every word of a PDF with its page and box (``pdftotext -bbox``), the pages' width
    and how many pages there are."""
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], check=True,
                         capture_output=True, text=True).stdout
    words, width, pages = [], 0.0, 0
    for page in re.finditer(r'<page width="([\d.]+)" height="[\d.]+">(.*?)</page>', out, re.S):
        pages += 1
        width = float(page.group(1))
        for word in re.finditer(r'<word xMin="[\d.]+" yMin="([\d.]+)" xMax="([\d.]+)" '
                                r'yMax="([\d.]+)">(.*?)</word>', page.group(2)):
            words.append(Word(pages, html.unescape(word.group(4)), float(word.group(2)),
                              float(word.group(3)) - float(word.group(1))))
    return words, width, pages


#: Each campaign's first and latest turn, and the demo's economic turn: by its §5.4 the
#: public is told a power's money only as an economic turn begins, so the public pages of
#: the demo's other turns print no accounts.
CASES = [*((name, which) for name in ("demo", "sct", "ftcamp02")
           for which in ("first", "latest")), ("demo", "t007")]
#: The cases whose public page must print accounts: sct's money is all public (its
#: rulebook says so), the demo's at its economic turn; FTCamp0.2 keeps no treasury.
WITH_ACCOUNTS = {("sct", "latest"), ("demo", "t007")}


@pytest.mark.parametrize(("name", "which"), CASES, ids=[f"{n}-{w}" for n, w in CASES])
def test_a_printed_turn_report_keeps_its_map_and_accounts(browser, built, name, which):  # noqa: F811
    require(shutil.which("pdftotext") is not None, "pdftotext (poppler-utils)")
    site = built[name]
    turns = sorted(p.name for p in (site / "turns").glob("t[0-9]*") if p.name != "t000")
    turn = {"first": turns[0], "latest": turns[-1]}.get(which, which)
    context = browser.new_context(viewport={"width": 390, "height": 844},
                                  device_scale_factor=1)
    page = context.new_page()
    folder = ARTIFACTS / "print"
    folder.mkdir(parents=True, exist_ok=True)
    pdf = folder / f"{name}-{turn}.pdf"
    try:
        with served(site, urlsplit(DEMOS[name].base_url).path) as url:
            page.goto(f"{url}turns/{turn}/")
            page.wait_for_load_state("load")
            screen = page.evaluate("document.body.innerText")
            page.emulate_media(media="print")
            found = page.evaluate(READ)
            page.pdf(path=str(pdf), format="A4")
    finally:
        context.close()
    words, width, pages = pdf_words(pdf)
    text = " ".join(w.text for w in words)

    # The page as the screen shows it has the hints; paper has none.
    assert "Hover over a world" in screen
    assert [hint for hint in SCREEN_ONLY if hint in text] == []

    # No page is blank.
    assert sorted({w.page for w in words}) == list(range(1, pages + 1))

    # The map: all its words on one page (the one with the key), inside the page's
    # width, none smaller than SMALLEST_PT.
    key_page = next(w.page for w in words if w.text == "counter)")
    on_map = [w for w in words if w.page == key_page]
    missing = sorted(set(found["mapWords"]) - {w.text for w in on_map})
    assert missing == []
    assert [w.text for w in on_map if w.x_max > width - PAGE_MARGIN_PT + 1] == []
    assert min(w.height for w in on_map if w.text in set(found["mapWords"])) >= SMALLEST_PT

    # The accounts, folded on screen, are printed whole, each line of each power's.
    for caption in found["accounts"]:
        assert caption in re.sub(r"\s+", " ", text)
    # (a view not told every fact heads the treasury as told, ftc2007 §5.4)
    assert len(re.findall(r"Treasury (?:as told )?before the turn", text)) \
        >= len(found["accounts"])
    if (name, which) in WITH_ACCOUNTS:
        assert found["accounts"]

    # The colour chips are printed in colour, backgrounds or not.
    assert found["chips"] and set(found["chips"]) == {"exact"}
