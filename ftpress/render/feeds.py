"""Machine-readable outputs: the Atom feed, ``sitemap.xml`` and ``robots.txt``.

Built with ElementTree so every string is escaped by the XML library, never by
hand, and held to the characters XML can hold (:func:`~ftpress.xmlchars.xml_chars`).
Nothing here reads the clock: dates come from the posts, so the same
content gives the same bytes.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from datetime import UTC, datetime

from ftpress.config import SiteConfig
from ftpress.render.views import PostView, Urls
from ftpress.xmlchars import xml_chars

ATOM = "http://www.w3.org/2005/Atom"
SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _stamp(value: datetime) -> str:
    return value.isoformat(timespec="seconds")


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, tag, {k: xml_chars(v) for k, v in attrs.items()})
    if text is not None:
        element.text = xml_chars(text)
    return element


def atom_feed(config: SiteConfig, views: Sequence[PostView]) -> bytes:
    """An Atom 1.0 feed of ``views``, newest first."""
    urls = Urls(config)
    entries = list(views[: config.feed_limit] if config.feed_limit else views)
    ET.register_namespace("", ATOM)
    feed = ET.Element(f"{{{ATOM}}}feed", {"{http://www.w3.org/XML/1998/namespace}base":
                                          config.base_url})
    q = f"{{{ATOM}}}"
    _sub(feed, q + "title", config.title)
    if config.description:
        _sub(feed, q + "subtitle", config.description)
    _sub(feed, q + "link", rel="self", href=urls.absolute("feed.xml"),
         type="application/atom+xml")
    _sub(feed, q + "link", rel="alternate", href=config.base_url, type="text/html")
    _sub(feed, q + "id", config.base_url)
    _sub(feed, q + "updated", _stamp(max((v.updated for v in entries), default=_EPOCH)))
    author = _sub(feed, q + "author")
    _sub(author, q + "name", config.author or config.title)
    _sub(feed, q + "generator", "ftpress")
    for view in entries:
        entry = _sub(feed, q + "entry")
        _sub(entry, q + "title", view.title)
        _sub(entry, q + "link", rel="alternate", href=urls.absolute(view.path), type="text/html")
        _sub(entry, q + "id", view.feed_id or urls.absolute(view.path))
        _sub(entry, q + "published", _stamp(view.date))
        _sub(entry, q + "updated", _stamp(view.updated))
        _sub(entry, q + "category", term=view.kind_id, label=view.kind.text)
        for tag in view.tags:
            _sub(entry, q + "category", term=tag.text)
        _sub(entry, q + "summary", view.description)
        _sub(entry, q + "content", str(view.html), type="html")
    ET.indent(feed)
    return ET.tostring(feed, encoding="utf-8", xml_declaration=True) + b"\n"


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
    """Crawlers welcome on the public site; kept out of the umpire's."""
    if umpire:
        return "User-agent: *\nDisallow: /\n"
    return f"User-agent: *\nAllow: /\n\nSitemap: {Urls(config).absolute('sitemap.xml')}\n"
