"""Shared fixtures: the demo campaign built once, and throw-away campaigns made from a dict."""

from __future__ import annotations

import os
import shutil
import textwrap
import time
from pathlib import Path

import pytest

from ftpress.cli import main

REPO = Path(__file__).resolve().parent.parent
#: The demo is built "as of" this moment, so scheduled posts stay scheduled.
DEMO_NOW = "2026-11-29T12:00:00+00:00"

SITE_YAML = """\
title: Test Campaign
base_url: https://example.org/camp/
timezone: Europe/London
paginate: 3
"""


def write_files(root: Path, files: dict[str, str | bytes]) -> Path:
    """Create a campaign folder from ``{relative path: content}``; text is dedented."""
    for rel, content in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(textwrap.dedent(content), encoding="utf-8")
    return root


def settled(root: Path, seconds: float = 10.0) -> Path:
    """Date every file below ``root`` ``seconds`` back, as if written well before the
    build: a build fingerprints only inputs older than its file clock's tick
    (``buildcache.RACY_NS``), so a second build may find nothing changed."""
    then = time.time_ns() - int(seconds * 1e9)
    for file in root.rglob("*"):
        if file.is_file():
            os.utime(file, ns=(then, then))
    return root


def files_of(root: Path) -> dict[str, bytes]:
    """Every file below ``root`` by its relative path, with its bytes (to compare trees)."""
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``--dist loadgroup``), the tests of a module that share a
    module- or class-scoped fixture (a campaign played or a site built once for them)
    run in one process, which makes that fixture once; every other test goes to
    whichever process is free."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        if any(defs[-1].scope in ("module", "class", "package")
               for defs in info.name2fixturedefs.values() if defs):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))


@pytest.fixture(autouse=True, scope="session")
def _repository_demos_wait_their_turn():
    """Under pytest-xdist, the test processes share the repository's own demos, and
    ``ftpress build`` holds a demo's campaign lock while it writes its cache there: a
    second process is refused, as ftpress refuses any second writer. Here a command on
    a demo of this repository waits for the lock instead; everywhere else (the tests'
    own campaigns, which test refusing) the lock behaves as shipped."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        yield
        return
    from ftpress.errors import RefusedCommand
    from ftpress.files import lock

    acquire = lock._acquire

    def waiting(path: Path) -> int:
        if REPO not in path.resolve().parents:
            return acquire(path)
        while True:
            try:
                return acquire(path)
            except RefusedCommand:
                time.sleep(0.05)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lock, "_acquire", waiting)
        yield


#: The demo's umpire key, committed (public) so that tests can read its sealed files.
DEMO_KEY = REPO / "demo-keys" / "umpire.key"


def demo_file(rel: str, root: Path = REPO) -> bytes:
    """A file of a sealed demo campaign as its umpire knows it: its twin ``<rel>.age``
    opened with the demo's key, else the plain file."""
    from ftpress.secrecy import agekeys

    twin = root / (rel + ".age")
    if not twin.is_file():
        return (root / rel).read_bytes()
    return agekeys.decrypt(twin.read_bytes(), agekeys.read_identity(
        root / "demo-keys" / "umpire.key"))


def unsealed(data: bytes) -> bytes:
    """A whole state file of the sealed demo made an open campaign's (no sealed twins)."""
    return data.replace(b"  secrecy: sealed\n", b"")


def set_up_demo(root: Path) -> Path:
    """The demo campaign as it was set up (its t000 snapshot as the state) with its turn 1
    orders, in ``root``: the smallest whole campaign, for tests of what it refuses. Its
    files are the whole ones (the demo's sealed twins opened), as an open campaign's."""
    (root / "orders/t001").mkdir(parents=True)
    for file in sorted((REPO / "state/turns/t001/orders").glob("*.yaml")):
        (root / "orders/t001" / file.name).write_bytes(
            demo_file(f"state/turns/t001/orders/{file.name}"))
    (root / "state/turns/t000").mkdir(parents=True)
    for file in sorted((REPO / "state/turns/t000").glob("*.yaml")):
        data = unsealed(demo_file(f"state/turns/t000/{file.name}"))
        (root / "state/turns/t000" / file.name).write_bytes(data)
        if file.name != "dice.yaml":
            (root / "state" / file.name).write_bytes(data)
    shutil.copy(REPO / "site.yaml", root / "site.yaml")
    return root


def post(title: str = "A post", date: str = "2026-04-07T21:00:00+01:00", kind: str = "rulings",
         extra: str = "", body: str = "Some text.") -> str:
    """The text of a post file with the given front matter."""
    return f"---\ntitle: {title}\ndate: {date}\nkind: {kind}\n{extra}---\n{body}\n"


@pytest.fixture
def campaign(tmp_path: Path):
    """A factory: ``campaign({path: text})`` → a campaign folder with a valid site.yaml."""

    def make(files: dict[str, str | bytes], site: str = SITE_YAML) -> Path:
        root = tmp_path / "campaign"
        return write_files(root, {"site.yaml": site, **files})

    return make


@pytest.fixture
def run(capsys):
    """Run the CLI in-process; returns (exit code, stdout, stderr)."""

    def invoke(*args: str | Path) -> tuple[int, str, str]:
        code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return invoke


@pytest.fixture(scope="session")
def demo_site(tmp_path_factory) -> Path:
    """The demo campaign of this repository, built once for the whole session."""
    from demos import FTC2007  # demos reads this module's constants

    return FTC2007.build_once(tmp_path_factory, "demo")
