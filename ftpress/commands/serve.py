"""``ftpress serve``: build, serve, and build again on every change."""

from __future__ import annotations

import argparse
from pathlib import Path

from ftpress.commands.build import site_options
from ftpress.serve import serve


def arguments(parser: argparse.ArgumentParser) -> None:
    site_options(parser)
    parser.add_argument("--out", type=Path, default=None,
                        help="output folder (default: a temporary folder)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--host", default="127.0.0.1")


def run(args: argparse.Namespace) -> int:
    return serve(args.source, args.out, host=args.host, port=args.port, drafts=args.drafts,
                 future=args.future, now=args.now)
