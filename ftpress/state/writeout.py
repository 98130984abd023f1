"""Write-outs to ``state/`` that take effect all together or not at all.

A turn changes several files: its record folder ``state/turns/<turn-id>/`` and
the current state files ``state/*.yaml``. No file system renames several
paths in one step, so a write-out goes through a journal, ``state/.write-out/``:

1. ``plan.json`` says what is written (the paths, and what for, in words);
   every new file is written under ``new/`` at its final path and synced, and
   so is every folder holding one. Nothing visible has changed yet.
2. ``committed`` is created and its folder synced: **the commit point**.
3. Each path is moved into place, a folder whole (a record folder it replaces
   is moved aside into ``old/`` first), ``state/campaign.yaml`` last; the
   folders are synced.
4. The journal is removed.

Killed before step 2, the write-out is undone by the next command (the journal
is dropped; ``state/`` never changed); killed after, the next command finishes
step 3 (each move is done once: a path whose new copy is no longer under
``new/`` has been moved). Either way it says so in one line (:func:`recover`),
before it does anything else. Ctrl-C is a crash like any other: an exception
before the commit point drops what was staged, one after it leaves the rest to
the next command. It also sweeps what older versions of ftpress left when
killed (``state/.tmp-*``, ``state/turns/.t010.tmp-*`` …).

One write-out runs at a time: it holds a lock on ``state/`` (``flock``, where
the system has it), and a command that finds a write-out under way waits for
it rather than taking it for an interrupted one.

Every write here comes down to a plain ``os`` call (``open``, ``write``,
``fsync``, ``replace``, ``mkdir``, ``unlink``, ``rmdir``; :mod:`pathlib` calls
them too), so a test can fail any one of them and see what a crash at that
moment leaves.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from ftpress.errors import InputError, Problem
from ftpress.state.turns import TURNS_DIR

try:
    import fcntl
except ImportError:  # Windows: write-outs are not guarded against each other there
    fcntl = None  # type: ignore[assignment]

#: The current state's folder, as :data:`ftpress.state.files.STATE_DIR` (not imported
#: from there, which loads the state's models: every command asks :func:`recover`
#: before it loads anything, a build that finds nothing to do included).
STATE_DIR = "state"
#: The journal folder of the write-out under way (or interrupted).
WRITE_OUT = f"{STATE_DIR}/.write-out"
_PLAN = "plan.json"
_COMMITTED = "committed"
_NEW = "new"
_OLD = "old"
#: What the current state's files are told apart by: the calendar. Moved in last,
#: so that a reader who ignores the journal sees the old turn open until the rest
#: is in place.
_CAMPAIGN = f"{STATE_DIR}/campaign.yaml"

#: Left in ``state/`` by a killed ``write_file`` of earlier versions.
_TEMP_FILE = re.compile(r"^\.tmp-")
#: Left in ``state/turns/`` by killed turns and redos of earlier versions: a staged
#: record (``tmp``, ``redo``) never moved in, or a record moved aside (``old``).
_TEMP_RECORD = re.compile(r"^\.(t\d{3,})\.(tmp|redo|old)-")
#: How many left-over paths a recovery line names before it counts the rest.
_NAMED = 4


def write_out(root: Path, about: str, files: Mapping[str, bytes], *,
              folders: Sequence[str] = (), copies: Mapping[str, Path] | None = None) -> None:
    """Make ``files`` (paths under ``state/``, relative to ``root``) visible all at once.

    Each of ``folders`` is written whole: it holds exactly the given files under
    it (and ``copies``: path → the file whose bytes and times it takes), and
    replaces whatever folder stood there. Every other path is one file replaced.
    ``about`` names the write-out in words, for the line a recovery prints
    ("the record of t003 and state/").
    """
    copies = copies or {}
    inside = [rel for rel in (*files, *copies, *folders)
              if not rel.startswith(STATE_DIR + "/") or rel.startswith(WRITE_OUT)]
    assert not inside, f"not a path a write-out may write: {inside}"
    loose = [rel for rel in files if not any(rel.startswith(f + "/") for f in folders)]
    targets = [*folders, *sorted(loose, key=lambda rel: rel == _CAMPAIGN)]
    if not (root / STATE_DIR).is_dir():
        (root / STATE_DIR).mkdir(0o755, parents=True)
    with _locked(root):
        _settle(root)  # a command recovers first and says so; this only makes sure
        journal = root / WRITE_OUT
        staged = {rel: _staged(journal, rel) for rel in (*files, *copies)}
        try:
            journal.mkdir(0o755)
            _write_new(journal / _PLAN, json.dumps({"about": about, "targets": targets},
                                                   ensure_ascii=False).encode("utf-8"))
            # Each folder made once, parents first (a folder to write may have no files).
            made = {journal, *(p for path in staged.values() for p in path.parents),
                    *(_staged(journal, folder) for folder in folders)}
            for folder in sorted(p for p in made if p.is_relative_to(journal / _NEW)):
                folder.mkdir(0o755)
            for rel, data in files.items():
                _write_new(staged[rel], data)
            for rel, source in copies.items():
                _write_new(staged[rel], source.read_bytes())
                shutil.copystat(source, staged[rel])
            _sync_tree(journal)
            _write_new(journal / _COMMITTED, b"")
            _sync_dir(journal)
        except BaseException:
            # Before the commit mark nothing took effect: drop it all. After it (its
            # folder's sync failed), it is the next command's to finish: an undo cut
            # short here could leave the mark beside half the staged files.
            if not (journal / _COMMITTED).exists():
                shutil.rmtree(journal, ignore_errors=True)
            raise
        _finish(root, journal, targets)


def committed(root: Path) -> bool:
    """Has a write-out passed its commit point and not been finished yet? (Then what
    it writes is decided, only not all in place: the next command finishes it.)"""
    return (root / WRITE_OUT / _COMMITTED).exists()


def recover(root: Path) -> str | None:
    """Finish or undo a write-out an interrupted run left, and sweep what killed runs
    of earlier versions left; one line saying what was done (None: nothing was)."""
    if not _leftovers(root):
        return None
    with _locked(root):  # a write-out under way is waited for, not taken for a dead one
        done = _settle(root)
    return "; ".join(done) if done else None


def _settle(root: Path) -> list[str]:
    """What :func:`recover` does, with the lock held: what was done, in words."""
    done: list[str] = []
    journal = root / WRITE_OUT
    if journal.is_dir():
        plan = _read_plan(journal)
        about = plan[0] if plan is not None else f"{STATE_DIR}/"
        if (journal / _COMMITTED).exists():
            if plan is not None:
                _finish(root, journal, plan[1])
            else:  # killed while removing the journal: everything had been moved
                _remove(journal)
            done.append(f"finished writing {about}, which an interrupted run had begun")
        elif any(journal.iterdir()):
            _remove(journal)
            done.append(f"undid the unfinished writing of {about}, which an interrupted run "
                        f"had begun; {STATE_DIR}/ is as it was")
        else:  # killed as it was made, or as it was removed once all was in place
            journal.rmdir()
            done.append(f"removed the empty {WRITE_OUT}/ an interrupted run left")
    swept, restored = _sweep(root)
    done += [f"put back {path}/, which an interrupted redo had moved aside"
             for path in restored]
    if swept:
        named = ", ".join(swept[:_NAMED]) + (f" and {len(swept) - _NAMED} more"
                                             if len(swept) > _NAMED else "")
        done.append(f"removed what interrupted runs left in {STATE_DIR}/: {named}")
    return done


def _leftovers(root: Path) -> bool:
    """Is there anything for :func:`recover` to do? (Asked without the lock: cheap.)"""
    state = root / STATE_DIR
    if not state.is_dir():
        return False
    if (root / WRITE_OUT).exists() or any(_TEMP_FILE.match(e.name) for e in state.iterdir()):
        return True
    turns = root / TURNS_DIR
    return turns.is_dir() and any(_TEMP_RECORD.match(e.name) for e in turns.iterdir())


def _sweep(root: Path) -> tuple[list[str], list[str]]:
    """Remove earlier versions' temporary files; a record an interrupted redo moved
    aside, with nothing in its place, is put back. Returns (removed, put back)."""
    removed: list[str] = []
    restored: list[str] = []
    state = root / STATE_DIR
    for entry in sorted(state.iterdir()):
        if _TEMP_FILE.match(entry.name):
            _remove(entry)
            removed.append(f"{STATE_DIR}/{entry.name}")
    turns = root / TURNS_DIR
    for entry in sorted(turns.iterdir()) if turns.is_dir() else ():
        found = _TEMP_RECORD.match(entry.name)
        if found is None:
            continue
        record = turns / found[1]
        if found[2] == "old" and not record.exists():
            entry.replace(record)
            restored.append(f"{TURNS_DIR}/{found[1]}")
        else:
            _remove(entry)
            removed.append(f"{TURNS_DIR}/{entry.name}")
    if restored:
        _sync_dir(turns)
    return removed, restored


def _finish(root: Path, journal: Path, targets: Sequence[str]) -> None:
    """Steps 3 and 4: move every target not yet moved into place, then drop the journal."""
    for rel in targets:
        staged = _staged(journal, rel)
        if not os.path.lexists(staged):
            continue  # moved already, before the run that moved it was killed
        final = root / rel
        if staged.is_dir() and os.path.lexists(final):
            retired = journal / _OLD / rel
            if not os.path.lexists(retired):
                if not retired.parent.is_dir():
                    retired.parent.mkdir(0o755, parents=True)
                final.replace(retired)
        if not final.parent.is_dir():  # the first file of a new folder
            final.parent.mkdir(0o755, parents=True)
        staged.replace(final)
    for parent in sorted({(root / rel).parent for rel in targets}):
        _sync_dir(parent)
    _remove(journal)


def _remove(path: Path) -> None:
    """Remove a file or a folder; a journal's commit mark goes last, so a run killed
    while removing it is finished again rather than undone."""
    if not path.is_dir() or path.is_symlink():
        path.unlink()
        return
    mark = path / _COMMITTED if path.name == Path(WRITE_OUT).name else None
    for entry in sorted(path.iterdir()):
        if entry == mark:
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()
    if mark is not None and mark.exists():
        mark.unlink()
    path.rmdir()


def _read_plan(journal: Path) -> tuple[str, list[str]] | None:
    """The journal's plan (what for, the targets), or None if it was never written
    whole (the run was killed before it was synced, so before the commit point)."""
    try:
        plan = json.loads((journal / _PLAN).read_bytes())
    except (OSError, ValueError):
        if (journal / _COMMITTED).exists() and (journal / _NEW).exists():
            raise InputError([Problem(f"{WRITE_OUT}/{_PLAN}", 0, 0, "cannot be read, so the "
                                      "interrupted write-out it describes cannot be finished; "
                                      f"expected the plan ftpress wrote: restore {STATE_DIR}/ "
                                      "from git")]) from None
        return None
    targets = plan.get("targets") if isinstance(plan, dict) else None
    if not isinstance(targets, list) or not all(isinstance(t, str) and
                                                t.startswith(STATE_DIR + "/") and
                                                ".." not in t.split("/") for t in targets):
        raise InputError([Problem(f"{WRITE_OUT}/{_PLAN}", 0, 0, "is not a plan ftpress wrote; "
                                  "expected the paths of an interrupted write-out: restore "
                                  f"{STATE_DIR}/ from git")])
    return str(plan.get("about", "state/")), targets


@contextmanager
def _locked(root: Path) -> Iterator[None]:
    """Hold the lock on ``state/`` (given back by the system if the process dies)."""
    if fcntl is None:
        yield
        return
    fd = os.open(root / STATE_DIR, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing gives the lock back


def _staged(journal: Path, rel: str) -> Path:
    return journal / _NEW / rel


def _write_new(target: Path, data: bytes) -> None:
    """Write a file that must not exist yet, in a folder that does, and sync it."""
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_tree(top: Path) -> None:
    """Sync every folder under ``top`` and ``top`` itself: the names in them are durable."""
    for dirpath, _dirs, _files in os.walk(top, topdown=False):
        _sync_dir(Path(dirpath))


def _sync_dir(folder: Path) -> None:
    if os.name == "nt":  # Windows cannot open a folder to sync it; NTFS journals names
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
