"""A job of a GitHub Actions workflow run as GitHub runs it, with no GitHub: each of
its ``run:`` steps whose ``if:`` holds, by ``bash --noprofile --norc -eo pipefail``
as the runner's default shell, with the ``GITHUB_*`` environment (the event's
payload in ``GITHUB_EVENT_PATH``), the step's ``env:`` evaluated against the
run's context, and ``GITHUB_OUTPUT`` and ``GITHUB_STEP_SUMMARY`` read back as the
steps' and the job's outputs and the job's summary.

The ``uses:`` steps are the caller's: checking out (a clone of the bare
repository standing in for GitHub) and installing Python are done before the job
runs, and the install step is run once by the caller (ftpress installed from its
wheel into the runner's virtualenv); others (the Actions cache, the Pages
artifact) the caller may run as the job reaches them (``uses``). Secrets are
given as GitHub gives them (:func:`job_secrets`): none to a fork's pull request,
and an environment's only to a job on a branch its deployment policy allows. The expressions understood are the ones the
workflows use: context paths, string and boolean literals, ``||``, ``&&``, ``==`` and ``!=``;
anything else fails the test rather than being guessed at.

:class:`Concurrency` decides, as GitHub does, which runs of a workflow's
``concurrency`` group run, wait or are cancelled."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_EXPRESSION = re.compile(r"\$\{\{\s*(.+?)\s*\}\}")
_PATH = re.compile(r"[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*")
_LITERAL = re.compile(r"'((?:[^']|'')*)'")


#: The status functions of an ``if:``, from the run's ``status`` (see :func:`job_runs`).
_STATUS = {"success()": lambda s: s["success"], "failure()": lambda s: s["failure"],
           "cancelled()": lambda s: s["cancelled"], "always()": lambda s: True}


def _operand(text: str, context: dict[str, Any]) -> Any:
    text = text.strip()
    if text.startswith("!"):
        return not _operand(text[1:], context)
    if text in _STATUS:
        return _STATUS[text](context["status"])
    literal = _LITERAL.fullmatch(text)
    if literal:
        return literal.group(1).replace("''", "'")
    if text in ("true", "false"):
        return text == "true"
    if not _PATH.fullmatch(text):
        raise AssertionError(f"an expression this stand-in does not read: {text!r}")
    found: Any = context
    for part in text.split("."):
        found = found.get(part) if isinstance(found, dict) else None
    return found


def _value(expression: str, context: dict[str, Any]) -> Any:
    """``a || b && c == 'x'``: ``||`` of ``&&`` of comparisons, GitHub's precedence."""
    result: Any = None
    for alternative in expression.split("||"):
        result = True
        for term in alternative.split("&&"):
            compared = re.fullmatch(r"(.+?)\s*(==|!=)\s*(.+)", term.strip())
            if compared:
                left = _operand(compared.group(1), context) or ""
                right = _operand(compared.group(3), context) or ""
                got: Any = (str(left) == str(right)) == (compared.group(2) == "==")
            else:
                got = _operand(term, context)
            if not got:
                result = got
                break
            result = got
        if result:
            return result
    return result


def evaluate(text: str, context: dict[str, Any]) -> str:
    """A string with ``${{ … }}`` in it, as GitHub writes it out."""
    def one(match: re.Match[str]) -> str:
        value = _value(match.group(1), context)
        if isinstance(value, bool):  # GitHub writes booleans as true and false
            return str(value).lower()
        return "" if value is None else str(value)
    return _EXPRESSION.sub(one, text)


def holds(condition: str, context: dict[str, Any]) -> bool:
    """An ``if:`` (written with or without ``${{ }}``)."""
    inner = _EXPRESSION.fullmatch(condition.strip())
    return bool(_value(inner.group(1) if inner else condition, context))


def job_runs(job: dict[str, Any], run_context: dict[str, Any], cancelled: bool = False) -> bool:
    """Whether GitHub starts ``job`` once the jobs it needs are done (their ``result``
    in ``run_context["needs"]``: success, failure, cancelled or skipped): an ``if:``
    with no status function is ``success() && (…)``, and ``success()`` holds when
    every job needed succeeded and the run was not ``cancelled``."""
    needed = job.get("needs", [])
    results = [run_context["needs"][name]["result"]
               for name in ([needed] if isinstance(needed, str) else needed)]
    status = {"success": not cancelled and all(r == "success" for r in results),
              "failure": any(r == "failure" for r in results), "cancelled": cancelled}
    condition = str(job.get("if", "success()"))
    if not any(name in condition for name in _STATUS):
        condition = f"success() && ({condition})"
    inner = _EXPRESSION.fullmatch(condition.strip())
    text = inner.group(1) if inner else condition
    # The one grouping this reads: success() && (an if: of && and || terms).
    grouped = re.fullmatch(r"success\(\) && \((.*)\)", text, re.S)
    here = {**run_context, "status": status}
    if grouped:
        return bool(status["success"] and _value(grouped.group(1), here))
    return bool(_value(text, here))


def outputs(text: str) -> dict[str, str]:
    """What a step wrote to ``GITHUB_OUTPUT``: ``name=value`` lines, and
    ``name<<DELIMITER`` … ``DELIMITER`` for a value of several lines."""
    found: dict[str, str] = {}
    lines = iter(text.splitlines())
    for line in lines:
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            value: list[str] = []
            for more in lines:
                if more == delimiter:
                    break
                value.append(more)
            else:
                raise AssertionError(f"no closing {delimiter} for the output {name}")
            found[name] = "\n".join(value)
        elif line:
            name, value_text = line.split("=", 1)
            found[name] = value_text
    return found


@dataclass
class JobRun:
    """What a job did: its steps' runs, its outputs and its summary."""

    runs: list[subprocess.CompletedProcess[str]] = field(default_factory=list)
    outputs: dict[str, str] = field(default_factory=dict)
    summary: str = ""

    @property
    def ok(self) -> bool:
        return all(run.returncode == 0 for run in self.runs)

    @property
    def returncode(self) -> int:
        return next((run.returncode for run in self.runs if run.returncode != 0), 0)

    @property
    def stdout(self) -> str:
        return "".join(run.stdout for run in self.runs)

    @property
    def stderr(self) -> str:
        return "".join(run.stderr for run in self.runs)


@dataclass(frozen=True)
class Environment:
    """A deployment environment: the branches its policy lets use it (None: any) and
    its secrets."""

    branches: tuple[str, ...] | None
    secrets: dict[str, str]


def context(event_name: str, payload: dict[str, Any], *, sha: str,
            repository: str = "owner/camp", secrets: dict[str, str] | None = None,
            needs: dict[str, Any] | None = None, ref: str = "refs/heads/main",
            fork: bool = False,
            environments: dict[str, Environment] | None = None) -> dict[str, Any]:
    """The expression context of a run: ``github``, ``secrets``, ``needs``.

    With ``environments``, ``secrets`` are the repository's and each job gets what
    GitHub gives it (:func:`job_secrets`); without, ``secrets`` are every job's. A
    run of a fork's pull request (``fork``) gets no secret at all."""
    return {"github": {"event_name": event_name, "event": payload, "sha": sha,
                       "repository": repository, "token": "not-a-token", "ref": ref,
                       "fork": fork},
            "secrets": {} if fork else (secrets or {}), "needs": needs or {},
            "environments": environments}


class EnvironmentRefused(Exception):
    """GitHub refuses to start a job whose environment the run's branch may not use."""


def job_secrets(job: dict[str, Any], run_context: dict[str, Any]) -> dict[str, str]:
    """The secrets a job reads, as GitHub gives them: none to a fork's pull request;
    the repository's; and those of the job's environment, if the environment's
    deployment branch policy lets the run's branch use it, else the job never starts
    (:class:`EnvironmentRefused`)."""
    github = run_context["github"]
    environments = run_context.get("environments")
    if environments is None:
        return {} if github.get("fork") else dict(run_context["secrets"])
    found = {} if github.get("fork") else dict(run_context["secrets"])
    named = job.get("environment")
    name = named.get("name") if isinstance(named, dict) else named
    if name is None:
        return found
    spec = environments.get(name)
    if spec is None:
        return found  # GitHub makes an environment named for the first time, empty
    branch = github["ref"].removeprefix("refs/heads/")
    if spec.branches is not None and branch not in spec.branches:
        raise EnvironmentRefused(f"Branch \"{branch}\" is not allowed to deploy to {name} "
                                 "due to environment protection rules.")
    return found if github.get("fork") else {**found, **spec.secrets}


#: What the caller does for a ``uses:`` step: given the step with its ``with:``
#: evaluated and the workspace, the step's outputs (None: the action is not the
#: caller's to run, and is passed over as checking out and installing Python are).
Uses = Callable[[str, dict[str, str], Path], "dict[str, str] | None"]


def run_job(workflow: dict[str, Any], name: str, workspace: Path, environ: dict[str, str],
            run_context: dict[str, Any], temp: Path, server: str,
            timeout: int = 300, uses: Uses | None = None) -> JobRun:
    """Run job ``name``'s steps in ``workspace`` (already checked out) with ``environ``
    (the runner's, ftpress on its PATH); it stops at the first step that fails, as
    GitHub does. ``server`` is GITHUB_SERVER_URL. ``uses`` runs the actions the caller
    stands in for (the Actions cache, the Pages artifact), whose ``if:`` holds."""
    job = workflow["jobs"][name]
    temp.mkdir(parents=True, exist_ok=True)
    github = run_context["github"]
    try:
        run_context = {**run_context, "secrets": job_secrets(job, run_context)}
    except EnvironmentRefused as exc:
        refused = JobRun()
        refused.runs.append(subprocess.CompletedProcess([], 1, "", f"{exc}\n"))
        return refused
    event = temp / "event.json"
    event.write_text(json.dumps(github["event"]))
    summary = temp / "summary.md"
    summary.write_text("")
    steps: dict[str, Any] = {}
    done = JobRun()
    for index, step in enumerate(job["steps"]):
        here = {**run_context, "steps": steps}
        if "uses" in step:
            if uses is None or ("if" in step and not holds(step["if"], here)):
                continue
            given = {k: str(v).lower() if isinstance(v, bool) else evaluate(str(v), here)
                     for k, v in step.get("with", {}).items()}
            answered = uses(step["uses"].split("@")[0], given, workspace)
            if answered is not None and step.get("id"):
                steps[step["id"]] = {"outputs": answered}
            continue
        if "run" not in step or step.get("name", "").startswith("Install ftpress"):
            continue
        if "if" in step and not holds(step["if"], here):
            continue
        output = temp / f"output-{index}"
        output.write_text("")
        env = {**environ, "CI": "true", "GITHUB_ACTIONS": "true",
               "GITHUB_EVENT_NAME": github["event_name"], "GITHUB_EVENT_PATH": str(event),
               "GITHUB_SHA": github["sha"], "GITHUB_REF": github.get("ref", "refs/heads/main"),
               "GITHUB_REPOSITORY": github["repository"], "GITHUB_SERVER_URL": server,
               "GITHUB_WORKSPACE": str(workspace), "GITHUB_JOB": name,
               "RUNNER_TEMP": str(temp), "GITHUB_OUTPUT": str(output),
               "GITHUB_STEP_SUMMARY": str(summary),
               **{k: evaluate(str(v), here) for k, v in step.get("env", {}).items()}}
        run = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                              step["run"]], cwd=workspace, env=env, capture_output=True,
                             text=True, timeout=timeout, check=False)
        done.runs.append(run)
        if step.get("id"):
            steps[step["id"]] = {"outputs": outputs(output.read_text())}
        if run.returncode != 0:
            break
    here = {**run_context, "steps": steps}
    done.outputs = {k: evaluate(str(v), here) for k, v in job.get("outputs", {}).items()}
    done.summary = summary.read_text()
    return done


#: How many runs may wait in a group with ``queue: max`` (GitHub's limit).
QUEUE_MAX = 100


@dataclass
class Concurrency:
    """GitHub's concurrency groups, as its documentation ("Control the concurrency of
    workflows and jobs") describes them: at most one run of a group is in progress
    at a time. A run queued while another of its group is in progress waits; with
    ``queue: single`` (the default) at most one waits, and a run already waiting is
    cancelled and the newer takes its place; with ``queue: max`` up to 100 wait, in
    order, and one more is cancelled. ``cancel-in-progress`` (true, or an expression
    that holds) also cancels the run in progress. Group names are compared without
    case. A run of a workflow with no ``concurrency`` is never held back.

    Runs are the caller's names; the caller says when a run is queued
    (:meth:`queue`) and when one in progress ends (:meth:`finish`), and runs what
    this says is in progress."""

    #: Group (folded) → the run in progress.
    running: dict[str, str] = field(default_factory=dict)
    #: Group (folded) → the runs waiting, oldest first.
    pending: dict[str, list[str]] = field(default_factory=dict)
    #: Every run cancelled, in the order GitHub cancelled them.
    cancelled: list[str] = field(default_factory=list)
    #: Run → its group (folded), for the runs queued in a group.
    groups: dict[str, str] = field(default_factory=dict)

    @staticmethod
    def of(workflow: dict[str, Any], run_context: dict[str, Any],
           ) -> tuple[str, bool, str] | None:
        """The workflow's group for this run (evaluated), whether it cancels the run in
        progress, and its queue (``single`` or ``max``); None without ``concurrency``."""
        spec = workflow.get("concurrency")
        if spec is None:
            return None
        if isinstance(spec, str):
            return evaluate(spec, run_context), False, "single"
        cancel = spec.get("cancel-in-progress", False)
        if not isinstance(cancel, bool):
            cancel = holds(str(cancel), run_context)
        queue = spec.get("queue", "single")
        if queue not in ("single", "max") or (queue == "max" and cancel):
            raise AssertionError(f"a concurrency GitHub refuses: {spec!r}")
        return evaluate(str(spec["group"]), run_context), cancel, queue

    def queue(self, run: str, workflow: dict[str, Any], run_context: dict[str, Any]) -> bool:
        """Run ``run`` of ``workflow`` is queued: whether it is in progress now (else it
        waits, or was cancelled at once: ``queue: max`` full)."""
        found = self.of(workflow, run_context)
        if found is None:
            return True
        name, cancel, queue = found
        group = name.casefold()
        self.groups[run] = group
        waiting = self.pending.setdefault(group, [])
        if group in self.running and cancel:
            self.cancelled.append(self.running.pop(group))
        if group not in self.running:
            # Free, or freed by cancelling the run in progress: what waited is replaced.
            self.cancelled.extend(waiting)
            waiting.clear()
            self.running[group] = run
            return True
        if queue == "single":
            self.cancelled.extend(waiting)
            waiting.clear()
        elif len(waiting) >= QUEUE_MAX:
            self.cancelled.append(run)
            return False
        waiting.append(run)
        return False

    def state(self, run: str) -> str:
        """``in_progress``, ``pending``, ``cancelled`` or ``completed``."""
        group = self.groups.get(run)
        if run in self.cancelled:
            return "cancelled"
        if group is not None and self.running.get(group) == run:
            return "in_progress"
        if group is not None and run in self.pending.get(group, []):
            return "pending"
        return "completed"

    def finish(self, run: str) -> str | None:
        """Run ``run``, in progress, ended (done, failed, or cancelled by a person): the
        run of its group that starts now, if one waits."""
        group = self.groups.get(run)
        if group is None or self.running.get(group) != run:
            return None
        del self.running[group]
        waiting = self.pending.get(group, [])
        if not waiting:
            return None
        self.running[group] = waiting.pop(0)
        return self.running[group]
