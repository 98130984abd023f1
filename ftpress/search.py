"""Full-text search: a Pagefind index of the written site, in ``pagefind/``.

Pagefind reads HTML files on disk: the pages a build marks searchable, as soon
as they are rendered (:class:`Indexing`), so that it can run beside the rest of
the build. Only what the templates mark with ``data-pagefind-body`` is indexed
(posts, pages, the current rulebook, turn reports), never listings or anything
a template leaves out. The index is built in a temporary folder and synced in
like the rest of the site: unchanged files are not rewritten, stale ones go.

No ``data-pagefind-filter`` is used: Pagefind writes filter files whose names
change from run to run, and the output must be byte-reproducible.
"""

from __future__ import annotations

import os
import shutil
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


class Indexing:
    """A Pagefind run over a set of pages, started in the background.

    Pagefind reads a folder of its own holding only the pages to index, linked
    (not copied) from wherever their bytes are now: the build's staging folder
    for pages that changed, the output for the rest. So it can start as soon as
    those pages are rendered, while the build goes on with the others, and it
    reads no page it would skip. The index is the same as Pagefind makes from the
    whole written site: it skips pages without ``data-pagefind-body`` anyway.
    """

    def __init__(self, pages: dict[str, Path], scratch: Path) -> None:
        """Start indexing ``pages`` (output path → file with its bytes); ``scratch``
        is a folder on the same disk as those files, for the links."""
        self.pages = frozenset(pages)
        # Absolute: Pagefind runs in a folder of its own.
        self._site = Path(tempfile.mkdtemp(prefix=".ftpress-search-", dir=scratch)).resolve()
        self._output = Path(tempfile.mkdtemp(prefix="ftpress-search-")).resolve()
        try:
            for path, file in sorted(pages.items()):
                target = self._site / path
                target.parent.mkdir(parents=True, exist_ok=True)
                try:
                    os.link(file, target)
                except OSError:  # another disk, or no hard links there
                    shutil.copyfile(file, target)
            self._process = subprocess.Popen(
                [str(_executable()), "--site", str(self._site), "--output-path",
                 str(self._output), "--silent"],
                # Pagefind reads its working folder at start; ours may be gone (a test's
                # temporary folder, say), so give it one that surely exists.
                cwd=self._output, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True)
        except BaseException:
            self._clean()
            raise

    def finish(self, out: Path) -> SearchReport:
        """Wait for Pagefind and sync its index into ``out/pagefind/``."""
        try:
            stdout, stderr = self._process.communicate()
            said = stderr.strip() or stdout.strip()
            if self._process.returncode != 0 and "not able to build an index" not in said:
                raise SearchError(f"pagefind failed: {said}")
            # A site with nothing searchable yet (no post has a body) has no index.
            files = {p.relative_to(self._output).as_posix(): p.read_bytes()
                     for p in sorted(self._output.rglob("*")) if p.is_file()}
        finally:
            self._clean()
        report = write_tree(out / SEARCH_DIR, files)
        return SearchReport(len(files), report.written)

    def cancel(self) -> None:
        """Stop Pagefind and drop what it made."""
        process = getattr(self, "_process", None)
        if process is not None:
            if process.poll() is None:
                process.kill()
            process.communicate()  # reaps it and closes its pipes
        self._clean()

    def _clean(self) -> None:
        shutil.rmtree(self._site, ignore_errors=True)
        shutil.rmtree(self._output, ignore_errors=True)


def index_site(out: Path, searchable: list[str]) -> SearchReport:
    """(Re)build ``out/pagefind/`` from the ``searchable`` pages written in ``out``."""
    return Indexing({p: out / p for p in searchable}, out).finish(out)
