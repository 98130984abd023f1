"""§17 Encounters: where two powers' groups end the week in one place, or a
group on withdraw if contested pulls out (§17.2.3).

This module reports each encounter; :mod:`.battles` settles it: on the
tabletop with a battle-result file, or by the abstract combat (§14), as the
campaign's ``settings.battles`` says.
"""

from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence

from ftpress.rules.ftc2007.defences import Beaten, lone_scout
from ftpress.rules.ftc2007.departures import mark_jumped, seen_leaving
from ftpress.rules.ftc2007.orders import place, reach
from ftpress.rules.ftc2007.plan import Plan
from ftpress.rules.ftc2007.sections import rule
from ftpress.state import words
from ftpress.state.events import PUBLIC, Audience, Event
from ftpress.state.hexes import Hex, on_map
from ftpress.state.model import Group, GroupsFile, Location, State
from ftpress.state.words import counted, power, powers

#: Ruling: groups of two powers that end a turn in the same hex of open space
#: meet just as they would at a world; §17 speaks of systems, but nothing in the
#: rules lets two fleets share a hex unseen.
ENCOUNTERS_IN_OPEN_SPACE = True

#: §17.3 (the text's 17.4): where every fleet in a system stands off, the players
#: may pick fresh postures in secret, again and again until one fleet is left,
#: or leave their fleets there on stand off. Ruling: ftpress takes the second.
#: Orders are given once a week and travel no faster than ships, so the secret
#: re-pick is the next week's orders: the week ends with no battle and no pause
#: (a turn pauses for a tabletop result, never for a new round of orders), and
#: each group there stands off until its next orders give it a posture.
ALL_STAND_OFF_STAY = True

#: How an encounter's listing says each posture.
_POSTURES = {"stand-off": "standing off", "attack": "on attack orders",
             "withdraw-if-contested": "to withdraw if contested"}

_HOW = {"tabletop": "to be fought on the tabletop (the umpire enters the result)",
        "abstract": "to be resolved by the abstract combat (§14)",
        "agreed": "to be fought on the tabletop or by the abstract combat (§14), as the "
                  "players agree"}


def detect_encounters(state: State, plan: Plan) -> list[Event]:
    """§17.2: every place where two powers' groups are, reported as awaiting
    resolution. Attacks on defences where nobody opposes are settled by
    :mod:`.defences`."""
    how = _HOW[state.campaign.settings.battles]
    events: list[Event] = []
    for h, groups in sorted(_by_hex(state).items()):
        owners = tuple(sorted({g.owner for g in groups}))
        world = state.system_at(h)
        at: str | Hex = world.id if world else h
        if len(owners) < 2 or (world is None and not ENCOUNTERS_IN_OPEN_SPACE):
            continue
        sides = Counter((g.owner, plan.posture(g.id, g.owner)) for g in groups)
        listing = "; ".join(f"{counted(n, 'task group')} of {power(state, owner)}, "
                            f"{_POSTURES[posture]}" for (owner, posture), n in sides.items())
        if ALL_STAND_OFF_STAY and not someone_attacks(plan, groups):
            section, then = rule("17.3"), ("Every fleet there stands off, so there is no "
                                           "battle this week: they stay, still standing "
                                           "off, until their next orders give them a "
                                           "posture (§17.3)")
        else:
            section, then = rule("17.2"), f"The encounter awaits resolution, {how}"
        events.append(Event(
            "encounter", section, f"Forces of {powers(state, owners)} meet at "
            f"{place(state, at)}: {listing}. {then}.",
            audience=PUBLIC, at=at, groups=tuple(g.id for g in groups), players=owners))
    return events


def someone_attacks(plan: Plan, groups: Sequence[Group]) -> bool:
    """Is a group with ships among ``groups`` on attack orders (§17.2.2)? If none
    is, nobody fights there this week (§17.3, :data:`ALL_STAND_OFF_STAY`)."""
    return any(plan.posture(g.id, g.owner) == "attack" and g.ships for g in groups)


def contested(state: State) -> frozenset[Hex]:
    """The hexes where two or more powers' groups are: a battle comes before any
    attack on the defences there (§9.1, §10.1)."""
    return frozenset(h for h, groups in _by_hex(state).items()
                     if len({g.owner for g in groups}) >= 2)


def withdraw_if_contested(state: State, plan: Plan, set_out: Mapping[str, Location]
                          ) -> tuple[State, list[Event], dict[str, Beaten]]:
    """§17.2.3: a group on withdraw if contested leaves when any hostile mobile
    force is there (:func:`hostile_force`), however many powers that makes and
    whatever their postures, so two such groups that meet both leave; a garrison
    that began the week there leaves too, as soon as the enemy arrives. One that
    arrived this week goes back where it set out from, a garrison to the nearest
    safe place in a jump (:func:`bolt_hole`, reading
    ``withdrawn-group-returns-to-origin``), and that jump is its next week's move
    (§18.4, :mod:`.departures`); at a world the groups that leave count
    as a fleet beaten there (§9.2: they chose to leave), unless they are a lone
    scout (§10.2 as ruled 24 March). Facing only the defences, a group stays
    (reading ``withdraw-if-contested-stays-before-defences``). Returns the new state, the
    events, and the beaten fleets by world.
    """
    events: list[Event] = []
    beaten: dict[str, Beaten] = {}
    back: dict[str, Location] = {}
    for h, groups in sorted(_by_hex(state).items()):
        away: dict[str, Location] = {}
        for g in groups:
            if plan.posture(g.id, g.owner) != "withdraw-if-contested" or \
                    not hostile_force(g, groups):
                continue
            origin = set_out.get(g.id, g.at)
            to = origin if state.hex_of(origin) != h else bolt_hole(state, g, h)
            if to is not None:
                away[g.id] = to
        leaving = [g for g in groups if g.id in away]
        if not leaving:
            continue
        world = state.system_at(h)
        at: str | Hex = world.id if world else h
        for g in leaving:
            back[g.id] = away[g.id]
            # A jump out like any other (§18.4): seen leaving, its destination its own.
            events.append(seen_leaving(state, g.id, g.owner, at, "17.2.3"))
            events.append(Event(
                "withdrawal", rule("17.2.3"),
                f"{words.group(state, g.id, Audience.told(g.owner), start=True)} meets "
                f"hostile forces at {place(state, at)} and withdraws to "
                f"{place(state, back[g.id])}.", audience=Audience.told(g.owner),
                player=g.owner, group=g.id, at=back[g.id], origin=at,
                posture="withdraw-if-contested"))
        if world is not None:
            beaten[world.id] = Beaten(tuple(g.id for g in leaving), lone_scout(state, leaving))
    moved = tuple(dataclasses.replace(g, at=back[g.id]) if g.id in back else g
                  for g in state.groups.groups)
    state = mark_jumped(dataclasses.replace(state, groups=GroupsFile(moved)), back)
    return state, events, beaten


def bolt_hole(state: State, group: Group, h: Hex) -> Location | None:
    """§17.2.3: where a garrison on withdraw if contested goes when the enemy arrives
    (reading ``withdrawn-group-returns-to-origin``): the nearest world of its owner's in a
    jump (§8.1) that no hostile force holds, nearer first then by name; else the first
    hex of open space beside it, clockwise from the top of the map, that none holds;
    else None (it has nowhere to go and stays)."""
    by_hex = _by_hex(state)

    def safe(there: Hex) -> bool:
        return not hostile_force(group, by_hex.get(there, []))

    for world_id in reach(state, group).jumps:
        world = state.system(world_id)
        if world is not None and world.hex is not None and world.owner == group.owner \
                and safe(world.hex):
            return world.id
    beside = [n for n in h.neighbours() if on_map(n, state.map.radius)
              and state.system_at(n) is None and safe(n)]
    return beside[0] if beside else None


def hostile_force(group: Group, groups: Sequence[Group]) -> bool:
    """§17.2.3 "hostile mobile forces": a group of another power with at least one
    ship among ``groups``. A dummy counter is no force, and the planetary defences
    are not mobile."""
    return any(g.owner != group.owner and g.ships for g in groups)


def _by_hex(state: State) -> dict[Hex, list[Group]]:
    by_hex: dict[Hex, list[Group]] = defaultdict(list)
    for group in state.groups.groups:
        h = state.hex_of(group.at)
        assert h is not None
        by_hex[h].append(group)
    return {h: sorted(gs, key=lambda g: (g.owner, g.id)) for h, gs in by_hex.items()}
