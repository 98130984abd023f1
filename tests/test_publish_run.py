"""The publishing workflow's turn and battles jobs, run as GitHub runs them
(tests/workflowrun.py): their own shell scripts from ``publish.yml``, with the
``GITHUB_*`` environment, in a clone of a bare repository standing in for GitHub,
and GitHub's issues reached through a fake ``gh`` (tests/fakegh.py). At most the
due turn is resolved, one commit per turn with a message naming it, a push
rejected by a merge that landed meanwhile is retried on the new main, and a push
the repository refuses (or a main that keeps moving) is a red run saying why; a tabletop battle commits its result file, the umpires' issue says which
battles wait, and once the turn is resolved the issue is closed saying how each
ended and where the report is."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import fakegh
import pytest
import yaml
from battlefixture import FOUGHT, fill
from battlefixture import NOW as BATTLE_NOW
from battlefixture import campaign as battle_campaign  # noqa: F401 (a fixture)
from workflowrun import JobRun, context, holds, run_job

from ftpress.github.publishing import next_deadline
from ftpress.state.model import Calendar

from conftest import REPO

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

INIT_NOW = "2026-03-01T10:00:00+00:00"  # t001's orders are due 2026-03-08 20:00 UTC
MASTER = "the umpire's master secret"
WORKFLOW = yaml.safe_load((REPO / "ftpress/github/workflows/publish.yml").read_text())


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
    # Committed when the campaign was made, as the simulated clock has it: when each
    # order file landed decides whether it is in its turn (ftpress.turn.window).
    subprocess.run(["git", "-C", str(root), "commit", "-q", "-m", "The campaign"], check=True,
                   env={**os.environ, "GIT_COMMITTER_DATE": INIT_NOW})
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
                  ) -> tuple[JobRun, dict[str, str], str]:
    """The turn job of the workflow ftpress ships, as GitHub runs it, with ``environ``
    (default: this checkout's ftpress on the PATH); the umpire's secret and key the
    workflow reads from its secrets are those ``environ`` gives, the secret ``MASTER``
    if it gives none. The job, its outputs that are set, and its summary."""
    environ = {**(ftpress_here(tmp_path) if environ is None else environ),
               "SOURCE_DATE_EPOCH": str(int(datetime.fromisoformat(now).timestamp()))}
    secrets = {"FTPRESS_UMPIRE_SECRET": environ.get("FTPRESS_UMPIRE_SECRET", MASTER),
               "FTPRESS_UMPIRE_KEY": environ.get("FTPRESS_UMPIRE_KEY", "")}
    run_context = context("schedule", {}, sha=git(runner, "rev-parse", "main"),
                          secrets=secrets)
    job = run_job(WORKFLOW, "turn", runner, environ, run_context,
                  tmp_path / "runner-temp", server(tmp_path))
    return job, {k: v for k, v in job.outputs.items() if v}, job.summary


def run_battles_job(bare: Path, tmp_path: Path, turn_outputs: dict[str, str],
                    ) -> JobRun | None:
    """The battles job after a turn job with ``turn_outputs``, at the commit it left,
    with the fake ``gh`` of :func:`fake_github` on the PATH; None when its ``if:``
    keeps it from running."""
    needs = {"turn": {"outputs": turn_outputs}}
    job = WORKFLOW["jobs"]["battles"]
    workspace = tmp_path / "runners" / f"battles-{turn_outputs['sha'][:12]}"
    run_context = _context(bare, "schedule", needs)
    if not holds(job["if"], run_context):
        return None
    shutil.rmtree(workspace, ignore_errors=True)
    checkout(bare, workspace)
    git(workspace, "checkout", "-q", turn_outputs["sha"])
    env = fake_github(tmp_path, ftpress_here(tmp_path))
    return run_job(WORKFLOW, "battles", workspace, env, run_context,
                   tmp_path / "battles-temp", server(tmp_path))


def fake_github(tmp_path: Path, environ: dict[str, str],
                merge_queue: bool = False) -> dict[str, str]:
    """``environ`` with the fake ``gh`` first on its PATH (``merge_queue``: main requires
    one); its issues are :func:`issues`'s."""
    bin_dir = tmp_path / "fake-gh"
    extra = fakegh.install(bin_dir, tmp_path / "issues.json", merge_queue)
    return {**environ, **extra, "PATH": f"{bin_dir}{os.pathsep}{environ['PATH']}"}


def issues(tmp_path: Path) -> list[fakegh.Issue]:
    return fakegh.Issues(tmp_path / "issues.json").all()


def merges(tmp_path: Path) -> list[fakegh.Merge]:
    return fakegh.Issues(tmp_path / "issues.json").merges()


def server(tmp_path: Path) -> str:
    """GITHUB_SERVER_URL: the folder of bare repositories as OWNER/NAME.git."""
    return f"file://{tmp_path / 'github'}"


def _context(repo: Path, event_name: str, needs: dict | None = None) -> dict:
    return context(event_name, {}, sha=git(repo, "rev-parse", "main"),
                   secrets={"FTPRESS_UMPIRE_SECRET": MASTER}, needs=needs)


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
    # What the run then says of the turn that opens is the deadline it was moved to.
    assert "t002 opens, orders due 2026-04-05 20:00:00+00:00" in done.stdout
    assert "2026-03-15 20:00:00+00:00" not in done.stdout
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
    # Merged before the deadline (GitHub dates the merge), so it is in the turn.
    subprocess.run(["git", "-C", str(umpire), "commit", "-q", "-m", "nsl's orders (#2)"],
                   check=True, env={**os.environ,
                                    "GIT_COMMITTER_DATE": "2026-03-08T19:00:00+00:00"})
    git(umpire, "push", "-q", str(bare), "HEAD:main")
    done, _, _ = run_turn_step(runner, tmp_path, "2026-03-09T10:00:00+00:00")
    assert done.returncode == 0, done.stderr
    assert ("::notice::main moved while the turn was resolved (attempt 1 of 3); resolving "
            "again on the new main") in done.stdout
    subjects = log(bare)
    assert subjects[1:] == ["nsl's orders (#2)", "The campaign"]
    assert subjects[0].startswith("Turn 1 (t001) resolved: ")
    record = yaml.safe_load(git(bare, "show", "main:state/turns/t001/turn.yaml"))
    assert record["orders"] == ["nsl"]  # resolved again with the merged orders


def test_a_push_the_repository_refuses_is_a_red_run_that_says_why(campaign, tmp_path):
    """main protected by a rule the run's token cannot pass (a required pull request):
    the push is refused while main has not moved, the run fails at once with the
    remote's reason, and nothing is retried or committed."""
    bare, _ = campaign
    hook = bare / "hooks/pre-receive"
    hook.write_text("#!/bin/sh\necho 'main is protected: changes must be made through a pull "
                    "request' >&2\nexit 1\n")
    hook.chmod(0o755)
    done, _, _ = run_turn_step(checkout(bare, tmp_path / "runner"), tmp_path,
                               "2026-03-09T10:00:00+00:00")
    assert done.returncode == 1
    assert "::notice::main moved" not in done.stdout
    (error,) = [line for line in done.stdout.splitlines() if line.startswith("::error::")]
    assert error.startswith("::error::the repository refused the push to main, which had not "
                            "moved: ")
    assert "main is protected: changes must be made through a pull request" in error
    assert "nothing was committed" in error
    assert log(bare) == ["The campaign"]


def test_main_that_keeps_moving_is_a_red_run_with_nothing_committed(campaign, tmp_path):
    """Every push meets a main moved meanwhile (a merge each time): three tries, then a
    red run, never a green one that committed nothing."""
    bare, umpire = campaign
    git(umpire, "remote", "add", "origin", str(bare))
    git(umpire, "fetch", "-q", "origin")
    # Before each push of the run, someone else's commit lands on main (a git that
    # pushes an empty commit from the umpire's clone first).
    real = shutil.which("git")
    shim = tmp_path / "racing/git"
    shim.parent.mkdir()
    shim.write_text(f"""#!/bin/sh
case " $* " in
  *" push "*)
    "{real}" -C "{umpire}" pull -q --rebase origin main
    "{real}" -C "{umpire}" commit -q --allow-empty -m "a merge meanwhile"
    "{real}" -C "{umpire}" push -q origin HEAD:main ;;
esac
exec "{real}" "$@"
""")
    shim.chmod(0o755)
    environ = ftpress_here(tmp_path)
    environ["PATH"] = f"{shim.parent}{os.pathsep}{environ['PATH']}"
    done, _, _ = run_turn_step(checkout(bare, tmp_path / "runner"), tmp_path,
                               "2026-03-09T10:00:00+00:00", environ)
    assert done.returncode == 1
    assert done.stdout.count("::notice::main moved") == 2
    assert ("::error::main moved three times while the turn was resolved; nothing was "
            "committed, and the next run resolves the turn") in done.stdout
    assert not [s for s in log(bare) if s.startswith("Turn ")]


def test_a_tabletop_battle_commits_its_result_file_and_says_which_battles_wait(
        battle_campaign, github, tmp_path):  # noqa: F811
    git(battle_campaign, "init", "-q", "-b", "main")
    committer(battle_campaign)
    bare = publish_to(github, battle_campaign)
    done, outputs, summary = run_turn_step(checkout(bare, tmp_path / "runner"), tmp_path,
                                           BATTLE_NOW)
    assert done.returncode == 0, done.stderr
    assert log(bare)[0] == "Turn 2 (t002) paused: 1 battle to fight on the tabletop"
    assert git(bare, "show", "--format=%b", "-s", "main") == "battles/t002/home.yaml"
    assert "battles/t002/home.yaml" in git(bare, "ls-tree", "-r", "--name-only", "main")
    assert outputs == {"sha": git(bare, "rev-parse", "main"), "paused": "t002"}
    blob = f"file://{tmp_path / 'github'}/owner/camp/blob/main/"
    assert f"### [`battles/t002/home.yaml`]({blob}battles/t002/home.yaml)" in summary
    # The battles job opens the umpires' issue, its body made from the committed files.
    opened = run_battles_job(bare, tmp_path, outputs)
    assert opened is not None and opened.ok, opened.stderr
    (issue,) = issues(tmp_path)
    assert (issue.title, issue.state) == ("t002 waits for battles fought on the tabletop", "open")
    # Its mark, which the bot finds it by (with its label and its author), then the list.
    assert (issue.user, issue.labels) == ("github-actions[bot]", ("ftpress-battles",))
    assert issue.body.startswith("<!-- ftpress:battles:t002 -->\n\n"
                                 "## t002 waits for 1 battle fought on the tabletop\n")
    assert "\n- nac: " in issue.body and "\n- esu: " in issue.body
    # A second run while the battle waits commits nothing, still says so, and updates
    # the same issue rather than opening another.
    again, outputs, summary = run_turn_step(checkout(bare, tmp_path / "again"), tmp_path,
                                            BATTLE_NOW)
    assert again.returncode == 0 and len(log(bare)) == 2
    assert outputs["paused"] == "t002" and "t002 waits for 1 battle" in summary
    assert run_battles_job(bare, tmp_path, outputs).ok
    assert [(i.number, i.state) for i in issues(tmp_path)] == [(1, "open")]
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
    assert git(bare, "show", "main:state/turns/t002/battles/home.yaml").endswith("fought: true")
    # The summary says which battle waited and that it is done; the issue is closed
    # with the same words, linking the turn's report.
    assert outputs == {"sha": git(bare, "rev-parse", "main"), "fought": "t002"}
    fought = (
        "## t002 is resolved: its 1 battle fought on the tabletop is in\n\n"
        "The turn's report: https://example.org/turns/t002/\n\n"
        f"- [`state/turns/t002/battles/home.yaml`]({blob}state/turns/t002/battles/home.yaml): "
        "The battle at Home, fought on the tabletop: the NAC holds the field. The ESU's e1-1 "
        "is destroyed.\n")
    assert summary.endswith("\n" + fought) and "waits for" not in summary
    closed = run_battles_job(bare, tmp_path, outputs)
    assert closed is not None and closed.ok, closed.stderr
    (issue,) = issues(tmp_path)
    assert issue.state == "closed" and issue.comments == (fought,)
    # Runs after that leave the closed issue alone.
    later, outputs, _ = run_turn_step(checkout(bare, tmp_path / "later"), tmp_path, BATTLE_NOW)
    assert later.returncode == 0 and run_battles_job(bare, tmp_path, outputs) is None
    assert len(issues(tmp_path)) == 1


def test_the_battles_job_closes_nothing_when_no_issue_was_opened(
        battle_campaign, github, tmp_path, run):  # noqa: F811
    # The umpire fought the battle and filled its result in before the campaign was on
    # GitHub: no run paused the turn, so no issue was opened.
    root = battle_campaign
    run("turn", "--source", root, "--now", BATTLE_NOW)
    fill(root, **FOUGHT)
    git(root, "init", "-q", "-b", "main")
    committer(root)
    bare = publish_to(github, root)
    done, outputs, _ = run_turn_step(checkout(bare, tmp_path / "runner"), tmp_path, BATTLE_NOW)
    assert done.returncode == 0 and outputs["fought"] == "t002"
    closed = run_battles_job(bare, tmp_path, outputs)
    assert closed is not None and closed.ok, closed.stderr
    assert ("::notice::no open issue of the bot waits for the battles of t002; nothing to "
            "close") in closed.stdout
    assert issues(tmp_path) == []


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



@pytest.mark.parametrize(("changes", "outcome"), [
    (FOUGHT, "The battle at Home, fought on the tabletop: the NAC holds the field. The "
     "ESU's e1-1 is destroyed."),
    ({'"e1-1", design: dd, hull: 10, damage: 0, fate: afloat':
      '"e1-1", design: dd, hull: 10, damage: 4, fate: drifting', "held_by:": "held_by: nac",
      "fought: false": "fought: true"},
     "The battle at Home, fought on the tabletop: the NAC holds the field. The ESU's e1-1 "
     "(DD) is left drifting and taken by the NAC as a prize."),
    # Where a force jumped to is told to its owner alone (ftc2007 §18.4): the comment,
    # which everyone reads, says that it jumped out and nothing of where.
    ({"withdrew: []": "withdrew: [{player: esu, to: [1, 0]}]", "held_by:": "held_by: nac",
      "fought: false": "fought: true"},
     "The battle at Home, fought on the tabletop: the NAC holds the field. A task group of "
     "the ESU jumps out of Home; where to, only the ESU knows."),
])
def test_how_each_battle_ended_is_told_by_name_once_its_turn_is_resolved(
        battle_campaign, run, changes, outcome):  # noqa: F811
    run("turn", "--source", battle_campaign, "--now", BATTLE_NOW)
    fill(battle_campaign, **changes)
    assert run("turn", "--source", battle_campaign, "--now", BATTLE_NOW)[0] == 0
    code, out, err = run("battles", "report", "t002", "--source", battle_campaign,
                         "--link", "L/")
    assert (code, err) == (0, "")
    assert out == (
        "## t002 is resolved: its 1 battle fought on the tabletop is in\n\n"
        "The turn's report: https://example.org/turns/t002/\n\n"
        "- [`state/turns/t002/battles/home.yaml`](L/state/turns/t002/battles/home.yaml): "
        f"{outcome}\n")


def test_a_turn_resolved_without_a_tabletop_battle_has_no_battles_to_tell(campaign, run):
    _, root = campaign
    assert run("turn", "--source", root, "--now", "2026-03-09T10:00:00+00:00")[0] == 0
    assert run("battles", "report", "t001", "--source", root) == (
        1, "", "ftpress: t001 was resolved without a battle fought on the tabletop: "
        "state/turns/t001/battles/ holds no result file\n")
