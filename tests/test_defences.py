"""ftc2007 §10 pieces on their own: the damage spread (§10.8) and the roll's table."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from turnfixture import build_orders, build_state

from ftpress.rules.ftc2007.defences import attack_result, may_attack, modifiers, spread_damage
from ftpress.rules.ftc2007.summary import describe_orders

from statefiles import MAP, STATE, sub

fleets = st.lists(st.tuples(st.integers(1, 300), st.integers(0, 60)), min_size=1, max_size=12)


@given(st.integers(0, 400), fleets)
def test_spread_conserves_boxes_and_respects_hulls(total, ships):
    """§10.8 as ruled 8 April: the shares add up to the whole total (no damage wasted)
    unless every ship is destroyed, and no ship takes more than the hull it has left."""
    masses = [m for m, _ in ships]
    left = [h for _, h in ships]
    shares = spread_damage(total, masses, left)
    assert sum(shares) == min(total, sum(left))
    assert all(0 <= s <= h for s, h in zip(shares, left, strict=True))


@given(st.integers(0, 400), st.lists(st.integers(1, 300), min_size=1, max_size=12))
def test_spread_with_room_is_each_exact_share_rounded(total, masses):
    """With hull to spare, every ship gets its exact share by mass rounded down or up."""
    shares = spread_damage(total, masses, [10_000] * len(masses))
    whole = sum(masses)
    for share, mass in zip(shares, masses, strict=True):
        exact = Fraction(total * mass, whole)
        assert exact - 1 < share < exact + 1


def test_spread_marrow_table():
    assert spread_damage(36, [120, 60, 60, 20, 20, 20, 20], [36] * 7) == [14, 7, 7, 2, 2, 2, 2]


@pytest.mark.parametrize(("natural", "total", "outcome"), [
    (6, 5, "surrender"), (5, 6, "surrender"), (5, 7, "surrender"), (1, 2, "interdicted"),
    (5, 5, "interdicted"), (2, 1, "repulsed"), (1, 0, "repulsed"), (1, 1, "repulsed"),
])
def test_attack_result(natural, total, outcome):
    assert attack_result(natural, total) == outcome


@pytest.mark.parametrize(("points", "value", "allowed", "total"), [
    (149, 300, False, None), (150, 300, True, -1), (299, 300, True, -1), (300, 300, True, 0),
    (599, 300, True, 0), (600, 300, True, 1), (899, 300, True, 1), (900, 300, True, 2),
])
def test_minimum_and_multiples(points, value, allowed, total):
    """§10.2: at least half to attack; +1 per whole multiple beyond the first; −1 below."""
    assert may_attack(points, value) is allowed
    if allowed:
        assert sum(m for m, _ in modifiers(points, value, False)) == total


def test_a_player_with_no_world_left_keeps_its_lost_capital(campaign, run):
    """reading ``capital-moves-to-richest-world`` has nowhere to move a last world's capital: the
    state check accepts the lost capital on record. (The setup treasury check
    still speaks, since this is turn 1's state with a world given away.)"""
    root = campaign({**STATE, "state/map.yaml": sub(MAP, "owner: esu", "owner: nac")})
    _, _, err = run("check", "--source", root)
    assert "capital" not in err, err
    # With esu still holding a world, the same capital is an error (test_state.py).


def test_check_summary_says_an_attack_on_defences_will_follow():
    """``ftpress check`` tells a player whose group arrives or holds on attack orders at
    another power's world that it attacks the defences unless a fleet opposes it."""
    state = build_state({"systems": [{"id": "home", "hex": [0, 0], "owner": "nac"},
                                     {"id": "east", "hex": [1, 0], "owner": "esu"}],
                         "groups": [{"id": "g1", "owner": "nac", "at": "home", "ships": ["dd"]},
                                    {"id": "g2", "owner": "nac", "at": "home", "ships": ["dd"]}]})
    orders = build_orders(state, {"nac": "groups:\n  g1: {move: east, posture: attack}\n"
                                         "  g2: {hold: true, posture: attack}\n"})
    lines = describe_orders(state, orders["nac"])
    assert lines[0].endswith("unless a fleet opposes it there, it attacks the defences of "
                             "East (§10).")
    assert lines[1] == "g2 (1 ship) holds at Home, on attack orders."
