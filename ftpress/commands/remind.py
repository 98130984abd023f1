"""``ftpress remind``: the reminder to the players who have not sent orders, when
it falls due (``calendar.reminder`` before the deadline), for the publishing
workflow to post as a comment. Names players, never what anybody ordered.

The reminder is due from ``calendar.reminder`` before the deadline until the
deadline, while someone has not sent orders. Scheduled runs can be late or
dropped, so the first publishing run that finds it due posts it, whenever in that
span it comes; its first line marks the turn (:func:`marker`), and the workflow
posts it only if no comment of the bot's holds that mark: once per turn. Nothing
is printed, and no file written, when it is not due.
"""

from __future__ import annotations

import argparse
from datetime import datetime
from pathlib import Path

from ftpress.commands.status import turn_status
from ftpress.files.clock import build_now
from ftpress.store import open_at_hand
from ftpress.store.campaign import load_state
from ftpress.text import durations
from ftpress.text.logsafe import say


def reminder(root: Path, now: datetime) -> str | None:
    """The reminder's Markdown, or None when none is due at ``now``."""
    loaded = load_state(root)
    if loaded is None:
        return None
    cal = loaded.state.campaign.calendar
    if cal.reminder is None or cal.paused:
        return None
    status = turn_status(root, now)
    start = status.deadline - durations.parse(cal.reminder)
    if not status.missing or not start <= now < status.deadline:
        return None
    logins = {p.id: p.github for p in loaded.state.players.players}
    names = [f"@{logins[p]} ({p})" if logins.get(p) else p for p in status.missing]
    how = open_at_hand(root).how_to_send(status.turn)
    return (f"{marker(status.turn)}\n"
            f"Orders for {status.turn} are due {durations.utc(status.deadline)} "
            f"({durations.relative(status.deadline, now)}). Not sent yet: "
            f"{', '.join(names)}. To send yours: {how}.\n")


def marker(turn: str) -> str:
    """The reminder's first line, invisible on GitHub: a comment of the bot's that holds
    it is the record that ``turn``'s reminder went out."""
    return f"<!-- ftpress:reminder:{turn} -->"


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, metavar="FILE",
                        help="write the reminder here when it is due (default: print it)")
    parser.add_argument("--now", help="the time as an ISO date-time (default: "
                        "SOURCE_DATE_EPOCH, else the clock)")
    parser.add_argument("--source", type=Path, default=Path())


def run(args: argparse.Namespace) -> int:
    if args.out is not None:
        args.out.unlink(missing_ok=True)
    text = reminder(args.source, build_now(args.now))
    if text is None:
        return 0
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    else:
        say(text.rstrip("\n"))
    return 0
