"""A sealed campaign's battle-result files (issue 29): committed sealed to the umpires,
filled in as the umpire's git-ignored plain copy, opened and sealed by
``ftpress battles open`` and ``ftpress battles seal``; an open campaign has nothing to
seal. The demo's t002 battle at Lumen, as its record keeps it, stands for a result."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from battlefixture import campaign as battle_campaign  # noqa: F401 (a fixture)
from demos import FTC2007 as DEMO

from ftpress.secrecy import agekeys
from ftpress.secrecy.twins import open_twin

LUMEN = Path("battles/t002/lumen.yaml")


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    """The demo as its umpire checks it out: the sealed files, the key file, no plain
    battle file (git-ignored)."""
    root = DEMO.sealed_copy(tmp_path / "demo")
    (root / LUMEN).unlink(missing_ok=True)
    return root


def test_the_demo_commits_its_battle_sealed_and_its_record_keeps_no_plain_copy():
    assert (DEMO.root / f"{LUMEN}.age").is_file()
    kept = DEMO.root / "state/turns/t002/battles"
    assert sorted(p.name for p in kept.iterdir()) == ["lumen.yaml.age"]
    assert b"/battles/*/*.yaml" in (DEMO.root / ".gitignore").read_bytes().splitlines()


def test_open_writes_the_plain_copy_and_seal_seals_the_edit_again(demo, run):
    umpire = DEMO.umpire
    assert umpire is not None
    code, out, err = run("battles", "open", "t002", "--source", demo)
    assert (code, err) == (0, "") and out.startswith(f"wrote {LUMEN}; fill them in")
    assert (demo / LUMEN).read_bytes() == open_twin(demo, f"{LUMEN}.age", umpire)
    (demo / LUMEN).write_bytes((demo / LUMEN).read_bytes().replace(
        b"\nfought: true", b"\nnote: fought at the club\nfought: true"))
    code, out, err = run("battles", "seal", "t002", "--source", demo)
    assert (code, err) == (0, "") and out.startswith(f"wrote {LUMEN}.age")
    sealed = (demo / f"{LUMEN}.age").read_bytes()
    assert agekeys.decrypt(sealed, umpire.identities).endswith(
        b"note: fought at the club\nfought: true\n")
    # Padded like every sealed file: its size tells no more than its bucket.
    assert len(agekeys.age_decrypt(agekeys.dearmored(sealed), umpire.identities)) == 4096


def test_seal_refuses_a_result_that_does_not_read_and_writes_nothing(demo, run):
    run("battles", "open", "t002", "--source", demo)
    before = (demo / f"{LUMEN}.age").read_bytes()
    (demo / LUMEN).write_bytes((demo / LUMEN).read_bytes().replace(b"held_by: fse",
                                                                  b"held_by: [fse"))
    code, out, err = run("battles", "seal", "t002", "--source", demo)
    assert code == 1 and out == "" and err.startswith(f"{LUMEN}:")
    assert (demo / f"{LUMEN}.age").read_bytes() == before


def test_open_needs_the_umpires_key(demo, run, monkeypatch):
    monkeypatch.delenv("FTPRESS_UMPIRE_KEY", raising=False)
    (demo / ".ftpress-umpire-key").unlink()
    code, _, err = run("battles", "open", "t002", "--source", demo)
    assert code == 1 and "needs the umpire's key" in err and not (demo / LUMEN).exists()


def test_an_open_campaign_has_no_battle_file_to_seal(battle_campaign, run):  # noqa: F811
    code, _, err = run("battles", "seal", "t002", "--source", battle_campaign)
    assert code == 1 and "this campaign is open" in err


def test_check_with_the_key_reads_the_sealed_results_too(demo, run):
    """A sealed result the umpire committed wrong (its battle named otherwise) is found by
    ``check`` with the umpire's key, as the turn would find it; without the key the sealed
    file is not read."""
    umpire = DEMO.umpire
    assert umpire is not None
    whole = open_twin(demo, f"{LUMEN}.age", umpire)
    assert b"battle: lumen\n" in whole
    recipients = agekeys.recipients(yaml.safe_load(
        (demo / "state/campaign.yaml").read_text())["umpire_recipients"])
    (demo / f"{LUMEN}.age").write_bytes(agekeys.encrypt(
        whole.replace(b"battle: lumen\n", b"battle: osprey\n"), recipients))
    code, out, err = run("check", "--source", demo)
    assert code == 1 and out == ""
    assert f"{LUMEN}:" in err and "named for battle 'lumen' but says 'osprey'" in err


def test_check_without_the_key_says_the_sealed_results_were_not_read(demo, run, monkeypatch):
    monkeypatch.delenv("FTPRESS_UMPIRE_KEY", raising=False)
    (demo / ".ftpress-umpire-key").unlink()
    code, out, err = run("check", "--source", demo)
    assert (code, err) == (0, "")
    assert out.startswith("not checked without the umpire's key: the ") and \
        " and the 1 sealed battle result (battles/*/*.yaml.age) hold the whole files; " in out
