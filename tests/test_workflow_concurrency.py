"""GitHub's concurrency groups as tests/workflowrun.py keeps them, and what they do to
the workflows ``ftpress init`` writes: a newer push cancels a pull request's check in
progress; merge runs of different pull requests never replace one another (a group
for all of them would drop a player's merge); a publishing run in progress is never
cancelled, and a newer run waiting takes the place of an older one waiting, doing what
it would have done (the end-to-end test, tests/test_campaign_e2e.py, shows the turn,
the reminder and the players' comment are not lost). Also the status functions of a
job's ``if:`` and outputs of several lines, which the publishing run's views job uses."""

from __future__ import annotations

import pytest
import yaml
from workflowrun import Concurrency, context, job_runs, outputs

from ftpress.creating.campaign import github_files


def workflow(name: str) -> dict:
    return yaml.safe_load(github_files()[f".github/workflows/{name}.yml"])


def plain(group: str, cancel: bool | str = False, queue: str | None = None) -> dict:
    spec: dict = {"group": group, "cancel-in-progress": cancel}
    if queue is not None:
        spec["queue"] = queue
    return {"concurrency": spec}


ANY = context("push", {}, sha="c0ffee")


def test_a_run_waits_while_its_group_runs_and_a_newer_one_takes_its_place():
    """queue: single (the default): one in progress, one waiting; a third cancels the
    second, and starts when the first ends."""
    groups = Concurrency()
    spec = plain("deploy")
    assert groups.queue("a", spec, ANY)
    assert not groups.queue("b", spec, ANY)
    assert groups.state("b") == "pending"
    assert not groups.queue("c", spec, ANY)
    assert (groups.state("a"), groups.state("b"), groups.state("c")) == (
        "in_progress", "cancelled", "pending")
    assert groups.finish("a") == "c"
    assert groups.finish("c") is None
    assert groups.cancelled == ["b"] and groups.state("c") == "completed"


def test_cancel_in_progress_cancels_the_run_in_progress_and_the_one_waiting():
    groups = Concurrency()
    spec = plain("check", cancel=True)
    assert groups.queue("a", spec, ANY)
    assert groups.queue("b", spec, ANY)
    assert groups.cancelled == ["a"] and groups.state("b") == "in_progress"
    # A person cancels b; what ends frees the group for the next.
    assert groups.finish("b") is None and groups.queue("c", spec, ANY)


def test_queue_max_keeps_every_run_waiting_in_order_up_to_a_hundred():
    groups = Concurrency()
    spec = plain("deploy", queue="max")
    assert groups.queue("run-0", spec, ANY)
    for number in range(1, 101):
        assert not groups.queue(f"run-{number}", spec, ANY)
    assert not groups.queue("run-101", spec, ANY)
    assert groups.cancelled == ["run-101"]
    assert [groups.finish(f"run-{n}") for n in range(3)] == ["run-1", "run-2", "run-3"]


def test_queue_max_with_cancel_in_progress_is_refused_as_github_refuses_it():
    with pytest.raises(AssertionError, match="a concurrency GitHub refuses"):
        Concurrency().queue("a", plain("g", cancel=True, queue="max"), ANY)


def test_group_names_are_compared_without_case_and_runs_without_a_group_run_at_once():
    groups = Concurrency()
    assert groups.queue("a", plain("Prod"), ANY)
    assert not groups.queue("b", plain("prod"), ANY)
    assert groups.queue("c", {}, ANY) and groups.queue("d", {}, ANY)


def pull_request(number: int) -> dict:
    return context("pull_request", {"pull_request": {"number": number}}, sha="c0ffee")


def merge_group(ref: str) -> dict:
    return context("merge_group", {"merge_group": {"head_ref": ref}}, sha="c0ffee")


def test_a_newer_push_cancels_the_check_in_progress_of_its_pull_request_only():
    """orders.yml: its group is the pull request (or the queue's merge group); a check
    cancelled completes as cancelled, so the merge workflow, which needs a success,
    does not run for it, and the newer check decides."""
    orders = workflow("orders")
    groups = Concurrency()
    assert groups.queue("pr7-first", orders, pull_request(7))
    assert groups.queue("pr8", orders, pull_request(8))
    assert groups.queue("pr7-second", orders, pull_request(7))
    assert groups.cancelled == ["pr7-first"]
    assert groups.queue("queue-a", orders, merge_group("gh-readonly-queue/main/pr-7-aa"))
    assert groups.queue("queue-b", orders, merge_group("gh-readonly-queue/main/pr-8-bb"))
    assert groups.cancelled == ["pr7-first"]
    merge = workflow("merge")["jobs"]["merge"]
    cancelled = context("workflow_run", {"workflow_run": {
        "event": "pull_request", "conclusion": "cancelled", "head_sha": "aa"}}, sha="main")
    assert not job_runs(merge, cancelled)


def completed(head: str) -> dict:
    return context("workflow_run", {"workflow_run": {
        "event": "pull_request", "conclusion": "success", "head_sha": head}}, sha="main")


def test_merge_runs_of_checks_that_end_together_all_run():
    """Three players' checks end while a merge run is in progress: each merge run has
    its own group (the head it checked), so none waits on another and none is
    cancelled; a second run for one head (a re-run of its check) waits, and runs."""
    merge = workflow("merge")
    groups = Concurrency()
    assert all(groups.queue(f"merge-{head}", merge, completed(head))
               for head in ("aa", "bb", "cc", "dd"))
    assert not groups.queue("merge-bb-again", merge, completed("bb"))
    assert groups.cancelled == []
    assert groups.finish("merge-bb") == "merge-bb-again"


def test_merge_runs_in_one_group_for_all_would_drop_a_players_merge():
    """What the group per head prevents: with one group for every merge run, the run
    of the second check to end, waiting, is cancelled by the third's."""
    merge = {**workflow("merge"), "concurrency": {"group": "merge-orders",
                                                  "cancel-in-progress": False}}
    groups = Concurrency()
    for head in ("aa", "bb", "cc"):
        groups.queue(f"merge-{head}", merge, completed(head))
    assert groups.cancelled == ["merge-bb"]


def test_a_publishing_run_in_progress_is_never_cancelled():
    """publish.yml: one run at a time; a scheduled run, a dispatch and another scheduled
    run queued while one is in progress: the one in progress runs to its end, the
    dispatch waiting is replaced by the newer scheduled run."""
    publish = workflow("publish")
    groups = Concurrency()
    assert groups.queue("hourly", publish, context("schedule", {}, sha="a"))
    assert not groups.queue("dispatched", publish, context("workflow_dispatch", {}, sha="b"))
    assert not groups.queue("next-hour", publish, context("schedule", {}, sha="c"))
    assert groups.state("hourly") == "in_progress" and groups.cancelled == ["dispatched"]
    assert groups.finish("hourly") == "next-hour"


def needs(**results: str) -> dict:
    return {name: {"result": result, "outputs": {"views": "x"} if name == "turn" else {}}
            for name, result in results.items()}


@pytest.mark.parametrize(("results", "cancelled", "runs"), [
    ({"turn": "success", "build": "success", "deploy": "success"}, False, True),
    ({"turn": "success", "build": "success", "deploy": "skipped"}, False, True),
    ({"turn": "success", "build": "success", "deploy": "failure"}, False, False),
    ({"turn": "success", "build": "failure", "deploy": "skipped"}, False, False),
    ({"turn": "success", "build": "success", "deploy": "success"}, True, False),
])
def test_the_views_job_runs_once_the_site_is_deployed_or_was_already(results, cancelled, runs):
    """``!cancelled()`` lets it run past a deployment skipped (the site had not
    changed), which the implicit ``success()`` would not; never after a deployment that
    failed (the next run deploys and tells), nor in a run cancelled."""
    job = workflow("publish")["jobs"]["views"]
    run_context = context("schedule", {}, sha="a", needs=needs(**results))
    assert job_runs(job, run_context, cancelled) is runs


def test_a_job_with_no_status_function_needs_every_job_it_needs_to_succeed():
    deployed = workflow("publish")["jobs"]["deployed"]
    assert not job_runs(deployed, context("schedule", {}, sha="a",
                                          needs=needs(build="success", deploy="skipped")))
    assert job_runs(deployed, context("schedule", {}, sha="a",
                                      needs=needs(build="success", deploy="success")))


def test_an_output_of_several_lines_is_read_between_its_delimiters():
    text = "sha=abc\nviews<<ftpress-0f\n<!-- mark -->\n## t001\n\nline=with equals\nftpress-0f\n"
    assert outputs(text) == {"sha": "abc",
                             "views": "<!-- mark -->\n## t001\n\nline=with equals"}
    with pytest.raises(AssertionError, match="no closing"):
        outputs("views<<EOF\nnever closed\n")
