"""Text from a campaign's files, made safe to print as one line of a log.

ftpress runs in CI, where the log is read by a machine before a person: a line
that starts with ``::`` (or the older ``##[``) is a GitHub Actions workflow
command (``::error``, ``::add-mask::``, ``::stop-commands::``), and a terminal
obeys escape sequences. A player chooses file names, YAML keys and notes, so
every line ftpress prints passes through :func:`escape`: no character of it
can end the line, drive a terminal or reorder what a reader sees, and it never
starts a workflow command.
"""

from __future__ import annotations

import re
import sys
from datetime import date, time

#: Starts of a line that GitHub Actions reads as a workflow command (leading blanks
#: are trimmed first).
_COMMANDS = ("::", "##[")
#: Characters that are not text: controls (C0, DEL, C1), the line and paragraph
#: separators, and the invisible formatting characters, among them the bidi
#: embeddings, overrides and isolates (U+202A–202E, U+2066–2069) and zero-width
#: spaces that make a line read differently from what it says.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff"
                     "\ufff9-\ufffb]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape(line: str) -> str:
    """``line`` as it may be printed: each unsafe character (a line break included)
    written as its escape (``\\x1b``, ``\\u202e``), and a start that would make it a
    workflow command written with its first character escaped."""
    safe = _UNSAFE.sub(_escaped, line)
    if safe.lstrip().startswith(_COMMANDS):
        blanks = len(safe) - len(safe.lstrip())
        safe = f"{safe[:blanks]}\\x{ord(safe[blanks]):02x}{safe[blanks + 1:]}"
    return safe


def say(text: object, *, err: bool = False) -> None:
    """Print ``text`` line by line, each line through :func:`escape`, on stdout (or
    stderr), flushed: how every command prints what it reports."""
    stream = sys.stderr if err else sys.stdout
    for line in str(text).split("\n"):
        print(escape(line), file=stream, flush=True)


class _Written(str):
    """Text whose repr is itself: a date or time as the file wrote it."""

    __slots__ = ()

    def __repr__(self) -> str:
        return str(self)


def _as_written(value: object) -> object:
    """``value`` with each date or time in it as written (2026-03-01), never as
    Python's repr (datetime.date(2026, 3, 1))."""
    if isinstance(value, (date, time)):
        return _Written(value.isoformat())
    if isinstance(value, list):
        return [_as_written(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_as_written(v) for v in value)
    if isinstance(value, dict):
        return {_as_written(k): _as_written(v) for k, v in value.items()}
    return value


def shown(value: object, limit: int = 60) -> str:
    """``value``'s repr, cut in the middle if long, saying how long it was (a message
    quotes what it refuses; a 70 KB note or a 5,000-digit number would drown it)."""
    text = repr(_as_written(value))
    if len(text) <= limit:
        return text
    size = len(value) if isinstance(value, (str, bytes, list, dict, tuple)) else len(text)
    return f"{text[: limit // 2]}…{text[-(limit // 4):]} ({size:,} characters)"
