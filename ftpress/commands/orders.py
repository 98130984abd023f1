"""``ftpress orders new <player>``: the player's order form for the open turn;
``ftpress orders seal FILE``: the order file checked, then sealed
(:mod:`ftpress.commands.seal`).

The form is the campaign's ruleset's (``Ruleset.order_form``): every group of the
player holding, with what it holds, where it can go this week and which orders
apply as comments. It is written to ``orders/<turn>/<player>.yaml``, ready to
edit, and passes ``ftpress check`` as it stands.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ftpress import rules
from ftpress.commands import seal
from ftpress.errors import InputError, InvalidArgument, Problem, RefusedCommand
from ftpress.files.config import CONFIG_FILE, load_config
from ftpress.files.write import write_file
from ftpress.orders.load import orders_path
from ftpress.rules.ruleset import Ruleset
from ftpress.rules.suggest import aside
from ftpress.state.turns import turn_id
from ftpress.store import open_at_hand
from ftpress.text.logsafe import say


def new_form(root: Path, player_id: str, *, force: bool = False,
             identity: Path | None = None) -> str:
    """Write ``player_id``'s order form for the open turn; its path (relative to
    ``root``). Refuses to replace an order file unless ``force``. In a sealed campaign
    the form is made from the whole state where the umpire's key is at hand, else from
    what the player knows (their intelligence, opened with ``identity``)."""
    store = open_at_hand(root)
    loaded = store.state()
    # Read without the umpire's key, a sealed campaign's state is what the public knows.
    if loaded is not None and loaded.state.campaign.known_to is not None:
        if identity is None:
            raise RefusedCommand(f"this campaign is sealed: {player_id}'s form is made from "
                                 f"what {player_id} knows; give --identity FILE, "
                                 f"{player_id}'s age secret key or SSH private key")
        loaded = store.known_by(player_id, identity)
    if loaded is None:
        raise InputError([Problem("state", 0, 0, "this campaign has no state; expected "
                                  "state/campaign.yaml and the rest")])
    state = loaded.state
    players = [p.id for p in state.players.players]
    if player_id not in players:
        hint = aside(player_id, ((p.id, p.name) for p in state.players.players))
        raise InvalidArgument(f"{player_id!r} is not a player of this campaign{hint}; "
                              f"expected one of {', '.join(players)}")
    ruleset = rules.find_ruleset(state.campaign.ruleset)
    if ruleset.order_form is None:
        raise RefusedCommand(f"the {ruleset.name} ruleset has no order form; write "
                             f"{orders_path(turn_id(state.campaign.calendar.turn), player_id)} "
                             "by its schema and check it with 'ftpress check'")
    rel = orders_path(turn_id(state.campaign.calendar.turn), player_id)
    target = root / rel
    if (target.exists() or target.is_symlink()) and not force:
        raise RefusedCommand(f"{rel} exists already; edit it, or run again with --force "
                             "to replace it with a new form")
    write_file(target, (_schema_line(root, ruleset) + ruleset.order_form(state, player_id))
               .encode())
    return rel


def _schema_line(root: Path, ruleset: Ruleset[Any]) -> str:
    """The line that tells an editor which schema the file follows, if the site has
    an address to publish it at."""
    if not (root / CONFIG_FILE).is_file():
        return ""
    return (f"# yaml-language-server: $schema={load_config(root).base_url}schemas/"
            f"{ruleset.orders_schema}.json\n")


# --- the command ----------------------------------------------------------------------

def arguments(parser: argparse.ArgumentParser) -> None:
    what = parser.add_subparsers(dest="what", required=True, metavar="WHAT")
    new = what.add_parser("new", help="write a player's order form for the open turn")
    new.add_argument("player", help="the player's id, such as nac")
    new.add_argument("--force", action="store_true",
                     help="replace the player's order file if there is one")
    new.add_argument("--identity", type=Path, metavar="FILE",
                     help="in a sealed campaign, your age secret key or SSH private key: the "
                     "form is made from what you know")
    new.add_argument("--source", type=Path, default=Path())
    seal.arguments(what.add_parser("seal", help="check an order file, then seal it for the "
                                   "umpires and its player (a sealed campaign)"))


def run(args: argparse.Namespace) -> int:
    if args.what == "seal":
        return seal.run(args)
    rel = new_form(args.source, args.player, force=args.force, identity=args.identity)
    say(f"wrote {rel}: every group holds; edit it, then 'ftpress check {rel}'")
    return 0
