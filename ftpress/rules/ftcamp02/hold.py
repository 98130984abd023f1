"""§4.2 Hold sub-orders that ftpress carries out: Tug (§4.2.6) and Special
(§4.2.11). Other powers are told only that a group holds, so the events of
hold sub-orders are told to the group's owner alone. Sub-orders that need
chapters missing from the rulebook are refused when orders are vetted
(:data:`.orders.MISSING_CHAPTER`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from ftpress.rules.ftcamp02.orders import Vetted
from ftpress.rules.ftcamp02.plan import rule
from ftpress.rules.ftcamp02.state_ext import Ftcamp02Ship, of_design, of_ship
from ftpress.state.events import Audience, Event
from ftpress.state.extension import extended
from ftpress.state.model import GroupsFile, State
from ftpress.state.words import plural


def hold_orders(state: State, vetted: Mapping[str, Vetted],
                where: Mapping[tuple[str, str], str | None]) -> tuple[State, list[Event]]:
    """§4.2 the hold sub-orders carried out: §4.2.6 civilian tugs make ready;
    §4.2.11 Hold-Special goes to the umpire."""
    events: list[Event] = []
    ready: set[tuple[str, str]] = set()
    for player, v in sorted(vetted.items()):
        for group_id, order in sorted(v.accepted.items()):
            if order.action != "hold":
                continue
            group = next(g for g in state.groups.groups if g.id == group_id)
            subs = {s.name: order.crafts.get(s.name, order.sub) for s in group.ships}
            tugs = [s.name for s in group.ships if subs[s.name] == "tug"
                    and (d := state.design(s.design)) is not None and of_design(d).tug > 0
                    and of_design(d).tug_grade == "civilian" and not of_ship(s).tug_ready]
            secret = where.get((player, f"{group_id}#crafts")) if order.crafts else \
                where.get((player, f"{group_id}#hold"))
            if tugs:
                ready.update((group_id, name) for name in tugs)
                events.append(Event("tug", rule("4.2.6"),
                                    f"{plural(len(tugs), 'civilian tug')} of {group_id} "
                                    f"make{'' if len(tugs) > 1 else 's'} ready to tow from "
                                    "next round.", player=player, group=group_id,
                                    order=secret, audience=Audience.told(player)))
            if "special" in subs.values():
                events.append(Event("not-resolved", rule("4.2.11"), f"{group_id} takes "
                                    "Hold-Special: the umpire rules on it; ftpress does not "
                                    "carry it out.", player=player, group=group_id,
                                    order=secret, note=order.note,
                                    audience=Audience.told(player)))
    groups = tuple(dataclasses.replace(g, ships=tuple(
        extended(s, Ftcamp02Ship, tug_ready=True) if (g.id, s.name) in ready else s
        for s in g.ships)) for g in state.groups.groups)
    return dataclasses.replace(state, groups=GroupsFile(groups)), events
