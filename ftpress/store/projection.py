"""What the public may know of a turn: the one value every public file of it is made from.

A sealed campaign's plain files are written from :class:`PublicTurn` alone, each
from a part of it that was made for the public: the state the public knows
(:func:`ftpress.secrecy.knowledge.public_state`), the events whose audience is everyone
(cleared by the turn's last safety net, :class:`ftpress.secrecy.visibility.HiddenFacts`,
each counter in them named as that state names it),
the public rolls with their places in the stream, ``turn.yaml`` without the hidden
secret, the public copy of each order file (who sent it, for which turn: never made
from the player's text). A battle result fought on the tabletop has no public copy:
what the public learns of the battle is what its public events say (who holds the
field, the ships lost and taken, who jumped out, never where to: ftc2007 §18.4).
Nothing public is made by taking a whole file and deleting from it afterwards;
tests/test_noninterference.py ("nothing public depends on a hidden fact") tests
this seam.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from ftpress.secrecy.hidden_state import (
    counters_named,
    public_events,
    public_order_copy,
    public_rolls,
)
from ftpress.secrecy.knowledge import counter_names, public_state
from ftpress.secrecy.visibility import PUBLIC_VIEW, HiddenFacts
from ftpress.state.events import Event, TurnRecord
from ftpress.state.model import DiceFile, State
from ftpress.store.campaign_store import MadeTurn


@dataclass(frozen=True, slots=True)
class PublicTurn:
    """A turn as the public knows it."""

    turn: str
    #: The state the turn ended with, as the public knows it.
    state: State
    #: The state it started from, where the record keeps it (``before/``).
    before: State | None
    events: tuple[Event, ...]
    dice: DiceFile
    #: ``turn.yaml`` as the public reads it: no hidden secret.
    record: TurnRecord
    #: The public copy of each order file folded in, by player
    #: (:func:`~ftpress.secrecy.hidden_state.public_order_copy`).
    orders: Mapping[str, bytes]


def project(made: MadeTurn) -> PublicTurn:
    """The public's part of a turn (see the module docstring)."""
    net = HiddenFacts.of_turn(made.start, made.state, PUBLIC_VIEW, made.events)
    # Every counter named as the public's state names it, never by its real id.
    shown = counters_named(public_events(made.events, net),
                           counter_names(made.state, PUBLIC_VIEW))
    apart = made.record.hidden_secret_sha256 is not None
    orders = {player: public_order_copy(made.turn, player) for player in made.orders}
    return PublicTurn(made.turn, public_state(made.state),
                      public_state(made.before) if made.before is not None else None,
                      shown, public_rolls(made.dice, shown, made.key, apart),
                      dataclasses.replace(made.record, hidden_secret=None), orders)
