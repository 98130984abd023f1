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

Who is told: a contact event goes to the powers in contact (the group's owner
and the enemies who saw it); an event naming what a group holds goes to
everyone once the group is known, and to its owner alone before (:func:`who_knows`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ftpress import words
from ftpress.events import PUBLIC, Audience, Event
from ftpress.rules.ftc2007.sections import rule
from ftpress.state.model import GroupsFile, Location, State

#: The events whose groups an enemy has made contact with.
CONTACT_AT_ENCOUNTERS_AND_SIEGES = frozenset({"encounter", "siege", "siege-refused",
                                              "repulsed"})


def who_knows(state: State, group_id: str | None, owner: str) -> Audience:
    """§15.3, §15.2: who may read an event naming what a group holds: everyone once
    an enemy has made contact with it, its owner alone before; a dummy counter's
    owner alone, always (no event tells the public which counters are dummies)."""
    group = next((g for g in state.groups.groups if g.id == group_id), None)
    if group is not None and group.revealed and not group.dummy:
        return PUBLIC
    return Audience.told(owner)


def make_contact(state: State, events: Sequence[Event]) -> tuple[State, list[Event]]:
    """§15.3: every group of this turn's encounters and sieges becomes known, and
    each contact is told to the powers in contact: the group's owner and the
    powers of the encounter or siege (a world's owner defends it)."""
    met: dict[str, set[str]] = {}
    # Where the contact was made: a group that jumped out since stands elsewhere, and
    # where it went is its owner's to know (§18.4).
    where: dict[str, Location] = {}
    for event in events:
        if event.kind in CONTACT_AT_ENCOUNTERS_AND_SIEGES:
            world = state.system(event.at) if isinstance(event.at, str) else None
            powers = {*event.players, event.player, world.owner if world else None}
            for group_id in (*event.groups, *([event.group] if event.group else [])):
                met.setdefault(group_id, set()).update(p for p in powers if p)
                if event.at is not None:
                    where.setdefault(group_id, event.at)
    newly = [g for g in state.groups.groups if g.id in met and not g.revealed]
    if not newly:
        return state, []
    groups = tuple(dataclasses.replace(g, revealed=True) if g in newly else g
                   for g in state.groups.groups)
    found = [Event("contact", rule("15.3"),
                   f"{words.group(state, g.id, Audience.told(g.owner, *met[g.id]), start=True)}"
                   " has been in contact with the enemy: what it holds is known from now on.",
                   audience=Audience.told(g.owner, *met[g.id]), player=g.owner,
                   group=g.id, at=where.get(g.id, g.at)) for g in newly]
    return dataclasses.replace(state, groups=GroupsFile(groups)), found
