"""The turn's orders once vetted, and how sct events name their rule."""

from __future__ import annotations

from dataclasses import dataclass

from ftpress.rules.planning import VettedPlan, section_namer
from ftpress.rules.sct.orderfile import ForceOrder, SctOrders
from ftpress.rules.sct.orders import Vetted, vet
from ftpress.state import words
from ftpress.state.events import PUBLIC
from ftpress.state.model import State

RULESET = "sct"

#: Ruling: seed 001 keeps nothing secret — no dummy counters and no hidden contents —
#: so every sct task force is ``revealed``, the site names its ships and every event
#: is public but the laying of a keel (:mod:`.economy`).
FORCES_ARE_PUBLIC = True

rule = section_namer(RULESET)


@dataclass(frozen=True, slots=True)
class Plan(VettedPlan[SctOrders, Vetted]):
    """Every player's orders and what of them stands, made once per turn."""

    vet = staticmethod(vet)

    def file(self, player: str) -> SctOrders | None:
        loaded = self.orders.get(player)
        return loaded.orders if loaded is not None else None

    def force(self, player: str, force_id: str) -> ForceOrder | None:
        """The standing order of a player's task force, if it has one."""
        vetted = self.vetted.get(player)
        return vetted.accepted.get(force_id) if vetted else None


def force(state: State, force_id: str, *, start: bool = False) -> str:
    """A task force as the public events name it ('a task force of the Eastern Star
    Union'): its id is its owner's label, though what it holds is public (§1.1)."""
    return words.group(state, force_id, PUBLIC, noun="task force", start=start)
