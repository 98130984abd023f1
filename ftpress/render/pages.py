"""Rendering pages: a template, the context every page shares, one output file each.

Pages are queued as they are described and rendered together by :meth:`flush`,
with the executor the build was given (one process, or every core).

A page is a pure function of its template (with every template it extends, includes
or imports), the context every page shares and its own context. The build cache
keeps what each page of the last build written into the same folder was made from
(``serve``'s cache lives from build to build): a page whose inputs are all equal to
those is already on disk as a render would make it, and is not rendered again. Equal
is the templates' own notion (``memo`` in a template relies on it too): the views
are frozen values, and a value the build makes anew on every build without saying
how it compares (an object of no value type) is never equal, so its page is redone.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import jinja2.meta

from ftpress.content import markdown
from ftpress.errors import InputError, Problem
from ftpress.render.outputs import Outputs, Sink
from ftpress.render.views import Memo, PageInfo, SiteView, Urls
from ftpress.speed.buildcache import RenderCache, code_version
from ftpress.speed.executor import SERIAL, Executor

#: A rendered page: (its bytes differ from the output's, it is searchable), or the
#: template error that stopped it.
_Result = tuple[bool, bool] | Problem


@dataclass(frozen=True, slots=True)
class _Made:
    """What a page of the last build was rendered from, and whether it is searchable."""

    template: str
    #: The digest of the sources of its template and of every one that one uses.
    sources: str
    site: SiteView
    info: PageInfo
    context: dict[str, object]
    searchable: bool


@dataclass(frozen=True, slots=True)
class _Produced:
    """What a part of the render queued and added last build, and what it was made from."""

    key: object
    jobs: tuple[_Job, ...]
    #: (path, bytes, origin) of each file it added.
    files: tuple[tuple[str, bytes, str], ...]


@dataclass(frozen=True, slots=True)
class Early:
    """Pages to render before all others (``serve``'s: those a browser shows), written
    at once into the output through ``sink`` (not staged), and who to tell which of
    them changed there (``serve`` reloads the browser then)."""

    paths: frozenset[str]
    sink: Sink
    shown: Callable[[frozenset[str]], None]


@dataclass(frozen=True, slots=True)
class _Job:
    path: str
    template: str
    origin: str
    info: PageInfo
    context: dict[str, object]


class Renderer:
    """Queues pages with the context every page shares; :meth:`flush` renders them."""

    def __init__(self, env: jinja2.Environment, site: SiteView, urls: Urls, out: Outputs, *,
                 root: Path | None = None, executor: Executor = SERIAL,
                 cache: RenderCache | None = None) -> None:
        self.env, self.site, self.urls, self.out = env, site, urls, out
        self.root, self.executor = root, executor
        self.cache = cache if cache is not None else RenderCache(None)
        self._jobs: list[_Job] = []
        # Templates' memo(macro, ...): markup made once per build (one cache per worker).
        env.globals["memo"] = Memo()

    def markdown(self, items: Sequence[tuple[str, markdown.Resolver | None]]) -> list[
            markdown.Rendered]:
        """Render many Markdown texts, each with its citation resolver.

        Texts rendered before (by an earlier build, or earlier in this one) come
        from the cache; the rest are rendered by the executor.
        """
        base = self.urls.base_path
        keys = [markdown.cache_key(text, base, cite) for text, cite in items]
        cached = self.cache.get_many(keys)
        todo = [i for i, key in enumerate(keys) if key not in cached]
        fresh = self.executor.map(lambda i: markdown.render(items[i][0], base, items[i][1]), todo)
        for index, rendered in zip(todo, fresh, strict=True):
            cached[keys[index]] = markdown.as_tuple(rendered)
            self.cache.put(keys[index], cached[keys[index]])
        return [markdown.from_tuple(cached[key]) for key in keys]

    def page(self, path: str, template: str, origin: str, *, title: str, description: str,
             section: str = "", noindex: bool = False, **context: object) -> None:
        full_title = title if title == self.site.title else f"{title} · {self.site.title}"
        info = PageInfo(full_title, description or self.site.description, self.urls.page(path),
                        self.urls.absolute(path), section, noindex)
        claimed = self.out.claim(path, origin)
        if claimed is None:
            return  # a clash, reported with the rest
        self._jobs.append(_Job(claimed, template, origin, info, context))
        if not noindex:
            self.out.listed.append(claimed)

    def memo_many(self, keys: Sequence[str], make: Callable[[int], str]) -> list[str]:
        """``make(i)`` for each key, from the cache where an earlier build made it.

        Each key must name everything ``make(i)`` depends on; misses are made by the
        executor.
        """
        version = code_version()
        hashed = [hashlib.sha256(f"{version}\0{k}".encode()).hexdigest() for k in keys]
        found = self.cache.get_many(hashed)
        todo = [i for i, key in enumerate(hashed) if key not in found]
        for i, value in zip(todo, self.executor.map(lambda i: str(make(i)), todo), strict=True):
            found[hashed[i]] = (value,)
            self.cache.put(hashed[i], found[hashed[i]])
        return [found[key][0] for key in hashed]

    def reuse(self, name: str, key: object, produce: Callable[[], None]) -> None:
        """``produce()``, a part of the render that queues pages and adds files; or, with
        a tracking cache (``serve``'s) whose last written build ran it with an equal
        ``key`` (everything it reads but the templates, which each page's record
        counts), the same pages queued and the same files added again without it."""
        if not self.cache.track:
            produce()
            return
        last = self.cache.pages.get(("part", name))
        if isinstance(last, _Produced) and last.key == key:
            for job in last.jobs:
                if self.out.claim(job.path, job.origin) is not None:
                    self._jobs.append(job)
                    if not job.info.noindex:
                        self.out.listed.append(job.path)
            for path, data, origin in last.files:
                self.out.add(path, data, origin)
            self.cache.staged[("part", name)] = last
            return
        jobs, files = len(self._jobs), len(self.out.files)
        produce()
        added = list(self.out.files)[files:]
        self.cache.staged[("part", name)] = _Produced(
            key, tuple(self._jobs[jobs:]),
            tuple((p, self.out.files[p], self.out.origin(p)) for p in added))

    def kept(self, name: str, key: object, templates: Sequence[str]) -> dict[Any, Any]:
        """A memo for a part of the render: with a tracking cache (``serve``'s), the one the
        last build filled under ``name`` if ``key`` and the sources of ``templates`` (with
        every one they use) are as they were then; else a new, empty one."""
        sources = self._sources(templates) if self.cache.track else {}
        if any(t not in sources for t in templates):
            return {}  # (one missing, not parsing or naming others by a variable: not kept)
        return self.cache.reuse(f"memo {name}", (key, tuple(sources[t] for t in templates)),
                                dict)

    def load_templates(self, names: Sequence[str]) -> None:
        """Load ``names`` into the environment now (the templates most pages extend or
        import), so that workers the executor forks later inherit them compiled. One
        that is missing or does not compile is left alone: a page that uses it says."""
        for name in names:
            with suppress(jinja2.TemplateError):
                self.env.get_template(name)

    def flush(self, sink: Sink | None, early: Early | None = None) -> None:
        """Render every queued page and hand it to ``sink`` (``None``: check, then drop).

        A worker gives the bytes to the sink itself, so pages never travel between
        processes or pile up in memory; template errors stop the build with their
        files and lines, all of them. A page made from inputs equal to those of the
        last build's page at its path is not rendered (see the module's note).
        ``early``: the pages among them to render first and write at once (see
        :meth:`_early`).
        """
        jobs, self._jobs = self._jobs, []
        # What each page was made from matters only to a cache that compares pages
        # (``serve``'s): a single build does not parse every template a second time.
        sources = self._sources(dict.fromkeys(j.template for j in jobs)) \
            if self.cache.track else {}
        todo, kept = self._unchanged(jobs, sources, tracked=sink is not None)
        if early is not None and sink is not None:
            todo = self._early(todo, early, sources)
        failures = self._take(todo, self.executor.map(self._renderer(todo, sink), todo),
                              sources)
        if failures:
            raise InputError(sorted(set(failures)))
        for job, made in kept:
            self.out.rendered(job.path, changed=False, searchable=made.searchable)
            self.cache.staged[job.path] = made  # (only a tracking cache has any kept)

    def flush_early(self, early: Early) -> None:
        """Render and write the pages queued so far at ``early.paths`` whose inputs
        changed (:meth:`_early`), before the rest of the site is even queued; they leave
        the queue. (A page of the campaign's, queued later, is done by :meth:`flush`.)"""
        wanted = [j for j in self._jobs if j.path in early.paths]
        if not wanted:
            return
        sources = self._sources(dict.fromkeys(j.template for j in wanted))
        todo, _ = self._unchanged(wanted, sources, tracked=True)
        left = {j.path for j in self._early(todo, early, sources)}
        done = {j.path for j in todo} - left
        self._jobs = [j for j in self._jobs if j.path not in done]

    def _unchanged(self, jobs: list[_Job], sources: dict[str, str], *, tracked: bool
                   ) -> tuple[list[_Job], list[tuple[_Job, _Made]]]:
        """The ``jobs`` to render, and those made from inputs equal to those of the last
        build's page at their path (``tracked``: the render has a sink, and the cache
        tracks pages), with that page's record."""
        last = self.cache.pages if tracked and self.cache.track else {}
        todo: list[_Job] = []
        kept: list[tuple[_Job, _Made]] = []
        out = self.cache.pages_out
        for job in jobs:
            made = last.get(job.path)
            if made is not None and made.template == job.template and \
                    made.sources == sources.get(job.template) and made.site == self.site \
                    and made.info == job.info and made.context == job.context \
                    and os.path.isfile(f"{out}/{job.path}"):  # noqa: PTH113 - thousands
                # (a page taken out of the output by hand is written again)
                kept.append((job, made))
            else:
                todo.append(job)
        return todo, kept

    def _early(self, todo: list[_Job], early: Early, sources: dict[str, str]) -> list[_Job]:
        """Render the jobs of ``todo`` at ``early.paths`` now, in this process, and, if
        every one of them renders, write them through ``early.sink`` and tell
        ``early.shown`` which changed; the jobs left to render. One that fails is left
        in ``todo``, and the whole render reports it with the rest."""
        now = [j for j in todo if j.path in early.paths]
        if not now:
            return todo
        held: dict[str, bytes] = {}

        class Held:
            def put(self, path: str, data: bytes) -> bool:
                held[path] = data
                return True

        render = self._renderer(now, Held())
        results = [render(job) for job in now]
        done = [r for r in results if not isinstance(r, Problem)]
        if len(done) < len(now):
            return todo
        changed = {path for path, data in held.items() if early.sink.put(path, data)}
        for job in now:
            # What the last build recorded of these pages no longer says what is on
            # disk, whatever becomes of this build.
            self.cache.pages.pop(job.path, None)
        self._take(now, [(job.path in changed, searchable)
                         for job, (_, searchable) in zip(now, done, strict=True)], sources)
        early.shown(frozenset(changed))
        return [j for j in todo if j.path not in early.paths]

    def _sources(self, names: Iterable[str]) -> dict[str, str]:
        """Each template's digest: its source and those of every template it extends,
        includes or imports, by name (none for one that is missing or does not parse:
        its pages are rendered, and say what is wrong)."""
        found: dict[str, str] = {}
        for name in names:
            h = hashlib.sha256()
            seen: set[str] = set()
            todo = [name]
            while todo:
                used = todo.pop()
                if used in seen:
                    continue
                seen.add(used)
                parsed = self._parse(used)
                if parsed is None:
                    break
                digest, refs = parsed
                h.update(f"{used}\0{digest}\n".encode())
                todo.extend(sorted(refs))
            else:
                found[name] = h.hexdigest()
        return found

    def _parse(self, name: str) -> tuple[str, frozenset[str]] | None:
        """A template's source digest and the names it uses, or None if it is missing,
        does not parse, or names one by a variable (then any template may count)."""
        loader = self.env.loader
        try:
            assert loader is not None
            source = loader.get_source(self.env, name)[0]
        except jinja2.TemplateError:
            return None
        digest = hashlib.sha256(source.encode()).hexdigest()

        def uses() -> frozenset[str] | None:
            try:
                refs = list(jinja2.meta.find_referenced_templates(self.env.parse(source)))
            except jinja2.TemplateError:
                return None
            return None if None in refs else frozenset(r for r in refs if r is not None)

        refs = self.cache.reuse(f"template {name}", digest, uses)
        return None if refs is None else (digest, refs)

    def _take(self, jobs: list[_Job], results: list[_Result], sources: dict[str, str]
              ) -> list[Problem]:
        """Note what became of rendered ``jobs``, and what each was made from; their
        template errors."""
        failures = [r for r in results if isinstance(r, Problem)]
        if not failures:
            done = [r for r in results if not isinstance(r, Problem)]
            for job, (changed, searchable) in zip(jobs, done, strict=True):
                self.out.rendered(job.path, changed=changed, searchable=searchable)
                if self.cache.track and job.template in sources:
                    self.cache.staged[job.path] = _Made(
                        job.template, sources[job.template], self.site, job.info,
                        job.context, searchable)
        return failures

    def _renderer(self, jobs: list[_Job], sink: Sink | None) -> Callable[[_Job], _Result]:
        """What renders a job into ``sink``: (changed, searchable), or its problem."""
        # Each template looked up once, before any worker forks: a lookup checks the
        # template's file on disk, and thousands of pages share a dozen templates.
        templates: dict[str, jinja2.Template | jinja2.TemplateError] = {}
        for name in dict.fromkeys(j.template for j in jobs):
            try:
                templates[name] = self.env.get_template(name)
            except jinja2.TemplateError as exc:
                templates[name] = exc

        def render(job: _Job) -> _Result:
            try:
                template = templates[job.template]
                if isinstance(template, jinja2.TemplateError):
                    raise template
                html = template.render(site=self.site, page=job.info, **job.context)
            except jinja2.TemplateError as exc:  # carried back as data from a worker
                return template_problem(exc, self.root)
            data = html.encode("utf-8")
            changed = sink.put(job.path, data) if sink is not None else False
            return changed, b"data-pagefind-body" in data

        return render


def template_problem(exc: jinja2.TemplateError, root: Path | None) -> Problem:
    """Point a template error at the theme file and line that caused it."""
    filename = getattr(exc, "filename", None)
    line = getattr(exc, "lineno", None) or 0
    if filename is None:
        # Runtime errors (an undefined name) carry the template in the traceback.
        tb = exc.__traceback__
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_filename.endswith((".html", ".xml", ".svg", ".txt")):
                filename, line = code.co_filename, tb.tb_lineno
            tb = tb.tb_next
    name = str(filename or "template")
    if root is not None:
        resolved = Path(name).resolve()
        if resolved.is_relative_to(root.resolve()):  # built-in templates stay absolute
            name = resolved.relative_to(root.resolve()).as_posix()
    return Problem(name, line, 0, f"template error: {exc.message or exc}")
