"""Incremental work gives exactly what a clean build gives: state files read once per
distinct bytes, staged output moved in, and ``serve`` rewriting an edited post first."""

from __future__ import annotations

import re
import shutil
import sys
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from ftpress.errors import InputError
from ftpress.files import yamlsource
from ftpress.files.write import write_tree
from ftpress.render.theme import BUILTIN as THEME
from ftpress.site import campaign_pages
from ftpress.site.serve import LiveSite
from ftpress.speed.buildcache import RenderCache
from ftpress.state import load as state_load
from ftpress.store.campaign import load_states

from conftest import files_of, post
from statefiles import STATE, sub

NOW = "2026-05-01T12:00:00+00:00"



def clean_build(run, root: Path, out: Path) -> dict[str, bytes]:
    """A build from a copy of ``root`` without its cache, into a fresh folder."""
    copy = out.parent / f"{out.name}-src"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".ftpress-cache"))
    code, _, err = run("build", "--source", copy, "--out", out, "--now", NOW)
    assert (code, err) == (0, "")
    return files_of(out)


def posts(n: int, **extra: str) -> dict[str, str]:
    return {f"content/posts/2026/04/{d:02d}-p{d}.md": post(
        title=f"Post {d}", date=f"2026-04-{d:02d}", extra="tags: [sieges]\n",
        body=f"Lead of post {d}.\n\nMore of post {d}.") for d in range(1, n + 1)} | extra


# --- state files: the same bytes are parsed once --------------------------------------

def test_snapshots_with_the_same_bytes_are_parsed_once(campaign, monkeypatch):
    files = dict(STATE)
    for turn in ("t000", "t001", "t002"):
        files |= {f"state/turns/{turn}/{rel.split('/')[-1]}": text for rel, text in STATE.items()}
    root = campaign(files)
    parsed: list[str] = []
    real = yamlsource.parse
    monkeypatch.setattr(yamlsource, "parse", lambda text, path, *a: (
        parsed.append(path) if path.startswith("state/") else None, real(text, path, *a))[1])
    folders = load_states(root)
    assert len(folders) == 4
    assert len(parsed) == len(STATE)  # one parse per distinct file, not one per folder
    assert [f.state for f in folders[1:]] == [folders[0].state] * 3
    kept = RenderCache(None)  # serve's, kept from build to build
    load_states(root, kept)
    load_states(root, kept)
    assert len(parsed) == 2 * len(STATE)  # a second load with that cache parses nothing


def test_a_file_broken_after_a_good_load_is_reported_at_its_line(campaign):
    root = campaign(dict(STATE))
    kept = RenderCache(None)
    load_states(root, kept)
    good = (root / "state/map.yaml").read_text()
    (root / "state/map.yaml").write_text(sub(good, "radius: 5", "radius: five"))
    with pytest.raises(InputError) as caught:
        load_states(root, kept)
    assert [(p.path, p.line) for p in caught.value.problems] == [("state/map.yaml", 1)]
    (root / "state/map.yaml").write_text(good)  # fixed again: the kept copy serves
    assert load_states(root, kept)[0].state is not None


def test_the_parsed_files_kept_are_bounded(campaign, monkeypatch):
    root = campaign(dict(STATE))
    monkeypatch.setattr(state_load, "PARSED_LIMIT", 3)
    kept = RenderCache(None)
    load_states(root, kept)
    assert len(kept.parsed) == 3


def test_a_second_run_reads_the_state_from_the_build_cache(campaign, monkeypatch, tmp_path):
    root = campaign(dict(STATE))
    store = RenderCache(tmp_path / "cache")
    first = load_states(root, store)
    store.save()
    parsed: list[str] = []
    real = yamlsource.parse
    monkeypatch.setattr(yamlsource, "parse", lambda text, path, *a: (
        parsed.append(path) if path.startswith("state/") else None, real(text, path, *a))[1])
    again = load_states(root, RenderCache(tmp_path / "cache"))  # as a new process would
    # Nothing is parsed again but what a check asks a line of: the ruleset's setup
    # check (§6) looks up where each treasury is before it knows of any problem.
    assert set(parsed) <= {"state/players.yaml"}
    assert repr([f.state for f in again]) == repr([f.state for f in first])
    # The line marks are still there when something asks for them.
    assert again[0].where("groups", "groups", 0, "at") == first[0].where("groups", "groups",
                                                                          0, "at")


def test_a_problem_in_a_file_from_the_build_cache_is_reported_at_its_line(campaign, monkeypatch,
                                                                          tmp_path):
    root = campaign(dict(STATE) | {"state/groups.yaml": sub(STATE["state/groups.yaml"],
                                                           "at: home", "at: nowhere")})
    problems = []
    for _ in range(2):  # the first run keeps the file; the second reads it from there
        store = RenderCache(tmp_path / "cache")
        with pytest.raises(InputError) as caught:
            load_states(root, store)
        store.save()
        problems.append([str(p) for p in caught.value.problems])
    assert problems[0] == problems[1]
    assert any(p.startswith("state/groups.yaml:4:") for p in problems[1])


@settings(max_examples=200, deadline=None)
@given(value=st.one_of(
    st.integers(-10**20, 10**20).map(str),
    st.from_regex(r"[-+]?[0-9_]{1,6}|0[xob][0-9a-f]{1,4}|[0-9]{1,2}:[0-9]{2}", fullmatch=True),
    st.text(alphabet="abc019-_:. +'", min_size=1, max_size=8)))
def test_the_parser_s_shortcuts_give_what_pyyaml_gives(value):
    """Strings and plain integers skip PyYAML's constructor; the values are the same,
    but for the forms only YAML 1.1 reads as numbers (sexagesimal ``1:30``), which
    ftpress reads as text, as YAML 1.2 and the editors do."""
    text = f"a: {value}\n"
    try:
        expected = yaml.safe_load(text)
    except (yaml.YAMLError, ValueError):
        # PyYAML's resolver takes "0b_" for an integer its constructor cannot read
        # (ValueError); ftpress's parser refuses it with its place.
        return
    if re.fullmatch(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?", value):
        expected = {"a": value}
    if not isinstance(expected, dict):
        return
    try:
        got = yamlsource.parse(text, "x.yaml")
    except InputError:
        return  # refused by the located parser for reasons of its own (dates and such)
    assert got == expected and type(got["a"]) is type(expected["a"])


def test_the_remembered_scalar_tags_are_bounded(monkeypatch):
    monkeypatch.setattr(yamlsource, "_RESOLVED", {})
    monkeypatch.setattr(yamlsource, "RESOLVED_LIMIT", 3)
    data = yamlsource.parse("a: 1\nb: two\nc: 2026-01-01\nd: null\ne: 1.5\n", "x.yaml")
    assert len(yamlsource._RESOLVED) <= 3
    assert dict(data) == yaml.safe_load("a: 1\nb: two\nc: 2026-01-01\nd: null\ne: 1.5\n")


# --- staging: what a write leaves behind ----------------------------------------------

def test_a_folder_replaces_a_file_and_a_file_a_folder(tmp_path):
    out = tmp_path / "out"
    write_tree(out, {"a": b"file a", "b/c.html": b"c", "d/e/f.html": b"f"})
    write_tree(out, {"a/index.html": b"now a folder", "b": b"now a file", "d/e/f.html": b"f"})
    assert files_of(out) == {"a/index.html": b"now a folder", "b": b"now a file",
                         "d/e/f.html": b"f"}


paths = st.lists(st.sampled_from(["a", "a/b", "a/c", "a/b/d", "e", "e/f", "g/h/i"]),
                 unique=True, max_size=5)


@settings(max_examples=40, deadline=None)
@given(first=paths, second=paths)
def test_a_write_leaves_exactly_the_files_given(tmp_path_factory, first, second):
    """Whatever stood there before (files where folders go, and back), the output
    ends up holding exactly the files of the last write."""
    out = tmp_path_factory.mktemp("w") / "out"

    def files(chosen: list[str]) -> dict[str, bytes]:
        # A path that is another's folder cannot also be a file: keep the deeper one.
        return {p: p.encode() for p in chosen if not any(q.startswith(p + "/") for q in chosen)}

    write_tree(out, files(first))
    write_tree(out, files(second))
    assert files_of(out) == files(second)


# --- serve: an edited post's page first, then the rest --------------------------------

def live(root: Path, out: Path) -> LiveSite:
    site = LiveSite(root, out, drafts=False, future=False, now=NOW)
    site.rebuild()
    assert site.error is None
    return site


def test_serve_rewrites_an_edited_post_first_and_ends_as_a_clean_build(campaign, run,
                                                                        tmp_path):
    root = campaign(posts(6))
    out = tmp_path / "served"
    site = live(root, out)
    edited = root / "content/posts/2026/04/03-p3.md"
    edited.write_text(edited.read_text() + "\nAn added closing line.\n")
    before = site.version
    shown: list[str] = []
    real = site._announce
    site._announce = lambda error: (shown.append(
        (out / "posts/2026/04/03/p3/index.html").read_text()), real(error))[1]
    site.rebuild({str(edited)})
    # The page was rewritten before the first reload; nothing else the browser shows
    # changed, so there was no second reload.
    assert len(shown) == 1 and "An added closing line." in shown[0]
    assert site.version == before + 1
    assert files_of(out) == clean_build(run, root, tmp_path / "clean")


def test_serve_reloads_again_when_the_edit_changes_other_pages(campaign, run, tmp_path):
    root = campaign(posts(4))
    out = tmp_path / "served"
    site = live(root, out)
    edited = root / "content/posts/2026/04/02-p2.md"
    edited.write_text(edited.read_text().replace("title: Post 2", "title: Renamed"))
    before = site.version
    site.rebuild({str(edited)})
    assert site.version == before + 2  # the post's page, then the listings that name it
    assert files_of(out) == clean_build(run, root, tmp_path / "clean")


@pytest.mark.parametrize("change", ["new post", "theme", "broken post", "unpublished"])
def test_serve_builds_everything_when_one_page_cannot_stand_alone(campaign, run, tmp_path,
                                                                  change):
    root = campaign(posts(3))
    out = tmp_path / "served"
    site = live(root, out)
    before = site.version
    if change == "new post":
        changed = root / "content/posts/2026/04/20-new.md"
        changed.write_text(post(title="New", date="2026-04-20"))
    elif change == "theme":
        changed = root / "themes/default/static/extra.css"
        changed.parent.mkdir(parents=True)
        changed.write_text("p { margin: 0 }\n")
    elif change == "broken post":
        changed = root / "content/posts/2026/04/02-p2.md"
        changed.write_text("---\ntitle: [unclosed\n---\nBody.\n")
    else:
        changed = root / "content/posts/2026/04/02-p2.md"
        changed.write_text(post(title="Post 2", date="2026-04-02", extra="draft: true\n"))
    assert site._rebuild_posts({str(changed)}, site_options(site)) == set()
    site.rebuild({str(changed)})
    assert site.version == before + 1  # one reload, after the whole build
    if change == "broken post":
        assert site.error is not None and "02-p2.md" in site.error
    else:
        assert site.error is None
        assert files_of(out) == clean_build(run, root, tmp_path / "clean")


def site_options(site: LiveSite):
    from ftpress.files.clock import build_now
    from ftpress.site import BuildOptions

    return BuildOptions(build_now(site.now))


def test_serve_redoes_the_search_index_after_rewriting_a_post(campaign, run, tmp_path):
    site_yaml = "title: T\nbase_url: https://example.org/camp/\nsearch: true\n"
    root = campaign(posts(2), site=site_yaml)
    out = tmp_path / "served"
    site = live(root, out)
    index_before = files_of(out / "pagefind")
    edited = root / "content/posts/2026/04/01-p1.md"
    edited.write_text(edited.read_text() + "\nZanzibar quokka.\n")
    site.rebuild({str(edited)})
    assert files_of(out / "pagefind") != index_before
    assert files_of(out) == clean_build(run, root, tmp_path / "clean")


def test_serve_writes_the_page_a_browser_shows_before_all_the_others(campaign, run, tmp_path):
    """An edit of every page (the masthead): the page a browser's event stream names is
    written and the browser reloaded before any other page changes; a second reload
    follows the rest, and the site ends as a clean build."""
    root = campaign(posts(5) | {"content/pages/about.md": "---\ntitle: About\n---\nUs.\n"})
    out = tmp_path / "served"
    site = live(root, out)
    shown = site.page_of(site.base_path + "about/")
    assert shown is not None and (out / shown).is_file()
    site.watching(shown, True)
    masthead = root / "themes/default/_masthead.html"
    masthead.parent.mkdir(parents=True)
    masthead.write_text("<p>A new masthead</p>\n")
    seen: list[tuple[bool, bool]] = []
    real = site._announce
    site._announce = lambda error: (seen.append(
        tuple("A new masthead" in (out / p).read_text() for p in (shown, "index.html"))),
        real(error))[1]
    before = site.version
    site.rebuild({str(masthead)})
    assert site.error is None
    assert seen == [(True, False), (True, True)]  # the page shown first, the rest after
    assert site.version == before + 2
    assert files_of(out) == clean_build(run, root, tmp_path / "clean")
    site.watching(shown, False)
    assert site.shown_pages() == frozenset()


def test_a_page_written_first_by_a_build_that_fails_is_indexed_by_the_next(campaign, run,
                                                                           tmp_path, capsys):
    """The page a browser shows is written ahead of the build; when another page's
    template then fails, the next good build still redoes that page's search index."""
    site_yaml = "title: T\nbase_url: https://example.org/camp/\nsearch: true\n"
    root = campaign(posts(2) | {"content/pages/about.md": "---\ntitle: About\n---\nUs.\n"},
                    site=site_yaml)
    out = tmp_path / "served"
    site = live(root, out)
    shown = site.page_of("/camp/about/")
    site.watching(shown, True)
    page = root / "content/pages/about.md"
    page.write_text(page.read_text().replace("Us.", "Zanzibar quokka."))
    broken = root / "themes/default/post.html"
    broken.parent.mkdir(parents=True)
    broken.write_text("{% extends 'base.html' %}{% block main %}{{ nope( }}{% endblock %}\n")
    site.rebuild({str(page), str(broken)})
    assert site.error is not None and "post.html" in site.error
    assert "Zanzibar quokka." in (out / str(shown)).read_text()  # written ahead
    broken.unlink()
    site.rebuild({str(broken)})
    assert site.error is None
    capsys.readouterr()  # what serve said is not the clean build's to report
    assert files_of(out) == clean_build(run, root, tmp_path / "clean")


def test_the_page_of_an_address(campaign, tmp_path):
    site = LiveSite(campaign(posts(1)), tmp_path / "served", drafts=False, future=False,
                    now=NOW)
    site.base_path = "/camp/"
    assert site.page_of("/camp/") == "index.html"
    assert site.page_of("/camp/posts/2026/04/01/p1/") == "posts/2026/04/01/p1/index.html"
    assert site.page_of("/camp/a%20b/") == "a b/index.html"
    assert site.page_of("/camp/feed.xml") == "feed.xml"
    assert site.page_of("/other/") is None
    assert site.page_of("/camp/../../etc/passwd") is None


# --- search: Pagefind starts on the searchable pages while the rest render ------------

def test_the_index_is_made_with_a_relative_output_folder(campaign, run, monkeypatch):
    root = campaign(posts(2))
    monkeypatch.chdir(root.parent)
    code, _, err = run("build", "--source", root.name, "--out", "rel-out", "--now", NOW)
    assert (code, err) == (0, "")
    assert (root.parent / "rel-out/pagefind/pagefind-entry.json").is_file()
    assert not [p for p in (root.parent / "rel-out").iterdir() if p.name.startswith(".")]


def test_a_theme_page_marked_searchable_late_is_indexed_too(campaign, run, tmp_path):
    """The 404 page is rendered after the searchable templates; a theme that marks it
    searchable gets it indexed all the same (the index is made again at the end)."""
    root = campaign(posts(1) | {"themes/default/404.html": (
        '{% extends "base.html" %}{% block main %}<main data-pagefind-body>'
        "<h1>Lost</h1><p>Xylophone marmalade.</p></main>{% endblock %}")})
    code, _, err = run("build", "--source", root, "--out", tmp_path / "out", "--now", NOW)
    assert (code, err) == (0, "")
    entry = (tmp_path / "out/pagefind/pagefind-entry.json").read_text()
    assert '"page_count":2' in entry.replace(" ", "")


def test_a_site_with_nothing_searchable_builds_an_empty_index(campaign, run, tmp_path):
    root = campaign({})
    code, _, err = run("build", "--source", root, "--out", tmp_path / "out", "--now", NOW)
    assert (code, err) == (0, "")
    assert not any((tmp_path / "out/pagefind").rglob("*"))


# --- the store: parsed YAML kept as JSON only where it reads back exactly ----------------

@pytest.mark.parametrize(("data", "kept"), [
    ({"a": 1, "b": [1.5, True, None, "x"], "c": {"d": date(2026, 5, 1)}}, True),
    ({"at": datetime(2026, 5, 1, 12, 0, tzinfo=timezone(timedelta(hours=1)))}, True),
    ({"at": datetime(2026, 5, 1, 12, 0)}, True),
    ({1: "an int key comes back a string"}, False),
    ({"a": {"$ftpress-date": "2026-05-01"}}, False),  # looks like a kept date
    ({"at": datetime(2026, 5, 1, tzinfo=ZoneInfo("Europe/London"))}, False),  # equal, not same
    ({"n": float("nan")}, False),
])
def test_parsed_files_are_stored_only_if_they_read_back_exactly(data, kept):
    assert (state_load.yaml_text(data) is not None) is kept


# --- serve after each kind of edit ends as a clean build ------------------------------

RULE = ("---\nrule: 1\ntitle: Space\ndate: 2026-04-01\nsource: p1\n---\n"
        "How space is laid out.\n\n## 1.1 The map\nA hexagon of hexes.\n")


def test_serve_after_each_kind_of_edit_ends_as_a_clean_build(campaign, run, tmp_path):
    """A post, a rule file, a new post, a page, a template, a state file and site.yaml,
    edited one after another under ``serve``: after each, the output is byte for byte
    what a clean build makes."""
    root = campaign(posts(5) | STATE | {"content/rules/01-space.md": RULE,
                                        "content/pages/about.md": "---\ntitle: About\n---\nUs.\n"})
    out = tmp_path / "served"
    site = live(root, out)
    builds = iter(range(100))

    def edit(rel: str, change) -> None:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(change(path.read_text() if path.exists() else ""))
        site.rebuild({str(path)})
        assert site.error is None
        assert files_of(out) == clean_build(run, root, tmp_path / f"clean-{next(builds)}")

    edit("content/posts/2026/04/03-p3.md", lambda t: t + "\nOne more line.\n")
    edit("content/rules/01-space.md", lambda t: t + "\nThe edge is the end of space.\n")
    edit("content/posts/2026/04/20-new.md", lambda _: post(title="New", date="2026-04-20"))
    edit("content/pages/about.md", lambda t: t.replace("Us.", "We are us."))
    edit("themes/default/_masthead.html", lambda _: "<p>A new masthead</p>\n")
    edit("state/groups.yaml", lambda t: t)  # the same bytes: nothing to do
    edit("state/map.yaml", lambda t: sub(t, "name: Far,", "name: Farther,"))
    edit("site.yaml", lambda t: t.replace("title:", "title: Renamed", 1))


# --- serve on a campaign with recorded turns: only what depends on an edit is redone ----

@pytest.fixture(scope="module")
def with_turns(tmp_path_factory) -> Path:
    """A small benchmark campaign: posts citing the rulebook, rule files, three turns
    resolved by the engine, and a page."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    import corpus

    out = tmp_path_factory.mktemp("bench") / "corpus"
    corpus.write_corpus(out, posts=12, turns=3, radius=5, seed=5)
    root = out / corpus.PROJECTS["ftpress"]
    (root / "content/pages").mkdir(parents=True, exist_ok=True)
    (root / "content/pages/about.md").write_text("---\ntitle: About\n---\nThe reach.\n")
    return root


def test_serve_on_a_campaign_with_turns_redoes_only_what_an_edit_touches(with_turns, run,
                                                                         tmp_path, monkeypatch,
                                                                         capsys):
    """Each kind of edit under ``serve``, one after another, ends byte for byte as a
    clean build (search index included); the turn reports are not remade for an edit
    they do not read, and a failed build in between leaves nothing stale behind."""
    root = tmp_path / "campaign"
    shutil.copytree(with_turns, root)
    out = tmp_path / "served"
    site = LiveSite(root, out, drafts=False, future=False, now=NOW)
    site.rebuild()
    assert site.error is None
    for shown in ("index.html", "rules/index.html", "turns/t001/index.html"):
        site.watching(shown, True)  # browsers on them: each is rendered first
    made: list[int] = []
    real = campaign_pages.render_turns
    monkeypatch.setattr(campaign_pages, "render_turns",
                        lambda *a, **k: (made.append(1), real(*a, **k))[1])
    builds = iter(range(100))

    def edit(rel: str, change, *, turns_redone: bool, error: bool = False) -> None:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if change is None:
            path.unlink()
        else:
            path.write_text(change(path.read_text() if path.exists() else ""))
        made.clear()
        site.rebuild({str(path)})
        capsys.readouterr()  # what serve said is not the clean build's to report
        assert bool(made) == turns_redone, rel
        if error:
            assert site.error is not None
            return
        assert site.error is None, site.error
        assert files_of(out) == clean_build(run, root, tmp_path / f"clean-{next(builds)}")

    rule = sorted((root / "content/rules").glob("*.md"))[1].relative_to(root).as_posix()
    posts_ = sorted((root / "content/posts").rglob("*.md"))
    first = posts_[0].relative_to(root).as_posix()
    edit(rule, lambda t: t + "\nA line that cites nothing new.\n", turns_redone=False)
    edit(rule, lambda t: t + "\n## 2.99 A new section\nWhere citations may now point.\n",
         turns_redone=True)  # a section added: where a cited rule points may change
    edit(first, lambda t: t + "\nOne more line.\n", turns_redone=False)
    edit("content/posts/2026/04/20-new.md", lambda _: post(title="New", date="2026-04-20"),
         turns_redone=False)
    edit("content/pages/about.md", lambda t: t.replace("The reach.", "The far reach."),
         turns_redone=False)
    edit("themes/default/turn.html", lambda _: (THEME / "turn.html").read_text() + "\n",
         turns_redone=False)  # the turn pages are rendered again, their views kept
    edit("themes/default/turn.html", lambda t: t.replace("{% block", "{% blok", 1),
         turns_redone=False, error=True)
    edit("themes/default/turn.html", lambda t: t.replace("{% blok", "{% block", 1),
         turns_redone=False)
    edit("state/players.yaml", lambda t: t + "# a comment: the same state\n",
         turns_redone=False)
    edit("state/turns/t001/events.yaml", lambda t: t + "# the same events\n",
         turns_redone=False)
    edit("state/turns/t001/events.yaml", lambda t: t.replace("rule: ftc2007 §", "rule: ftc2007 §",
                                                              1).replace(" gives no ",
                                                                         " gives no written ", 1),
         turns_redone=True)
    edit(first, None, turns_redone=False)  # a post deleted
    edit("site.yaml", lambda t: t.replace("title:", "title: Renamed", 1), turns_redone=True)


def test_serve_writes_again_a_page_taken_out_of_its_output(campaign, run, tmp_path):
    """A page whose inputs did not change is not rendered again, unless its file is gone."""
    root = campaign(posts(3))
    out = tmp_path / "served"
    site = live(root, out)
    (out / "posts/2026/04/01/p1/index.html").unlink()
    edited = root / "content/posts/2026/04/03-p3.md"
    edited.write_text(edited.read_text() + "\nA last line.\n")
    site.rebuild({str(edited)})
    assert files_of(out) == clean_build(run, root, tmp_path / "clean")


# --- turns' event logs: parsed once, kept between runs ----------------------------------

def test_event_logs_kept_by_one_run_are_not_parsed_by_the_next(tmp_path, monkeypatch):
    """A build keeps each public event log's parse in the cache on disk, by its bytes: the
    next run (CI's, with the cache restored and ftpress installed afresh) validates the
    same events from it without parsing a log; a log changed since is parsed, and a
    problem in it is reported at its line."""
    from ftpress.state.records import load_turns
    from ftpress.store.campaign_store import STATE_EXTENSIONS

    root = tmp_path / "campaign"
    shutil.copytree(Path(__file__).resolve().parent.parent / "state", root / "state")
    parsed: list[str] = []
    real = yamlsource.parse
    monkeypatch.setattr(yamlsource, "parse", lambda text, path, *a: (
        parsed.append(path) if path.endswith("events.yaml") else None, real(text, path, *a))[1])

    def run() -> tuple:
        cache = RenderCache(tmp_path / "cache")  # a new process's, from the same folder
        turns = load_turns(root, extensions=STATE_EXTENSIONS, store=cache)
        cache.save()
        return turns

    first = run()
    logs = sorted(p.name for p in (root / "state/turns").iterdir()
                  if (p / "events.yaml").is_file())
    assert len(parsed) == len(logs) > 0
    assert run() == first and len(parsed) == len(logs)  # nothing parsed again
    last = root / "state/turns" / logs[-1] / "events.yaml"
    last.write_text(last.read_text() + "bogus: [\n")
    with pytest.raises(InputError) as caught:
        run()
    assert [p.path for p in caught.value.problems] == [f"state/turns/{logs[-1]}/events.yaml"]
    assert parsed[len(logs):] == [f"state/turns/{logs[-1]}/events.yaml"] * 2  # and only it
