"""The pieces every order format is written with: a turn id, a world, a destination
(a world or a hex), a player's note and a ship's name, each with the message a
player sees when it is wrong and its JSON Schema. A ruleset's order model
(``ftpress/rules/<ruleset>/orderfile.py``) builds its own format from them.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import Field, PlainValidator, Strict, WithJsonSchema

from ftpress.state.hexes import Hex
from ftpress.state.model import check_id
from ftpress.state.turns import PATTERN as TURN_PATTERN
from ftpress.text.cleantext import LINE, TEXT

_HEX_TEXT = re.compile(r"\(?\s*-?\d+\s*,\s*-?\d+\s*\)?")


#: A world as a player may write it by mistake, by its display name ('Kessel Drift'):
#: read as written, so that legality, which knows the map, can say which id it means.
_NAME_TEXT = re.compile(r"[^\W_][\w' .-]{0,99}")


def _world(value: Any) -> str:
    """A world id (``vesper``), or a world's name as written, for legality to look up."""
    if isinstance(value, str):
        text = value.strip()
        try:
            return check_id(text)
        except ValueError:
            if _NAME_TEXT.fullmatch(text):
                return text
    raise ValueError(f"expected a world id such as 'vesper', got {value!r}")


def _destination(value: Any) -> str | Hex:
    """A world id (``vesper``) or a hex: ``(2, -1)``, ``2, -1`` or ``[2, -1]``."""
    if isinstance(value, str) and _HEX_TEXT.fullmatch(value.strip()):
        return Hex.parse(value)
    if isinstance(value, str):
        try:
            return _world(value)
        except ValueError:
            pass
    elif (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        return Hex(value[0], value[1])
    if isinstance(value, str) and value.strip().startswith("(") and ")" not in value:
        raise ValueError(f"{value!r} looks like half a hex: inside {{ }} a comma ends the "
                         "value, so write the hex as [2, -1] or quote it as '(2, -1)'")
    raise ValueError(f"expected a world id such as 'vesper' or a hex such as (2, -1), "
                     f"got {value!r}")


def _turn(value: Any) -> str:
    if not isinstance(value, str) or not re.fullmatch(TURN_PATTERN, value):
        raise ValueError(f"expected a turn id such as 't004', got {value!r}")
    return value


#: What :func:`_world` and :func:`_destination` read as a world or a hex, for editors.
_WORLD_PATTERN = r"^\s*[^\W_][\w' .-]{0,99}\s*(?![\s\S])"
_PLACE_PATTERN = (r"^\s*(?:[^\W_][\w' .-]{0,99}|\(?\s*-?[0-9]+\s*,\s*-?[0-9]+\s*\)?)\s*"
                  r"(?![\s\S])")
World = Annotated[str, PlainValidator(_world), WithJsonSchema(
    {"type": "string", "description": "a world id", "pattern": _WORLD_PATTERN})]
Destination = Annotated[str | Hex, PlainValidator(_destination), WithJsonSchema({
    "oneOf": [{"type": "string", "description": "a world id, or a hex as '(q, r)'",
               "pattern": _PLACE_PATTERN},
              {"type": "array", "items": {"type": "integer"}, "minItems": 2,
               "maxItems": 2}]})]
TurnId = Annotated[str, PlainValidator(_turn), WithJsonSchema(
    {"type": "string", "pattern": TURN_PATTERN})]
Note = Annotated[str, Strict(), Field(min_length=1, max_length=2000), TEXT]
ShipName = Annotated[str, Strict(), Field(min_length=1, max_length=200), LINE]
