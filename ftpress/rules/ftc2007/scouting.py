"""§2.3 Scouting neutral worlds and §4 the neutral income roll."""

from __future__ import annotations

import dataclasses

from ftpress.rules.ftc2007.plan import Plan
from ftpress.rules.ftc2007.sections import rule
from ftpress.state.dice import Dice
from ftpress.state.events import PUBLIC, Event
from ftpress.state.model import State, System
from ftpress.state.words import group


def scout_worlds(state: State, plan: Plan, dice: Dice) -> tuple[State, list[Event]]:
    """§2.3, §4.1: each scout that ends the turn at its world rolls that world's worth.

    1d6: 1–2 unsettled, no income; 3–4 income 2d6 × 10; 5–6 income 3d6 × 10.
    Defence points equal income (§10.2). The result is public (§2.3). Scouts
    roll in player order, then file order; a world two scouts reach in one
    turn is rolled once, by the first.

    Reading ``scout-despite-contact`` (the ruleset's readings).
    """
    events: list[Event] = []
    systems = {s.id: s for s in state.map.systems}
    where = {g.id: g.at for g in state.groups.groups}
    for player, group_id, order, _ in plan.accepted():
        if order.scout is None:
            continue
        world = systems[order.scout]
        order_at = plan.where(player, "groups", group_id, "scout", key=True)
        who = group(state, group_id, PUBLIC, start=True)
        if state.hex_of(where[group_id]) != world.hex:
            events.append(Event(
                "scouted", rule("2.3"), f"{who} did not reach {world.name}, so did not "
                "scout it.", audience=PUBLIC, player=player, group=group_id, at=where[group_id],
                order=order_at))
            continue
        if world.income is not None:
            events.append(Event(
                "scouted", rule("2.3"), f"{who} found {world.name} already scouted this "
                f"turn: income {world.income}, defence points {world.idp}.", audience=PUBLIC,
                player=player,
                group=group_id, at=world.id, order=order_at))
            continue
        before = len(dice.log)
        world, words = roll_worth(world, dice)
        systems[world.id] = world
        events.append(Event(
            "scouted", rule("4.1"), f"{who} scouted {world.name}, which is {words}. "
            "The result is public (§2.3).", audience=PUBLIC, player=player, group=group_id,
            at=world.id,
            order=order_at, rolls=dice.log[before:]))
    new_map = dataclasses.replace(state.map, systems=tuple(systems[s.id]
                                                           for s in state.map.systems))
    return dataclasses.replace(state, map=new_map), events


def roll_worth(world: System, dice: Dice) -> tuple[System, str]:
    """§4.1: a neutral world's worth, rolled once (when scouted or attacked, §4.2).

    1d6: 1–2 unsettled, no income; 3–4 income 2d6 × 10; 5–6 income 3d6 × 10.
    Defence points equal income (§10.2). Returns the world and its worth in words.
    """
    settled = dice.d6(f"settlement of {world.name}", rule("4.1"))
    if settled <= 2:
        income, words = 0, "unsettled: no income and no defences"
    else:
        count = 2 if settled <= 4 else 3
        income = 10 * dice.total(count, 6, f"income of {world.name}", rule("4.1"))
        words = (f"settled: income {income}, defence points {income}, defence value "
                 f"{income * 10:,}")
    return dataclasses.replace(world, income=income, idp=income), words
