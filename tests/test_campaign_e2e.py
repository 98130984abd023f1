"""A sealed campaign played on a stand-in for GitHub as a personal account has it, the
proof of issue 30: ``ftpress init``, ftpress installed from this checkout's wheel by
the campaign's own install step, a bare repository, and the campaign's own workflows
run job by job as GitHub runs them (tests/workflowrun.py: their scripts, ``if:`` and
``env:``, the ``GITHUB_*`` environment, each event's payload, secrets as GitHub gives
them), GitHub's issues, pull requests and dispatches through a fake ``gh``
(tests/fakegh.py).

What GitHub does is done as it does it: every player works in a fork and has no
write access; a pull request's head is copied to ``refs/pull/N/head`` and checked
through its test-merge ref ``refs/pull/N/merge``, with no secret; the umpire's
secret and key are secrets of the environment ``umpire``, which only main may use;
a repository of a personal account has no merge queue; the merge workflow runs on
``workflow_run`` after the check, and what the workflows' token does (a merge, an
issue) starts no workflow, except the ``workflow_dispatch`` it asks for, which
starts the publishing run; GitHub dates each merge commit when it merges.

Four turns. t001, the set-up turn: nac and nsl send orders, merged by the merge
workflow; nsl first tries to change nac's file; fse's pull request is checked in
time but its merge run comes after the turn was resolved and refuses it, and the
umpire then merges it by hand: a stale merge, set aside by the next run and said on
the pull request. fse, who sent nothing, is reminded once, though two runs find the
reminder due, and an issue a player opened with the bot's title is never touched.
t002: everyone sends orders, nsl attacks nac at Cedar Point: the turn pauses for the
tabletop; nac's change of mind, checked before the pause, is merged by hand during
it and never folded in; the result is committed and the turn resolved with nac's
orders as they were at the pause. t003: a late pull request is refused, merged by
hand after the deadline anyway, and set aside at resolution; a merge lands while a
run resolves it. t004: nobody sends orders and no run comes until weeks after the
deadline. Then: every turn verifies for a third party from a clone, no run was
green when it should have committed, nothing late was folded in, the site deploys
only when it changed, and nothing of the sealed orders shows in any log, summary,
issue or comment."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
from datetime import datetime
from pathlib import Path
from typing import Any

import fakegh
import pytest
import yaml
from pyrage import x25519
from test_publish_run import MASTER, committer, git, log, server
from test_release import build_wheel, install_ftpress, runner
from test_workflows import STEALING
from workflowrun import Concurrency, Environment, JobRun, context, holds, job_runs, run_job

from ftpress import __version__
from ftpress.store.state_edits import current_state, write_state_file

pytestmark = [pytest.mark.skipif(shutil.which("git") is None, reason="needs git"),
              pytest.mark.release]

#: In every order file, and in no log, job summary, issue or comment.
SECRET = "a sealed word"
PLAYERS = {"nac": ("alice", 101), "nsl": ("bob", 102), "fse": ("carol", 103)}
LOGINS = {login: player for player, (login, _) in PLAYERS.items()}
#: What nac and nsl buy in the set-up turn: a destroyer each, at two worlds two hexes
#: apart (nac's Cedar Point, nsl's Obsidian).
SETUP = {"nac": "nac-1: {at: cedar-point, ships: [{design: nac-ticonderoga, name: Lancer}]}",
         "nsl": "nsl-1: {at: obsidian, ships: [{design: nsl-waldburg, name: Adler}]}"}
#: The battle at Cedar Point as the umpires fought it: Adler destroyed, Lancer four
#: boxes down, nac holds the field.
FOUGHT = {'"Adler", design: nsl-waldburg, hull: 10, damage: 0, fate: afloat':
          '"Adler", design: nsl-waldburg, hull: 10, damage: 0, fate: destroyed',
          '"Lancer", design: nac-ticonderoga, hull: 10, damage: 0':
          '"Lancer", design: nac-ticonderoga, hull: 10, damage: 4',
          "held_by:": "held_by: nac", "fought: false": "fought: true"}


def epoch(now: str) -> str:
    return str(int(datetime.fromisoformat(now).timestamp()))


def dated(now: str) -> dict[str, str]:
    """The environment of a git command whose commit GitHub dates ``now``."""
    return {**os.environ, "GIT_COMMITTER_DATE": now, "GIT_AUTHOR_DATE": now}


class Hub:
    """The bare repository, the players' forks, the campaign's workflows, and what
    GitHub does with them."""

    def __init__(self, tmp_path: Path, bare: Path, run, environ: dict[str, str],
                 workflows: Path, umpire_key: str, keys: dict[str, Path],
                 merge_queue: bool = False) -> None:
        self.tmp, self.bare, self.run, self.count = tmp_path, bare, run, 0
        self.keys = keys
        #: An organization's repository whose main requires a merge queue.
        self.merge_queue = merge_queue
        #: The publishing workflow's concurrency group, as GitHub keeps it.
        self.concurrency = Concurrency()
        #: The environment umpire, main alone; no repository secret at all.
        self.environments = {"umpire": Environment(("main",), {
            "FTPRESS_UMPIRE_SECRET": MASTER, "FTPRESS_UMPIRE_KEY": umpire_key})}
        store = tmp_path / "github.json"
        self.gh = fakegh.Issues(store)
        bin_dir = tmp_path / "fake-gh"
        self.environ = {**environ, **fakegh.install(bin_dir, store, merge_queue),
                        "PATH": f"{bin_dir}{os.pathsep}{environ['PATH']}"}
        self.workflows = {name: yaml.safe_load((workflows / f"{name}.yml").read_text())
                          for name in ("orders", "merge", "publish")}
        self.site = tmp_path / "runners" / "site"
        #: The Actions cache's keys, and the sites given to Pages.
        self.cache: set[str] = set()
        self.deployed: list[str] = []
        #: Every job's log and summary, as GitHub shows them to anyone.
        self.logs: list[str] = []
        #: Each publishing run: (green, main moved, what its turn job said).
        self.runs: list[tuple[bool, bool, str]] = []

    def main(self) -> str:
        return git(self.bare, "rev-parse", "main")

    def clone(self, name: str, origin: Path | None = None) -> Path:
        where = self.tmp / "clones" / name
        if not where.exists():
            subprocess.run(["git", "clone", "-q", str(origin or self.bare), str(where)],
                           check=True)
            committer(where)
        git(where, "fetch", "-q", str(self.bare), "main")
        git(where, "checkout", "-q", "-B", "main", "FETCH_HEAD")
        return where

    def fork(self, login: str) -> Path:
        """The player's fork on GitHub (a bare repository of their own)."""
        fork = self.tmp / "github" / login / "camp.git"
        if not fork.exists():
            subprocess.run(["git", "clone", "-q", "--bare", str(self.bare), str(fork)],
                           check=True)
        return fork

    def workspace(self, name: str, ref: str, fetch: str | None = None) -> Path:
        """actions/checkout: every branch fetched (fetch-depth: 0), and ``fetch`` (a pull
        request's test-merge ref) too; ``ref`` checked out."""
        where = self.tmp / "runners" / name
        shutil.rmtree(where, ignore_errors=True)
        subprocess.run(["git", "clone", "-q", str(self.bare), str(where)], check=True)
        if fetch:
            git(where, "fetch", "-q", "origin", fetch)
        git(where, "checkout", "-q", "--detach", ref)
        return where

    def pull_request(self, login: str, files: dict[str, str], now: str) -> dict[str, Any]:
        """A player's branch in their fork with ``files`` sealed (each to its player),
        and the pull request GitHub makes of it: its head copied to refs/pull/N/head,
        its test merge with main to refs/pull/N/merge. The pull_request event."""
        self.count += 1
        number = self.count
        player = self.clone(login, self.fork(login))
        branch = f"{login}-{number}"
        git(player, "checkout", "-q", "-b", branch)
        for rel, text in files.items():
            (player / rel).parent.mkdir(parents=True, exist_ok=True)
            (player / rel).write_text(text)
            # Sealed as its player's (ftpress seal opens it again with that key); another
            # player's file stands for one made without ftpress, to the same recipients.
            identity = ["--identity", str(self.keys[Path(rel).stem])]
            code, _, err = self.run("seal", player / rel, "--source", player, *identity)
            assert code == 0, err
            git(player, "add", f"{rel}.age")  # the plain file is git-ignored
        subprocess.run(["git", "-C", str(player), "commit", "-q", "-m", f"orders from {login}"],
                       check=True, env=dated(now))
        git(player, "push", "-q", "origin", branch)
        head = git(player, "rev-parse", "HEAD")
        git(self.bare, "fetch", "-q", str(self.fork(login)), f"{branch}:refs/pull/{number}/head")
        user = PLAYERS[LOGINS[login]][1] if login in LOGINS else 9
        self.gh.open_pull(number, head, user, login)
        return {"number": number, "branch": branch, "head": {"sha": head, "ref": branch,
                                                             "repo": {"full_name": f"{login}/camp"}},
                "user": {"id": user, "login": login}}

    def _test_merge(self, pr: dict[str, Any], now: str) -> str:
        """GitHub's test merge of the pull request with main: refs/pull/N/merge."""
        scratch = self.clone("test-merge")
        git(scratch, "fetch", "-q", "origin", f"refs/pull/{pr['number']}/head")
        subprocess.run(["git", "-C", str(scratch), "merge", "-q", "--no-ff", "-m",
                        f"Merge {pr['head']['sha']} into {self.main()}", "FETCH_HEAD"],
                       check=True, env=dated(now), capture_output=True)
        git(scratch, "push", "-q", "-f", "origin", f"HEAD:refs/pull/{pr['number']}/merge")
        return git(scratch, "rev-parse", "HEAD")

    def check(self, pr: dict[str, Any], now: str, then_merge: bool = True) -> JobRun:
        """The orders workflow on the pull request (a fork's: no secret, read-only),
        then, as GitHub starts it on the check's completion, the merge workflow
        (``then_merge``; it may also come later: :meth:`merge_run`)."""
        merge_sha = self._test_merge(pr, now)
        pr["base"] = {"sha": self.main(), "ref": "main"}
        payload = {"action": "synchronize", "number": pr["number"],
                   "pull_request": {k: v for k, v in pr.items() if k != "checked"}}
        name = f"check-{pr['number']}-{merge_sha[:8]}"
        done = self._logged(run_job(
            self.workflows["orders"], "check",
            self.workspace(name, merge_sha, f"refs/pull/{pr['number']}/merge"),
            {**self.environ, "SOURCE_DATE_EPOCH": epoch(now)},
            context("pull_request", payload, sha=merge_sha, fork=True,
                    ref=f"refs/pull/{pr['number']}/merge", environments=self.environments),
            self.tmp / "temp" / name, server(self.tmp)))
        pr["checked"] = "success" if done.ok else "failure"
        if then_merge:
            self.merge_run(pr, now)
        return done

    def merge_run(self, pr: dict[str, Any], now: str) -> JobRun | None:
        """The merge workflow on workflow_run (the check of ``pr`` completed): its job if
        its ``if:`` holds; GitHub then makes the merge it asked for, dated ``now``,
        and starts the publishing run it dispatched."""
        run_context = self._completed(pr)
        job = self.workflows["merge"]["jobs"]["merge"]
        if not holds(job["if"], run_context):
            return None
        name = f"merge-{pr['number']}-{self.count}"
        done = self._logged(run_job(self.workflows["merge"], "merge",
                                    self.workspace(name, "main"),
                                    {**self.environ, "SOURCE_DATE_EPOCH": epoch(now)},
                                    run_context, self.tmp / "temp" / name, server(self.tmp)))
        assert done.ok, done.stdout + done.stderr
        for merge in self.gh.take_merges():
            assert (merge.number, merge.head, merge.how) == (pr["number"], pr["head"]["sha"],
                                                             "squash")
            self.squash(pr, now)
        for dispatch in self.gh.take_dispatches():
            assert (dispatch["workflow"], dispatch["ref"]) == ("publish.yml", "main")
            self.publish(now, "workflow_dispatch")
        return done

    def _completed(self, pr: dict[str, Any]) -> dict[str, Any]:
        """The context of the merge workflow's run when the check of ``pr`` completed."""
        payload = {"workflow_run": {"event": "pull_request", "conclusion": pr["checked"],
                                    "head_sha": pr["head"]["sha"], "name": "orders"}}
        return context("workflow_run", payload, sha=self.main(),
                       environments=self.environments)

    def merge_together(self, prs: list[dict[str, Any]], now: str) -> None:
        """The merge runs of checks that completed together, queued while the first is in
        progress: each in its own concurrency group (the head it checked), so GitHub
        cancels none and none waits; each then runs (:meth:`merge_run`)."""
        workflow = self.workflows["merge"]
        names = [f"merge-{pr['number']}-{pr['head']['sha'][:8]}" for pr in prs]
        for name, pr in zip(names, prs, strict=True):
            self.concurrency.queue(name, workflow, self._completed(pr))
        assert [self.concurrency.state(name) for name in names] == ["in_progress"] * len(prs)
        for name, pr in zip(names, prs, strict=True):
            self.merge_run(pr, now)
            assert self.concurrency.finish(name) is None

    def squash(self, pr: dict[str, Any], now: str) -> str:
        """GitHub squashes the pull request onto main (the merge workflow asked, or the
        umpire clicked): one commit, dated by GitHub ``now``."""
        scratch = self._squashed(pr, now, "merger")
        git(scratch, "push", "-q", "origin", "HEAD:main")
        commit = git(scratch, "rev-parse", "HEAD")
        self.gh.merged(pr["number"], commit)
        return commit

    def _squashed(self, pr: dict[str, Any], now: str, name: str) -> Path:
        """A clone of main (``name``) with the pull request squashed onto it, committed
        ``now`` as GitHub commits a squash."""
        scratch = self.clone(name)
        git(scratch, "fetch", "-q", "origin", f"refs/pull/{pr['number']}/head")
        git(scratch, "merge", "-q", "--squash", "FETCH_HEAD")
        subprocess.run(["git", "-C", str(scratch), "commit", "-q", "-m",
                        f"orders from {pr['user']['login']} (#{pr['number']})"],
                       check=True, env=dated(now))
        return scratch

    def _logged(self, job: JobRun) -> JobRun:
        self.logs.append(job.stdout + job.stderr + job.summary)
        return job

    def _uses(self, action: str, given: dict[str, str], workspace: Path) -> dict | None:
        """The Actions cache (its keys) and the Pages artifact, as the build and the
        deploy jobs use them."""
        if action == "actions/cache/restore":
            assert given["lookup-only"] == "true"
            return {"cache-hit": "true" if given["key"] in self.cache else "false"}
        if action == "actions/cache/save":
            self.cache.add(given["key"])
            return {}
        if action == "actions/upload-pages-artifact":
            self.site = workspace / given["path"]
            return {}
        return None

    def publish(self, now: str, event: str = "schedule", workspace: Path | None = None,
                build: bool = False, cancelled_after_turn: bool = False) -> JobRun:
        """One run of the publishing workflow: the turn job (from ``workspace`` if it was
        checked out earlier), then each job GitHub starts once the jobs it needs are
        done (:func:`workflowrun.job_runs`). With ``build`` the site is built and
        deployed when it changed; without, the build job stands in as a build that found
        the site as deployed (nothing to deploy), to spare the test a build per run.
        ``cancelled_after_turn``: a person cancels the run once its turn job is done,
        and no other job of it runs."""
        self.count += 1
        sha = self.main()
        name = f"publish-{self.count}"
        environ = {**self.environ, "SOURCE_DATE_EPOCH": epoch(now)}
        workflow = self.workflows["publish"]
        turn = self._logged(run_job(workflow, "turn", workspace or self.workspace(name, sha),
                                    environ, context(event, {}, sha=sha,
                                                     environments=self.environments),
                                    self.tmp / "temp" / name, server(self.tmp)))
        moved = self.main() != sha
        self.runs.append((turn.ok, moved, turn.stdout))
        if not turn.ok:
            return turn
        needs: dict[str, Any] = {"turn": {"outputs": turn.outputs, "result": "success"}}
        if not build:
            needs["build"] = {"outputs": {"changed": "false"}, "result": "success"}
        for job in ("battles", "tell", "remind", "build", "deploy", "deployed", "views"):
            if job in needs:
                continue
            run_context = context(event, {}, sha=sha, needs=needs,
                                  environments=self.environments)
            if not job_runs(workflow["jobs"][job], run_context, cancelled_after_turn):
                needs[job] = {"outputs": {}, "result": "cancelled" if cancelled_after_turn
                              else "skipped"}
                continue
            if job == "deploy":
                self.deployed.append(needs["build"]["outputs"]["digest"])
                needs[job] = {"outputs": {}, "result": "success"}
                continue
            where = self.workspace(f"{name}-{job}", turn.outputs["sha"])
            done = self._logged(run_job(workflow, job, where, environ, run_context,
                                        self.tmp / "temp" / f"{name}-{job}", server(self.tmp),
                                        uses=self._uses))
            assert done.ok, done.stdout + done.stderr
            needs[job] = {"outputs": done.outputs, "result": "success"}
        return turn

    def publish_together(self, runs: list[tuple[str, str]]) -> list[JobRun | None]:
        """Runs of the publishing workflow (each its time and event) queued one after
        another while the first is in progress (checked out at once): GitHub's
        concurrency group decides which run (:class:`workflowrun.Concurrency`). What
        each did, in the order given; None for a run cancelled."""
        workflow = self.workflows["publish"]
        names = [f"queued-{self.count}-{i}" for i in range(len(runs))]
        first: Path | None = None
        for name, (_, event) in zip(names, runs, strict=True):
            if self.concurrency.queue(name, workflow, context(event, {}, sha=self.main())):
                first = self.workspace(name, self.main())
        assert first is not None and self.concurrency.state(names[0]) == "in_progress"
        done: dict[str, JobRun] = {}
        running: str | None = names[0]
        while running is not None:
            now, event = runs[names.index(running)]
            done[running] = self.publish(now, event, workspace=first if running == names[0]
                                         else None)
            running = self.concurrency.finish(running)
        return [done.get(name) for name in names]

    def enqueue(self, pr: dict[str, Any], now: str) -> dict[str, Any]:
        """The umpire adds the pull request to main's merge queue (a person's act, so
        GitHub starts the merge_group run): the queue's merge group, main with the pull
        request squashed onto it, dated ``now``, on its own branch, checked by the
        orders workflow (:meth:`land` then lands it, or not)."""
        assert self.merge_queue
        base = self.main()
        scratch = self._squashed(pr, now, "queue")
        head = git(scratch, "rev-parse", "HEAD")
        ref = f"refs/heads/gh-readonly-queue/main/pr-{pr['number']}-{base}"
        git(scratch, "push", "-q", "-f", "origin", f"HEAD:{ref}")
        payload = {"action": "checks_requested", "merge_group": {
            "head_sha": head, "head_ref": ref, "base_sha": base, "base_ref": "refs/heads/main",
            "head_commit": {"id": head, "message": f"orders (#{pr['number']})"}}}
        name = f"queue-{pr['number']}-{head[:8]}"
        check = self._logged(run_job(
            self.workflows["orders"], "check", self.workspace(name, head, ref),
            {**self.environ, "SOURCE_DATE_EPOCH": epoch(now)},
            context("merge_group", payload, sha=head, ref=ref, environments=self.environments),
            self.tmp / "temp" / name, server(self.tmp)))
        return {"pr": pr, "base": base, "head": head, "check": check, "at": now}

    def land(self, group: dict[str, Any], now: str) -> JobRun:
        """The queue lands a merge group whose check passed: main moves to its commit,
        at ``now``. If main moved since the group was made, GitHub makes it again on
        the new main and checks it again, at ``now``, first. What the last check said;
        a group that fails it is taken out of the queue and never lands."""
        if group["base"] != self.main():
            group.update(self.enqueue(group["pr"], now))
        if group["check"].ok:
            git(self.bare, "update-ref", "refs/heads/main", group["head"], group["base"])
            self.gh.merged(group["pr"]["number"], group["head"])
        return group["check"]


def orders(turn: str, player: str, groups: str = "{}", note: str = "Hold.") -> str:
    # The set-up turn buys the starting forces; only the first week of an economic
    # turn takes economic orders (§5.2).
    setup = f"setup:\n  groups:\n    {SETUP[player]}\n" if turn == "t001" and player in SETUP \
        else ""
    economy = "economy:\n  maintenance: full\n" if turn == "t001" else ""
    # The comment stands for what nobody but the player and the umpires may read.
    return (f"turn: {turn}\nplayer: {player}\n{setup}groups: {groups}\n{economy}"
            f"# {note} ({SECRET} of {player}, {turn})\n")


def prepare(root: Path, run, keys: Path) -> tuple[str, dict[str, Path]]:
    """The umpire's edits before play, made as ftpress's own state edits are (the whole
    file sealed beside its public projection): each player's public key in the roster
    (each player makes an age key and sends its public half), a reminder a day before
    each deadline, and pull requests that pass given to the merge queue by the
    workflow (``auto_merge``); then ``keys seal-campaign``, which writes the players'
    keys into every snapshot, as ``check`` asks. The umpire key's text (for the
    repository secret; the key file is not left in the campaign) and each player's
    key file."""
    files = {}
    keys.mkdir()
    recipients = {}
    for player in PLAYERS:
        identity = x25519.Identity.generate()
        files[player] = keys / f"{player}.key"
        files[player].write_text(f"{identity}\n")
        recipients[player] = str(identity.to_public())
    state = current_state(root)
    calendar = dataclasses.replace(state.campaign.calendar, reminder="1d")
    settings = dataclasses.replace(state.campaign.settings, auto_merge=True)
    state = dataclasses.replace(
        state, campaign=dataclasses.replace(state.campaign, calendar=calendar,
                                            settings=settings),
        players=dataclasses.replace(state.players, players=tuple(
            dataclasses.replace(p, recipient=recipients[p.id]) for p in state.players.players)))
    write_state_file(root, state, "campaign")
    write_state_file(root, state, "players")
    assert run("keys", "seal-campaign", "--source", root)[0] == 0
    key_file = root / ".ftpress-umpire-key"
    umpire_key = key_file.read_text()
    key_file.unlink()
    return umpire_key, files


@pytest.fixture
def hub(tmp_path, run, monkeypatch) -> Hub:
    """A repository of a personal account: no merge queue."""
    return make_hub(tmp_path, run, monkeypatch)


@pytest.fixture
def org_hub(tmp_path, run, monkeypatch) -> Hub:
    """A repository of an organization, whose main requires a merge queue."""
    return make_hub(tmp_path, run, monkeypatch, merge_queue=True)


def make_hub(tmp_path, run, monkeypatch, merge_queue: bool = False) -> Hub:
    monkeypatch.setenv("FTPRESS_UMPIRE_SECRET", MASTER)
    root = tmp_path / "made"
    args = [a for p, (login, i) in PLAYERS.items() for a in ("--player", f"{p}:{login}:{i}")]
    # The wheel from a folder of wheels, as PyPI serves it once released.
    assert run("init", root, *args, "--umpire", "ump:9", "--repository", "owner/camp",
               "--secrecy", "sealed", "--seed", "42", "--now", "2026-03-01T10:00:00+00:00",
               "--ftpress-requirement", __version__)[0] == 0
    umpire_key, keys = prepare(root, run, tmp_path / "keys")
    assert run("check", "--source", root)[0] == 0
    committer(root)
    # The runner's ftpress: this checkout's wheel, installed by the campaign's own step.
    wheels = tmp_path / "index"
    build_wheel(wheels)
    environ = runner(tmp_path / "runner-env", wheels)
    install_ftpress(root, environ)
    bare = tmp_path / "github/owner/camp.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(bare)], check=True)
    git(root, "add", "-A")
    subprocess.run(["git", "-C", str(root), "commit", "-q", "-m", "The campaign"], check=True,
                   env=dated("2026-03-01T10:00:00+00:00"))
    git(root, "push", "-q", str(bare), "HEAD:main")
    return Hub(tmp_path, bare, run, environ, root / ".github/workflows", umpire_key, keys,
               merge_queue)


def test_a_sealed_campaign_played_from_forks_on_a_personal_account(hub):
    early = "2026-03-02T10:00:00+00:00"
    # Someone opens an issue with the bot's title: the bot never touches it.
    hub.gh.opened_by("mallory", "Orders reminders", "Anything the bot says here is mine.")
    # t001, the set-up turn: nac's orders, merged by the merge workflow, which starts the
    # publishing run (t001 is not due: nsl and fse have not sent orders).
    nac = hub.pull_request("alice", {"orders/t001/nac.yaml": orders("t001", "nac")}, early)
    assert hub.check(nac, early).ok
    assert "t001 is not due" in hub.runs[-1][2]
    meddling = hub.pull_request("bob", {"orders/t001/nac.yaml": orders("t001", "nac",
                                                                        note="Mine.")}, early)
    refused = hub.check(meddling, early)  # failed: the merge workflow does not run
    assert not refused.ok
    assert "is nac's orders, but the pull request is from nsl" in refused.stderr
    nsl = hub.pull_request("bob", {"orders/t001/nsl.yaml": orders("t001", "nsl")}, early)
    assert hub.check(nsl, early).ok
    # fse's is checked in time, but its merge run is held up past the deadline.
    stale = hub.pull_request("carol", {"orders/t001/fse.yaml": orders("t001", "fse")}, early)
    assert hub.check(stale, early, then_merge=False).ok
    # From a day before the deadline, the first run to find the reminder due reminds fse.
    # A run in progress started before then; the run the umpire starts meanwhile waits,
    # and is cancelled when the hourly run is queued (GitHub keeps one run waiting in a
    # group): the hourly run reminds fse; the next run does not again.
    before, cancelled, hourly = hub.publish_together([
        ("2026-03-07T19:55:00+00:00", "schedule"),
        ("2026-03-07T20:30:00+00:00", "workflow_dispatch"),
        ("2026-03-07T21:07:00+00:00", "schedule")])
    assert before is not None and hourly is not None and cancelled is None
    assert len(hub.concurrency.cancelled) == 1
    hub.publish("2026-03-07T22:07:00+00:00")
    assert "::notice::the reminder for this turn went out already" in "".join(hub.logs[-3:])
    bot = [i for i in hub.gh.all() if i.user == "github-actions[bot]"]
    (reminders,) = bot
    assert (reminders.title, reminders.labels) == ("Orders reminders", ("ftpress-reminders",))
    (reminder,) = reminders.comments
    assert reminder.startswith("<!-- ftpress:reminder:t001 -->\n")
    assert "Not sent yet: @carol (fse). To send yours: write orders/t001/<your-id>.yaml, " \
        "seal it with your key (ftpress seal orders/t001/<your-id>.yaml --identity <your " \
        "key file>" in reminder
    assert "send the sealed orders/t001/<your-id>.yaml.age in a pull request from your fork" \
        in reminder
    (mallorys,) = [i for i in hub.gh.all() if i.user == "mallory"]
    assert mallorys.comments == () and mallorys.state == "open"
    # Past the deadline: resolved without fse. The hourly run that would resolve it waits
    # behind a run in progress and is replaced by one the umpire starts: the turn is
    # resolved all the same, once, by the run that took its place.
    early_run, replaced, resolving = hub.publish_together([
        ("2026-03-08T19:58:00+00:00", "workflow_dispatch"),
        ("2026-03-08T20:07:00+00:00", "schedule"),
        ("2026-03-08T20:09:00+00:00", "workflow_dispatch")])
    assert replaced is None and early_run is not None and resolving is not None
    assert "t001 is not due" in early_run.stdout
    assert "t001 is due" in resolving.stdout and log(hub.bare)[0].startswith("Turn 1 (t001)")
    # fse's merge run comes now: checked again on main as it is, it is refused.
    merge_run = hub.merge_run(stale, "2026-03-09T11:00:00+00:00")
    assert merge_run is not None
    assert "does not pass on main as it is now; not merged" in merge_run.stdout
    # The umpire merges it by hand anyway: into a turn already resolved. The next run
    # sets it aside in its own commit and says so on the pull request.
    hub.squash(stale, "2026-03-09T11:30:00+00:00")
    aside = hub.publish("2026-03-09T12:00:00+00:00")
    assert "set aside: orders/t001/fse.yaml.age -> orders-set-aside/t001/" in aside.stdout
    assert log(hub.bare)[0] == ("1 order file set aside: landed after its turn closed")
    (told,) = hub.gh.pr_comments(stale["number"])
    assert told.startswith("The publishing run set `orders/t001/fse.yaml.age` aside: it "
                           "landed on main 2026-03-09 11:30 UTC, after t001 was resolved")

    # t002: everyone sends orders; nsl attacks nac at Cedar Point. The last merge makes
    # the turn due: the run it starts pauses it for the tabletop.
    t002 = "2026-03-10T10:00:00+00:00"
    everyone = []
    for login, player in (("alice", "nac"), ("carol", "fse")):
        pr = hub.pull_request(login, {f"orders/t002/{player}.yaml": orders("t002", player)},
                              t002)
        everyone.append(pr)
        assert hub.check(pr, t002, then_merge=False).ok
    # Their checks end together: both merge runs run (each in its own concurrency
    # group), and each merge starts a publishing run (t002 is not due yet).
    hub.merge_together(everyone, t002)
    assert "t002 is not due" in hub.runs[-1][2]
    # nac changes its mind: checked before the pause, merged only during it.
    amend = hub.pull_request("alice", {"orders/t002/nac.yaml": orders(
        "t002", "nac", note="Run!")}, t002)
    assert hub.check(amend, t002, then_merge=False).ok
    nsl2 = hub.pull_request("bob", {"orders/t002/nsl.yaml": orders(
        "t002", "nsl", "\n  nsl-1: {move: cedar-point, posture: attack}")}, t002)
    everyone.append(nsl2)
    assert hub.check(nsl2, t002).ok
    paused = [text for _, _, text in hub.runs if "paused" in text or "waits" in text]
    assert paused, hub.runs[-1][2]
    assert log(hub.bare)[0].startswith("Turn 2 (t002) paused")
    (issue,) = [i for i in hub.gh.all() if "ftpress-battles" in i.labels]
    assert issue.state == "open" and issue.body.startswith("<!-- ftpress:battles:t002 -->")
    during = "2026-03-11T10:00:00+00:00"
    merge_run = hub.merge_run(amend, during)  # its merge run: refused, the turn is paused
    assert merge_run is not None and "not merged" in merge_run.stdout
    hub.squash(amend, during)  # merged by hand during the pause
    # The umpires fill the result in on main and start the run.
    fight_at_cedar_point(hub)
    resolved = hub.publish("2026-03-12T10:00:00+00:00", "workflow_dispatch")
    assert "set aside: orders/t002/nac.yaml.age -> orders-set-aside/t002/" in resolved.stdout
    assert resolved.outputs["fought"] == "t002"
    (issue,) = [i for i in hub.gh.all() if "ftpress-battles" in i.labels]
    assert issue.state == "closed"
    (told,) = hub.gh.pr_comments(amend["number"])
    assert "after t002 paused for battles fought on the tabletop" in told
    assert "The version of `orders/t002/nac.yaml.age` that was on main in time is back" in told

    # t003: a late pull request is refused, and merged by hand after the deadline all the
    # same; nsl's, in time, is merged while a run resolves the turn.
    on_time = "2026-03-20T10:00:00+00:00"
    nsl3 = hub.pull_request("bob", {"orders/t003/nsl.yaml": orders("t003", "nsl")}, on_time)
    assert hub.check(nsl3, on_time, then_merge=False).ok
    runner = hub.workspace("publish-t003", hub.main())
    hub.merge_run(nsl3, "2026-03-22T19:00:00+00:00")  # lands after the runner checked out
    late = hub.pull_request("alice", {"orders/t003/nac.yaml": orders("t003", "nac")},
                            "2026-03-23T09:00:00+00:00")
    refused = hub.check(late, "2026-03-23T09:00:00+00:00")
    assert not refused.ok and "orders for t003 were due 2026-03-22 20:00 UTC" in refused.stderr
    hub.squash(late, "2026-03-23T09:30:00+00:00")
    done = hub.publish("2026-03-23T10:00:00+00:00", workspace=runner)
    assert "::notice::main moved" in done.stdout, done.stdout + done.stderr
    assert "set aside: orders/t003/nac.yaml.age -> orders-set-aside/t003/" in done.stdout
    assert "after t003's orders closed: they were due 2026-03-22 20:00 UTC" in done.stdout

    # t004: nobody sends orders, and no run comes until weeks after the deadline.
    # The umpire cancels that run once its turn job is done: its players' comment, not
    # posted, is posted by the next run.
    lagging = "2026-04-15T10:00:00+00:00"
    done = hub.publish(lagging, cancelled_after_turn=True)
    assert ("note: t005's orders are due 2026-04-19 20:00 UTC, not 2026-04-05 20:00 UTC, "
            "which had passed when t004 was resolved") in done.stdout
    before = hub.main()
    # The site is built and deployed; the next run's site is the same, and not deployed.
    assert "t005 is not due" in hub.publish(lagging, build=True).stdout
    assert hub.main() == before and len(hub.deployed) == 1
    hub.publish(lagging, build=True)
    assert len(hub.deployed) == 1
    for turn in ("t001", "t002", "t003", "t004"):
        assert (hub.site / f"turns/{turn}/index.html").is_file()

    # No run was green when the turn was due and nothing reached main.
    for green, moved, said in hub.runs:
        assert green and (moved or " is not due: " in said or "paused" in said), said
    # One commit per turn (and the pause), and the set-aside one; each turn resolved once.
    subjects = [s for s in log(hub.bare) if s.startswith(("Turn ", "1 order file"))]
    assert [re.sub(r": .*", "", s) for s in subjects] == [
        "Turn 4 (t004) resolved", "Turn 3 (t003) resolved", "Turn 2 (t002) resolved",
        "Turn 2 (t002) paused", "1 order file set aside", "Turn 1 (t001) resolved"]
    # Nothing late was folded in, and a third party verifies every turn; nac's t002
    # orders are those sent before the pause, not the change merged during it.
    third_party, out = third_party_verifies(
        hub, {"t001": ["nac", "nsl"], "t002": ["fse", "nac", "nsl"], "t003": ["nsl"],
              "t004": []}, everyone[0]["head"]["sha"],
        ["orders-set-aside/t001/fse.yaml.age", "orders-set-aside/t002/nac.yaml.age",
         "orders-set-aside/t003/nac.yaml.age"])
    set_aside = sorted(p.relative_to(third_party).as_posix()
                       for p in (third_party / "orders-set-aside").rglob("*.age"))
    for path in set_aside:
        assert f"set aside, part of no turn (it landed after its turn closed): {path}\n" in out
    key = hub.tmp / "umpire.key"
    key.write_text(hub.environments["umpire"].secrets["FTPRESS_UMPIRE_KEY"])
    assert hub.run("check", "--source", third_party, "--identity", key)[0] == 0
    # Nothing of the sealed orders was in any log, summary, issue or comment GitHub
    # shows, and only sealed orders were ever committed to orders/.
    shown = [*hub.logs, *(i.body for i in hub.gh.all()),
             *(c for i in hub.gh.all() for c in i.comments),
             *(c for pr in (stale, amend, late) for c in hub.gh.pr_comments(pr["number"]))]
    assert len(hub.logs) > 30 and not [text for text in shown if SECRET in text]
    committed = git(hub.bare, "log", "--format=", "--name-only", "main", "--", "orders/t*")
    assert {Path(f).suffix for f in committed.split()} == {".age"}
    # Every merge the workflows asked for was a squash of a player's own order file, at
    # the head that was checked.
    assert [(m.number, m.head) for m in hub.gh.merges()] == [
        (pr["number"], pr["head"]["sha"]) for pr in (nac, nsl, *everyone, nsl3)]
    assert json.loads(json.dumps(hub.gh.dispatches()))  # each merge started a run
    # Each resolved turn, once its site was deployed (or already was), the bot told every
    # player with a key that their own report is in, once per turn, whichever run first
    # found it not posted: t004's by the run after the one cancelled.
    (reports,) = [i for i in hub.gh.all() if "ftpress-reports" in i.labels]
    assert (reports.title, reports.user) == ("Turn reports", "github-actions[bot]")
    assert [c.splitlines()[0] for c in reports.comments] == [
        f"<!-- ftpress:views:{turn} -->" for turn in ("t001", "t002", "t003", "t004")]
    for comment in reports.comments:
        assert "@alice (nac), @bob (nsl), @carol (fse): open https://owner.github.io/camp/you/" \
            in comment
    # A workflow on any branch but main cannot read the key.
    key_text = hub.environments["umpire"].secrets["FTPRESS_UMPIRE_KEY"].strip()
    for said in stolen(hub):
        assert key_text not in said and MASTER not in said


def third_party_verifies(hub: Hub, sent: dict[str, list[str]], nac_t002: str,
                         set_aside: list[str]) -> tuple[Path, str]:
    """A clone anyone can make: each turn's record folded in exactly the order files
    ``sent`` (the copies on main), each verifies without a key, nac's t002 orders are
    those of nac's pull request at commit ``nac_t002``, the files set aside are
    ``set_aside`` (without their commits) and ``check`` passes. The clone and what
    ``check`` said."""
    third_party = hub.clone("third-party")
    for turn, players in sent.items():
        record = yaml.safe_load((third_party / f"state/turns/{turn}/turn.yaml").read_text())
        assert record["orders"] == players, turn
        for player in players:
            assert (third_party / f"state/turns/{turn}/orders/{player}.yaml.age").read_bytes() \
                == (third_party / f"orders/{turn}/{player}.yaml.age").read_bytes()
        verified = hub.run("turn", "--source", third_party, "--verify", turn)
        assert verified[0] == 0, verified
    kept = subprocess.run(["git", "-C", str(hub.bare), "show",
                           f"{nac_t002}:orders/t002/nac.yaml.age"],
                          capture_output=True, check=True).stdout
    assert (third_party / "state/turns/t002/orders/nac.yaml.age").read_bytes() == kept
    found = sorted(p.relative_to(third_party).as_posix()
                   for p in (third_party / "orders-set-aside").rglob("*.age"))
    assert [re.sub(r"/[0-9a-f]{12}-", "/", s) for s in found] == set_aside
    code, out, err = hub.run("check", "--source", third_party)
    assert (code, err) == (0, "")
    return third_party, out


def stolen(hub: Hub) -> list[str]:
    """A branch pushed to the repository with tests/test_workflows.py's workflow that asks
    for the key, through the environment and as a repository secret (only umpires can push one,
    and a collaborator's account can be taken over), and the same workflow in a fork's
    pull request, run as GitHub runs them: what each job printed or was told."""
    branch = hub.clone("collaborator")
    git(branch, "checkout", "-q", "-b", "steal")
    (branch / ".github/workflows/steal.yml").write_text(
        yaml.safe_dump({"on": ["push", "pull_request"], "jobs": STEALING["jobs"]}))
    git(branch, "add", ".github/workflows/steal.yml")
    git(branch, "commit", "-q", "-m", "a workflow of my own")
    git(branch, "push", "-q", "origin", "steal")
    sha = git(branch, "rev-parse", "HEAD")
    workflow = STEALING
    said = []
    for ref, fork in (("refs/heads/steal", False), ("refs/pull/99/merge", True)):
        git(hub.bare, "update-ref", ref, sha)
        for job in workflow["jobs"]:
            name = f"steal-{job}-{fork}"
            done = hub._logged(run_job(
                workflow, job, hub.workspace(name, sha, ref), hub.environ,
                context("pull_request" if fork else "push", {}, sha=sha, ref=ref, fork=fork,
                        environments=hub.environments),
                hub.tmp / "temp" / name, server(hub.tmp)))
            said.append(done.stdout + done.stderr)
            if job == "through-the-environment" and not fork:
                assert done.stderr == ('Branch "steal" is not allowed to deploy to umpire due '
                                       "to environment protection rules.\n")
            elif job == "as-a-repository-secret":
                assert done.ok and done.stdout == "key=\n"
    return said


def fight_at_cedar_point(hub: Hub) -> None:
    """The umpires fill in the battle at Cedar Point as they fought it, on main: the
    result file is committed sealed to them (issue 29), so the umpire opens it in plain
    (git-ignored), fills it in, seals it again and commits the sealed file."""
    battle = "battles/t002/cedar-point.yaml"
    umpire = hub.clone("umpire")
    assert not (umpire / battle).exists() and (umpire / f"{battle}.age").is_file()
    key = hub.tmp / "umpire-fights.key"
    key.write_text(hub.environments["umpire"].secrets["FTPRESS_UMPIRE_KEY"])
    assert hub.run("battles", "open", "t002", "--identity", key, "--source", umpire)[0] == 0
    text = (umpire / battle).read_text()
    for old, new in FOUGHT.items():
        assert old in text, old
        text = text.replace(old, new)
    (umpire / battle).write_text(text)
    assert hub.run("battles", "seal", "t002", "--identity", key, "--source", umpire)[0] == 0
    git(umpire, "commit", "-q", "-am", "The battle at Cedar Point, fought")
    git(umpire, "push", "-q", "origin", "HEAD:main")


def test_an_organization_repository_with_a_merge_queue(org_hub):
    """The same campaign on an organization's repository whose main requires a merge
    queue. The merge workflow merges nothing there (a queue entry its token made would
    start no merge_group run and never be checked) and says so; the umpire adds each
    pull request to the queue, a person's act, so the queue's merge_group run checks it
    against the main it lands on; the queue's merge starts no run, and the hourly run
    resolves the turn. A group that main moved under is made and checked again before
    it lands, so an entry queued in time but overtaken by the turn's resolution, one
    queued after the deadline and one queued during a tabletop pause never land; what
    the umpire merges by hand past the queue (an admin may bypass it) is set aside as on
    a personal account. Both turns verify for a third party."""
    hub = org_hub
    early = "2026-03-02T10:00:00+00:00"
    for login, player in (("alice", "nac"), ("bob", "nsl")):
        pr = hub.pull_request(login, {f"orders/t001/{player}.yaml": orders("t001", player)},
                              early)
        assert hub.check(pr, early).ok
        assert (f"::notice::main has a merge queue: pull request #{pr['number']} waits for "
                "the umpire to add it to the queue") in hub.logs[-1]
        assert hub.land(hub.enqueue(pr, early), early).ok
    # The workflows' token neither merged nor queued anything, nor started a run.
    assert hub.gh.merges() == [] and hub.gh.dispatches() == [] and hub.runs == []
    # fse's is queued in time and its group passes, but waits in the queue (its minimum
    # group size) while the hourly run resolves t001: main moved, the group is made
    # again on the new main and checked again, and refused. It never lands.
    fse = hub.pull_request("carol", {"orders/t001/fse.yaml": orders("t001", "fse")}, early)
    assert hub.check(fse, early).ok
    queued = hub.enqueue(fse, "2026-03-08T19:50:00+00:00")
    assert queued["check"].ok
    resolved = hub.publish("2026-03-08T20:07:00+00:00")
    assert "t001 is due" in resolved.stdout
    refused = hub.land(queued, "2026-03-08T20:10:00+00:00")
    assert not refused.ok and "orders/t001/fse.yaml.age" in refused.stderr
    # The umpire merges it by hand past the queue: into a turn already resolved, set
    # aside by the next run and said on the pull request.
    hub.squash(fse, "2026-03-08T20:30:00+00:00")
    aside = hub.publish("2026-03-08T21:07:00+00:00")
    assert "set aside: orders/t001/fse.yaml.age -> orders-set-aside/t001/" in aside.stdout
    (told,) = hub.gh.pr_comments(fse["number"])
    assert "after t001 was resolved" in told

    # t002: nac and nsl send orders through the queue, nsl attacking nac at Cedar Point;
    # fse's come after the deadline: its check and the queue's refuse them.
    t002 = "2026-03-10T10:00:00+00:00"
    sent = {}
    for login, player, groups in (
            ("alice", "nac", "{}"),
            ("bob", "nsl", "\n  nsl-1: {move: cedar-point, posture: attack}")):
        pr = hub.pull_request(login, {f"orders/t002/{player}.yaml":
                                      orders("t002", player, groups)}, t002)
        assert hub.check(pr, t002).ok
        assert hub.land(hub.enqueue(pr, t002), t002).ok
        sent[player] = pr
    after = "2026-03-15T20:30:00+00:00"
    late = hub.pull_request("carol", {"orders/t002/fse.yaml": orders("t002", "fse")}, after)
    refused = hub.check(late, after)
    assert not refused.ok and "orders for t002 were due 2026-03-15 20:00 UTC" in refused.stderr
    refused = hub.land(hub.enqueue(late, after), after)
    assert not refused.ok and "orders for t002 were due 2026-03-15 20:00 UTC" in refused.stderr
    # The hourly run after the deadline pauses the turn for the tabletop battle; nac's
    # change of mind, queued during the pause, is refused by the queue's check, and
    # merged by hand past the queue all the same.
    hub.publish("2026-03-15T21:07:00+00:00")
    assert log(hub.bare)[0].startswith("Turn 2 (t002) paused")
    during = "2026-03-16T10:00:00+00:00"
    amend = hub.pull_request("alice", {"orders/t002/nac.yaml": orders("t002", "nac",
                                                                        note="Run!")}, during)
    assert not hub.check(amend, during).ok
    refused = hub.land(hub.enqueue(amend, during), during)
    assert not refused.ok and "paused" in refused.stderr
    hub.squash(amend, during)
    fight_at_cedar_point(hub)
    done = hub.publish("2026-03-17T10:00:00+00:00", "workflow_dispatch")
    assert "set aside: orders/t002/nac.yaml.age -> orders-set-aside/t002/" in done.stdout
    assert done.outputs["fought"] == "t002"

    for green, moved, said in hub.runs:
        assert green and (moved or " is not due: " in said or "paused" in said), said
    # Both turns verify; nac's t002 orders are those the queue landed before the pause.
    third_party_verifies(hub, {"t001": ["nac", "nsl"], "t002": ["nac", "nsl"]},
                         sent["nac"]["head"]["sha"],
                         ["orders-set-aside/t001/fse.yaml.age",
                          "orders-set-aside/t002/nac.yaml.age"])
    # Nothing of the sealed orders shows in any log, the merge groups' checks' included.
    assert not [text for text in hub.logs if SECRET in text]
