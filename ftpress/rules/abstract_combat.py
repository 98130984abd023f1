"""The abstract combat of seed 001 ("Simple Campaign Thrust"), shared by every ruleset.

A battle between two sides is fought in rounds. In each round the sides take
turns, the side that won the initiative first, and each turn one *attack slot*
of that side fires: an offensive unit, together with any units that chose to
combine their attack with it. The slot rolls as many FT dice as the effective
offence of its units still afloat (1–3 a miss, 4–5 one point, 6 two points and
one more die). The points are judged against the target's effective defence:
at least the defence destroys it, more than half of it (rounded up) cripples it.
Crippled and out-of-supply each halve a unit's values, and the two together
quarter them. A screening unit does not attack; while it is afloat the unit it
screens cannot be targeted. After every slot has fired, each side decides to
fight on or break off; one side breaking off ends the battle. Fighters are
units like any other, and those with no hangar left afloat at the end are lost.
A base is five elements fought one after the other.

Interface (kept stable; the ``sct`` and ``ftc2007`` rulesets import it):

- :class:`Unit` one ship, fighter group or base element: ``id``, ``ov``, ``dv``,
  optional ``half``/``quarter`` value pairs from a ship table (else computed by
  :func:`halved` and :func:`quartered`), ``crippled``, ``supplied``,
  ``screening`` (the friendly unit it protects; ``None`` means offensive
  posture), ``checks_worse`` (its cripple threshold one point lower),
  ``combine_with`` (the friendly unit whose attack it joins),
  ``target`` (the enemy unit it shoots at, if it can), ``fighter`` and
  ``carrier`` (where its hangar is: a unit or base id), ``base``/``element``.
- :class:`Side` a name, its units in the order they fire, ``max_rounds`` (the
  rounds it will fight before breaking off; ``None`` = to the end),
  ``targets`` (enemy ids in the order it prefers them) and ``break_off_below``
  (the share of its starting :func:`strength` below which it breaks off).
- :func:`fight` the whole battle → :class:`CombatResult` (per-unit
  :class:`UnitResult`: damage taken, crippled, destroyed, lost for want of a
  hangar; rounds fought; who broke off; who holds the field; every
  :class:`Attack` with its text and its dice). :func:`fight_round` one round,
  for a ruleset whose players give new postures between rounds.
- :func:`base_elements` the five elements of a base of a given economic value;
  :func:`roll_initiative` one die each, ties re-rolled; :func:`ft_dice` the
  dice of one attack. Every die is rolled through :class:`ftpress.state.dice.Dice`
  with a purpose and the caller's ``rule`` label (such as ``"sct Combat"``).

Where the seed is silent this module makes one named choice (the constants
below). Bad input (an unknown id, a screening loop) raises ``ValueError``: the
rulesets check orders before they get here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ftpress.state.dice import Dice, Roll
from ftpress.state.words import listed, plural, possessive, sentence

#: A crippled unit hit again for more than half (but less than all) of its now
#: halved defence stays crippled: the seed knows only two states, crippled and
#: destroyed, and halving twice would be a third.
CRIPPLED_AGAIN_DESTROYS = False

#: Units that combine their attack with a lead unit fire at the lead's turn even
#: if the lead itself was destroyed first (they were holding their fire for that
#: moment; the seed only says a held ship may itself be lost before it fires).
COMBINED_FIRE_WITHOUT_LEAD = True

#: With no target named (by the unit or its side's list), a unit shoots at the
#: attackable enemy with the highest effective offence, then the lowest effective
#: defence, then the first in its side's order: the most dangerous, easiest kill.
DEFAULT_TARGETING = "most-dangerous"

#: The seed has sides fight on until one breaks off; a battle in which neither
#: ever does is cut off after this many rounds, with no side holding the field
#: unless the other is gone.
ROUND_LIMIT = 20

#: A base of very small economic value still has elements of value 1 (a value of
#: 0 would be a base that cannot be hit at all).
BASE_MINIMUM_VALUE = 1

#: Elements in a base (seed 001 "Bases").
BASE_ELEMENTS = 5

#: Points for each face of an FT die.
_POINTS = {1: 0, 2: 0, 3: 0, 4: 1, 5: 1, 6: 2}


def halved(value: int) -> int:
    """Half a value, fractions rounded up, never below 1 unless it was 0
    (the seed's table: 9 → 5, 1 → 1)."""
    return 0 if value == 0 else max(1, (value + 1) // 2)


def quartered(value: int) -> int:
    """A quarter of a value, rounded to the nearest (halves up), never below 1
    unless it was 0 (the seed's table: 9 → 2, 10 → 3, 1 → 1)."""
    return 0 if value == 0 else max(1, (value + 2) // 4)


@dataclass(frozen=True, slots=True)
class Unit:
    """One ship, fighter group or base element in a battle, as it stands."""

    id: str
    ov: int
    dv: int
    #: (ov, dv) when halved and quartered, if a ship table gives them.
    half: tuple[int, int] | None = None
    quarter: tuple[int, int] | None = None
    name: str = ""
    crippled: bool = False
    destroyed: bool = False
    #: Fights supplied (spent an endurance point) or at half values.
    supplied: bool = True
    #: Takes its damage checks one level worse (a ruleset's penalty, such as
    #: ftc2007 §7.4): a hit of exactly half its defence (rounded up) cripples it,
    #: where other units need more than half.
    checks_worse: bool = False
    #: The friendly unit it screens; a screening unit does not attack.
    screening: str | None = None
    #: The friendly unit whose attack it joins (it holds its fire until then).
    combine_with: str | None = None
    #: The enemy unit it means to attack, while that one can be attacked.
    target: str | None = None
    fighter: bool = False
    #: A fighter's hangar: the id of a unit or base of its own side.
    carrier: str | None = None
    #: The base this unit is an element of, and which element (1 first).
    base: str | None = None
    element: int = 0
    #: Points scored against it so far (for the report).
    damage: int = 0
    lost_without_hangar: bool = False

    def __post_init__(self) -> None:
        if self.ov < 0 or self.dv < 1:
            raise ValueError(f"{self.id}: offence must be 0 or more and defence 1 or more, "
                             f"not {self.ov}/{self.dv}")

    @property
    def label(self) -> str:
        return self.name or self.id

    @property
    def values(self) -> tuple[int, int]:
        """Effective (offence, defence): halved once for crippled, once for out of
        supply, quartered for both (seed 001 "Combat")."""
        level = int(self.crippled) + int(not self.supplied)
        if level == 0:
            return self.ov, self.dv
        if level == 1:
            return self.half or (halved(self.ov), halved(self.dv))
        return self.quarter or (quartered(self.ov), quartered(self.dv))


@dataclass(frozen=True, slots=True)
class Side:
    name: str
    units: tuple[Unit, ...]
    #: Rounds it fights before breaking off; ``None`` fights to the end.
    max_rounds: int | None = None
    #: Enemy unit ids in the order this side prefers to attack them.
    targets: tuple[str, ...] = ()
    #: (n, d): it also breaks off after a round that leaves it with less than n/d of
    #: the strength (effective defence afloat, :func:`strength`) it began the battle with.
    break_off_below: tuple[int, int] | None = None
    #: How sentences name the side ('the Eastern Star Union'); its ``name`` if unset.
    title: str = ""

    @property
    def called(self) -> str:
        return self.title or self.name

    def unit(self, unit_id: str) -> Unit:
        for unit in self.units:
            if unit.id == unit_id:
                return unit
        raise ValueError(f"side {self.name} has no unit {unit_id!r}")

    @property
    def afloat(self) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if not u.destroyed)


@dataclass(frozen=True, slots=True)
class Attack:
    """One attack made: who fired, at whom, the points scored and the outcome."""

    round: int
    side: str
    attackers: tuple[str, ...]
    target: str
    dice: int
    points: int
    #: "destroyed", "crippled" or "no effect".
    outcome: str
    text: str
    rolls: tuple[Roll, ...]


@dataclass(frozen=True, slots=True)
class UnitResult:
    id: str
    side: str
    damage: int
    crippled: bool
    destroyed: bool
    lost_without_hangar: bool


@dataclass(frozen=True, slots=True)
class CombatResult:
    sides: tuple[Side, Side]
    rounds: int
    #: Names of the sides that chose to break off (empty if one side was wiped out).
    disengaged: tuple[str, ...]
    #: The side left holding the field, or ``None`` if neither is.
    holds_field: str | None
    attacks: tuple[Attack, ...]

    @property
    def units(self) -> tuple[UnitResult, ...]:
        return tuple(UnitResult(u.id, side.name, u.damage, u.crippled, u.destroyed,
                                u.lost_without_hangar)
                     for side in self.sides for u in side.units)

    def unit(self, unit_id: str) -> UnitResult:
        for result in self.units:
            if result.id == unit_id:
                return result
        raise ValueError(f"no unit {unit_id!r} in this battle")

    @property
    def rolls(self) -> tuple[Roll, ...]:
        return tuple(roll for attack in self.attacks for roll in attack.rolls)

    @property
    def summary(self) -> str:
        """One plain sentence for the report."""
        parts = []
        for side in self.sides:
            lost = [u.label for u in side.units if u.destroyed]
            crippled = [u.label for u in side.units if u.crippled and not u.destroyed]
            bits = []
            if lost:
                bits.append("lost " + listed(lost))
            if crippled:
                bits.append(f"had {listed(crippled)} crippled")
            parts.append(f"{side.called} " + (" and ".join(bits) if bits else "took no loss"))
        rounds = f"{self.rounds} round" + ("" if self.rounds == 1 else "s")
        called = {side.name: side.called for side in self.sides}
        if self.holds_field:
            end = f"{called[self.holds_field]} holds the field"
        else:
            end = "neither side holds the field"
        broke = (f"; {' and '.join(called[n] for n in self.disengaged)} broke off"
                 if self.disengaged else "")
        return f"After {rounds}: " + "; ".join(parts) + broke + f"; {end}."


def strength(side: Side) -> int:
    """The effective defence of a side's units afloat: what it has left to lose."""
    return sum(u.values[1] for u in side.afloat)


def ft_dice(dice: Dice, count: int, purpose: str, rule: str) -> int:
    """Points from ``count`` FT dice: 1–3 nothing, 4–5 one, 6 two and one more
    die. The ``count`` dice are rolled first, then one re-roll for every 6 (a
    re-roll that comes up 6 earns another)."""
    points = 0
    pending = 0
    for i in range(count):
        face = dice.d6(f"{purpose} (die {i + 1} of {count})", rule)
        points += _POINTS[face]
        pending += face == 6
    extra = 0
    while pending:
        pending -= 1
        extra += 1
        face = dice.d6(f"{purpose} (re-roll {extra})", rule)
        points += _POINTS[face]
        pending += face == 6
    return points


def roll_initiative(dice: Dice, names: Sequence[str], rule: str,
                    bonuses: Sequence[int] | None = None, *,
                    titles: Mapping[str, str] | None = None) -> tuple[tuple[str, ...],
                                                                      dict[str, int]]:
    """One d6 each (plus any bonus); ties for any place are rolled again among the
    tied. Returns the names highest first, and each one's first total. The dice say
    whose roll each is by ``titles`` ('the Eastern Star Union'), else by name."""
    bonus = dict(zip(names, bonuses or [0] * len(names), strict=True))
    first: dict[str, int] = {}

    def rank(group: Sequence[str], attempt: int) -> list[str]:
        totals = {}
        for name in group:
            again = f" (tie, roll {attempt + 1})" if attempt else ""
            who = (titles or {}).get(name, name)
            totals[name] = dice.d6(f"initiative of {who}{again}", rule) + bonus[name]
            first.setdefault(name, totals[name])
        ordered: list[str] = []
        for total in sorted(set(totals.values()), reverse=True):
            tied = [n for n in group if totals[n] == total]
            ordered.extend(tied if len(tied) == 1 else rank(tied, attempt + 1))
        return ordered

    return tuple(rank(list(names), 0)), first


def base_elements(base_id: str, ev: int, name: str = "") -> tuple[Unit, ...]:
    """The five elements of a base in a system of economic value ``ev``: each with
    offence and defence of one twentieth of it, rounded to the nearest."""
    value = max(BASE_MINIMUM_VALUE, (ev + 10) // 20)
    label = name or base_id
    return tuple(Unit(f"{base_id}-{i}", value, value, name=f"{label} element {i}",
                      base=base_id, element=i)
                 for i in range(1, BASE_ELEMENTS + 1))


def attackable(side: Side) -> tuple[Unit, ...]:
    """The units of ``side`` an enemy may attack now: afloat, not screened by a
    friendly unit afloat, and (for a base) every earlier element destroyed."""
    screened = {u.screening for u in side.afloat if u.screening}
    open_elements: dict[str, int] = {}
    for unit in side.afloat:
        if unit.base is not None:
            open_elements[unit.base] = min(open_elements.get(unit.base, unit.element),
                                           unit.element)
    return tuple(u for u in side.afloat
                 if u.id not in screened
                 and (u.base is None or open_elements[u.base] == u.element))


def _check(sides: tuple[Side, Side]) -> None:
    ids = [u.id for side in sides for u in side.units]
    if len(set(ids)) != len(ids):
        raise ValueError("every unit in a battle needs its own id")
    for side in sides:
        own = {u.id for u in side.units}
        bases = {u.base for u in side.units if u.base}
        for unit in side.units:
            for ref, what in ((unit.screening, "screens"), (unit.combine_with, "combines with")):
                if ref is not None and (ref not in own or ref == unit.id):
                    raise ValueError(f"{unit.id} {what} {ref!r}, not another unit of its side")
            if unit.carrier is not None and unit.carrier not in own | bases:
                raise ValueError(f"{unit.id}'s hangar {unit.carrier!r} is not on its side")
            seen = {unit.id}
            follow = unit.screening
            while follow is not None:
                if follow in seen:
                    raise ValueError(f"{unit.id} is in a screening loop")
                seen.add(follow)
                follow = side.unit(follow).screening


def _slots(side: Side) -> list[tuple[str, ...]]:
    """Attack slots in firing order: each offensive lead with the units joining it."""
    slots: list[tuple[str, ...]] = []
    for unit in side.units:
        if unit.screening is not None or unit.combine_with is not None:
            continue
        joined = tuple(u.id for u in side.units
                       if u.combine_with == unit.id and u.screening is None)
        slots.append((unit.id, *joined))
    return slots


def _pick_target(attacker: Side, lead: Unit, enemy: Side) -> Unit | None:
    options = attackable(enemy)
    if not options:
        return None
    by_id = {u.id: u for u in options}
    if lead.target in by_id:
        return by_id[lead.target]
    for wanted in attacker.targets:
        if wanted in by_id:
            return by_id[wanted]
    order = {u.id: i for i, u in enumerate(enemy.units)}
    return min(options, key=lambda u: (-u.values[0], u.values[1], order[u.id]))


def _hit(target: Unit, points: int) -> tuple[Unit, str]:
    dv = target.values[1]
    damage = target.damage + points
    if points >= dv:
        return replace(target, destroyed=True, damage=damage), "destroyed"
    if points > halved(dv) or (target.checks_worse and points == halved(dv) and points):
        if target.crippled and CRIPPLED_AGAIN_DESTROYS:
            return replace(target, destroyed=True, damage=damage), "destroyed"
        outcome = "crippled" if not target.crippled else "no further effect"
        return replace(target, crippled=True, damage=damage), outcome
    return replace(target, damage=damage), "no effect"


def fight_round(sides: tuple[Side, Side], first: int, dice: Dice, rule: str,
                round_no: int = 1) -> tuple[tuple[Side, Side], tuple[Attack, ...]]:
    """One round (seed 001 "Combat"): the sides' attack slots fire in turn, side
    ``first`` (0 or 1, the initiative winner) first; a side whose slots are spent
    leaves the rest to the other. Damage takes effect at once, so a unit
    destroyed before its slot comes never fires.

    Reading ``each-attack-judged-alone`` (the ruleset's readings).
    """
    _check(sides)
    current = list(sides)
    slots = [_slots(sides[0]), _slots(sides[1])]
    attacks: list[Attack] = []
    turn = first
    while slots[0] or slots[1]:
        if not slots[turn]:
            turn = 1 - turn
            continue
        own, enemy = current[turn], current[1 - turn]
        slot = slots[turn].pop(0)
        afloat = [own.unit(i) for i in slot if not own.unit(i).destroyed]
        if not COMBINED_FIRE_WITHOUT_LEAD and own.unit(slot[0]).destroyed:
            afloat = []
        firing = [u for u in afloat if u.values[0] > 0]
        if not firing:
            continue  # nothing left to fire in this slot; the side picks its next
        target = _pick_target(own, firing[0], enemy)
        if target is None:
            break  # nothing of the enemy can be attacked any more this round
        count = sum(u.values[0] for u in firing)
        names = " and ".join(u.label for u in firing)
        purpose = f"{names} attack {target.label}"
        before = len(dice.log)
        points = ft_dice(dice, count, purpose, rule)
        hit, outcome = _hit(target, points)
        current[1 - turn] = replace(enemy, units=tuple(hit if u.id == hit.id else u
                                                       for u in enemy.units))
        # 'the base of Fort': after "the ESU's" it drops its article.
        own_names = listed(u.label.removeprefix("the ") for u in firing)
        text = (f"{sentence(possessive(own.called))} {own_names} "
                f"fire{'s' if len(firing) == 1 else ''} {count} "
                f"{'die' if count == 1 else 'dice'} at {possessive(enemy.called)} "
                f"{target.label.removeprefix('the ')}: "
                f"{plural(points, 'point')} against defence "
                f"{target.values[1]}, {outcome}.")
        attacks.append(Attack(round_no, own.name, tuple(u.id for u in firing), target.id,
                              count, points, outcome, text, dice.log[before:]))
        turn = 1 - turn
    return (current[0], current[1]), tuple(attacks)


def _ground_fighters(side: Side) -> Side:
    afloat = {u.id for u in side.afloat} | {u.base for u in side.afloat if u.base}
    return replace(side, units=tuple(
        replace(u, destroyed=True, lost_without_hangar=True)
        if u.fighter and not u.destroyed and (u.carrier is None or u.carrier not in afloat)
        else u for u in side.units))


def fight(a: Side, b: Side, first: int, dice: Dice, rule: str) -> CombatResult:
    """A whole battle (seed 001 "Combat"): rounds until a side has nothing afloat,
    a side breaks off (its ``max_rounds`` reached, or its strength fallen below
    ``break_off_below``), neither side can attack, or
    :data:`ROUND_LIMIT`. Then fighters without a hangar are lost."""
    sides = (a, b)
    _check(sides)
    began = (strength(a), strength(b))
    attacks: list[Attack] = []
    rounds = 0
    disengaged: tuple[str, ...] = ()
    while rounds < ROUND_LIMIT and all(side.afloat for side in sides):
        rounds += 1
        sides, made = fight_round(sides, first, dice, rule, rounds)
        attacks.extend(made)
        if not all(side.afloat for side in sides):
            break
        disengaged = tuple(side.name for side, start in zip(sides, began, strict=True)
                           if (side.max_rounds is not None and rounds >= side.max_rounds)
                           or _weakened(side, start))
        if disengaged or not made:
            break
    sides = (_ground_fighters(sides[0]), _ground_fighters(sides[1]))
    holds = _holder(sides, disengaged)
    return CombatResult(sides, rounds, disengaged, holds, tuple(attacks))


def _weakened(side: Side, start: int) -> bool:
    if side.break_off_below is None:
        return False
    n, d = side.break_off_below
    return strength(side) * d < start * n


def _holder(sides: tuple[Side, Side], disengaged: tuple[str, ...]) -> str | None:
    """Who holds the field: the only side with anything afloat, else the only side
    that did not break off."""
    afloat = [side.name for side in sides if side.afloat]
    if len(afloat) < 2:
        return afloat[0] if afloat else None
    stayed = [side.name for side in sides if side.name not in disengaged]
    return stayed[0] if len(stayed) == 1 else None
