"""Who plays which power, by GitHub account: ``LOGIN:ID`` values and the roster edits.

An order pull request is a player's when its author's numeric GitHub id is the
one in ``state/players.yaml`` (a login can be renamed; the id cannot), and an
umpire's when it is in ``state/campaign.yaml``'s ``umpires``. ``ftpress init
--player``/``--umpire`` record them in a new campaign; ``ftpress roster`` edits
them in a running one, writing only the one state file it changes (the next
turn's record notes the roster as edited since the last turn, as for any edit).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path

from ftpress.errors import InvalidArgument, RefusedCommand
from ftpress.secrecy.agekeys import recipient_problem
from ftpress.secrecy.twins import twin
from ftpress.state.files import KINDS, STATE_DIR
from ftpress.state.model import Player, State, Umpire
from ftpress.state.writeout import write_out
from ftpress.store import open_store
from ftpress.store.state_edits import current_state, write_state_file

#: GitHub's login rule: letters, digits and single hyphens, at most 39 characters.
_LOGIN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})")
#: Where a user's numeric id is shown, for messages.
ID_LOOKUP = "https://api.github.com/users/LOGIN shows it as \"id\""


@dataclass(frozen=True, slots=True)
class Account:
    login: str
    id: int

    def __str__(self) -> str:
        return f"@{self.login} (id {self.id})"


def parse_account(text: str, option: str) -> Account:
    """``LOGIN:ID`` as the user gave it, or :class:`InvalidArgument` naming ``option``."""
    login, sep, number = text.strip().partition(":")
    if not sep or not _LOGIN.fullmatch(login) or not number.isdigit() or int(number) < 1:
        raise InvalidArgument(f"{option} {text!r}: expected LOGIN:ID, a GitHub login and the "
                              f"account's numeric id, such as octocat:583231 ({ID_LOOKUP})")
    return Account(login, int(number))


def parse_player_account(text: str) -> tuple[str, Account]:
    """``PLAYER:LOGIN:ID`` (``--player``): the player id and the account."""
    player, sep, rest = text.strip().partition(":")
    if not sep or not player:
        raise InvalidArgument(f"--player {text!r}: expected PLAYER:LOGIN:ID, such as "
                              f"nac:octocat:583231 ({ID_LOOKUP})")
    return player, parse_account(rest, f"--player {player}:")


def with_accounts(state: State, players: dict[str, Account],
                  umpires: tuple[Account, ...] = ()) -> State:
    """``state`` with these players' accounts and these umpires added."""
    roster = tuple(_assign(p, players[p.id]) if p.id in players else p
                   for p in state.players.players)
    campaign = state.campaign
    if umpires:
        campaign = dataclasses.replace(campaign, umpires=(
            *(campaign.umpires or ()), *(Umpire(u.id, u.login) for u in umpires)))
    return dataclasses.replace(state, campaign=campaign,
                               players=dataclasses.replace(state.players, players=roster))


def _assign(player: Player, account: Account) -> Player:
    # A recipient is the person's key, not the power's: a new player must not be able
    # to open what was sealed to the last one, nor the last one what is sealed to them.
    # A power nobody played yet keeps the recipient recorded for it (the person given
    # the account sent it, before or after their login).
    kept = player.github_id is None or player.github_id == account.id
    recipient = player.recipient if kept else None
    return dataclasses.replace(player, github=account.login, github_id=account.id,
                               recipient=recipient)


# --- editing a running campaign's roster ------------------------------------------------

def add_player_account(root: Path, player: str, account: Account) -> str:
    """Record the account of a power that has none yet; the line to print."""
    state = current_state(root)
    current = _player(state, player)
    _refuse_taken(state, account, player)
    if current.github_id is not None:
        raise RefusedCommand(f"{player} is played by {_who(current)} already; to hand the "
                             f"power to someone else: ftpress roster replace {player} "
                             f"--github {account.login}:{account.id}")
    write_state_file(root, with_accounts(state, {player: account}), "players")
    return f"{player} is played by {account}: their pull requests to orders/ are theirs"


def replace_player_account(root: Path, player: str, account: Account) -> str:
    """Hand a power to a new player; the line to print."""
    state = current_state(root)
    current = _player(state, player)
    if current.github_id == account.id:
        raise RefusedCommand(f"{player} is played by {_who(current)} already; nothing changed")
    _refuse_taken(state, account, player)
    # A recipient is the person's key: the new player's is not the last one's.
    handed = with_accounts(state, {player: account})
    handed = dataclasses.replace(handed, players=dataclasses.replace(handed.players, players=tuple(
        dataclasses.replace(p, recipient=None) if p.id == player else p
        for p in handed.players.players)))
    write_state_file(root, handed, "players")
    before = _who(current) if current.github_id is not None else "nobody"
    return (f"{player} passes from {before} to {account}: from now on only {account.login}'s "
            f"pull requests may change orders/<turn>/{player}.yaml")


def record_recipient(root: Path, player: str, recipient: str) -> str:
    """Record ``recipient`` (the line ``ftpress keys new`` printed for the player) as
    ``player``'s key; the line to print. In a sealed campaign the roster's projection
    and its twin are written together, so they never disagree; no turn's snapshot is
    rewritten: a recorded turn keeps the keys it was resolved with."""
    recipient = recipient.strip()
    problem = recipient_problem(recipient)
    if problem is not None:
        raise InvalidArgument(f"RECIPIENT {recipient!r}: {problem}")
    state = current_state(root)
    current = _player(state, player)
    if current.recipient == recipient:
        raise RefusedCommand(f"{player}'s recipient is {recipient} already; nothing changed")
    players = tuple(dataclasses.replace(p, recipient=recipient) if p.id == player else p
                    for p in state.players.players)
    store = open_store(root)
    rel = f"{STATE_DIR}/{KINDS['players'].file}"
    files = store.current_files(dataclasses.replace(state, players=dataclasses.replace(
        state.players, players=players)), ("players",))
    write_out(root, rel, files)
    # What the player knows of the latest turn, sealed to their new key (a sealed
    # campaign's), so that they check their orders against it from now on.
    known = store.intelligence_for(player)
    if known:
        write_out(root, f"{player}'s intelligence", known)
    was = "" if current.recipient is None else f" (in place of {current.recipient})"
    return (f"{player}'s recipient is {recipient}{was}: what is sealed from now on opens "
            f"with their key; commit {rel}{' and its twin' if twin(rel) in files else ''}")


def add_umpire(root: Path, account: Account) -> str:
    state = current_state(root)
    if any(u.github_id == account.id for u in state.campaign.umpires or ()):
        raise RefusedCommand(f"{account} is an umpire already; nothing changed")
    write_state_file(root, with_accounts(state, {}, (account,)), "campaign")
    return f"{account} is an umpire: they may change any player's orders in a pull request"


def _player(state: State, player: str) -> Player:
    for candidate in state.players.players:
        if candidate.id == player:
            return candidate
    known = ", ".join(p.id for p in state.players.players)
    raise InvalidArgument(f"no player {player!r} in {STATE_DIR}/{KINDS['players'].file}; "
                          f"expected one of {known}")


def _refuse_taken(state: State, account: Account, player: str) -> None:
    for other in state.players.players:
        if other.github_id == account.id and other.id != player:
            raise RefusedCommand(f"{account} plays {other.id} already; one account plays one "
                                 "power")


def _who(player: Player) -> str:
    return str(Account(player.github, player.github_id)) if player.github and player.github_id \
        else f"id {player.github_id}"
