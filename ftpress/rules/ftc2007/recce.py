"""§15.3 Hidden composition: what a task group holds stays secret from an opponent
until that opponent makes contact with it.

Ruling ``CONTACT_AT_ENCOUNTERS_AND_SIEGES``: the rules leave "contact" to the
FT2 spotting rules, which a strategic turn cannot play out. ftpress takes a
group to be contacted when it is one of the forces of an encounter (two powers'
groups in one place after the moves, §17.2, whether or not they fight), or when
it attacks a world's defences or is refused the attack (§10): the defenders
have seen it.

Ruling ``CONTACT_TELLS_THOSE_IN_CONTACT``: the text makes a group's composition
known "to opponents" once it is contacted; ftpress reads that as the opponents
who made the contact (news travels no faster than ships): they are added to the
group's ``seen_by`` and keep the knowledge for the rest of the campaign, through
splits (§15.1). A power that was not there learns nothing, nor does the public
report. Ruling ``BATTLES_ARE_REPORTED``: a battle's report is public and names the
ships that fought and what befell them, so the groups in a battle fought this turn
become known to all (``Group.revealed``). A dummy counter that is contacted is
known to those enemies for what it is; no event tells anyone else which counters
are dummies (§15.2).

§15.2 with §15.3: a dummy counter stands for no ship, so the first enemy that
contacts it finds it out (:func:`.dummies.unmask_dummies`). It is taken off the map before
any encounter is reported, so it fights nobody and stops no one: an enemy on
attack orders there goes on to the world's defences as if the place were empty.

Who is told: a contact event goes to the powers in contact (the group's owner
and the enemies who saw it); an event naming what a group holds goes to its
owner and to the powers that have contacted it (:func:`who_knows`), and to
everyone only where a group is revealed to all (``Group.revealed``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ftpress.rules.ftc2007.sections import rule
from ftpress.state import words
from ftpress.state.events import PUBLIC, Audience, Event
from ftpress.state.model import GroupsFile, Location, State

#: The events whose groups an enemy has made contact with.
CONTACT_AT_ENCOUNTERS_AND_SIEGES = frozenset({"encounter", "siege", "siege-refused",
                                              "repulsed"})


def who_knows(state: State, group_id: str | None, owner: str) -> Audience:
    """§15.3, §15.2: who may read an event naming what a group holds: its owner and
    the powers that have made contact with it (everyone, where it is revealed to
    all); a dummy counter's owner alone, always (no event says which are dummies)."""
    group = next((g for g in state.groups.groups if g.id == group_id), None)
    if group is None or group.dummy:
        return Audience.told(owner)
    if group.revealed:
        return PUBLIC
    return Audience.told(owner, *group.seen_by)


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
    # A battle's report is public and names the ships that fought (§17), so what
    # fought is known to all (Ruling BATTLES_ARE_REPORTED).
    fought = {group_id for event in events if event.kind == "battle"
              for group_id in event.groups}
    # Those who learn something new: the enemies in contact not already in the know.
    learning = {g.id: sorted(met[g.id] - {g.owner} - set(g.seen_by))
                for g in state.groups.groups if g.id in met and not g.revealed}
    newly = [g for g in state.groups.groups if learning.get(g.id)]
    if not newly and not fought:
        return state, []
    groups = tuple(dataclasses.replace(g, revealed=True) if g.id in fought else
                   dataclasses.replace(g, seen_by=tuple(sorted({*g.seen_by, *learning[g.id]})))
                   if g in newly else g for g in state.groups.groups)
    found = [Event("contact", rule("15.3"),
                   f"{words.group(state, g.id, Audience.told(g.owner, *met[g.id]), start=True)}"
                   " has been in contact with the enemy: what it holds is known to "
                   f"{_knowers(state, g.id in fought, learning[g.id])} from now on.",
                   audience=Audience.told(g.owner, *met[g.id]), player=g.owner,
                   group=g.id, at=where.get(g.id, g.at)) for g in newly]
    return dataclasses.replace(state, groups=GroupsFile(groups)), found


def _knowers(state: State, fought: bool, learning: Sequence[str]) -> str:
    """Who knows a contacted group's make-up from now on, in words: the powers that
    made the contact, by name, and everyone when it fought a battle (whose report is
    public, Ruling BATTLES_ARE_REPORTED)."""
    named = words.listed([words.power(state, p) for p in learning])
    return f"{named} and, through the battle's public report, to all" if fought else named
