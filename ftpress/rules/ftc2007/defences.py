"""§10 Attacking system defences, and §9 the conquest it leads to.

A power whose groups end the week on attack orders at another power's world
(or a neutral one), with no opposing mobile force left there, rolls once
against the world's defences. Each rule section is one function below, in the
order the rules apply them; every choice the rules leave open is a named
constant with the reason for it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from ftpress.rules.ftc2007.departures import mark_jumped, seen_leaving
from ftpress.rules.ftc2007.orders import place
from ftpress.rules.ftc2007.plan import Plan
from ftpress.rules.ftc2007.scouting import roll_worth
from ftpress.rules.ftc2007.scouts import is_scout
from ftpress.rules.ftc2007.sections import rule
from ftpress.rules.ftc2007.state_ext import (
    DefenceWork,
    Ftc2007System,
    OwedDamage,
    Spares,
    defence_works,
    interdictor,
    owed_of,
    spares_of,
    with_defence_works,
    with_owed,
    with_spares,
)
from ftpress.rules.ftc2007.state_legality import CAPITAL_SIZES
from ftpress.state.dice import Dice
from ftpress.state.events import PUBLIC, Audience, Event
from ftpress.state.extension import extended
from ftpress.state.hexes import Hex
from ftpress.state.model import (
    Group,
    GroupsFile,
    Keel,
    Location,
    PlayersFile,
    Repair,
    State,
    System,
)
from ftpress.state.words import group as named_group
from ftpress.state.words import groups as named_groups
from ftpress.state.words import plural, power, powers_own, sentence

#: §10.2: the attack is allowed at exactly 50% of the defences' value ("at least").
MINIMUM_RATIO = (1, 2)

#: §10.5 (13 May ruling): the d5 for what is left of the defences is rolled only
#: when they surrender ("Defences that surrender are assumed to have been damaged
#: in the process"); an interdiction or a repulse leaves them as they were.
DEFENCE_DAMAGE_ROLLED_ON = ("surrender",)

#: §10.5 (13 May ruling): a 1 on the d5 counts as a 2.
D5_ONE_COUNTS_AS = 2



@dataclass(frozen=True, slots=True)
class Beaten:
    """A defending fleet beaten at a world this turn (§9.2): who, and whether it
    was only a lone scout, which earns no bonus (§10.2 as ruled 24 March).

    Reading ``any-opposing-fleet-defends`` (the ruleset's readings).
    """

    groups: tuple[str, ...]
    lone_scout: bool


def attack_defences(state: State, plan: Plan, dice: Dice, contested: Collection[Hex],
                    set_out: Mapping[str, Location],
                    beaten: Mapping[str, Beaten]) -> tuple[State, list[Event]]:
    """§10, §10.1: every world where one power's groups on attack orders face only
    the defences rolls once, in map order.

    ``contested`` are the hexes where opposing mobile forces remain (the battle
    comes first, §9.1: reported by :mod:`.encounters`); ``set_out`` is where each
    group began the week; ``beaten`` the defending fleets beaten this turn, by world.
    """
    # Every attack is found from where the groups stand before any is rolled, so
    # a group that falls back (§10.7) onto another world does not attack it too.
    by_hex: dict[Hex, list[Group]] = {}
    for group in state.groups.groups:
        h = state.hex_of(group.at)
        if h is not None and group.ships and plan.posture(group.id, group.owner) == "attack":
            by_hex.setdefault(h, []).append(group)
    sites = [(world.id, tuple(g.id for g in by_hex.get(world.hex, ())
                              if g.owner != world.owner))
             for world in state.map.systems
             if world.hex is not None and world.hex not in contested]
    events: list[Event] = []
    for world_id, ids in sites:
        if not ids:
            continue
        attackers = [g for g in state.groups.groups if g.id in ids]
        state, found = _attack(state, state.system(world_id), attackers, dice, set_out,
                               beaten.get(world_id))
        events += found
    return state, events


def _attack(state: State, world: System | None, attackers: list[Group], dice: Dice,
            set_out: Mapping[str, Location],
            beaten: Beaten | None) -> tuple[State, list[Event]]:
    assert world is not None
    player = attackers[0].owner
    ids = tuple(g.id for g in attackers)
    events: list[Event] = []
    if world.income is None:
        state, world, event = neutral_worth(state, world, player, ids, dice)
        events.append(event)
    if not standing_idp(world):
        state, found = undefended(state, world, player, ids)
        return state, events + found
    points = fleet_points(state, attackers)
    value = standing_idp(world) * 10
    whose = powers_own(state, world.owner) if world.owner else "neutral"
    fleet, one = sentence(named_groups(state, ids, PUBLIC, owner=player)), len(ids) == 1
    if not may_attack(points, value):
        if interdictor(world) == player:
            state = _with_world(state, extended(world, Ftc2007System, interdicted_by=None))
        events.append(Event(
            "siege-refused", rule("10.2"), f"{fleet} at {world.name} "
            f"({whose}) {'is' if one else 'are'} worth less than half the defences' value "
            f"of {value:,}: no attack is made, and the world is not "
            "interdicted (§10.6).",
            audience=PUBLIC, player=player, at=world.id, groups=ids, posture="attack"))
        return state, events
    bonus = beaten is not None and not beaten.lone_scout
    mods = modifiers(points, value, bonus)
    before = len(dice.log)
    natural = dice.d6(f"attack on the defences of {world.name}", rule("10.3"))
    total = natural + sum(m for m, _ in mods)
    outcome = attack_result(natural, total)
    said = "; ".join(f"{m:+d} {why}" for m, why in mods) or "no modifiers"
    if beaten is not None and beaten.lone_scout:
        said += "; no bonus for seeing off a lone scout (24 March ruling)"
    events.append(Event(
        "siege", rule("10.3"), f"{fleet} "
        f"{'attacks' if one else 'attack'} the defences of {world.name} ({whose}), "
        f"worth {value:,}: {said}; rolled {natural}, modified {total}: "
        f"{_OUTCOME_WORDS[outcome]}.", audience=PUBLIC, player=player,
        at=world.id, groups=ids, posture="attack", rolls=dice.log[before:]))
    if outcome == "surrender":
        state, found = surrender(state, world, player, ids, dice)
    elif outcome == "interdicted":
        state, found = interdict(state, world, player, ids)
    else:
        state, found = repulse(state, world, attackers, set_out)
    return state, events + found


_OUTCOME_WORDS = {"surrender": "the defences surrender (§10.4)",
                  "interdicted": "inconclusive skirmishing (§10.6)",
                  "repulsed": "the attack is thrown back (§10.7)"}


def neutral_worth(state: State, world: System, player: str, ids: tuple[str, ...],
                  dice: Dice) -> tuple[State, System, Event]:
    """§4.2: a neutral world nobody has scouted has its worth rolled when first
    attacked (§4.1), and the result is public (§2.3)."""
    before = len(dice.log)
    world, words = roll_worth(world, dice)
    state = _with_world(state, world)
    return state, world, Event(
        "scouted", rule("4.2"), f"{sentence(named_groups(state, ids, PUBLIC, owner=player))} "
        f"{'attacks' if len(ids) == 1 else 'attack'} {world.name}, so its "
        f"worth is rolled: it is {words}. The result is public (§2.3).", audience=PUBLIC,
        player=player,
        at=world.id, groups=ids, rolls=dice.log[before:])


def undefended(state: State, world: System, player: str,
               ids: tuple[str, ...]) -> tuple[State, list[Event]]:
    """§10.9: a world with no defences passes, without a roll, to the unopposed
    fleet on attack orders there; its income is unchanged (§9.3)."""
    was = powers_own(state, world.owner) if world.owner else "neutral"
    taken = extended(dataclasses.replace(world, owner=player), Ftc2007System,
                     interdicted_by=None, paid_income_to=None)
    state, moved = capital_falls(_with_world(state, taken), taken, world.owner)
    state, lost = works_lost(state, taken, world.owner)
    moved += lost
    return state, [Event(
        "conquest", rule("10.9"), f"{world.name} ({was}) has no defences: it passes to "
        f"{power(state, player)}, whose {_count(len(ids))} arrived on attack orders "
        "unopposed; its income "
        f"stays {world.income} (§9.3).", audience=PUBLIC, player=player, at=world.id,
        groups=ids), *moved]


def _count(n: int) -> str:
    """'task group', '2 task groups': a power's groups after 'whose'."""
    return "task group" if n == 1 else f"{n} task groups"


def works_lost(state: State, world: System, loser: str | None) -> tuple[State, list[Event]]:
    """reading ``works-at-a-fallen-world-are-lost``: the loser's keels, repairs, spares and
    defence works at the world are cancelled. What was there (a keel's name, a ship
    under repair) is the loser's business (§13.2, §15.3): only the loser is told."""
    if loser is None:
        return state, []
    q = state.queues
    gone: list[tuple[str, Keel | Repair | Spares | DefenceWork]] = [
        (f"the keel of {k.name}", k) for k in q.keels if k.owner == loser and k.at == world.id]
    gone += [(f"the repair of {r.ship}", r) for r in q.repairs
             if r.owner == loser and r.at == world.id]
    gone += [(f"{sp.stock} points of spares", sp) for sp in spares_of(state)
             if sp.owner == loser and sp.at == world.id]
    gone += [(f"the rebuilding of {d.points} defence points", d) for d in defence_works(state)
             if d.owner == loser and d.system == world.id]
    if not gone:
        return state, []
    lost = {id(item) for _, item in gone}
    state = with_spares(state, tuple(sp for sp in spares_of(state) if id(sp) not in lost))
    state = with_defence_works(state, tuple(d for d in defence_works(state)
                                            if id(d) not in lost))
    queues = dataclasses.replace(
        state.queues, keels=tuple(k for k in q.keels if id(k) not in lost),
        repairs=tuple(r for r in q.repairs if id(r) not in lost))
    return dataclasses.replace(state, queues=queues), [Event(
        "works-lost", rule("9"),
        f"{power(state, loser, start=True)} loses {what} at {world.name} with the world.",
        audience=Audience.told(loser), player=loser, at=world.id) for what, _ in gone]


def fleet_points(state: State, groups: Sequence[Group]) -> int:
    """§10.2 as ruled 24 March: the list (design) points of the ships committed.
    Damage does not reduce them; lost ships are no longer on the roster, and
    groups not on attack orders are held back and not counted."""
    total = 0
    for group in groups:
        for ship in group.ships:
            design = state.design(ship.design)
            assert design is not None, ship.design
            total += design.points
    return total


def may_attack(points: int, value: int) -> bool:
    """§10.2: a fleet needs at least 50% of the defences' value to attack at all."""
    num, den = MINIMUM_RATIO
    return points * den >= value * num


def modifiers(points: int, value: int, beat_a_fleet: bool) -> list[tuple[int, str]]:
    """§10.2: the modifiers to the attack roll, each with its reason.

    +1 for each whole multiple of the defences' value beyond the first; +1 for a
    defending fleet beaten there this turn; −1 for a fleet worth less than the
    defences.

    Reading ``whole-multiples-only`` (the ruleset's readings).
    """
    mods: list[tuple[int, str]] = []
    multiples = points // value
    if multiples >= 2:
        mods.append((multiples - 1, f"for {multiples} times the defences' value"))
    if beat_a_fleet:
        mods.append((1, "for beating a defending fleet this turn"))
    if points < value:
        mods.append((-1, "for a fleet worth less than the defences"))
    return mods


def attack_result(natural: int, total: int) -> str:
    """§10.3–§10.7 as ruled 13 May: a natural 6, or a modified 6 (or more),
    surrenders; a modified 1 or less is thrown back; 2–5 interdicts.

    Reading ``modified-above-six-surrenders`` (the ruleset's readings).
    """
    if natural == 6 or total >= 6:
        return "surrender"
    if total <= 1:
        return "repulsed"
    return "interdicted"


def surrender(state: State, world: System, player: str, ids: tuple[str, ...],
              dice: Dice) -> tuple[State, list[Event]]:
    """§10.4 and §9: the defences surrender and the world changes hands, its
    income unchanged (§9.3); then §10.5 what is left of the defences."""
    was = powers_own(state, world.owner) if world.owner else "neutral"
    conquest = Event(
        "conquest", rule("9"), f"{world.name} ({was}) surrenders to {power(state, player)}; "
        "its income "
        f"stays {world.income} (§9.3).", audience=PUBLIC, player=player, at=world.id,
        groups=ids)
    loser = world.owner
    world = extended(dataclasses.replace(world, owner=player), Ftc2007System,
                     interdicted_by=None, paid_income_to=None)
    world, damage = defence_damage(world, dice)
    state, moved = capital_falls(_with_world(state, world), world, loser)
    state, lost = works_lost(state, world, loser)
    return state, [conquest, damage, *moved, *lost]


def capital_falls(state: State, world: System, loser: str | None) -> tuple[State, list[Event]]:
    """reading ``capital-moves-to-richest-world``: a player whose capital is taken moves it
    to their richest remaining world."""
    who = state.player(loser) if loser else None
    if who is None or who.capital != world.id:
        return state, []
    left = sorted(state.worlds_of(who.id), key=lambda s: -(s.income or 0))
    if not left:
        return state, [Event("capital", rule("9"), f"{power(state, who.id, start=True)} has "
                             f"lost its capital, {world.name}, and has no world left.",
                             audience=PUBLIC, player=who.id,
                             at=world.id)]
    players = tuple(dataclasses.replace(p, capital=left[0].id) if p.id == who.id else p
                    for p in state.players.players)
    state = dataclasses.replace(state, players=PlayersFile(players))
    return state, [Event("capital", rule("9"), f"{power(state, who.id, start=True)} has lost "
                         f"its capital, {world.name}; its capital is now {left[0].name}, "
                         "its richest world left.", audience=PUBLIC, player=who.id, at=left[0].id)]


def defence_damage(world: System, dice: Dice) -> tuple[System, Event]:
    """§10.5 as ruled 13 May: roll 1d5 for the surrendered defences. 1 or 2
    destroyed (IDP nil); 3 cut to a third; 4 to two thirds; 5 intact. The full
    strength stays in ``idp_full`` for rebuilding.

    Reading ``defence-cut-rounds-down`` (the ruleset's readings).
    """
    standing = standing_idp(world)
    full = world.full_idp if world.full_idp is not None else standing
    before_log = len(dice.log)
    roll = dice.d5(f"what is left of {world.name}'s defences", rule("10.5"))
    result = max(roll, D5_ONE_COUNTS_AS)
    idp = {2: 0, 3: standing // 3, 4: standing * 2 // 3, 5: standing}[result]
    words = {2: "destroyed: the defence points fall to nil",
             3: f"cut to one third: {idp} defence points stand",
             4: f"cut to two thirds: {idp} defence points stand",
             5: f"effectively intact: {idp} defence points stand"}[result]
    counts = " (a 1 counts as a 2)" if roll == 1 else ""
    world = dataclasses.replace(world, idp=idp, idp_full=full if idp < full else None)
    return world, Event(
        "defences-damaged", rule("10.5"), f"The d5 for {world.name}'s defences came up "
        f"{roll}{counts}: {words}.", audience=PUBLIC, player=world.owner, at=world.id,
        rolls=dice.log[before_log:])


def interdict(state: State, world: System, player: str,
              ids: tuple[str, ...]) -> tuple[State, list[Event]]:
    """§10.6: on 2–5 the world is interdicted for this strategic turn. Whoever's
    interdiction stands when an economic turn begins costs the owner that world's
    income for it; ``interdicted_by`` in the state is that record."""
    state = _with_world(state, extended(world, Ftc2007System, interdicted_by=player))
    cal = state.campaign.calendar
    last = cal.turn % cal.turns_per_economic_turn == 0
    cost = (f" Economic turn {cal.economic_turn + 1} begins next: if {world.name} is still "
            f"interdicted then, it produces no income." if last else "")
    return state, [Event(
        "interdicted", rule("10.6"), f"{world.name} is interdicted by "
        f"{power(state, player)} for this strategic turn.{cost}", audience=PUBLIC,
        player=player, at=world.id, groups=ids)]


def repulse(state: State, world: System, attackers: list[Group],
            set_out: Mapping[str, Location]) -> tuple[State, list[Event]]:
    """§10.7: the attack is thrown back, with damage equal to the world's income,
    which the fleet owes (:func:`owe`) until §10.8 has it allocated
    (:mod:`.owed_damage`); the groups jump back where they set out from
    (reading ``repulsed-fleet-jumps-back-unseen``): seen leaving by all, the destination told
    to their owner alone, and the jump their next week's move (§18.4)."""
    player = attackers[0].owner
    ids = tuple(g.id for g in attackers)
    if interdictor(world) == player:
        state = _with_world(state, extended(world, Ftc2007System, interdicted_by=None))
    events = [Event(
        "repulsed", rule("10.7"), f"{sentence(named_groups(state, ids, PUBLIC, owner=player))} "
        f"{'is' if len(ids) == 1 else 'are'} thrown back from "
        f"{world.name}, with damage equal to its income of {world.income}.", audience=PUBLIC,
        player=player, at=world.id, groups=ids)]
    state, owed = owe(state, world, attackers)
    events += owed
    moves: dict[str, Location] = {}
    for group in attackers:
        back = set_out.get(group.id, group.at)
        if back != group.at:
            moves[group.id] = back
            events.append(seen_leaving(state, group.id, player, world.id, "10.7"))
            events.append(Event(
                "withdrawal", rule("10.7"),
                f"{named_group(state, group.id, Audience.told(player), start=True)} falls "
                f"back to {place(state, back)}; the jump is its move of next week (§18.4).",
                audience=Audience.told(player), player=player, group=group.id, at=back,
                origin=world.id))
    groups = tuple(dataclasses.replace(g, at=moves[g.id]) if g.id in moves else g
                   for g in state.groups.groups)
    state = dataclasses.replace(state, groups=GroupsFile(groups))
    return mark_jumped(state, moves), events


def owe(state: State, world: System, attackers: Sequence[Group]) -> tuple[State, list[Event]]:
    """§10.7: the fleet thrown back from ``world`` owes a third of its standing defence
    points in hull boxes (§10.8), damage priced at the world's income; no ship takes
    any yet (reading ``repulse-damage-owed-by-the-fleet``).

    Readings ``repulse-boxes-from-standing-idp`` and ``roster-order-across-groups`` (the
    ruleset's readings).
    """
    player_id = attackers[0].owner
    ids = tuple(g.id for g in attackers)
    idp = standing_idp(world)
    boxes = idp // 3
    if not boxes:
        return state, [Event(
            "damage-owed", rule("10.8"), f"A third of {world.name}'s {idp} defence points is "
            "less than one hull box: the repulse costs the fleet nothing to allocate.",
            audience=PUBLIC, player=player_id, at=world.id, groups=ids)]
    debt = OwedDamage(world.id, boxes, world.income or 0,
                      tuple(s.name for g in attackers for s in g.ships),
                      state.campaign.calendar.economic_turn)
    state = with_owed(state, player_id, (*owed_of(state, player_id), debt))
    return state, [Event(
        "damage-owed", rule("10.7"),
        f"{sentence(named_groups(state, ids, PUBLIC, owner=player_id))} "
        f"{'owes' if len(ids) == 1 else 'owe'} the damage: "
        f"{plural(boxes, 'hull box')} (a third of {world.name}'s {idp} defence points), put "
        f"on no ship until {'it fights' if len(ids) == 1 else 'they fight'} another force or "
        f"economic turn {debt.economic_turn + 1} opens; "
        f"repaired then, it costs {debt.cost} (§10.8).", audience=PUBLIC, player=player_id,
        at=world.id, groups=ids)]


def after_losses(state: State, player: str) -> tuple[State, list[Event]]:
    """What goes with lost ships: their repairs, their share of repulse damage owed
    (§10.7: a debt none of whose ships is left is gone), and
    (reading ``dummy-goes-with-its-capital-ship``) any dummy counter beyond one per capital
    ship left (§15.2)."""
    events: list[Event] = []
    state = _forget_the_lost(state, player)
    ships = {(g.id, s.name) for g in state.groups.groups for s in g.ships}
    repairs = tuple(r for r in state.queues.repairs if (r.group, r.ship) in ships)
    if len(repairs) != len(state.queues.repairs):
        state = dataclasses.replace(state, queues=dataclasses.replace(state.queues,
                                                                      repairs=repairs))
    capitals = sum(1 for g in state.groups_of(player) for s in g.ships
                   if (d := state.design(s.design)) and d.size in CAPITAL_SIZES)
    dummies = [g.id for g in state.groups_of(player) if g.dummy]
    extra = set(dummies[capitals:]) if len(dummies) > capitals else set()
    if extra:
        state = dataclasses.replace(state, groups=GroupsFile(tuple(
            g for g in state.groups.groups if g.id not in extra)))
        events.append(Event(
            "ship-lost", rule("15.2"), f"{power(state, player, start=True)} has "
            f"{plural(capitals, 'capital ship')} left, so its dummy counters beyond that are "
            "removed.", audience=Audience.told(player),  # which were dummies: §15.2
            player=player,
            groups=tuple(sorted(extra))))
    return state, events


def _forget_the_lost(state: State, player_id: str) -> State:
    """Repulse damage owed (§10.7) by ships no longer afloat: a debt keeps the
    names of the ships left, and one with none left is gone."""
    owed = owed_of(state, player_id)
    afloat = {s.name for g in state.groups_of(player_id) for s in g.ships}
    kept = tuple(dataclasses.replace(d, ships=tuple(n for n in d.ships if n in afloat))
                 for d in owed if afloat & set(d.ships))
    return state if kept == owed else with_owed(state, player_id, kept)


def spread_damage(total: int, masses: Sequence[int], left: Sequence[int]) -> list[int]:
    """§10.8 as ruled 8 April: ``total`` hull boxes shared in proportion to design
    mass. Each ship gets its exact share rounded down; the boxes left over go one
    each to the largest remaining fractions, ties to the bigger ship and then to
    the ship first on the roster. No ship takes more than the boxes it has
    ``left``; its excess is shared among the rest the same way
    (reading ``overflow-goes-to-the-rest``), so the shares add up to ``total`` unless the
    whole fleet is destroyed.
    """
    shares = [0] * len(masses)
    remaining = total
    open_ = [i for i in range(len(masses)) if left[i] > 0]
    while remaining > 0 and open_:
        mass = sum(masses[i] for i in open_)
        exact = {i: divmod(remaining * masses[i], mass) for i in open_}
        give = {i: exact[i][0] for i in open_}
        spare = remaining - sum(give.values())
        order = sorted(open_, key=lambda i: (-exact[i][1], -masses[i], i))
        for i in order[:spare]:
            give[i] += 1
        capped = False
        for i in open_:
            room = left[i] - shares[i]
            take = min(give[i], room)
            capped = capped or take < give[i]
            shares[i] += take
            remaining -= take
        open_ = [i for i in open_ if shares[i] < left[i]]
        if not capped:
            break
    return shares


def lone_scout(state: State, groups: Sequence[Group]) -> bool:
    """The 24 March ruling: a scout (§2.3, :func:`.scouts.is_scout`) seen off is
    not a defeated fleet for §10.2's bonus."""
    return is_scout(state, groups)


def standing_idp(world: System) -> int:
    """The defence points standing; where a state gives an income but no IDP, the
    IDP equal the income (§10.2)."""
    if world.idp is not None:
        return world.idp
    return world.income or 0


def _with_world(state: State, world: System) -> State:
    systems = tuple(world if s.id == world.id else s for s in state.map.systems)
    return dataclasses.replace(state, map=dataclasses.replace(state.map, systems=systems))

