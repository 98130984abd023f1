"""``ftpress keys``: the umpire's key, and who has one (:mod:`ftpress.creating.keys`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ftpress.creating.keys import (
    EDITING,
    PLAYER_KEY_FILE,
    KeysReport,
    change_umpires,
    check_keys,
    edit_state,
    init_key,
    new_key,
    rotate,
    seal_campaign,
    seal_state,
)
from ftpress.secrecy import agekeys
from ftpress.text.logsafe import say


def arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    init = actions.add_parser("init", help="make the umpire's key and record its public "
                              "recipient")
    new = actions.add_parser("new", help="make your own key as a player: the key file "
                             "(git-ignored), and the recipient to send the umpire")
    new.add_argument("--out", type=Path, metavar="FILE",
                     help=f"where to write the key (default: {PLAYER_KEY_FILE} in the "
                     "campaign folder)")
    check = actions.add_parser("check", help="list the players with no recipient to seal "
                               "orders to")
    add = actions.add_parser("add-umpire", help="add another umpire's recipient; the umpires "
                             "already listed stay, and what is sealed to them is sealed to "
                             "all (run by an umpire, with their key)")
    remove = actions.add_parser("remove-umpire", help="remove an umpire's recipient on "
                                "purpose; what is sealed to the umpires is sealed again to "
                                "the others")
    for action in (add, remove):
        action.add_argument("recipient", metavar="RECIPIENT",
                            help="the umpire's age recipient (age1…), as 'keys init' printed it")
    rotate = actions.add_parser("rotate", help="a new umpire key; the open turn's sealed "
                                "orders and the players' intelligence re-encrypted to the "
                                "recipients now listed")
    seal = actions.add_parser("seal-campaign", help="store the campaign sealed: each state "
                              "file, event log, dice log and recorded order file as its public "
                              "projection, the whole sealed to the umpires beside it (run "
                              "again, it writes the plain files again from the sealed ones)")
    seal.add_argument("--afresh", action="store_true",
                      help="seal every twin and every player's files anew, in this version's "
                      "format (padded to its size buckets), to the recipients listed now")
    seal.add_argument("--drop-plain-edits", action="store_true",
                      help="write the plain files again from their twins even where they "
                      "were edited (the edits are lost)")
    seal.add_argument("--seal-orders", action="store_true",
                      help="seal the open turn's plain order files too, to the umpires and "
                      "their players, and remove the plain ones")
    edit = actions.add_parser("edit-state", help=f"a sealed campaign's state, whole, in the "
                              f"git-ignored {EDITING}/, to edit by hand")
    reseal = actions.add_parser("seal-state", help=f"the state edited in {EDITING}/ checked "
                                "and sealed back into state/")
    for action in (init, new, check, rotate, seal, edit, reseal, add, remove):
        action.add_argument("--source", type=Path, default=Path(),
                            help="campaign folder (default: the current folder)")
    for action in (rotate, seal, edit, reseal, add, remove):
        action.add_argument("--identity", type=Path, metavar="FILE",
                            help="the umpire key in use (default: $FTPRESS_UMPIRE_KEY, else "
                            f"{agekeys.UMPIRE_KEY_FILE})")


def run(args: argparse.Namespace) -> int:
    report = _act(args)
    say(report.text)
    return 0 if report.ok else 1


def _act(args: argparse.Namespace) -> KeysReport:
    root: Path = args.source
    if args.action == "init":
        return init_key(root)
    if args.action == "new":
        return new_key(root, args.out)
    if args.action == "check":
        return check_keys(root)
    if args.action == "seal-campaign":
        return seal_campaign(root, args.identity, args.seal_orders, args.drop_plain_edits,
                             args.afresh)
    if args.action == "edit-state":
        return edit_state(root, args.identity)
    if args.action == "seal-state":
        return seal_state(root, args.identity)
    if args.action in ("add-umpire", "remove-umpire"):
        return change_umpires(root, args.identity, args.recipient,
                              add=args.action == "add-umpire")
    return rotate(root, args.identity)
