"""ftpress turn --redo: a recorded turn and every later one resolved again from their
recorded orders and battle results; records and state rewritten; changes printed."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from battlefixture import NOW, fight
from battlefixture import campaign as campaign  # the fixture, shared with test_battles
from demos import FTCAMP02

from conftest import files_of

LATER = "2026-03-30T09:00:00+00:00"


@pytest.fixture
def played(campaign, run):
    """Turn t002 with its battle fought on the table and recorded, then t003 (no orders)."""
    fight(campaign, run)
    assert run("turn", "--source", campaign, "--now", NOW)[0] == 0
    assert run("turn", "--source", campaign, "--now", LATER)[0] == 0
    assert (campaign / "state/turns/t003").is_dir()
    return campaign


def damage(root: Path, folder: str) -> list[int]:
    groups = yaml.safe_load((root / folder / "groups.yaml").read_text())["groups"]
    return [s.get("damage", 0) for g in groups for s in g["ships"]]


def test_a_redo_that_changes_nothing_writes_nothing(played, run):
    before = files_of(played)
    code, out, err = run("turn", "--source", played, "--redo", "t002")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "t002: unchanged", "t003: unchanged",
        "redid t002–t003 from the recorded orders: nothing changed; nothing was written"]
    assert files_of(played) == before


def test_a_corrected_battle_result_is_redone_through_every_later_turn(played, run):
    result = played / "state/turns/t002/battles/home.yaml"
    result.write_text(result.read_text().replace("damage: 3", "damage: 5"))
    code, out, err = run("turn", "--source", played, "--redo", "t002")
    assert (code, err) == (0, "")
    diff = ["    @@ -4,5 +4,5 @@", "         owner: nac", "         at: home",
            "         ships:", "    -      - {name: g1-1, design: dd, damage: 3}",
            "    +      - {name: g1-1, design: dd, damage: 5}",
            "         revealed: true"]  # the battle was contact (§15.3)
    assert out.splitlines() == [
        "t002: 1 event added, 1 removed; changed: events.yaml, groups.yaml",
        "  + damage: The NAC's g1-1 loses 5 hull boxes.",
        "  - damage: The NAC's g1-1 loses 3 hull boxes.",
        "    --- state/turns/t002/groups.yaml (recorded)",
        "    +++ state/turns/t002/groups.yaml (re-resolved)", *diff,
        "t003: 0 events added, 0 removed; changed: groups.yaml",
        "    --- state/turns/t003/groups.yaml (recorded)",
        "    +++ state/turns/t003/groups.yaml (re-resolved)", *diff,
        "redid t002–t003 from the recorded orders: 2 turns changed; their records and "
        "state/ rewritten"]
    assert damage(played, "state/turns/t002") == [5]
    assert damage(played, "state/turns/t003") == [5]
    assert damage(played, "state") == [5]
    assert (played / "state/groups.yaml").read_bytes() == \
        (played / "state/turns/t003/groups.yaml").read_bytes()
    for turn in ("t002", "t003"):
        assert run("turn", "--source", played, "--verify", turn)[0] == 0
    assert not [p for p in (played / "state/turns").iterdir() if p.name.startswith(".")]
    again = files_of(played)
    assert run("turn", "--source", played, "--redo", "t002")[1].splitlines()[:2] == [
        "t002: unchanged", "t003: unchanged"]
    assert files_of(played) == again


def test_a_redo_from_the_last_turn_leaves_earlier_ones_alone(played, run):
    kept = {p: h for p, h in files_of(played).items() if p.startswith("state/turns/t002/")}
    code, out, _ = run("turn", "--source", played, "--redo", "t003")
    assert code == 0 and out.splitlines()[0] == "t003: unchanged"
    assert {p: h for p, h in files_of(played).items() if p.startswith("state/turns/t002/")} == kept


def test_a_redo_is_refused_when_the_state_was_edited_since(played, run):
    players = played / "state/players.yaml"
    players.write_text(players.read_text().replace("treasury: 1000", "treasury: 999"))
    before = files_of(played)
    code, out, err = run("turn", "--source", played, "--redo", "t002")
    assert (code, out) == (1, "")
    assert err == ("ftpress: state/players.yaml differs from state/turns/t003/players.yaml: "
                   "the state was edited after t003 was recorded; record or undo that edit "
                   "first. Nothing was redone\n")
    assert files_of(played) == before


def test_a_redo_that_would_leave_a_battle_unfought_is_refused(played, run):
    (played / "state/turns/t002/battles/home.yaml").unlink()
    before = files_of(played)
    code, _, err = run("turn", "--source", played, "--redo", "t002")
    assert code == 1
    assert err.startswith("ftpress: redone, t002 has a battle that was never fought: The "
                          "battle at Home between the ESU and the NAC")
    assert files_of(played) == before


@pytest.mark.parametrize(("turn", "message"), [
    ("t009", "ftpress: turn t009 is not recorded; there is no state/turns/t009/\n"),
    ("t000", "ftpress: t000 is the setup, not a turn; redo t001 or later\n"),
    ("7", "ftpress: '7' is not a turn id; expected 't' and the strategic turn's number in "
          "at least three digits, such as 't007'\n"),
])
def test_a_redo_of_no_recorded_turn_is_refused(played, run, turn, message):
    assert run("turn", "--source", played, "--redo", turn) == (1, "", message)


def test_a_sealed_campaigns_redo_keeps_each_players_intelligence(tmp_path, run):
    """The ftcamp02 example was sealed after its turns were resolved from plain orders:
    redone, its records still hold each player's sealed intelligence, unchanged."""
    root = FTCAMP02.sealed_copy(tmp_path / "camp")
    before = files_of(root)
    assert any("/intelligence/" in rel for rel in before)
    code, out, err = run("turn", "--source", root, "--redo", "t001")
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == ("redid t001–t004 from the recorded orders: nothing "
                                    "changed; nothing was written")
    assert files_of(root) == before
