"""Rulesets, one package each, and the registry that finds them by name.

Rules logic lives only here. A campaign names its ruleset in
``state/campaign.yaml``; :func:`check_state` applies that ruleset's checks to a
loaded state. The three rulesets that ship with ftpress are listed here, each
imported when first asked for (a blog without turns imports none); a ruleset living
elsewhere (a campaign's own, or a test's) joins with
:func:`register` and then works like them everywhere.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any

from ftpress.errors import Problem, UnknownRuleset
from ftpress.rules.ruleset import Ruleset
from ftpress.state.extension import StateExtension
from ftpress.state.load import LoadedState

#: The rulesets that ship with ftpress, each the package of its name under ``ftpress.rules``.
SHIPPED = ("ftc2007", "sct", "ftcamp02")


class _Registry(MutableMapping[str, Ruleset[Any]]):
    """The rulesets by name. A shipped ruleset's package is imported the first time
    it is asked for (or the registry is walked), so a campaign that has no turns, a
    blog, never imports the rules it does not use."""

    def __init__(self) -> None:
        self._known: dict[str, Ruleset[Any]] = {}

    def __getitem__(self, name: str) -> Ruleset[Any]:
        found = self._known.get(name)
        if found is None and name in SHIPPED:
            found = self._known[name] = importlib.import_module(f"ftpress.rules.{name}").RULESET
        if found is None:
            raise KeyError(name)
        return found

    def __setitem__(self, name: str, ruleset: Ruleset[Any]) -> None:
        self._known[name] = ruleset

    def __delitem__(self, name: str) -> None:
        del self._known[name]

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys([*SHIPPED, *self._known]))

    def __len__(self) -> int:
        return len(dict.fromkeys([*SHIPPED, *self._known]))


#: Each ruleset's order model is its own (``Ruleset[SctOrders]``, …), so the registry
#: holds them as ``Ruleset[Any]``: a caller hands a ruleset's loaded orders back to the
#: same ruleset, the pairing a function generic over ``Ruleset[OrdersT]`` checks.
RULESETS: MutableMapping[str, Ruleset[Any]] = _Registry()


def register(ruleset: Ruleset[Any]) -> Ruleset[Any]:
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


def find_ruleset(name: str) -> Ruleset[Any]:
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
