"""A campaign's state as the build and ``ftpress check`` see it: every state
folder loaded, checked between its files, and checked by the campaign's ruleset.

A campaign without ``state/`` is a blog alone, and that is fine.
"""

from __future__ import annotations

from pathlib import Path

from ftpress import rules
from ftpress.errors import InputError
from ftpress.executor import SERIAL, Executor
from ftpress.state.files import STATE_DIR
from ftpress.state.load import LoadedState, Store, has_state, load_tree


def load_state(root: Path) -> LoadedState | None:
    """The current state, or None for a campaign without one; raises with every
    problem in ``state/`` and its turn snapshots."""
    folders = load_states(root)
    return folders[0] if folders else None


def load_states(root: Path, store: Store | None = None, executor: Executor = SERIAL
                ) -> tuple[LoadedState, ...]:
    """The current state first, then every turn snapshot; () for a campaign without
    state. Raises with every problem in any of them. ``store`` (the build cache)
    keeps parsed files between runs; ``executor`` parses them."""
    if not has_state(root):
        return ()
    loaded, problems = load_tree(root, store, executor)
    for folder in loaded:
        problems.extend(rules.check_state(folder))
    if problems:
        raise InputError(problems)
    assert loaded[0].folder == STATE_DIR
    return loaded
