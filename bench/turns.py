"""Campaign state and T turn snapshots for the benchmark corpus.

The state is made by ftpress itself: ``init_campaign`` rolls a radius-R map
for four players from the corpus's seed, and every file is written by
ftpress's own saver, so the corpus keeps to the format as it changes. No rules
engine resolves turns yet, so each turn here is a plausible stand-in for one:
the calendar moves on a week, treasuries change, some task groups move to
another world, and the turn's dice log records the rolls for it. That is the
data the build will load, check and (once turn reports exist) render.
"""

from __future__ import annotations

import dataclasses
import random
import tempfile
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path

from ftpress.create import init_campaign
from ftpress.dice import Roll
from ftpress.rules.ftc2007.catalogue import catalogue
from ftpress.state.files import STATE_DIR
from ftpress.state.load import load_dice, load_state
from ftpress.state.model import Design, DiceFile, Group, GroupsFile, Ship, State
from ftpress.state.save import save_dice, save_state
from ftpress.state.turns import SETUP, TURNS_DIR, turn_id

PLAYERS = ("nac", "nsl", "fse", "esu")


def _replace(value: object, **changes: object) -> object:
    return dataclasses.replace(value, **changes)  # type: ignore[type-var]


def _muster(state: State, rng: random.Random) -> State:
    """Four to eight task groups of two to five ships for each player, at their own
    worlds, with the designs they use; paid for out of the treasury.

    Done in turn 1 rather than at setup, so that the setup keeps to §6 exactly
    as ``ftpress init`` made it.
    """
    groups: list[Group] = []
    used: dict[str, Design] = {}
    players = []
    for player in state.players.players:
        designs = catalogue().of_navy(player.navy or player.id)
        worlds = [s.id for s in state.worlds_of(player.id)] or [player.capital]
        spent = 0
        for n in range(1, rng.randint(4, 8) + 1):
            ships = []
            for k in range(1, rng.randint(2, 5) + 1):
                design = rng.choice(designs)
                used[design.id] = design
                spent += design.points
                ships.append(Ship(f"{design.name} {n}-{k}", design.id))
            groups.append(Group(f"{player.id}-tg{n}", player.id, rng.choice(worlds),
                                tuple(ships)))
        players.append(_replace(player, treasury=max(0, player.treasury - spent)))
    designs_file = _replace(state.designs, designs=tuple(used[k] for k in sorted(used)))
    return dataclasses.replace(state, players=_replace(state.players, players=tuple(players)),
                               designs=designs_file, groups=GroupsFile(tuple(groups)))


def _next_turn(state: State, number: int, rng: random.Random) -> tuple[State, DiceFile]:
    """The state after turn ``number``, and the dice rolled for it."""
    if number == 1:
        state = _muster(state, rng)
    cal = state.campaign.calendar
    calendar = _replace(cal, turn=number + 1,
                        economic_turn=number // cal.turns_per_economic_turn + 1,
                        deadline=cal.deadline + timedelta(days=cal.turn_days))
    campaign = _replace(state.campaign, calendar=calendar)
    players = _replace(state.players, players=tuple(
        _replace(p, treasury=max(0, p.treasury + rng.randrange(-200, 400, 10)))
        for p in state.players.players))
    worlds = [s.id for s in state.map.systems]
    rolls: list[Roll] = []
    groups = []
    for group in state.groups.groups:
        roll = rng.randint(1, 6)
        rolls.append(Roll(6, roll, f"does {group.id} move this turn", "ftc2007 §8"))
        groups.append(_replace(group, at=rng.choice(worlds)) if roll <= 2 else group)
    new = dataclasses.replace(state, campaign=campaign, players=players,
                              groups=_replace(state.groups, groups=tuple(groups)))
    return new, DiceFile(f"benchmark turn {number}", tuple(rolls))


def write_turns(root: Path, turns: int, radius: int, seed: int, start: date,
                base_url: str) -> int:
    """``state/`` and ``state/turns/t000`` … ``t<turns>`` in ``root``; returns turns written.

    The current state is the one after the last turn, as after a real turn.
    """
    with tempfile.TemporaryDirectory(prefix="ftpress-bench-") as tmp:
        made = Path(tmp) / "benchmark-reach"
        init_campaign(made, PLAYERS, now=datetime.combine(start, time(12, 0), UTC), seed=seed,
                      name="The Benchmark Reach", options=[f"radius={radius}"])
        setup = f"{TURNS_DIR}/{SETUP}"
        state = load_state(made, setup).state
        setup_dice = load_dice(made, setup)
    save_state(root, state, setup, base_url)
    save_dice(root, setup, setup_dice, base_url)
    rng = random.Random(seed + 2)
    for number in range(1, turns + 1):
        state, dice = _next_turn(state, number, rng)
        folder = f"{TURNS_DIR}/{turn_id(number)}"
        save_state(root, state, folder, base_url)
        save_dice(root, folder, dice, base_url)
    save_state(root, state, STATE_DIR, base_url)
    return turns
