"""The ftcamp02 order file: one player's fleet orders for one campaign round.

``orders/t004/nac.yaml``::

    turn: t004
    player: nac
    attach: {nac-i1: nac-1}      # §3: an independent → a standard group in its hex
    detach: [nac-i2]             # §3: independents that leave their group
    groups:
      nac-1:
        move: (3, -2)            # §4.1: a hex, or a system id
        wormhole: rift           # §4.1.2: go through this wormhole on the way
      nac-2:
        support: nac-1           # §4.4: follow nac-1's order
      nac-3:
        maintain_orbit: true     # §4.3
      nac-4:
        hold: reorganise         # §4.2 with a sub-order (default: nothing)
        split: {nac-7: [Lancer]} # §4.2.2: new group id → craft that leave to form it
        merge: [nac-5]           # §4.2.2: groups in the hex that join this one
        place: {nac-7: nac-cg}   # §5.3: a group's parent in the structure (~: none)
      nac-6:
        hold: nothing
        crafts: {Mule: tug}      # §4.2: a sub-order for one craft of a holding group

Every group order has exactly one of ``move``, ``support``, ``maintain_orbit``
and ``hold``; groups a file leaves out hold (Hold-Nothing, §4.0). The ruleset
checks the rest (:mod:`.orders`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal, get_args

from pydantic import ConfigDict, Field, TypeAdapter

from ftpress.orders.fields import Destination, Note, ShipName, TurnId
from ftpress.state.model import Id

#: §4.2 the hold sub-orders, by the names order files use.
HoldSub = Literal["nothing", "locate", "tug", "reorganise", "maintain", "special",
                  "patrol", "build", "rebuild", "unbuild", "repair", "make", "restock",
                  "diplomatic", "beacon", "research"]
HOLD_SUBS: tuple[str, ...] = get_args(HoldSub)

_CONFIG = ConfigDict(extra="forbid", str_strip_whitespace=True)


@dataclass(frozen=True, slots=True)
class GroupOrder:
    """One group's fleet order this round."""

    __pydantic_config__ = _CONFIG

    #: §4.1: where to: a hex or a system id.
    move: Destination | None = None
    #: §4.1.2: the wormhole to pass through on the way.
    wormhole: Id | None = None
    #: §4.4: the group whose order this one follows.
    support: Id | None = None
    #: §4.3: stay in orbit to sway the system's loyalty.
    maintain_orbit: Literal[True] | None = None
    #: §4.2: hold, with the sub-order the whole group takes.
    hold: HoldSub | None = None
    #: §4.2: sub-orders for single craft of a holding group, by craft name.
    crafts: dict[ShipName, HoldSub] = field(default_factory=dict)
    #: §4.2.2: new group id → names of the craft that leave to form it.
    split: dict[Id, Annotated[tuple[ShipName, ...], Field(min_length=1)]] = field(
        default_factory=dict)
    #: §4.2.2: groups in the same hex that join this one.
    merge: tuple[Id, ...] = ()
    #: §5.3: group id → its parent in the group structure (None: at the top).
    place: dict[Id, Id | None] = field(default_factory=dict)
    note: Note | None = None

    @property
    def given(self) -> tuple[str, ...]:
        """Which of the four orders the file gives (exactly one, if it is right)."""
        return tuple(k for k in ("move", "support", "maintain_orbit", "hold")
                     if getattr(self, k) is not None)

    @property
    def action(self) -> str:
        """'move', 'support', 'maintain_orbit' or 'hold' (the first one given)."""
        return self.given[0] if self.given else "hold"

    @property
    def sub(self) -> str:
        return self.hold or "nothing"


@dataclass(frozen=True, slots=True)
class OrdersFile:
    """One player's fleet orders for one round."""

    __pydantic_config__ = _CONFIG

    turn: TurnId
    player: Id
    #: §3: independent id → the standard fleet group it joins.
    attach: dict[Id, Id] = field(default_factory=dict)
    #: §3: attached independents that leave their group, getting their marker back.
    detach: tuple[Id, ...] = ()
    groups: dict[Id, GroupOrder] = field(default_factory=dict)
    note: Note | None = None


ADAPTER: TypeAdapter[OrdersFile] = TypeAdapter(OrdersFile)
