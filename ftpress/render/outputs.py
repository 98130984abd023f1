"""The set of files a build produces, kept in memory until all are rendered.

Every output path goes through :meth:`Outputs.add`, which refuses anything
that could land outside the site directory and any two pages claiming one
path; nothing reaches the disk until the whole site has rendered.
"""

from __future__ import annotations

import posixpath

from ftpress.errors import Problem


def safe_path(path: str) -> str:
    """A normalised relative path inside the site, or ``ValueError``."""
    if not path or path.startswith(("/", "\\")) or "\\" in path or "\x00" in path:
        raise ValueError(f"output path {path!r} is not a relative path")
    norm = posixpath.normpath(path)
    if norm.startswith("../") or norm == ".." or norm != path.rstrip("/"):
        raise ValueError(f"output path {path!r} leaves the site directory or is not normalised")
    return norm


class Outputs:
    """Output path → bytes, with the source that produced each (for clash messages)."""

    __slots__ = ("_origin", "clashes", "files", "listed", "searchable")

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.clashes: list[Problem] = []
        #: Pages meant to be found (for the sitemap): not 404s, redirects or drafts.
        self.listed: list[str] = []
        #: Pages whose template marked content for the search index.
        self.searchable: list[str] = []
        self._origin: dict[str, str] = {}

    def add(self, path: str, data: bytes | str, origin: str) -> None:
        """Add one file; a second claim on a path is recorded as a clash, first one kept."""
        path = safe_path(path)
        if path in self.files:
            self.clashes.append(Problem(origin, 0, 0, f"output {path!r} is produced twice: "
                                        f"also by {self._origin[path]}"))
            return
        self.files[path] = data.encode("utf-8") if isinstance(data, str) else data
        self._origin[path] = origin
        if path.endswith(".html") and b"data-pagefind-body" in self.files[path]:
            self.searchable.append(path)

    def __contains__(self, path: str) -> bool:
        return path in self.files

    def __len__(self) -> int:
        return len(self.files)

    def pages(self) -> int:
        return sum(1 for p in self.files if p.endswith(".html"))
