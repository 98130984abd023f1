"""``ftpress serve``: build, serve, and build again on every change."""

from __future__ import annotations

import argparse
from pathlib import Path

from ftpress.commands.build import check_player_view, site_options, umpire_view_key
from ftpress.site.serve import serve


def arguments(parser: argparse.ArgumentParser) -> None:
    site_options(parser)
    parser.add_argument("--out", type=Path, default=None,
                        help="output folder (default: a temporary folder)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--view", default="public", metavar="VIEW",
                        help="public (the default), umpire, or a player's id (with --identity)")
    parser.add_argument("--identity", type=Path, metavar="FILE",
                        help="with --view <player>: that player's age or SSH private key; "
                        "with --view umpire in a sealed campaign, the umpire's")


def run(args: argparse.Namespace) -> int:
    if args.view not in ("public", "umpire"):
        check_player_view(args.source, args.view, args.identity)
    umpire = umpire_view_key(args.source, args.identity) if args.view == "umpire" else None
    return serve(args.source, args.out, host=args.host, port=args.port, drafts=args.drafts,
                 future=args.future, now=args.now, view=args.view, umpire=umpire,
                 identity=args.identity)
