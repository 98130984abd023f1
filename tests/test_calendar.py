"""The umpire's changes to the deadline (``ftpress calendar extend|pause|resume``),
recorded on the calendar, and the reminder to players who have sent no orders."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml

from ftpress.state.model import Calendar
from ftpress.turn.orders_window import Window

NOW = "2026-03-01T10:00:00+00:00"  # t001's orders are due 2026-03-08 20:00 UTC


@pytest.fixture
def campaign(tmp_path, run, monkeypatch) -> Path:
    monkeypatch.setenv("FTPRESS_UMPIRE_SECRET", "secret")
    root = tmp_path / "reach"
    assert run("init", root, "--secrecy", "open", "--players", "nac,nsl,fse",
               "--player", "nac:alice:101",
               "--seed", "42", "--now", NOW)[0] == 0
    return root


def calendar(root: Path) -> dict:
    return yaml.safe_load((root / "state/campaign.yaml").read_text())["calendar"]


def test_an_extension_moves_the_deadline_and_is_recorded(campaign, run):
    assert run("calendar", "extend", "2d", "--source", campaign, "--now", "2026-03-07T12:00:00Z") \
        == (0, "t001's orders are now due 2026-03-10 20:00 UTC, 2 days later than 2026-03-08 "
            "20:00 UTC\n", "")
    cal = calendar(campaign)
    assert cal["deadline"] == datetime(2026, 3, 10, 20, tzinfo=UTC)
    assert cal["changes"] == [{"at": datetime(2026, 3, 7, 12, tzinfo=UTC), "change": "extend",
                               "deadline": datetime(2026, 3, 10, 20, tzinfo=UTC), "by": "2d"}]
    assert run("check", "--source", campaign)[0] == 0
    _, out, _ = run("status", "--source", campaign, "--now", "2026-03-09T10:00:00Z")
    assert "orders due: 2026-03-10 20:00:00+00:00\n" in out and "due: no" in out


def test_a_paused_deadline_is_never_due_and_resuming_adds_the_pause(campaign, run):
    source = ("--source", campaign)
    assert run("calendar", "pause", *source, "--now", "2026-03-05T20:00:00Z")[1] == (
        "t001's deadline (2026-03-08 20:00 UTC) is paused: the turn is not due and no orders are "
        "late until ftpress calendar resume\n")
    code, out, _ = run("turn", "--if-due", *source, "--now", "2026-03-20T10:00:00Z")
    assert (code, out) == (0, "t001 is not due: the umpire has paused its deadline (ftpress "
                              "calendar resume); nothing was done\n")
    assert run("calendar", "resume", *source, "--now", "2026-03-07T08:00:00Z")[1] == (
        "t001's deadline runs again: orders are due 2026-03-10 08:00 UTC, 1 day 12 hours later, "
        "as long as the pause lasted\n")
    cal = calendar(campaign)
    assert "paused" not in cal and [c["change"] for c in cal["changes"]] == ["pause", "resume"]
    # The turn resolves; its record keeps the changes, the next turn starts with none.
    assert run("turn", *source, "--now", "2026-03-11T10:00:00Z")[0] == 0
    before = yaml.safe_load((campaign / "state/turns/t001/before/campaign.yaml").read_text())
    assert [c["change"] for c in before["calendar"]["changes"]] == ["pause", "resume"]
    assert "changes" not in calendar(campaign)
    assert run("turn", *source, "--verify", "t001")[0] == 0


def test_no_orders_are_late_while_the_deadline_is_paused():
    cal = Calendar(datetime(2026, 3, 1).date(), 1, 1, datetime(2026, 3, 8, 20, tzinfo=UTC),
                   paused=True)
    assert Window.of(cal).closed(datetime(2026, 4, 1, tzinfo=UTC)) is None


@pytest.mark.parametrize(("args", "message"), [
    (("extend", "soon"), "ftpress: calendar extend 'soon' is not a span of time; expected a "
     "number of minutes, hours or days, such as 90m, 6h or 2d\n"),
    (("extend", "0"), "ftpress: calendar extend 0: expected a span to extend the deadline by, "
     "such as 2d\n"),
    (("resume",), "ftpress: t001's deadline is not paused; nothing changed\n"),
])
def test_calendar_refusals_change_nothing(campaign, run, args, message):
    before = (campaign / "state/campaign.yaml").read_bytes()
    assert run("calendar", *args, "--source", campaign) == (1, "", message)
    assert (campaign / "state/campaign.yaml").read_bytes() == before


def test_a_paused_deadline_cannot_be_paused_again_or_extended(campaign, run):
    assert run("calendar", "pause", "--source", campaign)[0] == 0
    assert run("calendar", "pause", "--source", campaign) == (
        1, "", "ftpress: t001's deadline is paused already; nothing changed\n")
    assert run("calendar", "extend", "1d", "--source", campaign) == (
        1, "", "ftpress: t001's deadline is paused; resume it first (ftpress calendar resume)\n")


def with_reminder(root: Path, reminder: str) -> None:
    text = (root / "state/campaign.yaml").read_text()
    (root / "state/campaign.yaml").write_text(
        text.replace("calendar:\n", f"calendar:\n  reminder: {reminder}\n", 1))


@pytest.mark.parametrize(("now", "reminded"), [
    ("2026-03-07T19:59:00+00:00", None),  # before the hour that starts a day before
    ("2026-03-07T20:00:00+00:00", "1 day"),
    ("2026-03-07T20:59:00+00:00", "23 hours 1 minute"),
    # A late or dropped hourly run: the first run in the span still finds it due (the
    # workflow posts it once per turn, by the mark on its first line).
    ("2026-03-08T17:30:00+00:00", "2 hours 30 minutes"),
    ("2026-03-08T20:00:00+00:00", None),  # the deadline: too late to remind
])
def test_the_reminder_names_who_has_not_sent_orders_from_a_day_before_the_deadline(
        campaign, run, now, reminded):
    with_reminder(campaign, "1d")
    (campaign / "orders/t001").mkdir()
    (campaign / "orders/t001/nsl.yaml").write_text("turn: t001\nplayer: nsl\ngroups: {}\n")
    code, out, err = run("remind", "--source", campaign, "--now", now)
    assert (code, err) == (0, "")
    assert out == ("<!-- ftpress:reminder:t001 -->\n"
                   f"Orders for t001 are due 2026-03-08 20:00 UTC (in {reminded}). Not sent "
                   "yet: @alice (nac), fse. To send yours: send orders/t001/<your-id>.yaml in "
                   "a pull request from your fork.\n" if reminded else "")


def test_no_reminder_unless_the_calendar_asks_for_one_or_when_everyone_has_sent(campaign, run,
                                                                               tmp_path):
    out = tmp_path / "reminder.md"
    assert run("remind", "--source", campaign, "--now", "2026-03-07T20:00:00Z", "--out", out) \
        == (0, "", "")
    assert not out.exists()
    with_reminder(campaign, "1d")
    (campaign / "orders/t001").mkdir()
    for player in ("nac", "nsl", "fse"):
        (campaign / f"orders/t001/{player}.yaml").write_text(f"turn: t001\nplayer: {player}\n")
    assert run("remind", "--source", campaign, "--now", "2026-03-07T20:00:00Z", "--out", out) \
        == (0, "", "")
    assert not out.exists()
