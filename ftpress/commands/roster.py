"""``ftpress roster``: record who plays which power, and the umpires, by GitHub account;
and each player's recipient, the key their sealed files are encrypted to."""

from __future__ import annotations

import argparse
from pathlib import Path

from ftpress.errors import InvalidArgument
from ftpress.github.roster import (
    add_player_account,
    add_umpire,
    parse_account,
    record_recipient,
    replace_player_account,
)
from ftpress.text.logsafe import say


def arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    add = actions.add_parser("add", help="record the GitHub account of a power that has none, "
                             "or of a new umpire")
    add.add_argument("player", nargs="?", metavar="PLAYER", help="the power, e.g. nac")
    add.add_argument("account", nargs="?", metavar="LOGIN:ID",
                     help="the GitHub login and numeric id, e.g. octocat:583231")
    add.add_argument("--umpire", metavar="LOGIN:ID", help="add an umpire instead")
    replace = actions.add_parser("replace", help="hand a power to a new player")
    replace.add_argument("player", metavar="PLAYER")
    replace.add_argument("--github", required=True, metavar="LOGIN:ID",
                         help="the new player's GitHub login and numeric id")
    key = actions.add_parser("key", help="record a player's recipient (the public key "
                             "'ftpress keys new' printed for them), to seal to")
    key.add_argument("player", metavar="PLAYER")
    key.add_argument("recipient", metavar="RECIPIENT",
                     help="'age1…', or an SSH public key line in quotes")
    for sub in (add, replace, key):
        sub.add_argument("--source", type=Path, default=Path())


def run(args: argparse.Namespace) -> int:
    if args.action == "key":
        say(record_recipient(args.source, args.player, args.recipient))
        return 0
    if args.action == "replace":
        say(replace_player_account(args.source, args.player,
                                     parse_account(args.github, "--github")))
        return 0
    if args.umpire is not None:
        if args.player is not None:
            raise InvalidArgument("roster add --umpire LOGIN:ID takes no PLAYER")
        say(add_umpire(args.source, parse_account(args.umpire, "--umpire")))
        return 0
    if args.player is None or args.account is None:
        raise InvalidArgument("expected roster add PLAYER LOGIN:ID, such as "
                              "roster add nac octocat:583231, or roster add --umpire LOGIN:ID")
    say(add_player_account(args.source, args.player, parse_account(args.account, "LOGIN:ID")))
    return 0
