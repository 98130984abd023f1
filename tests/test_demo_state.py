"""The demo campaign's starting state: generated from its recorded seed, the
story's worlds on the right owners, fleets bought within ftc2007 §6."""

from __future__ import annotations

import yaml
from demos import FTC2007

from ftpress.rules.ftc2007.catalogue import catalogue
from ftpress.rules.ftc2007.mapgen import MapOptions
from ftpress.rules.ftc2007.setup import SHIP_CAP, roll_up, spending
from ftpress.store.campaign import load_folder

from conftest import REPO, demo_file

STORY = {
    "nac": {"Arcturus Gate", "Kessel Drift", "Port Anselm", "Bellwether"},
    "nsl": {"Tethys", "Greywater", "Cinder", "Meridian"},
    "fse": {"Halcyon", "Marrow", "Orison", "Lumen"},
    "esu": {"Eastmarch", "Sable", "Corvid"},
    "sav": {"Hollow Crown", "Wyrdmoor"},
    None: {"Vesper", "New Carthage", "Ashfall"},
}
CAPITALS = {"nac": "Arcturus Gate", "nsl": "Tethys", "fse": "Halcyon", "esu": "Eastmarch",
            "sav": "Hollow Crown"}


def test_the_demo_checks_clean(capsys):
    FTC2007.assert_checks_clean(capsys)


def test_the_map_is_the_one_its_seed_gives():
    state = load_folder(REPO, "state/turns/t000", umpire=FTC2007.umpire).state
    setup = state.campaign.setup
    players = tuple(p.id for p in state.players.players)
    generated, dice = roll_up(setup.seed, players, MapOptions.from_dict(setup.options))
    assert [s.hex for s in state.map.systems] == list(generated.worlds)
    for world in state.map.systems:
        assert world.owner == generated.owners.get(world.hex), world.name
        assert world.income == generated.incomes.get(world.hex), world.name
    by_id = {s.id: s.hex for s in state.map.systems}
    assert [tuple((by_id[a], by_id[b]) for a, b in r.links) for r in state.map.routes] == \
        [tuple(r) for r in generated.routes]
    for p in state.players.players:
        assert state.system(p.capital).hex == generated.capitals[p.id]
    logged = yaml.safe_load(demo_file("state/turns/t000/dice.yaml"))
    assert logged["source"] == f"seed {setup.seed}"
    assert [(r["sides"], r["value"], r["purpose"]) for r in logged["rolls"]] == \
        [(r.sides, r.value, r.purpose) for r in dice.log]


def test_the_story_worlds_are_on_the_right_owners():
    """As the campaign was set up (Marrow, for one, changes hands later, in the story too)."""
    state = load_folder(REPO, "state/turns/t000", umpire=FTC2007.umpire).state
    owner = {s.name: s.owner for s in state.map.systems}
    for player, worlds in STORY.items():
        for world in worlds:
            assert owner[world] == player, world
    assert {p.id: state.system(p.capital).name for p in state.players.players} == CAPITALS
    assert [p.name for p in state.players.players] == [
        "New Anglian Confederation", "Neue Swabian League", "Federated States of Europa",
        "Eastern Star Union", "Sa'Vasku"]
    assert len(state.map.systems) == 44
    assert sum(1 for s in state.map.systems if s.owner is None) == 7


def test_fleets_are_bought_within_the_starting_capital():
    state = load_folder(REPO, "state/turns/t000", umpire=FTC2007.umpire).state
    cat = catalogue()
    for player in state.players.players:
        spent = spending(state, player.id)
        assert 0 < spent.ships <= SHIP_CAP
        assert spent.unaccounted == 0
        assert player.treasury > 0
        for group in state.groups_of(player.id):
            for ship in group.ships:
                design = state.design(ship.design)
                assert design == cat.design(ship.design)  # straight from the catalogue
                assert design.navy == player.navy


def test_the_current_state_is_the_last_recorded_turn():
    last = max(p.name for p in (REPO / "state/turns").iterdir() if p.is_dir())
    assert load_folder(REPO, f"state/turns/{last}", umpire=FTC2007.umpire).state == \
        FTC2007.state()


def test_the_first_post_is_the_generation_log():
    post = (REPO / "content/posts/2026/03/01-the-reach-is-rolled.md").read_text()
    assert "kind: status" in post
    assert "Arcturus Gate" in post and "Every die" in post


def test_every_recorded_demo_turn_verifies():
    """Re-resolving each recorded turn of the demo gives its record byte for byte, so
    a change to the engine that would alter a played turn cannot slip in unnoticed
    (re-record it with ``ftpress turn --redo`` and say so)."""
    from ftpress.store import SealedStore
    from ftpress.turn.verify import verify_turn

    turns = FTC2007.turns
    assert len(turns) >= 8
    for turn in turns:
        assert verify_turn(SealedStore(REPO, FTC2007.umpire), turn) == [], turn


def test_the_demo_has_a_battle_a_siege_and_an_economic_turn():
    from ftpress.rules import STATE_EXTENSIONS
    from ftpress.state.records import load_turns

    kinds = {e.kind for t in load_turns(REPO, extensions=STATE_EXTENSIONS,
                                                     umpire=FTC2007.umpire)
             for e in t.events}
    assert {"battle", "siege", "conquest", "income", "upkeep", "construction", "repair",
            "prize", "ship-built"} <= kinds
