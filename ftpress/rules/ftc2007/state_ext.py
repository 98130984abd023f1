"""What ftc2007 keeps in the state beyond the shared model.

The player whose attack has left a world interdicted (§10.6) and the one it
paid income to this economic turn (§11.1), the hulks a player
has captured and not yet rebuilt, stripped or sold (§12), whether a design
is of non-standard technology (§16), and whether a group's move of the next
turn is its jump out of a system (§18.4). The keys stand in the
state files beside the shared ones (see :mod:`ftpress.state.extension`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ftpress.state.extension import (
    Extension,
    Knowledge,
    StateExtension,
    extension_of,
    kept,
    withheld,
)
from ftpress.state.model import CONFIG, Design, Group, Id, Location, Player, Ship, System


@dataclass(frozen=True, slots=True)
class Prize:
    """A hulk taken after a battle (ftc2007 §12.1), its captor's until rebuilt,
    stripped or sold (§12.2); whoever wins a later battle where it lies takes it."""

    __pydantic_config__ = CONFIG

    id: Id
    at: Location
    ship: Ship
    #: The navy it was taken from.
    taken_from: Id
    #: Stripped for parts (§12.2.2): what is left cannot be sold or rebuilt.
    stripped: bool = False


@dataclass(frozen=True, slots=True)
class Ftc2007System(Extension):
    __pydantic_config__ = CONFIG

    #: The player whose attack has left the world interdicted this turn (§10.6).
    interdicted_by: Id | None = None
    #: The player the world paid income to as this economic turn opened, while the
    #: same player holds it (§11.1: repairs are made there all economic turn).
    paid_income_to: Id | None = None


@dataclass(frozen=True, slots=True)
class Ftc2007Player(Extension):
    __pydantic_config__ = CONFIG

    #: §12: hulks this player has captured and not yet rebuilt, stripped or sold.
    prizes: tuple[Prize, ...] = ()


@dataclass(frozen=True, slots=True)
class Ftc2007Design(Extension):
    __pydantic_config__ = CONFIG

    #: Non-standard ships are repaired only from spares or at the capital (§16);
    #: non-indigenous ones too, and they cost 20% more to build and repair (§16.3).
    tech: Literal["standard", "non-standard", "non-indigenous"] = "standard"


@dataclass(frozen=True, slots=True)
class Ftc2007Group(Extension):
    __pydantic_config__ = CONFIG

    #: §18.4: the group jumped out of a system this turn, out of a battle or on
    #: withdraw if contested; the jump is its move for the next turn.
    jumped_out: bool = False


def _not_jumped_out(group: Group) -> bool:
    """§18.4: others learn where a group that jumped out went only when they meet it
    again; until its jump is made as next week's move it is gone from their map."""
    return not jumped_out(group)


#: What others may know of ftc2007's keys: who interdicted a world and whom it paid
#: (the map shows them), the prizes taken in battles, a design's technology; not
#: whether a group has jumped out, nor, while it has, where it is (§18.4).
KNOWLEDGE = Knowledge(outsider={"system": kept, "player": kept, "design": kept,
                                "group": withheld},
                      group_seen=_not_jumped_out)

EXTENSION = StateExtension("ftc2007", {"system": Ftc2007System, "player": Ftc2007Player,
                                       "design": Ftc2007Design, "group": Ftc2007Group},
                           KNOWLEDGE)


def interdictor(system: System) -> str | None:
    """The player whose attack has left ``system`` interdicted (§10.6), if any."""
    return extension_of(system, Ftc2007System).interdicted_by


def paid_income_to(system: System) -> str | None:
    """Who ``system`` paid income to as this economic turn opened and holds it still
    (§11.1), if anyone."""
    return extension_of(system, Ftc2007System).paid_income_to


def prizes_of(player: Player) -> tuple[Prize, ...]:
    """The prizes ``player`` holds (§12)."""
    return extension_of(player, Ftc2007Player).prizes


def jumped_out(group: Group) -> bool:
    """Did ``group`` jump out of a system last turn, so that its move this turn is
    made (§18.4)?"""
    return extension_of(group, Ftc2007Group).jumped_out


def tech_of(design: Design) -> str:
    return extension_of(design, Ftc2007Design).tech
