"""The ship catalogue: the navies and the published designs players buy from.

``catalogue.yaml`` beside this module holds the data. The abstract-combat
values of the four human navies are seed 001's ship statistics table; mass and
points are ftpress's own, chosen by the Fleet Book convention (about 3.4 points
a mass, plus 18 a fighter group; masses inside seed 002's class-by-mass
ranges) so that §6.1's 4,000 points buy about 40 destroyers, 20 light
cruisers, 10 battlecruisers or 6 capital ships. The Sa'Vasku are not in seed
001; their values are estimated from human ships of the same class.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pydantic import ConfigDict, TypeAdapter

from ftpress.rules.catalogues import Lookups, read_catalogue
from ftpress.state.model import Design, Id, Text

CATALOGUE_FILE = Path(__file__).resolve().parent / "catalogue.yaml"
_SHOWN = "ftpress/rules/ftc2007/catalogue.yaml"


@dataclass(frozen=True, slots=True)
class Navy:
    __pydantic_config__ = ConfigDict(extra="forbid")

    id: Id
    name: Text
    #: Alliances are within a species (ftc2007 §13.1).
    species: Id
    #: Where the abstract-combat values come from.
    values: Text


@dataclass(frozen=True, slots=True)
class Catalogue(Lookups[Navy]):
    __pydantic_config__ = ConfigDict(extra="forbid")

    navies: tuple[Navy, ...]
    designs: tuple[Design, ...]


_ADAPTER = TypeAdapter(Catalogue)


@cache
def catalogue() -> Catalogue:
    """The catalogue shipped with the ruleset (read once)."""
    return read_catalogue(_ADAPTER, CATALOGUE_FILE, _SHOWN)
