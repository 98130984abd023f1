"""The load stage: every input of the site read and checked into a :class:`Site`
(configuration, posts, pages, rule files, the campaign's state, its recorded turns,
the theme's folders), or :class:`~ftpress.errors.InputError` with every problem found.

Nothing after this stage reads an input file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TypeVar
from zoneinfo import ZoneInfo

from ftpress import rules
from ftpress.content.assets import STATIC_DIR, Asset, load_assets
from ftpress.content.pages import PAGES_DIR, Page, load_pages, reserved_clash
from ftpress.content.posts import POSTS_DIR, Post, load_post, load_posts
from ftpress.content.rulebook import (
    RULES_DIR,
    Amendment,
    Rulebook,
    RuleFile,
    Ruling,
    amendments_of,
    fold,
    load_rule_files,
)
from ftpress.errors import InputError, Problems
from ftpress.files.config import SiteConfig, load_config
from ftpress.render import theme
from ftpress.render.blog import RESERVED
from ftpress.render.openturn import OpenTurnView, open_turn
from ftpress.secrecy.twins import UmpireKey
from ftpress.secrecy.viewing import from_intelligence, known, viewer_named
from ftpress.secrecy.visibility import PUBLIC_VIEW, HiddenFacts, Viewer
from ftpress.site.yours import your_view
from ftpress.speed.buildcache import RenderCache, stamp
from ftpress.speed.executor import SERIAL, Executor
from ftpress.state.model import State
from ftpress.state.recorded_kinds import kind_problems
from ftpress.state.records import RecordedTurn
from ftpress.state.turns import turn_id
from ftpress.store import CampaignStore
from ftpress.yourview.view import YourView

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class BuildOptions:
    #: The build's one "now": posts dated after it are scheduled, not published.
    now: datetime
    drafts: bool = False
    future: bool = False
    #: Reuse what the last build left in .ftpress-cache/: rendered Markdown, and the
    #: whole output when no input has changed.
    incremental: bool = False
    #: Whose eyes the site is for: the public (only what the rules make public), the
    #: umpire (every fact; written to its own folder, kept out of search engines), or a
    #: player's id (what the rules tell that player; :func:`~.viewing.viewer_named`).
    view: str = "public"
    #: A player's view: the file holding their key (``--identity``), which opens their
    #: sealed intelligence when the state files hold only what the public knows.
    identity: Path | None = None
    #: The umpire's view of a sealed campaign: the umpire's key, with which the build
    #: opens the campaign's store (:func:`ftpress.store.open_with`), so that the state and
    #: records are read from their sealed twins (:mod:`ftpress.secrecy.twins`); without
    #: it, the plain files, which hold what every player may know.
    umpire: UmpireKey | None = None


@dataclass(frozen=True, slots=True)
class Site:
    """A loaded, checked campaign site, ready to render."""

    root: Path
    config: SiteConfig
    posts: tuple[Post, ...]  # published under the build's options, oldest first
    pages: tuple[Page, ...]
    rulebook: Rulebook
    theme_dirs: tuple[Path, ...]
    #: The theme's static files, read (the campaign's own over the built-in ones).
    statics: tuple[theme.StaticFile, ...] = ()
    #: The campaign's current state as the site's viewer knows it
    #: (:mod:`ftpress.secrecy.viewing`); None for a campaign that is a blog alone.
    state: State | None = None
    #: When the first scheduled (future-dated, not draft) post comes due, if any.
    next_due: datetime | None = None
    #: Every recorded turn (``state/turns/<turn-id>/``), oldest first, its state as the
    #: site's viewer knows it.
    turns: tuple[RecordedTurn, ...] = ()
    #: Whose site it is.
    view: Viewer = PUBLIC_VIEW
    #: Files published as they are: beside the posts, and the campaign's ``static/``.
    assets: tuple[Asset, ...] = ()
    #: The open turn as the build's "now" finds it (front page and ``/turns/``).
    open_turn: OpenTurnView | None = None
    #: Each turn's last safety net for the viewer (:mod:`ftpress.secrecy.viewing`).
    nets: tuple[HiddenFacts | None, ...] = ()
    #: The "Your view" page's inputs (a sealed campaign's public site or a player's).
    yours: YourView | None = None
    #: How the name of the order file a player sends ends, as the campaign's store says
    #: (``.yaml``, or a sealed campaign's ``.yaml.age``): for the order guide.
    order_suffix: str = ".yaml"


def load(store: CampaignStore, options: BuildOptions, cache: RenderCache | None = None,
         executor: Executor = SERIAL) -> Site:
    """Read and check the whole campaign; raise with every problem found. Its state and
    records are read through ``store``, as its reader may read them (with the umpire's
    key, or the plain files everyone reads).

    ``cache`` keeps the parsed state files between builds, and, for ``serve``, each
    part of the last load with the files it was read from (:func:`_part`): a part
    whose files are as they were is not read again. ``executor`` parses the state
    files, reads the turns' event logs and, in a single build, the posts.
    """
    root = store.root
    config = load_config(root)  # everything below depends on it
    problems = Problems()
    state = None
    turns: tuple[RecordedTurn, ...] = ()
    nets: tuple[HiddenFacts | None, ...] = ()
    try:
        state, turns, nets = _part(root, cache, "campaign", CAMPAIGN_INPUTS,
                                   (options.view, store.key, _stat(options.identity)),
                                   lambda: _campaign(store, options, cache, executor))
    except InputError as exc:
        problems.extend(exc.problems)
    try:
        dirs = theme.theme_dirs(root, config.theme)
    except InputError as exc:
        problems.extend(exc.problems)
        dirs = ()
    statics = _part(root, cache, "statics", ("themes",), dirs, lambda: theme.static_files(dirs))
    posts: tuple[Post, ...] = ()
    pages: tuple[Page, ...] = ()
    rule_files: tuple[RuleFile, ...] = ()
    try:
        posts = _part(root, cache, "posts", (POSTS_DIR,), config.zone,
                      lambda: load_posts(root, config.zone, _each_post(root, cache), executor))
    except InputError as exc:
        problems.extend(exc.problems)
    try:
        pages = _part(root, cache, "pages", (PAGES_DIR,), None, lambda: load_pages(root))
    except InputError as exc:
        problems.extend(exc.problems)
    try:
        rule_files = _part(root, cache, "rules", (RULES_DIR,), None,
                           lambda: load_rule_files(root / RULES_DIR, root))
    except InputError as exc:
        problems.extend(exc.problems)
    problems.extend([c for p in pages if (c := reserved_clash(p, RESERVED))])
    problems.raise_if_any()
    viewer = viewer_named(options.view)
    published = _published(posts, options)
    chosen = {id(p) for p in published}  # by identity: comparing posts field by field is slow
    scheduled = [p.date for p in posts
                 if id(p) not in chosen and (options.drafts or not p.draft)]
    # Only published rulings amend the rulebook: a draft ruling changes nothing yet.
    amending = tuple(p for p in published if p.amends and p.effective is not None)
    rulebook = _part(root, cache, "rulebook", (), (rule_files, amending),
                     lambda: load_rulebook(rule_files, amending))
    assets = _part(root, cache, "assets", (POSTS_DIR, STATIC_DIR), published,
                   lambda: load_assets(root, published))
    return Site(root, config, published, pages, rulebook, dirs,
                statics, state, min(scheduled, default=None), turns, viewer, assets,
                _open_turn(store, state, options.now) if state is not None else None, nets,
                your_view(store, state, turns, viewer, config.base_url)
                if state is not None else None, store.order_suffix)


#: The folders the campaign's state, its turns and what the viewer knows are read from.
CAMPAIGN_INPUTS = ("state", "orders")


def _part(root: Path, cache: RenderCache | None, name: str, inputs: tuple[str, ...],
          options: object, make: Callable[[], T]) -> T:
    """``make()``, one part of the load, reading only the files under ``inputs`` and
    ``options``; with a cache kept from the last build (``serve``'s), the part it loaded
    then, if none of those files changed and ``options`` are equal.

    No part reads ``site.yaml`` itself: what a part takes of the site's settings (the
    time zone, the theme's folders) is in its ``options``, so a new title reloads no
    part, and the 100 turns of a campaign are not read and projected again for it."""
    if cache is None:
        return make()
    key = (stamp(root, inputs) if inputs else None, options)
    return cache.reuse(name, key, make)


def _each_post(root: Path, cache: RenderCache | None
               ) -> Callable[[Path, str, ZoneInfo], Post] | None:
    """How the posts are read when some changed: with a cache kept from the last build
    (``serve``'s), each post whose file is as it was (:func:`stamp`) is the one read
    then, so an edited or a new post reads one file, not a thousand."""
    if cache is None or not cache.track:
        return None  # a single build reads each post once anyway
    kept = cache

    def read(file: Path, rel: str, zone: ZoneInfo) -> Post:
        return kept.reuse(f"post {rel}", (stamp(root, (rel,)), zone),
                          lambda: load_post(root, rel, zone))

    return read


def _stat(path: Path | None) -> tuple[int, int, int] | None:
    """Enough of a file to tell it changed (a player's key, say)."""
    try:
        st = path.stat() if path is not None else None
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino) if st is not None else None


def _campaign(store: CampaignStore, options: BuildOptions, cache: RenderCache | None,
              executor: Executor) -> tuple[State | None, tuple[RecordedTurn, ...],
                                           tuple[HiddenFacts | None, ...]]:
    """The campaign's current state and its recorded turns, checked, as the build's
    viewer knows them, and each turn's last safety net for that viewer; raises with
    every problem."""
    root = store.root
    folders = store.states(cache, executor)
    state = folders[0].state if folders else None
    if state is None:
        return None, (), ()
    # The snapshots are loaded and checked once, here; the turns reuse them.
    snapshots = {f.folder: f.state for f in folders[1:]}
    turns = store.turns(snapshots, executor, cache)
    ruleset = rules.find_ruleset(state.campaign.ruleset)
    problems = kind_problems(root, ((t.id, t.events) for t in turns), ruleset.report,
                             ruleset.name)
    if problems:
        raise InputError(problems)
    viewer = viewer_named(options.view)
    if viewer.umpire:
        return state, turns, ()
    # From here on, only what the viewer knows.
    seen = (from_intelligence(root, state, turns, viewer.player, options.identity)
            if viewer.player is not None and state.campaign.known_to is not None
            else known(state, turns, viewer))
    return seen.state, seen.turns, seen.nets


def _open_turn(store: CampaignStore, state: State, now: datetime) -> OpenTurnView:
    """The open turn's page, with who has sent orders as the campaign's store counts
    them."""
    players = [p.id for p in state.players.players]
    sent = store.senders(turn_id(state.campaign.calendar.turn), players)
    return open_turn(state, now, sent)


def _published(posts: tuple[Post, ...], options: BuildOptions) -> tuple[Post, ...]:
    return tuple(p for p in posts
                 if p.published(options.now, drafts=options.drafts, future=options.future))


def load_rulebook(rule_files: tuple[RuleFile, ...], posts: tuple[Post, ...]) -> Rulebook:
    """Fold the rule files and the published posts' amendments into dated versions
    (only the posts that amend the rulebook count)."""
    amendments: list[Amendment] = []
    for p in posts:
        if p.amends and p.effective is not None:
            ruling = Ruling(p.slug, p.title, p.url_path, p.date.date())
            amendments += amendments_of(p.amends, p.effective, ruling, p.source, p.amend_lines)
    return fold(rule_files, amendments)

