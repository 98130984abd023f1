"""What sct keeps in the state beyond the shared model: its systems on a plane.

An sct map is a plane measured in MU (``geometry: plane``, §7.1): each system
stands at a position instead of a hex, with the colour of its star, the nation
that held it at the start, and the installations being built there (§7.2–§7.4).
The keys stand in ``state/map.yaml`` beside the shared ones (see
:mod:`ftpress.state.extension`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ftpress.state.extension import Extension, Knowledge, StateExtension, extension_of
from ftpress.state.model import CONFIG, Id, Point, PointField, Positive, System

Spectral = Literal["O", "B", "A", "F", "G", "K", "M"]
Installation = Literal["depot", "base", "shipyard"]


@dataclass(frozen=True, slots=True)
class SctSystem(Extension):
    __pydantic_config__ = CONFIG

    #: Where the star is, in MU (``z`` shown inside its symbol, not moved in).
    position: PointField | None = None
    #: Its spectral colour (the outer ring of its symbol).
    spectral: Spectral | None = None
    #: The nation that held it at the start.
    nation: Id | None = None
    #: Installations under construction: kind → turns of work left (§7.2–§7.4).
    works: dict[Installation, Positive] = field(default_factory=dict)


#: sct's rules hide nothing: a task force's ships, a build's name, are everyone's to know.
EXTENSION = StateExtension("sct", {"system": SctSystem}, Knowledge(hides_nothing=True))


def of_system(system: System) -> SctSystem:
    """What sct keeps about ``system``."""
    return extension_of(system, SctSystem)


def position(system: System) -> Point | None:
    """Where ``system`` stands on the plane (None: placed by hex, which sct refuses)."""
    return of_system(system).position

