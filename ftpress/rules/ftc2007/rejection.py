"""An order the rules forbid, as the legality checks of every kind of order give it."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rejection:
    """An order the rules forbid: where it is in the file, and why."""

    loc: tuple[Hashable, ...]
    message: str
    #: The group whose order it is; None for the file as a whole or the economy.
    group: str | None = None
    #: Point at the key rather than its value.
    key: bool = False
