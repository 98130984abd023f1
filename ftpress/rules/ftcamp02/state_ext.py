"""What ftcamp02 keeps in the state beyond the shared model.

A system's Biology rate, its loyalty and a claim in name (§2.1, §8); the map's
dust clouds, wormholes and beacons (§4.1); the players whose systems supply a
player's fleets (§2.1). The keys stand in the state files beside the shared ones
(see :mod:`ftpress.state.extension`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from pydantic import Field, Strict

from ftpress.state.extension import Extension, StateExtension, extension_of
from ftpress.state.model import CONFIG, Count, HexField, Id, MapFile, Player, System


@dataclass(frozen=True, slots=True)
class Ftcamp02System(Extension):
    __pydantic_config__ = CONFIG

    #: The Biology rate: a free allowance of 5 EP a round per point (§2.1).
    bio: Count | None = None
    #: The loyalty rating towards the owner: positive, the owner controls it (§8).
    loyalty: Count = 0
    #: The power that has claimed a neutral system in name (§8.1).
    claimed_by: Id | None = None


@dataclass(frozen=True, slots=True)
class Wormhole:
    """ftcamp02 §4.1.2: a short cut whose two ends are joined, both ways."""

    __pydantic_config__ = CONFIG

    id: Id
    ends: tuple[HexField, HexField]


@dataclass(frozen=True, slots=True)
class Beacon:
    """ftcamp02 §4.1.1, §4.2.9: a navigation beacon and the bonus it gives while active."""

    __pydantic_config__ = CONFIG

    id: Id
    hex: HexField
    bonus: Annotated[int, Strict(), Field(ge=1, le=3)]
    active: bool = True


@dataclass(frozen=True, slots=True)
class Ftcamp02Map(Extension):
    """Left out of the file when None: the dust-cloud hexes (every other hex is deep
    space, §4.1.1), the wormholes (§4.1.2) and the beacons (§4.1.1)."""

    __pydantic_config__ = CONFIG

    dust: tuple[HexField, ...] | None = None
    wormholes: tuple[Wormhole, ...] | None = None
    beacons: tuple[Beacon, ...] | None = None


@dataclass(frozen=True, slots=True)
class Ftcamp02Player(Extension):
    __pydantic_config__ = CONFIG

    #: The players whose systems supply this player's fleets (§2.1).
    supplied_by: tuple[Id, ...] = ()


EXTENSION = StateExtension("ftcamp02", {"system": Ftcamp02System, "map": Ftcamp02Map,
                                        "player": Ftcamp02Player})


def of_system(system: System) -> Ftcamp02System:
    """What ftcamp02 keeps about ``system``."""
    return extension_of(system, Ftcamp02System)


def of_map(map_file: MapFile) -> Ftcamp02Map:
    return extension_of(map_file, Ftcamp02Map)


def of_player(player: Player) -> Ftcamp02Player:
    return extension_of(player, Ftcamp02Player)
