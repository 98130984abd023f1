"""The sct demo campaign (examples/sct): made with ``ftpress init --ruleset sct``
and three turns of ``ftpress turn``, checked, re-resolved, built and link-checked;
its maps are the planar map of seed 001's symbology."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from demos import SCT

from ftpress.maps.planemap import PlaneMap
from ftpress.render.mapview import public_map
from ftpress.store.campaign import display_of

DEMO = SCT.root
TURNS = SCT.turns


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    return SCT.build_once(tmp_path_factory, "sct")


def test_the_demo_is_an_sct_campaign_with_turns_played():
    state = SCT.state()
    assert state.campaign.ruleset == "sct"
    assert state.map.geometry == "plane"
    assert TURNS == ["t001", "t002", "t003"]
    assert (DEMO / "content" / "rules" / "04-movement.md").is_file()
    assert isinstance(public_map(state, "The map", display=display_of(state)), PlaneMap)


def test_the_demo_checks_clean(capsys):
    SCT.assert_checks_clean(capsys)


@pytest.mark.parametrize("turn", TURNS)
def test_every_turn_re_resolves_to_its_record(turn, capsys):
    SCT.assert_turn_verifies(turn, capsys)


def test_every_internal_link_resolves(built: Path):
    SCT.assert_links_resolve(built)


def test_the_turn_pages_show_the_planar_map_and_the_battle(built: Path):
    svg = (built / "turns" / "t002" / "map.svg").read_text()
    assert 'class="starmap planemap"' in svg
    assert 'class="battle"' in svg and 'class="shipyard"' in svg
    page = (built / "turns" / "t002" / "index.html").read_text()
    assert ("Round 1: The Eastern Star Union&#39;s Manchuria 1 fires 8 dice at the New Anglian "
            "Confederation&#39;s Majestic 1") in page
    assert "The Eastern Star Union and the New Anglian Confederation fight near Redmarch." in page
    assert "2 task forces moved" in page  # sct's word for them
    assert (built / "schemas" / "orders-sct.json").is_file()
    assert 'class="starmap planemap"' in (built / "systems" / "index.html").read_text()
    power = (built / "players" / "nac" / "index.html").read_text()
    assert "1 counter at open space at (0.32, 7.36)" in power
    assert "<em>Lexington</em>, Ticonderoga DD" in power


def test_the_demo_money_adds_up():
    for turn in TURNS:
        folder = DEMO / "state" / "turns" / turn
        before = yaml.safe_load((DEMO / "state" / "turns" / f"t{int(turn[1:]) - 1:03d}" /
                                 "players.yaml").read_text())
        after = yaml.safe_load((folder / "players.yaml").read_text())
        events = yaml.safe_load((folder / "events.yaml").read_text())["events"]
        for old, new in zip(before["players"], after["players"], strict=True):
            moved = sum(e.get("amount", 0) for e in events if e.get("player") == old["id"])
            assert new["treasury"] - old["treasury"] == moved, (turn, old["id"])


def test_the_pages_speak_only_of_what_sct_has(built: Path):
    """sct's Display says its map is a plane in MU with no charted routes, that it bills
    no upkeep rate and has no dummy counters: the powers' pages and the systems table
    say nothing of hexes, routes, upkeep or dummies."""
    for page in ("players/nac/index.html", "players/index.html", "systems/index.html"):
        html = (built / page).read_text()
        for word in ('<th scope="col">Hex</th>', ">Routes<", ">Upkeep<", "a dummy"):
            assert word not in html, (page, word)
    assert '<th scope="col">Position (MU)</th>' in (built / "players/nac/index.html").read_text()
