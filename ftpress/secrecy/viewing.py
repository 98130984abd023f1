"""Whose site a build is, and the campaign as that viewer knows it.

A build is made for one :class:`~ftpress.secrecy.visibility.Viewer`, named by
``--view``: the public, the umpire, or a player. The load stage hands the
renderer the state and every recorded turn as that viewer knows them
(:func:`ftpress.secrecy.knowledge.known_state`), so no page of a view can show what its
viewer may not know; the umpire's view is the full state.

Where the build holds the full states (an open campaign, or the umpire's key),
it also makes each turn's last safety net from them
(:class:`~ftpress.secrecy.visibility.HiddenFacts`): the names the full states
hide from the viewer, which no event the viewer reads may carry.

Where the state files hold only what the public knows (a sealed campaign), a
player's view is made from them and the player's sealed intelligence
(:mod:`ftpress.secrecy.intelligence`), opened with their key: each turn as the player
knew it when it was resolved, and the campaign now as the public knows it with
the player's own records from their latest intelligence. A turn the player has
no intelligence of (the setup, or one resolved before they had a key) is shown
as the public knows it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ftpress import rules
from ftpress.errors import InputError, Problem
from ftpress.secrecy import agekeys
from ftpress.secrecy.intelligence import path_of, read_intelligence
from ftpress.secrecy.knowledge import known_state, with_own
from ftpress.secrecy.visibility import PUBLIC_VIEW, UMPIRE_VIEW, HiddenFacts, Viewer
from ftpress.state.model import State
from ftpress.state.records import RecordedTurn
from ftpress.state.turns import TURNS_DIR

#: ``--view`` of the public site and of the umpire's.
PUBLIC, UMPIRE = "public", "umpire"


def viewer_named(view: str) -> Viewer:
    """The viewer ``--view`` names: ``public``, ``umpire`` or a player's id."""
    if view == UMPIRE:
        return UMPIRE_VIEW
    return PUBLIC_VIEW if view == PUBLIC else Viewer.of(view)


@dataclass(frozen=True, slots=True)
class Known:
    """The campaign as one viewer knows it, ready to render."""

    state: State
    #: Every recorded turn, its state as the viewer knows it.
    turns: tuple[RecordedTurn, ...]
    #: Each turn's last safety net (None: none, for the umpire, or where the build has
    #: only what the viewer knows).
    nets: tuple[HiddenFacts | None, ...]


def known(state: State, turns: Sequence[RecordedTurn], viewer: Viewer) -> Known:
    """``state`` and ``turns`` (as loaded) as ``viewer`` knows them."""
    seen = tuple(dataclasses.replace(t, state=known_state(t.state, viewer)) for t in turns)
    nets = tuple(_net(turns[i - 1].state if i else None, t, s.state, viewer)
                 for i, (t, s) in enumerate(zip(turns, seen, strict=True)))
    return Known(known_state(state, viewer), seen, nets)


def _net(before: State | None, turn: RecordedTurn, known_after: State, viewer: Viewer
         ) -> HiddenFacts | None:
    """The net of one turn, made from its full states (none where the build holds only
    what the viewer knows, or where the viewer knows it all)."""
    after = turn.state
    if after.campaign.known_to is not None or known_after is after:
        return None
    if before is not None and before.campaign.known_to is not None:
        before = None
    return HiddenFacts.of_turn(before, after, viewer, turn.events)


def from_intelligence(root: Path, public: State, turns: Sequence[RecordedTurn], player: str,
                      identity: Path | None) -> Known:
    """``player``'s view where the state files hold what the public knows: from them
    and the player's intelligence, opened with the key in ``identity``."""
    if identity is None:
        raise InputError([Problem("state/campaign.yaml", 1, 1, f"the state files hold only "
                                  f"what the public knows, so {player}'s view is made from "
                                  f"{player}'s sealed intelligence; give --identity FILE, "
                                  f"{player}'s key")])
    identities = agekeys.read_identity(identity)
    seen: list[RecordedTurn] = []
    latest: State | None = None
    for turn in turns:
        rel = path_of(f"{TURNS_DIR}/{turn.id}", player)
        if not (root / rel).is_file():
            seen.append(turn)
            continue
        intelligence = read_intelligence(root, rel, identities, rules.STATE_EXTENSIONS)
        if (intelligence.player, intelligence.turn) != (player, turn.id):
            raise InputError([Problem(rel, 1, 1, f"holds {intelligence.player}'s "
                                      f"intelligence of {intelligence.turn}; expected "
                                      f"{player}'s of {turn.id}")])
        seen.append(dataclasses.replace(turn, state=intelligence.state,
                                        events=intelligence.events))
        latest = intelligence.state
    now = with_own(public, latest, player) if latest is not None else public
    return Known(now, tuple(seen), tuple(None for _ in seen))
