"""The sct order file: one player's orders for one turn, in the player's words.

``orders/t003/nac.yaml``::

    turn: t003
    player: nac
    forces:                      # phase 3: orders for task forces (§4)
      tf12:
        move: 9/3                # clock facing / MU, 0–3 MU (§4.1)
        toward: kessel           # optional: aim at a system or task force within 15° (§4.3)
        secondary: {toward: vega, distance: 2}   # phase 6, one endurance point (§4.4)
        supplied: true           # spend an endurance point to fight at full values (§6.5)
        engage: true             # elect to fight opposing forces within 3 MU (§6.1)
        rounds: 2                # break off after this many rounds (§6.8)
        screen: {Lexington: Victoria}   # ship → the ship of this force it screens (§6.6)
        combine: {Huron: Victoria}      # ship → the ship whose attack it joins (§6.7)
        split: {tf13: [Huron]}   # phase 9: new force → the ships that leave (§2.1)
        merge: [tf14]            # phase 9: forces at the same place join this one
        note: Free text for the umpire.
    economy:                     # phase 2 (§3, §7)
      builds:
        - {design: nac-ticonderoga, at: home, name: Lexington}
      repairs:
        - {force: tf12, ship: Huron}
      works:
        - {kind: depot, at: home}

A move is written ``direction/distance`` as in the rules' own example (9/3);
``secondary`` is either ``{toward: …}`` or ``{bearing: degrees, distance: MU}``.
Nothing here knows whether an order is legal; :mod:`.orders` decides that.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import (
    ConfigDict,
    Field,
    PlainValidator,
    Strict,
    TypeAdapter,
    WithJsonSchema,
    model_validator,
)

from ftpress.orders.fields import Note, ShipName, TurnId, World
from ftpress.state.model import Id

#: §4.1: the twelve clock facings.
FACINGS = range(1, 13)
#: §4.1, §4.4: the longest move, in MU.
MAX_MOVE = 3

_MOVE = re.compile(r"\s*(\d{1,2})\s*/\s*(\d+)\s*")


@dataclass(frozen=True, slots=True)
class Move:
    """A movement order, ``facing/distance`` (§4.1). ``repr`` pastes into a test."""

    facing: int
    distance: int

    def __str__(self) -> str:
        return f"{self.facing}/{self.distance}"


def _move(value: Any) -> Move:
    if isinstance(value, Move):
        return value
    text = value if isinstance(value, str) else None
    found = _MOVE.fullmatch(text) if text is not None else None
    if found is None:
        raise ValueError(f"expected a move as direction/distance such as 9/3 (a clock "
                         f"facing 1–12, then 0–{MAX_MOVE} MU), got {value!r}")
    facing, distance = int(found[1]), int(found[2])
    if facing not in FACINGS:
        raise ValueError(f"direction {facing} is not a clock facing; expected 1 to 12")
    if distance > MAX_MOVE:
        raise ValueError(f"distance {distance} MU is more than a move allows; expected 0 "
                         f"to {MAX_MOVE}")
    return Move(facing, distance)


MoveField = Annotated[Move, PlainValidator(_move), WithJsonSchema(
    {"type": "string", "pattern": r"^\s*(1[0-2]|[1-9])\s*/\s*[0-3]\s*$",
     "description": "clock facing / distance in MU, such as 9/3"})]
_Distance = Annotated[float, Field(gt=0, le=MAX_MOVE)]
_CONFIG = ConfigDict(extra="forbid", str_strip_whitespace=True)


@dataclass(frozen=True, slots=True)
class Secondary:
    """A phase-6 move (§4.4): toward a system or task force, or on a bearing."""

    __pydantic_config__ = _CONFIG

    toward: World | None = None
    #: Degrees clockwise from 12 o'clock.
    bearing: Annotated[float, Field(ge=0, lt=360)] | None = None
    distance: _Distance = MAX_MOVE

    @model_validator(mode="after")
    def _one_way(self) -> Secondary:
        if (self.toward is None) == (self.bearing is None):
            raise ValueError("a secondary move needs exactly one of 'toward' (a system or "
                             "task force) and 'bearing' (degrees clockwise from 12 o'clock)")
        return self


@dataclass(frozen=True, slots=True)
class ForceOrder:
    """What one task force does this turn; every field may be left out."""

    __pydantic_config__ = _CONFIG

    move: MoveField | None = None
    #: A system or task force to aim the move at, within 15° of its facing (§4.3).
    toward: World | None = None
    secondary: Secondary | None = None
    #: Spend an endurance point to fight at full values (§6.5).
    supplied: bool = True
    #: Elect to fight opposing forces within 3 MU (§6.1).
    engage: bool = True
    #: Settle its battles by the abstract combat, where the campaign lets both sides agree.
    abstract: bool = False
    #: Break off after this many rounds (§6.8); left out: fight on.
    rounds: Annotated[int, Strict(), Field(ge=1)] | None = None
    screen: dict[ShipName, ShipName] = field(default_factory=dict)
    combine: dict[ShipName, ShipName] = field(default_factory=dict)
    split: dict[Id, Annotated[tuple[ShipName, ...], Field(min_length=1)]] = field(
        default_factory=dict)
    merge: tuple[Id, ...] = ()
    note: Note | None = None

    @model_validator(mode="after")
    def _aimed(self) -> ForceOrder:
        if self.toward is not None and self.move is None:
            raise ValueError("'toward' aims a move; give 'move:' as direction/distance too")
        return self


@dataclass(frozen=True, slots=True)
class BuildOrder:
    """Lay down a new ship at one of your shipyards, paid in full now (§3.3)."""

    __pydantic_config__ = _CONFIG

    design: Id
    at: Id
    name: ShipName


@dataclass(frozen=True, slots=True)
class RepairOrder:
    """Repair a crippled ship of a force at a shipyard, half its value paid now (§3.3)."""

    __pydantic_config__ = _CONFIG

    force: Id
    ship: ShipName


@dataclass(frozen=True, slots=True)
class WorkOrder:
    """Begin a supply depot, base or shipyard at one of your systems (§7.2–§7.4)."""

    __pydantic_config__ = _CONFIG

    kind: Literal["depot", "base", "shipyard"]
    at: Id


@dataclass(frozen=True, slots=True)
class EconomyOrders:
    """Phase 2: what this turn's income and the treasury pay for."""

    __pydantic_config__ = _CONFIG

    builds: tuple[BuildOrder, ...] = ()
    repairs: tuple[RepairOrder, ...] = ()
    works: tuple[WorkOrder, ...] = ()
    note: Note | None = None


@dataclass(frozen=True, slots=True)
class SctOrders:
    """One player's sct orders for one turn."""

    __pydantic_config__ = _CONFIG

    turn: TurnId
    player: Id
    #: Task force id → its orders, in the order the player wants them moved (§4.2).
    forces: dict[Id, ForceOrder] = field(default_factory=dict)
    economy: EconomyOrders = EconomyOrders()
    note: Note | None = None


ADAPTER: TypeAdapter[SctOrders] = TypeAdapter(SctOrders)
