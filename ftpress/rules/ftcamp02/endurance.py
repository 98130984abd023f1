"""§2 Expend EPs: every group away from friendly systems uses up endurance points
from its store; a friendly system's free allowance carries the groups on it.
"""

from __future__ import annotations

import dataclasses

from ftpress.rules.ftcamp02.crafts import crew_factors, drifting
from ftpress.rules.ftcamp02.groups import designs_of, ep_rating, kind_of, points, store_limit
from ftpress.rules.ftcamp02.plan import rule
from ftpress.rules.ftcamp02.space import friendly, place_hex
from ftpress.rules.ftcamp02.state_ext import Ftcamp02Ship, of_ship, of_system
from ftpress.state.events import Audience, Event
from ftpress.state.extension import extended
from ftpress.state.model import Group, GroupsFile, State, System

#: §2.1: a system supports five times its Biology rate in EP costs a round, free.
ALLOWANCE_PER_BIO = 5

#: Ruling: the free allowance is a friendly system's; it pays first the round's EP
#: costs of the groups on it, then tops up their stores (§5.2), in the order the
#: groups are listed. Costs beyond the allowance burden the world, which is the
#: Resources Phase's business (not part of this rulebook): they are reported, and
#: the stores are topped up only from what the allowance leaves.
ALLOWANCE_TOPS_UP_STORES = True

#: Ruling: a system whose Biology rate is not recorded has no free allowance, and
#: the cost of the groups it carries is not reported (it has not been rated yet).
UNRATED_SYSTEMS_REPORTED = False

#: Ruling: a group that cannot pay its whole EP cost (§2.3) uses up what it has left.
SHORTFALL_EMPTIES_STORE = True


def allowance(system: System) -> int:
    """§2.1: a system's free allowance, five EP per point of Biology (Bio 19: 95 EP)."""
    return ALLOWANCE_PER_BIO * (of_system(system).bio or 0)


def expend_endurance(state: State) -> tuple[State, list[Event]]:
    """§2: each group pays its EP cost (1 EP per 100 points or part, §2.2).

    Away from friendly systems it pays from its store; short, every craft in it
    loses a crew factor (§2.3). On a friendly system (§2.1) the system's free
    allowance first pays the costs of all the groups on it, then fills their
    stores from what is left, in the order the groups are listed.
    """
    events: list[Event] = []
    groups = list(state.groups.groups)
    carried = _carried(state)
    # What each allowance has left once it has paid every group's cost: a store
    # filled early must not leave a group listed later unpaid.
    remaining = {system_id: max(allowance(c.system) - c.cost, 0)
                 for system_id, c in carried.items()}
    for i, group in enumerate(groups):
        designs = designs_of(state, group)
        if not designs:
            continue
        size = points(designs)
        cost = ep_rating(size)
        store = group.endurance or 0
        here = state.system_at(place_hex(state, group))
        if here is not None and friendly(state, here, group.owner):
            left = remaining[here.id]
            top_up = min(left, store_limit(kind_of(state, group), size) - store) \
                if ALLOWANCE_TOPS_UP_STORES else 0
            top_up = max(top_up, 0)
            remaining[here.id] = left - top_up
            if top_up:
                groups[i] = dataclasses.replace(group, endurance=store + top_up)
                events.append(Event("endurance", rule("2.1"), f"{group.id} fills its store "
                                    f"with {top_up} EP from {here.name}'s free allowance "
                                    f"({store + top_up} in store).", player=group.owner,
                                    group=group.id, at=group.at,
                                    audience=Audience.told(group.owner)))
            continue
        if store >= cost:
            groups[i] = dataclasses.replace(group, endurance=store - cost)
            events.append(Event("endurance", rule("2.2"), f"{group.id} spends {cost} EP "
                                f"away from friendly systems ({store - cost} left).",
                                player=group.owner, group=group.id, at=group.at,
                                audience=Audience.told(group.owner)))
            continue
        groups[i], event = out_of_supply(state, group, cost)
        events.append(event)
    for system_id, c in sorted(carried.items()):
        system, cost = c.system, c.cost
        rated = of_system(system).bio is not None
        if (rated or UNRATED_SYSTEMS_REPORTED) and cost > allowance(system):
            events.append(Event("not-resolved", rule("2.1"), f"{system.name} carries "
                                f"{cost} EP of fleets this round, {cost - allowance(system)} "
                                f"more than its free allowance of {allowance(system)}; what "
                                "that costs the world is for the Resources Phase, which is "
                                "not part of this rulebook.", at=system_id,
                                player=system.owner,
                                # What fleets cost tells how big they are: their owners'.
                                audience=Audience.told(*c.owners)))
    return dataclasses.replace(state, groups=GroupsFile(tuple(groups))), events


@dataclasses.dataclass(frozen=True, slots=True)
class _Carried:
    """What a friendly system carries this round: the round's EP costs of the
    groups on it that count it as friendly, and whose groups they are."""

    system: System
    cost: int = 0
    owners: frozenset[str] = frozenset()


def _carried(state: State) -> dict[str, _Carried]:
    """§2.1, §2.2: what each friendly system carries this round, by system id."""
    carried: dict[str, _Carried] = {}
    for group in state.groups.groups:
        designs = designs_of(state, group)
        here = state.system_at(place_hex(state, group))
        if designs and here is not None and friendly(state, here, group.owner):
            was = carried.get(here.id, _Carried(here))
            carried[here.id] = _Carried(here, was.cost + ep_rating(points(designs)),
                                        was.owners | {group.owner})
    return carried


def out_of_supply(state: State, group: Group, cost: int) -> tuple[Group, Event]:
    """§2.3: the EPs cannot be found: every craft loses one crew factor, and a craft
    that loses its last one drifts."""
    store = group.endurance or 0
    ships = tuple(extended(s, Ftcamp02Ship, crew_lost=min(of_ship(s).crew_lost + 1,
                                                          crew_factors(d)))
                  if (d := state.design(s.design)) is not None else s for s in group.ships)
    adrift = sum(1 for s in ships if (d := state.design(s.design)) and drifting(s, d))
    left = 0 if SHORTFALL_EMPTIES_STORE else store
    text = (f"{group.id} needs {cost} EP but has {store}: every craft loses a crew factor"
            + (f", and {adrift} drift{'s' if adrift == 1 else ''}." if adrift else "."))
    return (dataclasses.replace(group, ships=ships, endurance=left),
            Event("out-of-supply", rule("2.3"), text, player=group.owner, group=group.id,
                  at=group.at, audience=Audience.told(group.owner)))
