"""§16.2: the umpires' approval of technology that is not standard, told to every player.

The umpire records an approval on the design in ``designs.yaml``
(``approved: 2026-03-09``). The next turn resolved tells every player, in a
public event, and marks the design ``announced``; keels may be laid to it (and
changed to it, §13.2) from the turn after, once everyone has been told
(:func:`.construction.approval_problem`).
"""

from __future__ import annotations

import dataclasses

from ftpress.rules.ftc2007.construction import own_navy
from ftpress.rules.ftc2007.sections import rule
from ftpress.rules.ftc2007.state_ext import Ftc2007Design, announced, approved_on, tech_of
from ftpress.state.events import PUBLIC, Event
from ftpress.state.extension import extended
from ftpress.state.model import State
from ftpress.state.words import long_date, powers_own


def announce_approvals(state: State) -> tuple[State, list[Event]]:
    """§16.2: every approval the umpire has recorded and no turn has announced yet is
    told to every player, in design order.

    Reading ``approval-at-any-time`` (the ruleset's readings).
    """
    events: list[Event] = []
    designs = []
    for design in state.designs.designs:
        day = approved_on(design)
        if day is not None and not announced(design):
            builder = next((p.id for p in state.players.players
                            if own_navy(p) == design.navy), None)
            navy = (f"{powers_own(state, builder)} navy" if builder
                    else f"the {design.navy.upper()} navy")
            events.append(Event(
                "approval", rule("16.2"), f"The umpires have approved {design.name}, a "
                f"{design.size} of {navy} with {tech_of(design)} technology, on "
                f"{long_date(day)}: every player is told, and it may be built from next week.",
                audience=PUBLIC))
            design = extended(design, Ftc2007Design, announced=True)
        designs.append(design)
    if not events:
        return state, []
    return dataclasses.replace(state, designs=dataclasses.replace(
        state.designs, designs=tuple(designs))), events
