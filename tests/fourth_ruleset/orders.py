"""lighthouse's order file: which beacons to light.

::

    turn: t001
    player: nac
    light: [home]      # worlds of yours whose beacons are lit this turn
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from pydantic import ConfigDict, Field, Strict, TypeAdapter

from ftpress.errors import Problem
from ftpress.orders.load import LoadedOrders
from ftpress.state.model import State

Id = Annotated[str, Strict(), Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]


@dataclass(frozen=True, slots=True)
class LighthouseOrders:
    __pydantic_config__ = ConfigDict(extra="forbid")

    turn: Id
    player: Id
    light: tuple[Id, ...] = ()


ADAPTER: TypeAdapter[LighthouseOrders] = TypeAdapter(LighthouseOrders)


def check_orders(state: State, loaded: LoadedOrders) -> list[Problem]:
    """A beacon may be lit only on a world of one's own (rule 2)."""
    orders: LighthouseOrders = loaded.orders
    mine = sorted(w.id for w in state.worlds_of(orders.player))
    return [Problem(*loaded.where("light", i), f"{world!r} is not a world of yours; you may "
                    f"light the beacons of {', '.join(mine) or 'no world'}")
            for i, world in enumerate(orders.light) if world not in mine]


def describe_orders(state: State, loaded: LoadedOrders) -> list[str]:
    orders: LighthouseOrders = loaded.orders
    return [f"Light the beacon of {w.name}." for world in orders.light
            if (w := state.system(world)) is not None] or ["Light no beacon."]
