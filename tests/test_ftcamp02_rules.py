"""ftcamp02 rule functions on their own: the seed's worked examples, the named
rulings, and hypothesis properties of the class tables, EP ratings, lost rolls
and scans."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_ftcamp02_cases import DESIGNS, build_orders, build_state

from ftpress.cli import main
from ftpress.errors import Problem
from ftpress.rules import find_ruleset
from ftpress.rules.ftcamp02 import crafts, groups, orders, scans, setup
from ftpress.rules.ftcamp02.endurance import (
    SHORTFALL_EMPTIES_STORE,
    allowance,
    expend_endurance,
)
from ftpress.rules.ftcamp02.space import distance_modifier
from ftpress.rules.ftcamp02.state_ext import Ftcamp02Design, Ftcamp02System, of_design, of_group
from ftpress.rules.ftcamp02.state_legality import check_state
from ftpress.rules.ftcamp02.summary import describe_orders
from ftpress.rules.ftcamp02.turn import resolve
from ftpress.state.dice import Dice
from ftpress.state.extension import extended
from ftpress.state.hexes import Hex
from ftpress.state.model import Ship, System
from ftpress.store.campaign import load_folder

DESIGN = {d.id: d for d in DESIGNS}


# --- the seed's worked examples ---------------------------------------------------------

def test_a_346_point_task_force_needs_4_ep():
    assert groups.ep_rating(346) == 4
    assert groups.group_class(346) == "TF"


def test_bio_19_supports_95_ep():
    assert allowance(System("s", "S", Hex(0, 0), ext=Ftcamp02System(bio=19))) == 95


@pytest.mark.parametrize(("attached", "new", "allowed"), [
    ([100] * 4, 100, True),      # five 100-point independents
    ([100] * 5, 100, False),     # not six
    ([150] * 2, 150, True),      # three 150-point independents
    ([150] * 3, 150, False),     # not four
    ([], 600, True),             # one 600-point independent, always
    ([600], 100, False),
])
def test_the_independents_a_346_point_task_force_may_take(attached, new, allowed):
    assert groups.attach_allowed(346, attached, new) is allowed


# --- rulings ----------------------------------------------------------------------------

def test_overlapping_classes_take_the_lightest():
    assert crafts.OVERLAP_TAKES == "lightest"
    assert crafts.craft_class(30) == "DD"          # DD 24-36 before DH 30-50
    assert crafts.craft_class(200) == "SDN 1"      # SDN 1 150-200 before SDN 2 200-250
    assert crafts.craft_class(360) == "SDN 5"      # SDN x: 100+50x to 150+50x
    assert crafts.craft_class(2) == crafts.BELOW_SMALLEST


def test_crew_factors_default_to_hull_rows():
    assert crafts.crew_factors(DESIGN["dd"]) == 4
    assert crafts.crew_factors(extended(DESIGN["dd"], Ftcamp02Design, crew=7)) == 7


def test_the_armada_has_no_attachment_limit():
    assert groups.ARMADA_ATTACH_LIMIT is None
    assert groups.attach_allowed(2500, [5000], 5000)


def test_a_lone_independent_is_not_a_reserve_group():
    assert groups.group_kind([DESIGN["i100"]]) == "independent"
    assert groups.group_kind([DESIGN["i100"], DESIGN["i100"]]) == "reserve"
    assert groups.group_kind([DESIGN["dd"], DESIGN["i100"]]) == "reserve"
    assert groups.group_kind([DESIGN["static"], DESIGN["static"]]) == "static"
    assert groups.group_kind([DESIGN["dd"], DESIGN["ff"]]) == "standard"


def test_stores_hold_ten_or_twenty_times_the_rating():
    assert groups.store_limit("standard", 346) == 40
    assert groups.store_limit("reserve", 346) == 80
    assert groups.store_limit("static", 346) == 40
    assert groups.store_limit("independent", 100) == groups.INDEPENDENT_STORE_MULTIPLE


def test_the_structure_reads_required_numbers_as_descendants():
    assert groups.REQUIRED_BELOW == "descendants"
    state = build_state({"systems": [{"id": "home", "hex": [0, 0], "owner": "nac"}],
                         "groups": [{"id": "cg", "owner": "nac", "at": "home",
                                     "ships": ["bb", "bb"]},
                                    {"id": "t1", "owner": "nac", "at": "home",
                                     "ships": ["dd"], "parent": "cg"},
                                    {"id": "t2", "owner": "nac", "at": "home",
                                     "ships": ["dd"], "parent": "cg"}]})
    assert groups.structure_problems(state) == []
    short = dataclasses.replace(state, groups=dataclasses.replace(
        state.groups, groups=state.groups.groups[:2]))
    assert [gid for gid, _m in groups.structure_problems(short)] == ["cg"]


def test_shortfall_empties_the_store():
    assert SHORTFALL_EMPTIES_STORE
    state = build_state({"systems": [{"id": "home", "hex": [0, 0], "owner": "nac"}],
                         "groups": [{"id": "g", "owner": "nac", "at": [3, 3],
                                     "ships": ["bb"], "endurance": 3}]})
    after, events = expend_endurance(state)
    assert after.groups.groups[0].endurance == 0
    assert [e.kind for e in events] == ["out-of-supply"]


# --- properties ---------------------------------------------------------------------------

@given(st.integers(min_value=1, max_value=5000))
def test_every_mass_has_a_class_whose_range_holds_it(mass):
    code = crafts.craft_class(mass)
    if mass < 4:
        assert code == crafts.BELOW_SMALLEST
    elif code.startswith("SDN "):
        x = int(code.split()[1])
        assert 100 + 50 * x <= mass <= 150 + 50 * x
    else:
        low, high = next((lo, hi) for c, _n, lo, hi in crafts.CLASSES if c == code)
        assert low <= mass <= high


@given(st.integers(min_value=1, max_value=100_000))
def test_ep_rating_is_one_per_100_or_part(points):
    rating = groups.ep_rating(points)
    assert rating == math.ceil(points / 100)
    assert (rating - 1) * 100 < points <= rating * 100


@given(st.integers(min_value=0, max_value=30), st.integers(min_value=1, max_value=12))
def test_a_hex_further_costs_one_on_the_lost_roll(distance, optimal):
    assert distance_modifier(distance, optimal) - distance_modifier(distance + 1, optimal) == 1
    assert distance_modifier(optimal, optimal) == 0


@given(st.lists(st.sampled_from(sorted(DESIGN)), min_size=1, max_size=12),
       st.integers(min_value=0, max_value=5))
def test_a_scan_never_shows_more_than_is_there(design_ids, superior):
    party = [(Ship(f"s{i}", d), DESIGN[d]) for i, d in enumerate(design_ids)]
    result = scans.scan_group(party, superior)
    shown = sum(n for _c, n in result.classes) + result.unknown + (result.stealthy or 0)
    assert shown <= len(party)
    visible = [d for _s, d in party if not of_design(d).stealth]
    assert sum(n for _c, n in result.classes) + result.unknown == len(visible)
    for code, _n in result.classes:
        assert any(crafts.craft_class(d.mass) == code for d in visible)


@given(st.lists(st.integers(min_value=1, max_value=700), max_size=8),
       st.integers(min_value=1, max_value=700), st.integers(min_value=1, max_value=3000))
def test_one_independent_is_always_allowed(attached, new, size):
    assert groups.attach_allowed(size, [], new)
    if groups.attach_allowed(size, attached, new) and attached:
        limit = groups.class_limit(groups.group_class(size))
        assert limit is None or sum(attached) + new <= limit


# --- the ruleset ---------------------------------------------------------------------------

def test_the_ruleset_is_registered_with_its_own_order_format():
    ruleset = find_ruleset("ftcamp02")
    assert ruleset.orders_adapter is not None
    assert ruleset.rulebook.is_dir()
    assert set(ruleset.options) == set(setup.OPTION_LIMITS)


def test_missing_chapters_are_named_not_invented():
    assert set(orders.MISSING_CHAPTER) == {"patrol", "build", "rebuild", "unbuild", "repair",
                                           "make", "restock", "diplomatic", "beacon",
                                           "research"}


def test_init_makes_the_same_campaign_from_the_same_seed(tmp_path: Path):
    for name in ("a", "b"):
        assert main(["init", str(tmp_path / name), "--players", "nac,esu", "--seed", "5",
                     "--ruleset", "ftcamp02", "--now", "2026-06-01T12:00:00+00:00"]) == 0
    for rel in ("state/map.yaml", "state/groups.yaml", "state/turns/t000/dice.yaml"):
        a = (tmp_path / "a" / rel).read_text().replace("/a/", "/x/")
        b = (tmp_path / "b" / rel).read_text().replace("/b/", "/x/")
        assert a == b
    loaded = load_folder(tmp_path / "a")
    assert check_state(loaded) == []
    assert (tmp_path / "a" / "content" / "rules" / "07-long-range-scans.md").is_file()


def test_init_refuses_an_unknown_option(tmp_path: Path, capsys):
    assert main(["init", str(tmp_path / "c"), "--players", "nac", "--ruleset", "ftcamp02",
                 "--option", "world_on=2"]) == 1
    assert "unknown option 'world_on'; expected one of radius, neutrals, dust, wormholes" in \
        capsys.readouterr().err


def test_check_state_locates_ftcamp02_problems(tmp_path: Path):
    assert main(["init", str(tmp_path / "d"), "--players", "nac,esu", "--seed", "1",
                 "--ruleset", "ftcamp02", "--now", "2026-06-01T12:00:00+00:00",
                 "--secrecy", "open"]) == 0  # the whole state in plain, to edit
    groups_file = tmp_path / "d" / "state" / "groups.yaml"
    text = groups_file.read_text().replace("endurance: 50", "endurance: 51", 1)
    text = text.replace("    at: ", "    attached_to: esu-1\n    at: ", 1)
    groups_file.write_text(text)
    problems = check_state(load_folder(tmp_path / "d"))
    messages = [p.message for p in problems]
    assert any("nac-1 has 51 EP in store, more than the 50" in m for m in messages)
    assert any("not a single independent craft" in m for m in messages)
    assert all(isinstance(p, Problem) and p.line > 0 for p in problems)


# --- the fold ------------------------------------------------------------------------------

_TARGETS = st.tuples(st.integers(min_value=-4, max_value=4), st.integers(min_value=-4,
                                                                          max_value=4))


@given(st.lists(st.tuples(st.sampled_from(["dd", "ff", "ch", "bb", "slow", "static"]),
                          st.integers(min_value=0, max_value=4)), min_size=1, max_size=6),
       st.lists(_TARGETS, min_size=6, max_size=6), st.integers(min_value=0, max_value=99))
def test_a_round_keeps_every_craft_accounted_for(fleet, targets, seed):
    """Whatever is ordered, every group is still there afterwards, no craft appears
    from nowhere, attached independents stay with their group, and the round's dice
    are exactly the ones its events show."""
    spec = {"radius": 4, "systems": [{"id": "home", "hex": [0, 0], "owner": "nac", "bio": 3},
                                     {"id": "far", "hex": [3, -1]}],
            "groups": [{"id": f"g{i}", "owner": "nac", "at": "home",
                        "ships": [design, {"design": "dd", "crew_lost": store % 5}],
                        "endurance": store}
                       for i, (design, store) in enumerate(fleet)]}
    spec["groups"].append({"id": "ind", "owner": "nac", "at": "home", "ships": ["i100"],
                           "attached_to": "g0"})
    state = build_state(spec)
    lines = [f"  g{i}: {{move: [{q}, {r}]}}" for i, (q, r) in
             zip(range(len(fleet)), targets, strict=False) if -q - r in range(-4, 5)]
    orders = build_orders(state, {"nac": "groups:\n" + "\n".join(lines) + "\n"
                                  if lines else "groups: {}\n"})
    dice = Dice.seeded("property", str(seed))
    after, events = resolve(state, orders, dice, {})
    before = {g.id: len(g.ships) for g in state.groups.groups}
    now = {g.id: g for g in after.groups.groups}
    assert set(now) == set(before)
    assert all(len(now[gid].ships) <= n for gid, n in before.items())
    assert of_group(now["ind"]).attached_to == "g0"
    assert after.hex_of(now["ind"].at) == after.hex_of(now["g0"].at)
    assert [r for e in events for r in e.rolls] == list(dice.log)
    for g in after.groups.groups:
        limit = groups.store_limit(groups.kind_of(after, g),
                                   groups.points(groups.designs_of(after, g)))
        assert (g.endurance or 0) <= limit, g.id


def test_check_describes_each_order_in_plain_words():
    state = build_state({"systems": [{"id": "home", "hex": [0, 0], "owner": "nac"},
                                     {"id": "far", "hex": [3, 0]}],
                         "groups": [{"id": "g1", "owner": "nac", "at": "home", "ships": ["dd"]},
                                    {"id": "g2", "owner": "nac", "at": "home", "ships": ["ff"]},
                                    {"id": "g3", "owner": "nac", "at": "home", "ships": ["ff"]},
                                    {"id": "i1", "owner": "nac", "at": "home",
                                     "ships": ["i100"]}]})
    loaded = build_orders(state, {"nac": "attach: {i1: g1}\ngroups:\n"
                                         "  g1: {move: [7, -7]}\n  g2: {support: g1}\n"})["nac"]
    assert describe_orders(state, loaded) == [
        "i1 is attached to g1 (§3).",
        "g1 moves 7 hexes to (7, -7); the lost roll needs 2+ on a d6 (§4.1.1).",
        "g2 supports g1, following its order (§4.4).",
        "Not mentioned, so holding: g3 (§4.0).",
    ]


def test_civilian_craft_carry_no_sensors_unless_fitted():
    plain = extended(DESIGN["dd"], Ftcamp02Design, sensors=None)
    civilian = extended(DESIGN["i100"], Ftcamp02Design, sensors=None)
    assert crafts.sensor_grade(plain) == "basic"
    assert crafts.sensor_grade(civilian) == "none"
    assert crafts.sensor_grade(extended(civilian, Ftcamp02Design, sensors="enhanced")) == "enhanced"


@given(_TARGETS, st.sampled_from(["dd", "ch", "bb"]), st.integers(min_value=1, max_value=9),
       st.booleans())
def test_a_move_is_accepted_exactly_when_a_6_can_succeed(target, design, optimal, dusty):
    q, r = target
    spec = {"radius": 4, "systems": [{"id": "home", "hex": [0, 0], "owner": "nac"}],
            "dust": [[q, r]] if dusty else [],
            "groups": [{"id": "g", "owner": "nac", "at": [-4, 2],
                        "ships": [{"design": design, "optimal": optimal}]}]}
    state = build_state(spec)
    if max(abs(q), abs(r), abs(q + r)) > 4 or (q, r) == (-4, 2):
        return
    loaded = build_orders(state, {"nac": f"groups:\n  g: {{move: [{q}, {r}]}}\n"})["nac"]
    vetted = orders.vet(state, loaded.orders)
    distance = Hex(-4, 2).distance(Hex(q, r))
    home = Hex(q, r) == Hex(0, 0)
    near = Hex(q, r).distance(Hex(0, 0)) == 1
    modifier = (optimal - distance - (2 if dusty else 1) + (2 if home else 1 if near else 0))
    assert ("g" in vetted.rest.journeys) == (modifier >= -5)
    if "g" in vetted.rest.journeys:
        assert vetted.rest.journeys["g"].modifier == modifier


def test_check_state_wants_a_hex_map(tmp_path: Path):
    assert main(["init", str(tmp_path / "e"), "--players", "nac,esu", "--seed", "1",
                 "--ruleset", "ftcamp02", "--secrecy", "open",  # its plain files edited
                 "--now", "2026-06-01T12:00:00+00:00"]) == 0
    groups_file = tmp_path / "e" / "state" / "groups.yaml"
    groups_file.write_text(groups_file.read_text().replace("at: ", "at: {x: 1, y: 2}\n    #", 1))
    messages = [p.message for p in check_state(load_folder(tmp_path / "e"))]
    assert "nac-1 is at (1, 2), a point; ftcamp02 is played on a hex map, so give a system " \
        "id or a hex [q, r]" in messages
