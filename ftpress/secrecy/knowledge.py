"""What a viewer knows: the campaign state as the public, or one player, may know it.

:func:`known_state` makes, from the full state, the state a viewer may know. It
is a valid :class:`~ftpress.state.model.State` (the cross-reference checks pass
on it), so it can be written as state files (a sealed campaign's plain files
are the public's known state), loaded again, and rendered like any other.

What the shared model keeps is projected here; what a ruleset keeps beside it
the ruleset declares (:class:`~ftpress.state.extension.Knowledge`, handed in
with its state extension), so a ruleset added later needs nothing of this
module. For a viewer who is not the umpire:

- the viewer's own player, groups (ids, ships, damage, endurance, dummy flags),
  slips and repairs are theirs whole, as are the systems they hold;
- another power's group is a counter where it stands, under an id that says
  only whose counter it is (``nac-counter-2``, numbered in map order, and among
  the counters at one place by what the viewer sees of them, never by their real
  ids: a group's own id is its owner's label, and would let a reader follow a
  counter from turn to turn, :func:`counter_names`); what it is (its ships, or
  that it is a dummy) only once contact has revealed it (§15.3, §15.2), never its
  endurance; a group the ruleset says an outsider cannot see (one that jumped out
  of a battle, §18.4, or an independent attached to a group, whose marker is off
  the map) is not there;
- another power's slips and repairs are not there; its
  treasury is the figure the ruleset makes public (``Knowledge.treasury``: ftc2007's
  as it stood at the start of the economic turn, §5.4), not the one in hand;
- a design is there unless only hidden ships and keels use it;
- every record's ruleset keys go through the ruleset's declaration: of a record
  the viewer does not own, what an outsider knows; of a file every player holds
  entries in (ftc2007's spares and defence works in ``queues.yaml``), the viewer's
  part.

A ruleset whose rules hide nothing (``Knowledge.hides_nothing``) lets every
viewer know the whole state: their known state is the state itself.

Any other result says whose it is (``campaign.known_to``): the checks allow it
what a full state may not hold, another power's counter whose ships are
unknown, and the renderer shows all of a power's groups only where it is the
viewer's own (:func:`ftpress.secrecy.visibility.holds_all_of`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from ftpress import rules
from ftpress.secrecy.visibility import PUBLIC_VIEW, Viewer
from ftpress.state.extension import HIDES_ITS_OWN, Extension, Knowledge
from ftpress.state.hexes import Hex
from ftpress.state.model import (
    PUBLIC_KNOWLEDGE,
    DesignsFile,
    Group,
    GroupsFile,
    Location,
    PlayersFile,
    QueuesFile,
    Ship,
    State,
)

#: ``campaign.known_to`` of the public's known state.
PUBLIC = PUBLIC_KNOWLEDGE


def marker_for(viewer: Viewer) -> str | None:
    """What a known state's ``campaign.known_to`` says for ``viewer`` (None: the umpire,
    who knows the full state)."""
    if viewer.umpire:
        return None
    return PUBLIC if viewer.player is None else viewer.player


def knowledge_of(ruleset: str) -> Knowledge:
    """What the ruleset ``ruleset`` lets outsiders know of its own keys."""
    extension = rules.STATE_EXTENSIONS.get(ruleset)
    return extension.knowledge if extension is not None else HIDES_ITS_OWN


def known_state(state: State, viewer: Viewer) -> State:
    """The state as ``viewer`` may know it (see the module docstring); the umpire's is
    ``state`` itself. A state that is already a viewer's knowledge can be narrowed to
    the public's, never widened: asking a public state for a player's is a bug."""
    marker = marker_for(viewer)
    if marker is None or state.campaign.known_to == marker:
        return state
    if state.campaign.known_to is not None and marker != PUBLIC:
        raise ValueError(f"a state known to {state.campaign.known_to!r} cannot tell what "
                         f"{marker!r} knows")
    knowledge = knowledge_of(state.campaign.ruleset)
    if knowledge.hides_nothing:
        return state
    campaign = dataclasses.replace(state.campaign, known_to=marker)
    return _Projection(state, viewer.player, knowledge).state(campaign)


class _Projection:
    """One viewer's projection of one full state."""

    def __init__(self, state: State, mine: str | None, knowledge: Knowledge) -> None:
        self.full, self.mine, self.knowledge = state, mine, knowledge
        self.navy = _navy(state, mine)

    def outsider(self, kind: str, ext: Extension | None) -> Extension | None:
        """A record's extension as someone who does not own the record knows it."""
        if ext is None:
            return None
        project = self.knowledge.outsider.get(kind)
        return project(ext) if project is not None else None

    def state(self, campaign: Any) -> State:
        full = self.full
        groups = self.counters()[0]
        queues = _owned(full.queues, self.mine, self.knowledge)
        players = tuple(p if p.id == self.mine else
                        dataclasses.replace(p, treasury=self.knowledge.treasury(p),
                                            ext=self.outsider("player", p.ext))
                        for p in full.players.players)
        systems = tuple(s if s.owner is not None and s.owner == self.mine else
                        dataclasses.replace(s, ext=self.outsider("system", s.ext))
                        for s in full.map.systems)
        map_file = dataclasses.replace(full.map, systems=systems,
                                       ext=self.outsider("map", full.map.ext))
        return State(campaign, PlayersFile(players), map_file,
                     self.designs(groups, queues), GroupsFile(groups), queues)

    def counters(self) -> tuple[tuple[Group, ...], dict[str, str]]:
        """The groups the viewer sees, others' as counters, and the name each other
        power's counter goes by where it is told apart from its neighbours."""
        full = self.full
        return _as_counters(tuple(g for g in (self.group(g) for g in full.groups.groups)
                                  if g is not None), self.mine,
                            frozenset(g.id for g in full.groups.groups))

    def group(self, group: Group) -> Group | None:
        """A group as the viewer knows it: theirs whole; another's as a counter, or
        nothing where the ruleset says an outsider cannot see it."""
        if group.owner == self.mine:
            return group
        if not self.knowledge.group_seen(group):
            return None
        # Who else has made contact with it is theirs to know, not the viewer's.
        seen = (self.mine,) if self.mine is not None and self.mine in group.seen_by else ()
        if group.shown_to(self.mine):  # contact has shown what it is: a dummy or ships
            return dataclasses.replace(group, ships=tuple(self.ship(s) for s in group.ships),
                                       endurance=None, seen_by=seen,
                                       ext=self.outsider("group", group.ext))
        return dataclasses.replace(group, ships=(), dummy=False, endurance=None, seen_by=(),
                                   ext=self.outsider("group", group.ext))

    def ship(self, ship: Ship) -> Ship:
        return dataclasses.replace(ship, ext=self.outsider("ship", ship.ext))

    def designs(self, groups: tuple[Group, ...], queues: QueuesFile) -> DesignsFile:
        """Every design but those only hidden ships and keels use; the others' keys as
        an outsider knows them, the viewer's own navy's whole."""
        shown = _designs_of(groups, queues.keels)
        used = _designs_of(self.full.groups.groups, self.full.queues.keels)
        designs = tuple(d if d.navy == self.navy else
                        dataclasses.replace(d, ext=self.outsider("design", d.ext))
                        for d in self.full.designs.designs
                        if d.id in shown or d.id not in used)
        return DesignsFile(designs)


def with_own(public: State, mine: State, player: str) -> State:
    """What ``player`` knows now, from what the public knows now (``public``, the
    public's known state) and ``player``'s known state of the latest turn (``mine``,
    from their intelligence file): the public's, with the player's own records as
    they know them (their player, groups, queues, the systems they hold, their
    navy's designs and the designs their ships and keels are built to)."""
    own_systems = {s.id: s for s in mine.map.systems if s.owner == player}
    systems = tuple(own_systems.get(s.id, s) if s.owner == player else s
                    for s in public.map.systems)
    players = tuple((mine.player(player) or p) if p.id == player else p
                    for p in public.players.players)
    groups = (*(g for g in public.groups.groups if g.owner != player),
              *mine.groups_of(player))
    have = {d.id for d in public.designs.designs}
    navy = _navy(mine, player)
    designs = (*((mine.design(d.id) or d) if d.navy == navy else d
                 for d in public.designs.designs),
               *(d for d in mine.designs.designs if d.id not in have))
    return State(dataclasses.replace(public.campaign, known_to=player), PlayersFile(players),
                 dataclasses.replace(public.map, systems=systems), DesignsFile(designs),
                 GroupsFile(groups),
                 _owned(mine.queues, player, knowledge_of(public.campaign.ruleset)))


def _owned(queues: QueuesFile, owner: str | None, knowledge: Knowledge) -> QueuesFile:
    """``owner``'s own slips and repairs, and their part of what the ruleset queues
    beside them (:attr:`Knowledge.part`); nobody else's."""
    def own(items: Iterable[Any]) -> tuple[Any, ...]:
        return tuple(i for i in items if i.owner == owner)

    part = knowledge.part.get("queues")
    ext = part(queues.ext, owner) if part is not None and queues.ext is not None else None
    return QueuesFile(own(queues.keels), own(queues.repairs), ext)


def _navy(state: State, player_id: str | None) -> str | None:
    """The navy whose designs ``player_id`` builds (their own id where they name none,
    as the order forms take it); None for the public."""
    player = state.player(player_id) if player_id is not None else None
    return (player.navy or player.id) if player is not None else None


def counter_names(state: State, viewer: Viewer) -> dict[str, str]:
    """Each other power's group (by its real id) that ``viewer`` can tell apart from the
    counters beside it, and the name its counter goes by in the viewer's known state;
    the umpire's, and every viewer's where the rules hide nothing, are the real ids.

    Everything made for the viewer names a counter so (their events, the maps), so
    that every output names it alike. Counters of one power at one place that look the
    same to the viewer (nothing shown of them, or the same) are numbered in no order
    the viewer could learn anything from, and no event names them: naming one would
    tie what it did to a number given by the order of the real ids."""
    knowledge = knowledge_of(state.campaign.ruleset)
    if marker_for(viewer) is None or knowledge.hides_nothing \
            or state.campaign.known_to is not None:
        return {g.id: g.id for g in state.groups.groups}
    return _Projection(state, viewer.player, knowledge).counters()[1]


def _as_counters(groups: tuple[Group, ...], mine: str | None, taken: frozenset[str]
                 ) -> tuple[tuple[Group, ...], dict[str, str]]:
    """``groups`` with every other power's under an id that says only whose counter it
    is, numbered per power in map order and, at one place, by what the viewer sees of
    it (``nac-counter-2``): a group's id is its owner's label, so a reader cannot follow
    a counter by it from turn to turn (``taken``: the real ids, which no such id
    repeats). The viewer's own come first, as they were. With them, real id → name of
    each counter that no other counter of its power at its place looks like."""
    def face(group: Group) -> tuple[Any, ...]:
        return (group.owner, _where(group.at), repr(dataclasses.replace(group, id="")))

    others = sorted((g for g in groups if g.owner != mine), key=face)
    alike: dict[tuple[Any, ...], int] = {}
    for group in others:
        alike[face(group)] = alike.get(face(group), 0) + 1
    counted: dict[str, int] = {}
    renamed: list[Group] = []
    names: dict[str, str] = {}
    for group in others:
        while True:
            counted[group.owner] = counted.get(group.owner, 0) + 1
            label = f"{group.owner}-counter-{counted[group.owner]}"
            if label not in taken:
                break
        renamed.append(dataclasses.replace(group, id=label))
        if alike[face(group)] == 1:
            names[group.id] = label
    mine_kept = tuple(g for g in groups if g.owner == mine)
    names |= {g.id: g.id for g in mine_kept}
    return (*mine_kept, *renamed), names


def _where(at: Location) -> tuple[Any, ...]:
    """A place as a sort key: worlds by id, then hexes, then points of a plane."""
    if isinstance(at, str):
        return (0, at)
    if isinstance(at, Hex):
        return (1, at.q, at.r)
    return (2, at.x, at.y)


def _designs_of(groups: Iterable[Group], keels: Iterable[Any]) -> set[str]:
    """The designs the ships of ``groups`` and the ``keels`` are built to."""
    return {s.design for g in groups for s in g.ships} | {k.design for k in keels}


def public_state(state: State) -> State:
    """:func:`known_state` for the public: what every reader may know."""
    return known_state(state, PUBLIC_VIEW)
