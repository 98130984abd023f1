"""Which of a campaign's files a command was asked about: ``ftpress check FILE...``
names files and folders, and every part of the check keeps to them."""

from __future__ import annotations

from collections.abc import Collection


def asked_about(path: str, wanted: Collection[str] | None) -> bool:
    """``path`` (relative to the campaign) is one of ``wanted`` or under a folder of it;
    every path is when nothing was named (``None``)."""
    return wanted is None or path in wanted or any(path.startswith(w + "/") for w in wanted)
