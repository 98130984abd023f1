"""Initiative (§2.2, phase 4): one die a player, ties rolled again."""

from __future__ import annotations

from ftpress.rules.abstract_combat import roll_initiative
from ftpress.rules.sct.plan import rule
from ftpress.state import words
from ftpress.state.dice import Dice
from ftpress.state.events import PUBLIC, Event
from ftpress.state.model import State


def roll(state: State, dice: Dice) -> tuple[tuple[str, ...], list[Event]]:
    """§2.2: every player rolls a d6 (the seed names no die; the FT die is a d6);
    ties for any place are rolled again among the tied. Returns the players
    highest first."""
    players = [p.id for p in state.players.players]
    if not players:
        return (), []
    start = len(dice.log)
    titles = {p: words.power(state, p) for p in players}
    order, first = roll_initiative(dice, players, rule("2.2"), titles=titles)
    text = ", ".join(f"{titles[p]} {first[p]}" for p in order)
    if len(set(first.values())) < len(first):
        text += " (ties rolled again)"
    return order, [Event("initiative", rule("2.2"), f"Initiative, highest first: {text}.",
                         players=order, rolls=dice.log[start:], audience=PUBLIC)]
