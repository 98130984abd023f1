"""What the public site must not tell, for the tests that look for leaks.

A group no enemy has seen into (§15.3) keeps its ships' names and designs
secret, and so does a keel on the slips (§13.2). A word that also names a ship
or design that has been seen tells a reader nothing, so it is no secret.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from ftpress.state.model import Ship, State


def ship_words(state: State, ship: Ship, ids: bool = False) -> set[str]:
    """The ship's name and its design's name (and the design's id, with ``ids``)."""
    return {ship.name, state.design(ship.design).name} | ({ship.design} if ids else set())


def seen_words(state: State, known: Collection[str] = (), ids: bool = False) -> set[str]:
    """The words of every ship of a group an enemy has seen into (or named in ``known``)."""
    return {w for g in state.groups.groups if g.revealed or g.id in known
            for ship in g.ships for w in ship_words(state, ship, ids)}


def hidden_words(state: State, known: Collection[str] = (),
                 ids: bool = False) -> dict[str, set[str]]:
    """Each group no enemy has seen into, and the words of its ships that are secret."""
    seen = seen_words(state, known, ids)
    return {g.id: {w for ship in g.ships for w in ship_words(state, ship, ids)} - seen
            for g in state.groups.groups if not (g.revealed or g.id in known)}


def secrets_of(state: State, known: Collection[str] = ()) -> set[str]:
    """Every secret word of the state: the names, design names and design ids of the
    ships of hidden groups and of keels, less the words that name something seen."""
    keels = {w for k in state.queues.keels
             for w in (k.name, k.design, state.design(k.design).name)}
    hidden = set().union(*hidden_words(state, known, ids=True).values())
    return hidden | (keels - seen_words(state, known, ids=True))


def leaks(text: str, secrets: Collection[str]) -> list[str]:
    """The secrets that stand in ``text`` as whole words, sorted."""
    return sorted(s for s in secrets if re.search(rf"(?<!\w){re.escape(s)}(?!\w)", text))
