"""Lines a campaign's ``.gitignore`` must have, added when a command needs them."""

from __future__ import annotations

from pathlib import Path

from ftpress.files.write import write_file


def ensure_ignored(root: Path, *patterns: str) -> list[str]:
    """Add each of ``patterns`` that ``root/.gitignore`` lacks; the ones added."""
    ignore = root / ".gitignore"
    lines = ignore.read_text("utf-8").splitlines() if ignore.is_file() else []
    added = [p for p in patterns if p not in lines]
    if added:
        write_file(ignore, "\n".join([*lines, *added, ""]).encode("utf-8"))
    return added
