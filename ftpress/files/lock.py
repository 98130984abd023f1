"""One writer at a time: the campaign lock.

Every command that writes a campaign (a turn and its redo, every ``keys`` action
that writes, ``orders seal``, ``roster``, ``calendar``, ``build``'s cache) holds
the same lock while it runs: the git-ignored file :data:`LOCK_FILE` at the
campaign's root, locked with ``flock`` and holding a line that names its holder
(the command, its process, its host, since when). A second writer does not wait:
it is refused with a line naming the holder, and nothing is changed.

The system gives a ``flock`` back when its process dies, however it dies; the
holder's line stays behind. The next writer finds the file unlocked, takes it
over, and says whose it was. A holder that finishes removes the file, so a
campaign at rest has none.

The file is removed only by its holder, while it holds it; a writer that opened
the file just before it was removed finds, once it holds its lock, that the name
now points elsewhere (or nowhere), and starts again.

Under the lock, a writer also sweeps the temporary files killed runs of any
command left beside a campaign's files (``.tmp-*``, :func:`stray_temporaries`),
which nobody else can be writing while it holds it.
"""

from __future__ import annotations

import datetime
import os
import re
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ftpress.errors import RefusedCommand

try:
    import fcntl
except ImportError:  # Windows: writers are not guarded against each other there
    fcntl = None  # type: ignore[assignment]

#: The lock file, at the campaign's root (git-ignored).
LOCK_FILE = ".ftpress.lock"
#: The campaign folders where ftpress writes a file through a temporary one beside it.
TEMPORARY_FOLDERS = ("orders", "battles")
#: A temporary file of :func:`ftpress.files.write.write_file`.
_TEMPORARY = re.compile(r"^\.tmp-")


@contextmanager
def campaign_lock(root: Path, holder: str) -> Iterator[list[str]]:
    """Hold the campaign lock of ``root`` while the block runs; refused (nothing done)
    when another command holds it. Yields what was recovered first, in words: a lock
    a dead process left, the temporary files killed runs left."""
    notes: list[str] = []
    if fcntl is None or not root.is_dir():
        yield notes
        return
    path = root / LOCK_FILE
    fd = _acquire(path)
    try:
        left = _read(fd)
        if left:
            notes.append(f"took over {LOCK_FILE}, left by {left}, which is no longer "
                         "running")
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        now = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        os.write(fd, f"{holder} (pid {os.getpid()} on {socket.gethostname()}, since "
                     f"{now})\n".encode())
        swept = [rel for rel in stray_temporaries(root) if _removed(root / rel)]
        if swept:
            notes.append("removed the temporary files interrupted runs left: " +
                         ", ".join(swept))
        try:
            yield notes
        finally:
            path.unlink()  # while it is held: nobody else can be holding this file
    finally:
        os.close(fd)  # gives the lock back, even to a process that died


def _acquire(path: Path) -> int:
    """The lock file's descriptor, locked; refused when another process holds it."""
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read(fd) or "another ftpress command"
            os.close(fd)
            raise RefusedCommand(f"{holder} is writing this campaign (it holds {LOCK_FILE}); "
                                 "nothing was changed: run the command again once it has "
                                 "finished") from None
        except BaseException:
            os.close(fd)
            raise
        try:
            same = os.path.samestat(os.fstat(fd), path.lstat())
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)  # its holder removed it as we opened it: take the one there now


def _read(fd: int) -> str:
    os.lseek(fd, 0, os.SEEK_SET)
    return os.read(fd, 4096).decode("utf-8", "replace").strip()


def clear_stale(root: Path) -> str | None:
    """Remove a lock a dead process left (taken as a writer takes it, so never one a
    running command holds); who left it, or None where there was none to remove."""
    path = root / LOCK_FILE
    if fcntl is None or not path.is_file() or path.is_symlink():
        return None
    try:
        fd = _acquire(path)
    except RefusedCommand:
        return None  # held: its holder is running
    try:
        left = _read(fd)
        path.unlink()
    finally:
        os.close(fd)
    return left or "a killed ftpress command"


def stray_temporaries(root: Path) -> list[str]:
    """The temporary files killed runs left in the campaign's order and battle folders
    and at its root, by path relative to ``root``, sorted (those a write-out journal
    manages are :mod:`ftpress.state.writeout`'s)."""
    found: list[str] = []
    for entry in _entries(root):
        if _TEMPORARY.match(entry.name) and entry.is_file():
            found.append(entry.name)
    for name in TEMPORARY_FOLDERS:
        top = root / name
        if not top.is_dir() or top.is_symlink():
            continue
        for folder in [top, *sorted(p for p in _entries(top) if p.is_dir()
                                    and not p.is_symlink())]:
            found += [entry.relative_to(root).as_posix() for entry in _entries(folder)
                      if _TEMPORARY.match(entry.name) and entry.is_file()
                      and not entry.is_symlink()]
    return sorted(found)


def _entries(folder: Path) -> list[Path]:
    try:
        return sorted(folder.iterdir())
    except OSError:
        return []


def _removed(path: Path) -> bool:
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    return True
