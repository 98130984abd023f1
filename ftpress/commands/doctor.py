"""``ftpress doctor``: the repository's settings checked (:mod:`ftpress.github.doctor`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ftpress.github.doctor import examine
from ftpress.text.logsafe import say


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--repository", metavar="OWNER/NAME",
                        help="the campaign's GitHub repository (default: the git remote "
                        "origin's)")
    parser.add_argument("--source", type=Path, default=Path())


def run(args: argparse.Namespace) -> int:
    repository, findings = examine(args.source, args.repository)
    for finding in findings:
        say(finding.line())
    wrong = sum(not f.ok for f in findings)
    say(f"{repository}: " + (f"{wrong} setting{'s' if wrong != 1 else ''} to change"
                             if wrong else "every setting checked is as the trust model needs"))
    return 1 if wrong else 0
