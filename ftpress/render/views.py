"""Small, frozen view objects: all a template ever sees.

Templates never touch the content models; they get these, with URLs already
made (root-relative, with the site's base path) and Markdown already rendered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import jinja2
from markupsafe import Markup

from ftpress.files.config import SiteConfig
from ftpress.render.openturn import OpenTurnView


@dataclass(frozen=True, slots=True)
class Link:
    url: str
    text: str
    count: int = 0
    #: For menu entries: the ``PageInfo.section`` that marks this entry current.
    key: str = ""


@dataclass(frozen=True, slots=True)
class SiteView:
    title: str
    description: str
    author: str
    language: str
    base_path: str
    base_url: str
    feed_url: str
    css_url: str
    nav: tuple[Link, ...]
    #: The five kinds of post, for the footer.
    kinds: tuple[Link, ...] = ()
    #: The umpire's build (``ftpress build --view umpire``): every fact, never indexed.
    umpire: bool = False
    #: A player's build (``ftpress build --view PLAYER``): whose, as its banner names it.
    player_view: str | None = None
    #: The campaign's open turn (:mod:`ftpress.render.openturn`), if it keeps a state.
    open_turn: OpenTurnView | None = None


@dataclass(frozen=True, slots=True)
class PageInfo:
    """What every page's ``<head>`` needs."""

    title: str
    description: str
    url: str
    canonical: str
    section: str = ""
    noindex: bool = False


@dataclass(frozen=True, slots=True)
class EditView:
    date: datetime
    note: str


@dataclass(frozen=True, slots=True)
class PostView:
    source: str
    #: Output folder of the post's page, e.g. ``posts/2026/04/07/slug/``.
    path: str
    url: str
    title: str
    date: datetime
    updated: datetime
    kind_id: str
    kind: Link
    tags: tuple[Link, ...]
    description: str
    html: Markup
    edits: tuple[EditView, ...]
    words: int
    draft: bool
    #: The post's own stable Atom id, if it gives one.
    feed_id: str | None
    #: Archive, year, month and day links, for breadcrumbs.
    trail: tuple[Link, ...]
    #: For a ruling: the rulebook sections it changed (``ChangeView`` values).
    changes: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class Pager:
    number: int
    count: int
    newer: Link | None
    older: Link | None


@dataclass(frozen=True, slots=True)
class Group:
    """A run of posts under one heading (a month in a year archive, say)."""

    heading: str
    url: str
    posts: tuple[PostView, ...]


class Cards:
    """The theme's ``card`` macro (``_macros.html``), each post's card made once.

    A post is in about seven listings (home, its kind, its tags, its year, month
    and day), and its card is the same in each: the first listing that shows it
    renders it, the others join the ready markup. A listing template calls this
    as it would call the macro, ``card(post, level)``, and gets the same bytes;
    a theme that overrides ``_macros.html`` still makes its own cards. The macro
    is looked up on the first call, so a theme that never shows a card never
    loads it. With forked workers each process keeps its own cards.
    """

    __slots__ = ("_env", "_macro", "_made")

    def __init__(self, env: jinja2.Environment) -> None:
        self._env = env
        self._macro: Callable[..., Markup] | None = None
        self._made: dict[tuple[object, ...], Markup] = {}

    def __eq__(self, other: object) -> bool:
        """Any two make the same cards from the same templates (what a page is made from
        counts the templates apart): a listing whose posts are equal is the same page."""
        return isinstance(other, Cards)

    __hash__ = object.__hash__

    def __call__(self, post: PostView, *args: object, **kwargs: object) -> Markup:
        path = getattr(post, "path", None)
        if not isinstance(path, str):  # not a post: made every time, as the macro would be
            return self._card()(post, *args, **kwargs)
        key = (path, *map(type, args), *args,
               *((k, type(v), v) for k, v in sorted(kwargs.items())))
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = self._card()(post, *args, **kwargs)
        return made

    def _card(self) -> Callable[..., Markup]:
        if self._macro is None:
            macro = getattr(self._env.get_template("_macros.html").module, "card", None)
            if macro is None:  # a theme's _macros.html without it: a template error
                raise jinja2.UndefinedError(
                    "_macros.html has no macro 'card'; expected one, card(post, level), "
                    "to show each post in the listings")
            self._macro = macro
        return self._macro


class Memo:
    """``memo(macro, *args)`` in a template: the macro's markup, made once per build.

    Only for macros of an imported template (``{% from "_x.html" import m %}``):
    those see nothing but their arguments and the environment's globals, so equal
    arguments give equal markup, and an imported template's macros are the same
    objects on every page. Arguments are frozen view objects or plain values; each
    is keyed with its type as well, so that ``1`` and ``True`` stay apart. A call
    whose arguments cannot be hashed is rendered every time.
    """

    __slots__ = ("_made",)

    def __init__(self) -> None:
        self._made: dict[tuple[object, ...], Markup] = {}

    def __call__(self, macro: Callable[..., Markup], *args: object) -> Markup:
        # The arguments' types, then the arguments: a macro is always given as many.
        key = (macro, *map(type, args), *args)
        try:
            made = self._made.get(key)
        except TypeError:  # an unhashable argument
            return macro(*args)
        if made is None:
            made = self._made[key] = macro(*args)
        return made

    def each(self, macro: Callable[..., Markup], items: Iterable[object]) -> Markup:
        """``memo.each(macro, items)``: ``macro(item)`` of every item, joined, each made
        once; the same bytes as a ``for`` loop of ``memo(macro, item)`` calls, without
        the template calling back into Python once per item."""
        made, parts = self._made, []
        for item in items:
            key = (macro, type(item), item)
            try:
                part = made.get(key)
            except TypeError:  # unhashable
                part = macro(item)
            else:
                if part is None:
                    part = made[key] = macro(item)
            parts.append(part)
        return Markup("").join(parts)


class Urls:
    """Makes every URL of the site from output paths; one place knows the base path."""

    __slots__ = ("base_path", "base_url")

    def __init__(self, config: SiteConfig) -> None:
        self.base_path = config.base_path
        self.base_url = config.base_url

    def page(self, path: str) -> str:
        """Root-relative URL of an output path: works under a sub-path and in ``serve``."""
        return self.base_path + path.removesuffix("index.html")

    def absolute(self, path: str) -> str:
        return self.base_url + path.removesuffix("index.html")
