"""Hidden rolls in a sealed campaign (issue 20): a roll the rules keep from the public
(ftcamp02's lost roll, §4.1.1) comes from a second stream, keyed with a hidden secret
committed by its hash when the turn opens and revealed only in the sealed twin of
``turn.yaml``; so the public dice and the revealed turn secret hold no trace of it, and
``ftpress turn --verify`` checks the public stream without a key and the rest with it."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import yaml

from ftpress.secrecy import agekeys
from ftpress.secrecy.hidden_state import public_rolls
from ftpress.state.dice import Dice, KeyedStream, key_from
from ftpress.state.events import PUBLIC, Event
from ftpress.state.model import DiceFile
from ftpress.store.secret import hidden_key, hidden_secret

KEY = ".ftpress-umpire-key"
MASTER = "a master secret for the hidden-roll tests"
ORDERS = "turn: t001\nplayer: nac\ngroups:\n  nac-1: {move: [5, -4]}\n  nac-3: {move: [6, 0]}\n"
FOLDER = "state/turns/t001"


@pytest.fixture
def camp(tmp_path: Path, run, monkeypatch) -> Path:
    """A new sealed ftcamp02 campaign whose first turn made one hidden roll: nac-3's lost
    roll, ten hexes against an optimal move of seven."""
    monkeypatch.setenv("FTPRESS_UMPIRE_SECRET", MASTER)
    monkeypatch.delenv("FTPRESS_UMPIRE_KEY", raising=False)
    root = tmp_path / "camp"
    assert run("init", root, "--players", "nac,esu", "--ruleset", "ftcamp02", "--seed", "1",
               "--now", "2026-03-01T10:00:00+00:00")[0] == 0
    umpires = yaml.safe_load((root / "state/campaign.yaml").read_text())["umpire_recipients"]
    (root / "orders/t001").mkdir(parents=True)
    (root / "orders/t001/nac.yaml.age").write_bytes(
        agekeys.encrypt(ORDERS.encode(), agekeys.recipients(umpires)))
    code, out, err = run("turn", "--early", "--source", root, "--now",
                         "2026-03-02T10:00:00+00:00")
    assert (code, err) == (0, ""), out
    return root


def _whole(root: Path, rel: str) -> dict:
    return yaml.safe_load(agekeys.decrypt((root / f"{rel}.age").read_bytes(),
                                          agekeys.read_identity(root / KEY)))


def _plain(root: Path, rel: str) -> dict:
    return yaml.safe_load((root / rel).read_text())


def test_the_hidden_roll_comes_from_the_hidden_stream_and_only_its_twin_tells_it(camp):
    record, whole = _plain(camp, f"{FOLDER}/turn.yaml"), _whole(camp, f"{FOLDER}/turn.yaml")
    secret = hidden_secret(MASTER.encode(), "camp", "t001")
    assert whole["hidden_secret"] == secret and "hidden_secret" not in record
    assert record["hidden_secret_sha256"] == hashlib.sha256(secret.encode()).hexdigest()
    assert whole == {**record, "hidden_secret": secret}
    rolls = _whole(camp, f"{FOLDER}/dice.yaml")["rolls"]
    assert [(r["purpose"], r.get("hidden")) for r in rolls] == [("lost roll for nac-3 (-2)",
                                                                 True)]
    stream = KeyedStream(hidden_key("camp", "t001", record["orders_sha256"], secret))
    assert rolls[0]["value"] == stream.draw(6, "lost roll")
    # The public dice: the whole public stream, which gave no roll (a move turn of
    # ftcamp02 rolls nothing in public), so there is no place where a hidden roll sits;
    # test_dice shows public rolls around hidden ones following one another.
    assert _plain(camp, f"{FOLDER}/dice.yaml")["rolls"] == []
    assert "lost roll" not in (camp / f"{FOLDER}/dice.yaml").read_text()
    # The next turn commits to its own hidden secret.
    calendar = _plain(camp, "state/campaign.yaml")["calendar"]
    assert calendar["hidden_secret_sha256"] == hashlib.sha256(
        hidden_secret(MASTER.encode(), "camp", "t002").encode()).hexdigest()


def test_verify_without_the_key_checks_the_public_stream_and_says_the_hidden_rolls_need_it(
        camp, run):
    (camp / KEY).unlink()
    assert run("turn", "--verify", "t001", "--source", camp) == (0, (
        "verified t001 as anyone can, without the umpire's key: the revealed secret, the dice "
        "key, from the players' 1 receipt, 0 public rolls against the keyed stream, which "
        "gave no other roll, every file of the record, public and sealed, against SHA256SUMS, "
        "the plain state/ against the record, the order files sent against the record's "
        "copies; not verified: the orders, the hidden rolls (drawn from their own stream, "
        "keyed with the hidden secret sealed in turn.yaml.age) and events, and the state the "
        "turn made, and so whether the public files are what the rules make of them, are "
        "sealed: verifying them needs the umpire's key; a record rewritten whole with its "
        "SHA256SUMS shows only in the git history (git log -- state/turns/t001/)\n"), "")


def test_verify_with_the_key_verifies_the_hidden_rolls_and_redo_draws_them_again(camp, run):
    verified = (0, "verified t001: re-resolving it gives the recorded result exactly\n", "")
    assert run("turn", "--verify", "t001", "--source", camp) == verified
    assert run("check", "--source", camp) == (0, "checked the campaign: no problems\n", "")
    before = _whole(camp, f"{FOLDER}/dice.yaml")
    code, out, err = run("turn", "--redo", "t001", "--source", camp)
    assert code == 0, out + err
    assert _whole(camp, f"{FOLDER}/dice.yaml") == before
    assert run("turn", "--verify", "t001", "--source", camp) == verified


def _reseal(root: Path, rel: str, text: str) -> None:
    umpires = yaml.safe_load((root / "state/campaign.yaml").read_text())["umpire_recipients"]
    (root / f"{rel}.age").write_bytes(agekeys.encrypt(text.encode(),
                                                      agekeys.recipients(umpires)))


def test_a_wrong_hidden_secret_is_found_by_verify(camp, run):
    rel = f"{FOLDER}/turn.yaml"
    whole = agekeys.decrypt((camp / f"{rel}.age").read_bytes(),
                            agekeys.read_identity(camp / KEY)).decode()
    secret = hidden_secret(MASTER.encode(), "camp", "t001")
    _reseal(camp, rel, whole.replace(secret, "ab" * 32))
    code, out, err = run("turn", "--verify", "t001", "--source", camp)
    assert (code, out) == (1, "")
    assert err.startswith("state/turns/t001/turn.yaml.age: the hidden secret does not hash to "
                          "hidden_secret_sha256\n")
    # What else differs depends on the roll drawn again with the wrong secret, which is the
    # recorded one one time in six (the orders' ciphertext, and so the key, changes each run).
    assert "\nftpress: t001 does not re-resolve to its record (" in err


def test_a_hidden_roll_changed_in_its_twin_is_found_by_verify_with_the_key(camp, run):
    rel = f"{FOLDER}/dice.yaml"
    whole = agekeys.decrypt((camp / f"{rel}.age").read_bytes(),
                            agekeys.read_identity(camp / KEY)).decode()
    value = _whole(camp, rel)["rolls"][0]["value"]
    _reseal(camp, rel, whole.replace(f"value: {value},", f"value: {value % 6 + 1},"))
    code, out, err = run("turn", "--verify", "t001", "--source", camp)
    assert (code, out) == (1, "")
    assert (f"-  - {{sides: 6, value: {value % 6 + 1}, purpose: lost roll for nac-3 (-2), "
            "rule: ftcamp02 §4.1.1, hidden: true}\n"
            f"+  - {{sides: 6, value: {value}, purpose: lost roll for nac-3 (-2), ") in err


def test_a_hidden_secret_hash_other_than_the_published_one_is_found_without_the_key(camp, run):
    (camp / KEY).unlink()
    rel = camp / FOLDER / "turn.yaml"
    record = rel.read_text()
    published = _plain(camp, f"{FOLDER}/turn.yaml")["hidden_secret_sha256"]
    rel.write_text(record.replace(published, "ab" * 32))
    code, out, err = run("turn", "--verify", "t001", "--source", camp)
    assert (code, out) == (1, "")
    assert err.startswith("state/turns/t001/turn.yaml: hidden_secret_sha256 is not the hash "
                          "published when t001 opened\n")


def test_a_hidden_secret_or_roll_committed_in_plain_is_a_problem_found_without_the_key(
        camp, run):
    rel = camp / FOLDER / "turn.yaml"
    secret = hidden_secret(MASTER.encode(), "camp", "t001")
    rel.write_text(rel.read_text() + f"hidden_secret: {secret}\n")
    whole = agekeys.decrypt((camp / FOLDER / "dice.yaml.age").read_bytes(),
                            agekeys.read_identity(camp / KEY)).decode()
    (camp / FOLDER / "dice.yaml").write_text(whole)
    (camp / KEY).unlink()
    code, _out, err = run("check", "--source", camp)
    assert code == 1
    for name in ("dice.yaml", "turn.yaml"):
        assert (f"state/turns/t001/{name}: holds what the rules hide from the public; in a "
                "sealed campaign the plain file holds only its public projection, the whole "
                f"file being sealed in state/turns/t001/{name}.age") in err


def test_an_open_campaign_keeps_one_stream(tmp_path, run, monkeypatch):
    monkeypatch.setenv("FTPRESS_UMPIRE_SECRET", MASTER)
    root = tmp_path / "open"
    assert run("init", root, "--players", "nac,esu", "--ruleset", "sct", "--seed", "1",
               "--now", "2026-03-01T10:00:00+00:00")[0] == 0
    calendar = _plain(root, "state/campaign.yaml")["calendar"]
    assert "secret_sha256" in calendar and "hidden_secret_sha256" not in calendar


def test_a_sealed_turn_that_opened_without_a_hidden_secret_draws_as_before_and_says_so(
        camp, run):
    """A campaign sealed after it began: its open turn committed to no hidden secret."""
    for rel in ("state/campaign.yaml", "state/turns/t001/campaign.yaml"):
        whole = agekeys.decrypt((camp / f"{rel}.age").read_bytes(),
                                agekeys.read_identity(camp / KEY)).decode()
        line = next(x for x in whole.splitlines() if "hidden_secret_sha256" in x)
        _reseal(camp, rel, whole.replace(line + "\n", ""))
        (camp / rel).write_text((camp / rel).read_text().replace(line + "\n", ""))
    (camp / "state/turns/t001/SHA256SUMS").unlink()  # such a record lists nothing
    code, out, err = run("turn", "--early", "--source", camp, "--now",
                         "2026-03-09T10:00:00+00:00")
    assert code == 0, err
    assert ("t002 opened without a hidden secret: its hidden rolls come from the public "
            "stream, as before; the next turn opens with one") in out
    record = _plain(camp, "state/turns/t002/turn.yaml")
    assert "hidden_secret_sha256" not in record and not (camp / "state/turns/t002/turn.yaml.age"
                                                         ).exists()
    assert "hidden_secret_sha256" in _plain(camp, "state/campaign.yaml")["calendar"]
    code, out, err = run("turn", "--verify", "t002", "--source", camp)
    assert code == 0, out + err


def test_the_public_dice_log_is_the_whole_public_stream_with_no_gap_for_hidden_rolls():
    public, hidden = key_from("public"), key_from("hidden")
    dice = Dice(KeyedStream(public), KeyedStream(hidden))
    for i in range(20):
        dice.d6(f"attack {i}", "r")
        dice.d6(f"system check {i}", "r", hidden=True)
    log = DiceFile("keyed", dice.log)
    shown = public_rolls(log, (), public, hidden_apart=True).rolls
    assert [r.purpose for r in shown] == [f"attack {i}" for i in range(20)]
    assert [r.at for r in shown] == list(range(20))  # every attempt of the public stream
    # A turn that opened without a hidden secret drew both from the one stream: its
    # public log (the rolls public events carry) leaves a gap at each hidden roll.
    one = Dice(KeyedStream(public))
    for i in range(3):
        one.d6(f"attack {i}", "r")
        one.d6(f"system check {i}", "r", hidden=True)
    carried = (Event("battle", "r", "A battle.", audience=PUBLIC,
                     rolls=tuple(r for r in one.log if not r.hidden)),)
    assert [r.at for r in public_rolls(DiceFile("keyed", one.log), carried, public).rolls] \
        == [0, 2, 4]
