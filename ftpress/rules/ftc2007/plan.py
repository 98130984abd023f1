"""The turn's orders once vetted: what each rule function of a turn reads.

A :class:`Plan` is made once per turn from every player's order file and the
state the turn starts from; the rule functions (:mod:`.reorganise`,
:mod:`.movement`, :mod:`.scouting`, …) read it and never the files.
"""

from __future__ import annotations

from dataclasses import dataclass

from ftpress.rules.ftc2007.orderfile import GroupOrder, OrdersFile, Posture
from ftpress.rules.ftc2007.orders import Movement, Vetted, vet
from ftpress.rules.planning import VettedPlan

#: Ruling: a group with no posture ordered this turn (it holds, or was not
#: ordered) stands off (§17.2.1): it fights only if attacked.
DEFAULT_POSTURE: Posture = "stand-off"


@dataclass(frozen=True, slots=True)
class Plan(VettedPlan[OrdersFile, Vetted]):
    vet = staticmethod(vet)

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
