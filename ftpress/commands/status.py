"""``ftpress status``: the open turn, when its orders are due, who has sent them.

"Due" is the one question ``ftpress turn --if-due`` asks: a turn is due when its
deadline has passed, or when every player has an order file in
``orders/<turn-id>/``, plain or sealed (nobody is left to wait for). The files are only counted
here; ``ftpress turn`` reads and re-validates each one before folding it in.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ftpress.errors import InputError, Problem
from ftpress.files.clock import build_now
from ftpress.state.turns import turn_id
from ftpress.store import open_at_hand
from ftpress.store.campaign import load_state
from ftpress.text.logsafe import say


@dataclass(frozen=True, slots=True)
class TurnStatus:
    turn: str
    deadline: datetime
    now: datetime
    #: Player ids with an order file for the open turn, and without one.
    submitted: tuple[str, ...]
    missing: tuple[str, ...]
    #: The umpire has paused the deadline (``ftpress calendar pause``).
    paused: bool = False

    @property
    def past_deadline(self) -> bool:
        return self.now >= self.deadline

    @property
    def due(self) -> bool:
        """Resolve now? The deadline has passed or every player has sent orders, and
        the umpire has not paused it."""
        return not self.paused and (self.past_deadline or not self.missing)

    def reason(self) -> str:
        if self.paused:
            return "the umpire has paused its deadline (ftpress calendar resume)"
        if self.past_deadline:
            return f"its orders were due {self.deadline.isoformat(sep=' ')}"
        if not self.missing:
            return "every player has sent orders"
        return (f"its orders are due {self.deadline.isoformat(sep=' ')} and "
                f"{len(self.missing)} player{'s have' if len(self.missing) != 1 else ' has'} "
                "not sent any")

    def lines(self) -> list[str]:
        total = len(self.submitted) + len(self.missing)
        return [
            f"open turn: {self.turn}",
            f"orders due: {self.deadline.isoformat(sep=' ')}"
            + (" (paused)" if self.paused else " (passed)" if self.past_deadline else ""),
            f"submitted ({len(self.submitted)} of {total}): "
            + (", ".join(self.submitted) or "nobody yet"),
            f"not submitted: {', '.join(self.missing) or 'nobody'}",
            f"due: {'yes' if self.due else 'no'}, {self.reason()}",
        ]


def turn_status(root: Path, now: datetime) -> TurnStatus:
    """The open turn of the campaign at ``root`` as it stands at ``now``."""
    loaded = load_state(root)
    if loaded is None:
        raise InputError([Problem("state", 0, 0, "this campaign has no state; expected "
                                  "state/campaign.yaml and the rest")])
    state = loaded.state
    cal = state.campaign.calendar
    turn = turn_id(cal.turn)
    players = [p.id for p in state.players.players]
    submitted = open_at_hand(root).senders(turn, players)
    missing = tuple(p for p in players if p not in submitted)
    return TurnStatus(turn, cal.deadline, now, submitted, missing, bool(cal.paused))


# --- the command ----------------------------------------------------------------------

def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--now", help="the time as an ISO date-time (default: "
                        "SOURCE_DATE_EPOCH, else the clock)")
    parser.add_argument("--source", type=Path, default=Path())


def run(args: argparse.Namespace) -> int:
    for line in turn_status(args.source, build_now(args.now)).lines():
        say(line)
    return 0
