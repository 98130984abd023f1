"""§14, §17.3–§17.5, §18: the battles of a turn, fought on the table or in the abstract.

A battle is fought where two powers' groups are left in one place after the
postures (§17.2.3 withdrawals) and at least one of them is on attack orders
(§17.3: fleets that all stand off fight nobody). The campaign's
``settings.battles`` says how: ``tabletop``, ``abstract`` (the abstract combat
of seed 001, :mod:`ftpress.rules.abstract_combat`), or ``agreed`` (the table,
unless every power in the battle asks for the abstract combat with
``battle: abstract`` on an order of a group there, §14.1).

A tabletop battle with no result yet is reported as a ``battle-pending``
event: ``ftpress turn`` then writes the battle-result file and records
nothing. Once the umpire has filled it in, the turn is resolved again with
the result (a :class:`ftpress.state.battle_results.LoadedBattle`), which is checked
against the forces that fought and folded in here. After the battles, §10
attacks on the defences follow where the field is now held by one power.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from ftpress.errors import InputError, Problem
from ftpress.rules import abstract_combat as ac
from ftpress.rules.ftc2007.capture import OWN_HULKS_RECOVERED, seize_prizes, take_prize
from ftpress.rules.ftc2007.defences import Beaten, after_losses, lone_scout
from ftpress.rules.ftc2007.departures import jump_out, mark_jumped, seen_leaving
from ftpress.rules.ftc2007.encounters import ALL_STAND_OFF_STAY, someone_attacks
from ftpress.rules.ftc2007.orders import place
from ftpress.rules.ftc2007.plan import Plan
from ftpress.rules.ftc2007.sections import rule
from ftpress.rules.ftc2007.state_ext import grafted, interdictor
from ftpress.rules.ftc2007.table_notes import abstract_checks, checks_made, table_notes
from ftpress.rules.ftc2007.upkeep import checks_worse
from ftpress.state import words
from ftpress.state.battle_results import BattleFile, LoadedBattle, battle_id
from ftpress.state.dice import Dice
from ftpress.state.events import PUBLIC, Audience, Event
from ftpress.state.hexes import DIRECTION_NAMES, Hex, bearings
from ftpress.state.model import Group, Location, Ship, State

#: The abstract combat is fought between two sides. Where three or more powers
#: meet, the battle goes to the table whatever the campaign's setting.
THREE_POWERS_GO_TO_THE_TABLE = True

#: §14.1 "any agreed method": in a campaign set to ``agreed``, a power asks for the
#: abstract combat with ``battle: abstract`` on the order of any of its groups in
#: the battle; the abstract combat is used only if every power there asks.
AGREED_BY_ORDER_FIELD = "battle"

#: Dummy counters (§15.2) have no ships and take no part in a battle.
DUMMIES_TAKE_NO_PART = True

#: ftc2007 ships carry hull boxes, not a crippled flag: in the abstract combat a
#: ship that has lost more than half its hull boxes fights crippled, and a ship
#: the abstract combat cripples is left with just over half its boxes lost.
CRIPPLED_AFTER_HALF_HULL = True

#: ftc2007 has no endurance or supply lines at sea: every ship fights supplied.
ALL_SUPPLIED = True

#: With no player to ask between rounds, each side of an abstract battle breaks
#: off after a round that leaves it with less than half the strength it began
#: with (seed 001 leaves the choice to the players).
ABSTRACT_BREAK_OFF_BELOW = (1, 2)


@dataclass(frozen=True, slots=True)
class Site:
    """Where a battle is fought, and by whom."""

    id: str
    hex: Hex
    at: Location
    groups: tuple[Group, ...]
    powers: tuple[str, ...]


def find_battles(state: State, plan: Plan) -> list[Site]:
    """§17.2–§17.3: the places where a battle is fought this turn, in map order
    (groups on stand off attack nobody, §17.2.1)."""
    by_hex: dict[Hex, list[Group]] = {}
    for group in state.groups.groups:
        h = state.hex_of(group.at)
        assert h is not None
        by_hex.setdefault(h, []).append(group)
    sites = []
    for h, groups in sorted(by_hex.items()):
        powers = tuple(sorted({g.owner for g in groups}))
        if len(powers) < 2:
            continue
        if ALL_STAND_OFF_STAY and not someone_attacks(plan, groups):
            continue
        world = state.system_at(h)
        groups.sort(key=lambda g: (g.owner, g.id))
        at: Location = world.id if world else h
        sites.append(Site(battle_id(at), h, at, tuple(groups), powers))
    return sites


def how_fought(state: State, plan: Plan, site: Site) -> str:
    """§14.1: 'tabletop' or 'abstract' for this battle (see the module docstring)."""
    setting = state.campaign.settings.battles
    if len(site.powers) > 2 and THREE_POWERS_GO_TO_THE_TABLE:
        return "tabletop"
    if setting != "agreed":
        return setting
    asked = {g.owner for g in site.groups
             if (found := _order(plan, g)) is not None
             and getattr(found, AGREED_BY_ORDER_FIELD) == "abstract"}
    return "abstract" if asked == set(site.powers) else "tabletop"


#: Ruling: a battle that leaves nobody holding the field (every side gone, or adrift),
#: at the table or in the abstract, ends the fighting there for the week: no attack
#: on the defences follows (§9.1 gives that attack to the victor of the fleet battle).
NO_VICTOR_NO_SIEGE = True


def fight_battles(state: State, plan: Plan, dice: Dice, set_out: Mapping[str, Location],
                  bonuses: Mapping[str, int], results: Mapping[str, LoadedBattle],
                  ) -> tuple[State, list[Event], dict[str, Beaten], frozenset[Hex]]:
    """Every battle of the turn, in map order: fought in the abstract, folded in from
    its tabletop result, or reported as awaiting the table. Returns the new state,
    the events, the fleets beaten at worlds (for §10.2's bonus), and the places of
    battles that nobody won (:data:`NO_VICTOR_NO_SIEGE`)."""
    events: list[Event] = []
    beaten: dict[str, Beaten] = {}
    unheld: set[Hex] = set()
    problems: list[Problem] = []
    for site in find_battles(state, plan):
        method = how_fought(state, plan, site)
        if method == "abstract":
            state, found, holder, lost = abstract_battle(state, plan, dice, site, set_out,
                                                         bonuses)
        elif site.id in results and results[site.id].result.fought:
            wrong = check_result(state, site, results[site.id])
            if wrong:
                problems += wrong
                continue
            state, found, holder, lost = fold_result(state, site, results[site.id])
        else:
            events.append(pending(state, site, set_out))
            continue
        if holder is None and NO_VICTOR_NO_SIEGE:
            unheld.add(site.hex)
        events += found
        if lost is not None and isinstance(site.at, str):
            beaten[site.at] = lost
    if problems:
        raise InputError(problems)
    return state, events, beaten, frozenset(unheld)


def pending(state: State, site: Site, set_out: Mapping[str, Location]) -> Event:
    """§17: a battle that awaits the table; the turn waits for its result. The
    event says which table edge each group that came in this week enters by (§17.6),
    which powers check damage one level worse (§7.4), which ships make system checks
    as it begins (§10.8) and which later tabletop rulings bear on the ships there
    (rule 20, :func:`.table_notes.table_notes`); its text heads the battle-result
    file the umpire fills in."""
    listing = "; ".join(f"a task group of {words.power(state, g.owner)} "
                        f"({words.plural(len(g.ships), 'ship')}"
                        f"{entry_edge(state, site, g, set_out)})" for g in site.groups)
    worse = [p for p in site.powers if checks_worse(state, p)]
    penalty = (f" {words.sentence(words.powers(state, worse))} "
               f"{'is' if len(worse) == 1 else 'are'} on reduced maintenance: every damage "
               "check of "
               f"{'its' if len(worse) == 1 else 'their'} ships is made one level worse "
               "(§7.4).") if worse else ""
    return Event("battle-pending", rule("17"), f"The battle at "
                 f"{place(state, site.at)} between {words.powers(state, site.powers)} ({listing}) "
                 "is to "
                 f"be fought on the tabletop; the turn waits for its result.{penalty}"
                 f"{table_notes(state, site.groups)}",
                 # How many ships each side brings is what contact tells (§15.3).
                 audience=Audience.told(*site.powers), at=site.at,
                 groups=tuple(g.id for g in site.groups), players=site.powers)


def entry_edge(state: State, site: Site, group: Group, set_out: Mapping[str, Location]) -> str:
    """§17.6: ', enters by the north-east edge' for a group that came in this week,
    else ''.

    Reading ``entry-edge-faces-the-set-out`` (the ruleset's readings).
    """
    start = set_out.get(group.id)
    origin = state.hex_of(start) if start is not None else None
    facing = bearings(site.hex, origin) if origin is not None else ()
    if not facing:
        return ""
    return f", enters by the {DIRECTION_NAMES[facing[-1].direction]} edge"


# --- the abstract combat --------------------------------------------------------------

def abstract_battle(state: State, plan: Plan, dice: Dice, site: Site,
                    set_out: Mapping[str, Location], bonuses: Mapping[str, int],
                    ) -> tuple[State, list[Event], str | None, Beaten | None]:
    """§14, §14.1, §17.5: the battle fought with the abstract combat of seed 001.

    Initiative is 1d6 a power, +1 if any of its groups there is on attack orders
    (§17.2.2) and +1 if one arrived by charted route (§8.2), ties rolled again; the
    winner attacks first.

    Reading ``abstract-losses-are-destroyed`` (the ruleset's readings).
    """
    a, b = site.powers
    worse = [p for p in site.powers if checks_worse(state, p)]
    failed, events = abstract_checks(state, site.groups, dice, worse)
    bonus = [max((int(plan.posture(g.id, g.owner) == "attack") + bonuses.get(g.id, 0)
                  for g in site.groups if g.owner == p), default=0) for p in (a, b)]
    before = len(dice.log)
    order, first_roll = ac.roll_initiative(dice, [a, b], rule("17.5"), bonus,
                                           titles={p: words.power(state, p) for p in (a, b)})
    sides = (_side(state, site, a, failed), _side(state, site, b, failed))
    result = ac.fight(*sides, first=0 if order[0] == a else 1, dice=dice, rule=rule("14"))
    initiative = ", ".join(f"{words.power(state, p)} {first_roll[p]}" for p in (a, b))
    events.append(Event("battle", rule("14"), f"The battle at {place(state, site.at)}, "
                    f"by the abstract combat (initiative {initiative}; "
                    f"{words.power(state, order[0])} attacks first): {result.summary}",
                    audience=PUBLIC, at=site.at,
                    groups=tuple(g.id for g in site.groups), players=site.powers,
                    rolls=dice.log[before:]))
    fates: dict[tuple[str, int], tuple[int, str]] = {}
    for group in site.groups:
        for i, ship in enumerate(group.ships):
            unit = result.unit(_unit_id(group, i))
            design = state.design(ship.design)
            assert design is not None
            if unit.destroyed:
                fates[(group.id, i)] = (0, "destroyed")
            elif unit.crippled and not _crippled(state, ship):
                fates[(group.id, i)] = (design.hull_boxes // 2 + 1 - ship.damage, "afloat")
    state, found = _apply(state, site, fates, None, rule("14"))
    state = checks_made(state, site.groups)
    events += found
    broke = [p for p in result.disengaged if p != result.holds_field]
    for power in broke:
        state, found = _fall_back(state, site, power, set_out)
        events += found
    return _finish(state, site, result.holds_field, events)


def _side(state: State, site: Site, power: str,
          failed: set[tuple[str, str]]) -> ac.Side:
    """One power's ships in the abstract combat; a ship crippled (more than half her hull
    lost, or a failed system check, §10.8) fights crippled, and one of a navy on reduced
    maintenance (§7.4) or carrying parts from other ships (§11.3.3) is crippled sooner
    (:data:`REDUCED_MAINTENANCE_CRIPPLES_SOONER`)."""
    units = []
    for group in site.groups:
        if group.owner != power:
            continue
        for i, ship in enumerate(group.ships):
            design = state.design(ship.design)
            assert design is not None
            values = design.abstract
            units.append(ac.Unit(_unit_id(group, i), values.offence, values.defence,
                                 half=values.half, quarter=values.quarter, name=ship.name,
                                 crippled=_crippled(state, ship)
                                 or (group.id, ship.name) in failed, supplied=ALL_SUPPLIED,
                                 checks_worse=REDUCED_MAINTENANCE_CRIPPLES_SOONER
                                 and (checks_worse(state, power) or grafted(ship))))
    return ac.Side(power, tuple(units), break_off_below=ABSTRACT_BREAK_OFF_BELOW,
                   title=words.power(state, power))


#: Ruling: the abstract combat has no damage checks; what stands for them is the
#: threshold at which a hit cripples a ship. A navy on reduced maintenance (§7.4),
#: and a ship carrying parts from another ship (§11.3.3), have that threshold one
#: point lower: exactly half its defence (rounded up) cripples, where any other
#: ship needs more than half. A ship with both is one level worse, not two: the
#: abstract combat has no second step to take.
REDUCED_MAINTENANCE_CRIPPLES_SOONER = True


def _unit_id(group: Group, index: int) -> str:
    return f"{group.id}/{index}"


def _crippled(state: State, ship: Ship) -> bool:
    design = state.design(ship.design)
    assert design is not None
    return CRIPPLED_AFTER_HALF_HULL and ship.damage * 2 > design.hull_boxes


def _fall_back(state: State, site: Site, power: str,
               set_out: Mapping[str, Location]) -> tuple[State, list[Event]]:
    """§18.4 (reading ``broken-off-fall-back-to-origin``): a side that broke off jumps back."""
    events: list[Event] = []
    moves: dict[str, Location] = {}
    for group in state.groups.groups:
        if group.owner != power or state.hex_of(group.at) != site.hex:
            continue
        back = set_out.get(group.id, group.at)
        if state.hex_of(back) == site.hex:
            events.append(Event("withdrawal", rule("18.4"),
                                f"{words.group(state, group.id, PUBLIC, start=True)} breaks "
                                f"off but began the week at {place(state, site.at)}, with no "
                                "recorded way out; it stays, and the encounter goes on.",
                                audience=PUBLIC, player=power, group=group.id, at=site.at))
            continue
        moves[group.id] = back
        events.append(seen_leaving(state, group.id, power, site.at))
        events.append(Event("withdrawal", rule("18.4"), f"{group.id} breaks off "
                            f"and jumps back to {place(state, back)}.",
                            # Where a fleet jumps to is its owner's to know (§18.4).
                            audience=Audience.told(power), player=power,
                            group=group.id, at=back, origin=site.at))
    return mark_jumped(_moved(state, moves), moves), events


# --- a tabletop result ----------------------------------------------------------------

def check_result(state: State, site: Site, loaded: LoadedBattle) -> list[Problem]:
    """A filled-in battle result against the forces that fought: every problem, located."""
    r = loaded.result
    problems: list[Problem] = []
    say = loaded.problem
    turn = f"t{state.campaign.calendar.turn:03d}"
    if r.turn != turn:
        problems.append(say(f"this result is for {r.turn}; the turn being resolved is {turn}",
                            "turn"))
    if r.battle != site.id:
        problems.append(say(f"this file is for battle {site.id!r}, not {r.battle!r}",
                            "battle"))
    if state.hex_of(r.at) != site.hex:
        problems.append(say(f"battle {site.id} is at {place(state, site.at)}; expected "
                            f"at: {site.at}", "at"))
    if tuple(sorted(r.players)) != site.powers:
        problems.append(say(f"the powers in this battle are {', '.join(site.powers)}, not "
                            f"{', '.join(r.players) or 'none'}", "players"))
    ships = {(g.id, s.name): (g, s) for g in site.groups for s in g.ships}
    listed: set[tuple[str, str]] = set()
    for i, entry in enumerate(r.ships):
        key = (entry.group, entry.ship)
        found = ships.get(key)
        if found is None:
            here = ", ".join(f"{s.name} ({g.id})" for g, s in ships.values())
            problems.append(say(f"there is no ship {entry.ship!r} in group {entry.group!r} at "
                                f"{place(state, site.at)}; the ships there are {here}",
                                "ships", i))
            continue
        if key in listed:
            problems.append(say(f"{entry.ship} of {entry.group} is listed twice; list each "
                                "ship once", "ships", i))
        listed.add(key)
        group, ship = found
        if entry.player != group.owner:
            problems.append(say(f"{entry.ship} is {group.owner}'s, not {entry.player}'s",
                                "ships", i, "player"))
        design = state.design(ship.design)
        assert design is not None
        left = design.hull_boxes - ship.damage
        if entry.damage > left:
            problems.append(say(f"{entry.ship} had {left} hull boxes left, so it cannot lose "
                                f"{entry.damage}; expected 0 to {left} (a ship that loses "
                                "them all is destroyed)", "ships", i, "damage"))
        if entry.fate == "crippled":  # an sct fate; ftc2007 counts hull boxes instead
            problems.append(say(f"{entry.ship}: 'crippled' is not an ftc2007 fate; give the "
                                "hull boxes lost under 'damage' and the fate afloat, "
                                "destroyed or drifting", "ships", i, "fate"))
    for key in ships:
        if key not in listed:
            problems.append(say(f"{key[1]} of {key[0]} fought here but is not listed; "
                                "expected every ship at the battle under 'ships'", "ships"))
    left_field: set[str] = set()
    for i, w in enumerate(r.withdrew):
        if w.player not in site.powers:
            problems.append(say(f"{w.player!r} is not in this battle; expected one of "
                                f"{', '.join(site.powers)}", "withdrew", i, "player"))
        destination = state.hex_of(w.to)
        if destination is None:
            problems.append(say(f"there is no world {w.to!r} on the map; expected a world id "
                                "or a hex", "withdrew", i, "to"))
        elif destination == site.hex:
            problems.append(say(f"{w.player} withdrew, so it cannot stay at "
                                f"{place(state, site.at)}; expected where it jumped to",
                                "withdrew", i, "to"))
        elif isinstance(reach := jump_out(state, w.player, site.hex, destination), str):
            problems.append(say(f"{w.player} withdrew, but {reach}",
                                "withdrew", i, "to"))
        left_field.add(w.player)
    if r.held_by is not None:
        if r.held_by not in site.powers:
            problems.append(say(f"{r.held_by!r} is not in this battle; expected one of "
                                f"{', '.join(site.powers)}, or nothing if nobody holds the "
                                "field", "held_by"))
        elif r.held_by in left_field:
            problems.append(say(f"{r.held_by} withdrew, so it cannot hold the field",
                                "held_by"))
        afloat = _afloat(site, r)
        for power in site.powers:
            if power != r.held_by and power not in left_field and afloat.get(power):
                problems.append(say(f"{power} still has {', '.join(afloat[power])} afloat at "
                                    f"{place(state, site.at)} and did not withdraw, so "
                                    f"{r.held_by} does not hold the field alone; expected "
                                    f"{power} under 'withdrew', or its ships destroyed or "
                                    "drifting", "held_by"))
    return problems


def _afloat(site: Site, r: BattleFile) -> dict[str, list[str]]:
    fate = {(e.group, e.ship): e.fate for e in r.ships}
    afloat: dict[str, list[str]] = {}
    for group in site.groups:
        for ship in group.ships:
            if fate.get((group.id, ship.name), "afloat") == "afloat":
                afloat.setdefault(group.owner, []).append(ship.name)
    return afloat


def fold_result(state: State, site: Site, loaded: LoadedBattle,
                ) -> tuple[State, list[Event], str | None, Beaten | None]:
    """§17 a tabletop battle's result, checked, put into the state: damage, losses,
    hulks captured (§12.1), withdrawals (§18.4), who holds the field."""
    r = loaded.result
    holder = r.held_by
    text = f"The battle at {place(state, site.at)}, fought on the tabletop: " + (
        f"{words.power(state, holder)} holds the field." if holder else "nobody holds the field.")
    events = [Event("battle", rule("17"), text, audience=PUBLIC, at=site.at,
                    players=site.powers,
                    groups=tuple(g.id for g in site.groups), order=loaded.path,
                    note=r.note)]
    index = {(g.id, s.name): i for g in site.groups for i, s in enumerate(g.ships)}
    fates = {(e.group, index[(e.group, e.ship)]): (e.damage, e.fate) for e in r.ships}
    state, found = _apply(state, site, fates, holder, rule("17"))
    state = checks_made(state, site.groups)  # §10.8: made at the table as it began
    events += found
    moves: dict[str, Location] = {}
    for w in r.withdrew:
        end = state.hex_of(w.to)
        assert end is not None  # check_result
        landing = jump_out(state, w.player, site.hex, end)
        assert not isinstance(landing, str)  # check_result
        world = state.system_at(landing.to)
        dest: Location = world.id if world else landing.to
        for group in state.groups.groups:
            if group.owner == w.player and state.hex_of(group.at) == site.hex:
                moves[group.id] = dest
                events.append(seen_leaving(state, group.id, w.player, site.at))
                if landing.blocked_at is not None:
                    blocking = state.system(landing.blocked_at)
                    events.append(Event(
                        "blocked", rule("8.2"), f"{group.id} jumps out of the "
                        f"battle for {place(state, w.to)} along a charted route blocked at "
                        f"{place(state, landing.blocked_at)}, interdicted by "
                        f"{words.power(state, interdictor(blocking) if blocking else None)}; "
                        f"it stops at {place(state, dest)}.", audience=Audience.told(w.player),
                        player=w.player, group=group.id, at=dest, origin=site.at))
                events.append(Event("withdrawal", rule("18.4"), f"{group.id} "
                                    f"jumps out of the battle to {place(state, dest)}.",
                                    audience=Audience.told(w.player), player=w.player,
                                    group=group.id, at=dest, origin=site.at))
    state = mark_jumped(_moved(state, moves), moves)
    return _finish(state, site, holder, events)


# --- shared by both -------------------------------------------------------------------

def _apply(state: State, site: Site, fates: Mapping[tuple[str, int], tuple[int, str]],
           holder: str | None, section: str) -> tuple[State, list[Event]]:
    """Damage and losses on the ships that fought; hulks to the holder (§12.1)."""
    events: list[Event] = []
    new_groups: dict[str, Group | None] = {}
    hulks: list[tuple[str, Ship]] = []
    for group in site.groups:
        ships: list[Ship] = []
        own = words.powers_own(state, group.owner, start=True)
        for i, ship in enumerate(group.ships):
            damage, fate = fates.get((group.id, i), (0, "afloat"))
            design = state.design(ship.design)
            assert design is not None
            hit = dataclasses.replace(ship, damage=ship.damage + damage)
            if damage:
                events.append(Event("damage", section, f"{own} {ship.name} loses "
                                    f"{words.plural(damage, 'hull box')}.",
                                    audience=PUBLIC, player=group.owner, group=group.id,
                                    at=site.at))
            if fate == "destroyed" or hit.damage >= design.hull_boxes:
                events.append(Event("ship-lost", section, f"{own} {ship.name} is "
                                    "destroyed.", audience=PUBLIC, player=group.owner,
                                    group=group.id, at=site.at))
                continue
            if fate == "drifting" and holder is not None and holder != group.owner:
                hulks.append((group.owner, hit))
                continue
            if fate == "drifting" and OWN_HULKS_RECOVERED:
                events.append(Event("damage", section, f"{own} {ship.name} was left "
                                    "drifting, and its own side recovers it.",
                                    audience=PUBLIC, player=group.owner, group=group.id,
                                    at=site.at))
            ships.append(hit)
        keep = ships or group.dummy
        new_groups[group.id] = dataclasses.replace(group, ships=tuple(ships)) if keep else None
    groups = tuple(kept for g in state.groups.groups
                   if (kept := new_groups.get(g.id, g)) is not None)
    state = dataclasses.replace(state, groups=dataclasses.replace(state.groups, groups=groups))
    for loser, hulk in hulks:
        assert holder is not None
        state, event = take_prize(state, holder, loser, hulk, site.at)
        events.append(event)
    for power in site.powers:
        state, found = after_losses(state, power)
        events += found
    return state, events


def _moved(state: State, moves: Mapping[str, Location]) -> State:
    if not moves:
        return state
    groups = tuple(dataclasses.replace(g, at=moves[g.id]) if g.id in moves else g
                   for g in state.groups.groups)
    return dataclasses.replace(state, groups=dataclasses.replace(state.groups, groups=groups))


def _finish(state: State, site: Site, holder: str | None, events: list[Event],
            ) -> tuple[State, list[Event], str | None, Beaten | None]:
    """The field: prizes lying there go to its holder (§12.1); the powers that fought
    it and are gone count as a fleet beaten there (§9.2, §10.2). Returns the
    holder too, however the battle was fought."""
    if holder is None:
        return state, events, None, None
    state, found = seize_prizes(state, site.hex, holder)
    events += found
    present = {g.owner for g in state.groups.groups if state.hex_of(g.at) == site.hex
               and (g.ships or not DUMMIES_TAKE_NO_PART)}
    if present - {holder}:
        return state, events, holder, None
    losers = [g for g in site.groups if g.owner != holder]
    return state, events, holder, Beaten(tuple(g.id for g in losers),
                                         lone_scout(state, losers))


def _order(plan: Plan, group: Group) -> object | None:
    vetted = plan.vetted.get(group.owner)
    found = vetted.accepted.get(group.id) if vetted else None
    return found[0] if found else None
