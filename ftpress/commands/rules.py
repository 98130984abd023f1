"""``ftpress rules``: the rulebook as it stood on a date, as Markdown."""

from __future__ import annotations

import argparse
from datetime import date
from pathlib import Path

from ftpress.errors import InvalidArgument, RefusedCommand
from ftpress.files.clock import build_now
from ftpress.render.rulebook import as_text
from ftpress.site import BuildOptions, load
from ftpress.store import open_with
from ftpress.text.logsafe import say


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--at", help="the date, YYYY-MM-DD (default: as it stands now)")
    parser.add_argument("--source", type=Path, default=Path())


def run(args: argparse.Namespace) -> int:
    site = load(open_with(args.source), BuildOptions(build_now(None)))
    day = _day(args.at) if args.at else None
    version = site.rulebook.at(day) if day else site.rulebook.current
    if version is None:
        first = site.rulebook.versions[0].date.isoformat() if site.rulebook.versions else None
        raise RefusedCommand(f"no rulebook {'before ' + first if first else 'in content/rules/'}")
    say(as_text(version).removesuffix("\n"))
    return 0


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise InvalidArgument(f"--at {text!r}: expected a date such as 2026-05-20") from None
