"""``ftpress build --view umpire``: every fact the public site hides, for the
umpire's eyes only, in its own folder, and never mistaken for the public build."""

from __future__ import annotations

import html
import re
from collections import Counter
from pathlib import Path

import pytest
from demos import FTC2007

from ftpress.cli import main

from conftest import DEMO_NOW, REPO


@pytest.fixture(scope="module")
def umpire_site(tmp_path_factory) -> Path:
    return FTC2007.build(tmp_path_factory.mktemp("umpire") / "_site-umpire", "--view", "umpire")


def pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def test_every_group_shows_its_ships_and_dummies_are_told(umpire_site):
    state = FTC2007.state()
    for player in state.players.players:
        text = html.unescape(
            (umpire_site / f"players/{player.id}/index.html").read_text(encoding="utf-8"))
        groups = state.groups_of(player.id)
        for group in groups:
            for ship in group.ships:
                assert ship.name in text, (player.id, group.id, ship.name)
        dummies = sum(g.dummy for g in groups)
        if dummies:
            assert re.search(r"of them (a dummy|dummies)", text), player.id


def test_the_umpire_map_names_every_group(umpire_site):
    svg = html.unescape((umpire_site / "systems/index.html").read_text(encoding="utf-8"))
    state = FTC2007.state()
    stacks = Counter(state.hex_of(g.at) for g in state.groups.groups)
    for group in state.groups.groups:
        if stacks[state.hex_of(group.at)] <= 4:  # a map stack draws four counters
            mark = "a dummy" if group.dummy else group.ships[0].name
            assert f"Task group {group.id}: {mark}" in svg


def test_no_page_of_the_umpire_view_is_for_search_engines(umpire_site):
    assert (umpire_site / "robots.txt").read_text() == "User-agent: *\nDisallow: /\n"
    for page in pages(umpire_site):
        text = page.read_text(encoding="utf-8")
        assert re.search(r'<meta name="robots" content="noindex[^"]*">', text), page
        if 'class="masthead"' in text:
            assert "Umpire's view." in text, page


def test_the_public_build_never_reuses_an_umpire_build(tmp_path, demo_site):
    """Same folder, same inputs, other view: the build cache must not stand in."""
    out = tmp_path / "_site"
    argv = ["build", "--source", str(REPO), "--out", str(out), "--now", DEMO_NOW]
    assert main([*argv, "--view", "umpire", *FTC2007.key_options()]) == 0
    assert "Umpire's view." in (out / "index.html").read_text(encoding="utf-8")
    assert main(argv) == 0
    assert "Umpire's view." not in (out / "index.html").read_text(encoding="utf-8")
    assert (out / "robots.txt").read_text() == (demo_site / "robots.txt").read_text()
    assert (out / "players/nac/index.html").read_bytes() == \
        (demo_site / "players/nac/index.html").read_bytes()
