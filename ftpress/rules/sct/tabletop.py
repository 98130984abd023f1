"""Battles fought on the tabletop (§6): the turn waits for the umpire's result,
then folds it in.

A meeting to be fought on the table is a ``battle-pending`` event; ``ftpress
turn`` writes ``battles/<turn-id>/<battle-id>.yaml`` with every ship there and
stops. Once the umpire has filled it in (each ship afloat, crippled or
destroyed; who holds the field) and set ``fought: true``, the next run folds it
in: it is checked against the forces that met, every mistake located. The file
names ships only: a base lost on the table is struck from state/map.yaml by the
umpire (rule 7.3's ruling).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from ftpress.errors import InputError, Problem
from ftpress.rules.sct.losses import AFLOAT, take_losses
from ftpress.rules.sct.plan import rule
from ftpress.rules.sct.plane import place_name
from ftpress.state import words
from ftpress.state.battle_results import LoadedBattle, battle_id
from ftpress.state.events import PUBLIC, Event
from ftpress.state.model import Group, Point, State
from ftpress.state.turns import turn_id


def battle_of(at: str | Point) -> str:
    """The battle id of a meeting: its system, or its point (``pt-X-Y``)."""
    return battle_id(at)


def pending(state: State, battle: str, at: str | Point, players: tuple[str, ...],
            groups: list[Group]) -> Event:
    """§6.1: a battle that awaits the table; the turn waits for its result."""
    listing = "; ".join(f"a task force of {words.power(state, g.owner)}, "
                        f"{words.plural(len(g.ships), 'ship')}" for g in groups)
    return Event("battle-pending", rule("6.1"), f"The battle near {place_name(state, at)} "
                 f"between {words.powers(state, players)} ({listing}) is to be fought on the "
                 "tabletop; "
                 "the turn waits for its result.", at=at, groups=tuple(g.id for g in groups),
                 players=players, audience=PUBLIC)


def check_result(state: State, battle: str, at: str | Point, players: tuple[str, ...],
                 groups: list[Group], loaded: LoadedBattle) -> list[Problem]:
    """A filled-in result against the forces that met: every problem, located."""
    r = loaded.result
    say = loaded.problem
    problems: list[Problem] = []
    turn = turn_id(state.campaign.calendar.turn)
    if r.turn != turn:
        problems.append(say(f"this result is for {r.turn}; the turn being resolved is {turn}",
                            "turn"))
    if r.battle != battle:
        problems.append(say(f"this file is for battle {battle!r}, not {r.battle!r}", "battle"))
    if r.at != at:
        spelled = at if isinstance(at, str) else f"{{x: {at.x}, y: {at.y}}}"
        problems.append(say(f"battle {battle} is near {place_name(state, at)}; expected at: "
                            f"{spelled}", "at"))
    if sorted(r.players) != sorted(players):
        problems.append(say(f"the powers in this battle are {', '.join(sorted(players))}, not "
                            f"{', '.join(r.players) or 'none'}", "players"))
    there = {(g.id, s.name): g.owner for g in groups for s in g.ships}
    seen: set[tuple[str, str]] = set()
    for i, ship in enumerate(r.ships):
        key = (ship.group, ship.ship)
        if key not in there:
            problems.append(say(f"{ship.ship!r} of {ship.group} was not in this battle; "
                                "list the ships the template lists", "ships", i))
        elif key in seen:
            problems.append(say(f"{ship.ship} of {ship.group} is listed twice", "ships", i))
        elif ship.player != there[key]:
            problems.append(say(f"{ship.ship} of {ship.group} is {there[key]}'s, not "
                                f"{ship.player}'s", "ships", i, "player"))
        if ship.fate == "drifting":
            problems.append(say("sct has no drifting hulks or prizes; give the fate as "
                                "afloat, crippled or destroyed", "ships", i, "fate"))
        seen.add(key)
    missing = sorted(set(there) - seen)
    if missing:
        names = ", ".join(f"{name} of {group}" for group, name in missing)
        problems.append(say(f"the result leaves out {names}; give every ship its fate",
                            "ships"))
    if r.withdrew:
        problems.append(say("no force moves after an sct battle; leave 'withdrew' empty",
                            "withdrew"))
    if r.held_by is not None and r.held_by not in players:
        problems.append(say(f"{r.held_by!r} did not fight here; expected one of "
                            f"{', '.join(players)} or nothing", "held_by"))
    return problems


def fold_result(state: State, battle: str, at: str | Point, players: tuple[str, ...],
                groups: list[Group], loaded: LoadedBattle,
                ) -> tuple[State, list[Event]]:
    """§6.4: the umpire's result on the state: ships destroyed or crippled, forces
    emptied; the event cites the result file."""
    r = loaded.result
    fate = {(s.group, s.ship): s.fate for s in r.ships}
    events = [Event("battle", rule("6.1"), f"The battle near {place_name(state, at)} was "
                    f"fought on the tabletop between {words.powers(state, players)}"
                    + (f"; {words.power(state, r.held_by)} holds the field." if r.held_by else
                       "; nobody holds the field."), at=at,
                    groups=tuple(g.id for g in groups), players=players, order=loaded.path,
                    note=r.note, audience=PUBLIC)]
    mine = {g.id for g in groups}
    kept = []
    for group in state.groups.groups:
        if group.id not in mine:
            kept.append(group)
            continue
        left = take_losses(state, group, lambda g, ship: fate.get((g.id, ship.name), AFLOAT),
                           events)
        if left is not None:
            kept.append(left)
    return dataclasses.replace(state, groups=dataclasses.replace(state.groups,
                                                                 groups=tuple(kept))), events


def settle_on_table(state: State, at: str | Point, players: tuple[str, ...],
                    groups: list[Group], results: Mapping[str, LoadedBattle],
                    ) -> tuple[State, list[Event]]:
    """Fold in the battle's filled-in result, or report it as awaiting the table.
    A wrong result stops the turn with every mistake (``InputError``)."""
    battle = battle_of(at)
    loaded = results.get(battle)
    if loaded is None or not loaded.result.fought:
        return state, [pending(state, battle, at, players, groups)]
    wrong = check_result(state, battle, at, players, groups, loaded)
    if wrong:
        raise InputError(wrong)
    return fold_result(state, battle, at, players, groups, loaded)
