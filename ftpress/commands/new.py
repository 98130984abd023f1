"""``ftpress new post``: a new post file dated now, with valid front matter."""

from __future__ import annotations

import argparse
from pathlib import Path

from ftpress.content.posts import KINDS
from ftpress.content.scaffold import new_post
from ftpress.files.clock import build_now
from ftpress.text.logsafe import say


def arguments(parser: argparse.ArgumentParser) -> None:
    what = parser.add_subparsers(dest="what", required=True, metavar="WHAT")
    post = what.add_parser("post", help="write a new post file dated now")
    post.add_argument("title")
    post.add_argument("--kind", required=True, choices=tuple(KINDS))
    post.add_argument("--tags", default="", help="comma-separated tags, e.g. rule-10,sieges")
    post.add_argument("--source", type=Path, default=Path())
    post.add_argument("--now", help="date the post at this ISO date-time instead of now")


def run(args: argparse.Namespace) -> int:
    # ``post`` is the only thing there is to make.
    tags = tuple(t.strip() for t in args.tags.split(",") if t.strip())
    say(new_post(args.source, args.title, args.kind, tags, build_now(args.now)))
    return 0
