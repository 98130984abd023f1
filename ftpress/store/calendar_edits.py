"""The umpire's changes to the open turn's deadline: extend it, pause it, resume it.

Each is recorded on the calendar (``calendar.changes`` in ``state/campaign.yaml``),
when it was made, what it did and the deadline after it, so the site, the
reminders and the orders check read the same deadline, and the turn's record
keeps what the umpire did (the state it started from). Only
``state/campaign.yaml`` is written.

While paused the turn is never due and no orders are late; resuming moves the
deadline on by as long as the pause lasted.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta
from pathlib import Path

from ftpress.errors import InvalidArgument, RefusedCommand
from ftpress.state.model import Calendar, DeadlineChange, State
from ftpress.state.turns import turn_id
from ftpress.store.state_edits import current_state, write_state_file
from ftpress.text import durations


def extend(root: Path, by: str, now: datetime) -> str:
    try:
        span = durations.parse(by)
    except ValueError as exc:
        raise InvalidArgument(f"calendar extend {exc}") from None
    if not span:
        raise InvalidArgument("calendar extend 0: expected a span to extend the deadline by, "
                              "such as 2d")
    state = current_state(root)
    cal = state.campaign.calendar
    if cal.paused:
        raise RefusedCommand(f"{turn_id(cal.turn)}'s deadline is paused; resume it first "
                             "(ftpress calendar resume)")
    deadline = cal.deadline + span
    _save(root, state, dataclasses.replace(cal, deadline=deadline),
          DeadlineChange(now, "extend", deadline, by.strip()))
    return (f"{turn_id(cal.turn)}'s orders are now due {durations.utc(deadline)}, "
            f"{durations.spoken(span)} later than {durations.utc(cal.deadline)}")


def pause(root: Path, now: datetime) -> str:
    state = current_state(root)
    cal = state.campaign.calendar
    if cal.paused:
        raise RefusedCommand(f"{turn_id(cal.turn)}'s deadline is paused already; nothing "
                             "changed")
    _save(root, state, dataclasses.replace(cal, paused=True), DeadlineChange(now, "pause"))
    return (f"{turn_id(cal.turn)}'s deadline ({durations.utc(cal.deadline)}) is paused: the "
            "turn is not due and no orders are late until ftpress calendar resume")


def resume(root: Path, now: datetime) -> str:
    state = current_state(root)
    cal = state.campaign.calendar
    since = next((c.at for c in reversed(cal.changes or ()) if c.change == "pause"), None)
    if not cal.paused or since is None:
        raise RefusedCommand(f"{turn_id(cal.turn)}'s deadline is not paused; nothing changed")
    lasted = max(now - since, timedelta(0))
    deadline = cal.deadline + lasted
    _save(root, state, dataclasses.replace(cal, deadline=deadline, paused=None),
          DeadlineChange(now, "resume", deadline))
    return (f"{turn_id(cal.turn)}'s deadline runs again: orders are due "
            f"{durations.utc(deadline)}, {durations.spoken(lasted)} later, as long as the "
            "pause lasted")


def _save(root: Path, state: State, calendar: Calendar, change: DeadlineChange) -> None:
    calendar = dataclasses.replace(calendar, changes=(*(calendar.changes or ()), change))
    write_state_file(root, dataclasses.replace(
        state, campaign=dataclasses.replace(state.campaign, calendar=calendar)), "campaign")
