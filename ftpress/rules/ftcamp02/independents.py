"""§3 Attach independents: after EPs are spent and before orders are issued,
independents join or leave standard fleet groups in their hex.

An attached independent's marker comes off the map (so it can be hidden in a
group), and the events say so only to its owner.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from ftpress.rules.ftcamp02.orders import Vetted
from ftpress.rules.ftcamp02.plan import rule
from ftpress.rules.ftcamp02.state_ext import Ftcamp02Group
from ftpress.state.events import Audience, Event
from ftpress.state.extension import extended
from ftpress.state.model import GroupsFile, State


def attach_independents(state: State, vetted: Mapping[str, Vetted],
                        where: Mapping[tuple[str, str], str | None]) -> tuple[State, list[Event]]:
    """§3.1: detachments first, then attachments, as each player's file gives them."""
    events: list[Event] = []
    changes: dict[str, str | None] = {}
    for player, v in sorted(vetted.items()):
        for group_id in v.rest.detach:
            changes[group_id] = None
            events.append(Event("detach", rule("3.1"), f"{group_id} is detached and its "
                                "marker goes back on the map.", player=player, group=group_id,
                                order=where.get((player, group_id)),
                                audience=Audience.told(player)))
        for group_id, target in sorted(v.rest.attach.items()):
            changes[group_id] = target
            events.append(Event("attach", rule("3.1"), f"{group_id} is attached to {target} "
                                "and its marker comes off the map.", player=player,
                                group=group_id, groups=(group_id, target),
                                order=where.get((player, group_id)),
                                audience=Audience.told(player)))
    groups = tuple(extended(g, Ftcamp02Group, attached_to=changes[g.id]) if g.id in changes
                   else g
                   for g in state.groups.groups)
    return dataclasses.replace(state, groups=GroupsFile(groups)), events
