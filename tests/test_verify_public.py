"""``ftpress turn --verify`` as a rival player runs it (issue 29, "what a player can
verify"): without any key it checks every file of a sealed turn's record against the
list of hashes the turn wrote (``SHA256SUMS``) and the plain state against the record,
and says what it cannot check; with a player's own key it checks that player's
intelligence and sealed orders too. Each forgery a rival could try is caught."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from demos import FTCAMP02
from sealedcampaign import sealed_campaign

from ftpress.cli import main
from ftpress.secrecy import agekeys
from ftpress.store.listing import LISTING

RECORD = "state/turns/t005"


def _quiet(*args: str | Path) -> tuple[int, str, str]:
    return main([str(a) for a in args]), "", ""


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """The sealed ftcamp02 example with t005 resolved from nac's sealed orders."""
    root, _ = sealed_campaign(tmp_path_factory.mktemp("played") / "camp", _quiet)
    assert main(["seal", str(root / "orders/t005/nac.yaml"), "--source", str(root)]) == 0
    (root / "orders/t005/nac.yaml").unlink()
    assert main(["turn", "--source", str(root), "--early", "--now", FTCAMP02.now]) == 0
    return root


@pytest.fixture
def camp(played, tmp_path, monkeypatch) -> Path:
    """A copy of the played campaign as a rival has it: no umpire's key at hand (it is
    kept apart, in ``umpire.key`` beside the campaign, for the forgeries)."""
    monkeypatch.delenv(agekeys.UMPIRE_KEY_ENV, raising=False)
    root = Path(shutil.copytree(played, tmp_path / "camp"))
    (root / agekeys.UMPIRE_KEY_FILE).rename(tmp_path / "umpire.key")
    return root


def _verify(run, root: Path, *options: str | Path) -> tuple[int, str]:
    code, out, err = run("turn", "--verify", "t005", "--source", root, *options)
    return code, out + err


def _umpire(root: Path) -> list[agekeys.Identity]:
    return agekeys.read_identity(root.parent / "umpire.key")


def _resealed(root: Path, rel: str, change) -> None:
    """``rel`` opened with the umpire's key, changed, and sealed again to the umpire and
    nac: a forgery only the umpire (or whoever holds the key) could make."""
    nac = agekeys.read_identity(root / "nac.key")
    text = agekeys.decrypt((root / rel).read_bytes(), _umpire(root)).decode()
    to = [str(i.to_public()) for i in (*_umpire(root), *nac)]
    (root / rel).write_bytes(agekeys.encrypt(change(text).encode(), agekeys.recipients(to)))


def _relisted(root: Path) -> None:
    """The record's list written again to match its files (a forger who knows how)."""
    base = root / RECORD
    from ftpress.store.listing import listing

    files = {f"{RECORD}/{p.relative_to(base).as_posix()}": p.read_bytes()
             for p in base.rglob("*") if p.is_file() and p.name != LISTING}
    files |= {f"state/{p.name}": p.read_bytes() for p in (root / "state").iterdir()
              if p.is_file()}
    (base / LISTING).write_bytes(listing(RECORD, files))


def test_a_new_turn_lists_its_files_and_verifies_as_anyone_can(camp, run):
    listed = (camp / RECORD / LISTING).read_text().splitlines()
    names = {line.split("  ", 1)[1] for line in listed}
    assert {"events.yaml", "events.yaml.age", "groups.yaml", "groups.yaml.age",
            "intelligence/nac.yaml.age", "orders/nac.yaml.age", "turn.yaml"} <= names
    code, out = _verify(run, camp)
    assert code == 0, out
    assert f"every file of the record, public and sealed, against {LISTING}" in out
    assert "the plain state/ against the record" in out
    assert out.startswith("verified t005 as anyone can, without the umpire's key: ")
    assert "the dice key, from the players' 1 receipt," in out
    assert "not verified: " in out and "needs the umpire's key" in out
    assert f"git log -- {RECORD}/" in out
    code, out = _verify(run, camp, "--identity", camp / "nac.key")
    assert code == 0, out
    assert out.startswith("verified t005 as nac can, with their own key: ")
    assert "nac's intelligence" in out
    code, out = _verify(run, camp, "--identity", camp.parent / "umpire.key")
    assert (code, out) == (0, "verified t005: re-resolving it gives the recorded result "
                           "exactly\n")


def test_a_forged_public_event_is_caught(camp, run):
    events = camp / RECORD / "events.yaml"
    events.write_text(events.read_text() + "  - kind: note\n    rule: ftcamp02\n"
                      "    text: The FSR's fleet was sighted at Rook.\n    audience: public\n")
    code, out = _verify(run, camp)
    assert code == 1
    assert f"{RECORD}/events.yaml: is not the file the turn wrote" in out


def test_a_forged_public_event_listed_again_is_caught_by_a_players_key(camp, run):
    events = camp / RECORD / "events.yaml"
    text = events.read_text()
    first = text.index("  - kind:")
    events.write_text(text[:first] + "  - kind: note\n    rule: ftcamp02\n"
                      "    text: The FSR's fleet was sighted at Rook.\n    audience: public\n"
                      + text[first:])
    _relisted(camp)
    assert _verify(run, camp)[0] == 0  # consistent files: only the git history shows it
    code, out = _verify(run, camp, "--identity", camp / "nac.key")
    assert code == 1
    assert (f"{RECORD}/events.yaml: its public events are not those nac was told in "
            f"{RECORD}/intelligence/nac.yaml.age") in out


@pytest.mark.parametrize("rel", ["state/groups.yaml", f"{RECORD}/groups.yaml"])
def test_a_counter_moved_in_the_plain_state_is_caught(camp, run, rel):
    groups = camp / rel
    data = yaml.safe_load(groups.read_text())
    moved = next(g for g in data["groups"] if "at" in g)
    old = moved["at"]
    text = groups.read_text()
    assert f"at: {old}\n" in text
    groups.write_text(text.replace(f"at: {old}\n", "at: somewhere-else\n", 1))
    code, out = _verify(run, camp)
    assert code == 1
    if rel.startswith("state/turns"):
        assert f"{rel}: is not the file the turn wrote" in out
    else:
        assert (f"{rel}: is not the file {RECORD} wrote, yet its sealed twin is: the plain "
                "file was changed by hand") in out


def test_a_rewritten_hidden_event_is_caught(camp, run):
    _resealed(camp, f"{RECORD}/events.yaml.age",
              lambda text: text + "  - kind: note\n    rule: ftcamp02\n    text: A secret.\n"
                                  "    audience: umpire\n")
    code, out = _verify(run, camp)
    assert code == 1
    assert f"{RECORD}/events.yaml.age: is not the file the turn wrote" in out


def test_a_players_rewritten_intelligence_is_caught(camp, run):
    rel = f"{RECORD}/intelligence/nac.yaml.age"
    _resealed(camp, rel, lambda text: text.replace("player: nac", "player: nac\n# edited", 1))
    code, out = _verify(run, camp)
    assert code == 1
    assert f"{rel}: is not the file the turn wrote" in out
    # Sealed to someone else altogether, and listed again: the player's key finds it.
    (camp / rel).write_bytes(agekeys.encrypt(b"turn: t005\n", agekeys.recipients(
        [str(i.to_public()) for i in _umpire(camp)])))
    _relisted(camp)
    code, out = _verify(run, camp, "--identity", camp / "nac.key")
    assert code == 1
    assert f"{rel}: does not open with {camp / 'nac.key'}" in out


def test_a_file_added_to_or_removed_from_the_record_is_caught(camp, run):
    (camp / RECORD / "extra.yaml").write_text("turn: t005\n")
    (camp / RECORD / "groups.yaml.age").unlink()
    code, out = _verify(run, camp)
    assert code == 1
    assert f"{RECORD}/groups.yaml.age: listed in {RECORD}/{LISTING}, but the record has no such " \
        "file" in out
    assert f"{RECORD}/extra.yaml: the turn did not write this file" in out


def test_a_forged_receipt_is_caught(camp, run):
    turn = camp / RECORD / "turn.yaml"
    text = turn.read_text()
    receipt = yaml.safe_load(text)["receipts"]["nac"]
    turn.write_text(text.replace(f"nac: {receipt}", f"nac: {'f' * 64}"))
    _relisted(camp)
    code, out = _verify(run, camp)
    assert code == 1
    assert f"{RECORD}/turn.yaml: orders_sha256 is not the digest of the players' receipts" \
        in out


def test_the_demo_and_the_examples_say_what_they_cannot_check(run):
    from demos import FTC2007

    code, out, err = run("turn", "--verify", "t004", "--source", FTCAMP02.root)
    assert (code, err) == (0, "")
    assert (f"that the record's files are those the turn wrote (t004 was recorded before "
            f"records listed their hashes in {LISTING})") in out
    code, out, err = run("turn", "--verify", FTC2007.turns[-1], "--source", FTC2007.root,
                         "--identity", FTC2007.root / "demo-keys" / "nac.key")
    assert (code, err) == (0, ""), out
    assert "nac's intelligence" in out


@pytest.mark.parametrize("command", [("keys", "rotate"), ("keys", "seal-campaign", "--afresh"),
                                     ("keys", "seal-campaign")])
def test_a_record_sealed_again_on_purpose_is_listed_again(camp, run, command):
    """Rotating the key seals every twin again, and sealing the campaign afresh does too:
    the store's recipe lists the record again, so it still verifies as anyone can."""
    code, _out, err = run(*command, "--identity", camp.parent / "umpire.key", "--source", camp)
    assert (code, err) == (0, ""), err
    code, out = _verify(run, camp)
    assert code == 0, out
    key = camp / agekeys.UMPIRE_KEY_FILE if command[1] == "rotate" else camp.parent / "umpire.key"
    code, out = _verify(run, camp, "--identity", key)
    assert code == 0, out


def test_an_earlier_turn_still_verifies_once_the_next_is_recorded(camp, run):
    key = camp.parent / "umpire.key"
    code, _out, err = run("turn", "--source", camp, "--early", "--now", FTCAMP02.now,
                          "--identity", key)
    assert (code, err) == (0, ""), err
    for options in ((), ("--identity", key), ("--identity", camp / "nac.key")):
        code, out = _verify(run, camp, *options)
        assert code == 0, out
    assert "the plain state/ against the record" not in _verify(run, camp)[1]


def test_an_edit_of_the_state_since_is_told_apart_from_a_change_by_hand(camp, run,
                                                                         monkeypatch):
    """An edit of the state between turns writes the plain file and its twin: --verify
    says it cannot check it (the next turn's record keeps it in before/), and the list
    still says what the turn wrote, so check with the umpire's key finds nothing stale."""
    monkeypatch.setenv(agekeys.UMPIRE_KEY_ENV, (camp.parent / "umpire.key").read_text())
    code, _out, err = run("calendar", "extend", "2d", "--source", camp, "--now", FTCAMP02.now)
    assert (code, err) == (0, ""), err
    code, out, err = run("check", "--source", camp)
    assert code == 0, out + err
    monkeypatch.delenv(agekeys.UMPIRE_KEY_ENV)
    code, out = _verify(run, camp)
    assert code == 0, out
    assert "the edits of state/campaign.yaml since t005" in out
