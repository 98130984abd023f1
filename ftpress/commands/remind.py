"""``ftpress remind``: the reminder to the players who have not sent orders, when
it falls due (``calendar.reminder`` before the deadline), for the publishing
workflow to post as a comment. Names players, never what anybody ordered.

The workflow runs every hour, so the reminder is due in the hour (``--window``)
that starts ``calendar.reminder`` before the deadline: one run in that hour
posts it. Nothing is printed, and no file written, at any other time.
"""

from __future__ import annotations

import argparse
from datetime import datetime, timedelta
from pathlib import Path

from ftpress.commands.status import turn_status
from ftpress.errors import InvalidArgument
from ftpress.site.clock import build_now
from ftpress.store.campaign import load_state
from ftpress.text import durations
from ftpress.text.logsafe import say


def reminder(root: Path, now: datetime, window: timedelta) -> str | None:
    """The reminder's Markdown, or None when none is due at ``now``."""
    loaded = load_state(root)
    if loaded is None:
        return None
    cal = loaded.state.campaign.calendar
    if cal.reminder is None or cal.paused:
        return None
    status = turn_status(root, now)
    start = status.deadline - durations.parse(cal.reminder)
    if not status.missing or not start <= now < start + window or now >= status.deadline:
        return None
    logins = {p.id: p.github for p in loaded.state.players.players}
    names = [f"@{logins[p]} ({p})" if logins.get(p) else p for p in status.missing]
    return (f"Orders for {status.turn} are due {durations.utc(status.deadline)} "
            f"({durations.relative(status.deadline, now)}). Not sent yet: "
            f"{', '.join(names)}. Send them as a pull request adding "
            f"`orders/{status.turn}/<your-id>.yaml`.\n")


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, metavar="FILE",
                        help="write the reminder here when it is due (default: print it)")
    parser.add_argument("--window", default="1h", metavar="SPAN",
                        help="how often the workflow runs: the reminder is due for this long "
                        "(default 1h)")
    parser.add_argument("--now", help="the time as an ISO date-time (default: "
                        "SOURCE_DATE_EPOCH, else the clock)")
    parser.add_argument("--source", type=Path, default=Path())


def run(args: argparse.Namespace) -> int:
    try:
        window = durations.parse(args.window)
    except ValueError as exc:
        raise InvalidArgument(f"--window {exc}") from None
    if args.out is not None:
        args.out.unlink(missing_ok=True)
    text = reminder(args.source, build_now(args.now), window)
    if text is None:
        return 0
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    else:
        say(text.rstrip("\n"))
    return 0
