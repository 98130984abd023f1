"""A campaign's state as the build and ``ftpress check`` see it: every state
folder loaded with its ruleset's extension (:mod:`ftpress.state.extension`),
checked between its files, and checked by the campaign's ruleset.

The state package never imports a ruleset; this module hands it every
ruleset's extension, and the renderer the campaign's ruleset's display.

A campaign without ``state/`` is a blog alone, and that is fine.
"""

from __future__ import annotations

from pathlib import Path

from ftpress import rules
from ftpress.errors import InputError
from ftpress.secrecy.twins import UmpireKey
from ftpress.speed.executor import SERIAL, Executor
from ftpress.state import load
from ftpress.state.display import PLAIN, Display
from ftpress.state.files import STATE_DIR
from ftpress.state.load import LoadedState, Store, has_state, load_tree
from ftpress.state.model import State


def load_state(root: Path, umpire: UmpireKey | None = None) -> LoadedState | None:
    """The current state, or None for a campaign without one; raises with every
    problem in ``state/`` and its turn snapshots. ``umpire``: the umpire's key, to
    read a sealed campaign's full files (:mod:`ftpress.secrecy.twins`)."""
    folders = load_states(root, umpire=umpire)
    return folders[0] if folders else None


def load_folder(root: Path, folder: str = STATE_DIR, store: Store | None = None,
                umpire: UmpireKey | None = None) -> LoadedState:
    """One state folder loaded and checked between its files (not by the ruleset),
    read with its ruleset's extension; raises with every problem."""
    return load.load_state(root, folder, store, extensions=rules.STATE_EXTENSIONS,
                           umpire=umpire)


def load_states(root: Path, store: Store | None = None, executor: Executor = SERIAL,
                umpire: UmpireKey | None = None) -> tuple[LoadedState, ...]:
    """The current state first, then every turn snapshot; () for a campaign without
    state. Raises with every problem in any of them. ``store`` (the build cache)
    keeps parsed files between runs; ``executor`` parses them."""
    if not has_state(root):
        return ()
    loaded, problems = load_tree(root, store, executor, extensions=rules.STATE_EXTENSIONS,
                                 umpire=umpire)
    for folder in loaded:
        problems.extend(rules.check_state(folder))
    if problems:
        raise InputError(problems)
    assert loaded[0].folder == STATE_DIR
    return loaded


def display_of(state: State) -> Display:
    """How the campaign's ruleset shows its state (the shared model alone for a
    ruleset the registry does not know: the load has said so already)."""
    ruleset = rules.RULESETS.get(state.campaign.ruleset)
    return ruleset.display if ruleset is not None else PLAIN


def order_forms(state: State) -> dict[str, str]:
    """Each player's order form for the open turn, by player id, from the campaign's
    ruleset (none if it has no form): for the player's page of the umpire's view."""
    ruleset = rules.RULESETS.get(state.campaign.ruleset)
    if ruleset is None or ruleset.order_form is None:
        return {}
    return {p.id: ruleset.order_form(state, p.id) for p in state.players.players}

