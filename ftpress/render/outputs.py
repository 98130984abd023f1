"""The set of files a build produces, kept in memory until all are rendered.

Every output path goes through :meth:`Outputs.add`, which refuses anything
that could land outside the site directory and any two pages claiming one
path; nothing reaches the disk until the whole site has rendered.
"""

from __future__ import annotations

import posixpath
from typing import Protocol

from ftpress.errors import Problem

#: Marks an inline SVG (a turn report's map or chart), or a section (its table of every
#: star system), that the index skips when written first thing in the opening tag:
#: Pagefind is given copies of such pages without them, which index exactly the same
#: and read in a fraction of the time.
UNSEARCHED = 'data-pagefind-ignore="all"'


def safe_path(path: str) -> str:
    """A normalised relative path inside the site, or ``ValueError``."""
    if not path or path.startswith(("/", "\\")) or "\\" in path or "\x00" in path:
        raise ValueError(f"output path {path!r} is not a relative path")
    norm = posixpath.normpath(path)
    if norm.startswith("../") or norm == ".." or norm != path.rstrip("/"):
        raise ValueError(f"output path {path!r} leaves the site directory or is not normalised")
    return norm


class Sink(Protocol):
    """Where rendered pages go: :class:`ftpress.files.write.Staging` for a build."""

    def put(self, path: str, data: bytes) -> bool:
        """Take one file; say whether it differs from what the output holds now."""
        ...


class Outputs:
    """Every output path of a build, who produced it, and what became of it.

    Pages are claimed when they are queued (so two things wanting one path are
    caught before any rendering) and their bytes go straight to a sink; only
    the few files made in this process (feed, sitemap, theme files) are kept in
    ``files`` until the write stage.
    """

    __slots__ = ("_folded", "_folders", "_origin", "changed", "clashes", "files", "listed",
                 "searchable")

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.clashes: list[Problem] = []
        #: Pages meant to be found (for the sitemap): not 404s, redirects or drafts.
        self.listed: list[str] = []
        #: Pages whose template marked content for the search index.
        self.searchable: list[str] = []
        #: Paths whose bytes differ from what the output folder holds.
        self.changed: set[str] = set()
        self._origin: dict[str, str] = {}
        #: Each path casefolded → the path, and each folder the paths need (casefolded) →
        #: the first path below it: what a new path must not collide with.
        self._folded: dict[str, str] = {}
        self._folders: dict[str, str] = {}

    def claim(self, path: str, origin: str) -> str | None:
        """Reserve a path; a second claim is recorded as a clash (and gets ``None``).

        So is a path that only differs from another by case (one file on a
        case-insensitive disk, a checkout on macOS or Windows) and a file where
        another output needs a folder (an alias ``/robots.txt`` is the page
        ``robots.txt/index.html``), whichever of the two comes first.
        """
        path = safe_path(path)
        if path in self._origin:
            self.clashes.append(Problem(origin, 0, 0, f"output {path!r} is produced twice: "
                                        f"also by {self._origin[path]}"))
            return None
        clash = self._clash(path)
        if clash is not None:
            other, why = clash
            self.clashes.append(Problem(_located(origin, self._origin[other]), 0, 0,
                                        f"output {path!r} of {origin} {why} {other!r} of "
                                        f"{self._origin[other]}; rename one of them (an alias "
                                        "may not take the place of another file)"))
            return None
        self._origin[path] = origin
        folded = path.casefold()
        self._folded[folded] = path
        parent = posixpath.dirname(folded)
        while parent and parent not in self._folders:
            self._folders[parent] = path
            parent = posixpath.dirname(parent)
        return path

    def _clash(self, path: str) -> tuple[str, str] | None:
        """Another output ``path`` cannot be written beside, and why."""
        folded = path.casefold()
        if folded in self._folded:
            return self._folded[folded], "differs only by case from"
        if folded in self._folders:
            return self._folders[folded], "is a file where a folder is needed by"
        parent = posixpath.dirname(folded)
        while parent:
            if parent in self._folded:
                return self._folded[parent], "needs a folder where there is the file"
            parent = posixpath.dirname(parent)
        return None

    def rendered(self, path: str, *, changed: bool, searchable: bool) -> None:
        """Note a page a sink has taken."""
        if changed:
            self.changed.add(path)
        if searchable:
            self.searchable.append(path)

    def add(self, path: str, data: bytes | str, origin: str) -> None:
        """Add one file made in this process; it is written with the rest."""
        claimed = self.claim(path, origin)
        if claimed is not None:
            self.files[claimed] = data.encode("utf-8") if isinstance(data, str) else data

    def origin(self, path: str) -> str:
        """What produced ``path``."""
        return self._origin[path]

    @property
    def paths(self) -> set[str]:
        return set(self._origin)

    def __contains__(self, path: str) -> bool:
        return path in self._origin

    def __len__(self) -> int:
        return len(self._origin)

    def pages(self) -> int:
        return sum(1 for p in self._origin if p.endswith(".html"))


def _located(new: str, old: str) -> str:
    """Where to report a clash: at the new claim's origin, unless only the old one is a
    campaign file (an origin such as ``robots`` or ``sitemap`` is no place to point at)."""
    return old if "/" in old and "/" not in new else new
