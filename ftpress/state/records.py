"""The recorded turns, read: every ``state/turns/<turn-id>/`` folder as ``ftpress turn``
wrote it (the state after the turn, ``events.yaml``, ``dice.yaml`` and copies of the
order files folded in), as :class:`RecordedTurn` values for the render stage.

``t000`` is the setup: the state as generated, no events.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import TypeAdapter

from ftpress import validation, yamlsource
from ftpress.dice import Roll
from ftpress.errors import InputError, Problem
from ftpress.events import Event, EventsFile
from ftpress.executor import SERIAL, Executor
from ftpress.state.extension import NO_EXTENSIONS, Extensions
from ftpress.state.files import DICE
from ftpress.state.load import load_dice, load_state
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
               executor: Executor = SERIAL, *,
               extensions: Extensions = NO_EXTENSIONS) -> tuple[RecordedTurn, ...]:
    """Every recorded turn, oldest first; raises with every problem in any of them.

    ``snapshots`` maps a turn folder to its state where the caller has loaded it;
    the others are loaded with ``extensions`` (:func:`ftpress.state.load.load_state`).
    A hundred turns' event logs are thousands of events: ``executor`` reads them.
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
    logs = executor.map(lambda f: _events_quietly(root, f"{TURNS_DIR}/{f[1].name}"), folders)
    for (number, folder), events in zip(folders, logs, strict=True):
        rel = f"{TURNS_DIR}/{folder.name}"
        try:
            turns.append(_load_turn(root, rel, folder.name, number, (snapshots or {}).get(rel),
                                    events, extensions))
        except InputError as exc:
            problems.extend(exc.problems)
    if problems:
        raise InputError(problems)
    return tuple(turns)


def _events(root: Path, rel: str) -> tuple[Event, ...]:
    """A turn's event log (none if it has no ``events.yaml``); raises with its problems."""
    if not (root / rel / "events.yaml").is_file():
        return ()
    path = f"{rel}/events.yaml"
    return validation.validate(_EVENTS, yamlsource.parse(
        yamlsource.read_text(root / path, path), path), path).events


def _events_quietly(root: Path, rel: str) -> tuple[Event, ...] | None:
    try:
        return _events(root, rel)
    except InputError:
        return None


def _load_turn(root: Path, rel: str, turn: str, number: int,
               state: State | None, events: tuple[Event, ...] | None = None,
               extensions: Extensions = NO_EXTENSIONS) -> RecordedTurn:
    if state is None:
        state = load_state(root, rel, extensions=extensions).state
    rolls: tuple[Roll, ...] = ()
    if events is None:
        events = _events(root, rel)
    if (root / rel / DICE.file).is_file():
        rolls = load_dice(root, rel).rolls  # already read with the snapshot: not parsed again
    orders = tuple((f.stem, yamlsource.read_bytes(f, f"{rel}/orders/{f.name}"))
                   for f in sorted((root / rel / "orders").glob("*.yaml")))
    return RecordedTurn(turn, number, state, events, rolls, orders)
