"""``ftpress turn``: resolve the open turn and record it, or verify or redo recorded ones."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from ftpress.checking.campaign import campaign_problems
from ftpress.commands.status import turn_status
from ftpress.errors import InvalidArgument
from ftpress.files.clock import build_now
from ftpress.github.publishing import (
    WorkflowFiles,
    keep_to_the_calendar,
    write_set_aside,
    write_workflow_files,
)
from ftpress.state.turns import turn_number
from ftpress.store.campaign import load_state
from ftpress.text.logsafe import say
from ftpress.turn.redo import redo_turns
from ftpress.turn.resolve import TurnResult, resolve_turn
from ftpress.turn.verify import verify_report
from ftpress.turn.window import SetAside, set_aside_late_orders


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("turn", nargs="?", metavar="TURN",
                        help="the turn to resolve, e.g. t004 (default: the open turn); "
                        "a turn already recorded is left as it is")
    parser.add_argument("--verify", metavar="TURN",
                        help="re-resolve a recorded turn and confirm the same result")
    parser.add_argument("--redo", metavar="TURN",
                        help="resolve a recorded turn and every later one again from their "
                        "recorded orders, rewrite their records and the state, and say what "
                        "changed")
    parser.add_argument("--dice", type=Path, metavar="FILE",
                        help="dice rolled by hand, 'dice: [3, 6, 1, …]', used in order")
    parser.add_argument("--early", action="store_true",
                        help="resolve the turn before its orders are due")
    parser.add_argument("--if-due", action="store_true",
                        help="resolve the open turn only if its deadline has passed or every "
                        "player has sent orders; otherwise say so and exit 0. The next "
                        "deadline then follows calendar.next_deadline")
    parser.add_argument("--commit-message", type=Path, metavar="FILE",
                        help="write the commit message for what was done here ('Turn 7 (t007) "
                        "resolved: 26 events, 1 battle'); no file when nothing was done")
    parser.add_argument("--battles-report", type=Path, metavar="FILE",
                        help="when the turn pauses for tabletop battles, write Markdown for the "
                        "umpires: each battle, its forces and its file; when it is resolved "
                        "with their results, how each ended and where the turn's report is")
    parser.add_argument("--battles-outcome", type=Path, metavar="FILE",
                        help="write 'paused=TURN' when the turn waits for tabletop battles, "
                        "'fought=TURN' when it was resolved with their results (for the "
                        "workflow's outputs)")
    parser.add_argument("--set-aside", type=Path, metavar="FILE",
                        help="with --if-due: write the order files set aside (landed after "
                        "their turn closed) as JSON, each with the commit that brought it in "
                        "and a comment for its pull request; no file when none was")
    parser.add_argument("--views-comment", type=Path, metavar="FILE",
                        help="in a sealed campaign with a turn resolved, write the comment "
                        "on the last one resolved (by this run or before) that mentions each "
                        "player with a key and links their 'Your view' page (Markdown, its "
                        "first line marking its turn); no file otherwise")
    parser.add_argument("--link", metavar="URL",
                        help="where the battle files are read online, for --battles-report "
                        "(e.g. https://github.com/OWNER/REPO/blob/main/)")
    parser.add_argument("--now", help="the time as an ISO date-time (default: "
                        "SOURCE_DATE_EPOCH, else the clock)")
    parser.add_argument("--identity", type=Path, metavar="FILE",
                        help="in a sealed campaign, the umpire's key (default: "
                        "$FTPRESS_UMPIRE_KEY, else .ftpress-umpire-key); --verify "
                        "without one checks what a third party can")
    parser.add_argument("--source", type=Path, default=Path())


def run(args: argparse.Namespace) -> int:
    for given in [g for g in (args.turn, args.verify, args.redo) if g is not None]:
        check_turn_id(given)
    if args.redo:
        for line in redo_turns(args.source, args.redo, args.identity).lines():
            say(line)
        return 0
    if args.verify:
        return _verify(args.source, args.verify, args.identity)
    early = args.early
    now = build_now(args.now)
    files = WorkflowFiles(args.commit_message, args.views_comment, args.battles_outcome,
                          args.battles_report, args.link)
    files.clear(args.set_aside)
    moved: tuple[SetAside, ...] = ()
    if args.if_due:
        # The publishing run: orders that landed after their turn closed never count.
        loaded = load_state(args.source)
        moved = set_aside_late_orders(args.source, loaded.state, now) if loaded else ()
        for item in moved:
            say(f"set aside: {item.path} -> {item.to}: {item.reason}")
        write_set_aside(args.set_aside, moved, args.link)
        status = turn_status(args.source, now)
        if not status.due:
            say(f"{status.turn} is not due: {status.reason()}; nothing was done")
            write_workflow_files(args.source, None, moved, files)
            return 0
        say(f"{status.turn} is due: {status.reason()}")
        early = True
    result = resolve_turn(args.source, now=now, early=early, supplied=args.dice,
                          wanted=args.turn, identity=args.identity, vet=campaign_problems)
    notes = list(result.notes)
    if args.if_due:
        result, kept = keep_to_the_calendar(args.source, result, now)
        notes += [kept] if kept else []
    for note in notes:
        say(f"note: {note}")
    say(result.summary())
    if result.written and not result.waiting:
        _say_refusals(result)
    write_workflow_files(args.source, result, moved, files)
    return 0


#: Set to ``true`` on every GitHub Actions runner, whose job logs anyone may read.
_ON_ACTIONS = "GITHUB_ACTIONS"


def _say_refusals(result: TurnResult) -> None:
    """Each order the turn refused, for the umpire who ran it. On a GitHub Actions
    runner the log is public: there only the refusals everyone is told are listed."""
    for line in result.refusal_report(public_log=os.environ.get(_ON_ACTIONS) == "true"):
        say(line)


def _verify(root: Path, turn: str, identity: Path | None) -> int:
    report = verify_report(root, turn, identity)
    for line in report.differences:
        say(line, err=True)
    say(report.verdict, err=not report.ok)
    return 0 if report.ok else 1


def check_turn_id(text: str) -> None:
    """A turn id as the user gave it, or :class:`InvalidArgument` saying what one is."""
    try:
        turn_number(text)
    except ValueError as exc:
        raise InvalidArgument(str(exc)) from None
