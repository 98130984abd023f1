"""``ftpress init``: make a new campaign in an empty folder
(:mod:`ftpress.creating.campaign`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ftpress.creating.campaign import init_campaign
from ftpress.errors import (
    InvalidArgument,
)
from ftpress.files.clock import build_now
from ftpress.github.roster import Account, parse_account, parse_player_account
from ftpress.secrecy import agekeys
from ftpress.text.logsafe import say


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", type=Path, metavar="DIR", help="a new or empty folder")
    parser.add_argument("--players",
                        help="comma-separated player ids, e.g. nac,nsl,fse,esu (default: "
                        "those of --player)")
    parser.add_argument("--player", action="append", default=[], metavar="PLAYER:LOGIN:ID",
                        help="a player's GitHub login and numeric id, e.g. nac:octocat:583231 "
                        "(repeatable)")
    parser.add_argument("--umpire", action="append", default=[], metavar="LOGIN:ID",
                        help="an umpire's GitHub login and numeric id (repeatable)")
    parser.add_argument("--repository", metavar="OWNER/NAME",
                        help="the GitHub repository the campaign will live in: base_url is "
                        "where its GitHub Pages site will be")
    parser.add_argument("--id", dest="campaign_id", metavar="ID",
                        help="the campaign's id, part of every turn's dice key (default: "
                        "from DIR)")
    parser.add_argument("--seed", type=int, help="dice seed for the map (default: a random "
                        "one, recorded in state/campaign.yaml)")
    parser.add_argument("--name", help="the campaign's name (default: from DIR)")
    parser.add_argument("--ruleset", default="ftc2007")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=NUMBER",
                        help="a house rule for map generation, e.g. world_on=1 (repeatable)")
    parser.add_argument("--now", help="date the campaign at this ISO date-time instead of now")
    parser.add_argument("--secrecy", choices=("sealed", "open"),
                        help="sealed: hidden state and orders encrypted to the umpire, who "
                        "gets a key (the default, unless the ruleset hides nothing, as sct's "
                        "does); open: everything in plain")
    parser.add_argument("--ftpress-requirement", metavar="SPEC",
                        help="the ftpress its workflows install: a version on PyPI, "
                        "'release' (the wheel of the GitHub release), a git URL with a tag, "
                        "or a wheel's URL (default: the git tag of this ftpress's version, "
                        "which installs before any release reaches PyPI)")


def run(args: argparse.Namespace) -> int:
    accounts: dict[str, Account] = {}
    for text in args.player:
        player, account = parse_player_account(text)
        if player in accounts:
            raise InvalidArgument(f"--player {text!r}: {player} is given twice; give each "
                                  "player once")
        accounts[player] = account
    umpires = [parse_account(text, "--umpire") for text in args.umpire]
    if args.players is None and not accounts:
        raise InvalidArgument("expected the players: --players nac,nsl,fse,esu or "
                              "--player nac:LOGIN:ID for each")
    created = init_campaign(args.dir, (args.players or "").split(","), now=build_now(args.now),
                            seed=args.seed, name=args.name, ruleset=args.ruleset,
                            options=args.option,
                            ftpress_requirement=args.ftpress_requirement,
                            campaign_id=args.campaign_id, accounts=accounts, umpires=umpires,
                            repository=args.repository, secrecy=args.secrecy)
    say(created.summary())
    if created.umpire_recipient is not None:
        say(f"sealed: the umpire's key is in {agekeys.UMPIRE_KEY_FILE} (git-ignored; never "
            f"commit it), its recipient {created.umpire_recipient} in state/campaign.yaml; "
            f"it becomes the secret {agekeys.UMPIRE_KEY_ENV} of the environment 'umpire' "
            "(next steps)")
    say(created.git)
    say("next steps:")
    for line in created.next_steps():
        say(line)
    return 0
