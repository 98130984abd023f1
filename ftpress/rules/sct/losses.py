"""§6.4: what a battle costs a task force, whichever way the battle was settled
(by the abstract combat, :mod:`.combat`, or on the tabletop, :mod:`.tabletop`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from ftpress.rules.sct.plan import force, rule
from ftpress.state import words
from ftpress.state.events import PUBLIC, Event
from ftpress.state.model import Group, Ship, State

#: What a battle left of a ship, as a tabletop result names it.
AFLOAT = "afloat"
DESTROYED = "destroyed"
CRIPPLED = "crippled"


def take_losses(state: State, group: Group, fate: Callable[[Group, Ship], str],
                events: list[Event]) -> Group | None:
    """§6.4: the task force after its battle, each ship as ``fate(group, ship)``
    says: a destroyed ship is gone, a crippled one has its values halved until
    repaired; None if no ship is left. An event for each loss is added to
    ``events``."""
    ships = []
    own = words.powers_own(state, group.owner, start=True)
    for ship in group.ships:
        result = fate(group, ship)
        if result == DESTROYED:
            events.append(Event("ship-lost", rule("6.4"), f"{own} {ship.name} is "
                                "destroyed.", player=group.owner, group=group.id, audience=PUBLIC))
            continue
        if result == CRIPPLED and not ship.crippled:
            events.append(Event("crippled", rule("6.4"), f"{own} {ship.name} is "
                                "crippled: its values are halved until repaired.",
                                player=group.owner, group=group.id, audience=PUBLIC))
            ship = dataclasses.replace(ship, crippled=True)
        ships.append(ship)
    if not ships:
        who = force(state, group.id, start=True)
        events.append(Event("ship-lost", rule("6.4"), f"{who} is destroyed "
                            "with every ship in it.", player=group.owner,
                            group=group.id, audience=PUBLIC))
        return None
    return dataclasses.replace(group, ships=tuple(ships))
