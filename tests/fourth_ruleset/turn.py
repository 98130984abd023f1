"""A lighthouse turn: beacons lit (rule 2), the watch kept (rule 3), the calendar on (rule 4)."""

from __future__ import annotations

from collections.abc import Mapping

from ftpress.orders.load import LoadedOrders
from ftpress.rules.calendar import advanced, turn_opened
from ftpress.rules.planning import located, no_orders, section_namer
from ftpress.state.battle_results import LoadedBattle
from ftpress.state.dice import Dice
from ftpress.state.events import PUBLIC, Event
from ftpress.state.model import State

rule = section_namer("lighthouse")


def resolve(state: State, orders: Mapping[str, LoadedOrders], dice: Dice,
            battles: Mapping[str, LoadedBattle]) -> tuple[State, tuple[Event, ...]]:
    """The turn as a fold: pure, and no die is needed; no battle is fought."""
    events: list[Event] = []
    for player in state.players.players:
        groups = state.groups_of(player.id)
        loaded = orders.get(player.id)
        if loaded is None:
            events.append(no_orders(rule("1"), state, player.id, [g.id for g in groups]))
        else:
            for i, world in enumerate(loaded.orders.light):
                system = state.system(world)
                name = system.name if system is not None else world
                events.append(Event("beacon-lit", rule("2"), f"The beacon of {name} is lit by "
                                    f"{player.name}.", audience=PUBLIC, player=player.id,
                                    at=world,
                                    order=located(loaded, "light", i)))
        # A lit beacon is seen by all, and so is a counter keeping watch.
        events.extend(Event("patrol", rule("3"), f"{g.id} keeps watch.", audience=PUBLIC,
                            player=player.id, group=g.id, at=g.at) for g in groups)
    new = advanced(state)
    events.append(turn_opened(rule("4"), state.campaign.calendar, new.campaign.calendar))
    return new, tuple(events)
