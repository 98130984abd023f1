"""Who has sent orders for a turn: those with an order file in ``orders/<turn-id>/``,
plain (``<player>.yaml``) or sealed (``<player>.yaml.age``). Only the files' presence
is counted; what they say is read when the turn resolves."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ftpress.orders.load import orders_path

#: An order file sealed for the umpire alone keeps its name with this after it.
SEALED = ".age"


def senders(root: Path, turn: str, players: Iterable[str], *,
            tails: tuple[str, ...] = ("", SEALED)) -> tuple[str, ...]:
    """The ``players`` (ids, in their order) with an order file for ``turn``, of a name
    ending ``<player>.yaml`` and one of ``tails`` (a sealed campaign's store counts
    only the sealed files: the plain one is git-ignored, the player's own working
    copy)."""
    return tuple(p for p in players
                 if any((root / (orders_path(turn, p) + tail)).is_file() for tail in tails))
