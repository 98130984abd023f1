"""``ftpress build``: the site, written to ``_site/`` (or the umpire's copy)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from ftpress.buildcache import reusable
from ftpress.clock import build_now
from ftpress.logsafe import say
from ftpress.write import check_out_dir


def site_options(parser: argparse.ArgumentParser) -> None:
    """What ``build`` and ``serve`` both read: the campaign, and which posts it shows."""
    parser.add_argument("--source", type=Path, default=Path(),
                        help="campaign folder (default: the current folder)")
    parser.add_argument("--drafts", action="store_true", help="include draft posts")
    parser.add_argument("--future", action="store_true",
                        help="include posts dated in the future")
    parser.add_argument("--now", help="the build's 'now' as an ISO date-time "
                        "(default: SOURCE_DATE_EPOCH, else the clock)")


def arguments(parser: argparse.ArgumentParser) -> None:
    site_options(parser)
    parser.add_argument("--out", type=Path, default=None,
                        help="output folder (default: _site, or _site-umpire for the "
                        "umpire's view)")
    parser.add_argument("--view", choices=("public", "umpire"), default="public",
                        help="public: only what the rules make public (the default); "
                        "umpire: every fact, hidden ones too, for the umpire's eyes")


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    out = args.out if args.out is not None else args.source / (
        "_site" if args.view == "public" else "_site-umpire")
    now = build_now(args.now)
    check_out_dir(args.source, out)
    # Asked before the rest of ftpress is imported: a no-op build stays instant.
    fingerprint, last = reusable(args.source, out, drafts=args.drafts, future=args.future,
                                 now=now, view=args.view)
    if last is not None:
        say(last.reused(time.perf_counter() - started))
        return 0
    from ftpress.executor import ForkExecutor
    from ftpress.site import BuildOptions, build

    options = BuildOptions(now, drafts=args.drafts, future=args.future, incremental=True,
                           view=args.view)
    report = build(args.source, out, options, fingerprint=fingerprint, executor=ForkExecutor())
    say(report.summary(out))
    return 0
