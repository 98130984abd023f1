"""``ftpress check``: every problem of the campaign, or of the files named
(:mod:`ftpress.checking.campaign`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ftpress.checking.campaign import check
from ftpress.text.logsafe import say


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                        help="files to report on (default: the whole campaign)")
    parser.add_argument("--identity", type=Path, metavar="FILE",
                        help="in a sealed campaign, the umpire's key, to check the sealed "
                        "files too (default: $FTPRESS_UMPIRE_KEY, else .ftpress-umpire-key); "
                        "or a player's, to check their orders against what they know")
    parser.add_argument("--source", type=Path, default=Path())


def run(args: argparse.Namespace) -> int:
    """Every problem on stderr, and what each clean order file named will do."""
    report = check(args.source, args.paths, args.identity)
    if args.paths:
        for path, lines in report.orders:
            say(f"{path}:")
            for line in lines:
                say(f"  {line}")
    for problem in report.problems:
        say(problem, err=True)
    if report.problems:
        count = len(report.problems)
        say(f"ftpress: {count} problem{'s' if count != 1 else ''} in {report.scope}", err=True)
        return 1
    for path in report.set_aside:
        say(f"set aside, part of no turn (it landed after its turn closed): {path}")
    if report.unchecked is not None:
        say(f"not checked without the umpire's key: {report.unchecked}")
    say(f"checked {report.scope}: no problems")
    return 0
