"""One state file rewritten from an edited state, for the commands that edit a
running campaign between turns (``roster``, ``calendar``, the publishing run's
deadline): only that file is written, with its schema line, and the next
turn's record keeps the state it started from, as for any edit by hand."""

from __future__ import annotations

from pathlib import Path

from ftpress.campaign import load_folder
from ftpress.config import CONFIG_FILE, load_config
from ftpress.state.files import KINDS, STATE_DIR
from ftpress.state.model import State
from ftpress.state.save import dump, schema_url
from ftpress.state.writeout import write_out


def current_state(root: Path) -> State:
    """``state/`` as it stands, checked between its files; raises with every problem."""
    return load_folder(root, STATE_DIR).state


def write_state_file(root: Path, state: State, kind: str) -> None:
    """Write ``state/<kind's file>`` from ``state`` (kind: ``campaign``, ``players``…)."""
    base_url = load_config(root).base_url if (root / CONFIG_FILE).is_file() else None
    file = KINDS[kind]
    text = dump(getattr(state, file.name), schema_url(base_url, file))
    rel = f"{STATE_DIR}/{file.file}"
    write_out(root, rel, {rel: text.encode("utf-8")})
