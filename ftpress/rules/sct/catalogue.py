"""The sct ship catalogue: seed 001's ship statistics table (rule 8).

``catalogue.yaml`` beside this module holds one design a row of the table: its
offence and defence, the halved and quartered pairs as printed, and the fighter
groups. The seed gives no mass, hull or price, so those are ftpress's estimates
(the same as the ftc2007 catalogue's); a ship's price is its points
(:data:`ftpress.rules.sct.costs.SHIP_COST_PER_POINT`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pydantic import ConfigDict, TypeAdapter

from ftpress.rules.catalogues import Lookups, read_catalogue
from ftpress.state.model import Design, Id, Text

CATALOGUE_FILE = Path(__file__).resolve().parent / "catalogue.yaml"
_SHOWN = "ftpress/rules/sct/catalogue.yaml"


@dataclass(frozen=True, slots=True)
class Navy:
    __pydantic_config__ = ConfigDict(extra="forbid")

    id: Id
    name: Text


@dataclass(frozen=True, slots=True)
class Catalogue(Lookups[Navy]):
    __pydantic_config__ = ConfigDict(extra="forbid")

    navies: tuple[Navy, ...]
    designs: tuple[Design, ...]


_ADAPTER = TypeAdapter(Catalogue)


@cache
def catalogue() -> Catalogue:
    """§8, §8.1–§8.4: the catalogue shipped with the ruleset (read once)."""
    return read_catalogue(_ADAPTER, CATALOGUE_FILE, _SHOWN)
