""""Did you mean …?" for an id an order file gets wrong: a misspelt id
(``kesel-drift``) or a thing written by its display name (``Kessel Drift``).

Every ruleset's legality messages use it, so the same slip gets the same answer
whichever ruleset the campaign plays.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

#: How alike a misspelling and an id must be (difflib's ratio) to be suggested.
CUTOFF = 0.75

#: How alike two spellings with the same letters in another order count: a swap of
#: two letters in a short id ('nca') is a likelier slip than another id of its kind.
_SWAPPED = 0.9

_NOT_ID = re.compile(r"[^a-z0-9]+")


def slug(text: str) -> str:
    """``text`` as an id would spell it: 'Kessel Drift' → 'kessel-drift'."""
    return _NOT_ID.sub("-", text.lower()).strip("-")


def closest(written: object, known: Iterable[tuple[str, str]]) -> str | None:
    """The one id that ``written`` most likely means, or None.

    ``known`` is ``(id, display name)`` pairs. A display name, or an id in other
    capitals or spacing, names its id; otherwise the id (or name) spelt most like it,
    if exactly one is closest: among nac-1 … nac-6, 'nac-7' suggests none.
    """
    if not isinstance(written, str):
        return None
    wanted = slug(written)
    pairs = list(known)
    for id_, name in pairs:
        if wanted in (id_, slug(name)):
            return id_ if id_ != written else None
    spelt: dict[str, float] = {}
    for id_, name in pairs:
        for form in (id_, slug(name)):
            ratio = difflib.SequenceMatcher(None, wanted, form).ratio()
            if sorted(wanted) == sorted(form):
                ratio = max(ratio, _SWAPPED)  # letters swapped: 'nca' for 'nac'
            if ratio >= CUTOFF and ratio > spelt.get(id_, 0.0):
                spelt[id_] = ratio
    if not spelt:
        return None
    best = max(spelt.values())
    ids = [id_ for id_, ratio in spelt.items() if ratio == best]
    return ids[0] if len(ids) == 1 else None


def did_you_mean(written: object, known: Iterable[tuple[str, str]]) -> str:
    """``"; did you mean 'kessel-drift'?"`` to end a message with, or ``""``."""
    found = closest(written, known)
    return f"; did you mean {found!r}?" if found else ""


def aside(written: object, known: Iterable[tuple[str, str]]) -> str:
    """``" (did you mean 'nac-1'?)"`` for the middle of a message, or ``""``."""
    found = closest(written, known)
    return f" (did you mean {found!r}?)" if found else ""
