"""The site's JSON schemas are kept in the build cache (issue 33): they depend only on
ftpress's code, the base URL and the campaign's ruleset, so a rebuild that has the cache
(``serve``, the publishing run with its cache restored) takes them from it, with the
same bytes, instead of importing every ruleset and having pydantic make them again."""

from __future__ import annotations

from pathlib import Path

import pytest

from ftpress import rules
from ftpress.files.clock import build_now
from ftpress.site import BuildOptions, build, rendering
from ftpress.speed.buildcache import RenderCache

from conftest import files_of, post

OPTIONS = BuildOptions(build_now("2026-12-01T00:00:00+00:00"))


def _schemas(out: Path) -> dict[str, bytes]:
    return {p: data for p, data in files_of(out).items() if p.startswith("schemas/")}


def _refuse(*_: object) -> dict[str, bytes]:
    raise AssertionError("the schemas were made again")


def test_a_rebuild_with_the_cache_takes_the_schemas_from_it(campaign, tmp_path, monkeypatch):
    root = campaign({"content/posts/2026/04/07-a.md": post()})
    cache = RenderCache(None)
    build(root, tmp_path / "first", OPTIONS, cache)
    made = _schemas(tmp_path / "first")
    assert "schemas/post.json" in made and "schemas/orders.json" in made
    monkeypatch.setattr(rendering, "schema_files", _refuse)
    build(root, tmp_path / "second", OPTIONS, cache)
    assert _schemas(tmp_path / "second") == made


def test_another_base_url_makes_them_again(campaign, tmp_path, monkeypatch):
    root = campaign({"content/posts/2026/04/07-a.md": post()})
    cache = RenderCache(None)
    build(root, tmp_path / "first", OPTIONS, cache)
    site = root / "site.yaml"
    site.write_text(site.read_text(encoding="utf-8").replace(
        "https://example.org/camp/", "https://example.net/elsewhere/"), encoding="utf-8")
    build(root, tmp_path / "second", OPTIONS, cache)
    moved = _schemas(tmp_path / "second")["schemas/post.json"]
    assert b'"$id": "https://example.net/elsewhere/schemas/post.json"' in moved


def test_a_ruleset_registered_at_run_time_is_never_taken_from_the_cache(
        campaign, tmp_path, monkeypatch):
    # Its code is not in ftpress's digest: a change to it must show at once.
    root = campaign({"content/posts/2026/04/07-a.md": post()})
    cache = RenderCache(None)
    build(root, tmp_path / "first", OPTIONS, cache)
    monkeypatch.setitem(rules.RULESETS, "toy", rules.RULESETS["sct"])
    monkeypatch.setattr(rendering, "schema_files", _refuse)
    with pytest.raises(AssertionError, match="made again"):
        build(root, tmp_path / "second", OPTIONS, cache)
