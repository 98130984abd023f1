"""``ftpress calendar``: the umpire extends, pauses or resumes the open turn's deadline."""

from __future__ import annotations

import argparse
from pathlib import Path

from ftpress.files.clock import build_now
from ftpress.store.calendar_edits import extend, pause, resume
from ftpress.text.logsafe import say


def arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    more = actions.add_parser("extend", help="move the open turn's deadline later")
    more.add_argument("by", metavar="SPAN", help="how much later: 90m, 6h, 2d")
    actions.add_parser("pause", help="stop the deadline running: the turn is not due")
    actions.add_parser("resume", help="let it run again, later by as long as it was paused")
    for sub in actions.choices.values():
        sub.add_argument("--now", help="the time as an ISO date-time (default: "
                         "SOURCE_DATE_EPOCH, else the clock)")
        sub.add_argument("--source", type=Path, default=Path())


def run(args: argparse.Namespace) -> int:
    now = build_now(args.now)
    if args.action == "extend":
        say(extend(args.source, args.by, now))
    elif args.action == "pause":
        say(pause(args.source, now))
    else:
        say(resume(args.source, now))
    return 0
