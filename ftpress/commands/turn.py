"""``ftpress turn``: resolve the open turn and record it, or verify or redo recorded ones."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from ftpress.commands.status import turn_status
from ftpress.errors import InvalidArgument
from ftpress.files.clock import build_now
from ftpress.github.publishing import (
    battles_markdown,
    commit_message,
    fought_markdown,
    keep_to_the_calendar,
    set_aside_comment,
    set_aside_message,
    views_markdown,
)
from ftpress.state.turns import turn_number
from ftpress.store.campaign import load_state
from ftpress.text.logsafe import say
from ftpress.turn.redo import redo_turns
from ftpress.turn.resolve import TurnResult, resolve_turn
from ftpress.turn.verify import verification
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
                        help="once a sealed campaign's turn is resolved, write the comment "
                        "that mentions each player with a key and links their 'Your view' "
                        "page (Markdown); no file otherwise")
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
    for given in (args.turn, args.verify, args.redo):
        if given is not None:
            check_turn_id(given)
    if args.redo:
        for line in redo_turns(args.source, args.redo, args.identity).lines():
            say(line)
        return 0
    if args.verify:
        return _verify(args.source, args.verify, args.identity)
    early = args.early
    now = build_now(args.now)
    for out in (args.commit_message, args.battles_report, args.battles_outcome,
                args.set_aside, args.views_comment):
        if out is not None:
            out.unlink(missing_ok=True)  # a file left from an earlier run says nothing now
    moved: tuple[SetAside, ...] = ()
    if args.if_due:
        # The publishing run: orders that landed after their turn closed never count.
        loaded = load_state(args.source)
        moved = set_aside_late_orders(args.source, loaded.state, now) if loaded else ()
        for item in moved:
            say(f"set aside: {item.path} -> {item.to}: {item.reason}")
        _write_set_aside(args, moved)
        status = turn_status(args.source, now)
        if not status.due:
            say(f"{status.turn} is not due: {status.reason()}; nothing was done")
            if moved and args.commit_message is not None:
                args.commit_message.write_text(set_aside_message(moved), encoding="utf-8")
            return 0
        say(f"{status.turn} is due: {status.reason()}")
        early = True
    result = resolve_turn(args.source, now=now, early=early,
                          supplied=args.dice, wanted=args.turn, identity=args.identity)
    notes = list(result.notes)
    if args.if_due:
        result, kept = keep_to_the_calendar(args.source, result, now)
        notes += [kept] if kept else []
    for note in notes:
        say(f"note: {note}")
    say(result.summary())
    if result.written and not result.waiting:
        _say_refusals(result)
    _write_for_the_workflow(args, result, moved)
    return 0


#: Set to ``true`` on every GitHub Actions runner, whose job logs anyone may read.
_ON_ACTIONS = "GITHUB_ACTIONS"


def _say_refusals(result: TurnResult) -> None:
    """Each order the turn refused, for the umpire who ran it. On a GitHub Actions
    runner the log is public: there only the refusals everyone is told are listed,
    and the others are left to the umpire's view (they may tell what the rules hide)."""
    public_log = os.environ.get(_ON_ACTIONS) == "true"
    lines = result.refusals(hidden=not public_log)
    if lines:
        say(f"{len(lines)} order{'s' if len(lines) != 1 else ''} refused:")
        for line in lines:
            say(line)
    if public_log:  # said whether or not there are any: that would tell too
        say("refusals told to their players alone are not listed in this public log; the "
            "umpire's view ('ftpress build --view umpire') and each player's show them")


def _write_set_aside(args: argparse.Namespace, moved: tuple[SetAside, ...]) -> None:
    if args.set_aside is None or not moved:
        return
    args.set_aside.write_text(json.dumps(
        [{"path": item.path, "to": item.to, "commit": item.commit,
          "comment": set_aside_comment(item, args.link)} for item in moved]) + "\n",
        encoding="utf-8")


def _write_for_the_workflow(args: argparse.Namespace, result: TurnResult,
                            moved: tuple[SetAside, ...] = ()) -> None:
    message = commit_message(result)
    if moved:
        aside = set_aside_message(moved)
        message = aside if message is None else f"{message.rstrip()}\n\n{aside}"
    if args.commit_message is not None and message is not None:
        args.commit_message.write_text(message, encoding="utf-8")
    if args.views_comment is not None and result.written and not result.waiting and \
            (views := views_markdown(args.source, result.turn)) is not None:
        args.views_comment.write_text(views, encoding="utf-8")
    if args.battles_outcome is not None and (result.waiting or result.written):
        if result.waiting:
            args.battles_outcome.write_text(f"paused={result.turn}\n", encoding="utf-8")
        elif fought_markdown(args.source, result.turn) is not None:
            args.battles_outcome.write_text(f"fought={result.turn}\n", encoding="utf-8")
    if result.waiting:
        report = battles_markdown(args.source, result.turn, result.waiting, args.link)
    elif result.written:  # resolved now: with tabletop results, the umpires' issue is done
        report = fought_markdown(args.source, result.turn, args.link)
    else:
        report = None
    if args.battles_report is not None and report is not None:
        args.battles_report.write_text(report, encoding="utf-8")


def _verify(root: Path, turn: str, identity: Path | None) -> int:
    from ftpress.store import open_store

    # Without the key a sealed campaign's turn is verified as a third party can; a key
    # given (or found) must be the umpire's.
    store = open_store(root, identity=identity, why="verifying the whole turn")
    verified = verification(store, turn)
    differences = verified.differences
    for difference in differences:
        say(difference, err=True)
    if differences:
        say(f"ftpress: {turn} does not re-resolve to its record "
            f"({len(differences)} difference{'s' if len(differences) != 1 else ''})", err=True)
        return 1
    if verified.checked is not None:
        say(f"verified {turn} as anyone can, without the umpire's key: {verified.checked}; "
            f"not verified: {verified.unchecked}")
        return 0
    say(f"verified {turn}: re-resolving it gives the recorded result exactly")
    return 0


def check_turn_id(text: str) -> None:
    """A turn id as the user gave it, or :class:`InvalidArgument` saying what one is."""
    try:
        turn_number(text)
    except ValueError as exc:
        raise InvalidArgument(str(exc)) from None
