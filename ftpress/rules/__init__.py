"""Rulesets, one package each, and the registry that finds them by name.

Rules logic lives only here. A campaign names its ruleset in
``state/campaign.yaml``; :func:`check_state` applies that ruleset's checks to a
loaded state. The three rulesets that ship with ftpress are registered here; a
ruleset living elsewhere (a campaign's own, or a test's) joins with
:func:`register` and then works like them everywhere.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ftpress.errors import Problem, UnknownRuleset
from ftpress.rules import ftc2007, ftcamp02, sct
from ftpress.rules.ruleset import Ruleset
from ftpress.state.extension import StateExtension
from ftpress.state.load import LoadedState

RULESETS: dict[str, Ruleset] = {r.name: r for r in (ftc2007.RULESET, sct.RULESET,
                                                   ftcamp02.RULESET)}


def register(ruleset: Ruleset) -> Ruleset:
    """Add ``ruleset`` to :data:`RULESETS`; a name already taken by another is refused."""
    known = RULESETS.get(ruleset.name)
    if known is not None and known is not ruleset:
        raise ValueError(f"a ruleset called {ruleset.name!r} is registered already")
    RULESETS[ruleset.name] = ruleset
    return ruleset


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
    """The ruleset called ``name``; :class:`UnknownRuleset` names the ones there are."""
    try:
        return RULESETS[name]
    except KeyError:
        raise UnknownRuleset(f"unknown ruleset {name!r}; expected one of "
                             f"{', '.join(sorted(RULESETS))}") from None


def check_state(loaded: LoadedState) -> list[Problem]:
    """The campaign's ruleset's problems with a loaded state."""
    try:
        ruleset = find_ruleset(loaded.state.campaign.ruleset)
    except UnknownRuleset as exc:
        return [Problem(*loaded.where("campaign", "ruleset"), str(exc))]
    return ruleset.check_state(loaded)
