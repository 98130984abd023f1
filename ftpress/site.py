"""The build, as a table of contents: load (read and check everything), then
render (every page, into a staging folder), then write (only what changed).

``load`` raises :class:`~ftpress.errors.InputError` with every problem found;
nothing is written unless the whole site has loaded and rendered. The search
index is made beside the rest: Pagefind starts on the searchable pages as soon
as they are rendered, while the others render and the output is written.
``serve`` also uses :func:`rebuild_post` to show an edited post before all that.
"""

from __future__ import annotations

import ctypes
import dataclasses
import gc
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import jinja2

from ftpress import markdown, rules
from ftpress.buildcache import (
    CACHE_DIR,
    Fingerprint,
    LastBuild,
    RenderCache,
    remember,
    reusable,
)
from ftpress.campaign import display_of, load_states, order_forms
from ftpress.config import SiteConfig, load_config
from ftpress.content.assets import Asset, load_assets
from ftpress.content.pages import Page, load_pages, reserved_clash
from ftpress.content.posts import Post, load_post, load_posts
from ftpress.content.rulebook import (
    RULES_DIR,
    Rulebook,
    RuleFile,
    Ruling,
    amendments_of,
    fold,
    load_rule_files,
)
from ftpress.errors import InputError, Problem, Problems
from ftpress.parallel import Flag, beside, flag
from ftpress.recorded_kinds import kind_problems
from ftpress.render import feeds, theme
from ftpress.render.blog import RESERVED, Blog, render_blog, render_post, site_view
from ftpress.render.campaign import render_campaign
from ftpress.render.openturn import OpenTurnView, open_turn
from ftpress.render.order_guide import render_order_guide
from ftpress.render.outputs import Outputs, Sink
from ftpress.render.pages import Renderer, template_problem
from ftpress.render.rulebook import RulebookViews
from ftpress.render.turnfeed import turn_entries
from ftpress.render.turns import RecordedTurn, headline, load_turns, render_turns
from ftpress.render.views import Urls
from ftpress.report_spec import ReportSpec
from ftpress.schema_export import schema_files
from ftpress.search import (
    SEARCH_DIR,
    Indexing,
    index_site,
    index_unfinished,
    mark_finished,
    mark_unfinished,
)
from ftpress.state.load import Parsing, forget_parsed
from ftpress.state.model import State
from ftpress.write import Staging, WriteReport, check_out_dir, write_file


@dataclass(frozen=True, slots=True)
class BuildOptions:
    #: The build's one "now": posts dated after it are scheduled, not published.
    now: datetime
    drafts: bool = False
    future: bool = False
    #: Render on every core with forked workers (not from a process that runs threads).
    parallel: bool = False
    #: Reuse what the last build left in .ftpress-cache/: rendered Markdown, and the
    #: whole output when no input has changed.
    incremental: bool = False
    #: Whose eyes the site is for: the public (only what the rules make public), the
    #: umpire (every fact; written to its own folder, kept out of search engines), or a
    #: player's id (what the rules tell that player; :func:`player_of`).
    view: str = "public"


@dataclass(frozen=True, slots=True)
class Site:
    """A loaded, checked campaign site, ready to render."""

    root: Path
    config: SiteConfig
    posts: tuple[Post, ...]  # published under the build's options, oldest first
    pages: tuple[Page, ...]
    rulebook: Rulebook
    theme_dirs: tuple[Path, ...]
    #: The campaign's current state; None for a campaign that is a blog alone.
    state: State | None = None
    #: When the first scheduled (future-dated, not draft) post comes due, if any.
    next_due: datetime | None = None
    #: Every recorded turn (``state/turns/<turn-id>/``), oldest first.
    turns: tuple[RecordedTurn, ...] = ()
    view: str = "public"
    #: Files published as they are: beside the posts, and the campaign's ``static/``.
    assets: tuple[Asset, ...] = ()
    #: The open turn as the build's "now" finds it (front page and ``/turns/``).
    open_turn: OpenTurnView | None = None


@dataclass(frozen=True, slots=True)
class BuildReport:
    pages: int
    posts: int
    files: int
    write: WriteReport
    seconds: float
    #: The last build, when nothing had changed and nothing was rebuilt.
    reused: LastBuild | None = None
    #: The site as this build loaded it (``serve`` keeps it for :func:`rebuild_post`).
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


def reused(last: LastBuild, started: float) -> BuildReport:
    """The report of a build that found nothing to do."""
    return BuildReport(0, 0, 0, WriteReport(0, 0, 0), time.perf_counter() - started,
                       reused=last)


def load(root: Path, options: BuildOptions, cache: RenderCache | None = None, *,
         parsing: Parsing | None = None) -> Site:
    """Read and check the whole campaign; raise with every problem found.

    ``cache`` keeps the parsed state files between builds; ``parsing``: their parsing
    begun before ftpress was imported (:mod:`ftpress.state.early`).
    """
    config = load_config(root)  # everything below depends on it
    # The Markdown files are read beside the state: neither needs the other. Then,
    # until the state is loaded too, that worker renders the posts' Markdown ahead.
    loaded = flag(parallel=options.parallel)
    content = beside(lambda: _load_content(root, config, options, cache, loaded),
                     parallel=options.parallel)
    problems = Problems()
    state = None
    turns: tuple[RecordedTurn, ...] = ()
    snapshots: dict[str, State] = {}
    try:
        folders = load_states(root, cache, parallel=options.parallel, parsing=parsing)
        state = folders[0].state if folders else None
        snapshots = {f.folder: f.state for f in folders[1:]}
    except InputError as exc:
        problems.extend(exc.problems)
    if state is not None:
        try:
            # The snapshots are loaded and checked once, above; turns reuse them.
            turns = load_turns(root, snapshots, parallel=options.parallel)
            ruleset = rules.find_ruleset(state.campaign.ruleset)
            problems.extend(kind_problems(root, ((t.id, t.events) for t in turns),
                                          ruleset.report, ruleset.name))
        except InputError as exc:
            problems.extend(exc.problems)
    try:
        dirs = theme.theme_dirs(root, config.theme)
    except InputError as exc:
        problems.extend(exc.problems)
        dirs = ()
    loaded.set()
    posts, pages, rule_files, found, ahead = content()
    problems.extend(found)
    problems.raise_if_any()
    if cache is not None:
        for key, rendered in ahead.items():
            cache.put(key, rendered)
    published = _published(posts, options)
    chosen = {id(p) for p in published}  # by identity: comparing posts field by field is slow
    scheduled = [p.date for p in posts
                 if id(p) not in chosen and (options.drafts or not p.draft)]
    # Only published rulings amend the rulebook: a draft ruling changes nothing yet.
    return Site(root, config, published, pages, load_rulebook(rule_files, published), dirs,
                state, min(scheduled, default=None), turns, options.view,
                load_assets(root, published),
                open_turn(root, state, options.now) if state is not None else None)


def player_of(view: str) -> str | None:
    """The player whose view ``view`` is (``ftpress build --view <player>``), or None."""
    return None if view in ("public", "umpire") else view


def _report(state: State) -> ReportSpec:
    """How the campaign's ruleset files and reads its events in a turn report."""
    return rules.find_ruleset(state.campaign.ruleset).report


def _published(posts: tuple[Post, ...], options: BuildOptions) -> tuple[Post, ...]:
    return tuple(p for p in posts
                 if p.published(options.now, drafts=options.drafts, future=options.future))


#: The posts, pages and rule files of a campaign, every problem found in them, and
#: Markdown rendered ahead for the cache (cache key → cached value).
Content = tuple[tuple[Post, ...], tuple[Page, ...], tuple[RuleFile, ...], list[Problem],
                dict[str, tuple]]


def _load_content(root: Path, config: SiteConfig, options: BuildOptions,
                  cache: RenderCache | None, stop: Flag) -> Content:
    """Read the Markdown: posts, pages and rule files (see :data:`Content`); then
    render the posts' Markdown ahead until ``stop`` is raised."""
    problems: list[Problem] = []
    posts: tuple[Post, ...] = ()
    pages: tuple[Page, ...] = ()
    rule_files: tuple[RuleFile, ...] = ()
    try:
        posts = load_posts(root, config.zone)
    except InputError as exc:
        problems.extend(exc.problems)
    try:
        pages = load_pages(root)
    except InputError as exc:
        problems.extend(exc.problems)
    try:
        rule_files = load_rule_files(root / RULES_DIR, root)
    except InputError as exc:
        problems.extend(exc.problems)
    problems.extend([c for p in pages if (c := reserved_clash(p, RESERVED))])
    # Once the state is in, the build renders the Markdown itself: nothing to do ahead.
    ahead = {} if problems or cache is None or stop.is_set() else _render_ahead(
        config, _published(posts, options), rule_files, cache, stop)
    return posts, pages, rule_files, problems, ahead


def _render_ahead(config: SiteConfig, posts: tuple[Post, ...],
                  rule_files: tuple[RuleFile, ...], cache: RenderCache,
                  stop: Flag) -> dict[str, tuple]:
    """The Markdown of ``posts`` that ``cache`` lacks, rendered as the blog renders it
    (same text, base path and citations, so the same cache keys), until ``stop``."""
    try:
        rules = RulebookViews(load_rulebook(rule_files, posts), Urls(config), None, None)
    except InputError:
        return {}  # reported by the build itself
    items = {markdown.cache_key(p.body, config.base_path, cite): (p.body, cite)
             for p, cite in ((p, rules.resolver(p.date.date())) for p in posts)}
    found = cache.get_many(items)
    ahead: dict[str, tuple] = {}
    for key, (text, cite) in items.items():
        if stop.is_set():
            break
        if key not in found:
            ahead[key] = markdown.as_tuple(markdown.render(text, config.base_path, cite))
    return ahead


def load_rulebook(rule_files: tuple[RuleFile, ...], posts: tuple[Post, ...]) -> Rulebook:
    """Fold the rule files and the published posts' amendments into dated versions."""
    amendments = [a for p in posts if p.amends and p.effective is not None
                  for a in amendments_of(p.amends, p.effective,
                                         Ruling(p.slug, p.title, p.url_path, p.date.date()),
                                         p.source, p.amend_lines)]
    return fold(rule_files, amendments)


def _blog(site: Site) -> Blog:
    return Blog(site.config, site.posts, site.pages, site.rulebook, site.state is not None)


def _renderer(site: Site, blog: Blog, statics: tuple[theme.StaticFile, ...], out: Outputs, *,
              parallel: bool = False, cache: RenderCache | None = None) -> Renderer:
    """The renderer, with the context every page shares, for a whole build or one post."""
    urls = Urls(site.config)
    shared = dataclasses.replace(site_view(blog, urls, statics), umpire=site.view == "umpire",
                                 open_turn=site.open_turn)
    return Renderer(theme.environment(site.theme_dirs), shared, urls, out, root=site.root,
                    parallel=parallel, cache=cache)


#: The default theme's templates whose pages can be searchable. They are rendered
#: first, so that Pagefind can start on them while the other pages render; a page
#: of another template (a theme's own) that turns out searchable is not lost: the
#: index is then made again once every page is written.
SEARCHED_TEMPLATES = frozenset({"post.html", "page.html", "rulebook.html", "turn.html"})


#: The templates that most pages extend or import, the blog's and the campaign's.
SHARED_TEMPLATES = ("base.html", "_macros.html", "_changes.html", "_power.html")


def _searched(template: str, context: dict[str, object]) -> bool:
    """Is this page likely searchable? Of the rulebook, only the current version is."""
    return template in SEARCHED_TEMPLATES and context.get("is_current") is not False


def render(site: Site, *, parallel: bool = False, cache: RenderCache | None = None,
           sink: Sink | None = None,
           searchable: Callable[[Outputs], None] | None = None) -> Outputs:
    """Render every output file of the site into ``sink`` (``None``: render, check, drop).

    ``parallel`` spreads the work over the cores; the returned outputs say what
    was made, what changed and what the search index should read.
    ``searchable`` is called with the outputs so far once the pages that can be
    searchable are in ``sink`` (and the others are not yet).
    """
    out = Outputs()
    blog = _blog(site)
    statics = theme.static_files(site.theme_dirs)
    # Compiled here, these go to every worker forked from now on, not compiled in each.
    theme.precompile(site.theme_dirs, SHARED_TEMPLATES)
    # The campaign's pages need nothing of the blog's: a worker makes them meanwhile.
    campaign = _Campaign(site, blog, statics, cache, sink, parallel=parallel)

    def search_now() -> None:
        campaign.join(out)  # the turn reports are searchable too
        assert searchable is not None
        searchable(out)

    r = _renderer(site, blog, statics, out, parallel=parallel, cache=cache)
    # Without a search index to start first, the posts' pages need not wait for the
    # listings to be queued (Renderer.start).
    r.sink = None if searchable else sink
    urls, umpire, player = r.urls, site.view == "umpire", player_of(site.view)
    try:
        try:
            lead = (headline(site.turns, urls, report=_report(site.state), umpire=umpire,
                             player=player)
                    if site.state is not None else None)
            views, problems = render_blog(blog, r, statics, lead)
        except jinja2.TemplateError as exc:  # raised while building views (rulebook blocks)
            raise InputError([template_problem(exc, site.root)]) from None
        if problems:
            raise InputError(problems)
        if cache is not None:
            cache.store()  # the posts' Markdown, while the campaign's worker is busy
            _give_back_memory()  # what a build's own cache let go, before the pages fork
        schemas = schema_files(site.config.base_url,  # likewise
                               site.state.campaign.ruleset if site.state else None)
        if site.state is not None:  # how to send orders, from the order schema and rulebook
            render_order_guide(r, schemas, site.rulebook, site.state)
        if out.clashes:  # before rendering a page: two things want one path
            raise InputError(out.clashes)
        try:
            r.flush(sink, first=_searched if searchable else None,
                    between=search_now if searchable else None)
        except InputError as exc:  # every template error at once, the campaign's too
            raise InputError(sorted({*exc.problems, *campaign.failures()})) from None
        campaign.join(out)
        if campaign.failures():
            raise InputError(campaign.failures())
    finally:  # no worker is left running, whatever went wrong
        r.cancel()
        campaign.wait()
    turned = (turn_entries(site.turns, urls, report=_report(site.state), zone=site.config.zone,
                           umpire=umpire, player=player) if site.state is not None else ())
    for path, feed in feeds.atom_feeds(site.config, views, turned).items():
        out.add(path, feed, "feed")
    for asset in site.assets:
        out.add(asset.path, asset.data, asset.source)
    modified = {v.path + "index.html": v.updated for v in views}
    out.add("sitemap.xml", feeds.sitemap(site.config, out.listed, modified), "sitemap")
    out.add("robots.txt", feeds.robots(site.config, umpire=site.view != "public"), "robots")
    for path, data in schemas.items():
        out.add(path, data, "schemas")
    if out.clashes:
        raise InputError(out.clashes)
    return out


@dataclass(frozen=True, slots=True)
class _CampaignPart:
    """What :func:`_campaign_pages` made, sent back from its worker."""

    outputs: Outputs
    #: Problems that stopped it before any page was rendered.
    stopped: list[Problem]
    #: Template errors of its pages.
    failures: list[Problem]
    #: What it gave the render cache (maps, charts) and did not store, and asked it for.
    cached: tuple[dict[str, tuple], set[str]]


def _campaign_pages(site: Site, blog: Blog, statics: tuple[theme.StaticFile, ...],
                    cache: RenderCache | None, sink: Sink | None) -> _CampaignPart:
    """The campaign's pages (powers, systems, every turn report), rendered into ``sink``."""
    assert site.state is not None
    out = Outputs()
    mine = cache.forked() if cache is not None else None
    r = _renderer(site, blog, statics, out, cache=mine)
    umpire, player = site.view == "umpire", player_of(site.view)
    stopped: list[Problem] = []
    failures: list[Problem] = []
    try:
        display = display_of(site.state)  # how the campaign's ruleset shows its state
        # The order forms: every one for the umpire, a player's own for that player.
        forms = order_forms(site.state) if umpire or player else {}
        render_campaign(r, site.state, display, umpire=umpire, player=player,
                        forms=forms if umpire else {p: f for p, f in forms.items()
                                                    if p == player})
        render_turns(r, site.state, site.turns, site.rulebook, display, report=_report(site.state),
                     umpire=umpire, player=player)
    except jinja2.TemplateError as exc:  # raised while building views
        stopped.append(template_problem(exc, site.root))
    if not stopped and not out.clashes:
        try:
            r.flush(sink)
        except InputError as exc:
            failures = list(exc.problems)
        if sink is not None:  # its other files (maps, order files) are written here too
            for path, data in out.files.items():
                out.rendered(path, changed=sink.put(path, data), searchable=False)
            out.files.clear()
    if mine is None:
        return _CampaignPart(out, stopped, failures, ({}, set()))
    mine.store()  # its maps and charts, from here, while the blog's pages render
    return _CampaignPart(out, stopped, failures, mine.fresh())


class _Campaign:
    """The campaign's pages, made by a worker beside the blog's (:func:`beside`; in
    this process, when asked for, if the build is not parallel)."""

    def __init__(self, site: Site, blog: Blog, statics: tuple[theme.StaticFile, ...],
                 cache: RenderCache | None, sink: Sink | None, *, parallel: bool) -> None:
        self._cache = cache
        self._pending = beside(lambda: _campaign_pages(site, blog, statics, cache, sink),
                               parallel=parallel) if site.state is not None else None
        self._part: _CampaignPart | None = None
        self._joined = False

    def wait(self) -> _CampaignPart | None:
        if self._pending is not None:
            self._part, self._pending = self._pending(), None
        return self._part

    def failures(self) -> list[Problem]:
        """The template errors of its pages."""
        part = self.wait()
        return part.failures if part is not None else []

    def join(self, out: Outputs) -> None:
        """Take its pages into ``out`` (once), as if rendered there after the blog's;
        raise for what stopped it and for paths both claim."""
        part = self.wait()
        if part is None or self._joined:
            return
        self._joined = True
        if part.stopped:
            raise InputError(part.stopped)
        if self._cache is not None:
            self._cache.take(part.cached)
        out.absorb(part.outputs)
        if out.clashes:
            raise InputError(out.clashes)


def build(root: Path, out_dir: Path, options: BuildOptions,
          cache: RenderCache | None = None, fingerprint: Fingerprint | None = None, *,
          reindex: frozenset[str] = frozenset(), keep_site: bool = True,
          parsing: Parsing | None = None) -> BuildReport:
    """load → render → write. Raises :class:`InputError` before writing anything.

    ``cache`` keeps rendered Markdown between builds (``serve`` passes its own);
    with ``options.incremental`` it lives in ``.ftpress-cache/``, and a build
    whose inputs are all as they were last time reuses that build whole.
    ``fingerprint`` is the inputs' fingerprint when the caller already took it.
    ``reindex``: pages whose search index is redone even if this build does not
    change them (``serve`` rewrote an edited post's page itself, just before).
    ``keep_site``: the report carries the loaded site (``serve`` keeps it); without it,
    the build's memory is given back before waiting for the search index.
    ``parsing``: see :func:`load`.
    """
    started = time.perf_counter()
    check_out_dir(root, out_dir)
    if options.incremental and fingerprint is None:
        # Taken before reading anything: a file changed mid-build shows up next time.
        fingerprint, last = reusable(root, out_dir, drafts=options.drafts,
                                     future=options.future, now=options.now, view=options.view)
        if last is not None:
            return reused(last, started)
    if cache is None:  # this build's own: what it stores, it need not hold
        cache = RenderCache(root / CACHE_DIR if options.incremental else None, hold=False)
    site = load(root, options, cache, parsing=parsing)
    staging = Staging(out_dir)
    early: list[Indexing] = []
    # The last build moved pages in but did not finish their index: make it all again.
    unfinished = site.config.search and index_unfinished(out_dir)

    def start_search(outputs: Outputs) -> None:
        # The searchable pages are rendered (the rest are not yet): if one changed,
        # Pagefind starts on them now, beside the rest of the build.
        if reindex or outputs.changed or unfinished or not (out_dir / SEARCH_DIR).is_dir():
            early.append(Indexing({p: (staging.dir if p in outputs.changed else out_dir) / p
                                   for p in outputs.searchable}, out_dir,
                                  last=None if unfinished else out_dir / SEARCH_DIR,
                                  changed=outputs.changed | reindex))

    try:
        outputs = render(site, parallel=options.parallel, cache=cache, sink=staging,
                         searchable=start_search if site.config.search else None)
        for path, data in outputs.files.items():
            outputs.rendered(path, changed=staging.put(path, data), searchable=False)
        if early and early[0].pages != set(outputs.searchable):
            early.pop().cancel()  # a page rendered later is searchable too: index after
        if early:
            early[0].placed()  # Pagefind's links are made: the staged pages may move
        if site.config.search:
            mark_unfinished(out_dir)  # until the index of the pages moved in is done
        report = staging.commit(outputs.paths, outputs.changed,
                                keep=(SEARCH_DIR,) if site.config.search else ())
    except BaseException:
        for indexing in early:  # first: its work folder is in the output too
            indexing.cancel()
        staging.abort()  # nothing half-written: the output stays as it was
        raise
    cache.save()  # while Pagefind, if it runs, finishes
    counts = outputs.pages(), len(site.posts), len(outputs)
    changed = frozenset(outputs.changed)
    newest, next_due = max((p.date for p in site.posts), default=None), site.next_due
    search, searchable = site.config.search, outputs.searchable
    kept = site if keep_site else None
    if early:
        # Nothing of the build is needed any more, and Pagefind is about to take both
        # cores and much memory: what the build held goes back to the system first.
        if not keep_site:
            del site, outputs, cache
            forget_parsed()
            gc.collect()
        _give_back_memory()
        early[0].widen()
        early[0].finish(out_dir)
    # Otherwise re-index only when a page changed (or serve rewrote one itself).
    elif search and (reindex or report.written or report.removed or unfinished
                     or not (out_dir / SEARCH_DIR).is_dir()):
        index_site(out_dir, searchable, None if unfinished else changed | reindex)
    if search:
        mark_finished(out_dir)
    result = BuildReport(*counts, report, time.perf_counter() - started, site=kept,
                         changed=changed)
    if options.incremental and fingerprint is not None:
        remember(root, out_dir, fingerprint, summary=result.summary(out_dir),
                 newest=newest, next_due=next_due)
    return result


def _give_back_memory() -> None:
    """Return the heap that rendering freed to the system (glibc keeps it otherwise:
    76 MB of a 5,000-post build), so that the Pagefind runs that follow find it."""
    with suppress(OSError, AttributeError):  # not glibc: nothing to give back this way
        ctypes.CDLL(None).malloc_trim(0)  # the C library this process already runs on


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
    blog = _blog(site)
    out = Outputs()
    r = _renderer(site, blog, theme.static_files(site.theme_dirs), out, cache=cache)
    try:
        path = render_post(blog, r, index)
        r.flush(_Direct(out_dir))
    except (InputError, jinja2.TemplateError):
        return None
    return path if path in out.changed else None
