"""The open turn as the site tells it: which turn, when its orders are due, who has
sent orders and who has not (never what), and, honestly, whether the deadline has
passed as the site was built (the page's script says so again by the reader's clock).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from ftpress.state.model import State
from ftpress.state.words import long_date


@dataclass(frozen=True, slots=True)
class OpenTurnView:
    number: int
    #: When its orders are due, in UTC.
    deadline: datetime
    #: The deadline had passed when the site was built.
    passed: bool
    #: The umpire has paused the deadline.
    paused: bool
    #: The powers' names: those that have sent orders, and those that have not.
    sent: tuple[str, ...]
    waiting: tuple[str, ...]

    @property
    def title(self) -> str:
        return f"Turn {self.number}"

    @property
    def deadline_utc(self) -> str:
        """The deadline as the site's dates read, in UTC: '17 May 2026, 20:00' (the
        page says 'UTC' after it)."""
        d = self.deadline
        return f"{long_date(d.date())}, {d:%H:%M}"


def open_turn(state: State, now: datetime, senders: Iterable[str]) -> OpenTurnView:
    """The campaign's open turn at ``now``: the calendar's turn, and who has sent orders
    for it (``senders``, the players' ids: the campaign store counts the files)."""
    cal = state.campaign.calendar
    players = state.players.players
    sent = set(senders)
    deadline = cal.deadline.astimezone(UTC)
    return OpenTurnView(cal.turn, deadline, now >= deadline, bool(cal.paused),
                        tuple(p.name for p in players if p.id in sent),
                        tuple(p.name for p in players if p.id not in sent))
