"""The benchmark corpus (bench/corpus.py, bench/turns.py): its turns are really
resolved by the ftc2007 engine, the same arguments give the same bytes, and
ftpress builds it."""

from __future__ import annotations

import json
import random
import sys
from datetime import UTC, datetime

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from ftpress.creating.campaign import init_campaign
from ftpress.orders.load import parse_orders
from ftpress.rules.ftc2007.orderfile import ADAPTER
from ftpress.rules.ftc2007.orders import vet
from ftpress.state.turns import SETUP, TURNS_DIR
from ftpress.store.campaign import load_folder

from conftest import REPO, files_of

sys.path.insert(0, str(REPO / "bench"))

import corpus
import turns

#: Enough turns to reach the first week of economic turn 2 (purchases, keels).
TURNS = 8
ARGS = {"posts": 24, "turns": TURNS, "radius": 6, "seed": 5}


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench") / "corpus"
    manifest = corpus.write_corpus(out, **ARGS)
    return out, manifest


def _events(root, turn):
    return yaml.safe_load((root / TURNS_DIR / turn / "events.yaml").read_text())["events"]


def test_the_same_arguments_give_a_byte_identical_corpus(made, tmp_path):
    out, _ = made
    again = tmp_path / "again"
    corpus.write_corpus(again, **ARGS)
    assert files_of(again) == files_of(out)


def test_every_turn_is_resolved_and_recorded_with_its_orders(made):
    out, manifest = made
    root = out / corpus.PROJECTS["ftpress"]
    assert manifest["turns_written"] == TURNS
    assert manifest["version"] == corpus.VERSION
    for number in range(1, TURNS + 1):
        turn = f"t{number:03d}"
        record = root / TURNS_DIR / turn
        ordered = sorted(p.name for p in (root / "orders" / turn).iterdir())
        assert ordered == sorted(f"{p}.yaml" for p in turns.PLAYERS)
        assert sorted(p.name for p in (record / "orders").iterdir()) == ordered
        info = yaml.safe_load((record / "turn.yaml").read_text())
        assert info["dice"] == "keyed" and info["secret"]  # the secret revealed
        kinds = {e["kind"] for e in _events(root, turn)}
        assert "calendar" in kinds
        # The generated orders are vetted clean: nothing refused, nothing unpaid.
        assert not kinds & {"rejected", "unpaid", "not-resolved", "battle-pending"}
    state = load_folder(root, "state").state
    assert state.campaign.calendar.turn == TURNS + 1
    assert state.campaign.settings.battles == "abstract"
    counted: dict[str, int] = {}
    for number in range(1, TURNS + 1):
        for event in _events(root, f"t{number:03d}"):
            counted[event["kind"]] = counted.get(event["kind"], 0) + 1
    assert manifest["turn_events"] == dict(sorted(counted.items()))
    assert counted["arrival"] and counted["income"] and counted["maintenance"]


def test_a_recorded_turn_verifies(made, run):
    """Re-resolving a turn from its record gives the same result: the dice are
    the keyed dice of the orders and the fixed umpire secret."""
    out, _ = made
    code, _, err = run("turn", "--verify", f"t{TURNS:03d}",
                       "--source", out / corpus.PROJECTS["ftpress"])
    assert (code, err) == (0, "")


def test_the_setup_keeps_to_the_starting_forces_rule(made):
    """§6 is checked on the setup snapshot by every load; the muster also spends."""
    out, _ = made
    setup = load_folder(out / corpus.PROJECTS["ftpress"], f"{TURNS_DIR}/{SETUP}").state
    for player in setup.players.players:
        assert setup.groups_of(player.id)
    assert setup.campaign.calendar.secret_sha256  # the first turn's secret published


def test_the_corpus_builds(made, run, tmp_path):
    out, manifest = made
    code, _, err = run("build", "--source", out / corpus.PROJECTS["ftpress"],
                       "--out", tmp_path / "site", "--now", manifest["now"])
    assert (code, err) == (0, "")
    assert (tmp_path / "site" / "index.html").is_file()


def test_no_turns_gives_a_blog_without_state(tmp_path):
    out = tmp_path / "corpus"
    manifest = corpus.write_corpus(out, posts=6, turns=0, radius=6, seed=5)
    root = out / corpus.PROJECTS["ftpress"]
    assert manifest["turns_written"] == 0 and manifest["turn_events"] == {}
    assert not (root / "state").exists() and not (root / "orders").exists()
    assert json.loads((out / "corpus.json").read_text()) == manifest


def test_three_way_battles_are_called_off_by_standing_off():
    """THREE_WAY_BATTLES_CALLED_OFF: the groups of a battle the table would wait
    for are redrawn on stand-off, holds included; other groups keep their orders."""
    assert turns.THREE_WAY_BATTLES_CALLED_OFF
    drafter = turns._Orders(random.Random(1))
    drafter.drafts = {
        "nac": ({"nac-1": ["    move: vesper", "    posture: attack"],
                 "nac-2": ["    hold: true", "    posture: attack"]}, {}),
        "nsl": ({"nsl-1": ["    hold: true", "    posture: attack"]}, {}),
    }
    files = drafter.calm("t004", {"nac-1", "nac-2"})
    assert files["nac"].decode() == ("turn: t004\nplayer: nac\ngroups:\n  nac-1:\n"
                                     "    move: vesper\n    posture: stand-off\n  nac-2:\n"
                                     "    hold: true\n    posture: stand-off\n")
    assert b"posture: attack" in files["nsl"]


@pytest.fixture(scope="module")
def setup_state(tmp_path_factory):
    root = tmp_path_factory.mktemp("init") / turns.CAMPAIGN_ID
    init_campaign(root, turns.PLAYERS, now=datetime(2019, 1, 7, 12, tzinfo=UTC), seed=3,
                  options=["radius=6"], secrecy="open")
    return load_folder(root, f"{TURNS_DIR}/{SETUP}").state


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_drawn_orders_always_vet_clean(setup_state, seed):
    """Whatever the seed, every order file drawn is one the engine accepts whole."""
    rng = random.Random(seed)
    state = turns._complete_setup(setup_state, rng)
    for player, data in turns._Orders(rng).draw(state).items():
        loaded = parse_orders(data, f"orders/t001/{player}.yaml", ADAPTER)
        assert vet(state, loaded).rejected == ()
