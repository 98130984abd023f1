"""A campaign played on a stand-in for GitHub, the proof of issue 21: ``ftpress init``,
ftpress installed from this checkout's wheel by the campaign's own install step, a
bare repository, and the campaign's own orders and publishing workflows run job by
job as GitHub runs them (tests/workflowrun.py: their scripts, ``if:`` and ``env:``,
the ``GITHUB_*`` environment and each event's payload), GitHub's issues and merges
through a fake ``gh`` (tests/fakegh.py). Main requires the merge queue, and the
campaign has the workflow give each pull request that passes to it (``auto_merge``).

Four turns are played. t001 is the set-up turn (§6): nac and nsl buy their starting
ships by pull request, nsl first tries to change nac's file, fse's pull request is
checked in time but reaches the merge queue after the turn is resolved, and fse,
who sends nothing, is reminded a day before the deadline; two pull requests go
through the merge queue back to back. In t002 nsl attacks nac at Cedar Point, to
be fought on the tabletop: the turn pauses, the umpires' issue is opened (and
left as one by the next run), orders for the paused turn are refused (a new pull
request, and one checked before the pause when it reaches the merge queue), the
result is filled in on main, and the run of that push resolves the turn and closes
the issue. In t003 a late pull request is refused and a merge lands while the run
resolves it. In t004 nobody sends orders and no run comes until weeks after the
deadline: that run resolves t004 alone, and the run after it nothing. Then: one commit per turn, every order file merged is in
its turn's record and nothing else, no turn resolved twice, a third party verifies
every turn from a clone, and the state checks clean.

The campaign is sealed (``init --secrecy sealed``, which makes the umpire key, kept
as the repository secret FTPRESS_UMPIRE_KEY): each player makes an age key and the
umpire lists their public keys; players seal their orders with ``ftpress seal``, the pull
request check reads only the envelopes, only the turn job holds the key, and no log,
job summary, issue or comment shows anything of the orders."""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import yaml
from fakegh import Merge
from pyrage import x25519
from test_publish_run import (
    MASTER,
    committer,
    fake_github,
    git,
    issues,
    log,
    merges,
    server,
)
from test_release import build_wheel, install_ftpress, runner
from workflowrun import JobRun, context, holds, run_job

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


class Hub:
    """The bare repository, the campaign's workflows, and what GitHub does with them."""

    def __init__(self, tmp_path: Path, bare: Path, run, environ: dict[str, str],
                 workflows: Path, umpire_key: str, keys: dict[str, Path]) -> None:
        self.tmp, self.bare, self.run, self.count = tmp_path, bare, run, 0
        #: The repository secret FTPRESS_UMPIRE_KEY, and each player's own age key.
        self.umpire_key, self.keys = umpire_key, keys
        #: The runner's environment: ftpress installed from the wheel, the fake gh.
        self.environ = fake_github(tmp_path, environ, merge_queue=True)
        self.orders = yaml.safe_load((workflows / "orders.yml").read_text())
        self.publishing = yaml.safe_load((workflows / "publish.yml").read_text())
        #: Where the last run's build job built the site.
        self.site = tmp_path / "runners" / "site"
        #: Every job's log and summary, as GitHub shows them to anyone.
        self.logs: list[str] = []

    def main(self) -> str:
        return git(self.bare, "rev-parse", "main")

    def clone(self, name: str) -> Path:
        where = self.tmp / "clones" / name
        if not where.exists():
            subprocess.run(["git", "clone", "-q", str(self.bare), str(where)], check=True)
            committer(where)
        git(where, "fetch", "-q", "origin")
        git(where, "checkout", "-q", "-B", "main", "origin/main")
        return where

    def workspace(self, name: str, ref: str) -> Path:
        """actions/checkout: every branch fetched (fetch-depth: 0), ``ref`` checked out."""
        where = self.tmp / "runners" / name
        shutil.rmtree(where, ignore_errors=True)
        subprocess.run(["git", "clone", "-q", str(self.bare), str(where)], check=True)
        git(where, "checkout", "-q", "--detach", ref)
        return where

    def pull_request(self, login: str, files: dict[str, str]) -> dict[str, Any]:
        """A player's branch with ``files`` sealed (with the player's own key, which
        ``ftpress seal`` proves can open it, when the file is the player's), pushed;
        its pull_request event."""
        self.count += 1
        player = self.clone(login)
        branch = f"{login}-{self.count}"
        git(player, "checkout", "-q", "-b", branch)
        own = LOGINS.get(login)
        for rel, text in files.items():
            (player / rel).parent.mkdir(parents=True, exist_ok=True)
            (player / rel).write_text(text)
            identity = ["--identity", str(self.keys[own])] \
                if own and rel.endswith(f"/{own}.yaml") else []
            code, _, err = self.run("seal", player / rel, "--source", player, *identity)
            assert code == 0, err
            git(player, "add", f"{rel}.age")  # the plain file is git-ignored
        git(player, "commit", "-q", "-m", f"orders from {login}")
        git(player, "push", "-q", "origin", branch)
        user = PLAYERS[LOGINS[login]][1] if login in LOGINS else 9
        return {"number": self.count, "branch": branch,
                "base": {"sha": self.main(), "ref": "main"},
                "head": {"sha": git(player, "rev-parse", "HEAD"), "ref": branch,
                         "repo": {"full_name": "owner/camp"}},
                "user": {"id": user, "login": login}}

    def check(self, pr: dict[str, Any], now: str) -> JobRun:
        """The orders workflow on a pull request's event: the check job, then the
        auto-merge job if its ``if:`` holds (it gives the pull request to the queue)."""
        payload = {"action": "synchronize", "number": pr["number"], "pull_request": pr}
        done = self._check("pull_request", payload, pr["head"]["sha"], now)
        needs = {"check": {"outputs": done.outputs, "result": "success" if done.ok
                           else "failure"}}
        run_context = context("pull_request", payload, sha=pr["head"]["sha"], needs=needs)
        if done.ok and holds(self.orders["jobs"]["auto-merge"]["if"], run_context):
            name = f"auto-merge-{pr['number']}"
            merged = self._logged(run_job(self.orders, "auto-merge", self.tmp, self.environ,
                                          run_context, self.tmp / "temp" / name,
                                          server(self.tmp)))
            assert merged.ok, merged.stderr
        return done

    def _check(self, event: str, payload: dict[str, Any], sha: str, now: str) -> JobRun:
        name = f"check-{event}-{sha[:12]}"
        return self._logged(run_job(self.orders, "check", self.workspace(name, sha),
                                    {**self.environ, "SOURCE_DATE_EPOCH": epoch(now)},
                                    context(event, payload, sha=sha), self.tmp / "temp" / name,
                                    server(self.tmp)))

    def _logged(self, job: JobRun) -> JobRun:
        self.logs.append(job.stdout + job.stderr + job.summary)
        return job

    def merge(self, pr: dict[str, Any], now: str) -> JobRun:
        """One pull request through the merge queue."""
        (done,) = self.queue([pr], now)
        return done

    def queue(self, prs: list[dict[str, Any]], now: str) -> list[JobRun]:
        """Pull requests through GitHub's merge queue, in order: each merge group is the
        one ahead of it with one more pull request merged (its base), each is checked
        by the check job against that base, all before main moves; main then moves to
        the last group if every check passed, and not at all otherwise (GitHub would
        take the failing one out and build the rest again: the proof queues several
        only where all pass)."""
        umpire = self.clone("queue")
        groups = []
        for pr in prs:
            base = git(umpire, "rev-parse", "HEAD")
            git(umpire, "fetch", "-q", "origin", pr["branch"])
            git(umpire, "merge", "-q", "--no-ff", "-m", f"Merge pull request #{pr['number']}",
                "FETCH_HEAD")
            head = git(umpire, "rev-parse", "HEAD")
            ref = f"refs/heads/gh-readonly-queue/main/pr-{pr['number']}-{base}"
            git(umpire, "push", "-q", "origin", f"HEAD:{ref}")
            groups.append({"base_sha": base, "base_ref": "refs/heads/main",
                           "head_sha": head, "head_ref": ref})
        checks = [self._check("merge_group", {"action": "checks_requested",
                                              "merge_group": group}, group["head_sha"], now)
                  for group in groups]
        if all(done.ok for done in checks):
            git(umpire, "push", "-q", "origin", "HEAD:main")
        for group in groups:
            git(umpire, "push", "-q", "origin", f":{group['head_ref']}")
        return checks

    def publish(self, now: str, event: str = "schedule", workspace: Path | None = None,
                build: bool = False) -> JobRun:
        """One run of the publishing workflow: the turn job (from ``workspace`` if it
        was checked out earlier), then the jobs that need it and whose ``if:`` holds:
        the battles job and the reminder, and with ``build`` the site's build (its
        workspace is :attr:`site`); the deploy is GitHub's own."""
        self.count += 1
        sha = self.main()
        name = f"publish-{self.count}"
        environ = {**self.environ, "SOURCE_DATE_EPOCH": epoch(now)}
        secrets = {"FTPRESS_UMPIRE_SECRET": MASTER, "FTPRESS_UMPIRE_KEY": self.umpire_key}
        turn = self._logged(run_job(self.publishing, "turn",
                                    workspace or self.workspace(name, sha), environ,
                                    context(event, {}, sha=sha, secrets=secrets),
                                    self.tmp / "temp" / name, server(self.tmp)))
        assert turn.ok, turn.stdout + turn.stderr
        needs = {"turn": {"outputs": turn.outputs, "result": "success"}}
        for job in ("battles", "remind", *(("build",) if build else ())):
            run_context = context(event, {}, sha=sha, needs=needs)
            if holds(self.publishing["jobs"][job].get("if", "true"), run_context):
                where = self.workspace(f"{name}-{job}", turn.outputs["sha"])
                if job == "build":
                    self.site = where / "_site"
                done = self._logged(run_job(self.publishing, job, where, environ, run_context,
                                            self.tmp / "temp" / f"{name}-{job}",
                                            server(self.tmp)))
                assert done.ok, done.stdout + done.stderr
        return turn


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
    monkeypatch.setenv("FTPRESS_UMPIRE_SECRET", MASTER)
    root = tmp_path / "made"
    args = [a for p, (login, i) in PLAYERS.items() for a in ("--player", f"{p}:{login}:{i}")]
    assert run("init", root, *args, "--umpire", "ump:9", "--repository", "owner/camp",
               "--secrecy", "sealed", "--seed", "42", "--now",
               "2026-03-01T10:00:00+00:00")[0] == 0
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
    git(root, "commit", "-q", "-m", "The campaign")
    git(root, "push", "-q", str(bare), "HEAD:main")
    return Hub(tmp_path, bare, run, environ, root / ".github/workflows", umpire_key, keys)


def test_a_campaign_played_through_its_workflows(hub):
    early = "2026-03-02T10:00:00+00:00"
    # t001, the set-up turn: nac and nsl buy their forces; nsl first tries to change
    # nac's file; fse sends nothing.
    nac = hub.pull_request("alice", {"orders/t001/nac.yaml": orders("t001", "nac")})
    assert hub.check(nac, early).ok
    meddling = hub.pull_request("bob", {"orders/t001/nac.yaml": orders("t001", "nac",
                                                                       note="Mine.")})
    refused = hub.check(meddling, early)
    assert not refused.ok
    assert "is nac's orders, but the pull request is from nsl" in refused.stderr
    nsl = hub.pull_request("bob", {"orders/t001/nsl.yaml": orders("t001", "nsl")})
    assert hub.check(nsl, early).ok
    stale = hub.pull_request("carol", {"orders/t001/fse.yaml": orders("t001", "fse")})
    assert hub.check(stale, early).ok  # in time, but never merged in time
    # Two merges back to back: nsl's group is built on nac's, both checked before main moves.
    assert [done.ok for done in hub.queue([nac, nsl], early)] == [True, True]
    assert "t001 is not due" in hub.publish(early).stdout  # fse has not sent orders
    # A day before the deadline the hourly run reminds the one who has not sent any.
    hub.publish("2026-03-07T20:30:00+00:00")
    (reminders,) = issues(hub.tmp)
    assert reminders.title == "Orders reminders" and len(reminders.comments) == 1
    assert "Not sent yet: @carol (fse)" in reminders.comments[0]
    hub.publish("2026-03-09T10:00:00+00:00")  # past the deadline: resolved without fse
    # The stale pull request reaches the queue after t001 was resolved: refused there.
    late_merge = hub.merge(stale, "2026-03-09T11:00:00+00:00")
    assert not late_merge.ok
    assert "orders for t001, but the turn open for orders is t002" in late_merge.stderr

    # t002: everyone sends orders; nsl attacks nac at Cedar Point, to be fought on the table.
    t002 = "2026-03-10T10:00:00+00:00"
    everyone = []
    for login, player, groups in (
            ("alice", "nac", "{}"), ("carol", "fse", "{}"),
            ("bob", "nsl", "\n  nsl-1: {move: cedar-point, posture: attack}")):
        pr = hub.pull_request(login, {f"orders/t002/{player}.yaml":
                                      orders("t002", player, groups)})
        assert hub.check(pr, t002).ok
        assert hub.merge(pr, t002).ok
        everyone.append(pr)
    # nac then changes its mind: checked in time, but queued only once the turn waits.
    amend = hub.pull_request("alice", {"orders/t002/nac.yaml": orders("t002", "nac",
                                                                      note="Run!")})
    assert hub.check(amend, t002).ok
    paused = hub.publish(t002, "push")
    assert paused.outputs["paused"] == "t002"
    assert "t002 waits for 1 battle fought on the tabletop" in paused.summary
    battle = "battles/t002/cedar-point.yaml"
    (issue,) = (i for i in issues(hub.tmp) if i.title.startswith("t002"))
    assert (issue.title, issue.state) == ("t002 waits for battles fought on the tabletop", "open")
    assert f"### [`{battle}`]({server(hub.tmp)}/owner/camp/blob/main/{battle})" in issue.body
    assert "- nac: Lancer (nac-1, nac-ticonderoga)" in issue.body
    assert "- nsl: Adler (nsl-1, nsl-waldburg)" in issue.body
    # While it waits, orders for it are refused: a pull request made now, and nac's,
    # checked before the pause, when it reaches the merge queue. Another run changes
    # nothing.
    fse2 = hub.pull_request("carol", {"orders/t002/fse.yaml": orders("t002", "fse",
                                                                     note="Wait.")})
    for refused in (hub.check(fse2, "2026-03-11T10:00:00+00:00"),
                    hub.merge(amend, "2026-03-11T10:00:00+00:00")):
        assert not refused.ok
        assert "t002 is paused for 1 battle fought on the tabletop" in refused.stderr
    before = hub.main()
    again = hub.publish("2026-03-11T10:00:00+00:00")
    assert hub.main() == before and again.outputs["paused"] == "t002"
    assert [i.state for i in issues(hub.tmp) if i.title.startswith("t002")] == ["open"]
    # The umpires fill the result in on main; that push's run resolves the turn.
    umpire = hub.clone("umpire")
    text = (umpire / battle).read_text()
    for old, new in FOUGHT.items():
        assert old in text, old
        text = text.replace(old, new)
    (umpire / battle).write_text(text)
    git(umpire, "commit", "-q", "-am", "The battle at Cedar Point, fought")
    git(umpire, "push", "-q", "origin", "HEAD:main")
    resolved = hub.publish("2026-03-12T10:00:00+00:00", "push")
    assert resolved.outputs["fought"] == "t002"
    assert "t002 is resolved: its 1 battle fought on the tabletop is in" in resolved.summary
    (issue,) = (i for i in issues(hub.tmp) if i.title.startswith("t002"))
    assert issue.state == "closed"
    (comment,) = issue.comments
    assert "The turn's report: https://owner.github.io/camp/turns/t002/" in comment
    assert "state/turns/t002/battles/cedar-point.yaml" in comment
    assert ("At Cedar Point the New Anglian Confederation holds the field; the Neue Swabian "
            "League's Adler (DD) is destroyed.") in comment

    # t003: a late pull request is refused; a merge lands while the run resolves.
    late = hub.pull_request("alice", {"orders/t003/nac.yaml": orders("t003", "nac")})
    refused = hub.check(late, "2026-03-23T10:00:00+00:00")
    assert not refused.ok and "orders for t003 were due 2026-03-22 20:00 UTC" in refused.stderr
    on_time = "2026-03-20T10:00:00+00:00"
    nsl3 = hub.pull_request("bob", {"orders/t003/nsl.yaml": orders("t003", "nsl")})
    assert hub.check(nsl3, on_time).ok
    runner = hub.workspace("publish-t003", hub.main())
    assert hub.merge(nsl3, on_time).ok  # lands after the runner checked out
    done = hub.publish("2026-03-23T10:00:00+00:00", workspace=runner)
    assert "::notice::main moved" in done.stdout

    # t004: nobody sends orders, and no run comes until weeks after the deadline: the
    # run resolves t004 alone and sets t005's deadline ahead; the next run does nothing.
    lagging = "2026-04-15T10:00:00+00:00"
    done = hub.publish(lagging)
    assert ("note: t005's orders are due 2026-04-19 20:00 UTC, not 2026-04-05 20:00 UTC, "
            "which had passed when t004 was resolved") in done.stdout
    before = hub.main()
    assert "t005 is not due" in hub.publish(lagging, build=True).stdout
    assert hub.main() == before
    # The site the run built, without the umpire's key: every turn's report.
    for turn in ("t001", "t002", "t003", "t004"):
        assert (hub.site / f"turns/{turn}/index.html").is_file()
    assert ("The battle at Cedar Point, fought on the tabletop: the New Anglian Confederation "
            "holds the field.") in (hub.site / "turns/t002/index.html").read_text()

    # One commit per turn (and one for the pause), each turn resolved once.
    bot = [s for s in log(hub.bare) if s.startswith("Turn ")]
    assert [re.sub(r": .*", "", s) for s in bot] == [
        "Turn 4 (t004) resolved", "Turn 3 (t003) resolved", "Turn 2 (t002) resolved",
        "Turn 2 (t002) paused", "Turn 1 (t001) resolved"]
    assert re.fullmatch(r"Turn 2 \(t002\) resolved: \d+ events, 1 battle", bot[2])
    for turn in ("t001", "t002", "t003", "t004"):
        written = git(hub.bare, "log", "--format=%H", "main", "--",
                      f"state/turns/{turn}/turn.yaml").splitlines()
        assert len(written) == 1, f"{turn} was recorded by {len(written)} commits"
    # Nothing merged was lost and nothing else came in; anyone can verify every turn.
    third_party = hub.clone("third-party")
    for turn, sent in (("t001", ["nac", "nsl"]), ("t002", ["fse", "nac", "nsl"]),
                       ("t003", ["nsl"]), ("t004", [])):
        record = yaml.safe_load((third_party / f"state/turns/{turn}/turn.yaml").read_text())
        assert record["orders"] == sent
        for player in sent:
            assert (third_party / f"state/turns/{turn}/orders/{player}.yaml.age").read_bytes() \
                == (third_party / f"orders/{turn}/{player}.yaml.age").read_bytes()
        verified = hub.run("turn", "--source", third_party, "--verify", turn)
        assert verified[0] == 0, verified
    assert sorted(p.name for p in (third_party / "orders").iterdir() if p.is_dir()) == [
        "t001", "t002", "t003"]
    # Nothing of the sealed orders was in any log, summary, issue or comment GitHub
    # shows, and only sealed orders were ever committed to orders/ (fse's t001 never).
    # Every pull request that passed its check, and only those, the auto-merge job gave
    # to the merge queue, at the head commit checked.
    assert merges(hub.tmp) == [Merge(pr["number"], pr["head"]["sha"], "queued")
                               for pr in (nac, nsl, stale, *everyone, amend, nsl3)]
    shown = [*hub.logs, *(i.body for i in issues(hub.tmp)),
             *(c for i in issues(hub.tmp) for c in i.comments)]
    assert len(hub.logs) > 30 and not [text for text in shown if SECRET in text]
    committed = git(hub.bare, "log", "--format=", "--name-only", "main", "--", "orders/t*")
    assert {Path(f).suffix for f in committed.split()} == {".age"}
    assert "orders/t001/fse.yaml.age" not in committed
    # The battle's result, as the umpires filled it in, is what t002 was resolved with.
    assert (third_party / "state/turns/t002/battles/cedar-point.yaml").read_bytes() == \
        (third_party / battle).read_bytes()
    # The set-up placed what nac and nsl bought; fse, who sent nothing, kept its capital.
    setup = yaml.safe_load((third_party / "state/turns/t001/events.yaml").read_text())["events"]
    assert [(e["group"], e["at"]) for e in setup if e["kind"] == "setup-group"] == [
        ("nac-1", "cedar-point"), ("nsl-1", "obsidian")]
    assert [e["player"] for e in setup if e["kind"] == "setup-reserve"] == ["nac", "nsl", "fse"]
    # t002 was resolved with the battle: its public events say it was fought from the
    # result file (what each ship suffered is told to the powers that fought).
    events = yaml.safe_load((third_party / "state/turns/t002/events.yaml").read_text())["events"]
    assert [(e["order"], e["players"]) for e in events if e["kind"] == "battle"] == [
        (battle, ["nac", "nsl"])]
    campaign = yaml.safe_load((third_party / "state/campaign.yaml").read_text())
    assert campaign["calendar"]["turn"] == 5
    # The state each run committed checks clean, as it does now.
    runs = git(hub.bare, "log", "--format=%H", "--author=github-actions", "main").split()
    assert len(runs) == len(bot)
    for sha in runs:
        git(third_party, "checkout", "-q", sha)
        assert hub.run("check", "--source", third_party)[0] == 0, sha
    git(third_party, "checkout", "-q", "main")
    code, out, err = hub.run("check", "--source", third_party)
    assert (code, err) == (0, "") and out.endswith("checked the campaign: no problems\n")
    # And whole, as the umpire reads it with the key.
    key = hub.tmp / "umpire.key"
    key.write_text(hub.umpire_key)
    assert hub.run("check", "--source", third_party, "--identity", key) == (
        0, "checked the campaign: no problems\n", "")
