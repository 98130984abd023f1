"""The Atom feeds, like Hugo's: the posts and the turn reports in the main feed, a
feed per kind, per tag and of the turns alone, links in entries that work in a feed
reader, and the site's language."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import datetime
from pathlib import Path

import pytest

from ftpress.render.feeds import absolute_links

from conftest import REPO

A = "{http://www.w3.org/2005/Atom}"
XML = "{http://www.w3.org/XML/1998/namespace}"
TURNS = sorted(p.name for p in (REPO / "state/turns").iterdir() if p.is_dir())


def entries(path: Path) -> list[ET.Element]:
    return ET.parse(path).getroot().findall(f"{A}entry")


def kinds_of(entry: ET.Element) -> list[str]:
    return [c.get("term") for c in entry.findall(f"{A}category")]


def assert_atom(path: Path) -> ET.Element:
    """What RFC 4287 requires of a feed and each entry: one id, title and updated
    each, an author, an alternate link; content of type html."""
    feed = ET.parse(path).getroot()
    assert feed.tag == f"{A}feed"
    for element in (feed, *feed.findall(f"{A}entry")):
        for child in ("id", "title", "updated"):
            assert len(element.findall(f"{A}{child}")) == 1, (path, child)
        assert element.find(f"{A}link[@rel='alternate']") is not None
    assert feed.find(f"{A}author/{A}name").text
    assert all(c.get("type") == "html" for c in feed.iter(f"{A}content"))
    ids = [e.findtext(f"{A}id") for e in feed.findall(f"{A}entry")]
    assert len(set(ids)) == len(ids)
    return feed


def test_the_main_feed_has_the_posts_and_every_turn_newest_first(demo_site):
    feed = assert_atom(demo_site / "feed.xml")
    assert feed.get(f"{XML}lang") == "en-GB"  # site.yaml's language
    turns = [e for e in feed.findall(f"{A}entry") if kinds_of(e) == ["turn"]]
    assert [e.findtext(f"{A}title") for e in reversed(turns)] == [
        "Setup: the starting position", *(f"Turn {int(t[1:])}" for t in TURNS[1:])]
    assert turns[0].find(f"{A}link").get("href") == (
        f"https://ftpress.github.io/ftpress/turns/{TURNS[-1]}/")
    # Turn 9's orders were due on the deadline turn 8 left open.
    assert turns[0].findtext(f"{A}published") == "2026-05-10T20:00:00+00:00"
    content = turns[0].findtext(f"{A}content")
    assert f'<img src="https://ftpress.github.io/ftpress/turns/{TURNS[-1]}/map.svg"' in content
    published = [e.findtext(f"{A}published") for e in feed.findall(f"{A}entry")]
    stamps = [datetime.fromisoformat(p) for p in published]
    assert stamps == sorted(stamps, reverse=True)


def test_a_feed_per_kind_per_tag_and_of_the_turns(demo_site):
    for kind in ("rules", "rulings", "cogitation", "status", "guff"):
        feed = demo_site / f"kinds/{kind}/feed.xml"
        assert_atom(feed)
        assert entries(feed) and all(kinds_of(e)[0] == kind for e in entries(feed))
    for tag_page in sorted((demo_site / "tags").glob("*/index.html")):
        tag = tag_page.parent.name
        feed = tag_page.parent / "feed.xml"
        assert_atom(feed)
        assert entries(feed) and all(tag in kinds_of(e) for e in entries(feed))
        assert (f'<link rel="alternate" type="application/atom+xml" title="The Tannhauser '
                f'Reach: tagged {tag}" href="/ftpress/tags/{tag}/feed.xml">') in (
            tag_page.read_text(encoding="utf-8"))
    turns = assert_atom(demo_site / "turns/feed.xml")
    assert len(turns.findall(f"{A}entry")) == len(TURNS)
    assert all(kinds_of(e) == ["turn"] for e in turns.findall(f"{A}entry"))
    assert turns.findtext(f"{A}id") == "https://ftpress.github.io/ftpress/turns/"


def test_links_in_entries_go_where_they_go_on_the_page(demo_site):
    """A footnote link ``#fn1`` read against the feed would go to the front page."""
    for entry in entries(demo_site / "feed.xml"):
        content = entry.findtext(f"{A}content")
        page = entry.find(f"{A}link").get("href")
        assert not re.search(r'(href|src)="(#|/[^/])', content), page
        for target in re.findall(r'href="([^"]*#fn(?:ref)?\d+)"', content):
            assert target.startswith(page + "#"), (page, target)


def test_absolute_links_leave_absolute_and_protocol_relative_links_alone():
    html = ('<a href="#fn1">1</a> <a href="/x/rules/#r-8">§8</a> <img src="/x/m.svg"> '
            '<a href="https://e.org/#a">e</a> <a href="//cdn.e.org/x">c</a> '
            '<img src="photo.png" alt=""> <a href="mailto:u@e.org">u</a> '
            '<code>href=&quot;#no&quot;</code>')
    assert absolute_links(html, "https://h.org/x/posts/p/", "https://h.org") == (
        '<a href="https://h.org/x/posts/p/#fn1">1</a> <a href="https://h.org/x/rules/#r-8">§8</a> '
        '<img src="https://h.org/x/m.svg"> <a href="https://e.org/#a">e</a> '
        '<a href="//cdn.e.org/x">c</a> <img src="https://h.org/x/posts/p/photo.png" alt=""> '
        '<a href="mailto:u@e.org">u</a> <code>href=&quot;#no&quot;</code>')


def test_feed_readers_parse_every_feed(demo_site):
    feedparser = pytest.importorskip("feedparser")
    for path in [demo_site / "feed.xml", demo_site / "turns/feed.xml",
                 *sorted(demo_site.glob("kinds/*/feed.xml"))]:
        parsed = feedparser.parse(path.read_bytes())
        assert not parsed.bozo, (path, parsed.get("bozo_exception"))
        assert parsed.version == "atom10" and parsed.feed.language == "en-GB"
        assert len(parsed.entries) == len(entries(path))
    main = feedparser.parse((demo_site / "feed.xml").read_bytes())
    assert any(e.title == "Turn 1" and e.tags[0].term == "turn" for e in main.entries)


def test_every_feed_is_byte_for_byte_what_elementtree_writes_for_the_whole_tree(demo_site):
    """The feeds are assembled from entries written once each (feeds._feed): the result
    must be exactly ElementTree's own serialization of the whole feed, indented."""
    ET.register_namespace("", A.strip("{}"))
    for path in [demo_site / "feed.xml", demo_site / "turns/feed.xml",
                 *demo_site.glob("kinds/*/feed.xml"), *demo_site.glob("tags/*/feed.xml")]:
        tree = ET.parse(path).getroot()
        ET.indent(tree)
        assert ET.tostring(tree, encoding="utf-8", xml_declaration=True) + b"\n" == (
            path.read_bytes()), path


def test_a_kinds_and_a_tags_feed_carry_summaries_the_main_feed_whole_posts(demo_site):
    main = {e.findtext(f"{A}id"): e for e in entries(demo_site / "feed.xml")}
    for feed in (demo_site / "kinds/rulings/feed.xml", demo_site / "tags/rule-10/feed.xml"):
        for entry in entries(feed):
            assert entry.find(f"{A}content") is None and entry.findtext(f"{A}summary")
            assert main[entry.findtext(f"{A}id")].find(f"{A}content") is not None
