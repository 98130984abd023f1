"""What a viewer knows, as data (issue 20): ``knowledge.known_state`` over every
recorded state of the demo and both examples, for the public and for each player;
news no faster than ships (§18.4) on the public site; and a player's view built from
the public files and that player's sealed intelligence, without the full state."""

from __future__ import annotations

import dataclasses
import html
import re
import shutil
from collections import Counter
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import yaml
from demos import FTC2007, FTCAMP02, SCT, Demo
from hiddenfacts import recorded_events, secrets_of
from hypothesis import given, settings
from hypothesis import strategies as st
from pyrage import x25519
from sealedcampaign import sealed_campaign
from turnfixture import build_state

from ftpress import rules
from ftpress.rules.ftc2007.state_ext import Ftc2007Group, defence_works, jumped_out, spares_of
from ftpress.secrecy import agekeys
from ftpress.secrecy.intelligence import known_to, parse_intelligence, read_intelligence, text_of
from ftpress.secrecy.knowledge import counter_names, knowledge_of, known_state, with_own
from ftpress.secrecy.visibility import PUBLIC_VIEW, UMPIRE_VIEW, Viewer
from ftpress.state.extension import extended
from ftpress.state.load import LoadedState
from ftpress.state.model import Group, State
from ftpress.state.save import dump, save_state
from ftpress.state.turns import TURNS_DIR
from ftpress.store.campaign import load_folder, load_states

DEMOS = {"ftc2007": FTC2007, "sct": SCT, "ftcamp02": FTCAMP02}


@pytest.fixture(scope="module", params=sorted(DEMOS))
def recorded(request: pytest.FixtureRequest) -> tuple[Demo, tuple[LoadedState, ...]]:
    """An example campaign and every state it keeps: the current one, each snapshot."""
    demo = DEMOS[request.param]
    return demo, load_states(demo.root, umpire=demo.umpire)


def viewers(state: State) -> list[Viewer]:
    return [PUBLIC_VIEW, *(Viewer.of(p.id) for p in state.players.players)]


def as_text(state: State) -> str:
    """Every state file of ``state`` as written: what a sealed campaign's plain files,
    or an intelligence file, would hold."""
    return "\n".join(dump(getattr(state, name)) for name in
                     ("campaign", "players", "map", "designs", "groups", "queues"))


def test_no_viewer_knows_anothers_secrets_and_each_knows_their_own(recorded):
    demo, folders = recorded
    checked = 0
    for folder in folders:
        full = folder.state
        hides = not knowledge_of(full.campaign.ruleset).hides_nothing
        for viewer in viewers(full):
            known = known_state(full, viewer)
            where = f"{folder.folder} for {viewer!r}"
            if not hides:
                assert known is full, where  # sct: the rules hide nothing
                continue
            mine = viewer.player
            assert known.campaign.known_to == (mine or "public"), where
            assert known_state(known, viewer) is known, where  # a projection is final
            # The viewer's own groups, slips and repairs are whole.
            if mine is not None:
                assert known.groups_of(mine) == full.groups_of(mine), where
                assert list(known.queues.keels) == [
                    k for k in full.queues.keels if k.owner == mine], where
            others = [g for g in known.groups.groups if g.owner != mine]
            assert not {g.id for g in others} & {g.id for g in full.groups.groups}, where
            for group in others:
                assert group.endurance is None, where
                if not group.shown_to(mine):
                    assert (group.ships, group.dummy) == ((), False), (where, group.id)
                assert set(group.seen_by) <= {mine}, (where, group.id)
                if full.campaign.ruleset == "ftc2007":
                    assert not jumped_out(group), (where, group.id)
            assert all(q.owner == mine for q in (*known.queues.keels, *known.queues.repairs,
                                                 *spares_of(known),
                                                 *defence_works(known))), where
            # No word the full state hides from this viewer stands in their files.
            theirs = dataclasses.replace(full, queues=dataclasses.replace(
                full.queues, keels=tuple(k for k in full.queues.keels if k.owner != mine)))
            hidden = secrets_of(theirs, known={g.id for g in full.groups_of(mine or "")})
            text = as_text(known)
            leaked = sorted(w for w in hidden
                            if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text))
            assert leaked == [], where
            checked += 1
    assert checked or demo is SCT


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_any_mix_of_contacts_jumps_and_viewers_keeps_the_secrets(data):
    """For random states made from the demo's (each group contacted or not, jumped out
    or not) and any viewer: others' uncontacted counters hold nothing, no outsider sees
    a group that jumped out, and the viewer's own groups are whole."""
    full = FTC2007.state()
    powers = sorted(p.id for p in full.players.players)
    groups = tuple(extended(g, Ftc2007Group, jumped_out=data.draw(st.booleans()))
                   if data.draw(st.booleans()) else
                   dataclasses.replace(g, revealed=data.draw(st.booleans()), seen_by=tuple(
                       data.draw(st.sets(st.sampled_from(powers)))))
                   for g in full.groups.groups)
    state = dataclasses.replace(full, groups=dataclasses.replace(full.groups, groups=groups))
    viewer = data.draw(st.sampled_from(viewers(state)))
    known = known_state(state, viewer)
    mine = viewer.player
    assert known.groups_of(mine or "") == state.groups_of(mine or "")

    def counters(groups: Iterable[Group]) -> Counter[tuple[Any, ...]]:
        """Others' counters as an outsider tells them apart: whose, where, what is seen."""
        return Counter((g.owner, g.at, g.shown_to(mine), g.dummy if g.shown_to(mine) else None,
                        tuple((s.name, s.design, s.damage) for s in g.ships)
                        if g.shown_to(mine) else ()) for g in groups if g.owner != mine)

    assert counters(known.groups.groups) == counters(
        g for g in state.groups.groups if not jumped_out(g))
    others = [g for g in known.groups.groups if g.owner != mine]
    assert all(g.endurance is None and not jumped_out(g) for g in others)
    assert all((g.ships, g.dummy) == ((), False) for g in others if not g.shown_to(mine))
    # §15.3: who else has seen into a group is not the viewer's to know.
    assert all(set(g.seen_by) <= {mine} for g in others)
    # No other power's own label for a group stands in the viewer's state.
    assert not {g.id for g in others} & {g.id for g in state.groups.groups}


def test_every_known_state_is_a_valid_state(recorded, tmp_path):
    """Written as state files and loaded again, each known state passes the
    cross-reference checks and its ruleset's, and reads back equal."""
    _demo, folders = recorded
    for folder in folders:
        for viewer in viewers(folder.state):
            root = tmp_path / f"{folder.folder.replace('/', '-')}-{viewer.player or 'public'}"
            known = known_state(folder.state, viewer)
            save_state(root, known)
            loaded = load_folder(root)
            assert rules.check_state(loaded) == [], (folder.folder, viewer)
            assert loaded.state == known


def test_a_state_known_to_the_public_says_nothing_more_for_a_player():
    public = known_state(FTC2007.state(), PUBLIC_VIEW)
    with pytest.raises(ValueError, match="a state known to 'public' cannot tell what 'nac'"):
        known_state(public, Viewer.of("nac"))


def test_a_known_state_refuses_a_counter_whose_contents_its_viewer_cannot_know(tmp_path):
    """The checks allow a known state what a full one may not hold (another power's
    counter without ships) and refuse what its viewer cannot know (a dummy flag)."""
    public = known_state(FTC2007.state(), PUBLIC_VIEW)
    unseen = next(i for i, g in enumerate(public.groups.groups) if not g.revealed)
    groups = list(public.groups.groups)
    groups[unseen] = dataclasses.replace(groups[unseen], dummy=True)
    save_state(tmp_path, dataclasses.replace(
        public, groups=dataclasses.replace(public.groups, groups=tuple(groups))))
    with pytest.raises(Exception) as caught:
        load_folder(tmp_path)
    group = groups[unseen]
    assert (f"this state is what 'public' knows, and no contact has shown 'public' what "
            f"{group.owner!r}'s {group.id!r} is a dummy counter; leave it out") in str(caught.value)


# --- news no faster than ships (§18.4) ----------------------------------------------

def test_a_group_that_jumped_out_is_not_on_the_public_map_of_that_turn(demo_site):
    """In t002 sav-1 jumps out of the battle of Lumen to Hollow Crown (its dummy, sav-3,
    was found out and taken off the map before the battle, §15.2): the public sees it
    leave Lumen, and nowhere after, until it is met again; sav, and the umpire, know
    where it went."""
    snapshot = load_folder(FTC2007.root, f"{TURNS_DIR}/t002", umpire=FTC2007.umpire).state
    jumped = {g.id for g in snapshot.groups.groups if jumped_out(g)}
    assert jumped == {"sav-1"}
    assert "sav-3" not in {g.id for g in snapshot.groups.groups}
    public = known_state(snapshot, PUBLIC_VIEW)
    assert not jumped & {g.id for g in public.groups.groups}
    assert jumped <= {g.id for g in known_state(snapshot, Viewer.of("sav")).groups.groups}
    svg = (demo_site / "turns/t002/map.svg").read_text(encoding="utf-8")
    assert "Task group sav-1" not in svg and "Task group sav-3" not in svg
    counters = len(snapshot.groups.groups)
    assert f"{counters - 1} task-group counters" in svg
    page = html.unescape((demo_site / "turns/t002/index.html").read_text(encoding="utf-8"))
    assert page.count("A task group of Sa'Vasku jumps out of Lumen; where to, only Sa'Vasku "
                      "knows.") == 1
    events = page.split('id="events"')[1].split('aria-labelledby="orders"')[0]
    assert "to Hollow Crown" not in events  # (it came from there: that is no secret)


def test_a_departures_destination_is_told_to_its_owner_alone():
    """Every jump out recorded: a public event at the system left, naming no
    destination; the event naming it is told to the owner only."""
    events = [e for _turn, e in recorded_events(FTC2007.root, FTC2007.umpire) if e["kind"] == "withdrawal"]
    assert events
    for event in events:
        if event["audience"] == "public":
            assert "origin" not in event and "only" in event["text"], event
        else:
            assert event["audience"] == [event["player"]], event


# --- a player's view, from the public files and their intelligence --------------------

@pytest.fixture
def sealed_nac(tmp_path, run) -> tuple[Path, Path]:
    """The ftcamp02 example, sealed (``keys seal-campaign``: every plain state file and
    event log cut down to what the public knows, the whole sealed beside it), nac with a
    key, turn t005 resolved (so nac has their intelligence of it); no umpire key left."""
    from ftpress.turn.resolve import resolve_turn

    root, _nac = sealed_campaign(tmp_path / "camp", run)
    key = root / "nac.key"
    assert run("seal", root / "orders/t005/nac.yaml", "--source", root)[0] == 0
    (root / "orders/t005/nac.yaml").unlink()
    resolve_turn(root, now=datetime.fromisoformat(FTCAMP02.now), early=True,
                 environ={agekeys.UMPIRE_KEY_ENV: (root / agekeys.UMPIRE_KEY_FILE).read_text()})
    (root / agekeys.UMPIRE_KEY_FILE).unlink()
    shutil.rmtree(root / ".ftpress-cache", ignore_errors=True)
    return root, key


def test_a_players_view_is_built_from_the_public_files_and_their_intelligence(
        sealed_nac, run):
    root, key = sealed_nac
    plain = load_folder(root).state
    assert plain.campaign.known_to == "public"
    assert all(not g.ships for g in plain.groups.groups if not g.revealed)  # no full state
    intelligence = read_intelligence(
        root, f"{TURNS_DIR}/t005/intelligence/nac.yaml.age", agekeys.read_identity(key),
        rules.STATE_EXTENSIONS)
    mine = intelligence.state.groups_of("nac")
    assert mine and any(g.ships for g in mine)
    code, _out, err = run("build", "--source", root, "--view", "nac", "--identity", key,
                          "--now", FTCAMP02.now)
    assert (code, err) == (0, ""), err
    site = root / "_site-nac"
    # nac's groups on the map by id, with their ships; nac's page lists them.
    starmap = (site / "systems/index.html").read_text(encoding="utf-8")
    for group in mine:
        if group.ext is None or not getattr(group.ext, "attached_to", None):
            assert f"Task group {group.id}: " in starmap, group.id
            assert f">{group.id}</text>" in starmap, group.id  # its counter says so
    page = (site / "players/nac/index.html").read_text(encoding="utf-8")
    assert all(s.name in page for g in mine for s in g.ships)
    # nac's counters listed with their ids (only nac's own view has them).
    assert all(g.id in page for g in mine if not getattr(g.ext, "attached_to", None))
    assert "orders/t006/nac.yaml" in page  # nac's order form for the open turn
    # What nac was told in t005 is in nac's report of it; the public's has none of it.
    told = [e.text for e in intelligence.events if not e.audience.public]
    report = (site / "turns/t005/index.html").read_text(encoding="utf-8")
    assert told and all(_html(t) in report for t in told)
    # Nobody else's groups are whole: esu's and fsr's pages are the public's, but for
    # the banner on every page of nac's build that says whose view it is.
    assert run("build", "--source", root, "--now", FTCAMP02.now)[0] == 0
    banner = ('<p class="umpire-banner player-banner" role="note"><strong>Your view: '
              'NAC (nac).</strong> What the rules tell you, and nobody else: not for '
              'publication.</p>\n')
    for other in ("esu", "fsr"):
        theirs = (site / f"players/{other}/index.html").read_text(encoding="utf-8")
        public = (root / "_site" / f"players/{other}/index.html").read_text(encoding="utf-8")
        assert theirs.count(banner) == 1 and banner not in public, other
        assert theirs.replace(banner, "") == public, other


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("'", "&#39;").replace('"', "&#34;")


def test_a_players_view_of_a_sealed_campaign_needs_the_key_that_opens_it(sealed_nac, run):
    root, _key = sealed_nac
    wrong = root / "esu.key"
    wrong.write_text(f"{x25519.Identity.generate()}\n")
    code, _out, err = run("build", "--source", root, "--view", "nac", "--identity", wrong,
                          "--now", FTCAMP02.now)
    assert code == 1 and "does not answer to nac's recipient" in err
    assert not (root / "_site-nac").exists()


def test_an_intelligence_file_reads_back_as_written():
    state = FTCAMP02.state()
    written = known_to(state, (), "t004", "nac")
    back = parse_intelligence(text_of(written), "nac.yaml", rules.STATE_EXTENSIONS)
    assert back == written and back.state.campaign.known_to == "nac"


def test_what_a_player_knows_now_is_the_publics_with_their_own_whole():
    full = FTC2007.state()
    public = known_state(full, PUBLIC_VIEW)
    nac = known_state(full, Viewer.of("nac"))
    assert with_own(public, nac, "nac").groups_of("nac") == full.groups_of("nac")
    mixed = with_own(public, nac, "nac")
    assert {g.id for g in mixed.groups.groups if g.owner != "nac"} == {
        g.id for g in public.groups.groups if g.owner != "nac"}


def test_serve_builds_a_players_view_from_their_intelligence(sealed_nac, tmp_path):
    from ftpress.site.serve import LiveSite

    root, key = sealed_nac
    site = LiveSite(root, tmp_path / "out", drafts=False, future=False, now=FTCAMP02.now,
                    view="nac", identity=key)
    site.rebuild()
    assert site.error is None, site.error
    page = (tmp_path / "out" / "turns" / "t005" / "index.html").read_text(encoding="utf-8")
    told = [e.text for e in read_intelligence(
        root, f"{TURNS_DIR}/t005/intelligence/nac.yaml.age", agekeys.read_identity(key),
        rules.STATE_EXTENSIONS).events if not e.audience.public]
    assert told and all(_html(t) in page for t in told)


# --- what a ruleset declares -----------------------------------------------------------

def test_a_ruleset_that_declares_nothing_tells_outsiders_nothing_of_its_keys():
    """The fourth ruleset (tests/fourth_ruleset/) keeps no keys of its own and declares
    no knowledge: a state under it, carrying another ruleset's keys, is projected with
    every record's keys withheld from those who do not own the record."""
    from fourth_ruleset import RULESET

    from ftpress.rules import RULESETS, register
    from ftpress.state.extension import HIDES_ITS_OWN

    register(RULESET)
    try:
        assert knowledge_of("lighthouse") is HIDES_ITS_OWN
        full = FTCAMP02.state()
        state = dataclasses.replace(full, campaign=dataclasses.replace(
            full.campaign, ruleset="lighthouse"))
        known = known_state(state, Viewer.of("nac"))
        assert any(s.ext is not None for s in full.map.systems if s.owner != "nac")
        assert all(s.ext is None for s in known.map.systems if s.owner != "nac")
        assert all(g.ext is None for g in known.groups.groups if g.owner != "nac")
        assert known.map.ext is None and full.map.ext is not None
        assert known.groups_of("nac") == full.groups_of("nac")
    finally:
        del RULESETS[RULESET.name]


def test_a_ruleset_declares_knowledge_only_of_record_kinds_there_are():
    from ftpress.state.extension import Extension, Knowledge, StateExtension, kept

    with pytest.raises(TypeError, match="no shared record kind 'fleet'"):
        StateExtension("x", {"group": Extension}, Knowledge(outsider={"fleet": kept}))


def test_a_file_every_player_holds_entries_in_is_projected_by_the_viewers_part():
    """queues.yaml is nobody's record: an outsider's view of it means nothing, each
    viewer knows their own part; and a part is known only of such a file."""
    from ftpress.state.extension import Extension, Knowledge, StateExtension, kept

    with pytest.raises(TypeError, match="'queues' is projected by the wrong hook"):
        StateExtension("x", {"queues": Extension}, Knowledge(outsider={"queues": kept}))
    with pytest.raises(TypeError, match="'player' is projected by the wrong hook"):
        StateExtension("x", {"player": Extension},
                       Knowledge(part={"player": lambda ext, viewer: ext}))


def test_each_viewer_knows_their_own_spares_and_defence_works_alone():
    """ftc2007 §6.2.1, §10.5: where a power keeps spares and what defences it rebuilds
    are its own: its known state holds its entries, another's none, the public's
    none; what the player knows now, from the public's and theirs, holds them too."""
    full = build_state({
        "systems": [{"id": "home", "hex": [0, 0], "owner": "nac", "idp_full": 60},
                    {"id": "away", "hex": [2, 0], "owner": "esu", "idp_full": 60}],
        "spares": [{"owner": "nac", "at": "home", "level": 100, "stock": 60},
                   {"owner": "esu", "at": "away", "level": 50, "stock": 50}],
        "defences": [{"system": "home", "owner": "nac", "points": 10, "cost": 50, "ready": 2},
                     {"system": "away", "owner": "esu", "points": 5, "cost": 25, "ready": 2}]})
    assert len(spares_of(full)) == len(defence_works(full)) == 2
    for viewer, owner in ((Viewer.of("nac"), "nac"), (Viewer.of("esu"), "esu"),
                          (PUBLIC_VIEW, None)):
        known = known_state(full, viewer)
        assert spares_of(known) == tuple(s for s in spares_of(full) if s.owner == owner)
        assert defence_works(known) == tuple(d for d in defence_works(full)
                                             if d.owner == owner)
    public = known_state(full, PUBLIC_VIEW)
    assert public.queues.ext is None
    now = with_own(public, known_state(full, Viewer.of("nac")), "nac")
    assert [s.owner for s in spares_of(now)] == ["nac"]
    assert [d.owner for d in defence_works(now)] == ["nac"]
    assert known_state(full, UMPIRE_VIEW) == full


def test_a_damaged_intelligence_file_is_named_and_nothing_is_built(sealed_nac, run):
    root, key = sealed_nac
    sealed = root / TURNS_DIR / "t005/intelligence/nac.yaml.age"
    sealed.write_bytes(sealed.read_bytes()[:-20])
    code, _out, err = run("build", "--source", root, "--view", "nac", "--identity", key,
                          "--now", FTCAMP02.now)
    assert code == 1
    assert err.startswith(f"{TURNS_DIR}/t005/intelligence/nac.yaml.age:1:1: is damaged or cut "
                          "short (it does not decrypt whole); expected a file 'ftpress turn' "
                          "sealed to your key\n"), err
    assert not (root / "_site-nac").exists()


def test_a_campaign_whose_files_hold_what_the_public_knows_checks_clean(sealed_nac, run):
    """Every state file and snapshot cut to the public's known state: ``ftpress check``
    finds them valid (the cross-references and the ruleset's checks allow a known state
    its unknown counters)."""
    root, _key = sealed_nac
    code, out, err = run("check", "--source", root)
    assert (code, err) == (0, ""), err
    assert out.endswith("no problems\n"), out


def test_the_public_site_built_from_the_publics_files_is_the_public_site(tmp_path, demo_site):
    """The demo with every state file and snapshot cut to the public's known state and
    every event log to its public events, cited lines and notes left out (a sealed
    campaign's plain files), builds the same public site, page for page, as the full
    campaign does (the published order files aside: those a sealed record keeps sealed). Each player's sealed report of a
    turn (``views/``) is a plain file of the sealed campaign too, published as it is:
    the copy, opened to be cut, gets them back, and is sealed again as the demo is."""
    root = FTC2007.copy(tmp_path / "camp")
    for views in sorted((FTC2007.root / TURNS_DIR).glob("*/views")):
        shutil.copytree(views, root / views.relative_to(FTC2007.root), dirs_exist_ok=True)
    for folder in load_states(root):
        save_state(root, known_state(folder.state, PUBLIC_VIEW), folder.folder)
        log = root / folder.folder / "events.yaml"
        if log.is_file():
            kept = yaml.safe_load(log.read_text())
            # The public's events, without the citation of a sealed order file's line
            # or the player's note: those are the player's and the umpire's.
            public = [_counters_named({k: v for k, v in e.items() if k not in ("order", "note")},
                                      counter_names(folder.state, PUBLIC_VIEW))
                      for e in kept.get("events", []) if e["audience"] == "public"]
            log.write_text(yaml.safe_dump({**kept, "events": public}, sort_keys=False,
                                          allow_unicode=True))
    for campaign in sorted((root / "state").rglob("campaign.yaml")):  # sealed, as the demo
        text = campaign.read_text(encoding="utf-8")
        campaign.write_text(text.replace("settings:\n", "settings:\n  secrecy: sealed\n", 1),
                            encoding="utf-8")
    built = Demo(root, FTC2007.now).build(tmp_path / "_site")

    def pages(site: Path) -> dict[str, bytes]:
        return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*"))
                if p.is_file() and "/orders/" not in str(p) and "pagefind" not in str(p)}

    theirs, ours = pages(built), pages(demo_site)
    assert sorted(theirs) == sorted(ours)
    assert [p for p in ours if theirs[p] != ours[p]] == []


def _counters_named(event: dict, names: dict[str, str]) -> dict:
    """An event as a dict, each group it names under its counter's name for the public
    (none where the public cannot tell it from the counters beside it)."""
    event = dict(event)
    if "group" in event:
        if event["group"] in names:
            event["group"] = names[event["group"]]
        else:
            del event["group"]
    if "groups" in event:
        event["groups"] = [names[g] for g in event["groups"] if g in names]
        if not event["groups"]:
            del event["groups"]
    return event


def test_a_contact_shows_a_group_to_the_powers_in_contact_alone():
    """§15.3 (Ruling CONTACT_TELLS_THOSE_IN_CONTACT): a group that one power has made
    contact with is seen into by that power; another power and the public still see
    a counter, and nobody but its owner learns who else has seen it."""
    full = FTC2007.state()
    target = next(g for g in full.groups.groups if g.ships and not g.revealed)
    seer, other = [p.id for p in full.players.players if p.id != target.owner][:2]
    groups = tuple(dataclasses.replace(g, seen_by=(seer,)) if g is target else g
                   for g in full.groups.groups)
    state = dataclasses.replace(full, groups=dataclasses.replace(full.groups, groups=groups))

    def seen(viewer: Viewer) -> list[Group]:
        return [g for g in known_state(state, viewer).groups.groups
                if g.owner == target.owner and g.at == target.at and g.ships]

    assert [g.ships for g in seen(Viewer.of(seer))] == [target.ships]
    assert [g.seen_by for g in seen(Viewer.of(seer))] == [(seer,)]
    assert seen(Viewer.of(other)) == [] and seen(PUBLIC_VIEW) == []
    assert known_state(state, Viewer.of(target.owner)).groups_of(target.owner) == \
        state.groups_of(target.owner)
