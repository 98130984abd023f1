"""``sitemap.xml`` is written out directly: byte for byte what ElementTree writes."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta, timezone

from hypothesis import given, settings
from hypothesis import strategies as st

from ftpress.files.config import SiteConfig
from ftpress.render.feeds import SITEMAP, robots, sitemap
from ftpress.render.views import Urls


def _element_tree(config: SiteConfig, paths: list[str], modified: dict[str, datetime]) -> bytes:
    """The sitemap as ElementTree writes it (how ftpress made it before)."""
    urls = Urls(config)
    ET.register_namespace("", SITEMAP)
    root = ET.Element(f"{{{SITEMAP}}}urlset")
    for path in sorted(paths):
        url = ET.SubElement(root, f"{{{SITEMAP}}}url")
        ET.SubElement(url, f"{{{SITEMAP}}}loc").text = urls.absolute(path)
        if path in modified:
            ET.SubElement(url, f"{{{SITEMAP}}}lastmod").text = modified[path].isoformat(
                timespec="seconds")
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


class _Config:
    """The two fields ``Urls`` reads."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.base_path = "/" + base_url.split("/", 3)[-1]


paths = st.text(st.characters(exclude_categories=("Cc", "Cs")) | st.sampled_from("&<>\"'"),
                max_size=12).map(lambda t: f"{t}/index.html")
stamps = st.builds(lambda s, h: datetime(2026, 4, 7, tzinfo=timezone(timedelta(hours=h)))
                   + timedelta(seconds=s), st.integers(0, 10**8), st.integers(-12, 12))


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(("https://example.org/", "https://example.org/a&b/<camp>/")),
       st.lists(paths, unique=True, max_size=8), st.data())
def test_the_sitemap_is_what_element_tree_writes(base_url, chosen, data):
    config = _Config(base_url)
    modified = {p: data.draw(stamps) for p in chosen if data.draw(st.booleans())}
    assert sitemap(config, chosen, modified) == _element_tree(config, chosen, modified)


def test_an_empty_sitemap_is_what_element_tree_writes():
    config = _Config("https://example.org/")
    assert sitemap(config, [], {}) == _element_tree(config, [], {})
    assert sitemap(config, ["index.html"], {"index.html": datetime(2026, 4, 7, tzinfo=UTC)}) == (
        _element_tree(config, ["index.html"], {"index.html": datetime(2026, 4, 7, tzinfo=UTC)}))


def test_robots_txt_at_a_host_root_names_the_sitemap():
    config = SiteConfig(title="T", base_url="https://camp.example.org/")
    assert robots(config) == ("User-agent: *\nAllow: /\n\n"
                              "Sitemap: https://camp.example.org/sitemap.xml\n")


def test_robots_txt_under_a_path_says_crawlers_never_read_it_there():
    """RFC 9309 §2.3: crawlers fetch /robots.txt at the host's root only; a project
    site's copy says where its Sitemap line must go instead."""
    text = robots(SiteConfig(title="T", base_url="https://you.github.io/camp/"))
    comments = [line for line in text.splitlines() if line.startswith("#")]
    assert "https://you.github.io/robots.txt" in " ".join(comments)
    assert text.endswith("User-agent: *\nAllow: /\n\n"
                         "Sitemap: https://you.github.io/camp/sitemap.xml\n")
