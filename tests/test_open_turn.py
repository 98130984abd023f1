"""The open turn on the site: the front page and /turns/ name it, give its deadline
(in UTC, which a script turns into the reader's time), say honestly whether it has
passed, and who has sent orders and who has not; order files count plain or sealed."""

from __future__ import annotations

import dataclasses
import html
import re
from datetime import UTC, datetime
from pathlib import Path

from demos import FTC2007, Demo

from ftpress.orders.sent import senders
from ftpress.render.openturn import open_turn

NAMES = ("New Anglian Confederation, Neue Swabian League, Federated States of Europa, "
         "Eastern Star Union, Sa'Vasku")


def panel(page: Path) -> str:
    found = re.search(r'<section class="open-turn".*?</section>', page.read_text("utf-8"), re.S)
    assert found is not None, page
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", found.group(0))).split())


def test_the_demo_says_its_open_turn_waits_for_the_umpire(demo_site):
    """The demo's turn 10 was due in May and the site is built in November."""
    expected = ("Now open: Turn 10 The deadline passed on 17 May 2026, 20:00 UTC; the turn "
                "waits for the umpire to resolve it. Orders have come from 0 of 5 powers. "
                f"Still to send: {NAMES}.")
    assert panel(demo_site / "index.html") == expected
    assert panel(demo_site / "turns/index.html") == expected
    page = (demo_site / "index.html").read_text("utf-8")
    assert '<time class="local-time" datetime="2026-05-17T20:00:00+00:00">' in page
    assert "static/times.js" in page


def test_who_has_sent_orders_plain_or_sealed(tmp_path: Path):
    folder = tmp_path / "orders" / "t010"
    folder.mkdir(parents=True)
    (folder / "nac.yaml").write_text("turn: t010\n")
    (folder / "fse.yaml.age").write_bytes(b"age-encryption.org/v1\n")
    (folder / "esu.txt").write_text("not an order file\n")
    assert senders(tmp_path, "t010", ["nac", "nsl", "fse", "esu"]) == ("nac", "fse")
    state = FTC2007.state()  # as an open campaign's: plain order files count
    state = dataclasses.replace(state, campaign=dataclasses.replace(
        state.campaign, settings=dataclasses.replace(state.campaign.settings, secrecy=None)))
    sent = senders(tmp_path, "t010", [p.id for p in state.players.players])
    before = open_turn(state, datetime(2026, 5, 10, tzinfo=UTC), sent)
    assert (before.title, before.passed, before.paused) == ("Turn 10", False, False)
    assert before.sent == ("New Anglian Confederation", "Federated States of Europa")
    assert before.waiting == ("Neue Swabian League", "Eastern Star Union", "Sa'Vasku")
    assert before.deadline_utc == "17 May 2026, 20:00"
    assert open_turn(state, datetime(2026, 5, 17, 20, tzinfo=UTC), sent).passed


def test_before_its_deadline_the_turn_says_when_orders_are_due(tmp_path: Path):
    """Built a week before the deadline: due by then, and a sentence, hidden, that the
    page's script shows once the reader's clock is past it."""
    site = Demo(FTC2007.root, "2026-05-10T12:00:00+00:00").build(tmp_path / "_site")
    text = panel(site / "index.html")
    assert text.startswith("Now open: Turn 10 Orders are due by 17 May 2026, 20:00 UTC.")
    page = (site / "turns/index.html").read_text("utf-8")
    assert ('<span class="open-turn-late" hidden> That time has passed; the turn waits for '
            "the umpire to resolve it.</span>") in page
