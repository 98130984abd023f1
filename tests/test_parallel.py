"""Work spread over the cores gives what one process gives, in order; work begun
early is joined later, or stopped."""

from __future__ import annotations

import os
import time

import pytest

from ftpress import parallel
from ftpress.clock import build_now
from ftpress.errors import InputError
from ftpress.parallel import map_indexed, start_indexed
from ftpress.site import BuildOptions, build

from conftest import SITE_YAML, files_of, post


def square(i: int) -> int:
    return i * i


@pytest.mark.parametrize("count", [0, 5, parallel.MIN_ITEMS, 1000])
@pytest.mark.parametrize("spread", [False, True])
def test_results_come_back_in_order(count, spread):
    assert map_indexed(square, count, parallel=spread) == [i * i for i in range(count)]


def slow(i: int) -> tuple[int, int]:
    time.sleep(0.001)
    return i, os.getpid()


def test_work_begun_early_is_finished_by_whoever_is_free():
    begun = start_indexed(slow, 400)
    meanwhile = map_indexed(square, 200)  # other work, forked while the first goes on
    done = begun.finish()
    assert meanwhile == [i * i for i in range(200)]
    assert [i for i, _ in done] == list(range(400))
    if parallel.workers() >= 2:
        assert len({pid for _, pid in done}) >= 2  # not all in one process


def test_a_failure_anywhere_is_raised_when_finishing():
    def task(i: int) -> int:
        if i == 333:
            raise ValueError("item 333")
        return i

    begun = start_indexed(task, 400)
    with pytest.raises(ValueError, match="item 333"):
        begun.finish()


def test_work_begun_can_be_stopped():
    begun = start_indexed(square, 400)
    begun.cancel()
    begun.cancel()  # twice is harmless


# --- the posts' pages, begun while the listings are made ---------------------------------

def many_posts(n: int) -> dict[str, str]:
    return {f"content/posts/2026/{1 + d // 28:02d}/{1 + d % 28:02d}-p{d}.md": post(
        title=f"Post {d}", date=f"2026-{1 + d // 28:02d}-{1 + d % 28:02d}",
        extra="tags: [sieges]\n", body=f"Lead of post {d}.\n\nMore of post {d}.")
        for d in range(n)}


NO_SEARCH = SITE_YAML + "search: false\n"  # with search, the searchable pages go first


def test_pages_begun_early_are_the_pages_of_one_process(campaign, tmp_path):
    root = campaign(many_posts(2 * parallel.MIN_ITEMS), NO_SEARCH)
    now = build_now("2026-12-01T00:00:00+00:00")
    for spread in (False, True):
        build(root, tmp_path / str(spread), BuildOptions(now, parallel=spread))
    assert files_of(tmp_path / "False") == files_of(tmp_path / "True")


def test_a_template_error_in_pages_begun_early_stops_the_build(campaign, tmp_path):
    root = campaign(many_posts(2 * parallel.MIN_ITEMS) | {
        "themes/default/post.html": "{% extends 'base.html' %}\n{% block main %}\n"
                                    "{{ post.titel }}\n{% endblock %}\n"}, NO_SEARCH)
    out = tmp_path / "_site"
    with pytest.raises(InputError) as raised:
        build(root, out, BuildOptions(build_now("2026-12-01T00:00:00+00:00"), parallel=True))
    assert {(p.path, p.line) for p in raised.value.problems} == {("themes/default/post.html", 3)}
    assert not out.exists() or not any(out.iterdir())
