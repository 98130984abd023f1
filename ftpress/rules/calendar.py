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

from ftpress.events import PUBLIC, Event
from ftpress.state.model import Calendar, State
from ftpress.state.turns import turn_id


def advanced(state: State) -> State:
    """The state with its calendar one turn on."""
    cal = state.campaign.calendar
    number = cal.turn + 1
    new = dataclasses.replace(
        cal, turn=number, economic_turn=(number - 1) // cal.turns_per_economic_turn + 1,
        deadline=cal.deadline + timedelta(days=cal.turn_days), secret_sha256=None,
        paused=None, changes=None)
    return dataclasses.replace(state, campaign=dataclasses.replace(state.campaign,
                                                                   calendar=new))


def turn_opened(rule: str, old: Calendar, new: Calendar, *, period: str = "Turn",
                also: str = "") -> Event:
    """'Turn t003 is over; t004 opens, orders due …': ``period`` names what is over,
    ``also`` what else opens with the new turn (its text follows the turn's id)."""
    return Event("calendar", rule, f"{period} {turn_id(old.turn)} is over; "
                 f"{turn_id(new.turn)}{also} opens, orders due "
                 f"{new.deadline.isoformat(sep=' ')}.", audience=PUBLIC)
