"""The campaign state: loading with located problems, checking across files,
canonical saving; every bad input gives its `path:line:col` and exit 1."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from demos import FTC2007
from hypothesis import given, settings
from hypothesis import strategies as st

from ftpress.state.hexes import Hex
from ftpress.state.model import Group, Ship
from ftpress.state.save import dump, save_state
from ftpress.state.turns import turn_id, turn_number
from ftpress.store.campaign import load_folder

from conftest import REPO
from statefiles import CAMPAIGN, GROUPS, MAP, PLAYERS, STATE, sub


def check(run, root: Path) -> tuple[int, str, str]:
    return run("check", "--source", root)


def test_a_good_state_checks_clean_and_builds(campaign, run):
    root = campaign(STATE)
    assert check(run, root) == (0, "checked the campaign: no problems\n", "")
    code, _, err = run("build", "--source", root, "--out", root.parent / "out", "--now",
                       "2026-04-01")
    assert (code, err) == (0, "")
    assert (root.parent / "out/players/nac/index.html").is_file()
    assert (root.parent / "out/systems/index.html").is_file()
    assert (root.parent / "out/schemas/groups.json").is_file()


CASES = {
    "duplicate key": (
        {"state/players.yaml": sub(PLAYERS, "    navy: nac\n", "    navy: nac\n    name: NAC\n")},
        "state/players.yaml:8:5: duplicate key 'name' (first given on line 3); give each key once",
    ),
    "tab indentation": (
        {"state/groups.yaml": sub(GROUPS, "    owner: nac", "\towner: nac")},
        "state/groups.yaml:3:1: YAML syntax error: found a tab character that violates "
        "indentation; indent with spaces, not tabs",
    ),
    "not utf-8": (
        {"state/map.yaml": MAP.replace("Far", "F\xe9r").encode("latin-1")},
        "state/map.yaml:5:22: byte 0xe9 is not valid UTF-8; save the file as UTF-8",
    ),
    "alias bomb": (
        {"state/groups.yaml": "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a]\n"
                              "c: &c [*b, *b, *b, *b]\ngroups: [*c, *c, *c]\n"},
        "state/groups.yaml:1:4: YAML anchors and aliases are not allowed here; write the value "
        "out in full",
    ),
    "negative treasury": (
        {"state/players.yaml": sub(PLAYERS, "treasury: 600", "treasury: -50")},
        "state/players.yaml:11:15: players[1].treasury: input should be greater than or equal "
        "to 0, got -50",
    ),
    "hex off the map": (
        {"state/map.yaml": sub(MAP, "hex: [1, 0]", "hex: [4, 3]")},
        "state/map.yaml:5:31: hex (4, 3) is off the map; a radius-5 map holds hexes at most 5 "
        "from (0, 0)",
    ),
    "not a hex": (
        {"state/map.yaml": sub(MAP, "hex: [1, 0]", "hex: [1, 0, 2]")},
        "state/map.yaml:5:31: systems[2].hex: expected a hex as [q, r], such as [2, -1], "
        "got [1, 0, 2]",
    ),
    "id climbing out with ../": (
        {"state/groups.yaml": sub(GROUPS, "id: g1", "id: ../../etc")},
        "state/groups.yaml:2:9: groups[0].id: '../../etc' is not an id; expected lowercase "
        "letters, digits and hyphens, such as 'kessel-drift'",
    ),
    "id with spaces": (
        {"state/map.yaml": sub(MAP, "id: far", "id: far away")},
        "state/map.yaml:5:10: systems[2].id: 'far away' is not an id; expected lowercase "
        "letters, digits and hyphens, such as 'kessel-drift'",
    ),
    "unknown owner": (
        {"state/groups.yaml": sub(GROUPS, "owner: nac", "owner: nsl")},
        "state/groups.yaml:3:12: unknown owner 'nsl'; expected one of the players in "
        "players.yaml: esu, nac",
    ),
    "unknown design": (
        {"state/groups.yaml": sub(GROUPS, "design: dd", "design: bb")},
        "state/groups.yaml:6:29: unknown design 'bb'; expected a design id from designs.yaml",
    ),
    "group at an unknown system": (
        {"state/groups.yaml": sub(GROUPS, "at: home", "at: nowhere")},
        "state/groups.yaml:4:9: unknown system 'nowhere'; expected a system id from map.yaml",
    ),
    "group in a hex off the map": (
        {"state/groups.yaml": sub(GROUPS, "at: home", "at: [0, 9]")},
        "state/groups.yaml:4:9: hex (0, 9) is off the map; a radius-5 map holds hexes at most 5 "
        "from (0, 0)",
    ),
    "planar geometry for ftc2007": (
        {"state/map.yaml": "geometry: plane\n" + MAP},
        "state/map.yaml:1:11: geometry 'plane': ftc2007 is played on a hex map, so leave out "
        "'geometry'",
    ),
    "group at a planar point on ftc2007's hex map": (
        {"state/groups.yaml": sub(GROUPS, "at: home", "at: {x: 1, y: 2.5}")},
        "state/groups.yaml:4:9: g1 is at (1, 2.5), a point; ftc2007 is played on a hex map, so "
        "give a system id or a hex [q, r]",
    ),
    "group in a world's hex by number": (
        {"state/groups.yaml": sub(GROUPS, "at: home", "at: [0, 0]")},
        "state/groups.yaml:4:9: hex (0, 0) is Home; write 'at: home'",
    ),
    "route to a world that is not there": (
        {"state/map.yaml": sub(MAP, "[[home, far]]", "[[home, nowhere]]")},
        "state/map.yaml:8:20: unknown system 'nowhere'; expected a system id from map.yaml",
    ),
    "two groups with one id": (
        {"state/groups.yaml": GROUPS + "  - id: g1\n    owner: esu\n    at: east\n"
                              "    dummy: true\n"},
        "state/groups.yaml:7:9: duplicate group id 'g1' (first given on line 2); give each "
        "group its own id",
    ),
    "two systems in one hex": (
        {"state/map.yaml": sub(MAP, "hex: [1, 0]", "hex: [0, 0]")},
        "state/map.yaml:5:31: hex (0, 0) already holds 'home'; one system to a hex",
    ),
    "capital held by someone else": (
        {"state/players.yaml": sub(PLAYERS, "capital: east", "capital: home")},
        "state/players.yaml:12:14: capital 'home' is held by 'nac'; a player's capital is one "
        "of their own worlds",
    ),
    "ship damaged past its hull": (
        {"state/groups.yaml": sub(GROUPS, "design: dd}", "design: dd, damage: 10}")},
        "state/groups.yaml:6:41: damage 10 destroys a ship of 10 hull boxes; remove the ship "
        "instead",
    ),
    "dummy with ships": (
        {"state/groups.yaml": sub(GROUPS, "    at: home\n", "    at: home\n    dummy: true\n")},
        "state/groups.yaml:7:7: a dummy counter has no ships; remove the ships or 'dummy: true'",
    ),
    "unknown key": (
        {"state/players.yaml": sub(PLAYERS, "    navy: nac\n", "    navvy: nac\n")},
        "state/players.yaml:7:5: unknown key 'navvy'; did you mean 'navy'?",
    ),
    "deadline without a time zone": (
        {"state/campaign.yaml": sub(CAMPAIGN, "20:00:00+00:00", "20:00:00")},
        "state/campaign.yaml:8:13: calendar.deadline: input should have timezone info, got "
        "'2026-03-15T20:00:00'",
    ),
    "economic turn that does not match": (
        {"state/campaign.yaml": sub(CAMPAIGN, "economic_turn: 1", "economic_turn: 2")},
        "state/campaign.yaml:7:18: strategic turn 1 is in economic turn 1 (6 strategic turns to "
        "an economic turn), not 2",
    ),
    "unknown ruleset": (
        {"state/campaign.yaml": sub(CAMPAIGN, "ruleset: ftc2007", "ruleset: starfleet")},
        "state/campaign.yaml:3:10: unknown ruleset 'starfleet'; expected one of ftc2007, "
        "ftcamp02, sct",
    ),
    "more dummies than capital ships (ftc2007 §15.2)": (
        {"state/groups.yaml": GROUPS + "  - id: g2\n    owner: nac\n    at: home\n"
                              "    dummy: true\n"},
        "state/groups.yaml:10:12: 'nac' has 1 dummy counters but 0 capital ships; one dummy per "
        "capital ship (§15.2)",
    ),
    "treasury that does not add up at setup (ftc2007 §6)": (
        {"state/players.yaml": sub(PLAYERS, "treasury: 792", "treasury: 900")},
        "state/players.yaml:5:15: treasury 900 does not add up: 'nac' started with 900 (§6.1), "
        "so after ships, freighters, defences and spares the treasury should be 792",
    ),
    "missing file": (
        {"state/designs.yaml": None},
        "state/designs.yaml: missing; expected the ship designs in use",
    ),
    "stray file": (
        {"state/grups.yaml": "groups: []\n"},
        "state/grups.yaml: not a state file; expected only campaign.yaml, designs.yaml, "
        "groups.yaml, map.yaml, players.yaml, queues.yaml and turns/",
    ),
    "misnamed turn folder": (
        {"state/turns/turn-1/campaign.yaml": CAMPAIGN},
        "state/turns/turn-1: 'turn-1' is not a turn id; expected 't' and the strategic turn's "
        "number in at least three digits, such as 't007'",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_state_is_reported_with_its_line(campaign, run, name):
    changes, expected = CASES[name]
    root = campaign({**STATE, **{k: v for k, v in changes.items() if v is not None}})
    for rel, text in changes.items():
        if text is None:
            (root / rel).unlink()
    code, stdout, stderr = check(run, root)
    assert code == 1
    assert expected + "\n" in stderr
    assert "Traceback" not in stderr and stdout == ""
    code, _, stderr = run("build", "--source", root, "--out", root.parent / "out")
    assert code == 1 and expected in stderr
    assert not (root.parent / "out").exists()


def test_a_50_megabyte_state_file_is_refused_without_reading_it(campaign, run):
    root = campaign(STATE)
    with (root / "state/groups.yaml").open("ab") as handle:
        handle.truncate(50 * 1024 * 1024)
    code, _, stderr = check(run, root)
    assert code == 1
    assert stderr.startswith("state/groups.yaml: file is 50 MB; expected at most 4 MB "
                             "for a hand-written file\n")


def test_every_problem_in_every_file_at_once(campaign, run):
    root = campaign({**STATE,
                     "state/players.yaml": sub(PLAYERS, "treasury: 600", "treasury: -1"),
                     "state/groups.yaml": sub(sub(GROUPS, "at: home", "at: zzz"),
                                              "design: dd", "design: qq"),
                     "state/map.yaml": sub(MAP, "hex: [1, 0]", "hex: [9, 9]")})
    code, _, stderr = check(run, root)
    assert code == 1
    assert [line.split(": ")[0] for line in stderr.splitlines()[:-1]] == [
        "state/groups.yaml:4:9", "state/groups.yaml:6:29", "state/map.yaml:5:31",
        "state/players.yaml:11:15"]
    assert stderr.splitlines()[-1] == "ftpress: 4 problems in the campaign"


def test_check_names_files(campaign, run):
    root = campaign({**STATE, "state/groups.yaml": sub(GROUPS, "owner: nac", "owner: zzz"),
                     "state/map.yaml": sub(MAP, "hex: [1, 0]", "hex: [9, 9]")})
    code, _, stderr = run("check", "--source", root, root / "state/map.yaml")
    assert code == 1
    assert stderr.splitlines() == [
        "state/map.yaml:5:31: hex (9, 9) is off the map; a radius-5 map holds hexes at most 5 "
        "from (0, 0)", "ftpress: 1 problem in 1 file"]
    code, out, _ = run("check", "--source", root, root / "state/players.yaml")
    assert (code, out) == (0, "checked 1 file: no problems\n")
    (root / "orders/t001").mkdir(parents=True)
    (root / "orders/t001/nac.yaml").write_text("moves: []\n")
    code, _, stderr = run("check", "--source", root, root / "orders/t001/nac.yaml",
                          root / "missing.yaml")
    assert code == 1
    assert "orders/t001/nac.yaml:1:1: missing required key 'turn'" in stderr
    assert f"{root / 'missing.yaml'}: no such file" in stderr


def test_turn_snapshots_are_checked_too(campaign, run):
    root = campaign({**STATE, **{f"state/turns/t000/{k.split('/')[1]}": v
                                 for k, v in STATE.items()}})
    assert check(run, root)[0] == 0
    (root / "state/turns/t000/groups.yaml").write_text(sub(GROUPS, "owner: nac", "owner: q"))
    code, _, stderr = check(run, root)
    assert code == 1
    assert stderr.startswith("state/turns/t000/groups.yaml:3:12: unknown owner 'q'")


# --- load → save → load ----------------------------------------------------------------

def test_round_trip_is_the_identity_and_canonical(campaign):
    root = campaign(STATE)
    first = load_folder(root).state
    out = root.parent / "copy"
    save_state(out, first)
    second = load_folder(out).state
    assert second == first
    again = root.parent / "again"
    save_state(again, second)
    for name in ("campaign", "players", "map", "designs", "groups", "queues"):
        assert (out / f"state/{name}.yaml").read_bytes() == \
            (again / f"state/{name}.yaml").read_bytes()


def test_canonical_form_reads_well():
    state = load_folder(REPO).state if (REPO / "state").is_dir() else None
    if state is None:
        pytest.skip("the demo has no state yet")
    text = dump(state.groups)
    assert "&" not in text and "*" not in text
    assert text.startswith("groups:\n  - id: ")


def test_the_demo_state_round_trips(tmp_path):
    if not (REPO / "state").is_dir():
        pytest.skip("the demo has no state yet")
    FTC2007.copy(tmp_path)  # the whole files (a sealed demo's twins, opened)
    loaded = load_folder(tmp_path).state
    whole = {kind: (tmp_path / f"state/{kind}.yaml").read_text()
             for kind in ("players", "map", "designs", "groups", "queues")}
    save_state(tmp_path, loaded)
    assert load_folder(tmp_path).state == loaded
    for kind, text in whole.items():
        assert (tmp_path / f"state/{kind}.yaml").read_text() == text.split("\n", 1)[1]


names = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")),
                min_size=1, max_size=30).map(str.strip).filter(bool)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(names, st.integers(0, 9)), min_size=1, max_size=5, unique_by=lambda t: t[0]),
       st.sampled_from(["home", Hex(0, -1), Hex(-3, 2)]))
def test_any_group_round_trips(tmp_path_factory, ships, where):
    root = tmp_path_factory.mktemp("rt")
    for rel, text in STATE.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    state = load_folder(root).state
    group = Group("g1", "nac", where, tuple(Ship(n, "dd", d) for n, d in ships))
    changed = replace(state, groups=replace(state.groups, groups=(group,)))
    save_state(root, changed)
    assert load_folder(root).state == changed


@pytest.mark.parametrize(("number", "text"), [(0, "t000"), (7, "t007"), (123, "t123"),
                                              (1000, "t1000")])
def test_turn_ids(number, text):
    assert turn_id(number) == text
    assert turn_number(text) == number


@pytest.mark.parametrize("text", ["t7", "t0001", "turn-1", "T001", "t-01", "001"])
def test_malformed_turn_ids(text):
    with pytest.raises(ValueError, match="is not a turn id"):
        turn_number(text)
