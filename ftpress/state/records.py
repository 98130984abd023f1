"""The recorded turns, read: every ``state/turns/<turn-id>/`` folder as ``ftpress turn``
wrote it (the state after the turn, ``events.yaml``, ``dice.yaml`` and copies of the
order files folded in), as :class:`RecordedTurn` values for the render stage.

``t000`` is the setup: the state as generated, no events.

In a sealed campaign the plain files hold what the public may know; given the
umpire's key, every file is read from its sealed twin (:mod:`ftpress.secrecy.twins`).
"""

from __future__ import annotations

import contextlib
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from ftpress.errors import InputError, Problem
from ftpress.files import validation, yamlsource
from ftpress.secrecy.twins import UmpireKey, read
from ftpress.speed.executor import SERIAL, Executor
from ftpress.state.dice import Roll
from ftpress.state.events import Event, EventsFile
from ftpress.state.extension import NO_EXTENSIONS, Extensions
from ftpress.state.files import DICE
from ftpress.state.load import Store, keep_yaml, kept_yaml, load_dice, load_state, yaml_text
from ftpress.state.model import State
from ftpress.state.turns import TURNS_DIR, turn_number

_EVENTS: TypeAdapter[EventsFile] = TypeAdapter(EventsFile)


@dataclass(frozen=True, slots=True)
class RecordedTurn:
    """One recorded turn as its folder holds it (every fact, hidden ones too)."""

    id: str
    number: int
    #: The state when the turn was done.
    state: State
    events: tuple[Event, ...] = ()
    rolls: tuple[Roll, ...] = ()
    #: Player id → the order file folded in, byte for byte.
    orders: tuple[tuple[str, bytes], ...] = ()


def load_turns(root: Path, snapshots: dict[str, State] | None = None,
               executor: Executor = SERIAL, *, extensions: Extensions = NO_EXTENSIONS,
               umpire: UmpireKey | None = None,
               store: Store | None = None) -> tuple[RecordedTurn, ...]:
    """Every recorded turn, oldest first; raises with every problem in any of them.

    ``snapshots`` maps a turn folder to its state where the caller has loaded it;
    the others are loaded with ``extensions`` and ``umpire``
    (:func:`ftpress.state.load.load_state`).
    A hundred turns' event logs are thousands of events: ``executor`` reads them, and
    ``store`` (the build cache) keeps each log read, by its bytes, for the next load by
    the same process (``serve``'s).
    """
    base = root / TURNS_DIR
    if not base.is_dir():
        return ()
    folders = []
    for folder in base.iterdir():
        try:
            folders.append((turn_number(folder.name), folder))
        except ValueError:
            continue  # a staging folder of a turn being written, or a stray
    turns: list[RecordedTurn] = []
    problems: list[Problem] = []
    folders = sorted((n, f) for n, f in folders if f.is_dir())
    # A log with a problem comes back None and is read again below, to say where.
    if store is not None and umpire is None:
        # The public logs' parse is kept on disk between builds (CI's restored cache):
        # each is validated from it, not parsed, and the others parsed on every core.
        kept, digests = _kept_logs(root, folders, store)
        fresh = [index for index in range(len(folders)) if index not in kept]
        made = dict(zip(fresh, executor.map(
            lambda i: _log_and_text(root, f"{TURNS_DIR}/{folders[i][1].name}"), fresh),
            strict=True))
        logs: list[tuple[Event, ...] | None] = []
        for index in range(len(folders)):
            log = made.get(index)
            if index in kept:
                logs.append(kept[index])
            elif log is None:
                logs.append(None)
            else:
                logs.append(log[0])
                if log[1] is not None and index in digests:
                    keep_yaml(store, "events", digests[index], log[1])
            if logs[-1] is not None and index in digests:
                store.parsed[_memory_key(folders[index][1], digests[index])] = logs[-1]
    else:
        logs = []
        for key, events in executor.map(
                lambda f: _events_quietly(root, f"{TURNS_DIR}/{f[1].name}", umpire, store),
                folders):
            if store is not None and key is not None:
                store.parsed[key] = events  # parsed by a worker: kept here for the next load
            logs.append(events)
    for (number, folder), events in zip(folders, logs, strict=True):
        rel = f"{TURNS_DIR}/{folder.name}"
        try:
            turns.append(_load_turn(root, rel, folder.name, number, (snapshots or {}).get(rel),
                                    events, extensions, umpire))
        except InputError as exc:
            problems.extend(exc.problems)
    if problems:
        raise InputError(problems)
    return tuple(turns)


def read_events(root: Path, rel: str, umpire: UmpireKey | None = None,
                store: Store | None = None) -> tuple[Event, ...]:
    """A turn's event log (none if it has no ``events.yaml``), from its twin with
    ``umpire``; raises with its problems. ``store``: where logs read before are kept, by
    their bytes and where they were read (a problem names its file)."""
    return _read_events(root, rel, umpire, store)[1]


def _read_events(root: Path, rel: str, umpire: UmpireKey | None, store: Store | None
                 ) -> tuple[tuple[str, str] | None, tuple[Event, ...]]:
    """:func:`read_events`, with the key the log is kept by (None: it has none)."""
    if not (root / rel / "events.yaml").is_file():
        return None, ()
    raw, shown = read(root, f"{rel}/events.yaml", umpire)
    key = (f"events {shown}", hashlib.sha256(raw).hexdigest())
    if store is not None and (kept := store.parsed.get(key)) is not None:
        return key, kept
    events = _parsed_events(raw, shown)[0]
    if store is not None:
        store.parsed[key] = events  # only a log without a problem is kept
    return key, events


def _parsed_events(raw: bytes, shown: str) -> tuple[tuple[Event, ...], Any]:
    """A log's events from its bytes, and its parsed YAML; raises with its problems."""
    data = yamlsource.parse(yamlsource.decode(raw, shown), shown)
    return validation.validate(_EVENTS, data, shown).events, data


def _kept_logs(root: Path, folders: list[tuple[int, Path]], store: Store
               ) -> tuple[dict[int, tuple[Event, ...]], dict[int, str]]:
    """The event logs (by their place in ``folders``) that an earlier run kept parsed in
    ``store``, validated again, and the digest of each other plain log. A log the store
    kept that does not validate as it stands is left to be parsed, to say where."""
    digests = {}
    for index, (_, folder) in enumerate(folders):
        path = folder / "events.yaml"
        if path.is_file() and not path.is_symlink():
            digests[index] = hashlib.sha256(path.read_bytes()).hexdigest()
    kept = {index: events for index, digest in digests.items()
            if (events := store.parsed.get(_memory_key(folders[index][1], digest))) is not None}
    found = kept_yaml(store, "events", [d for i, d in digests.items() if i not in kept])
    for index, digest in digests.items():
        if index not in kept and digest in found:
            with contextlib.suppress(ValidationError):
                kept[index] = _EVENTS.validate_python(found[digest]).events
    return kept, digests


def _memory_key(folder: Path, digest: str) -> tuple[str, str]:
    """What a turn's plain log is known by in :attr:`Store.parsed` (as :func:`read_events`
    keeps it)."""
    return f"events {TURNS_DIR}/{folder.name}/events.yaml", digest


def _log_and_text(root: Path, rel: str) -> tuple[tuple[Event, ...], str | None] | None:
    """A plain log's events and its parsed YAML as the store keeps it; None if it has a
    problem (it is read again, to say where)."""
    if not (root / rel / "events.yaml").is_file():
        return (), None
    try:
        raw, shown = read(root, f"{rel}/events.yaml", None)
        events, data = _parsed_events(raw, shown)
    except InputError:
        return None
    return events, yaml_text(data)


def _events_quietly(root: Path, rel: str, umpire: UmpireKey | None,
                    store: Store | None = None
                    ) -> tuple[tuple[str, str] | None, tuple[Event, ...] | None]:
    """A turn's event log and its key, both None where it has a problem (read again by
    the load, to say where). A worker's parse is kept by the caller, in its process."""
    try:
        return _read_events(root, rel, umpire, store)
    except InputError:
        return None, None


def read_recorded_orders(root: Path, rel: str, umpire: UmpireKey | None = None
                ) -> tuple[tuple[str, bytes], ...]:
    """The order files a turn's record keeps (``<rel>/orders/<player>.yaml``), by player:
    the public copies, or with ``umpire`` the whole files from their twins."""
    return tuple((f.stem, read(root, f"{rel}/orders/{f.name}", umpire)[0])
                 for f in sorted((root / rel / "orders").glob("*.yaml")))


def _load_turn(root: Path, rel: str, turn: str, number: int,
               state: State | None, events: tuple[Event, ...] | None = None,
               extensions: Extensions = NO_EXTENSIONS,
               umpire: UmpireKey | None = None) -> RecordedTurn:
    if state is None:
        state = load_state(root, rel, extensions=extensions, umpire=umpire).state
    rolls: tuple[Roll, ...] = ()
    if events is None:
        events = read_events(root, rel, umpire)
    if (root / rel / DICE.file).is_file():
        # Already read with the snapshot: not parsed again.
        rolls = load_dice(root, rel, umpire=umpire).rolls
    return RecordedTurn(turn, number, state, events, rolls, read_recorded_orders(root, rel, umpire))
