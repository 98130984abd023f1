"""§15.2 with §15.3: a dummy counter an enemy ship contacts is found out.

A dummy stands for no ship, so the first enemy that contacts it sees there is
nothing there. It is taken off the map before any encounter is reported, so it
fights nobody and stops no one: an enemy on attack orders there goes on to the
world's defences (§10.1) as though the place were empty (reading
``contacted-dummy-is-found-out``); dummies that meet only dummies stay (reading
``dummies-meeting-dummies-stay``). The rulebook's §15.2 states both.
"""

from __future__ import annotations

import dataclasses

from ftpress.rules.ftc2007.orders import place
from ftpress.rules.ftc2007.sections import rule
from ftpress.state import words
from ftpress.state.events import Audience, Event
from ftpress.state.hexes import Hex
from ftpress.state.model import Group, GroupsFile, State


def unmask_dummies(state: State) -> tuple[State, list[Event]]:
    """§15.2, §15.3: every dummy counter that shares a place, after the moves and the
    withdrawals, with another power's group that stands for a ship is found out and
    taken off the map. Who contacted it learns it was a dummy (its owner and those
    powers are told); no one else is, since news travels no faster than ships. A
    counter with no ship sees nothing, so dummies that meet only dummies stay."""
    at_hex: dict[Hex, list[Group]] = {}
    for group in state.groups.groups:
        h = state.hex_of(group.at)
        if h is not None:
            at_hex.setdefault(h, []).append(group)
    found: list[Event] = []
    gone: set[str] = set()
    for _, groups in sorted(at_hex.items()):
        for dummy in (g for g in groups if g.dummy):
            finders = sorted({g.owner for g in groups if g.owner != dummy.owner and g.ships})
            if not finders:
                continue
            gone.add(dummy.id)
            told = Audience.told(dummy.owner, *finders)
            found.append(Event(
                "dummy-found", rule("15.2"),
                f"{words.group(state, dummy.id, told, start=True)} at "
                f"{place(state, dummy.at)} is contacted by "
                f"{words.powers(state, finders)} and found to be a dummy counter, "
                "standing for no ship: it is taken off the map and fights no one.",
                audience=told, player=dummy.owner, group=dummy.id, at=dummy.at,
                players=tuple(finders)))
    if not gone:
        return state, []
    kept = tuple(g for g in state.groups.groups if g.id not in gone)
    return dataclasses.replace(state, groups=GroupsFile(kept)), found
