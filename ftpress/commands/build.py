"""``ftpress build``: the site, written to ``_site/`` (or the umpire's copy)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ftpress.errors import InvalidArgument, RefusedCommand
from ftpress.files.clock import build_now
from ftpress.speed.buildcache import reusable

if TYPE_CHECKING:
    from ftpress.secrecy.twins import UmpireKey
from ftpress.files.write import check_out_dir
from ftpress.text.logsafe import say


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
                        help="output folder (default: _site, or _site-<view> for the "
                        "umpire's or a player's view)")
    parser.add_argument("--view", default="public", metavar="VIEW",
                        help="public: only what the rules make public (the default); "
                        "umpire: every fact, hidden ones too, for the umpire's eyes; a "
                        "player's id: what the rules tell that player (with --identity)")
    parser.add_argument("--identity", type=Path, metavar="FILE",
                        help="with --view <player>: that player's age secret key or SSH "
                        "private key; with --view umpire in a sealed campaign, the umpire's "
                        "(default: $FTPRESS_UMPIRE_KEY, else .ftpress-umpire-key)")


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    if args.view not in ("public", "umpire"):
        check_player_view(args.source, args.view, args.identity)
    umpire = umpire_view_key(args.source, args.identity) if args.view == "umpire" else None
    out = args.out if args.out is not None else args.source / (
        "_site" if args.view == "public" else f"_site-{args.view}")
    now = build_now(args.now)
    check_out_dir(args.source, out)
    # Asked before the rest of ftpress is imported: a no-op build stays instant.
    fingerprint, last = reusable(args.source, out, drafts=args.drafts, future=args.future,
                                 now=now, view=args.view)
    if last is not None:
        say(last.reused(time.perf_counter() - started))
        return 0
    from ftpress.site import BuildOptions, build
    from ftpress.speed.executor import ForkExecutor

    options = BuildOptions(now, drafts=args.drafts, future=args.future, incremental=True,
                           view=args.view, umpire=umpire, identity=args.identity)
    report = build(args.source, out, options, fingerprint=fingerprint, executor=ForkExecutor())
    say(report.summary(out))
    return 0


def umpire_view_key(root: Path, identity: Path | None) -> UmpireKey | None:
    """The key the umpire's view is read with, as the campaign's store holds it (a sealed
    campaign's is refused without it: its plain files hold only what the public may
    know)."""
    from ftpress.store import open_store

    return open_store(root, identity=identity, why="the umpire's view (--view umpire)",
                      required=True).key


def check_player_view(root: Path, player: str, identity: Path | None) -> None:
    """A player's view is built only for a player of the campaign, and only with a key
    that answers to their recipient in ``state/players.yaml``; raises otherwise."""
    from ftpress.secrecy import agekeys
    from ftpress.store.campaign import load_state

    loaded = load_state(root)
    players = loaded.state.players.players if loaded is not None else ()
    found = next((p for p in players if p.id == player), None)
    if found is None:
        raise InvalidArgument(f"--view {player!r}: expected 'public', 'umpire' or a player's "
                              f"id ({', '.join(p.id for p in players) or 'none in state/'})")
    if identity is None:
        raise InvalidArgument(f"--view {player} needs --identity FILE, {player}'s age secret "
                              "key or SSH private key")
    if found.recipient is None:
        raise RefusedCommand(f"player {player!r} has no recipient in state/players.yaml, so "
                             "no key can prove the view is theirs; add 'recipient:' first")
    if not agekeys.answers(agekeys.read_identity(identity), found.recipient):
        raise RefusedCommand(f"{identity}: this identity does not answer to {player}'s "
                             "recipient in state/players.yaml; nothing was built")
