"""Folders of files kept by key in the build cache (the search shards): kept whole or not
at all, copied out (never linked), never through a symbolic link, and let go once they
pile up beyond what the last build used."""

from __future__ import annotations

from pathlib import Path

import pytest

from ftpress.speed import kept_trees
from ftpress.speed.kept_trees import SLACK, KeptTrees

from conftest import files_of


def made(folder: Path, files: dict[str, bytes]) -> Path:
    for rel, data in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(data)
    return folder


FILES = {"pagefind-entry.json": b"{}", "index/en_1.pf_index": b"\x1f\x8b1",
         "fragment/en_2.pf_fragment": b"\x1f\x8b2", "pagefind.js": b"js"}


def test_an_entry_comes_back_with_the_files_wanted_and_is_copied_out(tmp_path):
    cache = KeptTrees(tmp_path / "cache")
    cache.put("k1", made(tmp_path / "made", FILES), lambda rel: not rel.endswith(".js"))
    assert not cache.get("k2", tmp_path / "none") and not (tmp_path / "none").exists()
    assert cache.get("k1", tmp_path / "out")
    assert files_of(tmp_path / "out") == {k: v for k, v in FILES.items() if k != "pagefind.js"}
    (tmp_path / "out/pagefind-entry.json").write_bytes(b"changed in the output")
    assert files_of(tmp_path / "cache/k1")["pagefind-entry.json"] == b"{}"
    assert (tmp_path / "out/index/en_1.pf_index").stat().st_ino != \
        (tmp_path / "cache/k1/index/en_1.pf_index").stat().st_ino


def test_an_entry_is_never_half_written(tmp_path, monkeypatch):
    cache = KeptTrees(tmp_path / "cache")
    real = kept_trees.shutil.copyfile
    copied: list[str] = []

    def full_disk(source, target, **kwargs):
        if copied:
            raise OSError(28, "No space left on device")
        copied.append(str(source))
        return real(source, target, **kwargs)

    monkeypatch.setattr(kept_trees.shutil, "copyfile", full_disk)
    cache.put("k1", made(tmp_path / "made", FILES), lambda rel: True)
    assert list((tmp_path / "cache").iterdir()) == []  # neither the entry nor its draft
    assert not cache.get("k1", tmp_path / "out")


@pytest.mark.parametrize("where", ["top", "inside"])
def test_a_symbolic_link_in_the_cache_is_never_followed(tmp_path, where):
    secret = made(tmp_path / "secret", {"key.txt": b"AGE-SECRET-KEY"})
    folder = tmp_path / "cache"
    if where == "top":
        folder.mkdir()
        (folder / "k1").symlink_to(secret)
    else:
        made(folder / "k1", FILES)
        (folder / "k1/index/en_3.pf_index").symlink_to(secret / "key.txt")
    assert not KeptTrees(folder).get("k1", tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_entries_beyond_what_the_last_build_used_are_let_go_once_they_pile_up(tmp_path):
    folder = tmp_path / "cache"
    for n in range(2 * SLACK):
        made(folder / f"old{n}", FILES)
    made(folder / ".new-stopped", FILES)  # a build stopped half-way through keeping one
    cache = KeptTrees(folder)
    cache.put("k1", made(tmp_path / "made", FILES), lambda rel: True)
    cache.use("k2")
    cache.prune()
    assert sorted(p.name for p in folder.iterdir()) == ["k1"]
    # Few enough: entries another view's build uses stay.
    made(folder / "other", FILES)
    cache.use("k1")
    cache.prune()
    assert sorted(p.name for p in folder.iterdir()) == ["k1", "other"]
