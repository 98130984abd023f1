"""``ftpress turn --redo``: a recorded turn and every later one resolved again from
their recorded orders, battle results and dice; their records and the current
state rewritten together, all or nothing; what changed, said turn by turn."""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ftpress.errors import RefusedCommand
from ftpress.state.events import Event
from ftpress.state.files import KINDS, STATE_DIR
from ftpress.state.model import State
from ftpress.state.turns import TURNS_DIR, turn_id, turn_number
from ftpress.state.writeout import write_out
from ftpress.store import CampaignStore, TurnFiles, open_store
from ftpress.store.campaign import load_folder
from ftpress.store.kept_names import RECORD_NAMES, twin
from ftpress.turn.verify import remade, unified_diff
from ftpress.yourview.view import FOLDER as VIEWS

#: A later turn whose record keeps the state it started from (``before/``: the umpire
#: edited the state between turns) starts from that edited state when redone; what
#: the redo changed in the turn before it does not carry over that edit.
REDO_KEEPS_EDITED_STARTS = True


@dataclass(frozen=True, slots=True)
class TurnChange:
    """What redoing one turn changed."""

    turn: str
    #: Events as 'kind: text', gained and lost (a repeated event counts each time).
    added: tuple[str, ...]
    removed: tuple[str, ...]
    #: The record's files that differ (dice, events, state files …), relative paths.
    files: tuple[str, ...]
    #: How each state file of the record changed: the lines of a unified diff.
    state: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        if not self.files:
            return [f"{self.turn}: unchanged"]
        out = [f"{self.turn}: {len(self.added)} event{'s' if len(self.added) != 1 else ''} "
               f"added, {len(self.removed)} removed; changed: {', '.join(self.files)}"]
        out += [f"  + {e}" for e in self.added]
        out += [f"  - {e}" for e in self.removed]
        out += [f"    {line}" for line in self.state]
        return out


@dataclass(frozen=True, slots=True)
class RedoResult:
    turns: tuple[str, ...]
    changes: tuple[TurnChange, ...]
    written: bool

    def lines(self) -> list[str]:
        out = [line for change in self.changes for line in change.lines()]
        span = self.turns[0] if len(self.turns) == 1 else f"{self.turns[0]}–{self.turns[-1]}"
        changed = sum(1 for c in self.changes if c.files)
        if not self.written:
            out.append(f"redid {span} from the recorded orders: nothing changed; nothing "
                       "was written")
        else:
            out.append(f"redid {span} from the recorded orders: {changed} turn"
                       f"{'s' if changed != 1 else ''} changed; their records and state/ "
                       "rewritten")
        return out


def redo_turns(root: Path, first: str, identity: Path | None = None) -> RedoResult:
    """``ftpress turn --redo``: resolve a recorded turn and every later recorded turn
    again from their recorded orders, battle results and (if supplied) dice, and
    rewrite their records and the current state in one go. Refused, with nothing
    written, if ``state/`` was edited after the last turn was recorded, or if a
    turn now has a battle that was never fought. A sealed campaign's records are redone
    with the umpire's key (``identity``, else where :func:`ftpress.secrecy.twins.umpire_key`
    finds it), and written as a sealed campaign writes them."""
    return redo_in(open_store(root, identity=identity, why="redoing a turn",
                                   required=True), first)


def redo_in(store: CampaignStore, first: str) -> RedoResult:
    """:func:`redo_turns` in the campaign ``store`` holds: each turn made again and
    written by the store's one recipe."""
    root = store.root
    number = turn_number(first)
    if number == 0:
        raise RefusedCommand("t000 is the setup, not a turn; redo t001 or later")
    turns: list[str] = []
    while store.is_recorded(turn_id(number)):
        turns.append(turn_id(number))
        number += 1
    if not turns:
        raise RefusedCommand(f"turn {first} is not recorded; there is no {TURNS_DIR}/{first}/")
    last = f"{TURNS_DIR}/{turns[-1]}"
    for kind in KINDS.values():
        current = root / STATE_DIR / kind.file
        if not current.is_file() or current.read_bytes() != (root / last / kind.file).read_bytes() \
                or store.twin_said(f"{STATE_DIR}/{kind.file}") != \
                store.twin_said(f"{last}/{kind.file}"):
            raise RefusedCommand(f"{STATE_DIR}/{kind.file} differs from {last}/{kind.file}: the "
                                 f"state was edited after {turns[-1]} was recorded; record or undo "
                                 "that edit first. Nothing was redone")
    state: State | None = None
    folders: dict[str, dict[str, bytes]] = {}
    changes: list[TurnChange] = []
    for turn in turns:
        folder = f"{TURNS_DIR}/{turn}"
        edited = (root / folder / "before").is_dir()
        if state is None or (edited and REDO_KEEPS_EDITED_STARTS):
            state = store.folder_state(store.start_of(turn, turn_number(turn)))
        record = store.record_of(folder)
        made, again = remade(store, turn, state, edited, record)
        unfought = [e.text for e in made.events if e.kind == "battle-pending"]
        if unfought:
            raise RefusedCommand(f"redone, {turn} has a battle that was never fought: "
                                 f"{unfought[0]} Nothing was redone")
        made = dataclasses.replace(made, record=dataclasses.replace(
            record, orders_sha256=again.given.digest))
        files = store.turn_files(made)
        # The next turn starts from exactly what is recorded.
        state = load_state_from(files.whole, folder)
        changes.append(_change(store, turn, files, made.events))
        folders[turn] = files.written
    if not any(c.files for c in changes):
        return RedoResult(tuple(turns), tuple(changes), False)
    _rewrite(root, folders)
    return RedoResult(tuple(turns), tuple(changes), True)


def load_state_from(files: Mapping[str, bytes], folder: str) -> State:
    """The state a redone turn ended with, read back from the files it will write
    (so the next turn starts from exactly what is recorded)."""
    with tempfile.TemporaryDirectory(prefix="ftpress-redo-") as scratch:
        for kind in KINDS.values():
            target = Path(scratch) / "s" / kind.file
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(files[f"{folder}/{kind.file}"])
        return load_folder(Path(scratch), "s").state


def _change(store: CampaignStore, turn: str, files: TurnFiles,
            events: tuple[Event, ...]) -> TurnChange:
    root = store.root
    folder = f"{TURNS_DIR}/{turn}"
    old = [f"{e.kind}: {e.text}" for e in store.events_of(folder)]
    new = [f"{e.kind}: {e.text}" for e in events]
    added, removed = _multiset_diff(new, old), _multiset_diff(old, new)
    made = files.written
    written = {rel.removeprefix(folder + "/") for rel in made if rel.startswith(folder + "/")}
    existing = {p.relative_to(root / folder).as_posix()
                for p in (root / folder).rglob("*") if p.is_file()
                and p.relative_to(root / folder).parts[0] in RECORD_NAMES}
    # A player's report is told from the record, not part of it: made anew for a turn
    # recorded before reports were sealed, it changes nothing the turn did.
    differ = sorted(rel for rel in written | existing
                    if not rel.startswith(f"{VIEWS}/") and (
                        rel not in written or rel not in existing
                        or (root / folder / rel).read_bytes() != made[f"{folder}/{rel}"]))
    state: list[str] = []
    for kind in KINDS.values():
        # A sealed state file is told by its twin, what it says.
        rel = f"{folder}/{kind.file}"
        shown = twin(rel) if twin(rel) in made else rel
        if shown.removeprefix(folder + "/") in differ:
            old_text = store.twin_said(rel) if shown != rel else \
                (root / rel).read_bytes() if (root / rel).is_file() else b""
            state += unified_diff(shown, old_text or b"", files.whole[rel]).splitlines()
    return TurnChange(turn, tuple(added), tuple(removed), tuple(differ), tuple(state))


def _multiset_diff(a: list[str], b: list[str]) -> list[str]:
    left = list(b)
    out = []
    for item in a:
        if item in left:
            left.remove(item)
        else:
            out.append(item)
    return out


def _rewrite(root: Path, folders: Mapping[str, Mapping[str, bytes]]) -> None:
    """Every redone record folder, and ``state/`` as the last of them left it, written
    together, all or nothing. Files of other tools in a record folder are carried over."""
    files: dict[str, bytes] = {}
    copies: dict[str, Path] = {}
    for turn, written in folders.items():
        folder = f"{TURNS_DIR}/{turn}"
        files.update((rel, data) for rel, data in written.items()
                     if rel.startswith(folder + "/"))
        for other in (root / folder).iterdir():
            if other.name in RECORD_NAMES:
                continue
            for path in sorted(other.rglob("*")) if other.is_dir() else [other]:
                if path.is_file():
                    copies[f"{folder}/{path.relative_to(root / folder).as_posix()}"] = path
    last = folders[list(folders)[-1]]
    files.update((rel, data) for rel, data in last.items()
                 if rel.startswith(STATE_DIR + "/") and not rel.startswith(TURNS_DIR + "/"))
    turns = list(folders)
    span = turns[0] if len(turns) == 1 else f"{turns[0]}–{turns[-1]}"
    write_out(root, f"the records of {span} and {STATE_DIR}/", files,
              folders=[f"{TURNS_DIR}/{turn}" for turn in turns], copies=copies)
