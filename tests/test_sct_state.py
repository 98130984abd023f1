"""An sct campaign's state: what ``ftpress init --ruleset sct`` makes, and the
located problems ``ftpress check`` reports when a planar state is wrong."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from ftpress.rules.sct.setup import HOME_EV, OPTION_LIMITS, STARTING_FORCE
from ftpress.rules.sct.state_ext import of_system, position
from ftpress.store.campaign import load_folder

NOW = "2026-03-01T10:00:00+00:00"


def init(run, target: Path, *extra: str) -> tuple[int, str, str]:
    return run("init", target, "--players", "nac,nsl,fse,esu", "--seed", "7", "--ruleset",
               "sct", "--now", NOW, *extra)


def test_init_makes_a_planar_campaign_that_checks_and_builds(tmp_path, run):
    target = tmp_path / "sct-campaign"
    code, out, err = init(run, target)
    assert (code, err) == (0, "")
    assert out.startswith(f"created {target}: 4 players, 20 worlds from seed 7; ")
    state = load_folder(target).state
    assert state.campaign.ruleset == "sct" and state.map.geometry == "plane"
    assert state.campaign.setup.options == {name: d for name, (d, _, _) in OPTION_LIMITS.items()}
    for player in state.players.players:
        home = state.system(player.capital)
        assert (home.income, home.depot, home.base, home.shipyard) == (HOME_EV, True, True, True)
        force = state.groups_of(player.id)[0]
        assert force.at == home.id and force.endurance == 6 and force.revealed
        assert [state.design(s.design).size for s in force.ships] == list(STARTING_FORCE)
    for system in state.map.systems:
        assert system.hex is None and position(system) is not None
        assert of_system(system).spectral
    rules = sorted(p.name for p in (target / "content" / "rules").iterdir())
    assert rules[0] == "01-the-campaign-in-brief.md" and len(rules) == 8
    assert run("check", "--source", target) == (0, "checked the campaign: no problems\n", "")
    code, _out, err = run("build", "--source", target, "--out", tmp_path / "site", "--now",
                          "2026-03-02")
    assert (code, err) == (0, "")
    assert 'class="starmap planemap"' in (tmp_path / "site" / "systems" / "index.html").read_text()


def test_an_option_out_of_range_is_refused(tmp_path, run):
    code, _out, err = init(run, tmp_path / "c", "--option", "radius=3")
    assert code == 1
    assert "option radius=3 is out of range; expected 6 to 40" in err


def _edit(path: Path, change) -> None:
    data = yaml.safe_load(path.read_text())
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False))


def test_check_locates_what_an_sct_state_may_not_be(tmp_path, run):
    target = tmp_path / "c"
    init(run, target)

    def groups(data):
        data["groups"][0]["at"] = [1, 2]
        data["groups"][1]["at"] = {"x": 40, "y": 0}
        data["groups"][2]["endurance"] = 7

    def places(data):
        data["systems"][1]["position"] = {"x": 30, "y": 0}
        data["systems"][2]["position"] = dict(data["systems"][3]["position"])

    _edit(target / "state" / "groups.yaml", groups)
    _edit(target / "state" / "map.yaml", places)
    code, _out, err = run("check", "--source", target)
    assert code == 1
    lines = [line for line in err.splitlines() if line.startswith("state/")
             and "turns" not in line]
    assert any("state/groups.yaml" in line and "nac-tf1 is placed at a hex; on an sct map a "
               "task force is at a system id or a point {x: …, y: …}" in line for line in lines)
    assert any("nsl-tf1 at (40, 0) is off the map; x and y run from -12 to 12 MU" in line
               for line in lines)
    assert any("fse-tf1 has 7 endurance points; it holds at most 6 (§5.1)" in line
               for line in lines)
    assert any("state/map.yaml" in line and "is off the map; x and y run from -12 to 12 MU"
               in line for line in lines)
    assert any("systems stand further apart" in line for line in lines)


def test_a_tabletop_battle_pauses_the_turn_until_its_result_is_filled_in(tmp_path, run):
    target = tmp_path / "c"
    init(run, target)
    state = load_folder(target).state
    home = state.system(state.player("nac").capital)

    def beside_nac(data):  # the NSL's force stands 2 MU from the NAC's home
        at = position(home)
        data["groups"][1]["at"] = {"x": at.x + 2, "y": at.y}

    _edit(target / "state" / "groups.yaml", beside_nac)
    code, out, err = run("turn", "--early", "--source", target, "--now", NOW)
    assert (code, err) == (0, "")
    assert ("Fill in for each: each ship's 'fate' (afloat, crippled or destroyed) and who "
            "holds the field ('held_by'), then set 'fought: true'") in out
    files = list((target / "battles" / "t001").glob("*.yaml"))
    assert len(files) == 1 and not (target / "state" / "turns" / "t001").exists()
    assert files[0].name == f"{home.id}.yaml"  # the battle is named for where it is
    template = files[0].read_text()
    assert "each ship's 'fate': afloat, crippled or destroyed (sct §6.4)" in template
    assert "fate: afloat" in template and "fought: false" in template
    filled = template.replace("fought: false", "fought: true").replace(
        "held_by:", "held_by: nac", 1)
    first_nsl = next(line for line in filled.splitlines() if "player: nsl" in line)
    filled = filled.replace(first_nsl, first_nsl.replace("fate: afloat", "fate: destroyed"))
    files[0].write_text(filled)
    code, out, err = run("turn", "--early", "--source", target, "--now", NOW)
    assert (code, err) == (0, ""), out
    assert "resolved t001: " in out
    events = (target / "state" / "turns" / "t001" / "events.yaml").read_text()
    # The powers are named in initiative order, and init now gives the campaign a
    # master secret of its own, so the turn's dice (and that order) differ per run.
    nac, nsl = "the New Anglian Confederation", "the Neue Swabian League"
    assert re.search(rf"was fought on the tabletop between ({nsl} and {nac}|{nac} and {nsl}); "
                     rf"{nac} holds the field\.", events)
    assert "The Neue Swabian League's Maximilian 1 is destroyed." in events
    assert f"order: battles/t001/{home.id}.yaml" in events
    assert run("turn", "--verify", "t001", "--source", target)[0] == 0
