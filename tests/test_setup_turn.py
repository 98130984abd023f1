"""A campaign fresh from ``ftpress init`` plays its set-up and then a turn like any
other, from order files, in every ruleset: in ftc2007 the set-up turn t001 spends
each power's starting capital by its order file (§6); in sct and ftcamp02 init
gives the starting forces (their rulebooks say why) and t001 is an ordinary turn.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from pyrage import x25519

NOW = "2026-03-01T10:00:00+00:00"
#: After t001's deadline (a week and a day after NOW, 20:00), and after t002's.
AFTER_T001 = "2026-03-08T21:00:00+00:00"
AFTER_T002 = "2026-03-15T21:00:00+00:00"


def _init(run, root: Path, ruleset: str, secrecy: str = "open") -> None:
    """A new campaign; open, so that the tests read its state files as they are (a
    sealed one's set-up is played in :func:`test_a_sealed_campaign_sets_up_by_sealed_orders`)."""
    code, out, err = run("init", root, "--players", "nac,esu", "--seed", "42", "--now", NOW,
                         "--ruleset", ruleset, "--secrecy", secrecy)
    assert (code, err) == (0, ""), err
    assert "tell the players:" in out.splitlines()[-1]


def _state(root: Path, kind: str) -> dict:
    return yaml.safe_load((root / f"state/{kind}.yaml").read_text())


def _resolve(run, root: Path, now: str, turn: str) -> None:
    code, out, err = run("turn", "--source", root, "--now", now)
    assert (code, err) == (0, ""), err
    assert out.startswith(f"resolved {turn}: ")
    assert run("turn", "--verify", turn, "--source", root) == (
        0, f"verified {turn}: re-resolving it gives the recorded result exactly\n", "")


def _setup_file(root: Path) -> str:
    """nac's set-up: a battleship and two destroyers at its capital, her dummy at
    another of its worlds, spares and defences."""
    players = {p["id"]: p for p in _state(root, "players")["players"]}
    capital = players["nac"]["capital"]
    other = next(s["id"] for s in _state(root, "map")["systems"]
                 if s.get("owner") == "nac" and s["id"] != capital)
    return f"""\
turn: t001
player: nac
setup:
  groups:
    nac-1:
      at: {capital}
      ships:
        - {{design: nac-victoria, name: Victoria}}
        - {{design: nac-ticonderoga, name: Halberd}}
        - {{design: nac-ticonderoga, name: Pike}}
    nac-2: {{at: {other}, dummy: true}}
  spares: [{{at: {capital}, points: 200}}]
  defences: [{{system: {other}, points: 20}}]
economy: {{maintenance: reduced}}
"""


def test_ftc2007_plays_its_set_up_turn_then_a_week(tmp_path, run):
    root = tmp_path / "c"
    _init(run, root, "ftc2007")
    capital = {p["id"]: p["treasury"] for p in _state(root, "players")["players"]}
    # The set-up form passes the check as written, and buys nothing.
    assert run("orders", "new", "esu", "--source", root)[0] == 0
    form = (root / "orders/t001/esu.yaml").read_text()
    assert f"spend your starting capital of {capital['esu']:,}" in form
    capital_world = next(p["capital"] for p in _state(root, "players")["players"]
                         if p["id"] == "esu")
    assert f"({capital_world}, capital, income " in form  # where it may place
    assert "# designs you may buy (esu): esu-lenov (SC, " in form  # the catalogue
    assert re.search(r"esu-lenov \(SC, \d+ points\)", form)  # the price says what it is
    code, out, err = run("check", root / "orders/t001/esu.yaml", "--source", root)
    assert (code, err) == (0, "")
    assert f"{capital['esu']:,} is kept as reserve cash (§6.2.3)" in out
    orders = root / "orders/t001/nac.yaml"
    orders.write_text(_setup_file(root))
    code, out, err = run("check", orders, "--source", root)
    assert (code, err) == (0, ""), out
    assert "The set-up spends 823 of" in out
    (root / "orders/t001/esu.yaml").unlink()  # esu sends nothing
    _resolve(run, root, AFTER_T001, "t001")
    groups = {g["id"]: g for g in _state(root, "groups")["groups"]}
    assert [s["name"] for s in groups["nac-1"]["ships"]] == ["Victoria", "Halberd", "Pike"]
    assert groups["nac-2"]["dummy"] is True and "esu-1" not in groups
    treasury = {p["id"]: p["treasury"] for p in _state(root, "players")["players"]}
    # 435 + 109 + 109 on ships, 150 for 200 points of spares, 20 of defences.
    assert treasury == {"nac": capital["nac"] - 823, "esu": capital["esu"]}
    events = yaml.safe_load((root / "state/turns/t001/events.yaml").read_text())["events"]
    kinds = [e["kind"] for e in events]
    assert kinds.count("setup-ship") == 3 and kinds.count("setup-reserve") == 2
    # The published copy of the set-up shows where counters start, not what they are.
    code, _, err = run("build", "--source", root, "--out", tmp_path / "site", "--now",
                       AFTER_T001)
    assert (code, err) == (0, "")
    public = (tmp_path / "site/turns/t001/orders/nac.yaml").read_text()
    assert "    nac-1:\n      at: " in public
    assert "spares:" not in public  # what a power spends is its own (§5.4)
    for secret in ("Victoria", "nac-victoria", "dummy", "[hidden]"):
        assert secret not in public
    # A normal week: each player's form, as written, holds; nac's counters are on it.
    for player in ("nac", "esu"):
        assert run("orders", "new", player, "--source", root)[0] == 0
    assert "  nac-1:\n    hold: true" in (root / "orders/t002/nac.yaml").read_text()
    _resolve(run, root, AFTER_T002, "t002")
    assert _state(root, "campaign")["calendar"]["turn"] == 3
    assert run("check", "--source", root) == (0, "checked the campaign: no problems\n", "")


@pytest.mark.parametrize("ruleset", ["sct", "ftcamp02"])
def test_given_forces_play_turn_one_as_an_ordinary_turn(tmp_path, run, ruleset):
    root = tmp_path / "c"
    _init(run, root, ruleset)
    start = {g["id"] for g in _state(root, "groups")["groups"]}
    assert {g.split("-")[0] for g in start} == {"nac", "esu"}  # init gave both forces
    for turn, now in (("t001", AFTER_T001), ("t002", AFTER_T002)):
        for player in ("nac", "esu"):
            assert run("orders", "new", player, "--source", root)[0] == 0
            path = root / f"orders/{turn}/{player}.yaml"
            assert run("check", path, "--source", root)[0] == 0
        _resolve(run, root, now, turn)
    assert {g["id"] for g in _state(root, "groups")["groups"]} == start
    assert run("check", "--source", root) == (0, "checked the campaign: no problems\n", "")


def test_sct_forces_are_the_ones_its_rulebook_states(tmp_path, run):
    """Rule 1.1's ruling: a home system of EV 400 with depot, base and shipyard, one
    task force of BC, CL, DD, DD, FF there, endurance full, and an empty treasury."""
    root = tmp_path / "c"
    _init(run, root, "sct")
    designs = {d["id"]: d for d in _state(root, "designs")["designs"]}
    systems = {s["id"]: s for s in _state(root, "map")["systems"]}
    for player in _state(root, "players")["players"]:
        assert player["treasury"] == 0
        home = systems[player["capital"]]
        assert (home["income"], home["depot"], home["base"], home["shipyard"]) == (
            400, True, True, True)
        (force,) = [g for g in _state(root, "groups")["groups"] if g["owner"] == player["id"]]
        assert force["at"] == home["id"] and force["endurance"] == 6
        assert [designs[s["design"]]["size"] for s in force["ships"]] == [
            "BC", "CL", "DD", "DD", "FF"]


def test_ftcamp02_forces_are_the_ones_its_rulebook_states(tmp_path, run):
    """Rule 1's note: a cruiser and two destroyers; three frigates; a courier; stores full."""
    root = tmp_path / "c"
    _init(run, root, "ftcamp02")
    players = {p["id"]: p["capital"] for p in _state(root, "players")["players"]}
    groups = _state(root, "groups")["groups"]
    for player, home in players.items():
        mine = [g for g in groups if g["owner"] == player]
        assert [[s["design"] for s in g["ships"]] for g in mine] == [
            ["cruiser", "destroyer", "destroyer"], ["frigate"] * 3, ["courier"]]
        assert all(g["at"] == home and g["endurance"] > 0 for g in mine)


def test_a_sealed_campaign_sets_up_by_sealed_orders(tmp_path, run):
    """init's default for ftc2007 is sealed: the set-up file is sealed by its player
    (checked as it is sealed), resolved with the umpire's key, and verified; the
    public state shows the counters placed and nothing of what they are."""
    root = tmp_path / "c"
    _init(run, root, "ftc2007", "sealed")
    nac = x25519.Identity.generate()
    (root / "nac.key").write_text(f"{nac}\n")
    # The player's recipient is recorded through the store (projection and twin
    # together), never by editing the plain file, which is only the projection.
    assert run("roster", "key", "nac", str(nac.to_public()), "--source", root)[0] == 0
    orders = root / "orders/t001/nac.yaml"
    orders.parent.mkdir(parents=True, exist_ok=True)
    orders.write_text(_setup_file(root).replace("nac-victoria", "nsl-waldburg"))
    code, _, err = run("seal", orders, "--identity", root / "nac.key", "--source", root)
    assert code == 1 and "is a nsl design; you buy the designs of your own navy" in err
    orders.write_text(_setup_file(root))
    code, _, err = run("seal", orders, "--identity", root / "nac.key", "--source", root)
    assert (code, err) == (0, ""), err
    orders.unlink()  # only the sealed file is sent
    _resolve(run, root, AFTER_T001, "t001")
    public = _state(root, "groups")["groups"]
    assert [(g["owner"], "ships" in g) for g in public] == [("nac", False), ("nac", False)]
    assert b"Victoria" not in (root / "state/groups.yaml").read_bytes()
