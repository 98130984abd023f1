"""Rendering pages: a template, the context every page shares, one output file each.

Pages are queued as they are described and rendered together by :meth:`flush`,
with the executor the build was given (one process, or every core).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

import jinja2

from ftpress.content import markdown
from ftpress.errors import InputError, Problem
from ftpress.render.outputs import Outputs, Sink
from ftpress.render.views import Memo, PageInfo, SiteView, Urls
from ftpress.speed.buildcache import RenderCache, code_version
from ftpress.speed.executor import SERIAL, Executor

#: A rendered page: (its bytes differ from the output's, it is searchable, its size), or
#: the template error that stopped it.
_Result = tuple[bool, bool, int] | Problem


#: In the plain ``repr`` of an object that shows only its address: a value a page's
#: digest cannot stand for (a new object may take a freed one's address), so a page
#: whose context holds one is always rendered...
_ADDRESS = " at 0x"
#: ...but for a function of a module (a ruleset's display rules: no lambda, no function
#: made inside another), which lives as long as the process and keeps its address.
_MODULE_FUNCTION = re.compile(r"<function [\w.]+ at 0x[0-9a-f]+>")


def _by_address(text: str) -> bool:
    """Does ``text`` hold the repr of an object known only by an address it may lose?"""
    return text.count(_ADDRESS) > len(_MODULE_FUNCTION.findall(text))


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
        # What a renderer before this one left pending was never written (its build failed).
        self.cache.pages_pending.clear()
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

    def load_templates(self, names: Sequence[str]) -> None:
        """Load ``names`` into the environment now (the templates most pages extend or
        import), so that workers the executor forks later inherit them compiled. One
        that is missing or does not compile is left alone: a page that uses it says."""
        for name in names:
            with suppress(jinja2.TemplateError):
                self.env.get_template(name)

    def flush(self, sink: Sink | None) -> None:
        """Render every queued page and hand it to ``sink`` (``None``: check, then drop).

        A worker gives the bytes to the sink itself, so pages never travel between
        processes or pile up in memory; template errors stop the build with their
        files and lines, all of them.
        """
        jobs, self._jobs = self._jobs, []
        keys = self._unchanged(jobs, sink)
        todo = [job for job in jobs if keys.get(job.path, "") is not None]
        rendered = dict(zip((job.path for job in todo),
                            self.executor.map(self._renderer(todo, sink), todo), strict=True))
        failures = self._take(jobs, rendered, keys)
        if failures:
            raise InputError(sorted(set(failures)))

    def _unchanged(self, jobs: list[_Job], sink: Sink | None) -> dict[str, str | None]:
        """With pages kept from the last build (``serve``'s cache): each job's digest of
        all it is rendered from (ftpress's code, the templates, the context every page
        shares, its own), or None for a page rendered from the same as last time whose
        file the output still holds: that one is not rendered again."""
        kept = self.cache.pages
        shared = f"{code_version()}\0{self.site!r}\0{self.urls!r}\0"
        if kept is None or sink is None or _by_address(shared):
            return {}
        h = hashlib.sha256(shared.encode())
        for name in sorted(self.env.list_templates()):
            source = self.env.loader.get_source(self.env, name)[0]  # type: ignore[union-attr]
            h.update(f"{name}\0{len(source)}\0{source}".encode())
        keys: dict[str, str | None] = {}
        for job in jobs:
            own = f"{job.template}\0{job.info!r}\0{job.context!r}"
            if _by_address(own):
                continue  # an object known only by its address: rendered every time
            page = h.copy()
            page.update(own.encode())
            key = page.hexdigest()
            known = kept.get(job.path)
            same = known is not None and known[0] == key and sink.holds(job.path, known[1])
            keys[job.path] = None if same else key
        return keys

    def _take(self, jobs: list[_Job], rendered: dict[str, _Result],
              keys: dict[str, str | None]) -> list[Problem]:
        """Note what became of ``jobs``, in their order: those ``rendered`` (whose digests,
        ``keys``, are kept once the build is written) and those left as they were; the
        template errors."""
        failures = [r for r in rendered.values() if isinstance(r, Problem)]
        if failures:
            return failures
        kept, pending = self.cache.pages, self.cache.pages_pending
        for job in jobs:
            result = rendered.get(job.path)
            if result is None:  # not rendered again: as the last build left it
                assert kept is not None
                _, _, searchable = kept[job.path]
                self.out.rendered(job.path, changed=False, searchable=searchable)
                continue
            assert not isinstance(result, Problem)
            changed, searchable, size = result
            self.out.rendered(job.path, changed=changed, searchable=searchable)
            key = keys.get(job.path)
            if key is not None:
                pending[job.path] = (key, size, searchable)
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
            return changed, b"data-pagefind-body" in data, len(data)

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
