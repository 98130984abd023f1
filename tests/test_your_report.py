"""A player's own report ("Your view", :mod:`ftpress.yourview.report`) names their own
groups by id where the turn's public words name them by whose they are, and lists
the prizes they hold (ftc2007 §12); what the public reads does not change."""

from __future__ import annotations

import dataclasses

from demos import FTC2007

from ftpress import rules
from ftpress.maps.starmap import StarMap, render_svg
from ftpress.render.mapview import public_map
from ftpress.rules.ftc2007.state_ext import Ftc2007Player, Prize
from ftpress.secrecy.knowledge import known_state
from ftpress.secrecy.visibility import Viewer
from ftpress.state.events import PUBLIC, Audience, Event
from ftpress.state.extension import extended
from ftpress.state.model import Ship
from ftpress.yourview.report import player_report


def _learned(report: dict) -> list[str]:
    return next(s for s in report["sections"] if s["id"] == "learned")["lines"]


def test_own_groups_are_named_by_id_in_what_the_player_learned():
    state = FTC2007.state()
    jump = Event("move", "ftc2007 §8.1", "A task group of the New Anglian Confederation "
                 "jumps from Bellwether to Tethys.", audience=PUBLIC, player="nac",
                 group="nac-1")
    meet = Event("encounter", "ftc2007 §9", "A task group of the New Anglian Confederation "
                 "meets a task group of the Neue Swabian League at Tethys.",
                 audience=Audience.told("nac", "nsl"), player="nac", group="nac-1",
                 groups=("nac-1", "nsl-1"))
    both = Event("battle", "ftc2007 §10", "2 task groups of the New Anglian Confederation "
                 "fight at Tethys.", audience=PUBLIC, groups=("nac-1", "nac-2"))
    placed = Event("setup-group", "ftc2007 §6", "A counter of the New Anglian Confederation "
                   "starts at Bellwether.", audience=PUBLIC, player="nac", group="nac-6")
    lines = _learned(player_report(state, [jump, meet, both, placed], "t009", "nac"))
    assert "nac-1 jumps from Bellwether to Tethys." in lines
    assert "nac-6 starts at Bellwether." in lines
    assert ("nac-1 meets a task group of the Neue Swabian League at Tethys. "
            "(told to you alone)") in lines
    assert ("2 task groups of the New Anglian Confederation fight at Tethys. "
            "(yours: nac-1 and nac-2)") in lines
    # Another power reads the public words as they are.
    theirs = _learned(player_report(state, [jump], "t009", "nsl"))
    assert theirs == ["A task group of the New Anglian Confederation jumps from Bellwether "
                      "to Tethys."]


def test_the_prizes_a_player_holds_are_in_their_report():
    """§12.1: a hulk taken is its captor's until rebuilt, stripped or sold (§12.2)."""
    state = FTC2007.state()
    nac = state.player("nac")
    assert nac is not None
    prize = Prize("prize-t008-1", "tethys", Ship("Seydlitz", "nsl-markgraf"), "nsl")
    players = tuple(extended(p, Ftc2007Player, prizes=(prize,)) if p.id == "nac" else p
                    for p in state.players.players)
    state = dataclasses.replace(state, players=dataclasses.replace(state.players,
                                                                   players=players))
    report = player_report(state, [], "t008", "nac")
    held = next(s for s in report["sections"] if s["id"] == "holdings")
    assert held["rows"][0][0] == "prize prize-t008-1"
    assert held["rows"][0][1] == "Tethys" and "taken from the Neue Swabian League" in \
        held["rows"][0][2]
    other = player_report(state, [], "t008", "nsl")
    assert all(s["id"] != "holdings" for s in other["sections"])


def test_a_players_own_counters_on_their_map_show_their_ids():
    """On the map of a player's own view their counters say their ids; the public
    map's, and the umpire's, say whose they are (the power's initials)."""
    state = FTC2007.state()
    display = rules.find_ruleset(state.campaign.ruleset).display
    mine = public_map(known_state(state, Viewer.of("nac")), "map", display=display)
    assert isinstance(mine, StarMap)
    marks = {c.mark for c in mine.counters if c.owner == "nac"}
    assert marks == {g.id for g in state.groups_of("nac")}
    assert {c.mark for c in mine.counters if c.owner != "nac"} == {""}
    whole = public_map(state, "map", display=display)
    assert isinstance(whole, StarMap) and {c.mark for c in whole.counters} == {""}
    svg = render_svg(mine)
    assert ">nac-1</text>" in svg and 'textLength="22.0"' in svg
