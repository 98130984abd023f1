"""What ftcamp02 keeps in the state beyond the shared model.

A system's Biology rate, its loyalty and a claim in name (§2.1, §8); the map's
dust clouds, wormholes and beacons (§4.1); the players whose systems supply a
player's fleets (§2.1); a group's attachment, its being lost and its place in
the group structure (§3, §4.1.1, §5.3); a craft's crew losses, drive and tug
(§2.3, §4.1.1, §4.2.6); a design's kind of craft, drives, sensors and
electronic warfare (§5.1, §7). The keys stand in the state files beside the
shared ones (see :mod:`ftpress.state.extension`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import Field, Strict

from ftpress.state.extension import (
    Extension,
    Knowledge,
    StateExtension,
    extension_of,
    kept,
    withheld,
)
from ftpress.state.model import (
    CONFIG,
    Count,
    Design,
    Group,
    HexField,
    Id,
    MapFile,
    Player,
    Positive,
    Ship,
    System,
)


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


@dataclass(frozen=True, slots=True)
class Ftcamp02Group(Extension):
    __pydantic_config__ = CONFIG

    #: The standard group an independent is attached to: its marker is off the map (§3).
    attached_to: Id | None = None
    #: Lost after a failed lost roll (§4.1.1).
    lost: bool = False
    #: The group above it in the group structure (§5.3).
    parent: Id | None = None
    #: §5.2.2: a reserve group that has lost the craft that made it one stays a
    #: reserve group until it re-organises at a system its owner holds.
    reserve: bool = False


@dataclass(frozen=True, slots=True)
class Ftcamp02Ship(Extension):
    __pydantic_config__ = CONFIG

    #: Crew factors lost (§2.3).
    crew_lost: Count = 0
    #: Optimal FTL move, if not the usual 7 (§4.1.1).
    optimal: Positive | None = None
    #: A civilian tug made ready to tow (§4.2.6).
    tug_ready: bool = False
    #: A diplomat aboard (§4.2.7, §4.3).
    diplomat: bool = False


@dataclass(frozen=True, slots=True)
class Ftcamp02Design(Extension):
    __pydantic_config__ = CONFIG

    #: Standard military craft, or a civilian or military independent (§5.1).
    craft: Literal["standard", "civilian", "military"] = "standard"
    #: Drives: no FTL and no main drive make a static (§5.1.4).
    ftl: bool = True
    main_drive: bool = True
    #: Sensors for scans (§7.3); None: basic sensors, or none on a civilian craft.
    sensors: Literal["none", "basic", "enhanced", "superior"] | None = None
    #: Electronic warfare against scans (§7).
    ecm: bool = False
    area_ecm: bool = False
    stealth: bool = False
    #: Towing capacity in mass and its grade (§4.1.3, §4.2.6).
    tug: Count = 0
    tug_grade: Literal["military", "civilian"] = "military"
    #: Crew factors (None: one per hull row, §2.3).
    crew: Positive | None = None
    #: Troops aboard (§4.3).
    troops: bool = False


def _has_a_marker(group: Group) -> bool:
    """§3: an independent attached to a group has no marker on the map; others do not
    know it is there."""
    return extension_of(group, Ftcamp02Group).attached_to is None


#: What others may know of ftcamp02's keys: a system's Biology, loyalty and claim, the
#: map's dust, wormholes and beacons, who supplies whom, a design's kind (shown where
#: its ships are seen); not a group's place in the group structure, whether it is lost
#: (the lost roll is secret, §4.1.1) or attached (§3), nor a craft's crew losses,
#: drive, tug or passengers.
KNOWLEDGE = Knowledge(outsider={"system": kept, "map": kept, "player": kept, "design": kept,
                                "group": withheld, "ship": withheld},
                      group_seen=_has_a_marker)

EXTENSION = StateExtension("ftcamp02", {
    "system": Ftcamp02System, "map": Ftcamp02Map, "player": Ftcamp02Player,
    "group": Ftcamp02Group, "ship": Ftcamp02Ship, "design": Ftcamp02Design}, KNOWLEDGE)


def of_system(system: System) -> Ftcamp02System:
    """What ftcamp02 keeps about ``system``."""
    return extension_of(system, Ftcamp02System)


def of_map(map_file: MapFile) -> Ftcamp02Map:
    return extension_of(map_file, Ftcamp02Map)


def of_player(player: Player) -> Ftcamp02Player:
    return extension_of(player, Ftcamp02Player)


def of_group(group: Group) -> Ftcamp02Group:
    return extension_of(group, Ftcamp02Group)


def of_ship(ship: Ship) -> Ftcamp02Ship:
    return extension_of(ship, Ftcamp02Ship)


def of_design(design: Design) -> Ftcamp02Design:
    return extension_of(design, Ftcamp02Design)
