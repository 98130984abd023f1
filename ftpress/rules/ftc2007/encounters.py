"""§17 Encounters: where two powers' groups end the week in one place, or a
group on attack orders faces a world's defences alone.

This version of ftpress reports each encounter and leaves its outcome to be
settled: on the tabletop with a battle-result file, or by the abstract combat
(§14), as the campaign's ``settings.battles`` says. Nothing is invented here.
"""

from __future__ import annotations

from collections import defaultdict

from ftpress.events import Event
from ftpress.hexes import Hex
from ftpress.rules.ftc2007.orders import place
from ftpress.rules.ftc2007.plan import Plan, rule
from ftpress.state.model import Group, State

#: Ruling: groups of two powers that end a turn in the same hex of open space
#: meet just as they would at a world; §17 speaks of systems, but nothing in the
#: rules lets two fleets share a hex unseen.
ENCOUNTERS_IN_OPEN_SPACE = True

_HOW = {"tabletop": "to be fought on the tabletop (the umpire enters the result)",
        "abstract": "to be resolved by the abstract combat (§14)",
        "agreed": "to be fought on the tabletop or by the abstract combat (§14), as the "
                  "players agree"}


def detect_encounters(state: State, plan: Plan) -> list[Event]:
    """§17.2: every place where two powers' groups are, and every lone attack on
    a world's defences (§10), each reported as awaiting resolution."""
    by_hex: dict[Hex, list[Group]] = defaultdict(list)
    for group in state.groups.groups:
        h = state.hex_of(group.at)
        assert h is not None
        by_hex[h].append(group)
    how = _HOW[state.campaign.settings.battles]
    events: list[Event] = []
    for h in sorted(by_hex):
        groups = sorted(by_hex[h], key=lambda g: (g.owner, g.id))
        owners = tuple(sorted({g.owner for g in groups}))
        world = state.system_at(h)
        at: str | Hex = world.id if world else h
        if len(owners) >= 2:
            if world is None and not ENCOUNTERS_IN_OPEN_SPACE:
                continue
            listing = "; ".join(f"{g.id} ({g.owner}, {plan.posture(g.id, g.owner)})"
                                for g in groups)
            events.append(Event(
                "encounter", rule("17.2"), f"Forces of {', '.join(owners)} meet at "
                f"{place(state, at)}: {listing}. The encounter awaits resolution, {how}; "
                "this version of ftpress does not resolve battles.", at=at,
                groups=tuple(g.id for g in groups), players=owners))
            continue
        attackers = [g for g in groups if plan.posture(g.id, g.owner) == "attack"]
        if world is not None and attackers and world.owner != owners[0]:
            whose = f"{world.owner}'s" if world.owner else "neutral"
            events.append(Event(
                "siege", rule("10.1"), f"{', '.join(g.id for g in attackers)} on attack "
                f"orders at {world.name} ({whose}): the attack on its defences awaits "
                "resolution; this version of ftpress does not resolve §10.",
                player=owners[0], at=world.id, groups=tuple(g.id for g in attackers),
                posture="attack"))
    return events
