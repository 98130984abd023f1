"""Symbolic links inside a campaign are refused, never followed.

A campaign's files come from many hands through Git, which stores a symbolic
link as a link: one under ``content/``, ``themes/``, ``state/``, ``orders/`` or
``battles/`` could make a build publish ``/etc/passwd``, a template show the
environment, or ``ftpress check`` read ``/proc/self/environ``. Every reader of a
campaign file goes through :func:`linked` (:func:`ftpress.files.yamlsource.read_bytes`
does for every YAML and Markdown file, the theme for its templates and static
files), so a link anywhere on the way to a file is reported at its own path with
:data:`REFUSAL` and nothing behind it is read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath

from ftpress.errors import Problem

REFUSAL = "is a symbolic link; not followed (a campaign's files must be ordinary files)"


def linked(file: Path, rel: str) -> str | None:
    """The first of ``rel``'s steps that is a symbolic link, as a campaign path; None if
    there is none. ``file`` is the file itself and ``rel`` its path in the campaign (the
    steps checked are those ``rel`` names, from the campaign's folder down)."""
    parts = PurePosixPath(rel).parts
    if not parts or PurePosixPath(rel).is_absolute() or ".." in parts:
        return None  # not a campaign path (one of ftpress's own files)
    base = file
    for _ in parts[1:]:
        base = base.parent
    step = base
    for depth in range(len(parts)):
        try:
            if stat.S_ISLNK(os.lstat(step).st_mode):
                return "/".join(parts[: depth + 1])
        except OSError:
            return None  # missing: the reader reports that
        if depth + 1 < len(parts):
            step = step / parts[depth + 1]
    return None


def link_problem(file: Path, rel: str) -> Problem | None:
    """The problem of a symbolic link on the way to ``file`` (see :func:`linked`)."""
    link = linked(file, rel)
    return None if link is None else Problem(link, 0, 0, REFUSAL)


def links_below(folder: Path, rel: str) -> list[Problem]:
    """A problem for every symbolic link below ``folder`` (campaign path ``rel``), and
    for ``folder`` itself if it is one; links to folders are not walked into."""
    if folder.is_symlink():
        return [Problem(rel, 0, 0, REFUSAL)]
    found = []
    for dirpath, dirnames, filenames in os.walk(folder):  # os.walk never follows links
        here = PurePosixPath(rel) / Path(dirpath).relative_to(folder).as_posix()
        for name in (*dirnames, *filenames):
            if (Path(dirpath) / name).is_symlink():
                found.append(Problem(str(here / name), 0, 0, REFUSAL))
    return sorted(found)
