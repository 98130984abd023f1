"""The executor seam: the pipeline hands its bulk work to the one executor it is given,
and the site is byte for byte the same with the serial and the forking one."""

from __future__ import annotations

import multiprocessing
import os
import re
import time
from pathlib import Path

import pytest
from demos import FTC2007, FTCAMP02, SCT

from ftpress.errors import InputError, Problem
from ftpress.files.clock import build_now
from ftpress.render import turns
from ftpress.rules import STATE_EXTENSIONS
from ftpress.site import BuildOptions, build
from ftpress.speed.buildcache import RenderCache
from ftpress.speed.executor import SERIAL, ForkExecutor, apart
from ftpress.state import load
from ftpress.state.files import KINDS

from conftest import DEMO_NOW, SITE_YAML, files_of, post

#: Forks for any number of items, with two processes even on one core.
FORKING = ForkExecutor(2, min_items=1)


def square(i: int) -> int:
    return i * i


@pytest.mark.parametrize("count", [0, 1, 5, 48, 1000])
@pytest.mark.parametrize("executor", [SERIAL, ForkExecutor(), FORKING],
                         ids=["serial", "fork-default", "fork-always"])
def test_results_come_back_in_the_items_order(count, executor):
    items = [7 * i % 1000 for i in range(count)]
    assert executor.map(square, items) == [i * i for i in items]


def slow(i: int) -> tuple[int, int]:
    time.sleep(0.001)
    return i, os.getpid()


def test_a_forking_executor_works_in_more_than_one_process():
    done = FORKING.map(slow, range(400))
    assert [i for i, _ in done] == list(range(400))
    assert len({pid for _, pid in done}) == 2
    assert not multiprocessing.active_children()  # every worker joined


def test_a_closure_is_mapped_without_pickling_it():
    offset = 10
    assert FORKING.map(lambda i: i + offset, range(100)) == list(range(10, 110))


def test_a_failure_anywhere_is_raised_and_no_worker_is_left():
    def task(i: int) -> int:
        if i == 333:
            raise ValueError("item 333")
        return i

    with pytest.raises(ValueError, match="item 333"):
        FORKING.map(task, range(400))
    assert not multiprocessing.active_children()


def test_too_few_items_or_one_core_stay_in_this_process():
    me = os.getpid()
    assert {pid for _, pid in ForkExecutor(2).map(slow, range(10))} == {me}
    assert {pid for _, pid in ForkExecutor(1, min_items=1).map(slow, range(100))} == {me}


def test_a_stage_runs_apart_in_a_process_of_its_own_where_the_executor_forks():
    """What it makes stays there: nothing it changed is left in this process."""
    made: list[int] = []
    assert apart(SERIAL, os.getpid) == os.getpid()
    assert apart(FORKING, lambda: (made.append(1), os.getpid())[1]) != os.getpid()
    assert made == []
    assert apart(FORKING, lambda: {"pages": ("a/index.html",), "n": 2}) == {
        "pages": ("a/index.html",), "n": 2}


class Unpicklable(Exception):
    def __init__(self, what: str, why: object) -> None:
        super().__init__(what)
        self.why = why


def test_what_a_stage_raises_apart_is_raised_here():
    """An input error comes back with every problem (the command prints them); one that
    cannot travel comes back named, with the child's traceback as a note."""
    problems = [Problem("content/b.md", 3, 1, "expected a date"),
                Problem("content/a.md", 1, 5, "expected a title")]

    def invalid() -> None:
        raise InputError(problems)

    with pytest.raises(InputError) as raised:
        apart(FORKING, invalid)
    assert raised.value.problems == InputError(problems).problems
    assert raised.value.lines() == InputError(problems).lines()

    def odd() -> None:
        raise Unpicklable("a bug", lambda: None)

    with pytest.raises(RuntimeError, match="Unpicklable: a bug") as raised_odd:
        apart(FORKING, odd)
    assert "Traceback" in "".join(raised_odd.value.__notes__)
    assert not multiprocessing.active_children()


# --- the site is the same, whatever the executor -----------------------------------------

@pytest.mark.parametrize("demo", [FTC2007, SCT, FTCAMP02], ids=["ftc2007", "sct", "ftcamp02"])
def test_the_demos_build_to_the_same_bytes_serially_and_forked(demo, tmp_path):
    root = demo.copy(tmp_path / "demo")
    options = BuildOptions(build_now(demo.now))
    serial = build(root, tmp_path / "serial", options)
    forked = build(root, tmp_path / "forked", options, executor=FORKING)
    assert files_of(tmp_path / "serial") == files_of(tmp_path / "forked")
    assert (serial.pages, serial.files) == (forked.pages, forked.files)
    assert any(p.startswith("turns/") for p in forked.changed)


class Recording:
    """An executor that maps in this process and notes the size of every batch."""

    forks = False

    def __init__(self) -> None:
        self.batches: list[int] = []

    def map(self, fn, items):
        done = [fn(item) for item in items]
        self.batches.append(len(done))
        return done


def test_the_build_hands_its_bulk_work_to_the_one_executor_it_is_given(tmp_path):
    """State files, event logs, Markdown and every page go through the executor: one
    batch per kind of work, not one call per item, and the same bytes as SERIAL's."""
    demo = FTC2007.copy(tmp_path / "demo")
    executor = Recording()
    report = build(demo, tmp_path / "recorded", BuildOptions(build_now(DEMO_NOW)),
                   executor=executor)
    build(demo, tmp_path / "serial", BuildOptions(build_now(DEMO_NOW)))
    assert files_of(tmp_path / "recorded") == files_of(tmp_path / "serial")
    assert max(executor.batches) >= report.pages  # the pages, in one batch
    assert len(executor.batches) < 20
    assert len(FTC2007.turns) + 1 in executor.batches  # every turn's event log


def many_posts(n: int) -> dict[str, str]:
    return {f"content/posts/2026/{1 + d // 28:02d}/{1 + d % 28:02d}-p{d}.md": post(
        title=f"Post {d}", date=f"2026-{1 + d // 28:02d}-{1 + d % 28:02d}",
        extra="tags: [sieges]\n", body=f"Lead of post {d}.\n\nMore of post {d}.")
        for d in range(n)}


def test_a_blog_builds_to_the_same_bytes_serially_and_forked(campaign, tmp_path):
    root = campaign(many_posts(120), SITE_YAML + "search: false\n")
    options = BuildOptions(build_now("2026-12-01T00:00:00+00:00"))
    build(root, tmp_path / "serial", options)
    build(root, tmp_path / "forked", options, executor=FORKING)
    assert files_of(tmp_path / "serial") == files_of(tmp_path / "forked")


@pytest.mark.parametrize("executor", [SERIAL, FORKING], ids=["serial", "forked"])
def test_template_errors_of_blog_and_campaign_are_reported_together(tmp_path, executor):
    demo = FTC2007.copy(tmp_path / "demo")
    theme = demo / "themes/default"
    theme.mkdir(parents=True, exist_ok=True)  # the demo has its own masthead there
    theme.joinpath("post.html").write_text(
        "{% extends 'base.html' %}\n{% block main %}\n{{ post.titel }}\n{% endblock %}\n")
    theme.joinpath("turn.html").write_text(
        "{% extends 'base.html' %}\n{% block main %}\n\n{{ turn.numbr }}\n{% endblock %}\n")
    out = tmp_path / "_site"
    with pytest.raises(InputError) as raised:
        build(demo, out, BuildOptions(build_now(DEMO_NOW)), executor=executor)
    assert {(p.path, p.line) for p in raised.value.problems} == {
        ("themes/default/post.html", 3), ("themes/default/turn.html", 4)}
    assert not out.exists() or not any(out.iterdir())
    assert not multiprocessing.active_children()


@pytest.mark.parametrize("on_disk", [False, True])
def test_the_turn_maps_drawn_by_workers_are_cached(tmp_path, monkeypatch, on_disk):
    demo = FTC2007.copy(tmp_path / "demo")
    folder = tmp_path / "cache" if on_disk else None
    cache = RenderCache(folder)
    build(demo, tmp_path / "first", BuildOptions(build_now(DEMO_NOW)), cache=cache,
          executor=FORKING)
    if on_disk:  # the next build's, from the same store
        cache = RenderCache(folder)

    def drawn_again(*args: object) -> str:
        raise AssertionError("drawn again: the worker's drawing was not cached")

    monkeypatch.setattr(turns, "render_map", drawn_again)
    build(demo, tmp_path / "again", BuildOptions(build_now(DEMO_NOW)), cache=cache)
    assert files_of(tmp_path / "first") == files_of(tmp_path / "again")


def test_a_snapshot_file_with_a_problem_is_reported_at_its_line(tmp_path, run):
    """``ftpress build`` forks: a file its workers could not parse is still reported
    by the load, at its line, and nothing is written."""
    demo = FTC2007.copy(tmp_path / "demo")
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
    assert not multiprocessing.active_children()


def test_a_parsed_file_comes_back_as_json_or_else_as_its_model(tmp_path, monkeypatch):
    """What the executor hands back of a state file it parsed: its JSON, which the load
    validates (far quicker between processes than a pickled model), or its model where
    the JSON would not read back the same; nothing for a file that does not validate."""
    demo = FTC2007.copy(tmp_path / "demo")
    kind = KINDS["players"]
    # ftc2007's players carry its extension's keys (upkeep level, ally): read with it.
    ext = STATE_EXTENSIONS["ftc2007"]
    raw = (demo / "state/players.yaml").read_bytes()
    model, text = load._prepared("state/players.yaml", kind, raw, ext)
    assert model is None and text is not None
    store = load.Scratch()
    load.adopt([(("players", "a"), None, text)], store, ext)
    validated = store.parsed.pop(("players", "a"))
    assert validated == load._parse(raw, "state/players.yaml", kind, ext)[1]
    monkeypatch.setattr(load, "yaml_text", lambda data: None)
    assert load._prepared("state/players.yaml", kind, raw, ext) == (validated, None)
    broken = re.sub(rb"treasury: \d+", b"treasury: plenty", raw, count=1)
    assert broken != raw and load._prepared("state/players.yaml", kind, broken, ext) is None
    monkeypatch.undo()
    _, text = load._prepared("state/players.yaml", kind, broken, ext)  # parses: JSON all the same
    load.adopt([(("players", "b"), None, text)], store, ext)
    assert ("players", "b") not in store.parsed  # left to the load, to say where


def test_the_build_is_the_same_from_a_new_cache_or_a_kept_one(tmp_path):
    """``serve`` keeps one cache (parsed state files, compiled templates, Markdown)
    from build to build; nothing it keeps changes a byte."""
    demo = FTC2007.copy(tmp_path / "demo")
    kept = RenderCache(None)
    for n in range(2):
        build(demo, tmp_path / f"kept-{n}", BuildOptions(build_now(DEMO_NOW)), cache=kept)
    assert kept.parsed and kept.templates
    build(demo, tmp_path / "new", BuildOptions(build_now(DEMO_NOW)))
    assert files_of(tmp_path / "kept-1") == files_of(tmp_path / "new")
    assert files_of(tmp_path / "kept-0") == files_of(tmp_path / "new")


def test_nothing_is_kept_between_builds_outside_the_cache(tmp_path, monkeypatch):
    """The state files are parsed again by a build given a new cache: no module keeps
    them behind its back."""
    demo = FTC2007.copy(tmp_path / "demo")
    build(demo, tmp_path / "first", BuildOptions(build_now(DEMO_NOW)))
    parsed: list[str] = []
    real = load._parse
    monkeypatch.setattr(load, "_parse", lambda raw, rel, *more: (parsed.append(rel),
                                                                  real(raw, rel, *more))[1])
    monkeypatch.setattr(load, "_prepared", lambda rel, *more: (parsed.append(rel), None)[1])
    build(demo, tmp_path / "second", BuildOptions(build_now(DEMO_NOW)))
    assert "state/players.yaml" in parsed
    assert files_of(tmp_path / "first") == files_of(tmp_path / "second")


def test_no_module_of_ftpress_knows_of_parallel_work():
    """The seam holds: only the executor module forks or freezes the collector, no
    stage takes a flag for it, and nothing tunes the process for speed behind its back."""
    package = Path(__file__).resolve().parent.parent / "ftpress"
    words = ("multiprocessing", "parallel=", "parallel:", "os.fork", "gc.freeze",
             "gc.set_threshold", "gc.collect", "malloc_trim", "os._exit")
    found = [f"{f.relative_to(package)}: {word}" for f in sorted(package.rglob("*.py"))
             if f.name != "executor.py"
             for word in words if word in f.read_text(encoding="utf-8")]
    assert found == []
