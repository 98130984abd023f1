"""What a build can reuse: from the last one, kept in ``.ftpress-cache/`` beside the
sources, and, in ``serve``, from the last build in the same process.

Every cache the build has sits behind one object, :class:`RenderCache`, made by the
caller and handed to the build (nothing is kept in module globals). Two things are
kept on disk, and neither can change what a build produces:

- **Rendered Markdown**, keyed by a hash of everything the HTML depends on
  (ftpress's own files, by their bytes, and the versions of its libraries, the
  text, the base path, where each citation points): the same wheel installed
  afresh finds what the last install cached.
  Markdown is most of a build's work; an edit to one post re-renders one post.
- **A fingerprint of the last build**: every input file's size and modification
  time, the options, the versions of the libraries that shape the output, and
  every output file's size and time. When nothing of that has changed, and no
  scheduled post has come due, the output is already what a build would write,
  so the build stops there. A fingerprint taken within :data:`RACY_NS` of an
  input's last change is not kept (git's "racily clean" files): a second edit
  in the same tick of a coarse file clock, keeping the file's size, would leave
  its size and time as they were, and the stale output would stand.

Values are stored as JSON in SQLite (never pickle: the cache folder sits in a
repository that pull requests can write to). A cache that cannot be read is
thrown away and rebuilt; it is never an error. In memory, the same object keeps
the state files parsed (:mod:`ftpress.state.load`) and the templates compiled, for a
next build by the same process, and, for ``serve``, what the last build loaded and
rendered, with what each was made from (:meth:`RenderCache.reuse`, :attr:`RenderCache.pages`):
the dependency tracking that lets an edit redo only what depends on it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterable
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime
from importlib import metadata
from pathlib import Path
from typing import Any, TypeVar

from ftpress import __version__

CACHE_DIR = ".ftpress-cache"
#: Campaign folders and files whose contents are the build's inputs.
INPUTS = ("content", "state", "orders", "themes", "static", "site.yaml")
#: Libraries whose version can change the bytes of the output.
LIBRARIES = ("ftpress", "jinja2", "markupsafe", "markdown-it-py", "mdit-py-plugins", "pyyaml",
             "svgwrite", "pydantic", "pagefind-bin", "resvg")
_PACKAGE = Path(__file__).resolve().parents[1]
#: How long after an input's last change a fingerprint can trust that file's time: the
#: coarsest file clocks in use count in 2-second steps (FAT), HFS+ and ext3 in seconds.
RACY_NS = 2_000_000_000

T = TypeVar("T")


@functools.cache
def code_version() -> str:
    """ftpress's version, a digest of its own files' bytes (code, templates, fonts) and
    the versions of the :data:`LIBRARIES` whose output lands in the site.

    Cached renderings are keyed by it, so a change to the code that draws a map
    or renders Markdown never serves a stale result, even under one version
    number (a working copy, an editable install), and neither does an upgrade
    of markdown-it-py or Jinja2 under unchanged posts. Only what the files hold
    counts, and where they sit inside the package: never their times nor the folder
    ftpress is installed in, so the same wheel installed afresh (as a publishing
    workflow does on every run) finds what the last run cached.
    """
    h = hashlib.sha256(__version__.encode())
    h.update(library_versions().encode())
    h.update(package_digest(_PACKAGE).encode())
    return f"{__version__}+{h.hexdigest()[:16]}"


def package_digest(package: Path) -> str:
    """A digest of every file under ``package`` (bytecode caches aside): each one's
    path inside it and its bytes."""
    h = hashlib.sha256()
    prefix = len(str(package)) + 1
    for path, _ in _files(package):
        if path.endswith((".pyc", ".pyo")):
            continue
        with suppress(OSError), open(path, "rb") as handle:  # noqa: PTH123
            data = handle.read()
            h.update(f"{path[prefix:]}\0{len(data)}\0".encode())
            h.update(data)
    return h.hexdigest()


def library_versions() -> str:
    """``name=version`` of each of :data:`LIBRARIES` that is installed, one a line."""
    lines = []
    for name in LIBRARIES:
        with suppress(metadata.PackageNotFoundError):
            lines.append(f"{name}={metadata.version(name)}\n")
    return "".join(lines)


class RenderCache:
    """What builds reuse: rendered Markdown, maps and charts by key, in memory and
    (with a ``folder``) in SQLite between runs; the state files parsed (:attr:`parsed`)
    and the templates compiled (:attr:`templates`), in memory."""

    def __init__(self, folder: Path | None, *, track: bool = False) -> None:
        #: Keep what each page of a build was made from, for the next build by the same
        #: process to compare with (``serve``); a single build has no use for it.
        self.track = track
        #: Where it is kept between runs (None: in memory only); other stages keep what
        #: they reuse beside it (``ftpress.site.search``'s shards).
        self.folder = folder
        self._memory: dict[str, tuple[Any, ...]] = {}
        self._new: dict[str, tuple[Any, ...]] = {}
        self._used: set[str] = set()
        self._db: sqlite3.Connection | None = None
        if folder is not None:
            self._db = _open(folder / "render.sqlite")
        #: State files parsed and validated, by kind and digest (``ftpress.state.load.Store``).
        self.parsed: dict[tuple[str, str], Any] = {}
        #: Templates compiled, as bytecode by Jinja's key (``ftpress.render.theme``): ``serve``
        #: compiles an unchanged template once, not on every edit.
        self.templates: dict[str, bytes] = {}
        #: Each part of a load by name: what it was made from (its key) and the value.
        self._parts: dict[str, tuple[object, object]] = {}
        #: The pages of the last build written into :attr:`pages_out`, by output path:
        #: what each was rendered from (``ftpress.render.pages``); a page whose inputs
        #: are all equal again is already on disk as a render would make it.
        self.pages: dict[object, Any] = {}
        self.pages_out: Path | None = None
        #: The pages of the build under way, kept in :attr:`pages` once it is written.
        self.staged: dict[object, Any] = {}

    def reuse(self, name: str, key: object, make: Callable[[], T]) -> T:
        """``make()``, or what it gave last time under ``name`` if ``key`` is equal to
        that time's: the key names everything the value depends on (for a part of a
        load, :func:`stamp` of its input files and the options it reads)."""
        last = self._parts.get(name)
        if last is not None and last[0] == key:
            return last[1]  # type: ignore[return-value]
        value = make()
        self._parts[name] = (key, value)
        return value

    def begin(self, out: Path) -> None:
        """A build into ``out`` starts: what was rendered into another folder is no use."""
        self.staged = {}
        if self.pages_out != out:
            self.pages, self.pages_out = {}, out

    def written(self, out: Path) -> None:
        """The build's pages are in ``out``: they are what the next build compares with."""
        self.pages, self.pages_out, self.staged = self.staged, out, {}

    def forget(self) -> None:
        """The output may no longer hold what the last build wrote: compare with nothing."""
        self.pages, self.pages_out, self.staged = {}, None, {}

    def get_many(self, keys: Iterable[str]) -> dict[str, tuple[Any, ...]]:
        """The cached values among ``keys``."""
        wanted = list(dict.fromkeys(keys))
        self._used.update(wanted)
        found = {k: self._memory[k] for k in wanted if k in self._memory}
        missing = [k for k in wanted if k not in found]
        if self._db is not None and missing:
            try:
                for start in range(0, len(missing), 500):
                    chunk = missing[start:start + 500]
                    rows = self._db.execute(
                        f"SELECT key, value FROM md WHERE key IN ({','.join('?' * len(chunk))})",
                        chunk).fetchall()
                    for key, value in rows:
                        found[key] = tuple(json.loads(value))
            except sqlite3.DatabaseError:
                self._db = None  # unreadable: carry on without it
        self._memory.update(found)
        return found

    def put(self, key: str, value: tuple[Any, ...]) -> None:
        self._memory[key] = value
        self._new[key] = value
        self._used.add(key)

    def save(self) -> None:
        """Store what this build rendered; drop what it no longer uses once that piles up."""
        if self._db is None:
            self._new.clear()
            return
        try:
            with self._db:
                self._db.executemany("INSERT OR REPLACE INTO md (key, value) VALUES (?, ?)",
                                     [(k, json.dumps(v)) for k, v in self._new.items()])
                total = self._db.execute("SELECT COUNT(*) FROM md").fetchone()[0]
                # Serve's builds reuse parts whole, touching none of their keys: only a
                # build that asks for everything it needs says what is no longer used.
                if not self.track and total > 2 * len(self._used) + 100:
                    self._db.execute("CREATE TEMP TABLE keep (key TEXT PRIMARY KEY)")
                    self._db.executemany("INSERT INTO keep VALUES (?)",
                                         [(k,) for k in self._used])
                    self._db.execute("DELETE FROM md WHERE key NOT IN (SELECT key FROM keep)")
                    self._db.execute("DROP TABLE keep")
        except sqlite3.DatabaseError:
            self._db = None
        self._new.clear()
        self._used.clear()


def _open(path: Path) -> sqlite3.Connection | None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # One build at a time uses it, but serve rebuilds from its watcher thread.
        db = sqlite3.connect(path, timeout=5, check_same_thread=False)
        db.execute("CREATE TABLE IF NOT EXISTS md (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        return db
    except (sqlite3.DatabaseError, OSError):
        with suppress(OSError):
            path.unlink()
        return None


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """All that decides a build's output, short of reading the files."""

    digest: str
    #: Every input was last changed more than :data:`RACY_NS` before the fingerprint
    #: was taken, so any later change shows in its size or time.
    settled: bool = True

    @classmethod
    def of(cls, root: Path, options: dict[str, object]) -> Fingerprint:
        taken = time.time_ns()
        newest = 0
        h = hashlib.sha256()
        h.update(json.dumps(options, sort_keys=True, default=str).encode())
        # ftpress's own files (walked once) and the libraries' versions.
        h.update(f"{code_version()}\n".encode())
        for base in [root / name for name in INPUTS]:
            for path, stat in _files(base):
                h.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
                newest = max(newest, stat.st_mtime_ns)
        return cls(h.hexdigest(), settled=newest < taken - RACY_NS)


def stamp(root: Path, names: Iterable[str]) -> str:
    """A digest of the files under ``root/name`` for each of ``names``: each one's path,
    size, time and inode, and the bytes of those changed within :data:`RACY_NS` (a
    second edit in the same tick of a coarse clock, keeping the size, shows only in
    them). Cheap: it stats files, and reads only those just changed."""
    racy = time.time_ns() - RACY_NS
    h = hashlib.sha256()
    for name in names:
        for path, st in _files(root / name):
            h.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}\n".encode())
            if st.st_mtime_ns >= racy:
                with suppress(OSError), open(path, "rb") as handle:  # noqa: PTH123
                    h.update(hashlib.sha256(handle.read()).digest())
    return h.hexdigest()


def _files(base: Path) -> Iterable[tuple[str, os.stat_result]]:
    if base.is_file():
        yield str(base), base.stat()
        return
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d not in ("__pycache__",)
                             and not d.startswith("."))
        for name in sorted(filenames):
            path = f"{dirpath}/{name}"
            with suppress(OSError):
                # Plain strings and os.stat: this walks thousands of files per build.
                yield path, os.stat(path)  # noqa: PTH116


def _scan(out: Path) -> list[tuple[str, os.stat_result]]:
    """Every folder (ending in '/', the output's own first) and file of the output,
    with its stat, in a fixed order."""
    found = [("./", out.stat())]

    def visit(folder: str, prefix: str) -> None:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda e: e.name)
        folders = []
        for entry in entries:
            if entry.is_dir():
                if not entry.name.startswith("."):
                    found.append((f"{prefix}{entry.name}/", entry.stat()))
                    folders.append(entry)
            else:
                found.append((f"{prefix}{entry.name}", entry.stat()))
        for entry in folders:
            visit(entry.path, f"{prefix}{entry.name}/")

    visit(str(out), "")
    return found


def _digest(found: Iterable[tuple[str, os.stat_result]]) -> str:
    h = hashlib.sha256()
    for rel, stat in found:
        size = 0 if rel.endswith("/") else stat.st_size
        h.update(f"{rel}\0{size}\0{stat.st_mtime_ns}\n".encode())
    return h.hexdigest()


def _outputs(out: Path, entries: list[str]) -> str | None:
    """The digest of ``entries`` of the output as they stand (None if one is gone).

    Stat-ing the folders and files the last build left tells as much as walking the
    tree again, in a third of the time: a file added, removed or renamed anywhere
    changes its folder's mtime, and a file rewritten its own.
    """
    try:
        return _digest((rel, os.stat(f"{out}/{rel}")) for rel in entries)  # noqa: PTH116
    except OSError:
        return None


def reusable(root: Path, out: Path, *, drafts: bool, future: bool,
             now: datetime, view: str = "public") -> tuple[Fingerprint, LastBuild | None]:
    """This build's fingerprint, and the last build if it can stand as this one.

    Cheap on purpose (it stats files, reads none): ``ftpress build`` asks before
    importing the rest of ftpress.
    """
    # The view is an input: an umpire's build must never stand as a public one.
    fingerprint = Fingerprint.of(root, {"drafts": drafts, "future": future, "view": view})
    return fingerprint, unchanged(root, out, fingerprint, now)


def _manifest_path(root: Path, out: Path) -> Path:
    name = hashlib.sha256(str(out.resolve()).encode()).hexdigest()[:16]
    return root / CACHE_DIR / f"build-{name}.json"


@dataclass(frozen=True, slots=True)
class LastBuild:
    """What the previous build into the same folder left behind."""

    summary: str

    def reused(self, seconds: float) -> str:
        """The one line a build that found nothing to do prints."""
        return (f"nothing changed since the last build ({seconds:.2f} s to check); "
                f"it {self.summary.removeprefix('built ')}")


def unchanged(root: Path, out: Path, fingerprint: Fingerprint, now: datetime) -> LastBuild | None:
    """The last build's summary if it is still exactly what a build would produce.

    "Now" decides which posts are published: the answer is no once a scheduled
    post has come due, or if "now" is earlier than the newest post published.
    """
    try:
        saved = json.loads(_manifest_path(root, out).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    due, newest = saved.get("next_due"), saved.get("newest")
    if saved.get("inputs") != fingerprint.digest:
        return None
    if (due and now >= datetime.fromisoformat(due)) or \
            (newest and now < datetime.fromisoformat(newest)):
        return None
    entries = saved.get("entries")
    if not isinstance(entries, list) or saved.get("outputs") != _outputs(out, entries):
        return None
    return LastBuild(saved.get("summary", ""))


def remember(root: Path, out: Path, fingerprint: Fingerprint, *, newest: datetime | None,
             next_due: datetime | None, summary: str) -> None:
    """Record this build, so the next one can tell whether anything changed.

    ``newest`` is the date of the newest post published, ``next_due`` that of the
    first post still scheduled.
    """
    try:
        found = _scan(out)
    except OSError:
        return  # not recorded: the next build just builds
    # An unsettled fingerprint is not kept: the next build builds (from the cache).
    manifest = {"inputs": fingerprint.digest if fingerprint.settled else None,
                "outputs": _digest(found),
                "entries": [rel for rel, _ in found], "summary": summary,
                "newest": newest.isoformat() if newest else None,
                "next_due": next_due.isoformat() if next_due else None}
    path = _manifest_path(root, out)
    with suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(manifest), encoding="utf-8")
        tmp.replace(path)
