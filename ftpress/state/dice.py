"""Deterministic, verifiable dice, every roll logged with its purpose and rule.

A :class:`Dice` draws from a source: a :class:`KeyedStream` (a keyed hash in
counter mode, so anyone holding the key can re-roll the same dice) or a
:class:`SuppliedDice` (dice an umpire rolled by hand, read from a file). Rules
code never sees which; it asks for ``dice.d6("world in hex (0, -3)", "ftc2007 §1.2")``
and the roll goes into :attr:`Dice.log`.

**Hidden rolls.** A rule whose roll the public may not learn (a lost roll made in
secret, a check told only to the ship's owner) asks for it with ``hidden=True``:
the roll is marked so in the log, and, where the dice have a second source for
hidden rolls, drawn from it. A sealed campaign's turn keys that second stream
with a secret the public never learns (:mod:`ftpress.store.secret`), so the
public stream, whose key is public once the turn is over, holds only the public
rolls and says nothing of the hidden ones. Without a second source (an open
campaign, dice rolled by hand, a turn recorded before hidden streams) every roll
comes from the one source, in order, as before.

The stream, precisely, so that it can be re-implemented elsewhere: attempt
``n`` (counting from 0 over the whole stream) is the first 8 bytes, read as a
big-endian unsigned integer ``x``, of ``HMAC-SHA256(key, b"ftpress-dice" +
n.to_bytes(8, "big"))``. For a die of ``N`` sides, ``x`` is rejected if
``x >= 2**64 - 2**64 % N`` (so every face is exactly equally likely) and the
next attempt is tried; otherwise the roll is ``x % N + 1``. Python's
``random`` is not used: its integer methods are not promised to give the same
numbers from one Python version to the next.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ftpress.errors import InputError, Problem

_SPACE = 2**64
_LABEL = b"ftpress-dice"


@dataclass(frozen=True, slots=True)
class Roll:
    """One die rolled: how many sides, what came up, why, under which rule."""

    # Read back from a turn's dice log; a misspelt key there is an error, not ignored.
    __pydantic_config__ = {"extra": "forbid"}  # noqa: RUF012

    sides: int
    value: int
    purpose: str
    rule: str
    #: Where the roll stands in the turn's dice: the attempt of the keyed stream that
    #: gave it (or its place among dice rolled by hand). Written only in a sealed
    #: campaign's public dice log, which leaves out the hidden rolls, so that anyone
    #: can still check each roll shown against the stream (:func:`stream_value`).
    at: int | None = None
    #: The rules keep this roll from the public (:meth:`Dice.roll`'s ``hidden``): a
    #: sealed campaign's public dice log leaves it out.
    hidden: bool = False


class DiceSource(Protocol):
    def draw(self, sides: int, purpose: str) -> int:
        """One result from 1 to ``sides``."""


def key_from(*parts: str | bytes) -> bytes:
    """A stream key from public parts (campaign id, turn id, a digest …).

    Each part is length-prefixed before hashing, so ('ab', 'c') and ('a', 'bc')
    give different keys.
    """
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big"))
        digest.update(data)
    return digest.digest()


class KeyedStream:
    """HMAC-SHA256 in counter mode with rejection sampling; see the module docstring."""

    __slots__ = ("_counter", "_key")

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._counter = 0

    def draw(self, sides: int, purpose: str) -> int:
        while True:
            value = stream_value(self._key, self._counter, sides)
            self._counter += 1
            if value is not None:
                return value


def _attempt(key: bytes, counter: int) -> int:
    block = hmac.new(key, _LABEL + counter.to_bytes(8, "big"), hashlib.sha256).digest()
    return int.from_bytes(block[:8], "big")


def stream_value(key: bytes, at: int, sides: int) -> int | None:
    """What attempt ``at`` of the stream keyed ``key`` gives a die of ``sides`` sides;
    None if that attempt is rejected (no roll can stand there)."""
    x = _attempt(key, at)
    return x % sides + 1 if x < _SPACE - _SPACE % sides else None


def stream_positions(key: bytes, rolls: Sequence[Roll]) -> list[int]:
    """The attempt of the stream keyed ``key`` that gave each of ``rolls``, in order:
    the stream drawn again, die by die."""
    positions: list[int] = []
    counter = 0
    for roll in rolls:
        while stream_value(key, counter, roll.sides) is None:
            counter += 1
        positions.append(counter)
        counter += 1
    return positions


class SuppliedDice:
    """Dice rolled by hand, taken in order; each must fit the die asked for.

    ``lines`` (optional) gives the line of each value in ``origin``, so a wrong
    value is reported where it was written.
    """

    __slots__ = ("_lines", "_next", "_values", "origin")

    def __init__(self, values: Sequence[int], origin: str,
                 lines: Sequence[int] | None = None) -> None:
        self._values = tuple(values)
        self._lines = tuple(lines) if lines is not None else None
        self._next = 0
        self.origin = origin

    def draw(self, sides: int, purpose: str) -> int:
        index = self._next
        if index >= len(self._values):
            raise InputError([Problem(self.origin, 0, 0, f"ran out of dice after {index} "
                                      f"rolls; roll {index + 1} is a d{sides} for {purpose}")])
        value = self._values[index]
        if not 1 <= value <= sides:
            line = self._lines[index] if self._lines else 0
            raise InputError([Problem(self.origin, line, 0, f"roll {index + 1} is {value}, "
                                      f"but it is a d{sides} for {purpose}; expected 1 to "
                                      f"{sides}")])
        self._next += 1
        return value

    @property
    def unused(self) -> int:
        """Values supplied but not (yet) rolled."""
        return len(self._values) - self._next


class Dice:
    """Rolls dice from a source and keeps the log; ``hidden_source``, where given,
    gives the hidden rolls (see the module docstring)."""

    __slots__ = ("_log", "hidden_source", "source")

    def __init__(self, source: DiceSource, hidden_source: DiceSource | None = None) -> None:
        self.source = source
        self.hidden_source = hidden_source
        self._log: list[Roll] = []

    @classmethod
    def seeded(cls, *parts: str | bytes) -> Dice:
        """Dice from a keyed stream whose key is made of ``parts``."""
        return cls(KeyedStream(key_from(*parts)))

    def roll(self, sides: int, purpose: str, rule: str, *, hidden: bool = False) -> int:
        """One die of ``sides`` sides, logged; ``hidden``: the rules keep it from the
        public (see the module docstring)."""
        if sides < 1:
            raise ValueError(f"a die needs at least one side, not {sides}")
        source = self.hidden_source if hidden and self.hidden_source is not None \
            else self.source
        value = source.draw(sides, purpose)
        self._log.append(Roll(sides, value, purpose, rule, hidden=hidden))
        return value

    def d6(self, purpose: str, rule: str, *, hidden: bool = False) -> int:
        return self.roll(6, purpose, rule, hidden=hidden)

    def d5(self, purpose: str, rule: str, *, hidden: bool = False) -> int:
        return self.roll(5, purpose, rule, hidden=hidden)

    def d3(self, purpose: str, rule: str, *, hidden: bool = False) -> int:
        return self.roll(3, purpose, rule, hidden=hidden)

    def total(self, count: int, sides: int, purpose: str, rule: str, *,
              hidden: bool = False) -> int:
        """The sum of ``count`` dice, each logged (``3d5`` is ``total(3, 5, …)``)."""
        return sum(self.roll(sides, f"{purpose} ({i + 1} of {count})", rule, hidden=hidden)
                   for i in range(count))

    @property
    def log(self) -> tuple[Roll, ...]:
        return tuple(self._log)
