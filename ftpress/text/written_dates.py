"""Dates and times as a hand-written file must give them: written as dates.

Pydantic, left to itself, reads a number where a date is due as seconds since
1970 (``deadline: 5`` is due on the first day of 1970; a post dated ``5`` was
written then), while the published JSON Schemas say a date is text. Every date
field of a campaign file takes one of these types instead, so a number is refused
at its line, as an editor refuses it.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any

from pydantic import AwareDatetime, BeforeValidator


def written_as(example: str) -> BeforeValidator:
    """A validator refusing a number where ``example`` is due."""
    def check(value: Any) -> Any:
        if isinstance(value, (int, float)):
            raise ValueError(f"expected {example}, got {value!r}")
        return value
    return BeforeValidator(check)


#: A day (``2026-03-09``).
Day = Annotated[date, written_as("a date such as 2026-03-09")]
#: A moment with its time zone (``2026-05-17T20:00:00+00:00``).
Moment = Annotated[AwareDatetime, written_as("a date and time with its zone, such as "
                                             "2026-05-17T20:00:00+00:00")]
#: A day, or a moment with or without its zone (a post's date and its edits').
Stamp = Annotated[datetime | date, written_as("a date such as 2026-04-07, or a date and "
                                              "time such as 2026-04-07T21:14:00+01:00")]
