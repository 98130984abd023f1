"""The render stage: every output file of a loaded :class:`~ftpress.site.loading.Site`,
made from the loaded values alone (no file is read here), into a sink.

``serve`` also uses :func:`render_one_post` to show an edited post before the
full build.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import TypeVar

import jinja2

from ftpress import rules
from ftpress.errors import InputError
from ftpress.render import feeds, theme
from ftpress.render.blog import Blog, render_blog, render_post, site_view
from ftpress.render.campaign import render_campaign
from ftpress.render.order_guide import render_order_guide
from ftpress.render.outputs import Outputs, Sink
from ftpress.render.pages import Early, Renderer, template_problem
from ftpress.render.rulebook import citable
from ftpress.render.turnfeed import turn_entries
from ftpress.render.turns import headline, render_turns
from ftpress.render.views import Urls
from ftpress.render.yourview import render_your_view
from ftpress.secrecy.visibility import PUBLIC_VIEW
from ftpress.site.loading import Site
from ftpress.site.schema_export import schema_files
from ftpress.speed.buildcache import RenderCache
from ftpress.speed.executor import SERIAL, Executor
from ftpress.state.model import State
from ftpress.state.report_spec import ReportSpec
from ftpress.store.campaign import display_of, order_forms

T = TypeVar("T")

#: The templates that most pages extend or import, the blog's and the campaign's.
SHARED_TEMPLATES = ("base.html", "_macros.html", "_changes.html", "_power.html")


def render(site: Site, cache: RenderCache | None = None, executor: Executor = SERIAL, *,
           sink: Sink | None = None, early: Early | None = None) -> Outputs:
    """Render every output file of the site: the pages into ``sink`` (``None``: render,
    check, drop), the few other files (feed, sitemap, theme files) into the returned
    outputs' ``files``. The outputs also say what changed and what is searchable.
    ``early``: pages rendered before the others and written at once (``serve``'s, the
    pages a browser shows). Raises :class:`InputError` with every template error and
    path clash at once.
    """
    out = Outputs()
    blog = _blog(site)
    r = _renderer(site, blog, out, executor, cache)
    viewer = site.view  # the state and the turns are as this viewer knows them
    try:  # queue every page: the views are built here, the templates run at the flush
        lead = (headline(site.turns, r.urls, report=_report(site.state), viewer=viewer,
                         nets=site.nets) if site.state is not None else None)
        views, problems = render_blog(blog, r, site.statics, lead)
        if problems:
            raise InputError(problems)
        if early is not None and sink is not None and not out.clashes:
            # The blog's pages shown in a browser, before the campaign's views are made.
            r.flush_early(early)
        ruleset = site.state.campaign.ruleset if site.state else None
        schemas = _schemas(r, site.config.base_url, ruleset)
        if site.state is not None:
            # How to send orders, from the order schema and the rulebook.
            render_order_guide(r, schemas, site.rulebook, site.state, site.order_suffix)
            display = display_of(site.state)  # how the campaign's ruleset shows its state
            # The order forms: every one for the umpire, a player's own for that player.
            forms = order_forms(site.state) if viewer.umpire or viewer.player else {}
            state = site.state
            # Each read only the campaign, as the viewer knows it, and the site's settings
            # (the turn reports also where each rule cited points): with the campaign's
            # files unchanged, serve queues their pages again without making their views.
            r.reuse("campaign", (state, viewer, forms, site.config), lambda: render_campaign(
                r, state, display, viewer=viewer,
                forms={p: f for p, f in forms.items() if viewer.umpire or p == viewer.player}))
            r.reuse("turns", (state, site.turns, site.nets, viewer, site.config,
                              citable(site.rulebook)),
                    lambda: render_turns(r, state, site.turns, site.rulebook, display,
                                         report=_report(state), viewer=viewer, nets=site.nets))
            if site.yours is not None:  # a player's report: theirs, or sealed to each
                render_your_view(r, out, site.state, site.yours)
    except jinja2.TemplateError as exc:  # raised while building views (rulebook blocks)
        raise InputError([template_problem(exc, site.root)]) from None
    if out.clashes:  # before rendering a page: two things want one path
        raise InputError(out.clashes)
    r.load_templates(SHARED_TEMPLATES)
    r.flush(sink, early)
    turned = _kept(cache, "turn entries", (site.state, site.turns, site.config, viewer, site.nets),
                   lambda: turn_entries(site.turns, r.urls, report=_report(site.state),
                                        zone=site.config.zone, viewer=viewer, nets=site.nets)
                   if site.state is not None else ())
    # Keyed on what the feeds read of the posts, not their whole views: a rule edited
    # changes the rulings' change lists, which no feed shows.
    entries = tuple(feeds.post_entry(v) for v in views)
    made = _kept(cache, "feeds", (site.config, entries, turned),
                 lambda: feeds.atom_feeds(site.config, entries, turned))
    for path, feed in made.items():
        out.add(path, feed, "feed")
    for asset in site.assets:
        out.add(asset.path, asset.data, asset.source)
    modified = {v.path + "index.html": v.updated for v in views}
    out.add("sitemap.xml", feeds.sitemap(site.config, out.listed, modified), "sitemap")
    out.add("robots.txt", feeds.robots(site.config, umpire=site.view != PUBLIC_VIEW),
            "robots")
    for path, data in schemas.items():
        out.add(path, data, "schemas")
    if out.clashes:
        raise InputError(out.clashes)
    return out


def render_one_post(site: Site, index: int, sink: Sink, cache: RenderCache | None = None
                    ) -> tuple[str, bool]:
    """Render the page of ``site.posts[index]`` alone into ``sink``, exactly as
    :func:`render` makes it; its output path, and whether its bytes changed.
    Raises :class:`InputError` or :class:`jinja2.TemplateError` if it cannot be made."""
    blog = _blog(site)
    out = Outputs()
    r = _renderer(site, blog, out, SERIAL, cache)
    path = render_post(blog, r, index)
    r.flush(sink)
    return path, path in out.changed


def _kept(cache: RenderCache | None, name: str, key: object, make: Callable[[], T]) -> T:
    """``make()``, or, in ``serve`` (a tracking cache), what it made last build if
    ``key``, everything it reads, is equal to that build's."""
    if cache is None or not cache.track:
        return make()
    return cache.reuse(name, key, make)


def _schemas(r: Renderer, base_url: str | None, ruleset: str | None) -> dict[str, bytes]:
    """The schema files (:func:`schema_files`), kept in the build cache: they depend only
    on ftpress's code, the base URL and the campaign's ruleset, so a rebuild (``serve``,
    the publishing run with its cache restored) neither imports every ruleset nor has
    pydantic make twenty schemas again. A ruleset registered at run time rather than
    shipped is outside the code's digest: its schemas are made afresh every time."""
    if set(rules.RULESETS) != set(rules.SHIPPED):
        return schema_files(base_url, ruleset)
    (kept,) = r.memo_many([f"schemas {base_url!r} {ruleset!r}"], lambda _: json.dumps(
        {path: data.decode() for path, data in schema_files(base_url, ruleset).items()}))
    return {path: text.encode() for path, text in json.loads(kept).items()}


def _report(state: State) -> ReportSpec:
    """How the campaign's ruleset files and reads its events in a turn report."""
    return rules.find_ruleset(state.campaign.ruleset).report


def _blog(site: Site) -> Blog:
    return Blog(site.config, site.posts, site.pages, site.rulebook, site.state is not None)


def _renderer(site: Site, blog: Blog, out: Outputs, executor: Executor,
              cache: RenderCache | None) -> Renderer:
    """The renderer, with the context every page shares, for a whole build or one post."""
    urls = Urls(site.config)
    player = site.state.player(site.view.player) if site.state is not None and \
        site.view.player is not None else None
    shared = dataclasses.replace(site_view(blog, urls, site.statics),
                                 umpire=site.view.umpire, open_turn=site.open_turn,
                                 player_view=f"{player.name} ({player.id})" if player else None)
    env = theme.environment(site.theme_dirs, cache.templates if cache is not None else None)
    return Renderer(env, shared, urls, out, root=site.root, executor=executor, cache=cache)
