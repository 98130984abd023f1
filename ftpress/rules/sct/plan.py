"""The turn's orders once vetted, and how sct events name their rule."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass

from ftpress.orders.load import LoadedOrders
from ftpress.rules.sct.orderfile import ForceOrder, SctOrders
from ftpress.rules.sct.orders import Vetted, vet
from ftpress.state.model import State

RULESET = "sct"

#: Ruling: seed 001 keeps nothing secret — no dummy counters and no hidden contents —
#: so every sct task force is ``revealed`` and the site names its ships.
FORCES_ARE_PUBLIC = True


def rule(section: str) -> str:
    """'4.2' → 'sct §4.2', as events name their rule."""
    return f"{RULESET} §{section}"


@dataclass(frozen=True, slots=True)
class Plan:
    """Every player's orders and what of them stands, made once per turn."""

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

    def file(self, player: str) -> SctOrders | None:
        loaded = self.orders.get(player)
        return loaded.orders if loaded is not None else None

    def force(self, player: str, force_id: str) -> ForceOrder | None:
        """The standing order of a player's task force, if it has one."""
        vetted = self.vetted.get(player)
        return vetted.forces.get(force_id) if vetted else None
