"""A turn's record: what it keeps, and reading it back.

``state/turns/<turn-id>/`` holds the state the turn ended with, its events, every
die rolled (``dice.yaml``), ``turn.yaml`` (the orders' digest, the revealed
secret), a copy of each order file and battle result folded in, and, when the
umpire edited the state after the turn before, ``before/``: the state it started
from. The campaign's store writes the record and the current state files
together, all or nothing (:meth:`ftpress.store.CampaignStore.record_turn`).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from pydantic import TypeAdapter

from ftpress.errors import InputError
from ftpress.files import validation, yamlsource
from ftpress.files.config import CONFIG_FILE, load_config
from ftpress.secrecy.twins import UmpireKey, read
from ftpress.state.events import TurnRecord
from ftpress.state.model import State
from ftpress.state.turns import TURNS_DIR, turn_id
from ftpress.store.campaign import load_folder

_RECORD: TypeAdapter[TurnRecord] = TypeAdapter(TurnRecord)


def read_record(root: Path, folder: str, umpire: UmpireKey | None = None) -> TurnRecord:
    """The ``turn.yaml`` of a recorded turn's folder; with ``umpire``, the whole of it
    where it is a projection (the twin holds the turn's hidden secret)."""
    raw, shown = read(root, f"{folder}/turn.yaml", umpire)
    return validation.validate(_RECORD, yamlsource.parse(yamlsource.decode(raw, shown),
                                                         shown), shown)


def keeps_before(root: Path, state: State, number: int,
                 umpire: UmpireKey | None = None) -> bool:
    """Must the record keep the state the turn started from? Only when it is not
    the previous turn's snapshot (the umpire edited it in between). ``umpire``: the
    key a sealed campaign's full snapshot is read with."""
    previous = f"{TURNS_DIR}/{turn_id(number - 1)}"
    if not (root / previous).is_dir():
        return True
    try:
        return load_folder(root, previous, umpire=umpire).state != state
    except InputError:
        return True


def with_secret_hash(state: State, value: str | None, hidden: str | None = None) -> State:
    """``state`` with the hash of the next turn's secret published (or none), and of
    its hidden secret (``hidden``; none: its rolls all come from the one stream)."""
    cal = dataclasses.replace(state.campaign.calendar, secret_sha256=value,
                              hidden_secret_sha256=hidden)
    return dataclasses.replace(state, campaign=dataclasses.replace(state.campaign,
                                                                   calendar=cal))


def base_url(root: Path) -> str | None:
    """The site's address, for the schema line at the top of each state file."""
    return load_config(root).base_url if (root / CONFIG_FILE).is_file() else None
