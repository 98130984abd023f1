"""What making a new campaign is the same for in every ruleset: the dice the map
is rolled with, world ids from names, player colours, and house options checked
against their limits."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any

from ftpress.errors import Problem, SetupError
from ftpress.state.dice import Dice
from ftpress.state.load import LoadedState

#: Player colours, in player order: the Okabe–Ito palette, which readers with
#: the common colour-vision deficiencies can tell apart.
PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#f0e442",
           "#000000")


def setup_dice(ruleset: str, seed: int) -> Dice:
    """The dice a campaign's map is rolled with: the seed is the key, nothing else."""
    return Dice.seeded("ftpress", ruleset, "setup", str(seed))


def slug(name: str) -> str:
    """'Sa'Vasku Prime' → 'savasku-prime': a world's id from its name."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", text.replace("'", "")).strip("-")


def option_values(limits: Mapping[str, tuple[int, int, int]],
                  given: Mapping[str, int]) -> dict[str, int]:
    """Every option of ``limits`` (name → default, least, most) with its value: the
    one given, else the default; :class:`SetupError` names one out of range or unknown."""
    values = {}
    for name, (default, least, most) in limits.items():
        value = given.get(name, default)
        if not least <= value <= most:
            raise SetupError(f"option {name}={value} is out of range; expected "
                             f"{least} to {most}")
        values[name] = value
    unknown = sorted(set(given) - set(limits))
    if unknown:
        raise SetupError(f"unknown option {unknown[0]!r}; expected one of "
                         f"{', '.join(limits)}")
    return values


def option_problems(loaded: LoadedState, read: Callable[[dict[str, int]], Any]) -> list[Problem]:
    """The campaign's recorded setup options read again by the ruleset's ``read``;
    what it refuses, located at ``setup.options`` in ``state/campaign.yaml``."""
    try:
        read(loaded.state.campaign.setup.options)
    except SetupError as exc:
        return [Problem(*loaded.where("campaign", "setup", "options"), str(exc))]
    return []
