"""The build cache is keyed on what decides the output, never on file times: a
publishing workflow installs ftpress afresh on every run, and the cache it restores
must still hit (issue 33)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from test_release import build_wheel

from ftpress.speed import buildcache

_VERSION = "import ftpress.speed.buildcache as b; print(b.code_version()); print(b.__file__)"


def _install(wheel: Path, target: Path) -> dict[str, str]:
    """``wheel`` installed into the folder ``target``, and an environment that imports
    ftpress from there (its dependencies from this interpreter)."""
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                           "--no-index", "--disable-pip-version-check", "--target", target,
                           wheel], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return {**os.environ, "PYTHONPATH": str(target), "PYTHONDONTWRITEBYTECODE": "1"}


def _ftpress(environ: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "ftpress", *args], cwd=cwd, env=environ,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return done


def _rows(campaign: Path) -> int:
    with sqlite3.connect(campaign / buildcache.CACHE_DIR / "render.sqlite") as db:
        return int(db.execute("SELECT COUNT(*) FROM md").fetchone()[0])


@pytest.mark.release
def test_the_same_wheel_installed_twice_hits_the_cache_the_first_install_left(tmp_path):
    wheel = build_wheel(tmp_path / "wheels")
    first, second = _install(wheel, tmp_path / "a"), _install(wheel, tmp_path / "b")
    versions = []
    for environ, folder in ((first, "a"), (second, "b")):
        version, where = subprocess.run(
            [sys.executable, "-c", _VERSION], cwd=tmp_path, env=environ, capture_output=True,
            text=True, timeout=60, check=True).stdout.splitlines()
        assert Path(where).is_relative_to(tmp_path / folder)  # each its own install
        versions.append(version)
    assert versions[0] == versions[1]

    campaign = tmp_path / "campaign"
    _ftpress(first, tmp_path, "init", str(campaign), "--players", "nac,nsl", "--seed", "3")
    for path in campaign.rglob("*"):  # settled: a fingerprint taken now is kept
        os.utime(path, (1_700_000_000, 1_700_000_000), follow_symlinks=False)
    _ftpress(first, campaign, "build", "--out", str(tmp_path / "out-a"))
    cached = _rows(campaign)
    assert cached > 0
    # The second install, into the same output: the last build stands as it is.
    again = _ftpress(second, campaign, "build", "--out", str(tmp_path / "out-a"))
    assert "nothing changed" in again.stdout
    # And into a new one: everything rendered comes from the cache, nothing is added.
    _ftpress(second, campaign, "build", "--out", str(tmp_path / "out-b"))
    assert _rows(campaign) == cached
    assert _tree(tmp_path / "out-a") == _tree(tmp_path / "out-b")


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_the_code_version_follows_the_files_bytes_not_their_times(tmp_path):
    package = tmp_path / "pkg"
    (package / "templates").mkdir(parents=True)
    (package / "a.py").write_text("x = 1\n")
    (package / "templates" / "page.html").write_text("<p>{{ x }}</p>\n")
    before = buildcache.package_digest(package)
    os.utime(package / "a.py", (1, 1))
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\0")
    assert buildcache.package_digest(package) == before
    (package / "templates" / "page.html").write_text("<p>{{ y }}</p>\n")
    assert buildcache.package_digest(package) != before
    moved = tmp_path / "elsewhere"
    package.rename(moved)
    assert buildcache.package_digest(moved) == buildcache.package_digest(moved)
    (moved / "templates" / "page.html").write_text("<p>{{ x }}</p>\n")
    assert buildcache.package_digest(moved) == before  # where it is installed does not count
