"""``ftpress check-pr``: check an orders pull request (:mod:`ftpress.github.check_pr`)
and write its report where the workflow reads it."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from ftpress.errors import InvalidArgument
from ftpress.files.clock import build_now
from ftpress.github.check_pr import PullRequestReport, check_merge_group, check_pull_request
from ftpress.text.logsafe import say


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base", required=True, metavar="SHA",
                        help="the base branch's commit (checked out at --source)")
    parser.add_argument("--head", required=True, metavar="SHA",
                        help="the pull request's head commit, read from git, never checked out")
    parser.add_argument("--author-id", type=int, metavar="ID",
                        help="the pull request author's numeric GitHub user id")
    parser.add_argument("--merge-group", action="store_true",
                        help="check a merge group of GitHub's merge queue (--head) against "
                        "the main it lands on (--base), instead of a pull request")
    parser.add_argument("--now", help="the time as an ISO date-time (default: "
                        "SOURCE_DATE_EPOCH, else the clock)")
    parser.add_argument("--author", metavar="LOGIN", help="the author's login, for the report")
    parser.add_argument("--summary", type=Path, metavar="FILE",
                        help="append a Markdown report here (default: $GITHUB_STEP_SUMMARY)")
    parser.add_argument("--source", type=Path, default=Path())


def run(args: argparse.Namespace) -> int:
    """The report on the terminal (stderr if refused), and appended as Markdown to the
    job summary (``--summary``, else ``$GITHUB_STEP_SUMMARY``) when there is one."""
    summary: Path | None = args.summary
    if summary is None and os.environ.get("GITHUB_STEP_SUMMARY"):
        summary = Path(os.environ["GITHUB_STEP_SUMMARY"])
    now = build_now(args.now)
    if args.merge_group:
        report = check_merge_group(args.source, args.base, args.head, now=now)
    elif args.author_id is None:
        raise InvalidArgument("expected --author-id ID (a pull request) or --merge-group")
    else:
        report = check_pull_request(args.source, args.base, args.head, args.author_id,
                                    args.author, now=now)
    if summary is not None:
        with summary.open("a", encoding="utf-8") as handle:
            handle.write(report.markdown())
    _write_outputs(report)
    say(report.text(), err=not report.ok)
    return 0 if report.ok else 1


def _write_outputs(report: PullRequestReport) -> None:
    """``auto-merge=true`` in ``$GITHUB_OUTPUT`` when the workflow may merge the pull
    request by itself (the auto-merge job runs only then)."""
    output = os.environ.get("GITHUB_OUTPUT")
    if output:
        with Path(output).open("a", encoding="utf-8") as handle:
            handle.write(f"auto-merge={'true' if report.ok and report.auto_merge else 'false'}\n")
