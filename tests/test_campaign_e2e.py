"""A campaign played on a stand-in for GitHub: ``ftpress init``, ftpress installed
from this checkout's wheel by the campaign's own install step, a bare repository,
and the orders and publishing workflows' own steps run as GitHub runs them (their
scripts, with the ``GITHUB_*`` environment and each event's payload). Three turns:
pull requests from every player, one touching another player's file, a late one,
one made stale by a resolved turn, merges back to back through the merge queue's
check, a player who sends nothing, a merge landing during a publishing run, and a
third party verifying every turn from a clone. (The tabletop pause is played in
tests/test_publish_run.py: a campaign made by ``init`` has no fleets yet to meet.)"""

from __future__ import annotations

import re
import shutil
import subprocess
from datetime import datetime
from pathlib import Path

import pytest
import yaml
from test_publish_run import MASTER, checkout, committer, git, log, publish_to, run_turn_step
from test_release import build_wheel, install_ftpress, runner

from conftest import REPO

pytestmark = [pytest.mark.skipif(shutil.which("git") is None, reason="needs git"),
              pytest.mark.release]

ORDERS = yaml.safe_load((REPO / "ftpress/github/workflows/orders.yml").read_text())
PLAYERS = {"nac": ("alice", 101), "nsl": ("bob", 102), "fse": ("carol", 103)}
_EXPRESSION = re.compile(r"\$\{\{\s*(.+?)\s*\}\}")


def evaluate(value: str, context: dict) -> str:
    """A workflow's ``${{ a.b || c.d }}`` against the event context (paths and ``||``)."""
    def one(match: re.Match[str]) -> str:
        for operand in match.group(1).split("||"):
            found: object = context
            for part in operand.strip().split("."):
                found = found.get(part) if isinstance(found, dict) else None
            if found:
                return str(found)
        return ""
    return _EXPRESSION.sub(one, value)


def step_env(step: dict, context: dict) -> dict[str, str]:
    return {k: evaluate(str(v), context) for k, v in step.get("env", {}).items()}


class Hub:
    """The bare repository and what GitHub would do with it."""

    def __init__(self, tmp_path: Path, bare: Path, run, environ: dict[str, str]) -> None:
        self.tmp, self.bare, self.run, self.count = tmp_path, bare, run, 0
        #: Where the runner's ftpress is: the one installed from the wheel.
        self.environ = environ

    def clone(self, name: str) -> Path:
        where = self.tmp / "clones" / name
        if not where.exists():
            subprocess.run(["git", "clone", "-q", str(self.bare), str(where)], check=True)
            committer(where)
        git(where, "fetch", "-q", "origin")
        git(where, "checkout", "-q", "-B", "main", "origin/main")
        return where

    def pull_request(self, login: str, files: dict[str, str]) -> dict:
        """A player's branch with ``files``, pushed; the pull_request event's context."""
        self.count += 1
        player = self.clone(login)
        branch = f"{login}-{self.count}"
        git(player, "checkout", "-q", "-b", branch)
        for rel, text in files.items():
            (player / rel).parent.mkdir(parents=True, exist_ok=True)
            (player / rel).write_text(text)
            git(player, "add", rel)
        git(player, "commit", "-q", "-m", f"orders from {login}")
        git(player, "push", "-q", "origin", branch)
        user = next((i for lg, i in PLAYERS.values() if lg == login), 9)
        return {"event_name": "pull_request", "branch": branch, "github": {"event": {
            "pull_request": {"number": self.count,
                             "base": {"sha": git(self.bare, "rev-parse", "main")},
                             "head": {"sha": git(player, "rev-parse", "HEAD")},
                             "user": {"id": user, "login": login}}}}}

    def check(self, context: dict, now: str) -> subprocess.CompletedProcess[str]:
        """The orders workflow's check job: its checkout, base checkout and check steps."""
        runner = self.tmp / "runners" / f"check-{self.count}-{context['event_name']}"
        shutil.rmtree(runner, ignore_errors=True)
        subprocess.run(["git", "clone", "-q", str(self.bare), str(runner)], check=True)
        git(runner, "fetch", "-q", "origin", "+refs/heads/*:refs/remotes/origin/*")
        steps = ORDERS["jobs"]["check"]["steps"]
        base = next(s for s in steps if s.get("name", "").startswith("Check out the base"))
        subprocess.run(["bash", "-e", "-c", base["run"]], cwd=runner, check=True,
                       env={**_env(self, now), **step_env(base, context)})
        wanted = "Check the merge group" if context["event_name"] == "merge_group" \
            else "Check the pull request"
        step = next(s for s in steps if s.get("name", "").startswith(wanted))
        return subprocess.run(["bash", "-e", "-c", step["run"]], cwd=runner, text=True,
                              capture_output=True, timeout=120, check=False,
                              env={**_env(self, now), **step_env(step, context)})

    def merge(self, pr: dict, now: str) -> subprocess.CompletedProcess[str]:
        """Through the merge queue: the merge group checked against main, then pushed."""
        umpire = self.clone("umpire")
        git(umpire, "fetch", "-q", "origin", pr["branch"])
        git(umpire, "merge", "-q", "--no-ff", "-m", f"Merge pull request #{pr['github']['event']['pull_request']['number']}", "FETCH_HEAD")
        queue = f"gh-readonly-queue/main/pr-{self.count}"
        git(umpire, "push", "-q", "origin", f"HEAD:refs/heads/{queue}")
        group = {"event_name": "merge_group", "github": {"event": {"merge_group": {
            "base_sha": git(self.bare, "rev-parse", "main"),
            "head_sha": git(umpire, "rev-parse", "HEAD"), "head_ref": f"refs/heads/{queue}"}}}}
        done = self.check(group, now)
        if done.returncode == 0:
            git(umpire, "push", "-q", "origin", "HEAD:main")
        return done

    def publish(self, now: str) -> subprocess.CompletedProcess[str]:
        self.count += 1
        runner = checkout(self.bare, self.tmp / "runners" / f"publish-{self.count}")
        done, _, _ = run_turn_step(runner, self.tmp, now, self.environ)
        assert done.returncode == 0, done.stdout + done.stderr
        return done


def _env(hub: Hub, now: str) -> dict[str, str]:
    return {**hub.environ,
            "SOURCE_DATE_EPOCH": str(int(datetime.fromisoformat(now).timestamp()))}


def orders(turn: str, player: str, note: str = "Hold.") -> str:
    # Only the first week of an economic turn takes economic orders (§5.2).
    economy = "economy:\n  maintenance: full\n" if turn == "t001" else ""
    return f"turn: {turn}\nplayer: {player}\ngroups: {{}}\n{economy}# {note}\n"


@pytest.fixture
def hub(tmp_path, run, monkeypatch) -> Hub:
    monkeypatch.setenv("FTPRESS_UMPIRE_SECRET", MASTER)
    root = tmp_path / "made"
    args = [a for p, (login, i) in PLAYERS.items() for a in ("--player", f"{p}:{login}:{i}")]
    assert run("init", root, *args, "--umpire", "ump:9", "--seed", "42", "--now",
               "2026-03-01T10:00:00+00:00", "--secrecy", "open")[0] == 0  # plain orders
    committer(root)
    # The runner's ftpress: this checkout's wheel, installed by the campaign's own step.
    wheels = tmp_path / "index"
    build_wheel(wheels)
    environ = runner(tmp_path / "runner-env", wheels)
    install_ftpress(root, environ)
    return Hub(tmp_path, publish_to(tmp_path / "github", root), run, environ)


def test_three_turns_played_through_the_workflows(hub):
    early = "2026-03-02T10:00:00+00:00"
    # t001: nac and nsl send orders; nsl first tries to change nac's; fse sends nothing.
    nac = hub.pull_request("alice", {"orders/t001/nac.yaml": orders("t001", "nac")})
    assert hub.check(nac, early).returncode == 0
    meddling = hub.pull_request("bob", {"orders/t001/nac.yaml": orders("t001", "nac", "Mine.")})
    refused = hub.check(meddling, early)
    assert refused.returncode == 1 and "is nac's orders, but the pull request is from nsl" \
        in refused.stderr
    nsl = hub.pull_request("bob", {"orders/t001/nsl.yaml": orders("t001", "nsl")})
    assert hub.check(nsl, early).returncode == 0
    stale = hub.pull_request("carol", {"orders/t001/fse.yaml": orders("t001", "fse")})
    assert hub.check(stale, early).returncode == 0  # in time, but never merged in time
    assert hub.merge(nac, early).returncode == 0  # two merges back to back
    assert hub.merge(nsl, early).returncode == 0
    assert "t001 is not due" in hub.publish(early).stdout  # fse has not sent orders
    hub.publish("2026-03-09T10:00:00+00:00")  # past the deadline: resolved without fse
    # The stale pull request reaches the queue after t001 was resolved: refused there.
    late_merge = hub.merge(stale, "2026-03-09T11:00:00+00:00")
    assert late_merge.returncode == 1
    assert "orders for t001, but the turn open for orders is t002" in late_merge.stderr
    # t002: everyone sends orders, so it resolves before its deadline.
    t002 = "2026-03-10T10:00:00+00:00"
    for login, player in (("alice", "nac"), ("bob", "nsl"), ("carol", "fse")):
        pr = hub.pull_request(login, {f"orders/t002/{player}.yaml": orders("t002", player)})
        assert hub.check(pr, t002).returncode == 0
        assert hub.merge(pr, t002).returncode == 0
    hub.publish(t002)
    # t003: a late pull request is refused; a merge lands while the run resolves.
    late = hub.pull_request("alice", {"orders/t003/nac.yaml": orders("t003", "nac")})
    refused = hub.check(late, "2026-03-23T10:00:00+00:00")
    assert refused.returncode == 1 and "orders for t003 were due 2026-03-22 20:00 UTC" \
        in refused.stderr
    on_time = "2026-03-20T10:00:00+00:00"
    nsl3 = hub.pull_request("bob", {"orders/t003/nsl.yaml": orders("t003", "nsl")})
    runner = checkout(hub.bare, hub.tmp / "runners" / "publish-t003")
    assert hub.merge(nsl3, on_time).returncode == 0  # lands after the runner checked out
    done, _, _ = run_turn_step(runner, hub.tmp, "2026-03-23T10:00:00+00:00", hub.environ)
    assert done.returncode == 0 and "::notice::main moved" in done.stdout

    turns = [s for s in log(hub.bare) if s.startswith("Turn ")]
    assert [t.split(":")[0] for t in turns] == ["Turn 3 (t003) resolved", "Turn 2 (t002) resolved",
                                                "Turn 1 (t001) resolved"]
    third_party = hub.clone("third-party")
    for turn, sent in (("t001", ["nac", "nsl"]), ("t002", ["fse", "nac", "nsl"]),
                       ("t003", ["nsl"])):
        record = yaml.safe_load((third_party / f"state/turns/{turn}/turn.yaml").read_text())
        assert record["orders"] == sent  # nothing merged was lost, nothing else came in
        assert hub.run("turn", "--source", third_party, "--verify", turn)[0] == 0
    campaign = yaml.safe_load((third_party / "state/campaign.yaml").read_text())
    assert campaign["calendar"]["turn"] == 4
    assert hub.run("check", "--source", third_party) == (0, "checked the campaign: no problems\n", "")
