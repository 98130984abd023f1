"""The state's files parsed by a worker from the first moment of ``ftpress build``
(:mod:`ftpress.state.early`): the site is the one a build makes without it, a file
with a problem is still reported at its line, and nothing is begun where the build
cache will serve."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest
from demos import FTC2007

from ftpress.buildcache import CACHE_DIR
from ftpress.clock import build_now
from ftpress.site import BuildOptions, build
from ftpress.state.early import begin
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
