"""``ftpress seal orders/<turn>/<player>.yaml``: check a player's orders, then seal them.

The orders are checked as ``ftpress check`` checks them (syntax, then the rules
against the current state); only clean orders are sealed, to
``orders/<turn>/<player>.yaml.age``, encrypted to every umpire recipient and to
the player's own (:mod:`ftpress.secrecy.sealing`). With ``--identity FILE`` (the
player's age key or SSH private key) the sealed file is opened again before it
is written, so a key that does not match the roster is found at once. The
plain file stays beside it, git-ignored; the sealed one is what is committed.
"""

from __future__ import annotations

import argparse
from pathlib import Path, PurePosixPath

from ftpress.errors import InputError, Problem, RefusedCommand
from ftpress.files.clock import build_now
from ftpress.orders.load import stray_problem
from ftpress.secrecy import agekeys, sealing
from ftpress.secrecy.sealing import PLAIN_ORDERS
from ftpress.state.model import PUBLIC_KNOWLEDGE
from ftpress.text.logsafe import say


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, metavar="FILE",
                        help="the plain order file, orders/<turn>/<player-id>.yaml")
    parser.add_argument("--identity", type=Path, metavar="FILE",
                        help="your age secret key or SSH private key: the sealed file is "
                        "opened with it before it is written, to prove you can read it")
    parser.add_argument("--source", type=Path, default=Path(),
                        help="campaign folder (default: the current folder)")


def run(args: argparse.Namespace) -> int:
    root: Path = args.source
    rel = _relative(root, args.file)
    say(seal_file(root, rel, args.identity))
    return 0


def _relative(root: Path, file: Path) -> str:
    """``file`` (relative to the current folder, as ``ftpress check`` reads its paths)
    as a path inside the campaign; raises if it is outside."""
    base = root.resolve()
    full = (file if file.is_absolute() else Path.cwd() / file).resolve()
    if not full.is_relative_to(base):
        raise InputError([Problem(str(file), 0, 0, f"not inside the campaign folder {root}")])
    return full.relative_to(base).as_posix()


def seal_file(root: Path, rel: str, identity: Path | None = None) -> str:
    """Check ``rel`` fully, seal it beside itself; the receipt line."""
    stray = stray_problem(rel)
    if stray is not None or rel.endswith(sealing.SEALED):
        raise InputError([stray or Problem(rel, 0, 0, "is sealed already; expected the plain "
                                           "file, orders/<turn-id>/<player-id>.yaml")])
    if not (root / rel).is_file():
        raise InputError([Problem(rel, 0, 0, "no such order file; expected "
                                  "orders/<turn-id>/<player-id>.yaml")])
    identities = agekeys.read_identity(identity) if identity is not None else []
    from ftpress.store import open_at_hand
    from ftpress.store.campaign import load_state
    from ftpress.turn.order_check import check_orders

    store = open_at_hand(root)
    loaded = load_state(root)
    if loaded is None:
        raise RefusedCommand(PLAIN_ORDERS)
    player = PurePosixPath(rel).name.removesuffix(".yaml")
    to = store.order_recipients(loaded.state, player)
    # A sealed campaign's plain state is the public's: the orders are checked against
    # the whole state where the umpire's key is at hand, else against what the player
    # knows (their intelligence, opened with --identity), else for their form alone.
    if store.key is None and identity is None:
        raise RefusedCommand(f"this campaign is sealed, so {player}'s orders are checked "
                             f"against what {player} knows, which is sealed to {player}'s "
                             "key: give --identity FILE (the key 'ftpress keys new' wrote); "
                             "nothing was written")
    known = store.known_by(player, identity)
    if known is not None and known.state.campaign.known_to == PUBLIC_KNOWLEDGE:
        raise RefusedCommand(f"there is no intelligence of {player}'s sealed to this key "
                             "for the latest turn, so the orders could be checked for their "
                             "form alone; the umpire records your key with 'ftpress roster "
                             "key', which seals it; nothing was written")
    problems, _ = check_orders(store, {rel}, known)
    if problems:
        raise InputError(problems)
    data = (root / rel).read_bytes()
    sealed = sealing.seal(data, to, identities, str(identity))
    target = sealing.write_sealed(root, rel, sealed)
    return sealing.receipt(target, sealed, build_now(None))
