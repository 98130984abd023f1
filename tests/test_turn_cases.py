"""The ftc2007 turn case table: one YAML case per rule clause in tests/turns/ftc2007/.

Each case gives a small state (see ``turnfixture``, and ``battlefixture`` for the
prizes a player holds when the turn opens), each player's orders, the dice, and
what must come of it, as :mod:`caserunner` reads it. Holds, missing orders, the
calendar and contact are left out of the events compared unless the case says
``every_event: true`` (or shows them). Every case also checks that each player's
treasury changed by the sum of the ``amount`` of their events.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from battlefixture import with_prizes
from caserunner import CaseTable
from turnfixture import build_state

from ftpress.state.events import Event
from ftpress.state.model import State


def _state(spec: dict[str, Any]) -> State:
    return with_prizes(build_state(spec), spec.get("prizes", {}))


def _money_adds_up(before: State, after: State, events: Sequence[Event]) -> None:
    """Each player's treasury moved by the sum of the amounts of their events."""
    for player in before.players.players:
        moved = sum(e.amount or 0 for e in events if e.player == player.id)
        assert after.player(player.id).treasury - player.treasury == moved, player.id


TABLE = CaseTable("ftc2007", _state, quiet=frozenset(
    {"calendar", "unordered", "no-orders", "hold", "contact"}), minimum=20,
    invariants=_money_adds_up)


def test_there_are_enough_cases():
    TABLE.check_enough()


@pytest.mark.parametrize("path", TABLE.cases, ids=TABLE.ids)
def test_case(path):
    TABLE.run(path)
