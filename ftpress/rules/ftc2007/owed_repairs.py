"""§10.8: repairing the damage a repulse left a fleet owing, as the next economic
turn opens, before it must be allocated (:mod:`.owed_damage`)."""

from __future__ import annotations

from collections.abc import Sequence

from ftpress.rules.ftc2007.repairs import place_problem
from ftpress.rules.ftc2007.sections import rule
from ftpress.rules.ftc2007.state_ext import owed_of, with_owed
from ftpress.rules.ftc2007.treasury import balance, credit, unpaid
from ftpress.state.events import Audience, Event
from ftpress.state.model import Design, Group, Ship, State
from ftpress.state.words import power


def owed_repair_problem(state: State, player_id: str, world_id: str,
                        ordered: Sequence[str]) -> str | None:
    """§10.8 (reading ``owed-repair-at-its-price-where-repairs-are-made``): why the damage
    owed from ``world_id`` cannot be repaired now, or None."""
    debts = [d for d in owed_of(state, player_id) if d.world == world_id]
    if not debts:
        owing = ", ".join(d.world for d in owed_of(state, player_id)) or "none"
        return (f"your fleets owe no repulse damage from {world_id!r}; they owe it from: "
                f"{owing}")
    if world_id in ordered:
        return f"the damage owed from {world_id!r} is already ordered repaired above"
    if debts[0].economic_turn >= state.campaign.calendar.economic_turn:
        return ("the damage was done this economic turn; it is repaired as the next one "
                "opens (§10.8), or put on the ships if they fight first (§10.7)")
    for group, ship in ships_named(state, player_id, debts[0].ships):
        if not isinstance(group.at, str):
            return (f"{ship.name} of {group.id} is in open space, and repairs are made at a "
                    "world (§11.1); the damage owed is repaired all at once or not at all")
        problem = place_problem(state, player_id, group.at, design_of(state, ship))
        if problem:
            return (f"{ship.name} of {group.id} cannot be repaired where she is: {problem}; "
                    "the damage owed is repaired all at once or not at all")
    return None


def repair_owed(state: State, player_id: str, world_id: str,
                where: str | None) -> tuple[State, list[Event]]:
    """§10.8: the damage owed from ``world_id`` repaired for its price before it is
    allocated (no credit, §6.3); it is then no longer owed."""
    debt = next(d for d in owed_of(state, player_id) if d.world == world_id)
    world = state.system(world_id)
    name = world.name if world else world_id
    if balance(state, player_id) < debt.cost:
        return state, [unpaid(player_id, f"repairing the damage owed from {name}", debt.cost,
                              "repairs", "10.8", order=where)]
    state = credit(state, player_id, -debt.cost)
    state = with_owed(state, player_id, tuple(d for d in owed_of(state, player_id)
                                               if d != debt))
    return state, [Event(
        "repair", rule("10.8"),
        f"{power(state, player_id, start=True)} repairs the damage its fleet owes from {name} "
        f"for {debt.cost}, the world's income (§10.7): no ship need bear it.",
        audience=Audience.told(player_id), player=player_id, at=world_id, order=where,
        amount=-debt.cost, account="repairs")]


def ships_named(state: State, player_id: str, names: Sequence[str]) -> list[tuple[Group, Ship]]:
    """The ships named, afloat in ``player_id``'s groups, in the order named."""
    found = {s.name: (g, s) for g in state.groups_of(player_id) for s in g.ships}
    return [found[n] for n in names if n in found]


def design_of(state: State, ship: Ship) -> Design:
    design = state.design(ship.design)
    assert design is not None
    return design
