"""§17 Encounters: where two powers' groups end the week in one place, or a
group on withdraw if contested pulls out (§17.2.3).

This module reports each encounter; :mod:`.battles` settles it: on the
tabletop with a battle-result file, or by the abstract combat (§14), as the
campaign's ``settings.battles`` says.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Mapping

from ftpress.events import PUBLIC, Event
from ftpress.hexes import Hex
from ftpress.rules.ftc2007.defences import Beaten, lone_scout
from ftpress.rules.ftc2007.orders import place
from ftpress.rules.ftc2007.plan import Plan
from ftpress.rules.ftc2007.sections import rule
from ftpress.state.model import Group, GroupsFile, Location, State

#: Ruling: groups of two powers that end a turn in the same hex of open space
#: meet just as they would at a world; §17 speaks of systems, but nothing in the
#: rules lets two fleets share a hex unseen.
ENCOUNTERS_IN_OPEN_SPACE = True

#: §17.2.3 names no place for a withdrawing group to go. One that arrived this
#: week goes back where it set out from (24 March: the frigate seen off at Vesper
#: is "back at Orison"); one that began the week there has no recorded way out
#: (§18.4 asks its player for a destination), so its encounter awaits the umpire.
WITHDRAWN_GROUP_RETURNS_TO_ORIGIN = True

_HOW = {"tabletop": "to be fought on the tabletop (the umpire enters the result)",
        "abstract": "to be resolved by the abstract combat (§14)",
        "agreed": "to be fought on the tabletop or by the abstract combat (§14), as the "
                  "players agree"}


def detect_encounters(state: State, plan: Plan) -> list[Event]:
    """§17.2: every place where two powers' groups are, reported as awaiting
    resolution. Attacks on defences where nobody opposes are settled by
    :mod:`.defences`."""
    how = _HOW[state.campaign.settings.battles]
    events: list[Event] = []
    for h, groups in sorted(_by_hex(state).items()):
        owners = tuple(sorted({g.owner for g in groups}))
        world = state.system_at(h)
        at: str | Hex = world.id if world else h
        if len(owners) < 2 or (world is None and not ENCOUNTERS_IN_OPEN_SPACE):
            continue
        listing = "; ".join(f"{g.id} ({g.owner}, {plan.posture(g.id, g.owner)})"
                            for g in groups)
        events.append(Event(
            "encounter", rule("17.2"), f"Forces of {', '.join(owners)} meet at "
            f"{place(state, at)}: {listing}. The encounter awaits resolution, {how}.",
            audience=PUBLIC, at=at, groups=tuple(g.id for g in groups), players=owners))
    return events


def contested(state: State) -> frozenset[Hex]:
    """The hexes where two or more powers' groups are: a battle comes before any
    attack on the defences there (§9.1, §10.1)."""
    return frozenset(h for h, groups in _by_hex(state).items()
                     if len({g.owner for g in groups}) >= 2)


def withdraw_if_contested(state: State, plan: Plan, set_out: Mapping[str, Location]
                          ) -> tuple[State, list[Event], dict[str, Beaten]]:
    """§17.2.3: a group on withdraw if contested leaves when a hostile mobile force
    is there. Where every group but one power's is on that posture and arrived
    this week, they go back where they set out from (WITHDRAWN_GROUP_RETURNS_TO_ORIGIN),
    and at a world they count as a fleet beaten there (§9.2: it chose to leave),
    unless they are a lone scout (§10.2 as ruled 24 March). Returns the new
    state, the events, and the beaten fleets by world.
    """
    events: list[Event] = []
    beaten: dict[str, Beaten] = {}
    back: dict[str, Location] = {}
    for h, groups in sorted(_by_hex(state).items()):
        owners = {g.owner for g in groups}
        if len(owners) < 2:
            continue
        leaving = [g for g in groups if plan.posture(g.id, g.owner) == "withdraw-if-contested"]
        staying = {g.owner for g in groups if g not in leaving}
        if len(staying) != 1 or any(g.owner in staying for g in leaving):
            continue
        if not all(state.hex_of(set_out.get(g.id, g.at)) != h for g in leaving):
            continue
        world = state.system_at(h)
        at: str | Hex = world.id if world else h
        for g in leaving:
            back[g.id] = set_out[g.id]
            events.append(Event(
                "withdrawal", rule("17.2.3"), f"{g.id} ({g.owner}) meets hostile forces at "
                f"{place(state, at)} and withdraws to {place(state, set_out[g.id])}.",
                audience=PUBLIC, player=g.owner, group=g.id, at=set_out[g.id], origin=at,
                posture="withdraw-if-contested"))
        if world is not None:
            beaten[world.id] = Beaten(tuple(g.id for g in leaving), lone_scout(state, leaving))
    groups = tuple(dataclasses.replace(g, at=back[g.id]) if g.id in back else g
                   for g in state.groups.groups)
    return dataclasses.replace(state, groups=GroupsFile(groups)), events, beaten


def _by_hex(state: State) -> dict[Hex, list[Group]]:
    by_hex: dict[Hex, list[Group]] = defaultdict(list)
    for group in state.groups.groups:
        h = state.hex_of(group.at)
        assert h is not None
        by_hex[h].append(group)
    return {h: sorted(gs, key=lambda g: (g.owner, g.id)) for h, gs in by_hex.items()}
