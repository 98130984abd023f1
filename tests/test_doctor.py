"""``ftpress doctor`` reads the repository's settings through ``gh api`` (a fake gh,
tests/fakegh.py, answering as GitHub's REST API does) and says what the trust model
needs changed: a repository set up as init's next steps say passes; each setting
gone wrong is named with what to do."""

from __future__ import annotations

import os
from pathlib import Path

import fakegh
import pytest

REPO = "umpire/camp"
#: A repository set up as the next steps say, for a sealed campaign of nac (alice, 101).
GOOD = {
    f"repos/{REPO}": {"owner": {"type": "User"}},
    f"repos/{REPO}/pages": {"build_type": "workflow"},
    f"repos/{REPO}/environments/umpire": {
        "deployment_branch_policy": {"protected_branches": False,
                                     "custom_branch_policies": True}},
    f"repos/{REPO}/environments/umpire/deployment-branch-policies": {
        "branch_policies": [{"name": "main", "type": "branch"}]},
    f"repos/{REPO}/environments/umpire/secrets": {
        "secrets": [{"name": "FTPRESS_UMPIRE_SECRET"}, {"name": "FTPRESS_UMPIRE_KEY"}]},
    f"repos/{REPO}/actions/secrets": {"secrets": []},
    f"repos/{REPO}/collaborators?affiliation=all&per_page=100": [
        {"id": 9, "login": "ump", "permissions": {"admin": True, "push": True}}],
    f"repos/{REPO}/actions/permissions/workflow": {"default_workflow_permissions": "read"},
    f"repos/{REPO}/rules/branches/main": [{"type": "deletion"}, {"type": "non_fast_forward"}],
}


@pytest.fixture
def sealed(tmp_path, run, monkeypatch) -> Path:
    monkeypatch.setenv("FTPRESS_UMPIRE_SECRET", "a master secret")
    root = tmp_path / "camp"
    assert run("init", root, "--player", "nac:alice:101", "--umpire", "ump:9", "--seed", "1",
               "--now", "2026-03-01T10:00:00Z", "--secrecy", "sealed")[0] == 0
    return root


def doctor(run, root: Path, tmp_path: Path, monkeypatch, answers: dict) -> tuple[int, str, str]:
    store = tmp_path / "gh.json"
    gh = fakegh.Issues(store)
    for path, data in answers.items():
        gh.answer(path, data)
    for key, value in fakegh.install(tmp_path / "bin", store).items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("GH_TOKEN", "the umpire's login")
    monkeypatch.setenv("GH_REPO", REPO)
    return run("doctor", "--repository", REPO, "--source", root)


def test_a_repository_set_up_as_the_next_steps_say_passes(sealed, run, tmp_path, monkeypatch):
    code, out, err = doctor(run, sealed, tmp_path, monkeypatch, GOOD)
    assert (code, err) == (0, ""), err
    assert out.splitlines()[0] == ("ok: umpire/camp belongs to a personal account (no merge "
                                   "queue: the publishing run keeps the order window alone)")
    assert "ok: only main may use the environment umpire" in out
    assert out.endswith("umpire/camp: every setting checked is as the trust model needs\n")


WRONG = [
    ({f"repos/{REPO}/pages": None}, "wrong: GitHub Pages is not enabled; expected Settings → "
     "Pages → Source: GitHub Actions"),
    ({f"repos/{REPO}/environments/umpire": {"deployment_branch_policy": None}},
     "wrong: the environment umpire may be used by any branch; expected Deployment branches "
     "and tags: Selected branches and tags, the one rule 'main'"),
    ({f"repos/{REPO}/environments/umpire/secrets": {"secrets": [
        {"name": "FTPRESS_UMPIRE_SECRET"}]}},
     "wrong: the environment umpire lacks the secret FTPRESS_UMPIRE_KEY; the publishing run "
     "cannot resolve a turn without it"),
    ({f"repos/{REPO}/actions/secrets": {"secrets": [{"name": "FTPRESS_UMPIRE_KEY"}]}},
     "wrong: FTPRESS_UMPIRE_KEY is a repository secret, which a workflow on any branch can "
     "read; delete it there"),
    ({f"repos/{REPO}/collaborators?affiliation=all&per_page=100": [
        {"id": 101, "login": "alice", "permissions": {"push": True}}]},
     "wrong: nac (@alice) can write to the repository; a player sends orders from a fork"),
    ({f"repos/{REPO}/actions/permissions/workflow": {"default_workflow_permissions": "write"}},
     "wrong: workflows get a token that may write by default"),
    ({f"repos/{REPO}/rules/branches/main": [{"type": "deletion"}, {"type": "non_fast_forward"},
                                            {"type": "pull_request"}]},
     "wrong: a rule of main requires a pull request: the publishing run's push of each turn "
     "would be refused"),
    ({f"repos/{REPO}/rules/branches/main": []},
     "wrong: main's rules lack 'Block force pushes'"),
]


@pytest.mark.parametrize(("change", "said"), WRONG)
def test_each_setting_gone_wrong_is_named_with_what_to_do(sealed, run, tmp_path, monkeypatch,
                                                         change, said):
    answers = {k: v for k, v in {**GOOD, **change}.items() if v is not None}
    code, out, err = doctor(run, sealed, tmp_path, monkeypatch, answers)
    assert (code, err) == (1, "")
    wrong = [line for line in out.splitlines() if line.startswith("wrong: ")]
    assert len(wrong) == 1 + ("rules/branches/main" in next(iter(change)) and
                              not change[next(iter(change))]), out
    assert wrong[0].startswith(said), wrong
    assert out.endswith(f"umpire/camp: {len(wrong)} setting{'s' if len(wrong) > 1 else ''} "
                        "to change\n")
