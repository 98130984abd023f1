"""What the "Your view" page is handed (the renderer reads no file and no rule), and
the names the page and the turn agree on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ftpress.secrecy import agekeys

#: A record's folder of sealed reports, and the site's.
FOLDER = "views"
SITE_FOLDER = "you"
#: What a report's file name hashes before the recipient: the browser hashes the same.
NAME_PREFIX = "ftpress your view\n"
#: What every sealed file's padding begins with (the page cuts a report there), and
#: the smallest size a sealed file is padded to (the page pads the orders it seals
#: as :func:`ftpress.secrecy.agekeys.pad` does, so their size says nothing either).
PAD_MARK = agekeys.PAD_MARK
PAD_BUCKET = agekeys.MIN_BUCKET


@dataclass(frozen=True, slots=True)
class YourView:
    """The page's inputs."""

    #: The latest turn's sealed reports: site path → bytes (the public site only).
    sealed: tuple[tuple[str, bytes], ...]
    #: The viewer's own report (a player's view only).
    report: dict[str, Any] | None
    open_turn: str
    #: The ids of the players whose orders for the open turn are in.
    sent: tuple[str, ...]
    #: ``OWNER/NAME`` of the campaign's repository, for GitHub's web editor; None where
    #: the site is not a GitHub Pages site.
    repository: str | None
