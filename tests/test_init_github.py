"""``ftpress init`` sets a campaign up for GitHub with nothing left to do by hand in
its files: players' and umpires' accounts, the campaign id, ``git init -b main``,
turn 1's secret hash, and the steps left on GitHub; ``ftpress roster`` edits the
accounts of a running campaign."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from ftpress.store.secret import secret_hash, turn_secret

NOW = "2026-03-01T10:00:00+00:00"
MASTER = "a master secret for tests"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def init(run, target: Path, *extra: str) -> tuple[int, str, str]:
    return run("init", target, "--seed", "42", "--now", NOW, "--secrecy", "open", *extra)


def state(root: Path, kind: str) -> dict:
    return yaml.safe_load((root / f"state/{kind}.yaml").read_text())


def test_accounts_umpires_and_the_next_steps(tmp_path, run, monkeypatch):
    monkeypatch.setenv("FTPRESS_UMPIRE_SECRET", MASTER)
    target = tmp_path / "reach"
    code, out, err = init(run, target, "--players", "nac,nsl,fse", "--player", "nac:alice:101",
                          "--player", "nsl:bob-b:102", "--umpire", "ump:9", "--id", "the-reach")
    assert (code, err) == (0, "")
    players = {p["id"]: (p.get("github"), p.get("github_id")) for p in state(target, "players")["players"]}
    assert players == {"nac": ("alice", 101), "nsl": ("bob-b", 102), "fse": (None, None)}
    campaign = state(target, "campaign")
    assert campaign["id"] == "the-reach"
    assert campaign["umpires"] == [{"github_id": 9, "github": "ump"}]
    assert "*           @ump\n" in (target / ".github/CODEOWNERS").read_text()
    lines = out.splitlines()
    assert lines[1:4] == [
        "campaign id: the-reach (part of every turn's dice key: it never changes)",
        "made a git repository on branch main (nothing committed yet)",
        "next steps:"]
    # The repository's settings first, the first push after them (README: the trust model).
    assert [line.split(":")[0].split(" (")[0] for line in lines[4:]] == [
        "  1. create the repository OWNER/NAME on GitHub", "  2. Pages",
        "  3. the environment umpire", "  4. Actions", "  5. a ruleset for main",
        "  6. record the players' GitHub accounts", "  7. commit everything",
        "  8. check the settings", "  9. tell the players"]
    assert ("its environment secrets: FTPRESS_UMPIRE_SECRET, the one you ran this with (turn "
            "1's secret hash is published from it). Never as repository secrets") in lines[6]
    assert lines[9] == "  6. record the players' GitHub accounts: ftpress roster add fse LOGIN:ID"
    assert lines[-1].startswith("  9. tell the players: fork the repository; send "
                                "orders/t001/<your-id>.yaml in a pull request from your fork. "
                                "Turn t001 is the set-up turn (§6)")
    assert run("check", "--source", target) == (0, "checked the campaign: no problems\n", "")


def test_players_from_their_accounts_alone(tmp_path, run):
    code, out, _ = init(run, tmp_path / "c", "--player", "nac:alice:101", "--player", "esu:eve:5")
    assert code == 0 and out.startswith(f"created {tmp_path / 'c'}: 2 players, ")
    assert [p["id"] for p in state(tmp_path / "c", "players")["players"]] == ["nac", "esu"]
    assert "name the umpire: ftpress roster add --umpire LOGIN:ID" in out


def test_the_folder_becomes_a_repository_on_main_unless_it_is_in_one(tmp_path, run):
    assert init(run, tmp_path / "c", "--players", "nac")[0] == 0
    head = subprocess.run(["git", "-C", tmp_path / "c", "symbolic-ref", "HEAD"],
                          capture_output=True, text=True, check=True).stdout
    assert head == "refs/heads/main\n"
    code, out, _ = init(run, tmp_path / "c/examples/inner", "--players", "nac")
    assert code == 0 and not (tmp_path / "c/examples/inner/.git").exists()
    assert "the folder is inside a git work tree already; no repository was made" in out


def test_turn_one_opens_with_its_secret_hash_published(tmp_path, run, monkeypatch):
    monkeypatch.delenv("FTPRESS_UMPIRE_SECRET", raising=False)
    target = tmp_path / "reach"
    code, out, _ = init(run, target, "--players", "nac,nsl")
    assert code == 0
    master = (target / ".ftpress-secret").read_text().strip()
    assert len(master) == 64 and ".ftpress-secret" in (target / ".gitignore").read_text()
    expected = secret_hash(turn_secret(master.encode(), "reach", "t001"))
    assert state(target, "campaign")["calendar"]["secret_sha256"] == expected
    assert f"FTPRESS_UMPIRE_SECRET, the contents of {target / '.ftpress-secret'} (keep a copy" \
        in out
    (target / ".ftpress-secret").rename(tmp_path / "kept")
    code, _, err = run("turn", "--source", target, "--early", "--now", "2026-03-02T10:00:00Z")
    assert (code, err) == (1, "ftpress: turn t001 opened with an umpire secret; set "
                              "FTPRESS_UMPIRE_SECRET or put it in .ftpress-secret to resolve it\n")
    monkeypatch.setenv("FTPRESS_UMPIRE_SECRET", master)
    assert run("turn", "--source", target, "--early", "--now", "2026-03-02T10:00:00Z")[0] == 0
    record = yaml.safe_load((target / "state/turns/t001/turn.yaml").read_text())
    assert record["secret_sha256"] == expected
    assert run("turn", "--source", target, "--verify", "t001")[0] == 0


def test_an_existing_campaign_keeps_its_id_and_its_dice(tmp_path, run):
    assert init(run, tmp_path / "c", "--players", "nac")[0] == 0
    before = (tmp_path / "c/state/campaign.yaml").read_bytes()
    code, out, err = init(run, tmp_path / "c", "--players", "nac", "--id", "renamed")
    assert (code, out) == (1, "")
    assert err == (f"ftpress: {tmp_path / 'c'} holds the campaign 'c' already; making a new one "
                   "here as 'renamed' would change the dice key of every turn it has recorded; "
                   "nothing was written (choose an empty folder)\n")
    assert (tmp_path / "c/state/campaign.yaml").read_bytes() == before


@pytest.mark.parametrize(("args", "message"), [
    (("--players", "nac", "--id", "Big Reach"),
     "--id: 'Big Reach' is not an id; expected lowercase letters, digits and hyphens, such as "
     "'kessel-drift'\n"),
    (("--players", "nac", "--player", "fse:a:1"),
     "--player: 'fse' is not one of the players (nac); expected PLAYER:LOGIN:ID for one of them\n"),
    (("--player", "nac:a:1", "--player", "nsl:b:1"),
     "--player: @b (id 1) plays nac and nsl; one account plays one power\n"),
    (("--player", "nac:alice",),
     "ftpress: --player nac: 'alice': expected LOGIN:ID, a GitHub login and the account's "
     "numeric id, such as octocat:583231 (https://api.github.com/users/LOGIN shows it as \"id\")\n"),
    (("--players", "nac", "--umpire", "bad_login:3"),
     "ftpress: --umpire 'bad_login:3': expected LOGIN:ID, a GitHub login and the account's numeric "
     "id, such as octocat:583231 (https://api.github.com/users/LOGIN shows it as \"id\")\n"),
    ((), "ftpress: expected the players: --players nac,nsl,fse,esu or --player nac:LOGIN:ID for "
     "each\n"),
])
def test_bad_accounts_and_ids(tmp_path, run, args, message):
    code, out, err = init(run, tmp_path / "c", *args)
    assert (code, out) == (1, "")
    assert err.startswith(message) if message.startswith("ftpress") else message in err
    assert not (tmp_path / "c").exists()


@pytest.fixture
def campaign(tmp_path, run, monkeypatch) -> Path:
    monkeypatch.setenv("FTPRESS_UMPIRE_SECRET", MASTER)
    target = tmp_path / "reach"
    assert init(run, target, "--players", "nac,nsl", "--player", "nac:alice:101")[0] == 0
    return target


def test_roster_add_and_replace(campaign, run):
    source = ("--source", campaign)
    assert run("roster", "add", "nsl", "bob:102", *source) == (
        0, "nsl is played by @bob (id 102): their pull requests to orders/ are theirs\n", "")
    assert run("roster", "replace", "nac", "--github", "carol:103", *source) == (
        0, "nac passes from @alice (id 101) to @carol (id 103): from now on only carol's pull "
        "requests may change orders/<turn>/nac.yaml\n", "")
    assert run("roster", "add", "--umpire", "ump:9", *source) == (
        0, "@ump (id 9) is an umpire: they may change any player's orders in a pull request\n", "")
    players = {p["id"]: p["github_id"] for p in state(campaign, "players")["players"]}
    assert players == {"nac": 103, "nsl": 102}
    assert state(campaign, "campaign")["umpires"] == [{"github_id": 9, "github": "ump"}]
    assert run("check", "--source", campaign) == (0, "checked the campaign: no problems\n", "")


@pytest.mark.parametrize(("args", "message"), [
    (("add", "nac", "dave:104"), "ftpress: nac is played by @alice (id 101) already; to hand the "
     "power to someone else: ftpress roster replace nac --github dave:104\n"),
    (("add", "nsl", "alice:101"), "ftpress: @alice (id 101) plays nac already; one account plays "
     "one power\n"),
    (("replace", "nac", "--github", "alice:101"), "ftpress: nac is played by @alice (id 101) "
     "already; nothing changed\n"),
    (("replace", "xyz", "--github", "a:1"), "ftpress: no player 'xyz' in state/players.yaml; "
     "expected one of nac, nsl\n"),
    (("add", "nsl"), "ftpress: expected roster add PLAYER LOGIN:ID, such as roster add nac "
     "octocat:583231, or roster add --umpire LOGIN:ID\n"),
    (("add", "nsl", "bob:0"), "ftpress: LOGIN:ID 'bob:0': expected LOGIN:ID, a GitHub login and "
     "the account's numeric id, such as octocat:583231 (https://api.github.com/users/LOGIN shows "
     "it as \"id\")\n"),
])
def test_roster_refusals_change_nothing(campaign, run, args, message):
    before = {p: p.read_bytes() for p in (campaign / "state").glob("*.yaml")}
    assert run("roster", *args, "--source", campaign) == (1, "", message)
    assert {p: p.read_bytes() for p in (campaign / "state").glob("*.yaml")} == before


@pytest.mark.parametrize(("repository", "base_url"), [
    ("Umpire/outer-marches", "https://umpire.github.io/outer-marches/"),
    ("umpire/umpire.github.io", "https://umpire.github.io/"),
])
def test_the_repository_gives_base_url(tmp_path, run, repository, base_url):
    code, out, _ = init(run, tmp_path / "c", "--players", "nac", "--repository", repository)
    assert code == 0
    assert f"base_url: {base_url}   # where GitHub Pages serves it\n" in \
        (tmp_path / "c/site.yaml").read_text()
    assert "  2. Pages: Settings → Pages → Build and deployment → Source: GitHub Actions\n" in out
    first = (tmp_path / "c/state/players.yaml").read_text().splitlines()[0]
    assert first == f"# yaml-language-server: $schema={base_url}schemas/players.json"


def test_a_repository_that_is_not_owner_slash_name_is_refused(tmp_path, run):
    assert init(run, tmp_path / "c", "--players", "nac", "--repository", "outer marches") == (
        1, "", "ftpress: --repository 'outer marches': expected OWNER/NAME, the GitHub "
        "repository the campaign will live in, such as umpire/outer-marches\n")
    assert not (tmp_path / "c").exists()
