"""Rulesets, one package each, and the registry that finds them by name.

Rules logic lives only here. A campaign names its ruleset in
``state/campaign.yaml``; :func:`check_state` applies that ruleset's checks to a
loaded state.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ftpress.errors import Problem
from ftpress.rules import ftc2007, ftcamp02, sct
from ftpress.rules.ruleset import Ruleset
from ftpress.state.extension import StateExtension
from ftpress.state.load import LoadedState

RULESETS: dict[str, Ruleset] = {r.name: r for r in (ftc2007.RULESET, sct.RULESET,
                                                   ftcamp02.RULESET)}


class _StateExtensions(Mapping[str, StateExtension]):
    """What each registered ruleset adds to the state, by name, read from the registry
    whenever asked (a ruleset registered later is found too): what the state loader
    is handed."""

    def __getitem__(self, name: str) -> StateExtension:
        found = RULESETS[name].state_extension
        if found is None:
            raise KeyError(name)
        return found

    def __iter__(self) -> Iterator[str]:
        return (name for name, r in RULESETS.items() if r.state_extension is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


STATE_EXTENSIONS: Mapping[str, StateExtension] = _StateExtensions()


def find_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name``; ``ValueError`` names the ones there are."""
    try:
        return RULESETS[name]
    except KeyError:
        raise ValueError(f"unknown ruleset {name!r}; expected one of "
                         f"{', '.join(sorted(RULESETS))}") from None


def check_state(loaded: LoadedState) -> list[Problem]:
    """The campaign's ruleset's problems with a loaded state."""
    try:
        ruleset = find_ruleset(loaded.state.campaign.ruleset)
    except ValueError as exc:
        return [Problem(*loaded.where("campaign", "ruleset"), str(exc))]
    return ruleset.check_state(loaded)
