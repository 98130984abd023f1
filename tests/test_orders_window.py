"""The orders check's envelope and its one pass: orders refused after the deadline
and its grace and while the turn is paused for battles, every problem of a file
at once, the merge queue's check against the main a pull request lands on, and
the output that lets the workflow merge a player's own orders."""

from __future__ import annotations

import shutil

import pytest
import test_checkpr
from test_checkpr import NAC, NOW, NSL, UMPIRE, branch, check, git, orders

# The throw-away campaign repository of the orders check's own tests.
template = test_checkpr.template
repo = test_checkpr.repo

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

LATE = "2026-03-09T10:00:00+00:00"  # the deadline is 2026-03-08 20:00 UTC


def commit_on_main(root, files: dict[str, str], message: str = "umpire") -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
        git(root, "add", rel)
    git(root, "commit", "-q", "-m", message)


def with_grace(root, grace: str) -> None:
    text = (root / "state/campaign.yaml").read_text()
    text = text.replace("  turn_days: 7\n", f"  turn_days: 7\n  grace: {grace}\n") \
        if "  turn_days: 7\n" in text else text.replace("calendar:\n", f"calendar:\n  grace: {grace}\n")
    commit_on_main(root, {"state/campaign.yaml": text}, "grace")


def test_orders_after_the_deadline_are_refused_naming_it_in_utc_and_how_long_ago(run, repo):
    head = branch(repo, "late", {"orders/t001/nac.yaml": orders("nac")})
    code, out, err = check(run, repo, head, NAC, now=LATE)
    assert (code, out) == (1, "")
    assert err.splitlines()[-2:] == [
        "refused: orders/t001/: orders for t001 were due 2026-03-08 20:00 UTC (14 hours ago); "
        "the turn is resolved without them unless the umpire extends the deadline "
        "(ftpress calendar extend)",
        "ftpress: pull request refused: 1 problem"]


def test_the_grace_lets_orders_in_after_the_deadline_and_is_named_once_over(run, repo):
    with_grace(repo, "1d")
    head = branch(repo, "late", {"orders/t001/nac.yaml": orders("nac")})
    assert check(run, repo, head, NAC, now=LATE)[0] == 0
    code, _, err = check(run, repo, head, NAC, now="2026-03-10T10:00:00+00:00")
    assert code == 1
    assert ("refused: orders/t001/: orders for t001 were due 2026-03-08 20:00 UTC (1 day 14 "
            "hours ago), and its grace of 1 day ended 2026-03-09 20:00 UTC; the turn is resolved "
            "without them") in err


def test_a_bad_grace_is_located(run, repo):
    with_grace(repo, "a while")
    code, _, err = run("check", "--source", repo)
    assert code == 1 and "state/campaign.yaml:" in err and "calendar.grace" in err


def test_orders_for_a_turn_paused_for_battles_are_refused(run, repo):
    commit_on_main(repo, {"battles/t001/marrow.yaml": "battle: marrow\nfought: false\n"})
    head = branch(repo, "nsl", {"orders/t001/nsl.yaml": orders("nsl")})
    code, _, err = check(run, repo, head, NSL)
    assert code == 1
    assert ("refused: orders/t001/: t001 is paused for 1 battle fought on the tabletop "
            "(battles/t001/marrow.yaml): its orders are closed, and it resolves with the orders "
            "merged before it paused") in err


def test_every_problem_of_a_file_at_once_its_form_and_the_legality_of_the_rest(run, repo):
    text = ("turn: t001\nplayer: nac\ngroups:\n  nac-1: {hold: maybe}\n  nac-2: {hold: true}\n"
            "economy:\n  maintenance: full\n")
    head = branch(repo, "two-stages", {"orders/t001/nac.yaml": text})
    code, _, err = check(run, repo, head, NAC)
    assert code == 1
    assert err.splitlines() == [
        "orders/t001/nac.yaml:4:3: there is no group 'nac-1'; your groups are none",
        "orders/t001/nac.yaml:4:17: groups.nac-1.hold: input should be True, got 'maybe'",
        "orders/t001/nac.yaml:5:3: there is no group 'nac-2'; your groups are none",
        "ftpress: pull request refused: 3 problems"]


def merge_group(root, head: str) -> tuple[str, str]:
    """The merge queue's commit: main with the pull request merged; (base, group head)."""
    base = git(root, "rev-parse", "main")
    git(root, "checkout", "-q", "-b", f"gh-readonly-queue/main/pr-{head[:7]}-{base[:7]}", "main")
    git(root, "merge", "-q", "--no-ff", "-m", "merge group", head)
    group = git(root, "rev-parse", "HEAD")
    git(root, "checkout", "-q", "main")
    return base, group


def check_group(run, root, base: str, head: str, now: str = "2026-03-02T10:00:00+00:00"):
    return run("check-pr", "--source", root, "--merge-group", "--base", base, "--head", head,
               "--now", now)


def test_the_merge_queue_checks_orders_against_the_main_they_land_on(run, repo):
    head = branch(repo, "nac", {"orders/t001/nac.yaml": orders("nac")})
    assert check(run, repo, head, NAC)[0] == 0
    base, group = merge_group(repo, head)
    code, out, _ = check_group(run, repo, base, group)
    assert code == 0 and out.endswith("accepted: orders for t001 from the merge queue\n")
    # Main moves on: the turn is resolved before the pull request reaches the queue.
    assert run("turn", "--source", repo, "--early", "--now", "2026-03-02T10:00:00Z")[0] == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "Turn 1 (t001) resolved")
    base, group = merge_group(repo, head)
    code, _, err = check_group(run, repo, base, group)
    assert code == 1
    assert "refused: orders/t001/nac.yaml: orders for t001, but the turn open for orders is t002" \
        in err


def test_the_merge_queue_refuses_late_orders_and_passes_what_is_not_orders(run, repo):
    head = branch(repo, "nac", {"orders/t001/nac.yaml": orders("nac")})
    base, group = merge_group(repo, head)
    code, _, err = check_group(run, repo, base, group, now=LATE)
    assert code == 1 and "orders for t001 were due 2026-03-08 20:00 UTC (14 hours ago)" in err
    page = branch(repo, "page", {"content/pages/news.md": "---\ntitle: News\n---\nNews.\n"})
    base, group = merge_group(repo, page)
    assert check_group(run, repo, base, group, now=LATE) == (
        0, "accepted: orders for t001 from the merge queue\n", "")


def auto_merge_on(root) -> None:
    text = (root / "state/campaign.yaml").read_text()
    assert "\nsettings:\n" in text
    commit_on_main(root, {"state/campaign.yaml": text.replace("\nsettings:\n",
                                                              "\nsettings:\n  auto_merge: true\n")})


@pytest.mark.parametrize(("author", "files", "on", "expected"), [
    (NAC, ["nac"], True, "auto-merge=true\n"),
    (NAC, ["nac"], False, "auto-merge=false\n"),
    (UMPIRE, ["nac", "nsl"], True, "auto-merge=false\n"),
    (UMPIRE, ["nac"], True, "auto-merge=false\n"),
])
def test_the_check_tells_the_workflow_when_it_may_merge_by_itself(run, repo, tmp_path,
                                                                  monkeypatch, author, files,
                                                                  on, expected):
    output = tmp_path / "output"
    monkeypatch.setenv("GITHUB_OUTPUT", str(output))
    if on:
        auto_merge_on(repo)
    head = branch(repo, "pr", {f"orders/t001/{p}.yaml": orders(p) for p in files})
    assert check(run, repo, head, author)[0] == 0
    assert output.read_text() == expected


def test_a_refused_pull_request_is_never_merged_by_the_workflow(run, repo, tmp_path, monkeypatch):
    output = tmp_path / "output"
    monkeypatch.setenv("GITHUB_OUTPUT", str(output))
    auto_merge_on(repo)
    head = branch(repo, "pr", {"orders/t001/nac.yaml": orders("nac")})
    assert check(run, repo, head, NAC, now=LATE)[0] == 1
    assert output.read_text() == "auto-merge=false\n"


def test_check_pr_needs_an_author_or_the_merge_queue(run, repo):
    head = branch(repo, "pr", {"orders/t001/nac.yaml": orders("nac")})
    base = git(repo, "rev-parse", "main")
    assert run("check-pr", "--source", repo, "--base", base, "--head", head, "--now", NOW) == (
        1, "", "ftpress: expected --author-id ID (a pull request) or --merge-group\n")
