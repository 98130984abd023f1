"""The demo campaign, built once and read as a reader and a crawler would."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
import yaml
from demos import FTC2007
from hiddenfacts import hidden_words
from markupsafe import escape

from ftpress.cli import main

from conftest import DEMO_NOW, REPO
from sitecheck import Site, all_text

ATOM = "{http://www.w3.org/2005/Atom}"
BASE_URL = FTC2007.base_url


def demo_posts() -> list[dict]:
    """Front matter of every demo post, read independently of ftpress."""
    posts = []
    for file in sorted((REPO / "content/posts").rglob("*.md")):
        meta = yaml.safe_load(file.read_text(encoding="utf-8").split("\n---\n", 1)[0][4:])
        meta["slug"] = file.stem[3:]
        meta["path"] = file.relative_to(REPO / "content/posts").as_posix()
        posts.append(meta)
    return posts


PUBLISHED = [p for p in demo_posts() if not p.get("draft")]
DRAFTS = [p for p in demo_posts() if p.get("draft")]


@pytest.fixture(scope="module")
def site(demo_site: Path) -> Site:
    return Site(demo_site, BASE_URL)


def test_demo_is_a_real_campaign_blog():
    kinds = Counter(p["kind"] for p in demo_posts())
    months = {p["path"][:7] for p in demo_posts()}
    assert len(demo_posts()) >= 25
    assert set(kinds) == {"rules", "rulings", "cogitation", "status", "guff"}
    assert len(months) >= 3
    assert sum(1 for p in demo_posts() if p.get("edits")) >= 3
    assert any(t.startswith("rule-") for p in demo_posts() for t in p.get("tags", []))
    assert len(DRAFTS) >= 1
    assert all(str(p["date"]) < DEMO_NOW for p in demo_posts())


def test_every_internal_link_and_anchor_resolves(demo_site: Path):
    FTC2007.assert_links_resolve(demo_site)


def test_every_page_has_a_title_and_description(site: Site):
    for file in site.pages():
        scanned = site.scan(file)
        assert scanned.title.strip(), file
        if "noindex" not in file.read_text(encoding="utf-8"):
            assert scanned.description, file


def test_one_page_per_published_post(site: Site):
    for p in PUBLISHED:
        y, m, rest = p["path"].split("/")
        page = site.out / "posts" / y / m / rest[:2] / p["slug"] / "index.html"
        assert page.is_file(), page
        assert site.scan(page).title.startswith(p["title"])


def test_feed_is_atom_with_one_entry_per_post_and_per_turn(site: Site):
    feed = ET.parse(site.out / "feed.xml").getroot()
    assert feed.tag == f"{ATOM}feed"
    entries = feed.findall(f"{ATOM}entry")
    posts = [e for e in entries if e.find(f"{ATOM}category").get("term") != "turn"]
    assert sorted(e.findtext(f"{ATOM}title") for e in posts) == sorted(p["title"] for p in PUBLISHED)
    assert len(entries) - len(posts) == len(list((REPO / "state/turns").glob("t*/")))
    ids = [e.findtext(f"{ATOM}id") for e in entries]
    assert len(set(ids)) == len(ids)
    stable = {p["id"] for p in PUBLISHED if p.get("id")}
    assert stable <= set(ids)
    for entry in entries:
        link = entry.find(f"{ATOM}link").get("href")
        assert site.resolve(link) is not None, link
    home = (site.out / "index.html").read_text(encoding="utf-8")
    assert 'rel="alternate" type="application/atom+xml"' in home


def _listed(site: Site, first_page: Path) -> list[str]:
    """Card titles over a listing and all its pagination pages."""
    titles = list(site.scan(first_page).card_titles)
    n = 2
    while (page := first_page.parent / "page" / str(n) / "index.html").is_file():
        titles += site.scan(page).card_titles
        n += 1
    return titles


@pytest.mark.parametrize("kind", ["rules", "rulings", "cogitation", "status", "guff"])
def test_kind_pages_list_exactly_their_posts(site: Site, kind: str):
    listed = _listed(site, site.out / "kinds" / kind / "index.html")
    assert sorted(listed) == sorted(p["title"] for p in PUBLISHED if p["kind"] == kind)


def test_tag_pages_list_exactly_their_posts(site: Site):
    tags = {t for p in PUBLISHED for t in p.get("tags", [])}
    for tag in tags:
        listed = _listed(site, site.out / "tags" / tag / "index.html")
        assert sorted(listed) == sorted(p["title"] for p in PUBLISHED if tag in p.get("tags", []))


def test_date_archives_list_exactly_their_posts(site: Site):
    months = {p["path"][:7] for p in PUBLISHED}
    for month in months:
        listed = site.scan(site.out / "posts" / month / "index.html").card_titles
        assert sorted(listed) == sorted(p["title"] for p in PUBLISHED if p["path"].startswith(month))
    for year in {m[:4] for m in months}:
        listed = site.scan(site.out / "posts" / year / "index.html").card_titles
        assert len(listed) == sum(1 for p in PUBLISHED if p["path"].startswith(year))
    for p in PUBLISHED:
        day = site.out / "posts" / p["path"][:8] / p["path"][8:10] / "index.html"
        assert p["title"] in site.scan(day).card_titles


def test_home_is_newest_first_and_paginated(site: Site):
    newest = sorted(PUBLISHED, key=lambda p: str(p["date"]), reverse=True)
    assert site.scan(site.out / "index.html").card_titles == [p["title"] for p in newest[:10]]
    assert sorted(_listed(site, site.out / "index.html")) == sorted(p["title"] for p in PUBLISHED)


def test_drafts_are_nowhere(site: Site):
    everything = all_text(site.out)
    for draft in DRAFTS:
        assert draft["title"] not in everything
        assert draft["slug"] not in everything


def test_drafts_appear_with_the_flag(tmp_path: Path):
    out = FTC2007.build(tmp_path / "out", "--drafts")
    feed = (out / "feed.xml").read_text(encoding="utf-8")
    for draft in DRAFTS:
        assert draft["title"] in feed


def test_aliases_redirect_to_their_post(site: Site):
    for p in PUBLISHED:
        for alias in p.get("aliases", []):
            page = site.resolve(site.base_path + alias.lstrip("/"))
            assert page is not None, alias
            assert f'/{p["slug"]}/' in page.read_text(encoding="utf-8")


def test_edited_posts_say_so(site: Site):
    edited = [p for p in PUBLISHED if p.get("edits")]
    assert edited
    for p in edited:
        y, m, rest = p["path"].split("/")
        html = (site.out / "posts" / y / m / rest[:2] / p["slug"] / "index.html").read_text()
        assert "edited on" in html
        for edit in p["edits"]:
            assert str(escape(edit["note"])) in html


def test_sitemap_robots_and_404(site: Site):
    urls = [u.text for u in ET.parse(site.out / "sitemap.xml").getroot().iter(
        "{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert BASE_URL in urls
    assert all(site.resolve(u) is not None for u in urls)
    assert not any("404" in u for u in urls)
    assert "Sitemap: " + BASE_URL + "sitemap.xml" in (site.out / "robots.txt").read_text()
    not_found = (site.out / "404.html").read_text(encoding="utf-8")
    assert 'href="/ftpress/posts/"' in not_found  # root-relative: works at any missing path


def test_two_builds_are_byte_identical(tmp_path: Path, demo_site: Path):
    again = FTC2007.build(tmp_path / "again")
    first = {p.relative_to(demo_site): p.read_bytes() for p in demo_site.rglob("*") if p.is_file()}
    second = {p.relative_to(again): p.read_bytes() for p in again.rglob("*") if p.is_file()}
    assert first.keys() == second.keys()
    assert [k for k in first if first[k] != second[k]] == []


def test_source_date_epoch_fixes_now(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01: before every post
    out = tmp_path / "early"
    assert main(["build", "--source", str(REPO), "--out", str(out)]) == 0
    # No post yet; the turns are recorded, so their reports are there as their pages are.
    entries = ET.parse(out / "feed.xml").getroot().findall(f"{ATOM}entry")
    assert [e.find(f"{ATOM}category").get("term") for e in entries] == ["turn"] * 10


def test_search_indexes_posts_and_pages_but_not_listings(site: Site):
    import gzip
    import json

    urls = set()
    for fragment in (site.out / "pagefind" / "fragment").iterdir():
        record = json.loads(gzip.decompress(fragment.read_bytes()).removeprefix(b"pagefind_dcd"))
        urls.add(record["url"])
    posts = {f"/posts/{p['path'][:8]}{p['path'][8:10]}/{p['slug']}/" for p in PUBLISHED}
    assert posts <= urls
    assert "/about/" in urls
    assert not any(u.startswith(("/tags/", "/kinds/", "/page/")) or u == "/" for u in urls)
    assert not any(u.startswith("/rules/2") for u in urls)  # only the current rulebook
    search = (site.out / "search/index.html").read_text()
    assert 'const base = "/ftpress/";' in search  # results link under the GitHub Pages sub-path


def test_campaign_pages_reveal_no_hidden_group(site: Site):
    """§15.3: a group's ships stay secret until contacted; §15.2: dummies look real."""
    state = FTC2007.state()
    groups = yaml.safe_load((REPO / "state/groups.yaml").read_text())["groups"]
    hidden = hidden_words(state)
    assert hidden and any(g.dummy for g in state.groups.groups)
    pages = [p for p in site.out.rglob("*.html")
             if p.relative_to(site.out).parts[0] in ("players", "systems")]
    text = "\n".join(p.read_text(encoding="utf-8") for p in pages)
    for secrets in hidden.values():
        for secret in secrets:
            assert secret not in text, secret
    for owner in {g["owner"] for g in groups}:  # dummies count as counters like any other
        page = (site.out / "players" / owner / "index.html").read_text(encoding="utf-8")
        shown = sum(int(n) for n in re.findall(r"(\d+) counters? at", page))
        assert shown == sum(1 for g in groups if g["owner"] == owner), owner
