"""The benchmark corpus as a Pelican project and as a Hugo project.

A comparison is only fair if every tool does the same work, so both projects
are configured like the ftpress corpus: one page per post at
``/posts/YYYY/MM/DD/slug/``, the five kinds as categories (Pelican) or a
``kinds`` taxonomy (Hugo), tag pages, year and month archives, listings
paginated by 10, one feed of the newest 20 posts with their full text, and
Markdown with tables, footnotes, heading ids and typographic quotes.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # corpus imports this module; the types are only for annotations
    from corpus import Campaign, Post

HUGO_LAYOUTS = Path(__file__).resolve().parent / "hugo_layouts"
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")

PELICANCONF = """\
# Pelican settings for the benchmark corpus (written by bench/corpus.py).
AUTHOR = "the Umpire"
SITENAME = "The Benchmark Reach"
SITEURL = "https://bench.example.org/campaign"
PATH = "content"
TIMEZONE = "Europe/London"
DEFAULT_LANG = "en"
RELATIVE_URLS = False
LOAD_CONTENT_CACHE = False
CACHE_CONTENT = False

DEFAULT_PAGINATION = 10
PAGINATION_PATTERNS = (
    (1, "{url}", "{save_as}"),
    (2, "{base_name}/page/{number}/", "{base_name}/page/{number}/index.html"),
)
ARTICLE_URL = "posts/{date:%Y}/{date:%m}/{date:%d}/{slug}/"
ARTICLE_SAVE_AS = ARTICLE_URL + "index.html"
CATEGORY_URL = "kinds/{slug}/"
CATEGORY_SAVE_AS = CATEGORY_URL + "index.html"
CATEGORIES_SAVE_AS = "kinds/index.html"
TAG_URL = "tags/{slug}/"
TAG_SAVE_AS = TAG_URL + "index.html"
TAGS_SAVE_AS = "tags/index.html"
ARCHIVES_SAVE_AS = "posts/index.html"
YEAR_ARCHIVE_URL = "posts/{date:%Y}/"
YEAR_ARCHIVE_SAVE_AS = YEAR_ARCHIVE_URL + "index.html"
MONTH_ARCHIVE_URL = "posts/{date:%Y}/{date:%m}/"
MONTH_ARCHIVE_SAVE_AS = MONTH_ARCHIVE_URL + "index.html"
AUTHOR_SAVE_AS = ""
AUTHORS_SAVE_AS = ""
DIRECT_TEMPLATES = ["index", "tags", "categories", "archives"]

FEED_ALL_ATOM = "feed.xml"
FEED_MAX_ITEMS = 20
CATEGORY_FEED_ATOM = None
TRANSLATION_FEED_ATOM = None
AUTHOR_FEED_ATOM = None
AUTHOR_FEED_RSS = None

MARKDOWN = {
    "extension_configs": {
        "markdown.extensions.extra": {},
        "markdown.extensions.toc": {},
        "markdown.extensions.smarty": {},
        "markdown.extensions.meta": {},
    },
    "output_format": "html5",
}
"""

HUGO_TOML = """\
# Hugo settings for the benchmark corpus (written by bench/corpus.py).
baseURL = "https://bench.example.org/campaign/"
title = "The Benchmark Reach"
locale = "en-gb"
timeZone = "Europe/London"
disableKinds = ["sitemap", "robotsTXT", "404"]
# Posts dated after today's clock are published: the corpus's dates run into the future.
buildFuture = true

[params]
description = "A synthetic Full Thrust campaign, generated for the build benchmark."

[pagination]
pagerSize = 10
path = "page"

[taxonomies]
kind = "kinds"
tag = "tags"

[permalinks.page]
posts = "/posts/:year/:month/:day/:slug/"

[outputs]
home = ["html", "rss"]
section = ["html"]
taxonomy = ["html"]
term = ["html"]
page = ["html"]

[services.rss]
limit = 20
"""


def _write(root: Path, rel: str, text: str) -> None:
    target = root / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8", newline="\n")


def pelican_post(post: Post) -> str:
    """Pelican's own metadata header; it cannot hold ftpress's ``amends:``, which it
    would not use anyway."""
    return (f"Title: {post.title}\nDate: {post.when.isoformat()}\nCategory: {post.kind}\n"
            f"Tags: {', '.join(post.tags)}\nSlug: {post.slug}\nSummary: {post.summary}\n\n"
            + post.body)


def write_pelican(campaign: Campaign, root: Path) -> None:
    _write(root, "pelicanconf.py", PELICANCONF)
    for post in campaign.posts:
        _write(root, "content/" + post.file, pelican_post(post))


def hugo_post(post: Post) -> str:
    """YAML front matter like ftpress's, with the kind as a one-term taxonomy."""
    return (f"---\ntitle: {json.dumps(post.title)}\ndate: {post.when.isoformat()}\n"
            f"slug: {post.slug}\nkinds: [{post.kind}]\ntags: [{', '.join(post.tags)}]\n"
            f"summary: {json.dumps(post.summary)}\n---\n" + post.body)


def _section(title: str) -> str:
    return f"---\ntitle: {json.dumps(title)}\n---\n"


def write_hugo(campaign: Campaign, root: Path) -> None:
    """The project, with an ``_index.md`` per year and month so that Hugo makes
    them sections: that is how the archives get a page each."""
    _write(root, "hugo.toml", HUGO_TOML)
    shutil.copytree(HUGO_LAYOUTS, root / "layouts")
    _write(root, "content/posts/_index.md", _section("Archive"))
    months = sorted({(p.when.year, p.when.month) for p in campaign.posts})
    for year in sorted({y for y, _ in months}):
        _write(root, f"content/posts/{year:04d}/_index.md", _section(str(year)))
    for year, month in months:
        _write(root, f"content/posts/{year:04d}/{month:02d}/_index.md",
               _section(f"{MONTHS[month - 1]} {year}"))
    for post in campaign.posts:
        _write(root, "content/" + post.file, hugo_post(post))
