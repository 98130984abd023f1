"""Turn reports: every recorded turn has a page that links its neighbours and the
rules it applied, its map parses and draws the turn's moves, player-written text
is text, and no hidden fact (a ship or design of an uncontacted group, a dummy)
reaches any page, SVG, published order file or the search index."""

from __future__ import annotations

import dataclasses
import html
import itertools
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from demos import FTC2007 as DEMO
from hiddenfacts import leaks, secrets_of

from ftpress.maps.chart import Chart, Series, render_chart
from ftpress.maps.starmap import render_svg
from ftpress.render.mapview import turn_map
from ftpress.render.turns import rule_url
from ftpress.rules import RULESETS
from ftpress.secrecy.knowledge import known_state
from ftpress.secrecy.visibility import (
    PUBLIC_VIEW,
    UMPIRE_VIEW,
    HiddenFactLeak,
    HiddenFacts,
    Viewer,
    published_order,
    visible,
)
from ftpress.state.display import PLAIN
from ftpress.state.events import PUBLIC, Audience, Event
from ftpress.state.hexes import Hex, hexagon
from ftpress.state.turns import TURNS_DIR
from ftpress.store.campaign import load_folder

from conftest import REPO, demo_file, post, write_files
from sitecheck import Site, all_text

SVG = "{http://www.w3.org/2000/svg}"
FTC2007 = RULESETS["ftc2007"].report
BASE = "https://ftpress.github.io/ftpress/"


def recorded() -> list[str]:
    return sorted(p.name for p in (REPO / TURNS_DIR).iterdir() if p.is_dir())


def page(site: Path, turn: str) -> str:
    return (site / f"turns/{turn}/index.html").read_text(encoding="utf-8")


# --- the demo's pages -----------------------------------------------------------------

def test_every_recorded_turn_has_a_page_and_the_index_lists_them(demo_site):
    turns = recorded()
    assert turns[:2] == ["t000", "t001"]
    index = (demo_site / "turns/index.html").read_text()
    for turn in turns:
        assert (demo_site / f"turns/{turn}/index.html").is_file()
        assert f'href="/ftpress/turns/{turn}/"' in index
    latest = (demo_site / "turns/latest/index.html").read_text()
    assert f'url=/ftpress/turns/{turns[-1]}/"' in latest  # stays on the site serving it
    assert f'rel="canonical" href="{BASE}turns/{turns[-1]}/"' in latest
    assert ">Turns</a>" in (demo_site / "index.html").read_text()


def test_every_turn_report_names_its_week_and_economic_turn_and_recorded_day(demo_site):
    """ftc2007 §5.1, §5.2: each report says which week of which economic turn it was,
    and the day it was resolved is the deadline its records give it."""
    turns = recorded()
    for before, turn in itertools.pairwise(turns):
        cal = load_folder(REPO, f"{TURNS_DIR}/{before}", umpire=DEMO.umpire).state \
            .campaign.calendar
        week = (cal.turn - 1) % cal.turns_per_economic_turn + 1
        html = page(demo_site, turn)
        assert f"Week {week} of economic turn {cal.economic_turn} · Resolved " \
               f'<time datetime="{cal.deadline.date().isoformat()}">' in html, turn
    assert "of economic turn" not in page(demo_site, "t000")  # the setup comes before


def test_the_ruleset_says_how_its_turns_are_placed_in_time():
    """Each ruleset's report names a turn's place in its own time (ReportSpec.when)."""
    cal = demo_state().campaign.calendar
    eighth = dataclasses.replace(cal, turn=8, economic_turn=2)
    assert RULESETS["ftc2007"].report.when_of(eighth) == "week 2 of economic turn 2"
    assert RULESETS["sct"].report.when_of(eighth) == \
        "economic turn 2: sct collects income every turn (§2.1)"
    assert RULESETS["ftcamp02"].report.when_of(eighth) == \
        "round 8; the Fleet Orders chapter keeps no economic turns"


def test_turn_pages_link_previous_next_and_the_rules(demo_site):
    turns = recorded()
    for i, turn in enumerate(turns):
        html = page(demo_site, turn)
        if i:
            assert f'rel="prev" href="/ftpress/turns/{turns[i - 1]}/"' in html
        else:
            assert 'rel="prev"' not in html
        if i + 1 < len(turns):
            assert f'rel="next" href="/ftpress/turns/{turns[i + 1]}/"' in html
        else:
            assert 'rel="next"' not in html
    t001 = page(demo_site, "t001")
    # §8.2 as the rulebook stood when the turn was resolved, 15 March 2026.
    assert '<a href="/ftpress/rules/2026-03-12/#r-8-2">ftc2007 §8.2</a>' in t001
    broken = [b for b in Site(demo_site, BASE).broken_links() if "turns/" in b]
    assert broken == []


def test_the_first_turn_report_shows_what_happened(demo_site):
    html = page(demo_site, "t001")
    assert "data-pagefind-body" in html
    main = html.split("<main", 1)[1]
    for heading in ("State of play", "Movement", "Economy", "Orders folded in", "Treasuries",
                    "Star systems after the turn"):
        assert f">{heading}</h" in main
    assert "8 task groups moved" in main
    assert "Scouted: Northgate." in main
    assert "<details" in main and "settlement of Northgate" in main
    # The order files folded in are published beside the report, and linked. The demo
    # is sealed: its public events cite no line of a player's order file and carry no
    # player's note (notes are the player's and the umpire's), and the public copy is
    # made from what the public knows (whose orders, for which turn), never from the
    # player's text; what was ordered, the public reads in the events.
    for player in ("esu", "fse", "nac", "nsl"):
        copy = (demo_site / f"turns/t001/orders/{player}.yaml").read_text(encoding="utf-8")
        assert "turn: t001\n" in copy and f"player: {player}\n" in copy
        assert "note:" not in copy, player
        assert f'href="/ftpress/turns/t001/orders/{player}.yaml"' in main
    assert "orders/t001/nac.yaml:" not in main  # no citation of a sealed file's lines
    assert "Show the flag on the eastern border." not in main  # nor the player's note
    assert "Show the flag on the eastern border." not in (
        REPO / f"{TURNS_DIR}/t001/orders/nac.yaml").read_text(encoding="utf-8")
    assert "Show the flag on the eastern border." in demo_file(  # the whole, in its twin
        f"{TURNS_DIR}/t001/orders/nac.yaml").decode("utf-8")


def test_the_turn_map_draws_the_moves_and_one_counter_per_group(demo_site):
    html = page(demo_site, "t001")
    svg = re.search(r"<svg [^>]*class=\"starmap\".*?</svg>", html, re.S).group(0)
    root = ET.fromstring(svg)
    state = load_folder(REPO, f"{TURNS_DIR}/t001").state
    assert len(root.findall(f".//{SVG}polygon[@class='hex']")) == len(hexagon(state.map.radius))
    assert len(root.findall(f".//{SVG}g[@class='world']")) == len(state.map.systems)
    events = yaml.safe_load((REPO / f"{TURNS_DIR}/t001/events.yaml").read_text())["events"]
    moved = {(e["origin"], str(e["at"])) for e in events if e["kind"] == "arrival"}
    moves = root.find(f".//{SVG}g[@class='moves']")
    assert len(moves.findall(f"{SVG}g[@class='move']")) == len(moved) == 5  # nsl's three share one


def test_the_turns_index_ranks_the_powers_by_income(demo_site):
    index = (demo_site / "turns/index.html").read_text()
    state = load_folder(REPO).state
    table = index.split('class="campaign-table standings-table"', 1)[1].split("</table>")[0]
    ranked = sorted(state.players.players,
                    key=lambda p: (-sum(w.income or 0 for w in state.worlds_of(p.id)),
                                   -p.treasury))
    positions = [table.index(f'href="/ftpress/players/{p.id}/"') for p in ranked]
    assert positions == sorted(positions)
    assert '<svg' in index and 'class="chart"' in index


def test_treasury_table_and_chart_come_from_the_snapshots(demo_site):
    html = page(demo_site, "t001")
    state = load_folder(REPO, f"{TURNS_DIR}/t001").state
    for player in state.players.players:
        assert f"<td class=\"num\">{player.treasury:,}</td>" in html
    charts = re.findall(r'<svg[^>]*class="chart".*?</svg>', html, re.S)
    assert len(charts) == 1
    root = ET.fromstring(charts[0])
    assert len(root.findall(f".//{SVG}g[@class='series']")) == len(state.players.players)


def turn_outputs(site: Path, turn: str) -> str:
    """One turn's page, map, published order files and search-index entry.

    (The umpire's own posts may tell what he likes; what is checked here is what
    ftpress makes from the state and the event log.)
    """
    # preview.png is drawn from map.svg, which is read here (ftpress.render.preview).
    text = "".join(p.read_text() for p in sorted((site / "turns" / turn).rglob("*"))
                   if p.is_file() and p.suffix != ".png")
    entries = [chunk for chunk in all_text(site / "pagefind").split("pagefind_dcd")
               if chunk.startswith(f'{{"url":"/turns/{turn}/')]
    assert entries, f"the report of {turn} is in the search index"
    return text + "".join(entries)


def test_no_hidden_fact_reaches_the_site(demo_site):
    """Each turn's page, SVG, orders and index entry tell nothing hidden at that turn
    (hidden as it began, unless the turn brought the group into contact, or as it
    ended). What is hidden now is looked for in the whole output by
    :func:`test_the_demo_names_no_hidden_ship_anywhere`."""
    problems = []
    before = None
    for turn in recorded():
        state = load_folder(REPO, f"{TURNS_DIR}/{turn}").state
        known = {g.id for g in state.groups.groups if g.revealed}
        secrets = secrets_of(state) | (secrets_of(before, known) if before else set())
        text = turn_outputs(demo_site, turn)
        problems += [f"{turn}: {s!r}" for s in leaks(text, secrets)]
        assert "dummy" not in text.lower() and "dummies" not in text.lower(), turn
        before = state
    assert problems == []


# --- the public view, unit by unit ----------------------------------------------------

def demo_state():
    return load_folder(REPO, f"{TURNS_DIR}/t000", umpire=DEMO.umpire).state


def test_the_safety_net_stops_the_build_on_a_public_event_that_names_a_hidden_ship():
    """The last net behind the audiences: the rules set every audience, so a public
    event whose own words name a hidden ship, or speak of a dummy, is a bug in a rule
    and stops the build loudly (it is never dropped in silence); a player's note that
    would is dropped from a public event, and a line of a published order file that
    would goes whole."""
    state = demo_state()
    net = HiddenFacts.of(state)
    nac1 = state.groups.groups[0]
    ship = nac1.ships[0]
    design = state.design(ship.design)
    arrival = Event("arrival", "ftc2007 §8.1", "nac-1 jumped to Bellwether.", audience=PUBLIC,
                    player="nac", group="nac-1", at="bellwether", origin="arcturus-gate",
                    note=f"{ship.name} leads.")
    held = Event("hold", "ftc2007 §17.2", "nac-2 holds at Arcturus Gate.", audience=PUBLIC,
                 group="nac-2")
    shown = visible((arrival, held), PUBLIC_VIEW, net)
    assert [e.text for e in shown] == ["nac-1 jumped to Bellwether.",
                                      "nac-2 holds at Arcturus Gate."]
    assert shown[0].note is None  # the event is public, the note that names a ship is not
    for leak in (Event("encounter", "ftc2007 §14", f"A {design.name} was seen at Bellwether.",
                       audience=PUBLIC, at="bellwether"),
                 Event("hold", "ftc2007 §17.2", "nac-5 holds; it is a dummy.", audience=PUBLIC,
                       group="nac-5")):
        with pytest.raises(HiddenFactLeak, match=re.escape(repr(leak.text))):
            visible((arrival, leak, held), PUBLIC_VIEW, net)
    # A player's note naming the ship goes from the published file whole, unmarked.
    text = f"turn: t001\ngroups:\n  nac-2:\n    hold: true\n    note: {ship.name} waits.\n"
    order = Event("hold", "ftc2007 §17.2", "It holds.", audience=PUBLIC, group="nac-2",
                  order="orders/t001/nac.yaml:3:3")
    assert published_order(text, "orders/t001/nac.yaml", [order], PUBLIC_VIEW, net) == \
        "turn: t001\ngroups:\n  nac-2:\n    hold: true\n"
    assert visible((arrival, held), UMPIRE_VIEW,
                   HiddenFacts.of_turn(None, state, UMPIRE_VIEW)) == (arrival, held)
    # A player's own ships are no secret to that player.
    mine = HiddenFacts.of_turn(None, state, Viewer.of("nac"))
    assert mine is not None and not mine.reveals(ship.name)


def test_a_public_battle_that_destroys_a_group_stays_in_the_public_report():
    """A group no enemy had seen into, destroyed whole in a battle all could see: the
    battle and its losses name its ships in public, and the net lets them through (the
    group is gone from the state after the turn, but the public read of its end)."""
    before = demo_state()
    lost = before.groups.groups[0]
    ship = lost.ships[0]
    after = dataclasses.replace(before, groups=dataclasses.replace(
        before.groups, groups=before.groups.groups[1:]))
    battle = Event("battle", "ftc2007 §14", f"The battle at Bellwether: {ship.name} is lost.",
                   audience=PUBLIC, at="bellwether", groups=(lost.id,))
    net = HiddenFacts.of_turn(before, after, PUBLIC_VIEW, (battle,))
    assert visible((battle,), PUBLIC_VIEW, net) == (battle,)
    # Told nothing of the group, the public still may not read its ships' names.
    hidden = Event("damage", "ftc2007 §10.8", f"{ship.name} takes 3 hull boxes.",
                   audience=Audience.told(lost.owner), group=lost.id)
    assert HiddenFacts.of_turn(before, after, PUBLIC_VIEW, (hidden,)).reveals(ship.name)


def test_a_public_battle_names_a_lost_ship_of_a_group_hidden_again_after_it():
    """A group that fought a battle all could see, lost a ship in it, and ended the turn
    unseen again (a new ship joined it since): the battle's report names the ship it
    lost, and the net lets that through (found by a 100-turn corpus, where the build
    stopped on it); a ship that joined later stays unnamed."""
    before = demo_state()
    group = before.groups.groups[0]
    lost, newcomer = group.ships[0], dataclasses.replace(group.ships[0], name="Newcomer K99")
    regrouped = dataclasses.replace(group, ships=(*group.ships[1:], newcomer), revealed=False,
                                    seen_by=())
    after = dataclasses.replace(before, groups=dataclasses.replace(
        before.groups, groups=(regrouped, *before.groups.groups[1:])))
    battle = Event("battle", "ftc2007 §14", f"The battle at Bellwether: {lost.name} is lost.",
                   audience=PUBLIC, at="bellwether", groups=(group.id,))
    net = HiddenFacts.of_turn(before, after, PUBLIC_VIEW, (battle,))
    assert net is not None and not net.reveals(battle.text)
    assert net.reveals("Newcomer K99 joins the group.")


def test_a_dummy_found_out_may_be_named_to_those_who_found_it():
    """§15.2, §15.3: the power whose ship found a dummy out, and its owner, read the
    event saying so; the net still holds every word of dummies from the public."""
    before = demo_state()
    owner = before.groups.groups[0].owner
    finder = next(p.id for p in before.players.players if p.id != owner)
    dummy = dataclasses.replace(before.groups.groups[0], id="d-x", ships=(), dummy=True)
    before = dataclasses.replace(before, groups=dataclasses.replace(
        before.groups, groups=(*before.groups.groups, dummy)))
    found = Event("dummy-found", "ftc2007 §15.2", "A task group is found to be a dummy counter.",
                  audience=Audience.told(owner, finder), group="d-x")
    after = dataclasses.replace(before, groups=dataclasses.replace(
        before.groups, groups=before.groups.groups[:-1]))
    for viewer in (Viewer.of(owner), Viewer.of(finder)):
        net = HiddenFacts.of_turn(before, after, viewer, (found,))
        assert visible((found,), viewer, net) == (found,)
    public = HiddenFacts.of_turn(before, after, PUBLIC_VIEW, (found,))
    assert public is not None and public.reveals("a dummy")


def revealed(state, group_id: str):
    """The state with one group seen into by an enemy (§15.3)."""
    groups = tuple(dataclasses.replace(g, revealed=True) if g.id == group_id else g
                   for g in state.groups.groups)
    return dataclasses.replace(state, groups=dataclasses.replace(state.groups, groups=groups))


def test_a_contacted_group_is_no_secret():
    state = revealed(demo_state(), "nac-1")
    ship = state.groups.groups[0].ships[0].name
    event = Event("encounter", "ftc2007 §14", f"{ship} met the League.", audience=PUBLIC,
                  at="bellwether")
    assert visible([event], PUBLIC_VIEW, HiddenFacts.of(state)) == (event,)


def test_the_turn_that_makes_contact_may_name_the_ships_it_met():
    """Hidden as the turn began, seen into during it (§15.3): that turn's report names them."""
    before = demo_state()
    after = revealed(before, "nac-1")
    ship = before.groups.groups[0].ships[0].name
    assert HiddenFacts.of(before, after).reveals(ship)
    assert not HiddenFacts.of_turn(before, after).reveals(ship)
    assert HiddenFacts.of_turn(before, before).reveals(ship)


def test_ships_on_the_slips_are_secret():
    """A keel is declared to the umpire alone (§13.2): its name and design stay hidden."""
    from ftpress.state.model import Keel

    state = demo_state()
    queues = dataclasses.replace(state.queues, keels=(
        Keel("k1", "esu", "eastmarch", "esu-gorshkov", "Admiral Makarov"),))
    hidden = HiddenFacts.of(dataclasses.replace(state, queues=queues))
    assert hidden.reveals("work goes into Admiral Makarov")
    design = state.design("esu-gorshkov").name
    assert hidden.reveals(f"a new {design}") == all(
        not g.revealed for g in state.groups.groups)


@pytest.mark.parametrize(("ruleset", "kind", "rule", "section"), [
    ("ftc2007", "arrival", "ftc2007 §8.1", "movement"),
    ("ftc2007", "encounter", "ftc2007 §14", "battles"),
    ("ftc2007", "siege", "ftc2007 §10.1", "sieges"),
    ("ftc2007", "repair", "ftc2007 §11", "construction"),
    ("ftc2007", "keel-laid", "ftc2007 §13.1", "construction"),
    ("ftc2007", "income", "ftc2007 §5.2", "economy"),
    ("ftc2007", "calendar", "ftc2007 §5.1", "other"),
    # Losses go where the rule that cost them is: a battle's under the battle,
    # the defences' under the siege (issue 23: battle losses were under Sieges).
    ("ftc2007", "damage", "ftc2007 §17", "battles"),
    ("ftc2007", "ship-lost", "ftc2007 §17", "battles"),
    ("ftc2007", "damage", "ftc2007 §14.1", "battles"),
    ("ftc2007", "damage", "ftc2007 §10.8", "sieges"),
    ("ftc2007", "ship-lost", "ftc2007 §10.8", "sieges"),
    ("ftc2007", "ship-lost", "house rule", "other"),
    ("sct", "movement", "sct §4.3", "movement"),
    ("sct", "ship-lost", "sct §6.4", "battles"),
    ("sct", "ship-lost", "sct §7.3", "battles"),  # a base lost in the combat
    ("sct", "works-done", "sct §7.2", "construction"),
    # ftcamp02 by its own chapters, not ftc2007's: §2 is its EPs, in Movement.
    ("ftcamp02", "ship-lost", "ftcamp02 §2.3", "movement"),
    ("ftcamp02", "claim", "ftcamp02 §8.1", "sieges"),
    ("ftcamp02", "scan", "ftcamp02 §7", "battles"),
    ("ftcamp02", "not-resolved", "ftcamp02 §4.2.11", "other"),
])
def test_events_are_filed_as_their_ruleset_says(ruleset, kind, rule, section):
    report = RULESETS[ruleset].report
    assert report.section_of(Event(kind, rule, "Something happened.", audience=PUBLIC)) == section


def test_rule_links_fall_back_to_the_enclosing_section():
    known = {"8": "/r/#r-8", "8.2": "/r/#r-8-2"}
    assert rule_url("ftc2007 §8.2", known.get) == "/r/#r-8-2"
    assert rule_url("ftc2007 §8.4.1", known.get) == "/r/#r-8"
    assert rule_url("ftc2007 §99", known.get) == ""
    assert rule_url("house rule", known.get) == ""


def test_turn_map_has_an_arrow_per_move_and_markers_for_battles_and_sieges():
    state = demo_state()
    events = [
        Event("arrival", "ftc2007 §8.1", "nac-1 jumped.", audience=PUBLIC, player="nac", group="nac-1",
              at="bellwether", origin="arcturus-gate"),
        Event("arrival", "ftc2007 §8.1", "nac-4 jumped.", audience=PUBLIC, player="nac", group="nac-4",
              at=Hex(-3, 4), origin="arcturus-gate"),
        Event("encounter", "ftc2007 §14", "NAC meets NSL at Bellwether.", audience=PUBLIC, at="bellwether"),
        Event("siege", "ftc2007 §10.1", "NAC besieges <Bellwether>.", audience=PUBLIC, at="bellwether"),
        Event("hold", "ftc2007 §17.2", "nac-2 holds.", audience=PUBLIC, at="arcturus-gate"),
    ]
    m = turn_map(state, events, "After turn 1", FTC2007.marker_of, FTC2007.moves, display=PLAIN)
    assert len(m.moves) == 2
    assert sorted(k.kind for k in m.markers) == ["battle", "siege"]
    svg = render_svg(m)
    root = ET.fromstring(svg)
    assert len(root.findall(f".//{SVG}g[@class='moves']/{SVG}g[@class='move']")) == 2
    assert len(root.findall(f".//{SVG}g[@class='marker battle']")) == 1
    assert len(root.findall(f".//{SVG}g[@class='marker siege']")) == 1
    assert "NAC besieges &lt;Bellwether&gt;." in svg
    stacks: dict[Hex, int] = {}
    for group in state.groups.groups:
        stacks[state.hex_of(group.at)] = stacks.get(state.hex_of(group.at), 0) + 1
    # One counter per group, four to a stack; the rest of a stack are counted.
    assert len(root.findall(f".//{SVG}g[@class='counter']")) == sum(
        min(n, 4) for n in stacks.values())
    assert len(root.findall(f".//{SVG}text[@class='more']")) == sum(
        1 for n in stacks.values() if n > 4)


def test_treasury_chart_parses_and_escapes():
    chart = Chart("Treasury <by> turn", "desc", ("t000", "t001"),
                  (Series("<script>x</script>", "#0072B2", "NAC", (100, 80)),
                   Series("Other", "#D55E00", "OTH", (50, 120))))
    svg = render_chart(chart)
    root = ET.fromstring(svg)
    assert root.find(f"{SVG}title").text == "Treasury <by> turn"
    assert len(root.findall(f".//{SVG}g[@class='series']")) == 2
    assert len(root.findall(f".//{SVG}circle")) == 4
    assert "<script>" not in svg


# --- a throw-away campaign: notes and names are text ----------------------------------

def test_player_notes_and_names_in_a_turn_report_are_text(tmp_path, run):
    root = tmp_path / "camp"
    whole = DEMO.copy(tmp_path / "whole")  # an open campaign's files: the net knows the names
    for rel in ("state", "content/rules", "site.yaml"):
        src = whole / rel
        if src.is_dir():
            shutil.copytree(src, root / rel)
        else:
            root.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(src.read_bytes())
    write_files(root, {"content/posts/2026/03/01-hello.md": post("Hello", "2026-03-01T10:00:00Z")})
    events = root / f"{TURNS_DIR}/t001/events.yaml"
    secret = load_folder(REPO, f"{TURNS_DIR}/t001", umpire=DEMO.umpire
                         ).state.groups.groups[1].ships[0].name
    text = events.read_text().replace("Show the flag on the eastern border.",
                                      "<script>alert(1)</script>")
    text = text.replace("Have a look at what the League keeps next door, then come home.",
                        f"Tell {secret} to follow.")
    events.write_text(text)
    out = tmp_path / "out"
    code, _, err = run("build", "--source", root, "--out", out, "--now",
                       "2026-11-29T12:00:00+00:00")
    assert code == 0, err
    html = (out / "turns/t001/index.html").read_text()
    # The public's report: a player's note is the player's and the umpire's, never
    # shown (neither as markup nor as text); the powers' names are text.
    assert "alert(1)" not in html
    assert "Sa&#39;Vasku sent no orders" in html
    # The umpire's report shows the note, as text.
    umpire = tmp_path / "umpire"
    code, _, err = run("build", "--source", root, "--out", umpire, "--view", "umpire",
                       "--now", "2026-11-29T12:00:00+00:00")
    assert code == 0, err
    theirs = (umpire / "turns/t001/index.html").read_text()
    assert "<script>alert(1)</script>" not in theirs
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in theirs
    assert "Sa&#39;Vasku sent no orders" in theirs
    # Nor does the public's report give away a hidden ship through a player's note.
    assert "Tell " not in html
    shown = all_text(out) + "".join(p.read_text() for p in out.rglob("*.yaml"))
    assert secret not in shown
    # Public by their audience, the rules' own words naming a dummy or a hidden ship
    # are a bug in a rule: the build stops and says which event, writing nothing.
    for leak in ("nac-5, a dummy, holds.", f"{secret} holds."):
        events.write_text(text + f"  - kind: hold\n    rule: ftc2007 §17.2\n    text: {leak}\n"
                                 "    audience: public\n")
        again = tmp_path / f"again-{len(leak)}"
        code, _, err = run("build", "--source", root, "--out", again, "--now",
                           "2026-11-29T12:00:00+00:00")
        assert code != 0 and "HiddenFactLeak" in err and repr(leak) in err
        assert not (again / "turns/t001/index.html").exists()


@pytest.mark.parametrize(("kind", "rule", "marker"), [
    ("conquest", "ftc2007 §9.1", "siege"),
    ("repulsed", "ftc2007 §10.7", "siege"),
    ("encounter", "ftc2007 §14", "battle"),
    ("damage", "ftc2007 §17", "battle"),
    ("damage", "ftc2007 §10.8", "siege"),
    ("arrival", "ftc2007 §8.1", None),
])
def test_siege_and_battle_events_mark_their_world(kind, rule, marker):
    state = demo_state()
    event = Event(kind, rule, "Something happened.", audience=PUBLIC, at="bellwether")
    m = turn_map(state, [event], "After", FTC2007.marker_of, FTC2007.moves, display=PLAIN)
    assert [k.kind for k in m.markers] == ([marker] if marker else [])


def test_the_home_page_leads_with_the_latest_turn(demo_site):
    """Headline, state of play and map of the newest turn; only on the first page."""
    latest = recorded()[-1]
    home = (demo_site / "index.html").read_text(encoding="utf-8")
    lead = home[home.index('class="turn-headline"'):home.index("</section>")]
    assert f'href="/ftpress/turns/{latest}/"' in lead
    assert f'src="/ftpress/turns/{latest}/map.svg"' in lead
    assert (demo_site / f"turns/{latest}/map.svg").is_file()
    report = page(demo_site, latest)
    moved = re.search(r"<p>((?:\d+ task groups? moved|No task group moved)[^<]*)</p>", report)
    assert moved is not None and moved.group(1) in lead
    assert 'class="turn-headline"' not in (demo_site / "page/2/index.html").read_text()


def test_the_umpires_turns_index_charts_each_powers_fleet_value(tmp_path, demo_site):
    """Fleet value = list price of every ship a power has, from each recorded state: in
    the umpire's view, and in no other, where beside a power's counters it would tell
    how many are dummies (§15.2)."""
    public = (demo_site / "turns/index.html").read_text(encoding="utf-8")
    assert 'id="fleet-chart"' not in public and "Fleet value" not in public
    umpire = DEMO.build(tmp_path / "_site-umpire", "--view", "umpire")
    index = (umpire / "turns/index.html").read_text(encoding="utf-8")
    assert "Fleet value</th>" in index
    chart = index[index.index('id="fleet-chart"'):]
    chart = html.unescape(chart[:chart.index("</svg>")])
    for turn in recorded():
        state = load_folder(REPO, f"{TURNS_DIR}/{turn}", umpire=DEMO.umpire).state
        for player in state.players.players:
            worth = sum(state.design(s.design).points for g in state.groups_of(player.id)
                        for s in g.ships)
            name = re.escape(player.name)
            assert re.search(rf"{name}: [^;]*\b{turn} {worth:,}\b", chart), (turn, player.id)


def test_the_demo_names_no_hidden_ship_anywhere(demo_site):
    """Not even the umpire's own posts in the demo name a ship or design the state
    still hides: the whole public output, feed and search index included."""
    current = secrets_of(load_folder(REPO).state)
    problems = []
    for file in sorted(demo_site.rglob("*")):
        if file.is_file() and file.suffix in (".html", ".xml", ".svg", ".yaml", ".json"):
            text = html.unescape(file.read_text(encoding="utf-8", errors="replace"))
            problems += [f"{file.relative_to(demo_site)}: {s!r}" for s in leaks(text, current)]
    problems += [f"search index: {s!r}" for s in leaks(all_text(demo_site / "pagefind"),
                                                      current)]
    assert problems == []


def test_a_counter_is_named_by_its_group_only_where_its_owner_reads_the_map():
    """A group's id is its owner's label (the events name it only to them): the public
    map numbers every counter in its stack, even one its events moved; a player's map
    names their own groups by id and ships, the umpire's every group; the map's
    description counts in the right number."""
    state = demo_state()
    events = [Event("arrival", "ftc2007 §8.1", "nac-1 jumped.", audience=PUBLIC, player="nac",
                    group="nac-1", at="bellwether", origin="arcturus-gate")]
    public = turn_map(known_state(state, PUBLIC_VIEW), events, "After turn 1",
                      FTC2007.marker_of, FTC2007.moves, display=PLAIN)
    labels = {c.label for c in public.counters}
    assert labels and all(label.isdigit() for label in labels)
    assert "Arrows show 1 move made this turn." in public.description
    nac = turn_map(known_state(state, Viewer.of("nac")), events, "After turn 1",
                   FTC2007.marker_of, FTC2007.moves, display=PLAIN, viewer=Viewer.of("nac"))
    assert any(c.label.startswith("nac-1: ") for c in nac.counters)
    assert all(c.label.isdigit() for c in nac.counters if c.owner != "nac")
    umpire = turn_map(state, events, "After turn 1", FTC2007.marker_of, FTC2007.moves,
                      display=PLAIN, viewer=UMPIRE_VIEW)
    assert any(c.label.startswith("nac-2: ") for c in umpire.counters)
    assert any(c.label.startswith("esu-1: ") for c in umpire.counters)
