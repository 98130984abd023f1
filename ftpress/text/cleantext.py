"""Free text with nothing hidden in it: what a name, a title, a note or a post may hold.

Every free-text field of every campaign file (players' order files and the
umpire's state, posts and pages alike) is one of the two types here, and a post's
or a page's body is checked with :func:`unclean`. Refused, with the character's
code point and name:

- control characters (C0 and C1, DEL): ESC drives a terminal, NUL and BEL are no
  text, and none of them may appear in an XML feed;
- the bidi embeddings, overrides and isolates (U+202A–202E, U+2066–2069) and the
  Arabic letter mark: they make text display in another order than it is
  written ("Trojan Source");
- invisible characters that make two different texts look the same: zero-width
  space, word joiner, the invisible operators, a byte-order mark inside text,
  the left-to-right and right-to-left marks.

A tab and a line break are text where the field may hold more than one line
(:data:`CleanText`: notes, summaries, bodies), and refused in a name or a title
(:data:`CleanLine`). The zero-width joiner and non-joiner stay allowed: emoji
sequences and several scripts need them.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Annotated

from pydantic import AfterValidator, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

_HIDDEN = ("\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u202a-\u202e"
           "\u2060-\u2064\u2066-\u2069\ufeff")
#: What no text may hold (a carriage return only as half of a Windows line break).
_IN_TEXT = re.compile(f"[{_HIDDEN}]|\r(?!\n)")
#: What a one-line text may not hold: the same, and tabs and line breaks.
_IN_LINE = re.compile(f"[{_HIDDEN}\t\n\r\u2028\u2029]")


#: Names of the controls a message names (unicodedata has none for controls).
_CONTROLS = {"\0": "NULL", "\a": "BELL", "\b": "BACKSPACE", "\t": "TAB", "\n": "LINE FEED",
             "\r": "CARRIAGE RETURN", "\x1b": "ESCAPE", "\x7f": "DELETE"}


def unclean(text: str, *, lines: bool = True) -> int | None:
    """The index of the first character ``text`` may not hold, or None if it is clean.

    ``lines``: whether tabs and line breaks are allowed (a note, a body).
    """
    found = (_IN_TEXT if lines else _IN_LINE).search(text)
    return None if found is None else found.start()


def describe(char: str) -> str:
    """``U+202E (RIGHT-TO-LEFT OVERRIDE)``: a character as a message names it."""
    name = unicodedata.name(char, "") or _CONTROLS.get(char, "CONTROL")
    return f"U+{ord(char):04X} ({name})"


def refusal(char: str, *, lines: bool = True) -> str:
    """Why ``char`` is refused, and what to do."""
    if not lines and char in "\t\n\r\u2028\u2029":
        return (f"character {describe(char)} is not allowed here; expected a single line "
                "of text")
    return (f"character {describe(char)} is not allowed in text (a control, bidi or "
            "invisible character); remove it")


#: The same in a JSON Schema's ``pattern``, for editors (ECMA-262 escapes; the text's
#: end as ``(?![\\s\\S])``, since a ``$`` lets a last line break through in Python's
#: regular expressions, which check-jsonschema uses).
_HIDDEN_ESCAPED = "".join(f"\\u{ord(c):04x}" if c not in "-" else c for c in _HIDDEN)
END = "(?![\\s\\S])"
TEXT_PATTERN = f"^(?:[^{_HIDDEN_ESCAPED}\\r]|\\r\\n)*{END}"
LINE_PATTERN = f"^[^{_HIDDEN_ESCAPED}\\t\\n\\r\\u2028\\u2029]*{END}"


@dataclass(frozen=True, slots=True)
class _Checked(AfterValidator):
    """The check, and its pattern in the field's JSON Schema."""

    pattern: str = ""

    def __get_pydantic_json_schema__(self, core: CoreSchema,
                                     handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        schema = handler(core)
        if "pattern" in schema:
            return {"allOf": [schema, {"pattern": self.pattern}]}
        return {**schema, "pattern": self.pattern}


def _check(lines: bool) -> AfterValidator:
    def check(value: str) -> str:
        at = unclean(value, lines=lines)
        if at is None:
            return value
        where = f" (character {at + 1} of the text)" if at else ""
        raise ValueError(refusal(value[at], lines=lines) + where)

    return _Checked(check, TEXT_PATTERN if lines else LINE_PATTERN)


#: The checks themselves, to end the metadata of a field with other constraints
#: (``Annotated[str, Field(max_length=200), LINE]``: after them, so that their
#: messages stay about a string).
TEXT, LINE = _check(lines=True), _check(lines=False)
#: Free text of any length: notes, summaries, descriptions.
CleanText = Annotated[str, TEXT]
#: Free text on one line: names, titles.
CleanLine = Annotated[str, LINE]
