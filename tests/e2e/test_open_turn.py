"""The open turn's deadline in the reader's own time when the page's script runs, in
UTC when it does not; either way in the site's one date style, whatever the
browser's locale."""

from __future__ import annotations

import pytest

#: (zone, locale, the deadline as the panel reads it). The demo's deadline is
#: 17 May 2026, 20:00 UTC.
READERS = [
    ("Asia/Tokyo", "en-GB", "18 May 2026, 05:00 UTC+9"),
    ("Asia/Tokyo", "en-US", "18 May 2026, 05:00 UTC+9"),
    ("Asia/Kolkata", "de-DE", "18 May 2026, 01:30 UTC+5:30"),
    ("America/New_York", "ja-JP", "17 May 2026, 16:00 UTC\u22124"),
    ("UTC", "fr-FR", "17 May 2026, 20:00 UTC"),
]


def _panel(browser, site_url, zone: str, locale: str, script: bool) -> tuple[str, str]:
    context = browser.new_context(timezone_id=zone, locale=locale, java_script_enabled=script)
    page = context.new_page()
    try:
        page.goto(site_url)
        shown = page.locator(".open-turn time").inner_text()
        panel = " ".join(page.locator(".open-turn").inner_text().split())
    finally:
        context.close()
    return shown, panel


@pytest.mark.parametrize(("zone", "locale", "expected"), READERS,
                         ids=[f"{z}-{loc}" for z, loc, _ in READERS])
def test_the_deadline_reads_in_the_readers_time_in_the_sites_style(browser, site_url, zone,
                                                                   locale, expected):
    shown, panel = _panel(browser, site_url, zone, locale, script=True)
    assert shown == expected.rsplit(" UTC", 1)[0]
    assert expected in panel


def test_without_script_the_deadline_reads_in_utc(browser, site_url):
    shown, panel = _panel(browser, site_url, "Asia/Tokyo", "en-US", script=False)
    assert shown == "17 May 2026, 20:00" and "17 May 2026, 20:00 UTC" in panel
