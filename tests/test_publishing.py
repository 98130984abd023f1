"""The publish rule, escaping, time zones, themes and pagination, on small campaigns."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import files_of, post, settled
from sitecheck import all_text

ATOM = "{http://www.w3.org/2005/Atom}"


def build(run, root: Path, *flags: str) -> Path:
    out = root.parent / "out"
    code, _, err = run("build", "--source", root, "--out", out, *flags)
    assert (code, err) == (0, "")
    return out


def everything(out: Path) -> str:
    return all_text(out)


def test_scheduled_and_draft_posts_are_absent_everywhere_unless_asked(campaign, run):
    root = campaign({
        "content/posts/2026/04/07-now.md": post(title="Published", date="2026-04-07"),
        "content/posts/2026/06/01-later.md": post(title="Scheduled", date="2026-06-01",
                                                  extra="tags: [secret-tag]\n"),
        "content/posts/2026/04/08-draft.md": post(title="Drafty", date="2026-04-08",
                                                  extra="draft: true\n"),
    })
    out = build(run, root, "--now", "2026-05-01")
    text = everything(out)
    for hidden in ("Scheduled", "secret-tag", "/later/", "Drafty", "04/08/draft/"):
        assert hidden not in text
    assert not (out / "posts/2026/06").exists()
    out = build(run, root, "--now", "2026-05-01", "--future", "--drafts")
    text = everything(out)
    assert "Scheduled" in text and "Drafty" in text
    assert len(ET.parse(out / "feed.xml").getroot().findall(f"{ATOM}entry")) == 3
    out = build(run, root, "--now", "2026-06-01T00:00:00+01:00")  # the moment it is due
    assert (out / "posts/2026/06/01/later/index.html").is_file()


def test_stale_pages_are_removed_when_a_post_is_unpublished(campaign, run):
    root = campaign({"content/posts/2026/04/07-gone.md": post(title="Gone", date="2026-04-07"),
                     "content/posts/2026/04/08-kept.md": post(title="Kept", date="2026-04-08")})
    out = build(run, root, "--now", "2026-05-01")
    (out / ".git").mkdir()
    (out / ".git" / "HEAD").write_text("deploy checkout")
    (root / "content/posts/2026/04/07-gone.md").unlink()
    build(run, root, "--now", "2026-05-01")
    assert not (out / "posts/2026/04/07").exists()
    assert (out / "posts/2026/04/08/kept/index.html").is_file()
    assert (out / ".git/HEAD").read_text() == "deploy checkout"


def test_text_from_files_is_escaped_in_html_and_feed(campaign, run):
    nasty = '<script>alert("x")</script> & co'
    root = campaign({"content/posts/2026/04/07-nasty.md": post(
        title=f"'{nasty}'", date="2026-04-07", extra=f"summary: '{nasty}'\n",
        body=f"Body {nasty}\n\n<img src=x onerror=alert(1)>")})
    out = build(run, root, "--now", "2026-05-01")
    page = (out / "posts/2026/04/07/nasty/index.html").read_text()
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert" in page
    feed = ET.parse(out / "feed.xml").getroot()
    (entry,) = feed.findall(f"{ATOM}entry")
    assert entry.findtext(f"{ATOM}title") == nasty
    assert "<script>" not in entry.findtext(f"{ATOM}content")


def test_zone_less_dates_are_read_in_the_campaign_zone(campaign, run):
    root = campaign({"content/posts/2026/07/01-bare.md": post(title="Bare", date="2026-07-01")})
    out = build(run, root, "--now", "2026-08-01")
    (entry,) = ET.parse(out / "feed.xml").getroot().findall(f"{ATOM}entry")
    assert entry.findtext(f"{ATOM}published") == "2026-07-01T00:00:00+01:00"  # London summer time


def test_links_carry_the_base_path_and_pages_paginate(campaign, run):
    posts = {f"content/posts/2026/04/{d:02d}-p{d}.md": post(title=f"Post {d}", date=f"2026-04-{d:02d}",
                                                            body="[home](/) and [tags](/tags/)")
             for d in range(1, 8)}
    out = build(run, campaign(posts), "--now", "2026-05-01")
    home = (out / "index.html").read_text()
    assert 'href="/camp/page/2/"' in home
    assert (out / "page/3/index.html").is_file() and not (out / "page/4").exists()
    assert 'href="/camp/tags/"' in (out / "posts/2026/04/01/p1/index.html").read_text()


def test_a_campaign_overrides_one_theme_file(campaign, run):
    root = campaign({"content/posts/2026/04/07-a.md": post(date="2026-04-07"),
                     "themes/default/static/style.css": "body { color: red; }\n",
                     "themes/default/page.html": "unused\n"})
    out = build(run, root, "--now", "2026-05-01")
    assert (out / "static/style.css").read_text() == "body { color: red; }\n"
    assert "Skip to content" in (out / "index.html").read_text()  # the rest is built in


def test_an_unchanged_rebuild_writes_nothing(campaign, run):
    root = settled(campaign({"content/posts/2026/04/07-a.md": post(date="2026-04-07")}))
    out = root.parent / "out"
    run("build", "--source", root, "--out", out, "--now", "2026-05-01")
    code, stdout, _ = run("build", "--source", root, "--out", out, "--now", "2026-05-01")
    assert code == 0
    assert stdout.startswith("nothing changed since the last build")
    (out / "index.html").write_text("tampered")  # the output changed: build again
    code, stdout, _ = run("build", "--source", root, "--out", out, "--now", "2026-05-01")
    assert " 1 files written, " in stdout


def test_an_unchanged_rebuild_imports_neither_the_models_nor_the_renderer(campaign, run):
    """The check that nothing changed runs before the rest of ftpress is imported (its
    models alone take 0.2 s to import): the no-op build stays instant."""
    root = settled(campaign({"content/posts/2026/04/07-a.md": post(date="2026-04-07")}))
    out = root.parent / "out"
    run("build", "--source", root, "--out", out, "--now", "2026-05-01")
    probe = ("import sys\nfrom ftpress.cli import main\n"
             f"main(['build', '--source', {str(root)!r}, '--out', {str(out)!r}, "
             "'--now', '2026-05-01'])\n"
             "print(sorted(m for m in ('pydantic', 'jinja2', 'ftpress.site', "
             "'ftpress.state.load') if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stdout.startswith("nothing changed since the last build")
    assert done.stdout.rstrip().endswith("[]"), done.stdout



def _add_stray(out: Path) -> None:
    (out / "posts/2026/04/07/a/stray.html").write_text("stray")


def _add_stray_folder(out: Path) -> None:
    (out / "extra/deeper").mkdir(parents=True)
    (out / "extra/deeper/index.html").write_text("stray")


@pytest.mark.parametrize("tamper", [
    lambda out: (out / "posts/2026/04/07/a/index.html").write_text("edited by hand"),
    lambda out: (out / "posts/2026/04/07/a/index.html").unlink(),
    lambda out: (out / "robots.txt").unlink(),
    lambda out: (out / "stray.txt").write_text("stray"),
    _add_stray,
    _add_stray_folder,
], ids=["edited", "deleted", "deleted-at-top", "added-at-top", "added-deep", "added-folder"])
def test_a_rebuild_notices_any_change_to_the_output(campaign, run, tmp_path, tamper):
    root = settled(campaign({"content/posts/2026/04/07-a.md": post(date="2026-04-07")}))
    out = root.parent / "out"
    run("build", "--source", root, "--out", out, "--now", "2026-05-01")
    clean = files_of(out)
    time.sleep(0.05)  # file times are coarse: a change must land after the build's own
    tamper(out)
    code, stdout, _ = run("build", "--source", root, "--out", out, "--now", "2026-05-01")
    assert code == 0
    assert not stdout.startswith("nothing changed"), stdout
    assert files_of(out) == clean


def test_a_second_edit_within_a_tick_of_the_file_clock_is_not_missed(campaign, run):
    """git's "racily clean" files: a post edited again, keeping its size, within one
    tick of a coarse file clock (a second, on some disks) keeps its size and time too.
    A fingerprint taken that soon after an input changed is not kept."""
    root = campaign({"content/posts/2026/04/07-a.md": post(date="2026-04-07",
                                                            body="Old words.")})
    out = root.parent / "out"
    source = root / "content/posts/2026/04/07-a.md"
    run("build", "--source", root, "--out", out, "--now", "2026-05-01")
    stamp = source.stat().st_mtime_ns
    source.write_text(post(date="2026-04-07", body="New words."))  # the same size
    os.utime(source, ns=(stamp, stamp))  # what a clock counting in seconds would leave
    code, stdout, _ = run("build", "--source", root, "--out", out, "--now", "2026-05-01")
    assert code == 0
    assert not stdout.startswith("nothing changed"), stdout
    assert "New words." in (out / "posts/2026/04/07/a/index.html").read_text()
    # Once the inputs are older than a tick, the fingerprint is kept again.
    settled(root)
    run("build", "--source", root, "--out", out, "--now", "2026-05-01")
    code, stdout, _ = run("build", "--source", root, "--out", out, "--now", "2026-05-01")
    assert stdout.startswith("nothing changed since the last build")


def test_incremental_builds_give_exactly_the_bytes_of_a_clean_build(campaign, run, tmp_path):
    root = campaign({f"content/posts/2026/04/{d:02d}-p{d}.md": post(
        title=f"Post {d}", date=f"2026-04-{d:02d}", extra="tags: [sieges]\n",
        body=f"Body of post {d}.") for d in range(1, 9)})
    out = tmp_path / "incremental"
    run("build", "--source", root, "--out", out, "--now", "2026-05-01")
    # An edit, a new post, a deleted post and a post that comes due.
    (root / "content/posts/2026/04/03-p3.md").write_text(post(title="Post 3", date="2026-04-03",
                                                             body="Changed words."))
    (root / "content/posts/2026/04/20-new.md").write_text(post(title="New", date="2026-04-20"))
    (root / "content/posts/2026/04/05-p5.md").unlink()
    (root / "content/posts/2026/05/10-due.md").parent.mkdir(parents=True)
    (root / "content/posts/2026/05/10-due.md").write_text(post(title="Due", date="2026-05-10"))
    for now in ("2026-05-01", "2026-05-11"):
        code, _, err = run("build", "--source", root, "--out", out, "--now", now)
        assert (code, err) == (0, "")
        clean = tmp_path / f"clean-{now}"
        clean_root = tmp_path / f"src-{now}"
        shutil.copytree(root, clean_root, ignore=shutil.ignore_patterns(".ftpress-cache"))
        assert run("build", "--source", clean_root, "--out", clean, "--now", now)[0] == 0
        assert files_of(out) == files_of(clean)
    assert "Due" in (out / "index.html").read_text()


def test_search_can_be_turned_off(campaign, run):
    root = campaign({"content/posts/2026/04/07-a.md": post(date="2026-04-07")},
                    site="title: T\nbase_url: https://example.org/camp/\nsearch: false\n")
    out = build(run, root, "--now", "2026-05-01")
    assert not (out / "pagefind").exists() and not (out / "search").exists()
    assert "/camp/search/" not in (out / "index.html").read_text()
