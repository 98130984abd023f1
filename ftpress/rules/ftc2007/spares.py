"""§6.2.1 Pre-positioned spares: topped up at the places and to the levels set
at the start, a top-up in stock only from the next economic turn.

``Spares.stock`` and ``level`` are points of parts at their installed value,
what they save in repairs (§11.3.1); buying them costs 75% of that.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from ftpress.rules.ftc2007.orderfile import SparesOrder
from ftpress.rules.ftc2007.sections import rule
from ftpress.rules.ftc2007.state_ext import Spares, spares_of, with_spares
from ftpress.rules.ftc2007.treasury import balance, charge, credit, unpaid
from ftpress.state.events import Audience, Event
from ftpress.state.model import State
from ftpress.state.words import power

#: §6.2.1: spares cost this share of the installed price of the same systems.
SPARES_PRICE = Fraction(3, 4)


def spares_at(state: State, player_id: str, world_id: str) -> Spares | None:
    return next((s for s in spares_of(state) if s.owner == player_id and s.at == world_id),
                None)


def spares_problem(state: State, player_id: str, order: SparesOrder, ordered: int) -> str | None:
    """§6.2.1: only where spares were placed at the start, only up to the level
    set then (counting the stock, what is arriving and ``ordered`` earlier in
    the same file)."""
    world = state.system(order.at)
    if world is None:
        return f"there is no world {order.at!r} on the map"
    if world.owner != player_id:
        return f"{world.name} is not yours; spares are kept at your own worlds"
    found = spares_at(state, player_id, order.at)
    if found is None:
        places = ", ".join(s.at for s in spares_of(state) if s.owner == player_id) or "none"
        return (f"you placed no spares at {world.name} at the start; spares are topped up only "
                f"where they were placed then (§6.2.1), and yours are at {places}")
    room = found.level - found.stock - found.arriving - ordered
    if order.points > room:
        return (f"{order.points} points would take the spares at {world.name} above the level "
                f"of {found.level} set at the start (stock {found.stock}, arriving "
                f"{found.arriving + ordered}); at most {max(room, 0)} more (§6.2.1)")
    return None


def buy_spares(state: State, player_id: str, order: SparesOrder,
               where: str | None) -> tuple[State, list[Event]]:
    """§6.2.1: pay 75% now; the parts are in stock when the next economic turn opens."""
    cost = charge(order.points, SPARES_PRICE)
    world = state.system(order.at)
    assert world is not None
    what = f"{order.points} points of spares at {world.name}"
    if balance(state, player_id) < cost:
        return state, [unpaid(player_id, what, cost, "spares", "6.2.1", order=where,
                              at=order.at)]
    state = credit(state, player_id, -cost)
    spares = tuple(dataclasses.replace(s, arriving=s.arriving + order.points)
                   if s.owner == player_id and s.at == order.at else s
                   for s in spares_of(state))
    state = with_spares(state, spares)
    return state, [Event(
        "spares", rule("6.2.1"), f"{power(state, player_id, start=True)} buys {what} for "
        f"{cost} (75% of their installed price); they are in stock from the next economic "
        "turn.", audience=Audience.told(player_id), player=player_id,
        at=order.at, order=where, note=order.note, amount=-cost, account="spares")]


def spares_arrive(state: State) -> tuple[State, list[Event]]:
    """§6.2.1: top-ups bought last economic turn come into stock as this one opens."""
    events = []
    spares = []
    for s in spares_of(state):
        if s.arriving:
            world = state.system(s.at)
            events.append(Event("spares", rule("6.2.1"), f"{s.arriving} points of spares come "
                                f"into stock at {world.name if world else s.at}: "
                                f"{s.stock + s.arriving} of {s.level}.",
                                audience=Audience.told(s.owner), player=s.owner, at=s.at))
            s = dataclasses.replace(s, stock=s.stock + s.arriving, arriving=0)
        spares.append(s)
    return with_spares(state, tuple(spares)), events
