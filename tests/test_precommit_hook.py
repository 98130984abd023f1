"""The pre-commit hook definition: a player's repository runs ``ftpress check`` on the
order files a commit touches, and on nothing else."""

from __future__ import annotations

import re
import shlex

import pytest
import yaml

from ftpress.cli import main

from conftest import REPO

MANIFEST = REPO / ".pre-commit-hooks.yaml"


def hook() -> dict[str, object]:
    (only,) = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    return only


def test_the_manifest_is_one_that_pre_commit_accepts():
    clientlib = pytest.importorskip("pre_commit.clientlib")
    (loaded,) = clientlib.load_manifest(str(MANIFEST))
    assert loaded["id"] == "ftpress-check-orders" and loaded["language"] == "python"


@pytest.mark.parametrize(("path", "checked"), [
    ("orders/t010/nac.yaml", True),
    ("orders/t010/nac.yml", True),
    ("orders/t010/notes.txt", False),
    ("state/groups.yaml", False),
    ("content/posts/2026/04/07-rule-clarifications.md", False),
    ("orders/t010/deep/nac.yaml", False),
])
def test_only_order_files_are_handed_to_the_hook(path, checked):
    assert bool(re.search(str(hook()["files"]), path)) is checked


def test_the_hook_runs_ftpress_check_on_the_files_as_pre_commit_passes_them(
        monkeypatch, capsys):
    """pre-commit runs ``entry`` from the repository's root with the staged paths
    after it, all in one call (require_serial)."""
    command, *args = shlex.split(str(hook()["entry"]))
    assert (command, hook()["require_serial"]) == ("ftpress", True)
    monkeypatch.chdir(REPO)
    monkeypatch.setenv("FTPRESS_UMPIRE_KEY", (REPO / "demo-keys/umpire.key").read_text())
    code = main([*args, "state/turns/t009/orders/nac.yaml", "state/turns/t009/orders/nsl.yaml"])
    assert (code, capsys.readouterr().out) == (0, "checked 2 files: no problems\n")
