"""ftc2007 map generation (rules 1–3): determinism, the properties every map
has whatever the dice, and each named ruling."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ftpress.errors import SetupError
from ftpress.rules.ftc2007.mapgen import (
    ClaimRolled,
    IncomeRolled,
    MapOptions,
    StubRolled,
    chart_routes,
    claim_worlds,
    generate,
    link_up,
    place_worlds,
)
from ftpress.rules.ftc2007.setup import build_state, roll_up
from ftpress.state.dice import Dice, SuppliedDice
from ftpress.state.hexes import Hex, hexagon
from ftpress.state.save import dump

PLAYERS = ("nac", "nsl", "fse", "esu")


def files_for(seed: int) -> dict[str, str]:
    generated, _ = roll_up(seed, PLAYERS, MapOptions())
    state = build_state(generated, campaign_id="c", name="C", seed=seed, start=date(2026, 3, 9),
                        deadline=datetime(2026, 3, 15, 20, tzinfo=UTC))
    return {k: dump(getattr(state, k)) for k in ("players", "map")}


def test_same_seed_same_map_bytes():
    assert files_for(42) == files_for(42)
    assert files_for(42) != files_for(43)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6))
def test_every_map_keeps_the_rules(seed, count):
    players = (*PLAYERS, "sav", "p6")[:count]
    generated, dice = roll_up(seed, players, MapOptions())
    hexes = hexagon(5)
    assert len(hexes) == 91
    worlds = set(generated.worlds)
    assert worlds <= set(hexes)
    # every route joins two worlds, and links within a route share worlds
    for route in generated.routes:
        for a, b in route:
            assert a in worlds and b in worlds and a != b
    # every player holds a capital and 5–7 more, or every world that was free
    neutral = worlds - set(generated.owners)
    for player in players:
        held = generated.holdings[player]
        assert held[0] == generated.capitals[player]
        assert 6 <= len(held) <= 8 or not neutral
    # incomes: 3d5 × 10 for player worlds, none rolled for neutral ones
    assert set(generated.incomes) == set(generated.owners)
    assert all(v % 10 == 0 and 30 <= v <= 150 for v in generated.incomes.values())
    # every die is a logged die
    assert all(1 <= r.value <= r.sides for r in dice.log)
    assert sum(1 for r in dice.log if r.rule == "ftc2007 §1.2") == 91


def test_too_many_players_for_the_worlds():
    with pytest.raises(SetupError, match="too few for 3 players"):
        generate(Dice(SuppliedDice([6, 6, 1, 6, 6, 6, 6, 1], "d")), ("a", "b", "c"),
                 MapOptions(radius=1))


def test_worlds_on_1_to_3_and_routes_on_a_1():
    """§1.2, and §1.3's '1' is the world roll itself (reading route-on-world-roll-of-1)."""
    dice = Dice(SuppliedDice([1, 4, 3, 6, 2, 5, 5], "d"))
    worlds, on_route = place_worlds(dice, MapOptions(radius=1))
    assert worlds == (Hex(-1, 0), Hex(0, -1), Hex(0, 1))
    assert on_route == (Hex(-1, 0),)


def test_a_stub_off_the_map_or_finding_nothing_is_rolled_again():
    """§1.3: side 1 (north) of (-1, 0) leaves a radius-1 map; side 2 finds
    nothing within four hexes; side 3 (south-east) finds (0, 0)... not a world,
    so (0, 1)."""
    worlds = (Hex(-1, 0), Hex(0, 1))
    events: list = []
    dice = Dice(SuppliedDice([1, 2, 3], "d"))
    routes = chart_routes(dice, worlds, (Hex(-1, 0),), MapOptions(radius=1), events)
    assert [(e.direction, e.target, e.why) for e in events] == [
        (1, None, "off the map"), (2, None, "no world within 4 hexes"), (3, Hex(0, 1), "")]
    assert routes == (((Hex(-1, 0), Hex(0, 1)),),)


def test_a_world_with_no_usable_side_gets_no_stub_and_no_endless_rolling():
    """Reading stub-off-edge-is-first-step."""
    events: list = []
    routes = chart_routes(Dice(SuppliedDice([], "d")), (Hex(0, 0),), (Hex(0, 0),),
                          MapOptions(), events)
    assert routes == ()
    assert [type(e).__name__ for e in events] == ["StubAbandoned"]


def test_stubs_link_up_into_connected_routes():
    """Reading routes-are-connected-links."""
    a, b, c, d, e = Hex(0, 0), Hex(1, 0), Hex(2, 0), Hex(-3, 0), Hex(-4, 0)
    assert link_up([(b, a), (a, b), (c, b), (d, e)]) == (
        ((e, d),), ((a, b), (b, c)))
    # Two networks joined by a later link become one route, its links in order.
    assert link_up([(a, b), (d, e), (b, d)]) == (((e, d), (d, b), (a, b)),)


def test_claims_go_round_from_the_capital_and_reroll_an_empty_direction():
    """§2: a d{free worlds} for each start, d3 + 4 each, then a direction each in turn
    from the capital (readings start-by-die-over-free-worlds and claim-from-capital)."""
    worlds = tuple(hexagon(2))  # 19 worlds: every hex
    rolls = [10, 1,               # starts: nac takes worlds[9] = (0, 0); nsl worlds[0]
             1, 1,                # d3: one + 0 extra each
             1,                   # nac: north from (0, 0) → (0, -1)
             3]                   # nsl: south-east from (-2, 0) → (-1, 0)
    events: list = []
    held = claim_worlds(Dice(SuppliedDice(rolls, "d")), ("nac", "nsl"), worlds,
                        MapOptions(extra_worlds=0), events)
    assert held == {"nac": [Hex(0, 0), Hex(0, -1)], "nsl": [Hex(-2, 0), Hex(-1, 0)]}
    assert [e.direction for e in events if isinstance(e, ClaimRolled)] == [1, 3]


def test_a_direction_with_nothing_unclaimed_is_rolled_again():
    worlds = (Hex(0, 0), Hex(0, -2))
    events: list = []
    held = claim_worlds(Dice(SuppliedDice([1, 1, 4, 1], "d")), ("nac",), worlds,
                        MapOptions(extra_worlds=0), events)
    assert held == {"nac": [Hex(0, 0), Hex(0, -2)]}
    claims = [e for e in events if isinstance(e, ClaimRolled)]
    assert [(c.direction, c.world) for c in claims] == [(4, None), (1, Hex(0, -2))]


def test_claims_stop_when_no_world_is_free():
    worlds = (Hex(0, 0), Hex(1, 0))
    events: list = []
    held = claim_worlds(Dice(SuppliedDice([1, 3, 3], "d")), ("nac",), worlds,
                        MapOptions(), events)
    assert held == {"nac": [Hex(0, 0), Hex(1, 0)]}
    assert type(events[-1]).__name__ == "ClaimsExhausted" and events[-1].short == 6


def test_income_is_three_d5_times_ten():
    generated = generate(Dice(SuppliedDice([1] + [6] * 6 + [1, 1, 2, 3, 5], "d")), ("nac",),
                         MapOptions(radius=1, extra_worlds=0))
    income = [e for e in generated.events if isinstance(e, IncomeRolled)]
    assert generated.incomes == {Hex(-1, 0): 100}
    assert income[0].dice == (2, 3, 5)


def test_stub_events_name_their_targets():
    """Stubs rolled once every world is placed point at worlds anywhere on the map
    (reading stubs-after-placement)."""
    generated, _ = roll_up(42, PLAYERS, MapOptions())
    stubs = [e for e in generated.events if isinstance(e, StubRolled) and e.target]
    linked = {frozenset(link) for route in generated.routes for link in route}
    assert {frozenset((e.world, e.target)) for e in stubs} == linked
