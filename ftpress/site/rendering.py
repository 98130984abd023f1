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
from ftpress.render.outputs import Outputs, Sink
from ftpress.render.pages import Early, Renderer, template_problem
from ftpress.render.views import Urls
from ftpress.secrecy.visibility import PUBLIC_VIEW
from ftpress.site.loading import Site
from ftpress.site.schema_export import schema_files
from ftpress.speed.buildcache import RenderCache
from ftpress.speed.executor import SERIAL, Executor

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
    state = site.state
    if state is not None:  # a blog alone never imports what draws a campaign
        from ftpress.site import campaign_pages
    try:  # queue every page: the views are built here, the templates run at the flush
        lead = campaign_pages.lead(site, state, r) if state is not None else None
        views, problems = render_blog(blog, r, site.statics, lead)
        if problems:
            raise InputError(problems)
        if early is not None and sink is not None and not out.clashes:
            # The blog's pages shown in a browser, before the campaign's views are made.
            r.flush_early(early)
        ruleset = state.campaign.ruleset if state else None
        schemas = _schemas(r, site.config.base_url, ruleset)
        if state is not None:
            campaign_pages.queue(site, state, r, out, schemas)
    except jinja2.TemplateError as exc:  # raised while building views (rulebook blocks)
        raise InputError([template_problem(exc, site.root)]) from None
    if out.clashes:  # before rendering a page: two things want one path
        raise InputError(out.clashes)
    r.load_templates(SHARED_TEMPLATES)
    r.flush(sink, early)
    turned = _kept(cache, "turn entries", (state, site.turns, site.config, viewer, site.nets),
                   lambda: campaign_pages.entries(site, state, r) if state is not None else ())
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
