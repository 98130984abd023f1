"""What keys a sealed turn's dice, and what a turn needs before it resolves (issue 29,
"what a player can verify"): the dice are keyed on the players' receipts, the SHA-256
of each sealed order file as its pull request's check saw it, so re-encrypting the
files (``keys rotate``, ``keys seal-campaign --afresh``) never changes them; and a
sealed campaign's turn is refused, with nothing written, without the umpire's master
secret."""

from __future__ import annotations

import hashlib
import shutil
from datetime import datetime
from pathlib import Path

import pytest
import yaml
from demos import FTCAMP02
from hypothesis import given, settings
from hypothesis import strategies as st
from sealedcampaign import sealed_campaign

from ftpress.secrecy import agekeys, sealing

NOW = FTCAMP02.now


@pytest.fixture
def sent(tmp_path, run) -> tuple[Path, bytes]:
    """The sealed ftcamp02 example with nac's orders for t005 sealed and sent (the
    plain working copy gone, as on the runner), and the bytes sent."""
    root, _ = sealed_campaign(tmp_path / "camp", run)
    assert run("seal", root / "orders/t005/nac.yaml", "--source", root)[0] == 0
    (root / "orders/t005/nac.yaml").unlink()
    return root, (root / "orders/t005/nac.yaml.age").read_bytes()


def _resolved(root: Path, run) -> dict[str, object]:
    code, _out, err = run("turn", "--source", root, "--early", "--now", NOW)
    assert (code, err) == (0, ""), err
    record = yaml.safe_load((root / "state/turns/t005/turn.yaml").read_text())
    umpire = agekeys.umpire_identity(root, environ={})
    assert umpire is not None
    dice = agekeys.decrypt((root / "state/turns/t005/dice.yaml.age").read_bytes(), umpire[0])
    return {"record": record, "dice": yaml.safe_load(dice)}


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def test_the_dice_are_keyed_on_the_receipts_the_pull_requests_were_given(sent, run):
    root, data = sent
    receipt = hashlib.sha256(data).hexdigest()
    assert receipt in sealing.receipt("orders/t005/nac.yaml.age", data,
                                      datetime.fromisoformat(NOW))
    record = _resolved(root, run)["record"]
    assert record["digest_of"] == "receipts"
    assert record["receipts"] == {"nac": receipt}
    assert record["orders_sha256"] == sealing.receipts_digest({"nac": receipt})


@pytest.mark.parametrize("resealing", [
    [("keys", "rotate")],
    [("keys", "rotate"), ("keys", "rotate")],  # the receipt is kept through every rotation
    [("keys", "seal-campaign", "--afresh")],
    [("keys", "rotate"), ("keys", "seal-campaign", "--afresh")],
])
def test_resealing_never_changes_the_open_turns_dice(sent, run, tmp_path, resealing):
    root, data = sent
    again = tmp_path / "again"
    shutil.copytree(root, again)
    for command in resealing:
        code, _out, err = run(*command, "--source", again)
        assert (code, err) == (0, ""), err
    if ("keys", "rotate") in resealing:
        assert (again / "orders/t005/nac.yaml.age").read_bytes() != data
        kept = yaml.safe_load((again / f"orders/t005/{sealing.RESEALED}").read_text())
        assert kept["nac"]["sent"] == hashlib.sha256(data).hexdigest()
    first, second = _resolved(root, run), _resolved(again, run)
    assert second["dice"] == first["dice"]  # the key is in its source line too
    for field in ("orders_sha256", "receipts", "digest_of", "secret"):
        assert second["record"].get(field) == first["record"].get(field)
    for campaign in (root, again):  # as anyone can, and as the umpire
        for options in ((), ("--identity", campaign / agekeys.UMPIRE_KEY_FILE)):
            code, out, err = run("turn", "--verify", "t005", "--source", campaign, *options)
            assert (code, err) == (0, ""), out


def test_a_receipts_file_of_another_form_is_refused_where_it_is_wrong(sent, run):
    root, _ = sent
    (root / f"orders/t005/{sealing.RESEALED}").write_text("nac:\n  sent: 12\n  sealed: []\n")
    code, out, err = run("check", "--source", root)
    assert code == 1
    assert f"orders/t005/{sealing.RESEALED}:2:9:" in out + err, out + err
    before = _files(root)
    code, _out, err = run("turn", "--source", root, "--early", "--now", NOW)
    assert code == 1 and f"orders/t005/{sealing.RESEALED}:2:9:" in err
    assert _files(root) == before


# --- a sealed turn needs its secrets ----------------------------------------------

def test_a_sealed_turn_is_refused_without_the_master_secret(sent, run, monkeypatch):
    root, _ = sent
    monkeypatch.delenv("FTPRESS_UMPIRE_SECRET", raising=False)
    (root / ".ftpress-secret").unlink()
    before = _files(root)
    code, out, err = run("turn", "--source", root, "--early", "--now", NOW)
    assert (code, out) == (1, "")
    assert err.startswith("ftpress: this campaign is sealed: resolving t005 needs the "
                          "umpire's master secret")
    assert "set FTPRESS_UMPIRE_SECRET" in err and "put it in .ftpress-secret" in err
    assert err.endswith("nothing was done\n") and "Traceback" not in err
    assert _files(root) == before
    (root / ".ftpress-secret").write_text("the umpire's master secret of the tests\n")
    assert run("turn", "--source", root, "--early", "--now", NOW)[0] == 0


def test_an_open_campaign_still_plays_without_a_master_secret(tmp_path, run, monkeypatch):
    monkeypatch.delenv("FTPRESS_UMPIRE_SECRET", raising=False)
    root = FTCAMP02.copy(tmp_path / "open")
    assert not (root / ".ftpress-secret").exists()
    code, out, err = run("turn", "--source", root, "--early", "--now", NOW)
    assert (code, err) == (0, ""), err
    assert "opens without one" in out


@given(st.dictionaries(st.sampled_from(["esu", "fsr", "nac"]), st.binary(max_size=40),
                       min_size=1), st.data())
@settings(max_examples=50, deadline=None)
def test_the_key_changes_with_any_byte_sent_and_not_with_a_reseal(files, data):
    """The receipts digest follows every byte of every file as sent, not the order the
    files are read in; a file sealed again (other bytes, its receipt kept in the
    receipts file) keys the dice as the file sent did."""
    player = data.draw(st.sampled_from(sorted(files)))
    sent = sealing.receipts_digest(sealing.receipts_of(files, {}))
    changed = dict(files)
    changed[player] = files[player] + b"\0"
    assert sealing.receipts_digest(sealing.receipts_of(changed, {})) != sent
    assert sealing.receipts_digest(sealing.receipts_of(
        dict(reversed(list(files.items()))), {})) == sent
    again = dict(files)
    again[player] = data.draw(st.binary(max_size=40).filter(lambda b: b != files[player]))
    _, text = sealing.resealed_file("t005", files, {player: again[player]}, {})
    kept = yaml.safe_load(text)
    resealed = {p: sealing.Resealed(e["sent"], tuple(e["sealed"])) for p, e in kept.items()}
    assert sealing.receipts_digest(sealing.receipts_of(again, resealed)) == sent
