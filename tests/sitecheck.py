"""Reading a built site the way a browser and a crawler would, for tests."""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit


@dataclass
class PageScan:
    ids: set[str] = field(default_factory=set)
    links: list[str] = field(default_factory=list)
    title: str = ""
    description: str | None = None
    #: The title of every post the page lists, as a card or as a line of an archive.
    card_titles: list[str] = field(default_factory=list)


class _Scanner(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scan = PageScan()
        self._in_title = False
        self._card_depth = 0
        self._card_text: list[str] | None = None
        self._card_end = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.scan.ids.add(a["id"])
        if tag == "a" and a.get("name"):
            self.scan.ids.add(a["name"])
        for key in ("href", "src"):
            if a.get(key) and tag in ("a", "link", "img", "script"):
                self.scan.links.append(a[key])
        if tag == "title":
            self._in_title = True
        if tag == "meta" and a.get("name") == "description":
            self.scan.description = a.get("content")
        if tag in ("h2", "h3") and "card-title" in (a.get("class") or ""):
            self._card_text, self._card_end = [], tag
        if tag == "a" and a.get("class") == "post-line-title":
            self._card_text, self._card_end = [], tag

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        if tag == self._card_end and self._card_text is not None:
            self.scan.card_titles.append("".join(self._card_text).strip())
            self._card_text = None

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.scan.title += data
        if self._card_text is not None:
            self._card_text.append(data)


def scan(path: Path) -> PageScan:
    parser = _Scanner()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.scan


class Site:
    """A built site folder, with URL → file resolution under its base path."""

    def __init__(self, out: Path, base_url: str) -> None:
        self.out = out
        self.base_url = base_url
        self.base_path = urlsplit(base_url).path
        self._scans: dict[Path, PageScan] = {}

    def pages(self) -> Iterator[Path]:
        yield from sorted(self.out.rglob("*.html"))

    def scan(self, file: Path) -> PageScan:
        if file not in self._scans:
            self._scans[file] = scan(file)
        return self._scans[file]

    def url_of(self, file: Path) -> str:
        rel = file.relative_to(self.out).as_posix()
        return self.base_path + rel.removesuffix("index.html")

    def resolve(self, url: str) -> Path | None:
        """The file a root-relative or absolute URL of this site points at."""
        parts = urlsplit(url)
        path = unquote(parts.path)
        if not path.startswith(self.base_path):
            return None
        target = self.out / path[len(self.base_path):]
        if path.endswith("/") or target.is_dir():
            target = target / "index.html"
        return target if target.is_file() else None

    def broken_links(self) -> list[str]:
        """Every internal link or anchor in every page that does not resolve."""
        broken: list[str] = []
        for file in self.pages():
            page_url = self.base_url + self.url_of(file)[len(self.base_path):]
            for link in self.scan(file).links:
                if link.startswith(("mailto:", "data:")):
                    continue
                absolute = urljoin(page_url, link)
                if not absolute.startswith(self.base_url.rstrip("/")):
                    continue  # another site
                target = self.resolve(urlsplit(absolute).path)
                if target is None:
                    broken.append(f"{file.relative_to(self.out)}: {link}")
                    continue
                fragment = urlsplit(absolute).fragment
                if fragment and target.suffix == ".html" and fragment not in self.scan(target).ids:
                    broken.append(f"{file.relative_to(self.out)}: {link} (no such anchor)")
        return broken


def all_text(out: Path) -> str:
    """Every text file of a built site, plus the decompressed search index."""
    parts: list[str] = []
    for file in sorted(out.rglob("*")):
        if not file.is_file():
            continue
        data = file.read_bytes()
        if file.suffix == ".pf_fragment" or file.suffix == ".pf_meta":
            data = gzip.decompress(data)
        if file.suffix in (".html", ".xml", ".txt", ".css", ".json", ".svg",
                           ".pf_fragment", ".pf_meta"):
            parts.append(data.decode("utf-8", errors="replace"))
    return "\n".join(parts)
