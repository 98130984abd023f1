"""The campaign's pages (powers, systems, turn reports) are made by a worker beside
the blog's: the site is byte for byte the one a single process makes, and a broken
template on either side is reported with the other's, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest
from demos import FTC2007

from ftpress.buildcache import RenderCache
from ftpress.clock import build_now
from ftpress.errors import InputError
from ftpress.render import turns
from ftpress.site import BuildOptions, build

from conftest import DEMO_NOW, files_of


@pytest.fixture
def demo(tmp_path) -> Path:
    return FTC2007.copy(tmp_path / "demo")


def options(parallel: bool) -> BuildOptions:
    return BuildOptions(build_now(DEMO_NOW), parallel=parallel)


def test_the_campaign_worker_gives_the_bytes_of_one_process(demo, tmp_path):
    alone = build(demo, tmp_path / "alone", options(parallel=False))
    beside = build(demo, tmp_path / "beside", options(parallel=True))
    assert files_of(tmp_path / "alone") == files_of(tmp_path / "beside")
    assert (alone.pages, alone.files) == (beside.pages, beside.files)
    assert any(p.startswith("turns/") for p in beside.changed)


@pytest.mark.parametrize("on_disk", [False, True])
def test_the_turn_maps_the_worker_drew_are_cached(demo, tmp_path, monkeypatch, on_disk):
    folder = tmp_path / "cache" if on_disk else None
    cache = RenderCache(folder)
    build(demo, tmp_path / "first", options(parallel=True), cache=cache)
    if on_disk:  # the next build's, from the same store
        cache = RenderCache(folder)

    def drawn_again(*args: object) -> str:
        raise AssertionError("drawn again: the worker's drawing was not cached")

    monkeypatch.setattr(turns, "render_map", drawn_again)
    build(demo, tmp_path / "again", options(parallel=False), cache=cache)
    assert files_of(tmp_path / "first") == files_of(tmp_path / "again")


@pytest.mark.parametrize("parallel", [False, True])
def test_template_errors_of_both_sides_are_reported_together(demo, tmp_path, parallel):
    theme = demo / "themes/default"
    theme.mkdir(parents=True, exist_ok=True)  # the demo has its own masthead there
    theme.joinpath("post.html").write_text(
        "{% extends 'base.html' %}\n{% block main %}\n{{ post.titel }}\n{% endblock %}\n")
    theme.joinpath("turn.html").write_text(
        "{% extends 'base.html' %}\n{% block main %}\n\n{{ turn.numbr }}\n{% endblock %}\n")
    out = tmp_path / "_site"
    with pytest.raises(InputError) as raised:
        build(demo, out, options(parallel))
    where = {(p.path, p.line) for p in raised.value.problems}
    assert ("themes/default/post.html", 3) in where
    assert ("themes/default/turn.html", 4) in where
    assert not out.exists() or not any(out.iterdir())
