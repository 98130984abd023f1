"""The shared abstract combat (seed 001): a case table in tests/combat/ and properties.

Each case gives two sides (units as :class:`Unit` fields; ``{base: id, ev: n}``
stands for a base's five elements), who fires first, the dice, and what must
come of it: the attacks in order (each a subset of the attack's fields), units'
damage and state, rounds, who broke off, who holds the field.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from ftpress.rules import abstract_combat as ac
from ftpress.rules.abstract_combat import Side, Unit, base_elements, fight, fight_round
from ftpress.state.dice import Dice, SuppliedDice

CASES = sorted((Path(__file__).parent / "combat").glob("*.yaml"))


def _side(spec: dict) -> Side:
    units: list[Unit] = []
    for u in spec["units"]:
        if "base" in u and "ev" in u:
            units.extend(base_elements(u["base"], u["ev"]))
            continue
        fields = dict(u)
        for pair in ("half", "quarter"):
            if pair in fields:
                fields[pair] = tuple(fields[pair])
        units.append(Unit(**fields))
    below = spec.get("break_off_below")
    return Side(spec["name"], tuple(units), spec.get("max_rounds"),
                tuple(spec.get("targets", ())), tuple(below) if below else None)


def test_there_are_enough_cases():
    assert len(CASES) >= 15
    for case in CASES:
        data = yaml.safe_load(case.read_text())
        assert data["clause"].startswith("seed 001 "), case.name


@pytest.mark.parametrize("path", CASES, ids=[c.stem for c in CASES])
def test_case(path):
    case = yaml.safe_load(path.read_text())
    a, b = (_side(s) for s in case["sides"])
    dice = Dice(SuppliedDice(case["dice"], path.name))
    result = fight(a, b, case["first"], dice, "sct Combat")
    assert dice.source.unused == 0, "every die supplied is rolled"
    want = case["expect"]
    if "attacks" in want:
        assert len(result.attacks) == len(want["attacks"]), [x.text for x in result.attacks]
        for got, expected in zip(result.attacks, want["attacks"], strict=True):
            plain = {k: list(v) if isinstance(v, tuple) else v
                     for k, v in ((k, getattr(got, k)) for k in expected)}
            assert plain == expected, got.text
    for unit_id, fields in want.get("units", {}).items():
        unit = result.unit(unit_id)
        assert {k: getattr(unit, k) for k in fields} == fields, unit_id
    for key in ("rounds", "holds_field"):
        if key in want:
            assert getattr(result, key) == want[key], key
    if "disengaged" in want:
        assert list(result.disengaged) == want["disengaged"]
    assert result.rolls == dice.log, "every die is in an attack"


def test_seed_table_half_and_quarter_values():
    """The ship table of seed 001: Vandenburg 6/9 (3/5) [2/2], Majestic 9/10 (5/5)
    [2/3], Harrison 2/1 (1/1) [1/1], Konstantin 10/22 (5/11) [3/6]."""
    for (ov, dv), half, quarter in [((6, 9), (3, 5), (2, 2)), ((9, 10), (5, 5), (2, 3)),
                                    ((2, 1), (1, 1), (1, 1)), ((10, 22), (5, 11), (3, 6)),
                                    ((11, 16), (6, 8), (3, 4)), ((4, 13), (2, 7), (1, 3))]:
        unit = Unit("x", ov, dv)
        assert (ac.halved(ov), ac.halved(dv)) == half
        assert (ac.quartered(ov), ac.quartered(dv)) == quarter
        assert Unit("x", ov, dv, crippled=True).values == half
        assert Unit("x", ov, dv, crippled=True, supplied=False).values == quarter
        assert unit.values == (ov, dv)


def test_base_value_rounds_to_nearest_and_never_zero():
    assert [u.ov for u in base_elements("b", 50)] == [3] * 5   # 2.5 rounds up
    assert base_elements("b", 49)[0].dv == 2
    assert base_elements("b", 5)[0].dv == ac.BASE_MINIMUM_VALUE
    assert [u.element for u in base_elements("b", 100)] == [1, 2, 3, 4, 5]


def test_crippled_again_stays_crippled():
    """CRIPPLED_AGAIN_DESTROYS: a second crippling hit has no further effect; the
    points of the first are not added to it (reading each-attack-judged-alone)."""
    a = Side("nac", (Unit("a", 4, 9),), 1)
    b = Side("esu", (Unit("b", 0, 12, crippled=True),), 1)  # defends at 6: 4 points cripple
    result = fight(a, b, 0, Dice(SuppliedDice([4, 4, 4, 4], "t")), "r")
    assert result.attacks[0].outcome == "no further effect"
    assert result.unit("b").crippled and not result.unit("b").destroyed


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="screening loop"):
        fight(Side("a", (Unit("x", 1, 1, screening="y"), Unit("y", 1, 1, screening="x"))),
              Side("b", (Unit("z", 1, 1),)), 0, Dice.seeded("t"), "r")
    with pytest.raises(ValueError, match="not another unit of its side"):
        fight(Side("a", (Unit("x", 1, 1, combine_with="z"),)),
              Side("b", (Unit("z", 1, 1),)), 0, Dice.seeded("t"), "r")
    with pytest.raises(ValueError, match="defence"):
        Unit("x", 1, 0)


def test_initiative_bonus_counts_and_ties_roll_again_with_it():
    dice = Dice(SuppliedDice([3, 4, 4, 2, 5, 1], "t"))
    order, first = ac.roll_initiative(dice, ["nac", "esu", "fsr"], "ftc2007 §17.5", [1, 0, 0])
    assert first == {"nac": 4, "esu": 4, "fsr": 4}
    assert order == ("esu", "nac", "fsr")  # 2+1, 5 and 1 on the second roll
    assert dice.source.unused == 0


def test_initiative_tie_is_rolled_again_among_the_tied_only():
    dice = Dice(SuppliedDice([5, 5, 2, 3, 6], "t"))
    order, first = ac.roll_initiative(dice, ["nac", "esu", "fsr"], "r")
    assert order == ("esu", "nac", "fsr")
    assert first == {"nac": 5, "esu": 5, "fsr": 2}
    assert dice.source.unused == 0


_units = st.lists(st.tuples(st.integers(0, 8), st.integers(1, 12), st.booleans(),
                            st.booleans()), min_size=1, max_size=4)


def _build(name: str, raw) -> Side:
    return Side(name, tuple(Unit(f"{name}{i}", ov, dv, crippled=c, supplied=s)
                            for i, (ov, dv, c, s) in enumerate(raw)))


@settings(max_examples=60, deadline=None)
@given(_units, _units, st.integers(0, 1), st.binary(min_size=1, max_size=8),
       st.one_of(st.none(), st.integers(1, 3)))
def test_a_battle_always_ends_and_accounts_for_its_dice(a, b, first, key, rounds):
    side_a = _build("a", a)
    side_b = Side("b", _build("b", b).units, rounds)
    dice = Dice.seeded(key)
    result = fight(side_a, side_b, first, dice, "r")
    assert 1 <= result.rounds <= ac.ROUND_LIMIT
    assert result.rolls == dice.log
    for attack in result.attacks:
        scored = sum(ac._POINTS[r.value] for r in attack.rolls)
        assert attack.points == scored
        assert len(attack.rolls) == attack.dice + sum(r.value == 6 for r in attack.rolls)
    afloat = [s.name for s in result.sides if s.afloat]
    if len(afloat) == 1:
        assert result.holds_field == afloat[0]
    if result.holds_field is not None:
        assert result.holds_field in afloat
    for unit in result.units:
        assert unit.damage == sum(x.points for x in result.attacks if x.target == unit.id)


@given(_units, _units, st.binary(min_size=1, max_size=8))
def test_destroyed_units_never_fire(a, b, key):
    side_a, side_b = _build("a", a), _build("b", b)
    _, attacks = fight_round((side_a, side_b), 0, Dice.seeded(key), "r")
    destroyed_at: dict[str, int] = {}
    for i, attack in enumerate(attacks):
        if attack.outcome == "destroyed":
            destroyed_at[attack.target] = i
        for unit in attack.attackers:
            assert unit not in destroyed_at
