"""Turn ids: how a strategic turn is named in folders and URLs.

A turn id is ``t`` and the strategic turn's number, at least three digits:
``t001`` is the first week of the campaign, ``t012`` the twelfth, ``t1000``
the thousandth. ``t000`` is the setup: the state as generated, before any
orders. Ids sort in turn order as plain strings up to ``t999``, are safe in
paths and URLs, and cannot be misread by YAML as numbers.

``state/turns/<turn-id>/`` holds a turn's immutable snapshot: the state files
as they stood when that turn was done (for ``t000``, the starting state) and
``dice.yaml``, every die rolled to make it. ``orders/<turn-id>/`` holds the
orders given for that turn.
"""

from __future__ import annotations

import re

TURNS_DIR = "state/turns"
SETUP = "t000"
PATTERN = r"^t(?:\d{3}|[1-9]\d{3,})$"
_TURN_ID = re.compile(PATTERN)


def turn_id(number: int) -> str:
    """7 → 't007'."""
    if number < 0:
        raise ValueError(f"a turn number cannot be negative, not {number}")
    return f"t{number:03d}"


def turn_number(text: str) -> int:
    """'t007' → 7; ``ValueError`` for anything that is not a turn id."""
    if not _TURN_ID.fullmatch(text):
        raise ValueError(f"{text!r} is not a turn id; expected 't' and the strategic turn's "
                         "number in at least three digits, such as 't007'")
    return int(text[1:])
