"""Machine-readable outputs: the Atom feeds, ``sitemap.xml`` and ``robots.txt``.

Built with ElementTree so every string is escaped by the XML library, never by
hand, and held to the characters XML can hold (:func:`~ftpress.text.xmlchars.xml_chars`).
Nothing here reads the clock: dates come from the posts, so the same
content gives the same bytes.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import urlsplit

from ftpress.files.config import SiteConfig
from ftpress.render.views import PostView, Urls
from ftpress.text.xmlchars import xml_chars

ATOM = "http://www.w3.org/2005/Atom"
SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"
XML = "http://www.w3.org/XML/1998/namespace"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _stamp(value: datetime) -> str:
    return value.isoformat(timespec="seconds")


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, tag, {k: xml_chars(v) for k, v in attrs.items()})
    if text is not None:
        element.text = xml_chars(text)
    return element


@dataclass(frozen=True, slots=True)
class FeedEntry:
    """One entry of the Atom feeds: a post or a turn report."""

    title: str
    #: The page's output folder below the site's root, e.g. ``posts/2026/04/07/slug/``.
    path: str
    #: The entry's stable id (a post's ``id:``), or "" for its page's URL.
    id: str
    published: datetime
    updated: datetime
    #: ``(term, label)`` pairs, the first the entry's kind ("turn" for a turn report).
    categories: tuple[tuple[str, str], ...]
    summary: str
    #: The page's content as HTML, its links as the page writes them.
    html: str
    #: Which per-kind feed carries it: a post's kind, or "" for none.
    kind: str = ""
    tags: tuple[str, ...] = ()


def post_entry(view: PostView) -> FeedEntry:
    return FeedEntry(view.title, view.path, view.feed_id or "", view.date, view.updated,
                     ((view.kind_id, view.kind.text), *((t.text, "") for t in view.tags)),
                     view.description, str(view.html), view.kind_id,
                     tuple(t.text for t in view.tags))


#: A link inside an entry's HTML; :func:`absolute_links` says which it rewrites.
_LINK = re.compile(r'(?P<attr>\b(?:href|src))="(?P<target>[^"]*)"')
_SCHEME = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*:")


def absolute_links(html: str, page_url: str, site_origin: str) -> str:
    """``html`` with every link a feed reader would resolve against the feed, not the
    page, made absolute: a fragment (``#fn1``, the post's own footnotes) and a file
    beside the post (``photo.png``) on ``page_url``, a root path on ``site_origin``
    (``https://host``). Attributes are as Markdown and the templates write them:
    always in double quotes; a quote in text is escaped, never matched."""

    def fix(match: re.Match[str]) -> str:
        target = match["target"]
        if not target or target.startswith(("//", "?")) or _SCHEME.match(target):
            return match[0]
        base = site_origin if target.startswith("/") else page_url
        return f'{match["attr"]}="{base}{target}"'

    return _LINK.sub(fix, html)


def atom_feeds(config: SiteConfig, posts: Sequence[FeedEntry],
               turns: Sequence[FeedEntry] = ()) -> dict[str, bytes]:
    """Every feed of the site, by output path, like Hugo's: ``feed.xml`` with the
    posts (their entries, :func:`post_entry`) and the turn reports,
    ``kinds/<kind>/feed.xml`` and ``tags/<tag>/feed.xml`` with the posts of one kind
    or tag, and ``turns/feed.xml`` with the turns alone.

    The main feed and the turns' carry each entry's whole content; a kind's or a tag's
    carry summaries, as Hugo's do: a post is in several of those, and with its whole
    text in each, a 5,000-post site's feeds came to five times its main feed's size."""
    entries = list(posts)
    everything = sorted([*entries, *turns], key=lambda e: e.published, reverse=True)
    # Each entry written once per form, shared by every feed that shows it.
    made: dict[tuple[int, bool], str] = {}
    feeds = {"feed.xml": _feed(config, "feed.xml", config.title, everything, made)}
    kinds: dict[str, list[FeedEntry]] = {}
    tags: dict[str, list[FeedEntry]] = {}
    for entry in entries:
        kinds.setdefault(entry.kind, []).append(entry)
        for tag in entry.tags:
            tags.setdefault(tag, []).append(entry)
    for kind, chosen in kinds.items():
        label = chosen[0].categories[0][1]  # the kind's name
        feeds[f"kinds/{kind}/feed.xml"] = _feed(config, f"kinds/{kind}/feed.xml",
                                                f"{config.title}: {label}", chosen, made,
                                                whole=False)
    for tag, chosen in tags.items():
        feeds[f"tags/{tag}/feed.xml"] = _feed(config, f"tags/{tag}/feed.xml",
                                              f"{config.title}: tagged {tag}", chosen, made,
                                              whole=False)
    if turns:
        feeds["turns/feed.xml"] = _feed(config, "turns/feed.xml",
                                        f"{config.title}: turn reports", turns, made)
    return feeds


def _feed(config: SiteConfig, path: str, title: str, entries: Sequence[FeedEntry],
          made: dict[tuple[int, bool], str], *, whole: bool = True) -> bytes:
    """One Atom 1.0 feed of ``entries``, newest first, at most ``feed_limit`` of them;
    ``whole``: with each entry's content, not its summary alone.

    A post is in several feeds: each entry is written by ElementTree once, and each
    feed is its head, written by ElementTree, with the entries' text set in it, byte
    for byte what ElementTree writes for the whole tree, indented (a test holds it to
    that), in a fifth of the time at 5,000 posts."""
    urls = Urls(config)
    shown = list(entries[: config.feed_limit] if config.feed_limit else entries)
    ET.register_namespace("", ATOM)
    feed = ET.Element(f"{{{ATOM}}}feed", {f"{{{XML}}}base": xml_chars(config.base_url),
                                          f"{{{XML}}}lang": xml_chars(config.language)})
    q = f"{{{ATOM}}}"
    _sub(feed, q + "title", title)
    if config.description:
        _sub(feed, q + "subtitle", config.description)
    _sub(feed, q + "link", rel="self", href=urls.absolute(path), type="application/atom+xml")
    page = path.removesuffix("feed.xml")
    _sub(feed, q + "link", rel="alternate", href=urls.absolute(page), type="text/html")
    _sub(feed, q + "id", urls.absolute(page) if page else config.base_url)
    _sub(feed, q + "updated", _stamp(max((e.updated for e in shown), default=_EPOCH)))
    author = _sub(feed, q + "author")
    _sub(author, q + "name", config.author or config.title)
    _sub(feed, q + "generator", "ftpress")
    ET.indent(feed)
    head = ET.tostring(feed, encoding="unicode", xml_declaration=True)
    close = "\n</feed>"
    assert head.endswith(close), "an indented feed with children ends on its own line"
    parts = [head.removesuffix(close)]
    for entry in shown:
        key = (id(entry), whole)
        if key not in made:
            made[key] = _entry_xml(entry, urls, whole=whole)
        parts += "\n  ", made[key]
    parts += close, "\n"
    return "".join(parts).encode("utf-8")


def _entry_xml(e: FeedEntry, urls: Urls, *, whole: bool) -> str:
    """One ``<entry>``, indented as the second level of a feed. Its names carry no
    namespace here: inside the feed they are in the feed's default one, Atom's."""
    entry = ET.Element("entry")
    page = urls.absolute(e.path)
    _sub(entry, "title", e.title)
    _sub(entry, "link", rel="alternate", href=page, type="text/html")
    _sub(entry, "id", e.id or page)
    _sub(entry, "published", _stamp(e.published))
    _sub(entry, "updated", _stamp(e.updated))
    for term, label in e.categories:
        if label:
            _sub(entry, "category", term=term, label=label)
        else:
            _sub(entry, "category", term=term)
    _sub(entry, "summary", e.summary)
    if whole:
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(page))
        _sub(entry, "content", absolute_links(e.html, page, origin), type="html")
    ET.indent(entry, level=1)
    return ET.tostring(entry, encoding="unicode")


def sitemap(config: SiteConfig, paths: Sequence[str], modified: dict[str, datetime]) -> bytes:
    """``sitemap.xml`` listing ``paths``; posts carry their last-modified date.

    Thousands of entries of one fixed shape: written out directly, byte for byte
    what ElementTree (indented) writes, for a tenth of the time; the text is escaped
    as ElementTree escapes it.
    """
    urls = Urls(config)
    head = f"<?xml version='1.0' encoding='utf-8'?>\n<urlset xmlns=\"{SITEMAP}\""
    if not paths:
        return f"{head} />\n".encode()
    parts = [head, ">\n"]
    for path in sorted(paths):
        parts += "  <url>\n    <loc>", _text(urls.absolute(path)), "</loc>\n"
        if path in modified:
            parts += "    <lastmod>", _text(_stamp(modified[path])), "</lastmod>\n"
        parts.append("  </url>\n")
    parts.append("</urlset>\n")
    return "".join(parts).encode("utf-8", "xmlcharrefreplace")


def _text(value: str) -> str:
    """Element text escaped as ElementTree escapes it (and held to XML's characters)."""
    value = xml_chars(value)
    if "&" in value or "<" in value or ">" in value:
        return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return value


def robots(config: SiteConfig, *, umpire: bool = False) -> str:
    """Crawlers welcome on the public site; kept out of the umpire's. A site under a
    path (a GitHub project site) is told that crawlers never read this file there."""
    if umpire:
        return "User-agent: *\nDisallow: /\n"
    sitemap = Urls(config).absolute("sitemap.xml")
    parts = urlsplit(sitemap)
    note = ""
    if parts.path != "/sitemap.xml":
        note = (f"# Crawlers read robots.txt only at the root of a host (RFC 9309), so not "
                f"here: to have the\n# sitemap found, put the Sitemap line below in "
                f"{parts.scheme}://{parts.netloc}/robots.txt\n# or give the sitemap's "
                "address to the search engines' webmaster tools.\n")
    return f"{note}User-agent: *\nAllow: /\n\nSitemap: {sitemap}\n"
