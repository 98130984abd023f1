"""How a ruleset's state shows on the site beyond what every ruleset's does.

The renderer draws what the shared model holds: the systems table, the powers'
counters, a hex map or a planar one. What a ruleset keeps beside it (its
extension records, :mod:`ftpress.state.extension`) only the ruleset can read, so
the ruleset declares, as a :class:`Display`, how that shows: the text of a
system's place and its notes, the systems tables' columns that name a power,
which groups are counters of their own, what a hex map shades and rings, where
a planar map draws each system. The orchestrator hands the campaign's ruleset's
display to the renderer, which never names a ruleset.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ftpress.state.hexes import Hex
from ftpress.state.model import Group, MapFile, Player, Point, State, System


@dataclass(frozen=True, slots=True)
class PlaneSystem:
    """A system as a planar map draws it."""

    #: Where it stands, in MU (``z`` is shown inside its symbol).
    at: Point
    #: Its star's spectral class, the colour of the outer ring.
    spectral: str | None = None
    #: The player whose colour fills the inner circle: who held it at the start.
    nation: str | None = None


@dataclass(frozen=True, slots=True)
class HexFeatures:
    """What a hex map shows besides its worlds, routes and counters."""

    #: Hexes shaded as dust cloud.
    dust: tuple[Hex, ...] = ()
    #: Wormholes, by their two ends, each end ringed.
    wormholes: tuple[tuple[Hex, Hex], ...] = ()


@dataclass(frozen=True, slots=True)
class PowerColumn:
    """A column of the systems tables naming the power that stands in some relation
    to each system (the one that has interdicted it, say)."""

    #: The turn report's column heading: 'Interdicted by'.
    heading: str
    #: How the systems page's notes say it, before the power's name: 'interdicted by'.
    note: str
    #: The power's player id for a system, or None.
    power: Callable[[System], str | None]


def hex_place(system: System) -> str:
    """Where a system on a hex map is: its hex."""
    return str(system.hex)


def no_notes(system: System) -> tuple[str, ...]:
    return ()


def own_counter(group: Group) -> bool:
    return True


def no_features(map_file: MapFile) -> HexFeatures:
    return HexFeatures()


def off_plane(system: System) -> PlaneSystem | None:
    return None


def never(system: System) -> bool:
    return False


def holds_nothing_else(state: State, player_id: str) -> tuple[tuple[str, str, str], ...]:
    return ()


@dataclass(frozen=True, slots=True)
class Display:
    """A ruleset's declaration of how its state shows; the defaults show the shared
    model alone."""

    #: The systems tables' place column: where a system is, as text.
    place: Callable[[System], str] = hex_place
    #: That column's heading.
    place_heading: str = "Hex"
    #: Does the ruleset have charted routes (a power's worlds table lists them)?
    routes: bool = True
    #: A power's upkeep as the powers' pages show it, its rate and the level chosen
    #: ('7.5%', 'standardised'); None where the ruleset bills no upkeep.
    upkeep: Callable[[Player], tuple[str, str]] | None = None
    #: Does the ruleset have dummy counters (a power's page may say some are)?
    dummies: bool = True
    #: More public facts about a system, for the systems table's notes.
    notes: Callable[[System], tuple[str, ...]] = no_notes
    #: Columns naming a power for each system (a note on the systems page).
    columns: tuple[PowerColumn, ...] = ()
    #: Does a group show as a counter of its own (on the map and a power's page)?
    #: The umpire's view shows every group.
    counter: Callable[[Group], bool] = own_counter
    #: What a hex map shades and rings besides its worlds.
    features: Callable[[MapFile], HexFeatures] = no_features
    #: Does a hex map ring a world as interdicted (its income cut off)?
    interdicted: Callable[[System], bool] = never
    #: What a player holds beside their groups and worlds (ftc2007's prizes), as the
    #: player's own report lists it: rows of what it is, where, and what it holds.
    holdings: Callable[[State, str], tuple[tuple[str, str, str], ...]] = holds_nothing_else
    #: How a planar map (``geometry: plane``) draws a system; None: it is not drawn.
    plane_system: Callable[[System], PlaneSystem | None] = off_plane


#: The display of a ruleset that keeps nothing beside the shared model.
PLAIN = Display()
