"""§5.2 Economic orders, given in the first strategic turn of an economic turn.

This version of ftpress sets the upkeep level (§7) and records every other
economic order as not carried out, with an event naming it, so that nothing a
player wrote is silently dropped. The economy's money (income, upkeep,
construction, repairs) belongs to the economic-turn resolution.
"""

from __future__ import annotations

import dataclasses

from ftpress.events import Event
from ftpress.orders.model import EconomyOrders
from ftpress.rules.ftc2007.plan import Plan, rule
from ftpress.state.model import PlayersFile, State

#: Economic orders this version records but does not carry out, with their rule.
NOT_RESOLVED = {"keels": "13", "purchases": "13.1", "repairs": "11",
                "spares": "6.2.1", "defences": "10.5"}


def economic_orders(state: State, plan: Plan) -> tuple[State, list[Event]]:
    """§7: the upkeep level chosen; the rest reported as not resolved here."""
    events: list[Event] = []
    players = list(state.players.players)
    for i, player in enumerate(players):
        vetted = plan.vetted.get(player.id)
        loaded = plan.orders.get(player.id)
        if vetted is None or loaded is None or loaded.orders.economy is None \
                or not vetted.economy_allowed:
            continue
        economy = loaded.orders.economy
        if economy.maintenance is not None:
            players[i] = dataclasses.replace(player, maintenance=economy.maintenance)
            events.append(Event(
                "maintenance", rule("7"), f"{player.id} sets maintenance to "
                f"{economy.maintenance} for economic turn "
                f"{state.campaign.calendar.economic_turn}.", player=player.id,
                order=plan.where(player.id, "economy", "maintenance")))
        for what, text, index in unresolved(economy):
            events.append(Event(
                "not-resolved", rule(NOT_RESOLVED[what]), f"{player.id}: {text} was not "
                "carried out: this version of ftpress does not resolve "
                f"{what} (§{NOT_RESOLVED[what]}) yet, so nothing was built, bought or paid.",
                player=player.id, order=plan.where(player.id, "economy", what, index),
                note=getattr(getattr(economy, what)[index], "note", None)))
        if economy.note:
            events.append(Event("note", rule("5.2"), f"{player.id} notes on the economy.",
                                player=player.id, note=economy.note,
                                order=plan.where(player.id, "economy", "note")))
    return dataclasses.replace(state, players=PlayersFile(tuple(players))), events


def unresolved(economy: EconomyOrders) -> list[tuple[str, str, int]]:
    """(kind, the order in words, its index) of each order this version leaves undone."""
    found = []
    for i, k in enumerate(economy.keels):
        found.append(("keels", f"the keel of {k.name} ({k.design}) at {k.at}", i))
    for i, p in enumerate(economy.purchases):
        found.append(("purchases", f"the purchase of {p.name} ({p.design}) for {p.at}", i))
    for i, r in enumerate(economy.repairs):
        found.append(("repairs", f"repairing {r.boxes} hull boxes of {r.ship} in {r.group}",
                      i))
    for i, s in enumerate(economy.spares):
        found.append(("spares", f"{s.points} points of spares at {s.at}", i))
    for i, d in enumerate(economy.defences):
        found.append(("defences", f"rebuilding {d.points} defence points at {d.system}", i))
    return found
