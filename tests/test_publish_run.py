"""The publishing workflow's turn step, run as GitHub runs it: its own shell
script from ``publish.yml``, with the ``GITHUB_*`` environment, in a clone of a
bare repository standing in for GitHub. At most the due turn is resolved, one
commit per turn with a message naming it, a push rejected by a merge that
landed meanwhile is retried on the new main, never a red run; a tabletop battle
commits its result file and says which battles wait."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml
from battlefixture import FOUGHT, fill
from battlefixture import NOW as BATTLE_NOW
from battlefixture import campaign as battle_campaign  # noqa: F401 (a fixture)

from ftpress.publishing import next_deadline
from ftpress.state.model import Calendar

from conftest import REPO

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

INIT_NOW = "2026-03-01T10:00:00+00:00"  # t001's orders are due 2026-03-08 20:00 UTC
MASTER = "the umpire's master secret"
WORKFLOW = yaml.safe_load((REPO / "ftpress/github/workflows/publish.yml").read_text())
(TURN_STEP,) = (s for s in WORKFLOW["jobs"]["turn"]["steps"] if s.get("id") == "commit")


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def committer(root: Path) -> None:
    git(root, "config", "user.name", "Umpire")
    git(root, "config", "user.email", "umpire@example.org")


@pytest.fixture
def github(tmp_path) -> Path:
    """The folder GITHUB_SERVER_URL points at: repositories as OWNER/NAME.git."""
    return tmp_path / "github"


def publish_to(github: Path, root: Path) -> Path:
    """Push ``root``'s main to a new bare repository owner/camp.git; the bare one."""
    bare = github / "owner/camp.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(bare)], check=True)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "The campaign")
    git(root, "push", "-q", str(bare), "HEAD:main")
    return bare


def checkout(bare: Path, where: Path) -> Path:
    """actions/checkout of main, without credentials."""
    subprocess.run(["git", "clone", "-q", "--branch", "main", str(bare), str(where)], check=True)
    return where


def ftpress_here(tmp_path: Path) -> dict[str, str]:
    """The environment in which ``ftpress`` is this checkout's (a stand-in for the
    runner's installed one)."""
    shim = tmp_path / "bin/ftpress"
    shim.parent.mkdir(exist_ok=True)
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m ftpress "$@"\n')
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
    return {**os.environ, "PATH": f"{shim.parent}{os.pathsep}{os.environ['PATH']}",
            "PYTHONPATH": str(REPO)}


def run_turn_step(runner: Path, tmp_path: Path, now: str,
                  environ: dict[str, str] | None = None,
                  ) -> tuple[subprocess.CompletedProcess[str], dict[str, str], str]:
    """The turn job's step as GitHub runs it (``bash -e``), with ``environ``'s ftpress
    (default: this checkout's); its outputs and summary."""
    temp = tmp_path / "runner-temp"
    temp.mkdir(exist_ok=True)
    output, summary = temp / "output", temp / "summary"
    output.write_text("")
    summary.write_text("")
    env = {**(ftpress_here(tmp_path) if environ is None else environ),
           "GITHUB_SERVER_URL": f"file://{tmp_path / 'github'}",
           "GITHUB_REPOSITORY": "owner/camp", "GITHUB_TOKEN": "not-a-token",
           "RUNNER_TEMP": str(temp), "GITHUB_OUTPUT": str(output),
           "GITHUB_STEP_SUMMARY": str(summary), "FTPRESS_UMPIRE_SECRET": MASTER,
           "SOURCE_DATE_EPOCH": str(int(datetime.fromisoformat(now).timestamp()))}
    done = subprocess.run(["bash", "-e", "-c", TURN_STEP["run"]], cwd=runner, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    outputs = dict(line.split("=", 1) for line in output.read_text().splitlines())
    return done, outputs, summary.read_text()


def log(bare: Path) -> list[str]:
    return git(bare, "log", "--format=%s", "main").splitlines()


@pytest.fixture
def campaign(tmp_path, github, run, monkeypatch) -> tuple[Path, Path]:
    """A new campaign on "GitHub": (its bare repository, the umpire's clone)."""
    monkeypatch.setenv("FTPRESS_UMPIRE_SECRET", MASTER)
    root = tmp_path / "umpire"
    assert run("init", root, "--secrecy", "open", "--player", "nac:alice:101",
               "--player", "nsl:bob:102",
               "--umpire", "ump:9", "--seed", "42", "--now", INIT_NOW)[0] == 0
    committer(root)
    return publish_to(github, root), root


def test_a_turn_not_due_is_left_alone_and_the_run_is_green(campaign, tmp_path):
    bare, _ = campaign
    runner = checkout(bare, tmp_path / "runner")
    done, outputs, summary = run_turn_step(runner, tmp_path, "2026-03-02T10:00:00+00:00")
    assert done.returncode == 0, done.stderr
    assert "t001 is not due: its orders are due 2026-03-08 20:00:00+00:00" in done.stdout
    assert log(bare) == ["The campaign"]
    assert outputs == {"sha": git(bare, "rev-parse", "main")}
    assert "open turn: t001" in summary


def test_a_lagging_calendar_resolves_the_due_turn_once_and_no_chain_of_empty_ones(campaign,
                                                                                tmp_path):
    bare, _ = campaign
    late = "2026-03-30T09:00:00+00:00"  # three weeks after t001's deadline
    done, outputs, summary = run_turn_step(checkout(bare, tmp_path / "r1"), tmp_path, late)
    assert done.returncode == 0, done.stderr
    (first, *_) = log(bare)
    # The set-up turn (ftc2007 §6): each power's capital kept, then the calendar.
    assert first == "Turn 1 (t001) resolved: 3 events"
    assert ("note: t002's orders are due 2026-04-05 20:00 UTC, not 2026-03-15 20:00 UTC, which "
            "had passed when t001 was resolved (calendar.next_deadline: on-schedule)") in done.stdout
    assert outputs["sha"] == git(bare, "rev-parse", "main")
    assert "Turn 1 (t001) resolved" in summary
    again, _, _ = run_turn_step(checkout(bare, tmp_path / "r2"), tmp_path, late)
    assert again.returncode == 0 and "t002 is not due" in again.stdout
    assert len(log(bare)) == 2


def test_a_push_rejected_by_a_merge_resolves_again_on_the_new_main(campaign, tmp_path):
    bare, umpire = campaign
    runner = checkout(bare, tmp_path / "runner")
    # While the run resolves t001, nsl's orders are merged on GitHub.
    (umpire / "orders/t001").mkdir(parents=True)
    (umpire / "orders/t001/nsl.yaml").write_text(
        "turn: t001\nplayer: nsl\ngroups: {}\neconomy:\n  maintenance: reduced\n")
    git(umpire, "add", "orders")
    git(umpire, "commit", "-q", "-m", "nsl's orders (#2)")
    git(umpire, "push", "-q", str(bare), "HEAD:main")
    done, _, _ = run_turn_step(runner, tmp_path, "2026-03-09T10:00:00+00:00")
    assert done.returncode == 0, done.stderr
    assert "::notice::main moved while turn 1 was resolved; resolving again on the new main" \
        in done.stdout
    subjects = log(bare)
    assert subjects[1:] == ["nsl's orders (#2)", "The campaign"]
    assert subjects[0].startswith("Turn 1 (t001) resolved: ")
    record = yaml.safe_load(git(bare, "show", "main:state/turns/t001/turn.yaml"))
    assert record["orders"] == ["nsl"]  # resolved again with the merged orders


def test_a_push_that_keeps_failing_is_left_to_the_next_run_without_a_red_run(campaign, tmp_path):
    bare, _ = campaign
    hook = bare / "hooks/pre-receive"
    hook.write_text("#!/bin/sh\necho 'main is protected' >&2\nexit 1\n")
    hook.chmod(0o755)
    done, _, _ = run_turn_step(checkout(bare, tmp_path / "runner"), tmp_path,
                               "2026-03-09T10:00:00+00:00")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("::notice::main moved") == 3
    assert "::warning::main kept moving; the next run resolves the turn" in done.stdout
    assert log(bare) == ["The campaign"]


def test_a_tabletop_battle_commits_its_result_file_and_says_which_battles_wait(
        battle_campaign, github, tmp_path, run):  # noqa: F811
    git(battle_campaign, "init", "-q", "-b", "main")
    committer(battle_campaign)
    bare = publish_to(github, battle_campaign)
    done, outputs, summary = run_turn_step(checkout(bare, tmp_path / "runner"), tmp_path,
                                           BATTLE_NOW)
    assert done.returncode == 0, done.stderr
    assert log(bare)[0] == "Turn 2 (t002) paused: 1 battle to fight on the tabletop"
    assert git(bare, "show", "--format=%b", "-s", "main") == "battles/t002/home.yaml"
    assert "battles/t002/home.yaml" in git(bare, "ls-tree", "-r", "--name-only", "main")
    assert outputs["paused"] == "t002"
    assert ("### [`battles/t002/home.yaml`](file://"
            f"{tmp_path / 'github'}/owner/camp/blob/main/battles/t002/home.yaml)") in summary
    # The body, as the battles job makes it from the committed files.
    clone = checkout(bare, tmp_path / "issue")
    code, body, _ = run("battles", "report", "t002", "--source", clone)
    assert code == 0
    assert body.startswith("## t002 waits for 1 battle fought on the tabletop\n")
    assert "\n- nac: " in body and "\n- esu: " in body
    # A second run while the battle waits commits nothing and still says so.
    again, outputs, summary = run_turn_step(checkout(bare, tmp_path / "again"), tmp_path,
                                            BATTLE_NOW)
    assert again.returncode == 0 and len(log(bare)) == 2
    assert outputs["paused"] == "t002" and "t002 waits for 1 battle" in summary
    # The umpire fills the result in on main; the next run resolves the turn with it.
    umpire = checkout(bare, tmp_path / "umpire")
    committer(umpire)
    fill(umpire, **FOUGHT)
    git(umpire, "commit", "-q", "-am", "The battle at home, fought")
    git(umpire, "push", "-q", "origin", "HEAD:main")
    done, outputs, summary = run_turn_step(checkout(bare, tmp_path / "after"), tmp_path,
                                           BATTLE_NOW)
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"Turn 2 \(t002\) resolved: \d+ events, 1 battle", log(bare)[0])
    assert "paused" not in outputs and "waits for" not in summary
    assert git(bare, "show", "main:state/turns/t002/battles/home.yaml").endswith("fought: true")


CALENDAR = Calendar(datetime(2026, 3, 1).date(), 2, 1,
                    datetime(2026, 3, 15, 20, 0, tzinfo=UTC))


@pytest.mark.parametrize(("policy", "resolved", "expected"), [
    (None, datetime(2026, 3, 9, 10, tzinfo=UTC), datetime(2026, 3, 15, 20, tzinfo=UTC)),
    (None, datetime(2026, 3, 15, 20, tzinfo=UTC), datetime(2026, 3, 22, 20, tzinfo=UTC)),
    (None, datetime(2026, 4, 1, 9, tzinfo=UTC), datetime(2026, 4, 5, 20, tzinfo=UTC)),
    ("after-resolution", datetime(2026, 3, 9, 10, 30, 15, tzinfo=UTC),
     datetime(2026, 3, 16, 10, 30, tzinfo=UTC)),
])
def test_the_next_deadline_follows_the_calendar_policy(policy, resolved, expected):
    calendar = Calendar(CALENDAR.start, 2, 1, CALENDAR.deadline, next_deadline=policy)
    got = next_deadline(calendar, resolved)
    assert got == expected and got > resolved
    assert (got - resolved) <= timedelta(days=7)
