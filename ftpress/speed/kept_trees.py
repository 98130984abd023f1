"""Folders of files a build keeps by key between runs, in a folder of the build cache
(``.ftpress-cache/``): the search index's shards, each kept by a digest of everything
Pagefind read to make it, so that a fresh output folder (a publishing run's new
checkout) copies an unchanged shard instead of indexing its pages again.

An entry is one folder named after its key. It is made under a temporary name and
renamed into place whole, so a build stopped half-way leaves no entry half-written;
an entry found is copied out, never linked, so that nothing done to the output can
change what the cache holds. No symbolic link in the cache is followed: a link, or
anything else that is not a plain folder or file, makes the entry count as missing.
The cache cannot change what a build produces, only how long it takes; any entry that
cannot be read is thrown away.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterable
from contextlib import suppress
from pathlib import Path

#: Where an entry is made before it is renamed to its key.
_UNFINISHED = ".new-"
#: How many entries may pile up beyond those of the last build, as a multiple of them
#: (a campaign built for two views keeps both; see :meth:`KeptTrees.prune`).
SLACK = 2


class KeptTrees:
    """The entries under ``folder``, by key; which of them this build used."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._used: set[str] = set()

    def get(self, key: str, into: Path) -> bool:
        """Copy the entry ``key`` into the new folder ``into``; False (and ``into`` not
        made) if there is no such entry, or it cannot be read whole."""
        self._used.add(key)
        entry = self.folder / key
        try:
            files = list(_walk(entry))
            for rel in files:
                target = into / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                _copy(entry / rel, target)
        except (OSError, _NotPlain):
            shutil.rmtree(into, ignore_errors=True)
            return False
        return True

    def put(self, key: str, source: Path, wanted: Callable[[str], bool]) -> None:
        """Keep the files of ``source`` whose path inside it is ``wanted`` as the entry
        ``key`` (a new entry only: one already there holds the same bytes). Nothing is
        kept if the disk refuses: the next build just does the work again."""
        self._used.add(key)
        if (self.folder / key).is_dir():
            return
        work: Path | None = None
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            work = Path(tempfile.mkdtemp(prefix=_UNFINISHED, dir=self.folder))
            for rel in _walk(source):
                if wanted(rel):
                    (work / rel).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(source / rel, work / rel, follow_symlinks=False)
            work.rename(self.folder / key)
        except (OSError, _NotPlain):
            if work is not None:
                shutil.rmtree(work, ignore_errors=True)

    def use(self, key: str) -> None:
        """Count the entry ``key`` as used by this build, if it is there, without reading it."""
        self._used.add(key)

    def prune(self, unread: int = 0, keys: Callable[[], Iterable[str]] = tuple) -> None:
        """Once the entries are more than :data:`SLACK` times those this build used, drop
        every one it did not use (and whatever a stopped build left half-made).

        ``unread``: how many more entries this build used without reading them (an index
        it kept where it was); ``keys`` names them, and is asked only when some entry is
        to go, since working out a key may mean reading everything it was made from."""
        try:
            names = [e.name for e in os.scandir(self.folder)]
        except OSError:
            names = []
        entries = sum(not n.startswith(_UNFINISHED) for n in names)
        too_many = entries > SLACK * (len(self._used) + unread)
        if too_many:
            self._used.update(keys())
        for name in names:
            if name.startswith(_UNFINISHED) or (too_many and name not in self._used):
                _remove(self.folder / name)
        self._used.clear()


class _NotPlain(Exception):
    """The entry holds something other than folders and files (a link, a device)."""


def _walk(top: Path) -> Iterable[str]:
    """The paths (inside ``top``) of the files under it, in a fixed order; raises
    :class:`_NotPlain` on a symbolic link or anything else that is not a folder or a
    file, and OSError if ``top`` is not a folder."""
    if not stat.S_ISDIR(os.lstat(top).st_mode):
        raise _NotPlain(str(top))
    pending = [("", top)]
    while pending:
        prefix, folder = pending.pop()
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda e: e.name)
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                pending.append((f"{prefix}{entry.name}/", Path(entry.path)))
            elif entry.is_file(follow_symlinks=False):
                yield f"{prefix}{entry.name}"
            else:
                raise _NotPlain(entry.path)


def _copy(source: Path, target: Path) -> None:
    """Copy one file, refusing to open it through a symbolic link."""
    fd = os.open(source, os.O_RDONLY | os.O_NOFOLLOW)
    with os.fdopen(fd, "rb") as reading, open(target, "xb") as writing:  # noqa: PTH123
        shutil.copyfileobj(reading, writing)


def _remove(path: Path) -> None:
    with suppress(OSError):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink()
