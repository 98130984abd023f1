"""The calendar moving on at the end of a turn, the same in every ruleset.

When the turn is over the next opens ``turn_days`` after it, with its economic
turn counted from the turn number, and no umpire secret yet: whoever records
the turn commits the next secret's hash, which is not the rules' business. The
umpire's changes to the old turn's deadline (``ftpress calendar``) stay in its
record and do not carry over.
"""

from __future__ import annotations

import dataclasses
from datetime import timedelta

from ftpress.state.events import PUBLIC, Event
from ftpress.state.model import Calendar, State
from ftpress.state.words import moment, sentence


def advanced(state: State) -> State:
    """The state with its calendar one turn on."""
    cal = state.campaign.calendar
    number = cal.turn + 1
    new = dataclasses.replace(
        cal, turn=number, economic_turn=(number - 1) // cal.turns_per_economic_turn + 1,
        deadline=cal.deadline + timedelta(days=cal.turn_days), secret_sha256=None,
        hidden_secret_sha256=None, paused=None, changes=None)
    return dataclasses.replace(state, campaign=dataclasses.replace(state.campaign,
                                                                   calendar=new))


def turn_opened(rule: str, old: Calendar, new: Calendar, *, period: str = "turn",
                also: str = "") -> Event:
    """'Turn 3 is over; turn 4 opens, its orders due 5 April 2026, 20:00 UTC':
    ``period`` names what is over ('round'), ``also`` what else opens with the new
    turn ('economic turn 2')."""
    opens = f"{period} {new.turn} opens" + (f", and with it {also}" if also else "")
    return Event("calendar", rule, f"{sentence(period)} {old.turn} is over; {opens}; orders "
                 f"are due {moment(new.deadline)}.", audience=PUBLIC)
