"""``ftpress turn --redo``: a recorded turn and every later one resolved again from
their recorded orders, battle results and dice; their records and the current
state rewritten together, all or nothing; what changed, said turn by turn."""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ftpress import agekeys
from ftpress.battles import BATTLES_DIR
from ftpress.campaign import load_folder
from ftpress.errors import RefusedCommand
from ftpress.events import Event
from ftpress.hidden_state import Sealer, TurnFacts, seal_record
from ftpress.intelligence import FOLDER as INTELLIGENCE
from ftpress.intelligence import intelligence_files
from ftpress.sealed_campaign import kept
from ftpress.state.files import KINDS, STATE_DIR
from ftpress.state.model import State
from ftpress.state.records import read_events
from ftpress.state.turns import TURNS_DIR, turn_id, turn_number
from ftpress.state.twins import RECORD_TWINS, UmpireKey, key_for, open_twin, twin
from ftpress.state.writeout import write_out
from ftpress.turn.record import base_url, read_record, record_files, with_secret_hash
from ftpress.turn.verify import rerun, unified_diff
from ftpress.yourview.view import FOLDER as VIEWS

#: A later turn whose record keeps the state it started from (``before/``: the umpire
#: edited the state between turns) starts from that edited state when redone; what
#: the redo changed in the turn before it does not carry over that edit.
REDO_KEEPS_EDITED_STARTS = True

#: What a record folder holds that a redo writes afresh; anything else in it is
#: another tool's, and is carried over as it is.
_RECORD_NAMES = frozenset({*(name for k in KINDS.values() for name in (k.file, twin(k.file))),
                           *(name for log in RECORD_TWINS for name in (log, twin(log))),
                           "turn.yaml", twin("turn.yaml"), "orders", "before", BATTLES_DIR,
                           INTELLIGENCE, VIEWS})


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
    with the umpire's key (``identity``, else where :func:`ftpress.state.twins.umpire_key`
    finds it), and written as a sealed campaign writes them."""
    umpire = key_for(root, "redoing a turn", identity)
    number = turn_number(first)
    if number == 0:
        raise RefusedCommand("t000 is the setup, not a turn; redo t001 or later")
    turns: list[str] = []
    while (root / TURNS_DIR / turn_id(number)).is_dir():
        turns.append(turn_id(number))
        number += 1
    if not turns:
        raise RefusedCommand(f"turn {first} is not recorded; there is no {TURNS_DIR}/{first}/")
    last = f"{TURNS_DIR}/{turns[-1]}"
    for kind in KINDS.values():
        current = root / STATE_DIR / kind.file
        if not current.is_file() or current.read_bytes() != (root / last / kind.file).read_bytes() \
                or _twin_text(root, f"{STATE_DIR}/{kind.file}", umpire) != \
                _twin_text(root, f"{last}/{kind.file}", umpire):
            raise RefusedCommand(f"{STATE_DIR}/{kind.file} differs from {last}/{kind.file}: the "
                                 f"state was edited after {turns[-1]} was recorded; record or undo "
                                 "that edit first. Nothing was redone")
    url = base_url(root)
    state: State | None = None
    folders: dict[str, dict[str, bytes]] = {}
    changes: list[TurnChange] = []
    for turn in turns:
        folder = f"{TURNS_DIR}/{turn}"
        edited = (root / folder / "before").is_dir()
        if state is None or (edited and REDO_KEEPS_EDITED_STARTS):
            previous = f"{TURNS_DIR}/{turn_id(turn_number(turn) - 1)}"
            start = f"{folder}/before" if edited else previous
            state = load_folder(root, start, umpire=umpire).state
        files, events, facts = _redo_one(root, turn, state, url, edited, umpire)
        start_state = state
        state = load_state_from(files, folder)
        if umpire is not None:
            files = seal_record(Sealer.of(root, facts.state, umpire), files, facts, start_state,
                                url)
        changes.append(_change(root, turn, files, events, umpire))
        folders[turn] = files
    if not any(c.files for c in changes):
        return RedoResult(tuple(turns), tuple(changes), False)
    _rewrite(root, folders)
    return RedoResult(tuple(turns), tuple(changes), True)


def _redo_one(root: Path, turn: str, state: State, url: str | None, edited: bool,
              umpire: UmpireKey | None) -> tuple[dict[str, bytes], tuple[Event, ...], TurnFacts]:
    """A turn's record made again, its files full (not yet sealed), and what sealing
    them needs."""
    folder = f"{TURNS_DIR}/{turn}"
    record = read_record(root, folder, umpire)
    again = rerun(root, turn, state, record, umpire)
    unfought = [e.text for e in again.events if e.kind == "battle-pending"]
    if unfought:
        raise RefusedCommand(f"redone, {turn} has a battle that was never fought: {unfought[0]} "
                             "Nothing was redone")
    recorded = load_folder(root, folder, umpire=umpire).state.campaign.calendar
    new_state = with_secret_hash(again.state, recorded.secret_sha256,
                                 recorded.hidden_secret_sha256)
    record = dataclasses.replace(record, orders_sha256=again.digest)
    files = record_files(url, turn, state if edited else None, new_state, again.events,
                         again.dice, record, again.orders, again.results) | again.sealed
    # Each player's intelligence (a sealed campaign's), kept where it says the same:
    # age encryption is randomised. Whatever the record's orders were, plain or sealed.
    files |= {rel: kept(root, rel, data, umpire) or data for rel, data in
              intelligence_files(folder, new_state, again.events, turn).items()}
    facts = TurnFacts(turn, state if edited else None, new_state, again.events, again.dice,
                      again.key, record)
    return files, again.events, facts


def _twin_text(root: Path, rel: str, umpire: UmpireKey | None) -> bytes | None:
    """What the twin of ``rel`` says (None: it has none, or there is no key to read it)."""
    if umpire is None or not (root / twin(rel)).is_file():
        return None
    return open_twin(root, twin(rel), umpire)


def load_state_from(files: Mapping[str, bytes], folder: str) -> State:
    """The state a redone turn ended with, read back from the files it will write
    (so the next turn starts from exactly what is recorded)."""
    with tempfile.TemporaryDirectory(prefix="ftpress-redo-") as scratch:
        for kind in KINDS.values():
            target = Path(scratch) / "s" / kind.file
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(files[f"{folder}/{kind.file}"])
        return load_folder(Path(scratch), "s").state


def _change(root: Path, turn: str, files: Mapping[str, bytes],
            events: tuple[Event, ...], umpire: UmpireKey | None) -> TurnChange:
    folder = f"{TURNS_DIR}/{turn}"
    old = [f"{e.kind}: {e.text}" for e in read_events(root, folder, umpire)]
    new = [f"{e.kind}: {e.text}" for e in events]
    added, removed = _multiset_diff(new, old), _multiset_diff(old, new)
    written = {rel.removeprefix(folder + "/") for rel in files if rel.startswith(folder + "/")}
    existing = {p.relative_to(root / folder).as_posix()
                for p in (root / folder).rglob("*") if p.is_file()
                and p.relative_to(root / folder).parts[0] in _RECORD_NAMES}
    # A player's report is told from the record, not part of it: made anew for a turn
    # recorded before reports were sealed, it changes nothing the turn did.
    differ = sorted(rel for rel in written | existing
                    if not rel.startswith(f"{VIEWS}/") and (
                        rel not in written or rel not in existing
                        or (root / folder / rel).read_bytes() != files[f"{folder}/{rel}"]))
    state: list[str] = []
    for kind in KINDS.values():
        # A sealed campaign's state is told by its twins, read with the key.
        rel = f"{folder}/{kind.file}"
        shown = twin(rel) if umpire is not None and twin(rel) in files else rel
        if shown.removeprefix(folder + "/") in differ:
            old_text = _twin_text(root, rel, umpire) if shown != rel else \
                (root / rel).read_bytes() if (root / rel).is_file() else b""
            new_text = agekeys.decrypt(files[shown], umpire.identities) \
                if umpire is not None and shown != rel else files[rel]
            state += unified_diff(shown, old_text or b"", new_text).splitlines()
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
            if other.name in _RECORD_NAMES:
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
