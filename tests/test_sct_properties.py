"""Invariants of the sct turn, over states and orders Hypothesis makes up.

Whatever the orders and the dice: every player's treasury moves by exactly the
sum of its events' amounts and never goes below zero; a force moves at most
3 MU a move (plus the half MU that puts it on a star); endurance stays between
0 and the force's maximum; the turn is deterministic; the state it leaves
saves and loads back unchanged; and the geometry keeps its promises.
"""

from __future__ import annotations

import math

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_sct_cases import build_orders, build_state

from ftpress.rules.sct import plane
from ftpress.rules.sct.orders import problems
from ftpress.rules.sct.state_ext import EXTENSION
from ftpress.rules.sct.state_legality import check_state
from ftpress.rules.sct.supply import max_endurance
from ftpress.rules.sct.turn import resolve
from ftpress.state.dice import Dice
from ftpress.state.files import KINDS
from ftpress.state.load import validate_file
from ftpress.state.model import Point
from ftpress.state.save import dump, save_state
from ftpress.store.campaign import load_folder

coordinate = st.integers(-8, 8)


@st.composite
def campaigns(draw):
    """A small planar state and orders for both players, as YAML text."""
    players = ("nac", "esu", "fse")[:draw(st.integers(2, 3))]
    spots = draw(st.lists(st.tuples(coordinate, coordinate), min_size=4, max_size=6,
                          unique=True))
    systems = []
    for i, (x, y) in enumerate(spots):  # every player holds a system; some are neutral
        systems.append({"id": f"s{i}", "at": [x * 2, y * 2],
                        "owner": (*players, None)[i % (len(players) + 1)],
                        "ev": draw(st.sampled_from([20, 100, 250, 400])),
                        "depot": draw(st.booleans()), "base": draw(st.booleans()),
                        "shipyard": draw(st.booleans())})
    forces = []
    for i in range(draw(st.integers(1, 5))):
        owner = players[i % len(players)]
        ships = draw(st.lists(st.sampled_from(["dd", "ff", "fr"] if owner == "nac"
                                              else ["ch", "fe"]), min_size=1, max_size=3))
        at = draw(st.one_of(st.sampled_from([s["id"] for s in systems]),
                            st.tuples(coordinate, coordinate).map(list)))
        forces.append({"id": f"tf{i}", "owner": owner, "at": at, "ships": ships,
                       "endurance": draw(st.integers(0, 2 if set(ships) == {"fr"} else 6))})
    spec = {"systems": systems, "forces": forces, "players": players,
            "treasury": {p: draw(st.integers(0, 600)) for p in players},
            "battles": draw(st.sampled_from(["abstract", "tabletop"]))}
    orders = {}
    for player in players:
        mine = {}
        for force in forces:
            if force["owner"] != player or not draw(st.booleans()):
                continue
            order = {"move": f"{draw(st.integers(1, 12))}/{draw(st.integers(0, 3))}"}
            if draw(st.booleans()):
                order["secondary"] = {"bearing": draw(st.integers(0, 359)),
                                      "distance": draw(st.integers(1, 3))}
            if draw(st.booleans()):
                order["supplied"] = False
            if draw(st.booleans()):
                order["rounds"] = draw(st.integers(1, 3))
            names = [f"{force['id']}-{k + 1}" for k in range(len(force["ships"]))]
            if len(names) > 1 and draw(st.booleans()):
                pairs = draw(st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names)),
                                      max_size=3))
                order[draw(st.sampled_from(["screen", "combine"]))] = dict(pairs)
            mine[force["id"]] = order
        economy = {}
        yards = [s["id"] for s in systems if s["owner"] == player and s["shipyard"]]
        if yards and draw(st.booleans()):
            economy["builds"] = [{"design": draw(st.sampled_from(["dd", "ff", "ch", "fe"])),
                                  "at": draw(st.sampled_from(yards)), "name": f"New {player}"}]
        held = [s["id"] for s in systems if s["owner"] == player]
        if held and draw(st.booleans()):
            economy["works"] = [{"kind": draw(st.sampled_from(["depot", "base", "shipyard"])),
                                 "at": draw(st.sampled_from(held))}]
        orders[player] = yaml.safe_dump({"forces": mine, "economy": economy})
    return spec, orders, draw(st.integers(0, 2**32))


def _run(spec, texts, seed):
    state = build_state(spec)
    orders = build_orders(state, texts)
    return state, orders, resolve(state, orders, Dice.seeded("sct-property", str(seed)), {})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(campaigns())
def test_money_moves_only_by_the_events_and_never_below_zero(case):
    spec, texts, seed = case
    before, _orders, (after, events) = _run(spec, texts, seed)
    for player in before.players.players:
        moved = sum(e.amount or 0 for e in events if e.player == player.id)
        now = after.player(player.id)
        assert now.treasury - player.treasury == moved
        assert now.treasury >= 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(campaigns())
def test_moves_are_at_most_three_mu_and_endurance_stays_in_bounds(case):
    spec, texts, seed = case
    _before, _orders, (after, events) = _run(spec, texts, seed)
    for event in events:
        if event.kind in ("movement", "secondary-move") and event.origin is not None:
            start, end = plane.where(after, event.origin), plane.where(after, event.at)
            assert plane.distance(start, end) <= 3 + plane.AT_SYSTEM + 0.02, event.text
    for group in after.groups.groups:
        assert group.endurance is None or 0 <= group.endurance <= max_endurance(after, group)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(campaigns())
def test_a_turn_is_deterministic_and_its_state_reads_back(case):
    spec, texts, seed = case
    _before, _orders, (after, events) = _run(spec, texts, seed)
    _before, _orders, (again, events_again) = _run(spec, texts, seed)
    assert (after, events) == (again, events_again)
    for model, kind in ((after.map, "map"), (after.groups, "groups"),
                        (after.players, "players"), (after.queues, "queues")):
        assert validate_file(yaml.safe_load(dump(model)), kind, KINDS[kind], EXTENSION) == model


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(campaigns())
def test_a_file_that_checks_clean_has_no_refusals(case):
    spec, texts, seed = case
    state, orders, (_after, events) = _run(spec, texts, seed)
    clean = {p for p, loaded in orders.items() if not problems(state, loaded)}
    refused = {e.player for e in events if e.kind == "rejected" and e.order is not None
               and "secondary" not in (e.text or "")}
    assert not clean & refused


@given(st.floats(-50, 50), st.floats(-50, 50), st.floats(0, 359.99), st.floats(0, 3))
def test_a_step_goes_its_length_on_its_bearing(x, y, degrees, length):
    start = Point(round(x, 2), round(y, 2))
    end = plane.step(start, degrees, length)
    assert math.isclose(plane.distance(start, end), length, abs_tol=0.015)
    if length > 0.5:  # rounding to 0.01 MU turns a step of half an MU by under 2°
        turned = abs(plane.bearing(start, end) - degrees) % 360
        assert min(turned, 360 - turned) < 2


@given(st.integers(1, 12), st.floats(0, 359.99))
def test_off_facing_is_an_angle_between_0_and_180(facing, degrees):
    off = plane.off_facing(facing, degrees)
    assert 0 <= off <= 180
    assert plane.off_facing(facing, plane.facing_bearing(facing)) == 0


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(campaigns())
def test_the_state_after_a_turn_passes_every_check(tmp_path, case):
    spec, texts, seed = case
    _before, _orders, (after, _events) = _run(spec, texts, seed)
    folder = tmp_path / f"run-{seed}"
    save_state(folder, after)
    loaded = load_folder(folder)  # the shared cross-checks raise if anything is off
    assert check_state(loaded) == []
