"""Full-text search: a Pagefind index of the written site, in ``pagefind/``.

Pagefind reads the HTML files on disk, so this runs after the write stage.
Only what the templates mark with ``data-pagefind-body`` is indexed (posts,
pages, the current rulebook, turn reports), never listings or anything a
template leaves out. The index is built in a temporary folder and synced in
like the rest of the site: unchanged files are not rewritten, stale ones go.

No ``data-pagefind-filter`` is used: Pagefind writes filter files whose names
change from run to run, and the output must be byte-reproducible.
"""

from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ftpress.write import write_tree

SEARCH_DIR = "pagefind"


class SearchError(Exception):
    """Pagefind could not index the site (not the user's input: the tool itself)."""


@dataclass(frozen=True, slots=True)
class SearchReport:
    files: int
    written: int


def _executable() -> Path:
    try:
        import pagefind_bin
    except ImportError:  # pragma: no cover - a declared dependency
        raise SearchError("pagefind is not installed; pip install 'pagefind[bin]'") from None
    return pagefind_bin.get_executable()


def glob_for(paths: list[str]) -> str:
    """A Pagefind ``--glob`` matching the searchable pages and few others.

    Pages that share a first folder and a depth (posts/*/*/*/*/index.html) become
    one pattern; the rest are named one by one. Pagefind then reads only those
    files instead of every page of the site.
    """
    groups: dict[tuple[str, int], list[str]] = {}
    for path in paths:
        parts = path.split("/")
        groups.setdefault((parts[0], len(parts)), []).append(path)
    patterns = []
    for (first, depth), members in sorted(groups.items()):
        if len(members) > 8 and depth > 2:
            last = {p.rsplit("/", 1)[1] for p in members}
            name = last.pop() if len(last) == 1 else "*.html"
            patterns.append("/".join([first] + ["*"] * (depth - 2) + [name]))
        else:
            patterns += sorted(members)
    return "{" + ",".join(patterns) + "}" if len(patterns) > 1 else (patterns or ["*.html"])[0]


def index_site(out: Path, searchable: list[str] | None = None) -> SearchReport:
    """(Re)build ``out/pagefind/`` from the HTML in ``out``; only ``searchable`` pages if given."""
    glob = ["--glob", glob_for(searchable)] if searchable else []
    with tempfile.TemporaryDirectory(prefix="ftpress-search-") as tmp:
        result = subprocess.run(
            [str(_executable()), "--site", str(out.resolve()), "--output-path", tmp, "--silent",
             *glob],
            # Pagefind reads its working folder at start; ours may be gone (a test's
            # temporary folder, say), so give it one that surely exists.
            cwd=tmp, capture_output=True, text=True, check=False)
        said = (result.stderr.strip() or result.stdout.strip())
        if result.returncode != 0 and "not able to build an index" not in said:
            raise SearchError(f"pagefind failed: {said}")
        # A site with nothing searchable yet (no post has a body) has no index.
        files = {p.relative_to(tmp).as_posix(): p.read_bytes()
                 for p in sorted(Path(tmp).rglob("*")) if p.is_file()}
    report = write_tree(out / SEARCH_DIR, files)
    return SearchReport(len(files), report.written)
