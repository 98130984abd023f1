"""§5.2 Income: what every world pays its owner when an economic turn's books
close, and §10.6 what an interdicted world does not pay."""

from __future__ import annotations

from ftpress.events import PUBLIC, Event
from ftpress.rules.ftc2007.sections import rule
from ftpress.rules.ftc2007.state_ext import interdictor
from ftpress.rules.ftc2007.treasury import credit
from ftpress.state.model import State


def collect_income(state: State, economic_turn: int) -> tuple[State, list[Event]]:
    """§5.2: every held world's income goes into its owner's treasury, one event
    per world, in map order. §10.6: a world interdicted at this moment (the
    start of the next economic turn) pays nothing; its event has ``amount`` 0
    and says how much was lost."""
    events: list[Event] = []
    for world in state.map.systems:
        if world.owner is None or world.income is None:
            continue
        if interdictor(world) is not None:
            events.append(Event(
                "income-lost", rule("10.6"), f"{world.name} is interdicted by "
                f"{interdictor(world)} as economic turn {economic_turn} ends: {world.owner} "
                f"loses its income of {world.income}.", audience=PUBLIC, player=world.owner,
                at=world.id,
                amount=0, account="interdicted"))
            continue
        state = credit(state, world.owner, world.income)
        events.append(Event(
            "income", rule("5.2"), f"{world.name} pays {world.owner} its income of "
            f"{world.income} for economic turn {economic_turn}.", audience=PUBLIC,
            player=world.owner,
            at=world.id, amount=world.income, account="income"))
    return state, events


def paid_income(state: State, player_id: str, world_id: str) -> bool:
    """Does the world pay the player income as this strategic turn opens (§11.1)?

    True in the first week of economic turn 2 on, for a world the player holds,
    not interdicted, with an income above nothing: the books just closed paid it.
    """
    cal = state.campaign.calendar
    world = state.system(world_id)
    return (cal.economic_turn > 1 and (cal.turn - 1) % cal.turns_per_economic_turn == 0
            and world is not None and world.owner == player_id
            and interdictor(world) is None and bool(world.income))
