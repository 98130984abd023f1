"""Every problem of an order file at once, in the words a player sees: a mistake in
the form of one group hides no problem of another, nor a wrong turn or player;
slips of indentation say what to fix; a misspelt id or a display name gets "did you
mean"; a move out of range says where the group can go."""

from __future__ import annotations

from pathlib import Path

import pytest
from demos import FTCAMP02, SCT

from conftest import set_up_demo

#: The demo as set up: turn t001 open, nac's groups nac-1 … nac-5 at Arcturus Gate.
NAC = "orders/t001/nac.yaml"

CASES = {
    "a key typo hides neither an unknown group nor a wrong turn": (
        "turn: t002\nplayer: nac\ngroups:\n  nac-1:\n    mvoe: bellwether\n"
        "    posture: stand-off\n  nac-7:\n    hold: true\n",
        ["orders/t001/nac.yaml:1:7: these orders are for t002 but the file is in "
         "orders/t001/; move the file or correct the turn",
         "orders/t001/nac.yaml:5:5: unknown key 'mvoe'; did you mean 'move'?",
         "orders/t001/nac.yaml:7:3: there is no group 'nac-7'; your groups are nac-1, "
         "nac-2, nac-3, nac-4, nac-5"]),
    "a wrong player and a wrong order in another group": (
        "turn: t001\nplayer: nsl\ngroups:\n  nac-1:\n    move: bellwether\n"
        "    posture: sideways\n  nac-2:\n    move: nowhere-at-all\n    posture: attack\n",
        ["orders/t001/nac.yaml:2:9: these orders are by 'nsl' but the file is nac.yaml; "
         "name the file nsl.yaml or correct the player",
         "orders/t001/nac.yaml:6:14: groups.nac-1.posture: input should be 'stand-off', "
         "'attack' or 'withdraw-if-contested', got 'sideways'",
         "orders/t001/nac.yaml:8:11: there is no world 'nowhere-at-all' on the map"]),
    "a group with two orders and a group of another player's": (
        "turn: t001\nplayer: nac\ngroups:\n  nac-1:\n    move: bellwether\n    hold: true\n"
        "    posture: attack\n  nsl-1:\n    hold: true\n",
        ["orders/t001/nac.yaml:6:5: group 'nac-1' is given both 'move' and 'hold'; give "
         "exactly one of 'move', 'scout' or 'hold'",
         "orders/t001/nac.yaml:8:3: group 'nsl-1' is nsl's, not yours; you can order only "
         "your own groups"]),
    "a misspelt world id": (
        "turn: t001\nplayer: nac\ngroups:\n  nac-1:\n    move: belwether\n"
        "    posture: attack\n",
        ["orders/t001/nac.yaml:5:11: there is no world 'belwether' on the map; did you mean "
         "'bellwether'?"]),
    "a world by its display name": (
        "turn: t001\nplayer: nac\ngroups:\n  nac-1:\n    move: Bellwether\n"
        "    posture: attack\n  nac-2:\n    scout: Arcturus Gate\n    posture: attack\n",
        ["orders/t001/nac.yaml:5:11: there is no world 'Bellwether' on the map; did you mean "
         "'bellwether'?",
         "orders/t001/nac.yaml:8:12: there is no world 'Arcturus Gate' on the map; did you "
         "mean 'arcturus-gate'?"]),
    "a misspelt group id, and one among many alike": (
        "turn: t001\nplayer: nac\ngroups:\n  nca-1:\n    hold: true\n  nac-9:\n    hold: true\n",
        ["orders/t001/nac.yaml:4:3: there is no group 'nca-1' (did you mean 'nac-1'?); your "
         "groups are nac-1, nac-2, nac-3, nac-4, nac-5",
         "orders/t001/nac.yaml:6:3: there is no group 'nac-9'; your groups are nac-1, nac-2, "
         "nac-3, nac-4, nac-5"]),
    "a misspelt route": (
        "turn: t001\nplayer: nac\ngroups:\n  nac-1:\n    move: beacon\n    route: route3\n"
        "    posture: attack\n",
        None),  # only its first words are fixed: the routes listed are the map's
    "a move out of range lists where the group can go": (
        "turn: t001\nplayer: nac\ngroups:\n  nac-1:\n    move: marrow\n    posture: attack\n",
        None),
    "a key indented too little": (
        "turn: t001\nplayer: nac\ngroups:\n  nac-1:\n    move: bellwether\n"
        "   posture: attack\n",
        ["orders/t001/nac.yaml:6:4: YAML syntax error: this line is indented 3 spaces: more "
         "than the keys of the mapping from line 4 (2 spaces), less than the line above (4 "
         "spaces); line it up with the keys it belongs with"]),
    "a key indented too far": (
        "turn: t001\nplayer: nac\ngroups:\n  nac-1:\n    move: bellwether\n"
        "      posture: attack\n",
        ["orders/t001/nac.yaml:6:14: YAML syntax error: this key is indented 6 spaces, "
         "further than the line above, which already has its value: line it up with the "
         "keys above (4 spaces), or give the line above no value to put this under it"]),
    "a group's orders not indented under it": (
        "turn: t001\nplayer: nac\ngroups:\n  nac-1:\n  hold: true\n",
        ["orders/t001/nac.yaml:4:9: groups.nac-1: nothing is given here; expected keys such "
         "as 'move', 'route', 'scout' indented under it",
         "orders/t001/nac.yaml:5:3: there is no group 'hold'; your groups are nac-1, nac-2, "
         "nac-3, nac-4, nac-5",
         "orders/t001/nac.yaml:5:9: groups.hold: expected keys such as 'move', 'route', "
         "'scout' indented under it, got True"]),
    "a colon inside a note": (
        "turn: t001\nplayer: nac\nnote: Plan: hold the line\n",
        ["orders/t001/nac.yaml:3:11: YAML syntax error: a ': ' inside a value reads as "
         "another key: put the value in quotes"]),
}


def check(run, root: Path, rel: str) -> tuple[int, list[str]]:
    code, _, stderr = run("check", "--source", root, root / rel)
    return code, [line for line in stderr.splitlines() if not line.startswith("ftpress:")]


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_problem_of_an_order_file_is_reported_at_once(tmp_path, run, name):
    text, expected = CASES[name]
    root = set_up_demo(tmp_path / "campaign")
    (root / NAC).write_text(text)
    code, found = check(run, root, NAC)
    assert code == 1
    if expected is not None:
        assert found == expected
    elif "route" in name:
        assert found[0].startswith("orders/t001/nac.yaml:6:12: there is no charted route "
                                   "'route3' (did you mean 'route-3'?); the routes are route-1, ")
    else:
        assert found == ["orders/t001/nac.yaml:5:11: Marrow is 9 hexes from Arcturus Gate; a "
                         "jump crosses one hex, or up to 2 between two worlds (§8.1); further "
                         "takes a charted route (§8.2) or more weeks. In reach this week: "
                         + found[0].split("In reach this week: ", 1)[1]]
        reach = found[0].split("In reach this week: ", 1)[1]
        assert "Bellwether (bellwether)" in reach
        assert "Marrow" not in reach


def test_a_task_force_misspelt_in_sct(tmp_path, run):
    root = SCT.copy(tmp_path / "sct")
    rel = "orders/t004/nac.yaml"
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text("turn: t004\nplayer: nac\nforces:\n  nac-tf:\n    move: 3/1\n"
                            "  nac-tf1:\n    move: 3/1\n    toward: Cedar Point\n"
                            "    engagee: true\n")
    code, found = check(run, root, rel)
    assert code == 1
    assert found == [
        "orders/t004/nac.yaml:4:3: there is no task force 'nac-tf' (did you mean "
        "'nac-tf1'?); expected one of your task forces: nac-1-1, nac-tf1",
        "orders/t004/nac.yaml:9:5: unknown key 'engagee'; did you mean 'engage'?"]


def test_a_group_and_a_system_misspelt_in_ftcamp02(tmp_path, run):
    root = FTCAMP02.copy(tmp_path / "ftcamp02")
    rel = "orders/t005/nac.yaml"
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text("turn: t005\nplayer: nac\ngroups:\n  nac1:\n    hold: nothing\n"
                            "  nac-2:\n    move: Heronn\n")
    code, found = check(run, root, rel)
    assert code == 1
    assert found == [
        "orders/t005/nac.yaml:4:3: no group 'nac1' (did you mean 'nac-1'?); expected one of "
        "your groups: nac-1, nac-2, nac-3, nac-4",
        "orders/t005/nac.yaml:7:11: no system 'Heronn' (did you mean 'heron'?); expected a "
        "system id or a hex such as (2, -1)"]


@pytest.mark.parametrize(("written", "known", "meant"), [
    ("kesel-drift", [("kessel-drift", "Kessel Drift"), ("marrow", "Marrow")], "kessel-drift"),
    ("Kessel Drift", [("kessel-drift", "Kessel Drift")], "kessel-drift"),
    ("KESSEL-DRIFT", [("kessel-drift", "Kessel Drift")], "kessel-drift"),
    ("nca", [("nac", "New Anglian Confederation"), ("nsl", "Neue Swabian League")], "nac"),
    ("nac-7", [(f"nac-{i}", "") for i in range(1, 7)], None),  # all alike: no guess
    ("tf9", [("tf1", "")], None),
    ("kessel-drift", [("kessel-drift", "Kessel Drift")], None),  # right already
    (7, [("seven", "Seven")], None),
])
def test_did_you_mean_guesses_only_one_likely_id(written, known, meant):
    from ftpress.rules.suggest import closest
    assert closest(written, known) == meant


def test_one_file_with_one_problem_of_each_kind_reports_them_all_in_ftc2007(tmp_path, run):
    """A wrong turn, a wrong player, a misspelt key, a negative number, a group the player
    does not own and a move to an unknown world: all six in one run (a wrong economy
    block once hid the last two, which only the legality check finds)."""
    root = set_up_demo(tmp_path / "campaign")
    (root / NAC).write_text(
        "turn: t002\nplayer: nsl\neconomy:\n  ordnance: -5\ngroups:\n  nac-1:\n"
        "    mvoe: bellwether\n    posture: attack\n  nsl-1:\n    hold: true\n  nac-2:\n"
        "    move: nowhere-at-all\n    posture: attack\n")
    code, found = check(run, root, NAC)
    assert code == 1
    assert found == [
        "orders/t001/nac.yaml:1:7: these orders are for t002 but the file is in orders/t001/; "
        "move the file or correct the turn",
        "orders/t001/nac.yaml:2:9: these orders are by 'nsl' but the file is nac.yaml; name "
        "the file nsl.yaml or correct the player",
        "orders/t001/nac.yaml:4:13: economy.ordnance: input should be greater than or equal "
        "to 1, got -5",
        "orders/t001/nac.yaml:7:5: unknown key 'mvoe'; did you mean 'move'?",
        "orders/t001/nac.yaml:9:3: group 'nsl-1' is nsl's, not yours; you can order only "
        "your own groups",
        "orders/t001/nac.yaml:12:11: there is no world 'nowhere-at-all' on the map"]


#: sct and ftcamp02 order files hold no number (their moves are written as text), so
#: their file has one of each of the other kinds.
EACH_KIND = {
    "sct": (SCT, "orders/t004/nac.yaml",
            "turn: t005\nplayer: esu\nforces:\n  nac-tf1:\n    move: 3/1\n    engagee: true\n"
            "  nac-1-1:\n    move: 3/1\n    toward: Nowhere Atall\n  esu-1-1:\n    move: 3/1\n",
            ["orders/t004/nac.yaml:1:7: these orders are for t005 but the file is in "
             "orders/t004/; move the file or correct the turn",
             "orders/t004/nac.yaml:2:9: these orders are by 'esu' but the file is nac.yaml; "
             "name the file esu.yaml or correct the player",
             "orders/t004/nac.yaml:6:5: unknown key 'engagee'; did you mean 'engage'?",
             "orders/t004/nac.yaml:9:13: there is no system or task force 'Nowhere Atall' to "
             "aim at",
             "orders/t004/nac.yaml:10:3: task force 'esu-1-1' is esu's, not yours; expected "
             "one of your task forces: nac-1-1, nac-tf1"]),
    "ftcamp02": (FTCAMP02, "orders/t005/nac.yaml",
                 "turn: t006\nplayer: esu\ngroups:\n  nac-1:\n    hold: nothing\n    holdd: x\n"
                 "  esu-1:\n    maintain_orbit: true\n  nac-2:\n    move: nowhere-atall\n",
                 ["orders/t005/nac.yaml:1:7: these orders are for t006 but the file is in "
                  "orders/t005/; move the file or correct the turn",
                  "orders/t005/nac.yaml:2:9: these orders are by 'esu' but the file is "
                  "nac.yaml; name the file esu.yaml or correct the player",
                  "orders/t005/nac.yaml:4:3: nac-1 is given no order; give exactly one of "
                  "move, support, maintain_orbit and hold (§4.0)",
                  "orders/t005/nac.yaml:6:5: unknown key 'holdd'; did you mean 'hold'?",
                  "orders/t005/nac.yaml:7:3: esu-1 belongs to esu; you can order only your own "
                  "groups",
                  "orders/t005/nac.yaml:10:11: no system 'nowhere-atall'; expected a system id "
                  "or a hex such as (2, -1)"]),
}


@pytest.mark.parametrize("ruleset", sorted(EACH_KIND))
def test_one_file_with_one_problem_of_each_kind_reports_them_all(tmp_path, run, ruleset):
    demo, rel, text, expected = EACH_KIND[ruleset]
    root = demo.copy(tmp_path / ruleset)
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text(text)
    code, found = check(run, root, rel)
    assert code == 1
    assert found == expected
