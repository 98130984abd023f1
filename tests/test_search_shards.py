"""The search index in shards: how pages are split, what each shard holds, and that a
rebuild re-indexes only the shards whose pages changed, ending as a clean build would."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ftpress.site import pagefind_runner, search
from ftpress.site.search import SEARCH_DIR, SHARDS_FILE, plan
from ftpress.site.serve import LiveSite
from ftpress.speed.kept_trees import SLACK

from conftest import files_of, post

NOW = "2026-12-01T12:00:00+00:00"
SITE_YAML = "title: T\nbase_url: https://example.org/ftpress/\ntimezone: Europe/London\n"
#: Words that appear in one post only, one per year: a search must find each.
WORDS = {2024: "quokka", 2025: "zanzibar", 2026: "xylophone"}


def three_years() -> dict[str, str]:
    files = {}
    for year, word in WORDS.items():
        for day in range(1, 5):
            body = f"Post {day} of {year}.\n\n" + (f"The {word} rule." if day == 2 else "Plain.")
            files[f"content/posts/{year}/03/{day:02d}-y{year}p{day}.md"] = post(
                title=f"Post {day} of {year}", date=f"{year}-03-{day:02d}", body=body)
    return files


@pytest.fixture
def small_shards(monkeypatch):
    monkeypatch.setattr(search, "SHARD_PAGES", 5)


# --- the plan --------------------------------------------------------------------------

def test_the_rulebook_the_turns_and_the_posts_by_years_are_indexed_apart():
    """A rule edited re-indexes the main index alone, a turn recorded the turns' shard."""
    pages = ["rules/index.html", "turns/t001/index.html",
             *(f"posts/2024/03/0{d}/p{d}/index.html" for d in range(1, 4)),
             *(f"posts/2025/03/0{d}/p{d}/index.html" for d in range(1, 4)),
             *(f"posts/2026/03/0{d}/p{d}/index.html" for d in range(1, 4))]
    shards = plan(pages, limit=6)
    assert shards == {"": ("rules/index.html",), "shard-turns-0-24": ("turns/t001/index.html",),
                      "shard-2024-2025": tuple(sorted(pages[2:8])),
                      "shard-2026": tuple(sorted(pages[8:]))}
    assert plan(pages, limit=100) == {"": tuple(sorted(pages))}  # a small site: one index
    # Nothing but posts and turns: the main index takes the first shard's place.
    assert list(plan(pages[1:], limit=6)) == ["", "shard-2024-2025", "shard-2026"]


def test_a_new_turn_changes_only_the_shard_of_its_block_of_turns():
    """The publishing run of a new turn re-indexes its own block of turn reports (and the
    one before, whose report gains its link to the new turn), not all of them."""
    reports = [f"turns/t{n:03d}/index.html" for n in range(101)]
    before = plan(["rules/index.html", *reports[:100]], limit=50)
    after = plan(["rules/index.html", *reports], limit=50)
    assert list(after) == ["", "shard-turns-0-24", "shard-turns-25-49", "shard-turns-50-74",
                           "shard-turns-75-99", "shard-turns-100-124"]
    assert {n: p for n, p in after.items() if n != "shard-turns-100-124"} == before
    assert max(map(len, after.values())) == search.TURN_BLOCK


def test_a_year_bigger_than_a_shard_is_a_shard_alone():
    pages = [f"posts/2025/01/{d:02d}/p/index.html" for d in range(1, 11)]
    assert plan(["about/index.html", *pages], limit=4) == {
        "": ("about/index.html",), "shard-2025": tuple(pages)}


years = st.dictionaries(st.integers(2000, 2040), st.integers(1, 30), max_size=12)


def pages_of(counts: dict[int, int], extra: int = 0) -> list[str]:
    return [f"rules/{i}/index.html" for i in range(extra)] + [
        f"posts/{year}/01/01/p{i}/index.html" for year, n in counts.items() for i in range(n)]


@given(years, st.integers(0, 5), st.integers(1, 40))
def test_every_page_is_in_exactly_one_shard_of_whole_years(counts, extra, limit):
    pages = pages_of(counts, extra)
    shards = plan(pages, limit=limit)
    every = [p for inside in shards.values() for p in inside]
    assert sorted(every) == sorted(pages)
    assert not pages or next(iter(shards)) == ""
    held = [{p.split("/")[1] for p in inside if p.startswith("posts/")} for inside in shards.values()]
    assert all(not (a & b) for i, a in enumerate(held) for b in held[i + 1:])
    assert all(len(inside) <= limit or len(h) <= 1 for inside, h in zip(shards.values(), held, strict=True))


@given(years.filter(bool), st.integers(1, 40))
def test_a_post_of_the_newest_year_changes_no_other_shard(counts, limit):
    newest = max(counts)
    before = plan(pages_of(counts), limit=limit)
    after = plan([*pages_of(counts), f"posts/{newest}/12/31/new/index.html"], limit=limit)
    last = next(n for n, inside in before.items() if any(f"posts/{newest}/" in p for p in inside))
    assert {n: p for n, p in before.items() if n != last} == \
        {n: p for n, p in after.items() if n in before and n != last}


# --- the index on disk --------------------------------------------------------------------

def build(run, root: Path, out: Path) -> dict[str, bytes]:
    code, _, err = run("build", "--source", root, "--out", out, "--now", NOW)
    assert (code, err) == (0, "")
    return files_of(out)


def test_each_shard_is_an_index_the_search_page_merges(small_shards, campaign, run, tmp_path):
    root = campaign(three_years(), site=SITE_YAML)
    build(run, root, tmp_path / "out")
    index = tmp_path / "out" / SEARCH_DIR
    manifest = json.loads((index / SHARDS_FILE).read_text())
    assert manifest["merge"] == ["shard-2025/", "shard-2026/"]
    counts = {}
    for name in ("", "shard-2025", "shard-2026"):
        entry = json.loads((index / name / "pagefind-entry.json").read_text())
        counts[name] = sum(lang["page_count"] for lang in entry["languages"].values())
    assert counts == {"": 4, "shard-2025": 4, "shard-2026": 4}
    # A shard holds only what merging it needs: the scripts are the main index's.
    assert not [p for p in (index / "shard-2025").rglob("*") if p.suffix in (".js", ".css")]
    assert (index / "pagefind.js").is_file()


def test_a_rebuild_reindexes_only_the_shard_of_the_changed_post(small_shards, campaign, run,
                                                                tmp_path, monkeypatch):
    root = campaign(three_years(), site=SITE_YAML)
    out = tmp_path / "out"
    before = build(run, root, out)
    runs: list[list] = []
    real = search.subprocess.Popen

    def spy(args, **kwargs):
        if pagefind_runner.__file__ in args:
            runs.append(json.loads(Path(args[-1]).read_text())["runs"])
        return real(args, **kwargs)

    monkeypatch.setattr(search.subprocess, "Popen", spy)
    edited = root / "content/posts/2025/03/03-y2025p3.md"
    edited.write_text(edited.read_text().replace("Plain.", "Now a wombat too."))
    after = build(run, root, out)
    assert len(runs) == 1 and len(runs[0]) == 1  # one Pagefind run, of one shard
    changed = {p for p in after if before.get(p) != after[p]}
    index_changes = {p.split("/")[1] for p in changed if p.startswith(f"{SEARCH_DIR}/shard-")}
    assert index_changes == {"shard-2025"}
    assert not any(p.startswith(f"{SEARCH_DIR}/shard-2026") for p in changed)
    copy = tmp_path / "src"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".ftpress-cache"))
    assert after == build(run, copy, tmp_path / "clean")


def test_serve_rewriting_a_post_reindexes_its_shard(small_shards, campaign, run, tmp_path):
    root = campaign(three_years(), site=SITE_YAML)
    out = tmp_path / "served"
    site = LiveSite(root, out, drafts=False, future=False, now=NOW)
    site.rebuild()
    assert site.error is None
    shard = files_of(out / SEARCH_DIR / "shard-2026")
    edited = root / "content/posts/2026/03/01-y2026p1.md"
    edited.write_text(edited.read_text() + "\nA pangolin.\n")
    site.rebuild({str(edited)})
    assert files_of(out / SEARCH_DIR / "shard-2026") != shard
    copy = tmp_path / "src"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".ftpress-cache"))
    assert files_of(out) == build(run, copy, tmp_path / "clean")


# --- shards kept in the build cache ---------------------------------------------------------

def pagefind_runs(monkeypatch) -> list[list[str]]:
    """The pages of each shard Pagefind is run on from now on, one list per shard."""
    runs: list[list[str]] = []
    real = search.subprocess.Popen

    def spy(args, **kwargs):
        if pagefind_runner.__file__ in args:
            plan_text = json.loads(Path(args[-1]).read_text())
            runs.extend(sorted(path for _, path in run["pages"]) for run in plan_text["runs"])
        return real(args, **kwargs)

    monkeypatch.setattr(search.subprocess, "Popen", spy)
    return runs


def clean_build(run, root: Path, tmp_path: Path, name: str) -> dict[str, bytes]:
    copy = tmp_path / f"src-{name}"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".ftpress-cache"))
    return build(run, copy, tmp_path / f"clean-{name}")


def kept(root: Path) -> list[str]:
    folder = root / ".ftpress-cache" / search.CACHE_NAME
    return sorted(p.name for p in folder.iterdir())


def test_a_fresh_output_folder_takes_the_unchanged_shards_from_the_cache(
        small_shards, campaign, run, tmp_path, monkeypatch):
    """A publishing run builds into a new checkout with the cache restored: the shards
    whose pages are the same bytes are copied from the cache, not indexed again, and
    the index is byte for byte a clean build's."""
    root = campaign(three_years(), site=SITE_YAML)
    first = build(run, root, tmp_path / "out")
    assert len(kept(root)) == 3  # the main index and two shards
    runs = pagefind_runs(monkeypatch)
    assert build(run, root, tmp_path / "fresh") == first
    assert runs == []  # nothing indexed: every shard came from the cache

    edited = root / "content/posts/2025/03/03-y2025p3.md"
    edited.write_text(edited.read_text().replace("Plain.", "Now a wombat too."))
    after = build(run, root, tmp_path / "fresher")
    # Only the edited post's shard is indexed again: its year's four posts.
    assert runs == [[f"posts/2025/03/0{d}/y2025p{d}/index.html" for d in range(1, 5)]]
    assert after == clean_build(run, root, tmp_path, "edited")
    changed = {p for p in after if first.get(p) != after[p] and p.startswith(SEARCH_DIR)}
    assert {p.split("/")[1] for p in changed} <= {"shard-2025", SHARDS_FILE}
    assert any(p.startswith(f"{SEARCH_DIR}/shard-2025/") for p in changed)


def test_the_cache_keeps_about_one_index_and_lets_the_rest_go(small_shards, campaign, run,
                                                               tmp_path):
    root = campaign(three_years(), site=SITE_YAML)
    edited = root / "content/posts/2026/03/01-y2026p1.md"
    for n in range(4):  # each edit makes a new shard of 2026; the old ones are let go
        edited.write_text(edited.read_text() + f"\nEdit {n}.\n")
        build(run, root, tmp_path / f"out-{n}")
        assert len(kept(root)) <= SLACK * 3
    # What stays holds what the last build used: built again, nothing is let go.
    stayed = kept(root)
    build(run, root, tmp_path / "again")
    assert kept(root) == stayed


def test_serve_keeps_the_shards_it_makes_for_a_later_build(small_shards, campaign, run,
                                                           tmp_path, monkeypatch):
    root = campaign(three_years(), site=SITE_YAML)
    site = LiveSite(root, tmp_path / "served", drafts=False, future=False, now=NOW)
    site.rebuild()
    edited = root / "content/posts/2024/03/04-y2024p4.md"
    edited.write_text(edited.read_text() + "\nA numbat.\n")
    site.rebuild({str(edited)})
    assert site.error is None
    runs = pagefind_runs(monkeypatch)
    # The build of the same sources into another folder finds every shard kept.
    assert build(run, root, tmp_path / "out") == files_of(tmp_path / "served")
    assert runs == []


def test_a_shards_key_is_every_byte_pagefind_reads_and_its_settings(tmp_path, monkeypatch):
    pages = {"a/index.html": tmp_path / "a.html", "b/index.html": tmp_path / "b.html"}
    for file in pages.values():
        file.write_text(PAGE.format(svg="", table=""))
    inside = tuple(pages)
    key = search._shard_key("", inside, pages)
    assert search._shard_key("", inside, pages) == key
    assert search._shard_key("shard-2025", inside, pages) != key
    assert search._shard_key("", inside[:1], pages) != key
    monkeypatch.setenv("PAGEFIND_FORCE_LANGUAGE", "fr")
    assert search._shard_key("", inside, pages) != key
    monkeypatch.delenv("PAGEFIND_FORCE_LANGUAGE")
    pages["b/index.html"].write_text(PAGE.format(svg="", table="").replace("Lumen", "Lumin"))
    assert search._shard_key("", inside, pages) != key


# --- what Pagefind reads ------------------------------------------------------------------

PAGE = ('<!DOCTYPE html><html lang="en"><head><title>T</title></head><body>'
        '<main data-pagefind-body><h1>Turn 3</h1><p>Lumen fell.</p><figure>{svg}</figure>'
        '{table}</main></body></html>')
MAP = ('<svg ' + search.UNSEARCHED + ' viewBox="0 0 9 9" role="img"><title>Marrow: NAC, '
       'income 5</title><circle cx="1" cy="1" r="1"/></svg>')
SYSTEMS = ('<section ' + search.UNSEARCHED + ' aria-labelledby="systems"><h2 id="systems">'
           'Star systems</h2><table><tr><td>Marrow</td><td>Hegemony</td></tr></table></section>')


def test_a_turn_reports_map_and_systems_are_marked_for_the_index_to_skip(demo_site):
    page = (demo_site / "turns/t001/index.html").read_text()
    assert f'<svg {search.UNSEARCHED} ' in page
    assert f'<section {search.UNSEARCHED} aria-labelledby="systems">' in page
    assert search.UNSEARCHED not in (demo_site / "turns/t001/map.svg").read_text()


def test_pagefind_reads_a_copy_without_the_skipped_parts_and_indexes_the_same(tmp_path):
    pages = {"a/index.html": PAGE.format(svg=MAP, table=SYSTEMS),
             "b/index.html": PAGE.format(svg="", table="")}
    for name, text in pages.items():
        write = tmp_path / "site" / name
        write.parent.mkdir(parents=True, exist_ok=True)
        write.write_text(text)
    copies = tmp_path / "copies"
    for name in pages:
        (copies / name).parent.mkdir(parents=True, exist_ok=True)
        pagefind_runner.place(tmp_path / "site" / name, copies / name, search.UNSEARCHED)
    assert (copies / "a/index.html").read_text() == PAGE.format(svg="", table="")
    assert (copies / "b/index.html").stat().st_ino == (tmp_path / "site/b/index.html").stat().st_ino
    for site in ("site", "copies"):
        code, said = pagefind_runner.run(str(search._executable()), str(tmp_path / site),
                                         str(tmp_path / f"index-{site}"))
        assert code == 0, said
    assert files_of(tmp_path / "index-site") == files_of(tmp_path / "index-copies")


def test_the_process_that_runs_pagefind_needs_nothing_of_ftpress():
    """It starts each time the index is made: run as a file, isolated, it imports the
    standard library alone (importing ftpress's build took 0.8 s of CPU each time)."""
    import subprocess
    import sys

    code = ("import runpy, sys; runpy.run_path(sys.argv[1]); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'ftpress'))")
    done = subprocess.run([sys.executable, "-I", "-c", code, pagefind_runner.__file__],
                          capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "[]"


# --- memory: the index is made without the site held -----------------------------------

def test_pagefind_runs_once_the_build_has_let_the_site_go(campaign, run, tmp_path, monkeypatch):
    """`ftpress build` hands back what it loaded and rendered before Pagefind's processes
    start (they run beside it, and the site at 5,000 posts is hundreds of MB); `serve`,
    which keeps the site for the next edit, still has it, and the index is the same."""
    import gc

    from ftpress.site import Site, building

    alive: list[int] = []
    index_site = building.index_site
    root = campaign(three_years(), site=SITE_YAML)

    def counting(*args, **kwargs):
        gc.collect()
        alive.append(sum(isinstance(o, Site) and o.root.resolve() == root.resolve()
                         for o in gc.get_objects()))
        return index_site(*args, **kwargs)

    monkeypatch.setattr(building, "index_site", counting)
    built = build(run, root, tmp_path / "out")
    assert alive == [0]
    site = LiveSite(root, tmp_path / "served", drafts=False, future=False, now=NOW)
    site.rebuild()
    assert alive == [0, 1] and isinstance(site.site, Site)
    assert files_of(tmp_path / "served") == built
