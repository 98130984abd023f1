"""The turn's orders once vetted: what each rule function of a turn reads.

A :class:`Plan` is made once per turn from every player's order file and the
state the turn starts from; the rule functions (:mod:`.reorganise`,
:mod:`.movement`, :mod:`.scouting`, …) read it and never the files.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass

from ftpress.orders.load import LoadedOrders
from ftpress.orders.model import GroupOrder, Posture
from ftpress.rules.ftc2007.orders import Movement, Vetted, vet
from ftpress.state.model import State

RULESET = "ftc2007"

#: Ruling: a group with no posture ordered this turn (it holds, or was not
#: ordered) stands off (§17.2.1): it fights only if attacked.
DEFAULT_POSTURE: Posture = "stand-off"


def rule(section: str) -> str:
    """'8.2' → 'ftc2007 §8.2', as events name their rule."""
    return f"{RULESET} §{section}"


@dataclass(frozen=True, slots=True)
class Plan:
    orders: Mapping[str, LoadedOrders]
    vetted: Mapping[str, Vetted]

    @classmethod
    def make(cls, state: State, orders: Mapping[str, LoadedOrders]) -> Plan:
        return cls(dict(orders), {player: vet(state, loaded)
                                  for player, loaded in sorted(orders.items())})

    def where(self, player: str, *loc: Hashable, key: bool = False) -> str | None:
        """'orders/t004/nac.yaml:7:5' for a place in a player's file."""
        loaded = self.orders.get(player)
        if loaded is None:
            return None
        path, line, col = loaded.where(*loc, key=key)
        return f"{path}:{line}:{col}" if line else path

    def accepted(self) -> list[tuple[str, str, GroupOrder, Movement | None]]:
        """(player, group id, order, movement) of every order that stands, by player."""
        return [(player, group_id, order, movement)
                for player, vetted in sorted(self.vetted.items())
                for group_id, (order, movement) in vetted.accepted.items()]

    def posture(self, group_id: str, player: str) -> Posture:
        vetted = self.vetted.get(player)
        found = vetted.accepted.get(group_id) if vetted else None
        if found is None or found[0].posture is None:
            return DEFAULT_POSTURE
        return found[0].posture
