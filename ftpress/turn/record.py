"""A turn's record: the files it writes, and reading back what a record keeps.

``state/turns/<turn-id>/`` holds the state the turn ended with, its events, every
die rolled (``dice.yaml``), ``turn.yaml`` (the orders' digest, the revealed
secret), a copy of each order file and battle result folded in, and, when the
umpire edited the state after the turn before, ``before/``: the state it started
from. The record and the current state files are written together, all or
nothing (:mod:`ftpress.state.writeout`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path

from pydantic import TypeAdapter

from ftpress.errors import InputError
from ftpress.files import validation, yamlsource
from ftpress.files.config import CONFIG_FILE, load_config
from ftpress.orders.load import LoadedOrders, OrderFile
from ftpress.secrecy.twins import UmpireKey, read
from ftpress.state.battle_results import BATTLES_DIR, LoadedBattle
from ftpress.state.events import Event, EventsFile, TurnRecord
from ftpress.state.files import KINDS, STATE_DIR
from ftpress.state.model import DiceFile, State
from ftpress.state.save import dump, schema_url
from ftpress.state.turns import TURNS_DIR, turn_id
from ftpress.state.writeout import write_out
from ftpress.store.campaign import load_folder

_RECORD: TypeAdapter[TurnRecord] = TypeAdapter(TurnRecord)


def record_files(base_url: str | None, turn: str, before: State | None, state: State,
                 events: tuple[Event, ...], dice: DiceFile, record: TurnRecord,
                 orders: Mapping[str, LoadedOrders[OrderFile]],
                 battles: Mapping[str, LoadedBattle] | None = None) -> dict[str, bytes]:
    """Every file a turn writes, by path: its record folder and the current state.
    The tabletop battle results folded in are kept in the record's ``battles/``."""
    folder = f"{TURNS_DIR}/{turn}"
    files: dict[str, bytes] = {}
    for kind in KINDS.values():
        text = dump(getattr(state, kind.name), schema_url(base_url, kind)).encode("utf-8")
        files[f"{folder}/{kind.file}"] = text
        files[f"{STATE_DIR}/{kind.file}"] = text
        if before is not None:
            files[f"{folder}/before/{kind.file}"] = dump(
                getattr(before, kind.name), schema_url(base_url, kind)).encode("utf-8")
    files[f"{folder}/dice.yaml"] = dump(dice).encode("utf-8")
    files[f"{folder}/events.yaml"] = dump(EventsFile(turn, events)).encode("utf-8")
    files[f"{folder}/turn.yaml"] = dump(record).encode("utf-8")
    for player, loaded in sorted(orders.items()):
        files[f"{folder}/orders/{player}.yaml"] = loaded.raw
    fought = {e.order for e in events if e.kind == "battle" and e.order}
    for name, battle in sorted((battles or {}).items()):
        if battle.path in fought:
            files[f"{folder}/{BATTLES_DIR}/{name}.yaml"] = battle.raw
    return files


def write_record(root: Path, turn: str, files: Mapping[str, bytes]) -> None:
    """The record folder and the current state files of ``files``, all or nothing."""
    write_out(root, f"the record of {turn} and {STATE_DIR}/", files,
              folders=[f"{TURNS_DIR}/{turn}"])


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
