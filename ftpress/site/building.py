"""The build, as a table of contents: load (the campaign's store opened once, as the
build's view reads it, and everything read and checked through it), render (every
page, into a staging folder), write (only what changed), index (the search).

Nothing is written unless the whole site has loaded and rendered. The work of
each stage runs on the executor the build is handed, in this process or on every
core: the stages do not know which. ``serve`` also uses :func:`rebuild_post` to
show an edited post before all that.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import jinja2

from ftpress.content.posts import load_post
from ftpress.errors import InputError
from ftpress.files.write import Staging, WriteReport, check_out_dir, write_file
from ftpress.render.outputs import Outputs
from ftpress.render.pages import Early
from ftpress.site.loading import BuildOptions, Site, load
from ftpress.site.rendering import render, render_one_post
from ftpress.site.search import (
    SEARCH_DIR,
    index_site,
    index_unfinished,
    mark_finished,
    mark_unfinished,
)
from ftpress.speed.buildcache import (
    CACHE_DIR,
    Fingerprint,
    LastBuild,
    RenderCache,
    remember,
    reusable,
)
from ftpress.speed.executor import SERIAL, Executor, apart, release_memory
from ftpress.store import open_with


@dataclass(frozen=True, slots=True)
class BuildReport:
    pages: int
    posts: int
    files: int
    write: WriteReport
    seconds: float
    #: The last build, when nothing had changed and nothing was rebuilt.
    reused: LastBuild | None = None
    #: The site as this build loaded it, when asked for (``serve`` keeps it for
    #: :func:`rebuild_post`).
    site: Site | None = None
    #: Output paths whose bytes this build changed.
    changed: frozenset[str] = frozenset()

    def summary(self, out: Path) -> str:
        if self.reused is not None:
            return self.reused.reused(self.seconds)
        w = self.write
        return (f"built {self.pages} pages from {self.posts} posts in {self.seconds:.2f} s: "
                f"{w.written} files written, {w.unchanged} unchanged, {w.removed} removed "
                f"→ {out}")


def build(root: Path, out_dir: Path, options: BuildOptions,
          cache: RenderCache | None = None, fingerprint: Fingerprint | None = None, *,
          executor: Executor = SERIAL, reindex: frozenset[str] = frozenset(),
          written: Callable[[frozenset[str], WriteReport], None] | None = None,
          keep_site: bool = False, first: frozenset[str] = frozenset(),
          shown: Callable[[frozenset[str]], None] | None = None) -> BuildReport:
    """load → render → write → index. Raises :class:`InputError` before writing anything.

    ``cache`` keeps what builds reuse (``serve`` passes its own, kept between its
    builds); with ``options.incremental`` it lives in ``.ftpress-cache/``, and a build
    whose inputs are all as they were last time reuses that build whole.
    ``fingerprint`` is the inputs' fingerprint when the caller already took it.
    ``executor`` does the stages' bulk work. ``reindex``: pages whose search index is
    redone even if this build does not change them (``serve`` rewrote an edited post's
    page itself, just before). ``written`` is told the paths changed and the write's
    report as soon as the pages are in place, before the search index is made (``serve``
    reloads the browser then). ``keep_site``: the report holds the site as loaded
    (``serve`` keeps it for :func:`rebuild_post`); without it, the site and what was
    rendered from it are let go before Pagefind runs, so that the memory of the
    processes together peaks lower. ``first``: output paths of pages rendered before
    all others and written into ``out_dir`` at once, ahead of the rest, if they render;
    ``shown`` is told which of them that changed (``serve`` reloads the browser on the
    pages it shows, before the thousands of others are rendered). Every other page is
    still moved in only when all have rendered.
    """
    started = time.perf_counter()
    check_out_dir(root, out_dir)
    if options.incremental and fingerprint is None:
        # Taken before reading anything: a file changed mid-build shows up next time.
        fingerprint, last = reusable(root, out_dir, drafts=options.drafts,
                                     future=options.future, now=options.now, view=options.view)
        if last is not None:
            return reused(last, started)
    folder = root / CACHE_DIR if options.incremental else None
    early = Early(first, _Direct(out_dir), shown) if first and shown is not None else None
    if keep_site or cache is not None or early is not None:
        made = _make(root, out_dir, options, cache or RenderCache(folder), executor,
                     keep_site=keep_site, early=early)
    else:
        # Pagefind's processes run beside this one once the pages are written: the site,
        # the cache and everything rendered are made in a process of their own where the
        # executor forks, and are gone with it; here, they are let go on return.
        made = apart(executor, lambda: _make(root, out_dir, options, RenderCache(folder),
                                             executor, keep_site=False))
    if not keep_site:
        release_memory()  # what the pages were made from goes back to the system
    report, changed = made.report, made.changed
    if written is not None:
        written(changed, report)
    # The index is redone only when a page changed (or serve rewrote one itself).
    if made.search and (reindex or report.written or report.removed or made.unfinished
                        or not (out_dir / SEARCH_DIR).is_dir()):
        index_site(out_dir, list(made.searchable),
                   None if made.unfinished else changed | reindex,
                   cache=cache.folder if cache is not None else folder)  # the shards kept
    if made.search:
        mark_finished(out_dir)
    result = BuildReport(made.pages, made.posts, made.files, report,
                         time.perf_counter() - started, site=made.site, changed=changed)
    if options.incremental and fingerprint is not None:
        remember(root, out_dir, fingerprint, summary=result.summary(out_dir),
                 newest=made.newest, next_due=made.next_due)
    return result


@dataclass(frozen=True, slots=True)
class _Made:
    """What the rest of a build needs of the pages it made: small and plain, so that it
    can come back from the process that made them (:func:`apart`)."""

    report: WriteReport
    changed: frozenset[str]
    search: bool
    searchable: tuple[str, ...]
    #: The last build moved pages in but did not finish their index: make it all again.
    unfinished: bool
    pages: int
    posts: int
    files: int
    newest: datetime | None
    next_due: datetime | None
    #: The site as loaded, when the build keeps it (``serve``).
    site: Site | None


def _make(root: Path, out_dir: Path, options: BuildOptions, cache: RenderCache,
          executor: Executor, *, keep_site: bool, early: Early | None = None) -> _Made:
    """load → render → write: every input read and checked, every page rendered (those
    of ``early`` first, written at once), the changed ones moved in, the cache saved."""
    store = open_with(root, options.umpire)  # the campaign as this view reads it, once
    site = load(store, options, cache, executor)  # every input read and checked
    unfinished = site.config.search and index_unfinished(out_dir)
    outputs, report = _render_and_write(site, out_dir, cache, executor, early)
    cache.save()
    return _Made(report, frozenset(outputs.changed), site.config.search,
                 tuple(outputs.searchable), unfinished, outputs.pages(), len(site.posts),
                 len(outputs), max((p.date for p in site.posts), default=None),
                 site.next_due, site if keep_site else None)


def _render_and_write(site: Site, out_dir: Path, cache: RenderCache, executor: Executor,
                      early: Early | None = None) -> tuple[Outputs, WriteReport]:
    """Every output file rendered into a staging folder, then the changed ones moved
    into ``out_dir`` and the stale ones removed; nothing changes there if any page
    fails."""
    staging = Staging(out_dir)
    cache.begin(out_dir)
    try:
        outputs = render(site, cache, executor, sink=staging, early=early)
        for path, data in outputs.files.items():
            outputs.rendered(path, changed=staging.put(path, data), searchable=False)
        if site.config.search:
            mark_unfinished(out_dir)  # until the index of the pages moved in is done
        # The search index is the one thing in the output the build does not write.
        try:
            report = staging.commit(outputs.paths, outputs.changed,
                                    keep=(SEARCH_DIR,) if site.config.search else ())
        except BaseException:
            cache.forget()  # what is on disk now is known to no record
            raise
        cache.written(out_dir)  # the pages on disk are what the next build compares with
    except BaseException:
        staging.abort()  # nothing half-written: the output stays as it was
        raise
    return outputs, report


def reused(last: LastBuild, started: float) -> BuildReport:
    """The report of a build that found nothing to do."""
    return BuildReport(0, 0, 0, WriteReport(0, 0, 0), time.perf_counter() - started,
                       reused=last)


class _Direct:
    """A sink that writes each file straight into the output folder, atomically."""

    def __init__(self, out: Path) -> None:
        self.out = out

    def put(self, path: str, data: bytes) -> bool:
        target = self.out / path
        with suppress(OSError):
            if target.read_bytes() == data:
                return False
        write_file(target, data, durable=False)
        return True


def rebuild_post(site: Site, rel: str, out_dir: Path, options: BuildOptions,
                 cache: RenderCache | None = None) -> str | None:
    """Rewrite the page of the one edited post ``rel`` in ``out_dir``, ahead of a full build.

    ``site`` is what the last build loaded. The page is made exactly as a full build
    makes it, with the post read again and everything else as it was; the full build
    that must follow puts right whatever else the edit changed (listings, the feed,
    the neighbours' links, the rulebook). Returns the page's output path, or None
    when the edit cannot be shown alone: the post is new, gone, moved, unpublished or
    broken, or the page was already up to date (the full build will say).
    """
    index = next((i for i, p in enumerate(site.posts) if p.source == rel), None)
    if index is None or not (out_dir / site.posts[index].url_path).is_dir():
        return None
    try:
        post = load_post(site.root, rel, site.config.zone)
    except InputError:
        return None
    if post.url_path != site.posts[index].url_path or not post.published(
            options.now, drafts=options.drafts, future=options.future):
        return None
    site = dataclasses.replace(site, posts=(*site.posts[:index], post, *site.posts[index + 1:]))
    try:
        path, changed = render_one_post(site, index, _Direct(out_dir), cache)
    except (InputError, jinja2.TemplateError):
        return None
    return path if changed else None
