"""Small, frozen view objects: all a template ever sees.

Templates never touch the content models; they get these, with URLs already
made (root-relative, with the site's base path) and Markdown already rendered.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from markupsafe import Markup

from ftpress.config import SiteConfig


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
    changes: tuple = ()


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
