"""The open turn's deadline in the reader's own time when the page's script runs, in
UTC when it does not."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("script", [True, False], ids=["script", "no-script"])
def test_the_deadline_reads_in_the_readers_time(browser, site_url, script):
    context = browser.new_context(timezone_id="Asia/Tokyo", locale="en-GB",
                                  java_script_enabled=script)
    page = context.new_page()
    try:
        page.goto(site_url)
        shown = page.locator(".open-turn time").inner_text()
        panel = " ".join(page.locator(".open-turn").inner_text().split())
    finally:
        context.close()
    if script:  # 20:00 UTC is 05:00 the next morning in Tokyo
        assert shown.startswith("18 May 2026") and "05:00" in shown and "UTC" not in panel
    else:
        assert shown == "17 May 2026, 20:00" and "20:00 UTC;" in panel
