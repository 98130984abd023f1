"""§4.2.8 Locator roll: a lost group on Hold-Locate is found by a friendly marker
in its hex, or by 2d6 plus modifiers reaching the distance to the nearest system
or beacon. The roll is secret, as the lost roll was (§4.1.1)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from ftpress.rules.ftcamp02.crafts import drifting, sensor_grade
from ftpress.rules.ftcamp02.orders import Vetted
from ftpress.rules.ftcamp02.plan import rule
from ftpress.rules.ftcamp02.space import HEX_TYPE_MODIFIER, hex_type, nearest_fix, place_hex
from ftpress.rules.ftcamp02.state_ext import Ftcamp02Group, of_group
from ftpress.state.dice import Dice
from ftpress.state.events import Audience, Event
from ftpress.state.extension import extended
from ftpress.state.model import Group, GroupsFile, State

#: §4.2.8: the locator roll's bonus for the group's best sensors.
SENSOR_MODIFIER = {"none": 0, "basic": 0, "enhanced": 1, "superior": 2}

#: Ruling: a friendly marker is one of the same power's own groups, not lost, with
#: its marker on the map (not an attached independent); its owner always agrees.
FRIENDLY_MARKER = "own group, not lost, not attached"

#: Ruling: no die is rolled when the roll cannot succeed (12 plus the modifier is
#: short of the distance, or there is no system or beacon on the map).
ROLL_WHEN_HOPELESS = False


def locate_groups(state: State, vetted: Mapping[str, Vetted], dice: Dice,
                  where: Mapping[tuple[str, str], str | None]) -> tuple[State, list[Event]]:
    """§4.2.8: every lost group on Hold-Locate tries to find its way."""
    events: list[Event] = []
    found: set[str] = set()
    for _player, v in sorted(vetted.items()):
        for group_id, order in sorted(v.accepted.items()):
            if order.action != "hold" or order.sub != "locate":
                continue
            group = next(g for g in state.groups.groups if g.id == group_id)
            passed, event = locator_roll(state, group, dice)
            events.append(dataclasses.replace(event, order=where.get((group.owner,
                                                                      f"{group_id}#hold"))))
            if passed:
                found.add(group_id)
    groups = tuple(extended(g, Ftcamp02Group, lost=False)
                   if g.id in found or of_group(g).attached_to in found else g
                   for g in state.groups.groups)
    return dataclasses.replace(state, groups=GroupsFile(groups)), events


def locator_roll(state: State, group: Group, dice: Dice) -> tuple[bool, Event]:
    """§4.2.8: one lost group's locator roll."""
    here = place_hex(state, group)
    friend = next((g.id for g in state.groups_of(group.owner) if g.id != group.id
                   and not of_group(g).lost and of_group(g).attached_to is None
                   and place_hex(state, g) == here),
                  None)
    if friend is not None:
        return True, Event("located", rule("4.2.8"), f"{group.id} is found by {friend} in "
                           "its hex.", player=group.owner, group=group.id, at=group.at,
                           audience=Audience.told(group.owner))
    sensors = max((SENSOR_MODIFIER[sensor_grade(d)] for s in group.ships
                   if (d := state.design(s.design)) and not drifting(s, d)), default=0)
    modifier = sensors + HEX_TYPE_MODIFIER[hex_type(state, here)]
    distance = nearest_fix(state, here)
    if distance is None or (12 + modifier < distance and not ROLL_WHEN_HOPELESS):
        reason = ("there is no system or beacon on the map" if distance is None else
                  f"the nearest system or beacon is {distance} hexes off, beyond 12 "
                  f"{modifier:+d}")
        return False, Event("located", rule("4.2.8"), f"{group.id} cannot find its way: "
                            f"{reason}; only a friendly group can recover it.",
                            player=group.owner, group=group.id, at=group.at,
                            audience=Audience.told(group.owner))
    # Secret as the lost roll is (§4.1.1): told to the owner alone.
    total = dice.total(2, 6, f"locator roll for {group.id} ({modifier:+d})", rule("4.2.8"),
                       hidden=True)
    passed = total + modifier >= distance
    return passed, Event("located", rule("4.2.8"), f"{group.id}'s locator roll is {total} "
                         f"{modifier:+d} against {distance} hexes to the nearest system or "
                         f"beacon: {'found' if passed else 'still lost'}.", player=group.owner,
                         group=group.id, at=group.at, rolls=dice.log[-2:],
                         audience=Audience.told(group.owner))
