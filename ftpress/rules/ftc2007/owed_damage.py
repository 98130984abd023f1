"""§10.7–§10.8: the damage a repulse leaves a fleet owing, and when it is allocated.

A fleet thrown back by a world's defences takes damage equal to the world's
income (§10.7), but nobody works out which ship took what unless they must:
the fleet owes the damage (:func:`.defences.owe` records it as an
:class:`.state_ext.OwedDamage` of its player) until one of three things happens.

- One of its ships is about to fight a battle before the next economic turn
  (§10.7): the damage is allocated first, a third of the repulsing world's
  defence points in hull boxes spread by mass over the ships that took part
  (§10.8, :func:`.defences.spread_damage`), so the battle is fought with it.
- The next economic turn opens: the player may repair it then, all of it, for
  its price (the world's income); what is not repaired is allocated as that
  economic turn opens (§10.8 "elects not to repair all damage in the next
  economic turn").
- Every ship of it is gone: nothing is left to owe it.

Where an allocation strips out a complete row of a ship's hull boxes, the
ship owes system checks (§10.8): it makes them as its next battle begins, on
the table (the battle file lists them) or in the abstract combat
(:func:`.battles.abstract_battle` rolls them).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ftpress.rules.ftc2007.defences import after_losses, spread_damage
from ftpress.rules.ftc2007.owed_repairs import design_of, ships_named
from ftpress.rules.ftc2007.sections import rule
from ftpress.rules.ftc2007.state_ext import (
    Ftc2007Ship,
    OwedDamage,
    owed_of,
    system_checks,
    with_owed,
)
from ftpress.state.events import Audience, Event
from ftpress.state.extension import extended
from ftpress.state.model import Design, Group, GroupsFile, Ship, State
from ftpress.state.words import listed, plural, power, powers_own


def call_in_before_battles(state: State, battles: Sequence[tuple[str, Sequence[Group]]],
                           ) -> tuple[State, list[Event]]:
    """§10.7: the damage owed by any ship about to fight one of ``battles`` (each its
    place and the groups there) is allocated before the battle is fought.

    Reading ``sieges-do-not-call-it-in`` (the ruleset's readings).
    """
    events: list[Event] = []
    for at, groups in battles:
        for player in state.players.players:
            here = {s.name for g in groups if g.owner == player.id for s in g.ships}
            due = [d for d in owed_of(state, player.id) if here & set(d.ships)]
            if due:
                powers = {g.owner for g in groups}
                state, found = allocate(state, player.id, due, f"before the battle at {at}",
                                        Audience.told(*powers))
                events += found
    return state, events


def call_in_at_economic_turn(state: State) -> tuple[State, list[Event]]:
    """§10.8: as an economic turn opens, damage owed from an earlier one and not
    repaired by this week's orders is allocated."""
    events: list[Event] = []
    now = state.campaign.calendar.economic_turn
    for player in state.players.players:
        due = [d for d in owed_of(state, player.id) if d.economic_turn < now]
        if due:
            state, found = allocate(state, player.id, due,
                                    f"not repaired as economic turn {now} opened",
                                    Audience.told(player.id))
            events += found
    return state, events


def allocate(state: State, player_id: str, debts: Sequence[OwedDamage], why: str,
             audience: Audience) -> tuple[State, list[Event]]:
    """§10.8: each debt's hull boxes spread by mass over its ships still afloat
    (reading ``allocated-over-every-ship-that-took-part``); a ship left with none is
    destroyed; a hull row stripped out owes its system checks. The debts are settled.

    Which ship bears what is the owner's to know (§15.3), and the enemy's it is about
    to fight (``audience``), who will see the damage on the table."""
    events: list[Event] = []
    for debt in debts:
        afloat = ships_named(state, player_id, debt.ships)
        designs = [design_of(state, ship) for _, ship in afloat]
        shares = spread_damage(debt.boxes, [d.mass for d in designs],
                               [max(d.hull_boxes - s.damage, 0)
                                for d, (_, s) in zip(designs, afloat, strict=True)])
        world = state.system(debt.world)
        name = world.name if world else debt.world
        listing = ", ".join(f"{s.name} {n}" for (_, s), n in zip(afloat, shares, strict=True))
        events.append(Event(
            "damage", rule("10.8"), f"The damage {power(state, player_id)} owes from {name} is "
            f"allocated, {why}: {plural(debt.boxes, 'hull box')} spread by mass: {listing}.",
            audience=audience, player=player_id, at=debt.world,
            groups=tuple(dict.fromkeys(g.id for g, _ in afloat))))
        hit: dict[tuple[str, str], int] = {(g.id, s.name): n
                                           for (g, s), n in zip(afloat, shares, strict=True)}
        state, found = _apply(state, player_id, hit, audience)
        events += found
    kept = tuple(d for d in owed_of(state, player_id) if d not in debts)
    state = with_owed(state, player_id, kept)
    state, found = after_losses(state, player_id)
    return state, events + found


def _apply(state: State, player_id: str, hit: dict[tuple[str, str], int],
           audience: Audience) -> tuple[State, list[Event]]:
    events: list[Event] = []
    checks: list[str] = []
    groups: list[Group] = []
    for group in state.groups.groups:
        ships: list[Ship] = []
        for ship in group.ships:
            boxes = hit.get((group.id, ship.name), 0)
            if not boxes:
                ships.append(ship)
                continue
            design = design_of(state, ship)
            after = ship.damage + boxes
            if after >= design.hull_boxes:
                events.append(Event(
                    "ship-lost", rule("10.8"),
                    f"{powers_own(state, player_id, start=True)} {ship.name} has lost every "
                    "hull box and is destroyed.", audience=audience, player=player_id,
                    group=group.id, at=group.at))
                continue
            rows = stripped_rows(design, ship.damage, after)
            ship = dataclasses.replace(ship, damage=after)
            if rows:
                ship = extended(ship, Ftc2007Ship,
                                system_checks=(*system_checks(ship), *rows))
                checks.append(f"{ship.name} of {group.id} ({rows_words(rows)})")
            ships.append(ship)
        if ships or group.dummy or not any((group.id, s.name) in hit for s in group.ships):
            groups.append(dataclasses.replace(group, ships=tuple(ships)))
    state = dataclasses.replace(state, groups=GroupsFile(tuple(groups)))
    if checks:
        events.append(Event(
            "system-checks", rule("10.8"), f"A complete row of hull boxes is stripped out of "
            f"{listed(checks)}: the system checks follow, made as "
            f"{'her' if len(checks) == 1 else 'each'} next battle begins.",
            audience=Audience.told(player_id), player=player_id))
    return state, events


def stripped_rows(design: Design, before: int, after: int) -> tuple[int, ...]:
    """§10.8: the hull rows (1 the first) that damage from ``before`` to ``after`` boxes
    lost completes.

    Reading ``ship-lost-when-hull-gone`` (the ruleset's readings).
    """
    rows, edge = [], 0
    for n, size in enumerate(design.hull, start=1):
        edge += size
        if before < edge <= after:
            rows.append(n)
    return tuple(rows)


def rows_words(rows: Sequence[int]) -> str:
    """'hull row 1', 'hull rows 1, 2'."""
    return ("hull row " if len(rows) == 1 else "hull rows ") + ", ".join(map(str, rows))
