"""What each player knows after a turn, sealed to that player.

In a sealed campaign every resolved turn also writes, for each player with a
recipient, ``state/turns/<turn>/intelligence/<player>.yaml.age``: that
player's groups in full (ids, ships, damage, endurance) as the turn left them,
and the turn's events whose audience includes the player, encrypted to the
umpires and to that player (:mod:`ftpress.sealing`). The player reads it with
``age -d -i KEY`` or through ``ftpress build --view <player>``; nobody else
can.

The files are sealed afresh each time (age encryption is randomised), so
``ftpress turn --verify`` compares what they say only through the record's
plain files, and ``--redo`` writes them again.
"""

from __future__ import annotations

from dataclasses import dataclass

from ftpress import agekeys, sealing
from ftpress.events import Event
from ftpress.state.model import GroupsFile, State
from ftpress.state.save import dump

#: The record's folder of sealed intelligence.
FOLDER = "intelligence"


@dataclass(frozen=True, slots=True)
class Intelligence:
    """One player's knowledge after a turn (the file's plain form)."""

    turn: str
    player: str
    groups: GroupsFile
    events: tuple[Event, ...]


def known_to(state: State, events: tuple[Event, ...], turn: str, player: str) -> Intelligence:
    """What ``player`` knows after ``turn``: their own groups, and what they were told."""
    return Intelligence(turn, player, GroupsFile(state.groups_of(player)),
                        tuple(e for e in events if e.audience.tells(player)))


def intelligence_files(folder: str, state: State, events: tuple[Event, ...],
                       turn: str) -> dict[str, bytes]:
    """The sealed intelligence of every player with a recipient, by path in ``folder``;
    none in a campaign whose orders are plain."""
    umpires = state.campaign.umpire_recipients or ()
    if not state.campaign.sealed or not umpires:
        return {}
    files: dict[str, bytes] = {}
    for player in state.players.players:
        if player.recipient is None:
            continue  # nobody to seal it to: `ftpress keys check` names them
        plain = dump(known_to(state, events, turn, player.id)).encode("utf-8")
        files[f"{folder}/{FOLDER}/{player.id}{sealing.SEALED}"] = agekeys.encrypt(
            plain, agekeys.recipients([*umpires, player.recipient]))
    return files
