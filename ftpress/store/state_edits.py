"""One state file rewritten from an edited state, for the commands that edit a
running campaign between turns (``roster``, ``calendar``, the publishing run's
deadline): only that file is written, with its schema line, and the next
turn's record keeps the state it started from, as for any edit by hand.

In a sealed campaign the edit is made to the whole state, read with the umpire's
key (refused without it), and the file is written as its public projection with
its twin (:mod:`ftpress.secrecy.hidden_state`), together: the campaign's store
(:mod:`ftpress.store`) reads and writes it.
"""

from __future__ import annotations

from pathlib import Path

from ftpress.state.files import KINDS, STATE_DIR
from ftpress.state.model import State
from ftpress.store import open_store


def current_state(root: Path) -> State:
    """``state/`` as it stands, checked between its files; raises with every problem.
    A sealed campaign's is read whole, with the umpire's key."""
    store = open_store(root, why="editing the state", required=True)
    return store.folder_state(STATE_DIR)


def write_state_file(root: Path, state: State, kind: str) -> None:
    """Write ``state/<kind's file>`` from ``state`` (kind: ``campaign``, ``players``…)
    as the campaign's store writes it: in a sealed campaign, its public projection and
    its twin."""
    rel = f"{STATE_DIR}/{KINDS[kind].file}"
    open_store(root).write_current(state, (kind,), about=rel)
