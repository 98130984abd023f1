"""Full-text search: a Pagefind index of the written site, in ``pagefind/``.

Pagefind reads HTML files on disk: the pages a build marks searchable, once the
build has written them (:func:`index_site`). Only what the templates mark with
``data-pagefind-body`` is indexed (posts, pages, the current rulebook, turn
reports), never listings or anything a template leaves out. The index is built
in a temporary folder: a first index is moved in whole, a later one synced in
like the rest of the site (unchanged files are not rewritten, stale ones go).

A large site is indexed in shards (:func:`plan`): Pagefind holds every page of
an index in memory at once, about 190 KB a page, so 5,000 posts in one index
would take a gigabyte; and Pagefind cannot update an index (it has no way to take
a page out), so an edit re-indexes the shards holding the pages it changed, which
the plan keeps small where edits are frequent (the rulebook, a year of posts).
Each shard is an index of its own; Pagefind runs on
:data:`~ftpress.site.pagefind_runner.CONCURRENT` at a time,
and the search page merges
the others into the main one (``pagefind/shards.json`` lists them). A shard whose
pages did not change keeps the index it had.

With the build cache (``.ftpress-cache/search/``), each shard Pagefind makes is kept by
a digest of everything it read (:func:`_shard_key`), and a shard whose pages are the
same bytes as when it was kept is copied from there instead of indexed again: a
publishing run, which builds into a fresh output folder, indexes only the shards
whose pages changed, and its index is the same bytes as a clean build's.

No ``data-pagefind-filter`` is used: Pagefind writes filter files whose names
change from run to run, and the output must be byte-reproducible.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ftpress.errors import ToolFailed
from ftpress.files.write import SEARCH_PREFIX, write_tree
from ftpress.render.outputs import UNSEARCHED
from ftpress.site import pagefind_runner
from ftpress.speed.buildcache import code_version
from ftpress.speed.kept_trees import KeptTrees

SEARCH_DIR = "pagefind"
#: Lists the shards the search page merges into the main index, and what each holds.
SHARDS_FILE = "shards.json"
#: Most pages in one shard: two Pagefind processes at a time stay under 250 MB in all,
#: and a site of a thousand posts is indexed on both cores.
SHARD_PAGES = 600
_POST_YEAR = re.compile(r"posts/(\d{4})/")
_TURN = re.compile(r"turns/t(\d+)/")
#: Turn reports per shard of them: a new turn re-indexes its block's reports alone (and
#: the report before it, whose link to the next turn appears), not every turn's.
TURN_BLOCK = 25
#: The folder of the build cache that keeps the shards Pagefind made.
CACHE_NAME = "search"
#: Environment variables Pagefind reads its settings from (they change its index).
_SETTINGS_PREFIX = "PAGEFIND_"


class SearchError(ToolFailed):
    """Pagefind could not index the site (not the user's input: the tool itself)."""

    def lines(self) -> list[str]:
        return [f"ftpress: the site was written but its search index was not: {self}"]


@dataclass(frozen=True, slots=True)
class SearchReport:
    files: int
    written: int


def _executable() -> Path:
    try:
        import pagefind_bin
    except ImportError:  # pragma: no cover - a declared dependency
        raise SearchError("pagefind is not installed; pip install 'pagefind[bin]'") from None
    found: Path = pagefind_bin.get_executable()
    return found


def plan(pages: Iterable[str], limit: int | None = None) -> dict[str, tuple[str, ...]]:
    """The shards of an index: name → its pages (sorted), main index (``""``) first.

    A site of at most ``limit`` pages (default :data:`SHARD_PAGES`) is one index.
    A larger one is split by what an edit changes together: the main index holds the
    pages that are neither dated posts nor turn reports (the rulebook, the pages),
    so that a rule edited re-indexes only them; the turn reports are in shards of their
    own by blocks of :data:`TURN_BLOCK` turns (``shard-turns-0-24``, ``shard-turns-25-49``…),
    so that a new turn re-indexes one block; and the posts are split by years, as many
    whole years as fit in ``limit`` pages (a year bigger than that is a shard alone),
    named after them: ``shard-2021-2022``. A new post changes only its own year's
    shard. Where no page is left for the main index, it takes the first of those
    shards in their place.
    """
    limit = SHARD_PAGES if limit is None else limit
    ordered = sorted(pages)
    if len(ordered) <= limit:
        return {"": tuple(ordered)} if ordered else {}
    units: dict[str, list[str]] = {}
    blocks: dict[int, list[str]] = {}
    for page in ordered:
        if turn := _TURN.match(page):
            blocks.setdefault(int(turn.group(1)) // TURN_BLOCK, []).append(page)
            continue
        match = _POST_YEAR.match(page)
        units.setdefault(match.group(1) if match else "", []).append(page)
    main = units.pop("", [])
    shards: list[tuple[list[str], list[str]]] = [  # (units, pages)
        ([f"turns-{block * TURN_BLOCK}", f"{block * TURN_BLOCK + TURN_BLOCK - 1}"], inside)
        for block, inside in sorted(blocks.items())]
    turn_shards = len(shards)
    for year in sorted(units):
        if len(shards) == turn_shards or len(shards[-1][1]) + len(units[year]) > limit:
            shards.append(([], []))
        shards[-1][0].append(year)
        shards[-1][1].extend(units[year])
    if not main:
        main = shards.pop(0)[1]
    named = {"": tuple(sorted(main))}
    for held, inside in shards:
        named["shard-" + "-".join(dict.fromkeys((held[0], held[-1])))] = tuple(sorted(inside))
    return named


def _digest(pages: tuple[str, ...]) -> str:
    return hashlib.sha256("\n".join(pages).encode()).hexdigest()


def _bundle(name: str) -> str:
    """Where a shard's index goes inside ``pagefind/``."""
    return f"{name}/" if name else ""


class Indexing:
    """Pagefind runs over a set of pages, started in the background.

    Pagefind reads a folder of its own holding only the pages to index, linked
    (not copied) from the output, so it reads no page it would skip. The index is
    the same as Pagefind makes from the whole written site: it skips pages without
    ``data-pagefind-body`` anyway.
    """

    def __init__(self, pages: dict[str, Path], scratch: Path, *,
                 last: Path | None = None, changed: Iterable[str] = (),
                 cache: KeptTrees | None = None) -> None:
        """Start indexing ``pages`` (output path → file with its bytes); ``scratch``
        is a folder on the same disk as those files, for the links. ``last``: the
        index made before (``pagefind/``), whose shards are kept where none of
        their pages is among ``changed``. ``cache``: the shards kept by earlier
        builds, by :func:`_shard_key`; the others are taken from there when it
        has them, and kept there once Pagefind has made them."""
        self.pages = frozenset(pages)
        self._files = pages
        self.shards = plan(pages)
        self._kept = _unchanged(self.shards, last, frozenset(changed))
        self._cache = cache
        self._keys: dict[str, str] = {}
        # Absolute: Pagefind runs in a folder of its own.
        self._work = Path(tempfile.mkdtemp(prefix=SEARCH_PREFIX, dir=scratch)).resolve()
        self._process: subprocess.Popen[str] | None = None
        #: The shards Pagefind is making (their index in the plan), to keep once made.
        self._made: dict[str, int] = {}
        try:
            runs = []
            for index, (name, inside) in enumerate(self.shards.items()):
                if name in self._kept:
                    continue
                if cache is not None:
                    self._keys[name] = _shard_key(name, inside, pages)
                if cache is None or not cache.get(self._keys[name],
                                                  self._work / f"index-{index}"):
                    self._made[name] = index
                    runs.append({"site": str(self._work / f"site-{index}"),
                                 "output": str(self._work / f"index-{index}"),
                                 # Absolute: the runner works in a folder of its own.
                                 "pages": [[str(pages[path].absolute()), path]
                                           for path in inside]})
            if runs:
                # A small process of its own puts the pages in place for Pagefind and runs
                # it, so that a build never starts a thread (its executor may fork).
                plan_file = self._work / "plan.json"
                plan_file.write_text(json.dumps({"pagefind": str(_executable()),
                                                 "unsearched": UNSEARCHED, "runs": runs}),
                                     encoding="utf-8")
                # In a session of its own: stopping it stops the Pagefinds it runs too.
                # Run as a file, isolated (-I): it needs the standard library alone.
                self._process = subprocess.Popen(
                    [sys.executable, "-I", pagefind_runner.__file__, str(plan_file)],
                    cwd=self._work, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, text=True, start_new_session=True)
        except BaseException:
            self._clean()
            raise

    def finish(self, out: Path) -> SearchReport:
        """Wait for Pagefind and sync the index into ``out/pagefind/``; if anything stops
        that (a full disk, Ctrl-C), Pagefind is stopped with it."""
        try:
            if self._process is not None:
                try:
                    stdout, stderr = self._process.communicate()
                except BaseException:
                    self._stop()
                    raise
                if self._process.returncode != 0:
                    said = stderr.strip() or stdout.strip()
                    raise SearchError(f"pagefind failed: {said}")
            self._keep_made()
            moved = self._move_in(out)
            if moved is not None:
                return moved
            files: dict[str, bytes] = {}
            for index, name in enumerate(self.shards):
                made = (out / SEARCH_DIR / name) if name in self._kept \
                    else self._work / f"index-{index}"
                for p in sorted(made.rglob("*")):
                    rel = p.relative_to(made).as_posix()
                    if p.is_file() and (_index_data(rel) if name else not _shards_own(rel)):
                        files[_bundle(name) + rel] = p.read_bytes()
            if self.shards:
                files[SHARDS_FILE] = self._manifest()
        finally:
            self._clean()
        report = write_tree(out / SEARCH_DIR, files)
        return SearchReport(len(files), report.written)

    def _keep_made(self) -> None:
        """Keep in the cache the shards Pagefind just made, each with the files a build
        takes of it (see :meth:`finish`), and let go of entries no build uses: the shards
        kept from the last index count as used, their keys (every page of theirs read)
        worked out only if some entry is to go."""
        if self._cache is None:
            return
        for name, index in self._made.items():
            made = self._work / f"index-{index}"
            if made.is_dir():  # Pagefind found nothing to index: nothing to keep
                self._cache.put(self._keys[name], made,
                                _index_data if name else lambda rel: not _shards_own(rel))
        self._cache.prune(len(self._kept), lambda: [
            _shard_key(name, self.shards[name], self._files) for name in self._kept])

    def _move_in(self, out: Path) -> SearchReport | None:
        """A first index (``out`` has none): Pagefind's folders assembled into one and
        moved in with a single rename, not read and written again file by file (5,000
        files at 5,000 posts). None where there is an index to sync with instead."""
        target = out / SEARCH_DIR
        main = self._work / "index-0"
        if target.exists() or self._kept or not self.shards or not main.is_dir():
            return None
        for index, name in enumerate(self.shards):
            if not name:
                continue
            made = self._work / f"index-{index}"
            for p in sorted(made.rglob("*"), reverse=True):  # files before their folders
                rel = p.relative_to(made).as_posix()
                if p.is_file() and not _index_data(rel):
                    p.unlink()
                elif p.is_dir() and not any(p.iterdir()):
                    p.rmdir()
            made.replace(main / name)
        (main / SHARDS_FILE).write_bytes(self._manifest())
        count = sum(1 for p in main.rglob("*") if p.is_file())
        main.replace(target)
        return SearchReport(count, count)

    def _manifest(self) -> bytes:
        return json.dumps({
            "merge": [_bundle(n) for n in self.shards if n],
            "pages": {n: _digest(p) for n, p in self.shards.items()},
            "pagefind": _pagefind_version(),
        }, indent=1, sort_keys=True).encode() + b"\n"

    def _stop(self) -> None:
        """Kill the runner and the Pagefinds it started (its whole process group)."""
        if self._process is not None:
            if self._process.poll() is None:  # not reaped: its group id is still its own
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self._process.pid, signal.SIGKILL)
            self._process.communicate()  # reaps it and closes its pipes

    def _clean(self) -> None:
        shutil.rmtree(self._work, ignore_errors=True)


def _index_data(rel: str) -> bool:
    """Is this file of a shard's Pagefind output needed to merge it? (The search runs
    the main index's scripts and WebAssembly for every shard.)"""
    return rel == "pagefind-entry.json" or rel.endswith(".pf_meta") \
        or rel.startswith(("index/", "fragment/", "filter/"))


def _shards_own(rel: str) -> bool:
    """Is this file in the main index's folder really the shards' (a shard's index, or
    the list of shards), not the main index's?"""
    return rel.startswith("shard-") or rel == SHARDS_FILE


def _pagefind_version() -> str:
    # Imported here: importlib.metadata (email, zipfile…) costs 25 ms of start-up to
    # every command that imports this module (check, turn…), and only an index that is
    # written asks for the version. (A build imports it anyway, for its fingerprint.)
    from importlib import metadata

    try:
        return metadata.version("pagefind_bin")
    except metadata.PackageNotFoundError:  # pragma: no cover - a declared dependency
        return ""


def _shard_key(name: str, inside: tuple[str, ...], pages: dict[str, Path]) -> str:
    """What a shard's index is made from, as a digest: its name, ftpress's code (which
    puts the pages in place for Pagefind and runs it), Pagefind's version and the
    settings it takes from the environment, and each page's path and bytes."""
    h = hashlib.sha256(f"{name}\0{code_version()}\0{_pagefind_version()}\0".encode())
    for variable in sorted(os.environ):
        if variable.upper().startswith(_SETTINGS_PREFIX):
            h.update(f"{variable}={os.environ[variable]}\0".encode())
    for path in inside:
        data = pages[path].read_bytes()
        h.update(f"\n{path}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


def _unchanged(shards: dict[str, tuple[str, ...]], last: Path | None,
               changed: frozenset[str]) -> frozenset[str]:
    """The shards whose index in ``last`` still holds: same pages, none changed."""
    if last is None:
        return frozenset()
    try:
        manifest = json.loads((last / SHARDS_FILE).read_text(encoding="utf-8"))
        before = manifest["pages"] if manifest["pagefind"] == _pagefind_version() else {}
    except (OSError, ValueError, KeyError, TypeError):
        return frozenset()
    return frozenset(name for name, inside in shards.items()
                     if before.get(name) == _digest(inside)
                     and (last / _bundle(name) / "pagefind-entry.json").is_file()
                     and not changed.intersection(inside))


#: Stands at the top of the output from just before a build moves its pages in until
#: their search index is finished. A build that finds it knows the index there may not
#: match the pages (the last build was killed or failed in between: its pages look
#: unchanged now), and makes the whole index again.
UNFINISHED = ".ftpress-index-unfinished"


def index_unfinished(out: Path) -> bool:
    """Whether the index in ``out`` was left unfinished (see :data:`UNFINISHED`)."""
    return (out / UNFINISHED).exists()


def mark_unfinished(out: Path) -> None:
    (out / UNFINISHED).touch()


def mark_finished(out: Path) -> None:
    (out / UNFINISHED).unlink(missing_ok=True)


def index_site(out: Path, searchable: list[str], changed: Iterable[str] | None = None,
               cache: Path | None = None) -> SearchReport:
    """(Re)build ``out/pagefind/`` from the ``searchable`` pages written in ``out``;
    with ``changed`` (the pages rewritten since it was made), keep the shards of the
    index there that hold none of them. ``cache``: the build cache's folder, where the
    shards are kept between builds (see :data:`CACHE_NAME`)."""
    return Indexing({p: out / p for p in searchable}, out,
                    last=out / SEARCH_DIR if changed is not None else None,
                    changed=changed or (),
                    cache=KeptTrees(cache / CACHE_NAME) if cache is not None else None
                    ).finish(out)
