"""Whether the open turn takes orders now: not after its deadline and grace, and
not while it is paused for battles fought on the tabletop.

The orders check (``ftpress check-pr``) refuses a pull request for a turn that
is closed; it reads nothing of the files to decide. It is the envelope's part
of the check, which a sealed order file gets as a plain one does.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from ftpress.state.model import Calendar
from ftpress.state.turns import turn_id
from ftpress.text import durations


@dataclass(frozen=True, slots=True)
class Window:
    turn: str
    deadline: datetime
    grace: timedelta
    #: The battle-result files of the open turn on the base revision: the turn paused
    #: for them, and waits for the umpire to fill them in.
    battles: tuple[str, ...] = ()
    #: The umpire has paused the deadline: no orders are late meanwhile.
    paused: bool = False

    @classmethod
    def of(cls, calendar: Calendar, battles: tuple[str, ...] = ()) -> Window:
        grace = durations.parse(calendar.grace) if calendar.grace else timedelta(0)
        return cls(turn_id(calendar.turn), calendar.deadline, grace, battles,
                   bool(calendar.paused))

    def closed(self, now: datetime) -> str | None:
        """Why orders for the open turn are refused at ``now``, or None."""
        if self.battles:
            count = len(self.battles)
            return (f"{self.turn} is paused for {count} battle{'s' if count != 1 else ''} "
                    f"fought on the tabletop ({', '.join(self.battles)}): its orders are "
                    "closed, and it resolves with the orders merged before it paused")
        if self.paused or now <= self.deadline + self.grace:
            return None
        grace = (f", and its grace of {durations.spoken(self.grace)} ended "
                 f"{durations.utc(self.deadline + self.grace)}" if self.grace else "")
        return (f"orders for {self.turn} were due {durations.utc(self.deadline)} "
                f"({durations.relative(self.deadline, now)}){grace}; the turn is resolved "
                "without them unless the umpire extends the deadline "
                "(ftpress calendar extend)")
