"""One state file rewritten from an edited state, for the commands that edit a
running campaign between turns (``roster``, ``calendar``, the publishing run's
deadline): only that file is written, with its schema line, and the next
turn's record keeps the state it started from, as for any edit by hand.

In a sealed campaign the edit is made to the whole state, read with the umpire's
key (refused without it), and the file is written as its public projection with
its twin (:mod:`ftpress.secrecy.hidden_state`), together.
"""

from __future__ import annotations

from pathlib import Path

from ftpress.files.config import CONFIG_FILE, load_config
from ftpress.secrecy.twins import key_for, umpire_key
from ftpress.state.files import KINDS, STATE_DIR
from ftpress.state.model import State
from ftpress.state.save import dump, schema_url
from ftpress.state.writeout import write_out
from ftpress.store.campaign import load_folder


def current_state(root: Path) -> State:
    """``state/`` as it stands, checked between its files; raises with every problem.
    A sealed campaign's is read whole, with the umpire's key."""
    return load_folder(root, STATE_DIR, umpire=key_for(root, "editing the state")).state


def write_state_file(root: Path, state: State, kind: str) -> None:
    """Write ``state/<kind's file>`` from ``state`` (kind: ``campaign``, ``players``…);
    in a sealed campaign, its public projection and its twin."""
    base_url = load_config(root).base_url if (root / CONFIG_FILE).is_file() else None
    file = KINDS[kind]
    url = schema_url(base_url, file)
    rel = f"{STATE_DIR}/{file.file}"
    text = dump(getattr(state, file.name), url).encode("utf-8")
    if not state.campaign.sealed:
        write_out(root, rel, {rel: text})
        return
    from ftpress.secrecy.hidden_state import Sealer
    from ftpress.secrecy.knowledge import public_state

    sealer = Sealer.of(root, state, umpire_key(root))
    public = dump(getattr(public_state(state), file.name), url).encode("utf-8")
    write_out(root, rel, sealer.pair(rel, text, public))
