"""The state's files parsed by a worker from the first moment of ``ftpress build``
(:mod:`ftpress.state.early`): the site is the one a build makes without it, a file
with a problem is still reported at its line, and nothing is begun where the build
cache will serve."""

from __future__ import annotations

import multiprocessing
import re
from pathlib import Path

import pytest
from demos import FTC2007

from ftpress.buildcache import CACHE_DIR
from ftpress.clock import build_now
from ftpress.site import BuildOptions, build
from ftpress.state import load
from ftpress.state.early import begin
from ftpress.state.files import kind_of_file
from ftpress.state.load import forget_parsed

from conftest import DEMO_NOW, files_of


@pytest.fixture
def demo(tmp_path) -> Path:
    forget_parsed()  # nothing parsed by an earlier test stands in for the worker's
    return FTC2007.copy(tmp_path / "demo")


def test_a_build_whose_state_was_parsed_early_is_the_same_site(demo, tmp_path):
    parsing = begin(demo, demo / CACHE_DIR)
    assert parsing is not None
    build(demo, tmp_path / "early", BuildOptions(build_now(DEMO_NOW), parallel=True),
          parsing=parsing)
    forget_parsed()
    build(demo, tmp_path / "alone", BuildOptions(build_now(DEMO_NOW)))
    assert files_of(tmp_path / "early") == files_of(tmp_path / "alone")


def test_a_snapshot_file_with_a_problem_is_reported_at_its_line(demo, tmp_path, run):
    players = demo / "state/turns/t005/players.yaml"
    text = players.read_text(encoding="utf-8")
    line = text.splitlines().index("    treasury: 3530") + 1
    players.write_text(text.replace("treasury: 3530", "treasury: plenty", 1), encoding="utf-8")
    out = tmp_path / "out"
    code, _, err = run("build", "--source", demo, "--out", out, "--now", DEMO_NOW)
    assert code == 1
    assert f"state/turns/t005/players.yaml:{line}:" in err
    assert "Traceback" not in err
    assert not out.exists() or not any(out.iterdir())


def test_nothing_is_begun_where_the_build_cache_is_or_without_state(demo, tmp_path):
    (demo / CACHE_DIR).mkdir()
    assert begin(demo, demo / CACHE_DIR) is None
    blog = tmp_path / "blog"
    (blog / "content").mkdir(parents=True)
    assert begin(blog, blog / CACHE_DIR) is None


def test_a_build_that_stops_before_its_state_cancels_the_worker(demo, tmp_path, run):
    (demo / "site.yaml").write_text("title: [unclosed\n", encoding="utf-8")
    code, _, err = run("build", "--source", demo, "--out", tmp_path / "out", "--now", DEMO_NOW)
    assert code == 1
    assert "site.yaml:2:1: YAML syntax error" in err and "Traceback" not in err
    assert not multiprocessing.active_children()  # the worker parsing the state is gone


def test_a_worker_hands_back_json_or_else_the_model(demo, monkeypatch):
    """What a worker sends of a file it parsed: its JSON, which the load validates (far
    quicker between processes than a pickled model), or its model where the JSON would
    not read back the same; nothing for a file that does not validate."""
    kind = kind_of_file("players.yaml")
    raw = (demo / "state/players.yaml").read_bytes()
    model, text = load._prepared("state/players.yaml", kind, raw)
    assert model is None and text is not None
    load.adopt([(("players", "a"), None, text)], None)
    validated = load._PARSED.pop(("players", "a"))
    assert validated == load._parse(raw, "state/players.yaml", kind)[1]
    monkeypatch.setattr(load, "_storable", lambda data: None)
    assert load._prepared("state/players.yaml", kind, raw) == (validated, None)
    broken = re.sub(rb"treasury: \d+", b"treasury: plenty", raw, count=1)
    assert broken != raw and load._prepared("state/players.yaml", kind, broken) is None
    monkeypatch.undo()
    _, text = load._prepared("state/players.yaml", kind, broken)  # parses: JSON all the same
    load.adopt([(("players", "b"), None, text)], None)
    assert ("players", "b") not in load._PARSED  # left to the load, to say where
