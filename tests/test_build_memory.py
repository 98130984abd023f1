"""``ftpress build`` gives back what it held before waiting for the search index
(Pagefind takes both cores and memory then): the same site, and nothing kept."""

from __future__ import annotations

from pathlib import Path

from demos import FTC2007

from ftpress.buildcache import RenderCache
from ftpress.clock import build_now
from ftpress.site import BuildOptions, build
from ftpress.state import load as state_load

from conftest import DEMO_NOW, files_of


def test_a_build_that_keeps_nothing_writes_the_same_site(tmp_path):
    root = FTC2007.copy(tmp_path / "demo")
    options = BuildOptions(build_now(DEMO_NOW), parallel=True)
    kept = build(root, tmp_path / "kept", options)
    assert kept.site is not None
    let_go = build(root, tmp_path / "let-go", options, keep_site=False)
    assert let_go.site is None
    assert not state_load._PARSED  # the parsed state files went too
    assert files_of(tmp_path / "kept") == files_of(tmp_path / "let-go")
    assert (kept.pages, kept.posts, kept.files) == (let_go.pages, let_go.posts, let_go.files)
    assert Path(tmp_path / "let-go" / "pagefind").is_dir()


def test_a_builds_own_cache_lets_go_of_what_it_stored(tmp_path):
    for hold in (True, False):
        cache = RenderCache(tmp_path / f"cache-{hold}", hold=hold)
        cache.put("k", ("<p>rendered</p>",))
        cache.store()
        assert bool(cache._memory) is hold
        assert cache.get_many(["k"]) == {"k": ("<p>rendered</p>",)}  # from the store
    held = RenderCache(None, hold=False)  # nowhere to store it: kept
    held.put("k", ("x",))
    held.store()
    assert held.get_many(["k"]) == {"k": ("x",)}
