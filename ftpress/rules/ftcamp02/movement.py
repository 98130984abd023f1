"""§4.1 Move and §4.4 Support: every move at once, from where each group stood.

A moving group takes its attached independents (§3) and the groups supporting
it (§4.4) along; one lost roll (§4.1.1) is made for all of them, in secret, so
the roll is told to the group's owner alone; the arrival is public, as markers
are. Drifting
craft are left behind and lost (§2.3). A group may pass one wormhole on the way
(§4.1.2).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from ftpress.rules.ftcamp02.crafts import drifting
from ftpress.rules.ftcamp02.flight import flight_problem
from ftpress.rules.ftcamp02.groups import (
    designs_of,
    group_kind,
    kind_of,
    points,
    store_limit,
)
from ftpress.rules.ftcamp02.orders import Journey, Vetted
from ftpress.rules.ftcamp02.plan import rule
from ftpress.rules.ftcamp02.space import location
from ftpress.rules.ftcamp02.state_ext import Ftcamp02Group, of_group
from ftpress.state import words
from ftpress.state.dice import Dice
from ftpress.state.events import PUBLIC, Audience, Event
from ftpress.state.extension import extended
from ftpress.state.model import Design, Group, GroupsFile, Ship, State
from ftpress.state.words import place, plural

#: Ruling: no lost roll is made when the group cannot fail (a net modifier of 0 or
#: better succeeds on any die), so no die is rolled for it.
ROLL_WHEN_CERTAIN = False


def party_of(state: State, group: Group) -> list[tuple[Ship, Design]]:
    """A group's craft with those of the independents attached to it."""
    riders = [g for g in state.groups.groups if of_group(g).attached_to == group.id]
    found = [(s, state.design(s.design)) for g in (group, *riders) for s in g.ships]
    return [(s, d) for s, d in found if d is not None]


def lost_roll(dice: Dice, group_id: str, journey: Journey) -> tuple[bool, int | None]:
    """§4.1.1: (passed, die) for a move: 1d6 plus the modifier must come to 1 or more."""
    if journey.modifier >= 0 and not ROLL_WHEN_CERTAIN:
        return True, None
    # Made in secret (§4.1.1): told to the owner alone, so hidden from the public.
    die = dice.d6(f"lost roll for {group_id} ({journey.modifier:+d})", rule("4.1.1"),
                  hidden=True)
    return die + journey.modifier >= 1, die


def move_groups(state: State, vetted: Mapping[str, Vetted], dice: Dice,
                where: Mapping[tuple[str, str], str | None]) -> tuple[State, list[Event]]:
    """§4.1, §4.4: carry out every move, with supporters and attached independents,
    through at most one wormhole (§4.1.2); drifting craft are left behind (§2.3)."""
    events: list[Event] = []
    groups = {g.id: g for g in state.groups.groups}
    moved: dict[str, Group] = {}
    left_behind: dict[str, int] = {}
    for player, v in sorted(vetted.items()):
        for group_id, journey in sorted(v.rest.journeys.items()):
            group = groups[group_id]
            order = where.get((player, group_id))
            problem = flight_problem(group_id, party_of(state, group))
            if problem is not None:
                events.append(Event("rejected", rule("4.1"), f"{group_id}'s move is refused "
                                    f"and it holds: {problem}.", player=player,
                                    group=group_id, order=order,
                                    audience=Audience.told(player)))
                continue
            followers = [gid for gid, o in v.accepted.items() if o.support == group_id]
            passed, die = lost_roll(dice, group_id, journey)
            roll_text = (f"needs {1 - journey.modifier}+ and rolls {die}" if die is not None
                         else "cannot fail")
            via = f" through wormhole {journey.wormhole}" if journey.wormhole else ""
            events.append(Event(
                "lost", rule("4.1.1"), f"{group_id}'s lost roll after "
                f"{plural(journey.distance, 'hex', 'hexes')}{via} (optimal {journey.optimal}, "
                f"modifier {journey.modifier:+d}) "
                f"{roll_text}: {'on course' if passed else 'lost'}.", player=player,
                group=group_id, groups=(group_id, *followers), at=location(state,
                                                                           journey.target),
                rolls=dice.log[-1:] if die is not None else (),
                audience=Audience.told(player)))
            at = location(state, journey.target)
            for gid in (group_id, *followers):
                g = groups[gid]
                if gid != group_id and flight_problem(gid, party_of(state, g)) is not None:
                    events.append(Event("rejected", rule("4.4"), f"{gid} cannot follow "
                                        f"{group_id}: {flight_problem(gid, party_of(state, g))}.",
                                        player=player, group=gid,
                                        order=where.get((player, gid)),
                                        audience=Audience.told(player)))
                    continue
                for rider in [x for x in groups.values() if of_group(x).attached_to == gid] + [g]:
                    kept = tuple(s for s in rider.ships
                                 if not ((d := state.design(s.design)) and drifting(s, d)))
                    reserve = of_group(rider).reserve
                    if len(kept) != len(rider.ships):
                        left_behind[rider.id] = len(rider.ships) - len(kept)
                        # §5.2.2: losing the craft that made it a reserve group does not
                        # make it a standard one; it must go home and re-organise.
                        reserve = reserve or (
                            kind_of(state, rider) == "reserve" and bool(kept)
                            and group_kind(d for s in kept
                                           if (d := state.design(s.design)) is not None)
                            == "standard")
                    after = extended(dataclasses.replace(rider, at=at, ships=kept),
                                     Ftcamp02Group, lost=not passed, reserve=bool(reserve))
                    # A smaller group keeps no more EPs than its store now holds (§5.2).
                    limit = store_limit(kind_of(state, after), points(designs_of(state, after)))
                    moved[rider.id] = dataclasses.replace(
                        after, endurance=min(after.endurance or 0, limit))
                events.append(Event(
                    "arrival", rule("4.4" if gid != group_id else "4.1"),
                    f"{words.group(state, gid, PUBLIC, noun='group', start=True)} "
                    f"{'follows another and ' if gid != group_id else ''}"
                    f"arrives at {place(state, at)}"
                    f"{' through a wormhole' if journey.wormhole else ''}.", audience=PUBLIC,
                    player=player, group=gid, at=at, origin=g.at,
                    order=where.get((player, gid))))
    for gid, count in sorted(left_behind.items()):
        g = moved[gid]
        events.append(Event("ship-lost", rule("2.3"), f"{gid} leaves {count} drifting "
                            f"craft behind, lost for good.", player=g.owner, group=gid,
                            audience=Audience.told(g.owner)))
    out = tuple(moved.get(g.id, g) for g in state.groups.groups if moved.get(g.id, g).ships)
    return dataclasses.replace(state, groups=GroupsFile(out)), events
