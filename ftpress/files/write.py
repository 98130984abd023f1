"""Write a rendered site to disk: only files whose bytes changed, each atomically.

The output folder belongs to ftpress (as in Zola): files a build did not
produce are removed, except dot-files at its top (a ``.git`` of a deploy
checkout, say). It may not be the campaign folder or hold any part of it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from ftpress.errors import InputError, Problem

#: Campaign folders an output folder must never be, contain, or sit inside.
SOURCE_DIRS = ("content", "state", "orders", "themes", "ftpress", ".git")
#: Folders a build makes at the top of the output while it runs: the staging folder and
#: the search index's work folder. One left by a build that was killed is swept by the
#: next (:func:`sweep`).
STAGING_PREFIX, SEARCH_PREFIX = ".ftpress-staging-", ".ftpress-search-"


@dataclass(frozen=True, slots=True)
class WriteReport:
    written: int
    unchanged: int
    removed: int


def check_out_dir(root: Path, out: Path) -> None:
    """Refuse an output folder whose cleaning could delete the campaign's own files."""
    root, out = root.resolve(), out.resolve()
    guarded = [root, *(root / d for d in SOURCE_DIRS)]
    if any(out == g or g.is_relative_to(out) or (g != root and out.is_relative_to(g))
           for g in guarded):
        raise InputError([Problem(str(out), 0, 0, "output folder overlaps the campaign's own "
                                  "files; choose a separate folder such as _site")])


def write_file(target: Path, data: bytes, *, durable: bool = True, mode: int = 0o644) -> None:
    """Replace ``target`` atomically: temp file in the same folder, fsync, rename.

    A reader sees the old file or the new one, never half of one. ``durable``
    also forces the bytes to disk before the rename, so a crash cannot lose
    them: campaign state needs that; a site that one build can remake does not,
    and skipping it saves a disk flush per page. ``mode``: the new file's, from
    the moment its name appears (a key file is never readable by others).
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=target.suffix)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        Path(tmp).chmod(mode)
        Path(tmp).replace(target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _same(target: Path, data: bytes) -> bool:
    try:
        if target.stat().st_size != len(data):
            return False
        return target.read_bytes() == data
    except OSError:
        return False


def write_tree(out: Path, files: dict[str, bytes], keep: tuple[str, ...] = ()) -> WriteReport:
    """Make ``out`` hold exactly ``files`` (paths relative to it), through a :class:`Staging`.

    Top-level entries named in ``keep`` (another stage's output, such as the
    search index) are left alone, as are top-level dot-files.
    """
    staging = Staging(out)
    try:
        changed = {path for path, data in files.items() if staging.put(path, data)}
        return staging.commit(set(files), changed, keep)
    except BaseException:
        staging.abort()
        raise


def _remove_stale(out: Path, wanted: set[str], keep: tuple[str, ...]) -> int:
    """Remove the files of ``out`` not ``wanted``, then the folders left empty; never
    the top's dot-files and dot-folders (the deployer's) nor what is inside the top
    folders named in ``keep`` (another stage's). Plain strings and ``os`` calls: this
    runs over thousands of files after every ``serve`` rebuild."""
    removed = 0
    root = str(out)
    folders: list[str] = []
    for dirpath, dirs, filenames in os.walk(root):
        rel_dir = dirpath[len(root) + 1:]
        if not rel_dir:  # the top: what is not the build's is not walked at all
            dirs[:] = [d for d in dirs if not d.startswith(".") and d not in keep]
            filenames = [f for f in filenames if not f.startswith(".")]
        else:
            folders.append(dirpath)
        prefix = f"{rel_dir}/" if rel_dir else ""
        for name in filenames:
            if prefix + name not in wanted:
                os.unlink(f"{dirpath}/{name}")  # noqa: PTH108 - thousands of paths
                removed += 1
    for folder in reversed(folders):  # a folder's own folders come after it in the walk
        with suppress(OSError):  # not empty
            os.rmdir(folder)  # noqa: PTH106
    return removed


def _move_in(staged: Path, out: Path) -> None:
    """Move everything under ``staged`` to the same place under ``out``.

    A folder that ``out`` does not have yet moves whole, in one rename (a first
    build moves a handful of folders, not thousands of files); a file replaces
    whatever stood at its path, a folder included.
    """
    for entry in staged.iterdir():
        target = out / entry.name
        there = target.is_dir() and not target.is_symlink()
        if entry.is_dir() and not entry.is_symlink():
            if there:
                _move_in(entry, target)
                continue
            if target.is_symlink() or target.exists():
                target.unlink()  # a file stands where the folder goes
        elif there:
            _remove_tree(target)
        entry.replace(target)


def sweep(out: Path) -> None:
    """Remove what killed builds left at the top of ``out``: their staging and search
    work folders (only one build writes to an output folder at a time)."""
    for entry in out.iterdir() if out.is_dir() else ():
        if entry.name.startswith((STAGING_PREFIX, SEARCH_PREFIX)) and entry.is_dir() \
                and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)


def _remove_tree(path: Path) -> None:
    for dirpath, _dirs, filenames in os.walk(path, topdown=False):
        for name in filenames:
            (Path(dirpath) / name).unlink()
        Path(dirpath).rmdir()


class Staging:
    """One build's files, written beside the output and moved in only when all are ready.

    Files go to a dot-folder inside the output folder (same disk, so moving one
    in is a rename), and only those that differ from the output's are written
    at all. :meth:`commit` moves them in and removes what the build no longer
    makes; :meth:`abort` leaves the output exactly as it was.
    """

    def __init__(self, out: Path) -> None:
        self.created = not out.exists()
        out.mkdir(parents=True, exist_ok=True)
        sweep(out)
        #: The output held nothing at the start (a first or clean build): nothing to remove.
        self.empty = not any(out.iterdir())
        self.out = out
        self.dir = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=out))
        self._made: set[Path] = set()

    def put(self, path: str, data: bytes) -> bool:
        """Stage one file if it differs from the output's; say whether it did."""
        if not self.empty and _same(self.out / path, data):
            return False
        staged = self.dir / path
        if staged.parent not in self._made:  # one mkdir per folder, not per file
            staged.parent.mkdir(parents=True, exist_ok=True)
            self._made.add(staged.parent)
        staged.write_bytes(data)
        return True

    def commit(self, wanted: set[str], changed: set[str],
               keep: tuple[str, ...] = ()) -> WriteReport:
        """Move the changed files in; remove files no longer wanted (but ``keep``)."""
        try:
            _move_in(self.dir, self.out)  # the staging folder holds exactly the changed files
            removed = 0 if self.empty else _remove_stale(self.out, wanted, keep)
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)
        return WriteReport(len(changed), len(wanted) - len(changed), removed)

    def abort(self) -> None:
        """Drop what was staged; an output folder this build created goes too."""
        shutil.rmtree(self.dir, ignore_errors=True)
        if self.created and not any(self.out.iterdir()):
            self.out.rmdir()
