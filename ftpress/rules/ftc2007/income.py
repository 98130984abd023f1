"""§5.2 Income: what every world pays its owner when an economic turn's books
close, and §10.6 what an interdicted world does not pay."""

from __future__ import annotations

import dataclasses

from ftpress.rules.ftc2007.sections import rule
from ftpress.rules.ftc2007.state_ext import Ftc2007System, interdictor, paid_income_to
from ftpress.rules.ftc2007.treasury import credit
from ftpress.state.events import PUBLIC, Event
from ftpress.state.extension import extended
from ftpress.state.model import State, System
from ftpress.state.words import power


def collect_income(state: State, economic_turn: int) -> tuple[State, list[Event]]:
    """§5.2: every held world's income goes into its owner's treasury, one event
    per world, in map order. §10.6: a world interdicted at this moment (the
    start of the next economic turn) pays nothing; its event has ``amount`` 0
    and says how much was lost. Each world records whom it paid
    (:func:`paid_income_to`), for the repairs of this economic turn (§11.1)."""
    events: list[Event] = []
    systems: list[System] = []
    for world in state.map.systems:
        pays = (world.owner is not None and bool(world.income)
                and interdictor(world) is None)
        systems.append(extended(world, Ftc2007System,
                                paid_income_to=world.owner if pays else None))
    state = dataclasses.replace(state, map=dataclasses.replace(state.map,
                                                               systems=tuple(systems)))
    for world in state.map.systems:
        if world.owner is None or world.income is None:
            continue
        if interdictor(world) is not None:
            events.append(Event(
                "income-lost", rule("10.6"), f"{world.name} is interdicted by "
                f"{power(state, interdictor(world))} as economic turn {economic_turn} "
                f"ends: {power(state, world.owner)} loses its income of {world.income}.",
                audience=PUBLIC, player=world.owner,
                at=world.id,
                amount=0, account="interdicted"))
            continue
        state = credit(state, world.owner, world.income)
        events.append(Event(
            "income", rule("5.2"),
            f"{world.name} pays {power(state, world.owner)} its income of "
            f"{world.income} for economic turn {economic_turn}.", audience=PUBLIC,
            player=world.owner,
            at=world.id, amount=world.income, account="income"))
    return state, events


def paid_income(state: State, player_id: str, world_id: str) -> bool:
    """Has the world paid the player income this economic turn, and does the player
    hold it still (§11.1)? Asked as orders are checked, before anything resolves.

    Ruling: §11.1 names no week, so a world that paid its owner when this economic
    turn opened serves for repairs in every week of it while the same player holds
    it (a conquest clears the record; an interdiction later in the turn does not,
    since the income was drawn). In the first week the books are about to close:
    a world held, not interdicted, with an income will pay now. In economic turn 1
    no world has paid anything.
    """
    cal = state.campaign.calendar
    world = state.system(world_id)
    if world is None or world.owner != player_id:
        return False
    if (cal.turn - 1) % cal.turns_per_economic_turn == 0:
        return cal.economic_turn > 1 and interdictor(world) is None and bool(world.income)
    return paid_income_to(world) == player_id
