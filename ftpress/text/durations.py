"""Spans of time as an umpire writes them (``90m``, ``6h``, ``2d``), and as a
reader is told them (``2 days 3 hours``): for the deadline's grace, its
extensions, and how late or early something is."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

#: ``0``, or a whole number of minutes, hours or days.
PATTERN = r"^(0|[1-9][0-9]{0,4}[mhd])$"
_UNITS = {"m": timedelta(minutes=1), "h": timedelta(hours=1), "d": timedelta(days=1)}
EXAMPLE = "a number of minutes, hours or days, such as 90m, 6h or 2d"


def parse(text: str) -> timedelta:
    """``text`` as a span; ``ValueError`` (with the form expected) when it is not one."""
    given = text.strip()
    if not re.fullmatch(PATTERN, given):
        raise ValueError(f"{text!r} is not a span of time; expected {EXAMPLE}")
    if given == "0":
        return timedelta(0)
    return int(given[:-1]) * _UNITS[given[-1]]


def spoken(span: timedelta) -> str:
    """``span`` in words to the minute, its two largest units: '2 days 3 hours',
    '45 minutes', 'less than a minute'."""
    minutes = int(abs(span).total_seconds()) // 60
    parts = []
    for name, size in (("day", 24 * 60), ("hour", 60), ("minute", 1)):
        count, minutes = divmod(minutes, size)
        if count:
            parts.append(f"{count} {name}{'s' if count != 1 else ''}")
    return " ".join(parts[:2]) or "less than a minute"


def utc(when: datetime) -> str:
    """A moment as every reader can read it: '2026-03-08 20:00 UTC'."""
    return f"{when.astimezone(UTC):%Y-%m-%d %H:%M} UTC"


def relative(when: datetime, now: datetime) -> str:
    """'in 3 hours 10 minutes' or '2 days 1 hour ago'."""
    return f"in {spoken(when - now)}" if when >= now else f"{spoken(now - when)} ago"
