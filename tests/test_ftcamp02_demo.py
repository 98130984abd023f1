"""The ftcamp02 demo campaign (examples/ftcamp02): made with ``ftpress init
--ruleset ftcamp02`` and four rounds of ``ftpress turn``, checked, re-resolved,
built and read as a reader would. The public site shows claims and markers and
never a hidden group's craft, a scan, a secret roll, a hold sub-order or an
attached independent (test_leaks scans it for every event kept from the public)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from demos import FTCAMP02

from ftpress.render.mapview import public_map
from ftpress.rules.ftcamp02.state_ext import of_group, of_map
from ftpress.secrecy.knowledge import known_state
from ftpress.secrecy.visibility import PUBLIC_VIEW, UMPIRE_VIEW
from ftpress.store.campaign import display_of

from conftest import demo_file
from sitecheck import all_text

DEMO = FTCAMP02.root
TURNS = FTCAMP02.turns


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    return FTCAMP02.build_once(tmp_path_factory, "ftcamp02")


def test_the_demo_is_an_ftcamp02_campaign_with_rounds_played():
    state = FTCAMP02.state()
    assert state.campaign.ruleset == "ftcamp02"
    assert TURNS == ["t001", "t002", "t003", "t004"]
    assert (DEMO / "content" / "rules" / "04-issue-orders.md").is_file()


def test_the_demo_checks_clean(capsys):
    FTCAMP02.assert_checks_clean(capsys)


@pytest.mark.parametrize("turn", TURNS)
def test_every_round_re_resolves_to_its_record(turn, capsys):
    FTCAMP02.assert_turn_verifies(turn, capsys)


def test_every_internal_link_resolves(built: Path):
    FTCAMP02.assert_links_resolve(built)


def test_the_site_shows_claims_and_keeps_scans_to_the_powers_that_swap_them(built: Path):
    """§7: a scan is told to the scanner and the scanned; it would tell the public what
    nac-1 holds, and that an independent (the SC) rides in it (§3)."""
    page = (built / "turns" / "t001" / "index.html").read_text()
    assert "The ESU scans a group of the NAC" not in page
    assert "The NAC claims Stonechat in name" in (built / "turns" / "t004" / "index.html").read_text()
    assert (built / "schemas" / "orders-ftcamp02.json").is_file()


def test_nothing_hidden_reaches_the_public_site(built: Path):
    text = all_text(built)
    state = FTCAMP02.state()
    for group in state.groups.groups:
        for ship in group.ships:
            assert ship.name not in text, ship.name
    published = (built / "turns" / "t001" / "orders" / "nac.yaml").read_text()
    assert "attach" not in published and "[hidden]" not in published
    # §4.2: others are told only that a group holds, and no event says even that, so
    # no hold order is in any published copy, whatever its sub-order.
    for file in sorted((built / "turns").glob("*/orders/*.yaml")):
        assert "hold:" not in file.read_text(), file


def test_an_attached_independent_has_no_counter():
    state = FTCAMP02.state()
    attached = [g for g in state.groups.groups if of_group(g).attached_to is not None]
    assert attached, "the demo keeps an independent attached"
    markers = [g for g in state.groups.groups if of_group(g).attached_to is None]
    display = display_of(state)
    public = known_state(state, PUBLIC_VIEW)
    assert len(public_map(public, "t", display=display).counters) == len(markers)
    assert len(public_map(state, "t", display=display, viewer=UMPIRE_VIEW).counters) == \
        len(state.groups.groups)


def test_the_map_shades_dust_clouds(built: Path):
    state = FTCAMP02.state()
    page = (built / "systems" / "index.html").read_text()
    assert page.count('class="hex dust"') == len(of_map(state.map).dust or ())
    assert "Biology 20, loyalty 10" in page
    assert "claimed by nac" in page


def test_the_demo_orders_satisfy_the_published_schema(built: Path):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((built / "schemas" / "orders-ftcamp02.json").read_text())
    files = sorted((DEMO / "state/turns").glob("*/orders/*.yaml"))  # as sent (their twins)
    assert files
    for file in files:
        jsonschema.validate(yaml.safe_load(demo_file(file.relative_to(DEMO).as_posix(), DEMO)),
                            schema)


def test_the_umpire_sees_every_secret(tmp_path: Path):
    out = FTCAMP02.build(tmp_path / "umpire", "--view", "umpire")
    page = (out / "turns" / "t003" / "index.html").read_text()
    assert "nac-4&#39;s lost roll after 10 hexes" in page
    assert "attach: {nac-3: nac-1}" in (out / "turns" / "t001" / "orders" / "nac.yaml").read_text()
    assert "The ESU scans a group of the NAC at Stonechat: 1 CE, 2 DD and 1 SC." in (
        out / "turns" / "t001" / "index.html").read_text()
