"""The load stage: every input of the site read and checked into a :class:`Site`
(configuration, posts, pages, rule files, the campaign's state, its recorded turns,
the theme's folders), or :class:`~ftpress.errors.InputError` with every problem found.

Nothing after this stage reads an input file.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ftpress import rules
from ftpress.content.assets import Asset, load_assets
from ftpress.content.pages import Page, load_pages, reserved_clash
from ftpress.content.posts import Post, load_posts
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
from ftpress.speed.buildcache import RenderCache
from ftpress.speed.executor import SERIAL, Executor
from ftpress.state.model import State
from ftpress.state.recorded_kinds import kind_problems
from ftpress.state.records import RecordedTurn
from ftpress.state.turns import turn_id
from ftpress.store import CampaignStore
from ftpress.yourview.view import YourView


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

    ``cache`` keeps the parsed state files between builds; ``executor`` parses them
    and reads the turns' event logs.
    """
    root = store.root
    config = load_config(root)  # everything below depends on it
    problems = Problems()
    state = None
    turns: tuple[RecordedTurn, ...] = ()
    try:
        folders = store.states(cache, executor)
        state = folders[0].state if folders else None
        # The snapshots are loaded and checked once, here; the turns reuse them.
        snapshots = {f.folder: f.state for f in folders[1:]}
        if state is not None:
            turns = store.turns(snapshots, executor)
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
    statics = theme.static_files(dirs)
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
    problems.raise_if_any()
    viewer = viewer_named(options.view)
    nets: tuple[HiddenFacts | None, ...] = ()
    if state is not None and not viewer.umpire:  # from here on, only what the viewer knows
        seen = (from_intelligence(root, state, turns, viewer.player, options.identity)
                if viewer.player is not None and state.campaign.known_to is not None
                else known(state, turns, viewer))
        state, turns, nets = seen.state, seen.turns, seen.nets
    published = _published(posts, options)
    chosen = {id(p) for p in published}  # by identity: comparing posts field by field is slow
    scheduled = [p.date for p in posts
                 if id(p) not in chosen and (options.drafts or not p.draft)]
    # Only published rulings amend the rulebook: a draft ruling changes nothing yet.
    return Site(root, config, published, pages, load_rulebook(rule_files, published), dirs,
                statics, state, min(scheduled, default=None), turns, viewer,
                load_assets(root, published),
                _open_turn(store, state, options.now) if state is not None else None, nets,
                your_view(store, state, turns, viewer, config.base_url)
                if state is not None else None, store.order_suffix)


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
    """Fold the rule files and the published posts' amendments into dated versions."""
    amendments: list[Amendment] = []
    for p in posts:
        if p.amends and p.effective is not None:
            ruling = Ruling(p.slug, p.title, p.url_path, p.date.date())
            amendments += amendments_of(p.amends, p.effective, ruling, p.source, p.amend_lines)
    return fold(rule_files, amendments)

