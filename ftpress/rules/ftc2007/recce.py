"""§15.3 Hidden composition: what a task group holds stays secret until an enemy
makes contact with it.

Ruling ``CONTACT_AT_ENCOUNTERS_AND_SIEGES``: the rules leave "contact" to the
FT2 spotting rules, which a strategic turn cannot play out. ftpress takes a
group to be contacted when it is one of the forces of an encounter (two powers'
groups in one place after the moves, §17.2, whether or not they fight), or when
it attacks a world's defences or is refused the attack (§10): the defenders
have seen it. A contacted group stays known (``Group.revealed``) for the rest of
the campaign, through splits and merges (§15.1). A dummy counter that is
contacted is known to its enemy for what it is; the public site still never
says which counters are dummies (§15.2).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ftpress.events import Event
from ftpress.rules.ftc2007.sections import rule
from ftpress.state.model import GroupsFile, State

#: The events whose groups an enemy has made contact with.
CONTACT_AT_ENCOUNTERS_AND_SIEGES = frozenset({"encounter", "siege", "siege-refused",
                                              "repulsed"})


def make_contact(state: State, events: Sequence[Event]) -> tuple[State, list[Event]]:
    """§15.3: every group of this turn's encounters and sieges becomes known."""
    seen: set[str] = set()
    for event in events:
        if event.kind in CONTACT_AT_ENCOUNTERS_AND_SIEGES:
            seen.update(event.groups)
            if event.group is not None:
                seen.add(event.group)
    newly = [g for g in state.groups.groups if g.id in seen and not g.revealed]
    if not newly:
        return state, []
    groups = tuple(dataclasses.replace(g, revealed=True) if g in newly else g
                   for g in state.groups.groups)
    found = [Event("contact", rule("15.3"), f"{g.id} ({g.owner}) has been in contact with "
                   "the enemy: what it holds is known from now on.", player=g.owner,
                   group=g.id, at=g.at) for g in newly]
    return dataclasses.replace(state, groups=GroupsFile(groups)), found
