"""A hostile player, a careless umpire, an unlucky machine: every bad input a located
problem, exit 1, nothing written, and nothing a log or a terminal would obey.

Each test is one finding of issue 24 (its item number in the test's docstring).
"""

from __future__ import annotations

import contextlib
import errno
import re
import shutil
from pathlib import Path

import pytest

from conftest import files_of, post, set_up_demo

NOW = "2026-03-16T09:00:00+00:00"
NAC = "orders/t001/nac.yaml"
#: Every character a printed line may not hold (logsafe): controls, bidi, invisibles.
UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]")


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return set_up_demo(tmp_path / "demo")


def edit(root: Path, rel: str, old: str, new: str) -> None:
    file = root / rel
    text = file.read_text(encoding="utf-8")
    assert old in text, (rel, old)
    file.write_text(text.replace(old, new, 1), encoding="utf-8")


def refused(run, *args: str | Path) -> list[str]:
    """Run a command that must refuse: exit 1, no traceback; its stderr lines."""
    code, out, err = run(*args)
    assert code == 1, out + err
    assert "Traceback" not in err and "this is a bug" not in err
    return err.splitlines()


def printable(out: str) -> None:
    """No line of ``out`` starts a workflow command or holds an unsafe character."""
    for line in out.split("\n"):
        assert not line.lstrip().startswith(("::", "##[")), line
        assert not UNSAFE.search(line), line


# --- 2: deep nesting ---------------------------------------------------------------------

DEEP = "[" * 999 + "]" * 999


@pytest.mark.parametrize(("rel", "old", "new", "where"), [
    (NAC, "    note: Show the flag on the eastern border.",
     f"    note: {DEEP}", f"{NAC}:8:72: lists and mappings nested more than 64 levels deep"),
    ("state/players.yaml", "    treasury: 3530", f"    treasury: {DEEP}",
     "state/players.yaml:6:76: lists and mappings nested more than 64 levels deep"),
    ("content/posts/2026/03/01-deep.md", None, f"tags: {DEEP}\n",
     "content/posts/2026/03/01-deep.md:5:70: lists and mappings nested more than 64 levels "
     "deep"),
])
def test_deep_nesting_is_a_located_problem_in_check_and_turn(demo, run, rel, old, new, where):
    """Item 2: 999 levels of '[' crashed check, turn and check-pr with RecursionError."""
    if old is None:
        (demo / rel).parent.mkdir(parents=True)
        (demo / rel).write_text(post(date="2026-03-01T10:00:00+00:00", extra=new))
    else:
        edit(demo, rel, old, new)
    lines = refused(run, "check", "--source", demo)
    assert any(line.startswith(where) for line in lines), lines
    if rel.startswith("content/"):
        return  # a turn reads no posts
    before = files_of(demo)
    lines = refused(run, "turn", "--source", demo, "--now", NOW)
    assert any(line.startswith(where) for line in lines), lines
    assert files_of(demo) == before


# --- 3: huge integers, long values, real sizes ---------------------------------------------

def test_a_huge_integer_is_refused_at_its_line_and_never_echoed(demo, run):
    """Item 3: 5,000 digits gave Python's own message, with no location."""
    edit(demo, "state/players.yaml", "    treasury: 3530", "    treasury: " + "9" * 5000)
    edit(demo, NAC, "    move: (-3, 4)", "    move: (" + "9" * 5000 + ", 0)")
    lines = refused(run, "check", "--source", demo)
    assert "state/players.yaml:6:15: an integer of 5,000 digits is out of range; expected at " \
        "most 18 digits" in lines
    hexed = next(line for line in lines if line.startswith(f"{NAC}:10:11:"))
    assert "is not a hex" in hexed and "(5,005 characters)" in hexed
    assert max(map(len, lines)) < 300


def test_a_long_note_is_cut_in_the_message(demo, run):
    """Item 3 (and 11): a 70 KB note was echoed whole in the log."""
    edit(demo, NAC, "    note: Show the flag on the eastern border.", "    note: " + "x" * 70_000)
    lines = refused(run, "check", "--source", demo)
    said = next(line for line in lines if line.startswith(f"{NAC}:8:11:"))
    assert "at most 2000 characters" in said and "(70,000 characters)" in said
    assert len(said) < 300


# --- 4: nothing raw reaches a log ----------------------------------------------------------

FORGED = "\n::error title=Forged::orders accepted\n::add-mask::x\x1b[2J"
#: The same, as a YAML double-quoted string writes it (YAML refuses a raw ESC).
FORGED_YAML = "\\n::error title=Forged::orders accepted\\n::add-mask::x\\e[2J"


def test_a_file_name_or_key_cannot_forge_a_log_line(demo, run):
    """Item 4: a line break then '::error …' in a file name or key was a line of its own."""
    (demo / f"orders/t001/x{FORGED}.yaml").write_text("turn: t001\n")
    edit(demo, NAC, "groups:\n", f'groups:\n  "nac-1{FORGED_YAML}":\n    hold: true\n')
    code, out, err = run("check", "--source", demo)
    assert code == 1
    printable(out + err)
    assert "orders/t001/x\\x0a::error title=Forged::orders accepted\\x0a::add-mask::x" \
        "\\x1b[2J.yaml:1:1: missing required key 'player'" in err.splitlines()
    code, out, err = run("check", "--source", demo, demo / NAC)
    printable(out + err)


def test_every_line_printed_is_escaped():
    """Item 4: the one function every command prints through."""
    from ftpress.text.logsafe import escape

    assert escape("::add-mask::secret") == "\\x3a:add-mask::secret"
    assert escape("  ##[error]x") == "  \\x23#[error]x"
    assert escape("a\nb\x1b[31m\u202ec\u2066") == "a\\x0ab\\x1b[31m\\u202ec\\u2066"
    assert escape("orders/t001/nac.yaml:3:4: fine") == "orders/t001/nac.yaml:3:4: fine"
    assert escape("Zürich — ☕ 👩‍🚀") == "Zürich — ☕ 👩\\u200d🚀"


# --- 5: free text is clean text --------------------------------------------------------------

@pytest.mark.parametrize(("rel", "old", "new", "expected"), [
    (NAC, "    note: Show the flag on the eastern border.", '    note: "Show the \\u202eflag"',
     f"{NAC}:8:11: groups.nac-1.note: character U+202E (RIGHT-TO-LEFT OVERRIDE) is not allowed "
     "in text (a control, bidi or invisible character); remove it (character 10 of the text), "
     "got 'Show the \\u202eflag'"),
    (NAC, "    note: Show the flag on the eastern border.", '    note: "bell \\a and \\e[2J"',
     f"{NAC}:8:11: groups.nac-1.note: character U+0007 (BELL) is not allowed in text"),
    ("state/players.yaml", "    name: New Anglian Confederation",
     '    name: "New Anglian\\u2066 Confederation"',
     "state/players.yaml:4:11: players[0].name: character U+2066 (LEFT-TO-RIGHT ISOLATE) is "
     "not allowed in text"),
    ("state/players.yaml", "    name: New Anglian Confederation",
     '    name: "New Anglian\\nConfederation"',
     "state/players.yaml:4:11: players[0].name: character U+000A (LINE FEED) is not allowed "
     "here; expected a single line of text"),
    ("state/players.yaml", "    name: New Anglian Confederation",
     "    name: New\u200bAnglian Confederation",
     "state/players.yaml:4:11: players[0].name: character U+200B (ZERO WIDTH SPACE) is not "
     "allowed in text"),
])
def test_control_and_bidi_characters_are_refused_in_free_text(demo, run, rel, old, new,
                                                              expected):
    """Item 5: ESC, NUL, BEL, U+202E, U+2066–2069 and U+200B in notes and names."""
    edit(demo, rel, old, new)
    lines = refused(run, "check", "--source", demo)
    assert any(line.startswith(expected) for line in lines), lines
    printable("\n".join(lines))


@pytest.mark.parametrize(("extra", "body", "expected"), [
    ('summary: "a \\0 b"\n', "Text.", "5:10: summary: character U+0000 (NULL)"),
    ("", "Fine.\nNot \u202efine.", "7:5: character U+202E (RIGHT-TO-LEFT OVERRIDE) is not "
     "allowed in text (a control, bidi or invisible character); remove it"),
    ("", "Escapes \x1b[31m red", "6:9: character U+001B (ESCAPE)"),
])
def test_control_and_bidi_characters_are_refused_in_posts(demo, run, extra, body, expected):
    """Item 5: in a post's front matter and its body, at the character's line and column."""
    rel = "content/posts/2026/03/01-hidden.md"
    (demo / rel).parent.mkdir(parents=True)
    (demo / rel).write_text(post(date="2026-03-01T10:00:00+00:00", extra=extra, body=body))
    lines = refused(run, "check", "--source", demo)
    assert any(line.startswith(f"{rel}:{expected}") for line in lines), lines


def test_tabs_line_breaks_and_joiners_stay_text(demo, run):
    """Item 5: what text needs is still allowed where the field allows it."""
    edit(demo, NAC, "    note: Show the flag on the eastern border.",
         '    note: "Show the flag\\n\\ton the border 👩\u200d🚀"')
    rel = "content/posts/2026/03/01-fine.md"
    (demo / rel).parent.mkdir(parents=True)
    (demo / rel).write_bytes(post(date="2026-03-01T10:00:00+00:00",
                                  body="Tab\there.\r\nWindows lines.\r\n").encode())
    code, _, err = run("check", "--source", demo)
    assert (code, err) == (0, ""), err


# --- 6: every XML output well-formed ------------------------------------------------------

def xml_outputs(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*") if p.suffix in (".xml", ".svg") and p.is_file())


def parse_all(site: Path) -> int:
    import xml.etree.ElementTree as ET

    files = xml_outputs(site)
    for file in files:
        ET.parse(file)  # raises on anything malformed
    return len(files)


def test_every_xml_output_of_the_demo_parses(demo_site):
    """Item 6: the feed, the sitemap and every SVG the ftc2007 demo writes."""
    assert parse_all(demo_site) > 10
    assert {"feed.xml", "sitemap.xml"} <= {p.name for p in xml_outputs(demo_site)}


@pytest.mark.parametrize("name", ["sct", "ftcamp02"])
def test_every_xml_output_of_the_examples_parses(tmp_path, name):
    """Item 6: likewise for each example campaign."""
    from demos import FTCAMP02, SCT

    example = {"sct": SCT, "ftcamp02": FTCAMP02}[name]
    assert parse_all(example.build(tmp_path / "site")) > 3


def test_the_xml_writers_cannot_write_a_character_xml_cannot_hold():
    """Item 6: even text that got past the checks (ESC, NUL, U+FFFE) gives XML that parses."""
    import xml.etree.ElementTree as ET

    import svgwrite.text

    from ftpress.files.config import SiteConfig
    from ftpress.maps.svgtext import svg_text
    from ftpress.render import feeds

    config = SiteConfig(title="Raw \x1b[31m and \x00", base_url="https://example.org/",
                        description="bell \x07 \ufffe", author="\x0b")
    assert ET.fromstring(feeds.atom_feeds(config, [])["feed.xml"]).find(
        f"{{{feeds.ATOM}}}title").text == "Raw \ufffd[31m and \ufffd"
    ET.fromstring(feeds.sitemap(config, ["posts/a\x1b/"], {}))
    text = svgwrite.text.Text("Nac \x1b fleet", x=[1], y=[2])
    text.set_desc("the \x00 title")
    ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{svg_text(text)}</svg>')


# --- 7: symbolic links are never followed ---------------------------------------------------

LINK = "is a symbolic link; not followed"


def link(root: Path, rel: str, target: Path | str) -> None:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    if (root / rel).exists():
        (root / rel).unlink()
    (root / rel).symlink_to(target)


def secret(tmp_path: Path) -> Path:
    """A file outside the campaign that no command may read."""
    outside = tmp_path / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "secret.md").write_text(post(title="SECRET-TEXT",
                                            date="2026-03-02T10:00:00+00:00"))
    (outside / "secret.yaml").write_text("turn: t001\nplayer: nac\ngroups: {}\n")
    return outside


@pytest.mark.parametrize(("rel", "target", "reported"), [
    (NAC, "secret.yaml", NAC),  # or /proc/self/environ
    ("state/groups.yaml", "secret.yaml", "state/groups.yaml"),
    ("orders/t001", ".", "orders/t001"),
])
def test_check_and_turn_follow_no_link(demo, run, tmp_path, rel, target, reported):
    """Item 7: `ftpress check` read an order file linked to /proc/self/environ."""
    outside = secret(tmp_path)
    if (demo / rel).is_dir():
        shutil.copytree(demo / rel, outside / "t001")
        shutil.rmtree(demo / rel)
        target = "t001"
    link(demo, rel, outside / target)
    for command in (("check",), ("turn", "--now", NOW)):
        lines = refused(run, *command, "--source", demo)
        assert any(line.startswith(f"{reported}: {LINK}") for line in lines), lines


@pytest.mark.parametrize(("rel", "target"), [
    ("themes/default/static/leak.css", "/etc/passwd"),
    ("themes/default/post.html", "secret.md"),
    ("content/posts/2026/03/02-leak.md", "secret.md"),
    ("content/posts/2026/04", "."),
    ("content/pages/leak.md", "secret.md"),
])
def test_build_publishes_nothing_behind_a_link(demo, run, tmp_path, rel, target):
    """Item 7: a theme's static file linked to /etc/passwd was published; a linked
    template put its target in every page; a linked post was published."""
    link(demo, rel, secret(tmp_path) / target if target != "/etc/passwd" else target)
    out = tmp_path / "site"
    lines = refused(run, "build", "--source", demo, "--out", out, "--now", NOW)
    assert f"{rel}: {LINK} (a campaign's files must be ordinary files)" in lines
    assert not out.exists()
    assert any(line.startswith(f"{rel}: {LINK}") for line in refused(run, "check", "--source",
                                                                     demo))


def test_a_recorded_order_file_behind_a_link_is_not_published(demo, run, tmp_path):
    """Item 7: a recorded order file linked outside the campaign was published."""
    assert run("turn", "--source", demo, "--now", NOW)[0] == 0
    rel = "state/turns/t001/orders/nac.yaml"
    link(demo, rel, secret(tmp_path) / "secret.yaml")
    lines = refused(run, "build", "--source", demo, "--out", tmp_path / "site", "--now", NOW)
    assert f"{rel}: {LINK} (a campaign's files must be ordinary files)" in lines


# --- 8: outputs never collide -----------------------------------------------------------------

ALIASED = "content/posts/2026/03/02-moved.md"


@pytest.mark.parametrize(("alias", "message"), [
    ("/robots.txt", f"{ALIASED}: output 'robots.txt' of robots is a file where a folder is "
     f"needed by 'robots.txt/index.html' of {ALIASED}; rename one of them"),
    ("/sitemap.xml", f"{ALIASED}: output 'sitemap.xml' of sitemap is a file where a folder is "
     f"needed by 'sitemap.xml/index.html' of {ALIASED}"),
    ("/static/style.css", f"{ALIASED}: output 'static/style.css/index.html' of {ALIASED} needs "
     "a folder where there is the file 'static/style.css' of"),
    ("/Index.html", f"{ALIASED}: output 'Index.html' of {ALIASED} differs only by case from "
     "'index.html' of"),
    ("/posts/2026/03/02/Moved/", f"{ALIASED}: output 'posts/2026/03/02/Moved/index.html' of "
     f"{ALIASED} differs only by case from 'posts/2026/03/02/moved/index.html' of {ALIASED}"),
])
def test_an_alias_may_not_take_the_place_of_another_output(demo, run, tmp_path, alias,
                                                           message):
    """Item 8: '/robots.txt' was a traceback on a fresh build and made robots.txt a folder
    on a rebuild; '/Index.html' was accepted beside index.html."""
    (demo / ALIASED).parent.mkdir(parents=True)
    (demo / ALIASED).write_text(post(date="2026-03-02T10:00:00+00:00",
                                     extra=f"aliases: ['{alias}']\n"))
    out = tmp_path / "site"
    for _ in range(2):  # a fresh build, then over a built site
        lines = refused(run, "build", "--source", demo, "--out", out, "--now", NOW)
        assert any(line.startswith(message) for line in lines), lines
        if not out.exists():
            (demo / ALIASED).rename(tmp_path / "moved.md")
            assert run("build", "--source", demo, "--out", out, "--now", NOW)[0] == 0
            (tmp_path / "moved.md").rename(demo / ALIASED)
    assert (out / "robots.txt").is_file() and (out / "sitemap.xml").is_file()


# --- 9: builds leave nothing behind ------------------------------------------------------------

SEARCHED = "content/posts/2026/03/02-searched.md"


def searched_demo(demo: Path, word: str) -> None:
    (demo / SEARCHED).parent.mkdir(parents=True, exist_ok=True)
    (demo / SEARCHED).write_text(post(date="2026-03-02T10:00:00+00:00",
                                      body=f"The word is {word}."))


def index_bytes(site: Path) -> dict[str, bytes]:
    return files_of(site / "pagefind")


def test_what_a_killed_build_left_is_swept_and_its_index_made_again(demo, run, tmp_path,
                                                                    monkeypatch):
    """Item 9: a killed build left .ftpress-staging-* and .ftpress-search-*, and an index
    of old text that later builds kept ('0 files written')."""
    from ftpress.site import search

    out = tmp_path / "site"
    searched_demo(demo, "aardvark")
    assert run("build", "--source", demo, "--out", out, "--now", NOW)[0] == 0
    old_index = index_bytes(out)
    searched_demo(demo, "zebra")

    def killed(self, out_dir):  # the build dies once its pages are in, before the index is
        if self is not None:
            self._stop()  # Pagefind dies with it (kill -9 leaves its work folder behind)
        raise KeyboardInterrupt

    with monkeypatch.context() as patched:
        patched.setattr(search.Indexing, "finish", killed)
        patched.setattr(search, "index_site", lambda *a, **k: killed(None, None))
        assert run("build", "--source", demo, "--out", out, "--now", NOW)[0] == 130
    (out / ".ftpress-staging-x1y2/posts").mkdir(parents=True)  # as a kill -9 leaves them
    (out / ".ftpress-search-x1y2").mkdir()
    assert index_bytes(out) == old_index  # the pages are new, their index is not
    code, said, _ = run("build", "--source", demo, "--out", out, "--now", NOW)
    assert code == 0 and "0 files written" in said
    assert not [p.name for p in out.iterdir() if p.name.startswith(".ftpress")]
    assert index_bytes(out) != old_index
    fresh = tmp_path / "fresh"
    assert run("build", "--source", demo, "--out", fresh, "--now", NOW)[0] == 0
    assert index_bytes(out) == index_bytes(fresh)


# --- 10: a full disk ------------------------------------------------------------------------------

def running(under: Path) -> list[str]:
    """The command lines of processes that name a path below ``under`` (Pagefind and its
    runner name their work folder), children of children included."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            with contextlib.suppress(OSError):
                line = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                if str(under) in line:
                    found.append(line)
    return found


def test_a_full_disk_in_a_build_is_one_line_and_nothing_changed(demo, run, tmp_path,
                                                                monkeypatch):
    """Item 10: a traceback, and a Pagefind child left running for 30 s."""
    from ftpress.files import write

    out = tmp_path / "site"
    searched_demo(demo, "aardvark")
    assert run("build", "--source", demo, "--out", out, "--now", NOW)[0] == 0
    before = files_of(out)
    searched_demo(demo, "zebra")
    put = write.Staging.put

    def full(self, path, data):
        if path == "sitemap.xml":  # late: the search index has started beside the build
            raise OSError(errno.ENOSPC, "No space left on device", str(self.dir / path))
        return put(self, path, data)

    monkeypatch.setattr(write.Staging, "put", full)
    code, _, err = run("build", "--source", demo, "--out", out, "--now", NOW)
    assert code == 1
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "ftpress: the disk is full (No space left on device writing "), lines
    assert lines[0].endswith("sitemap.xml); nothing was changed: free some space and run the "
                             "command again")
    assert files_of(out) == before
    assert running(tmp_path) == []


def test_a_full_disk_in_a_turn_is_one_line(demo, run, monkeypatch):
    """Item 10: a turn's write that finds the disk full."""
    replace = Path.replace

    def full(self, target):
        if "state" in Path(target).parts:
            raise OSError(errno.ENOSPC, "No space left on device", str(target))
        return replace(self, target)

    monkeypatch.setattr(Path, "replace", full)
    code, _, err = run("turn", "--source", demo, "--now", NOW)
    assert code == 1
    assert len(err.splitlines()) == 1 and err.startswith("ftpress: the disk is full ("), err


# --- 11: after the fact ---------------------------------------------------------------------------

@pytest.mark.parametrize(("rel", "change", "message"), [
    (NAC, "edit", "differs from the copy folded into the resolved turn, "
     "state/turns/t001/orders/nac.yaml; orders of a resolved turn cannot change: restore the "
     "file as t001 was resolved with it, or remove it"),
    ("orders/t001/sav.yaml", "add", "was added after t001 was resolved "
     "(state/turns/t001/orders/sav.yaml has no copy of it); orders of a resolved turn cannot "
     "change"),
])
def test_check_refuses_orders_changed_after_their_turn(demo, run, rel, change, message):
    """Item 11: an order file added or edited after its turn was resolved passed
    `ftpress check`; only --verify noticed."""
    assert run("turn", "--source", demo, "--now", NOW)[0] == 0
    assert run("check", "--source", demo)[0] == 0
    if change == "edit":
        edit(demo, rel, "Show the flag on the eastern border.", "Attack at once.")
    else:
        (demo / rel).write_text("turn: t001\nplayer: sav\ngroups: {}\n")
    lines = refused(run, "check", "--source", demo)
    assert f"{rel}: {message}" in "\n".join(lines), lines


def test_a_homoglyph_in_an_id_is_named_with_the_id_it_looks_like(tmp_path, run):
    """'nаc-1' with a Cyrillic а reads as the valid id: the message names the character
    by its Unicode name and says which id was meant."""
    from test_crash_safety import make_campaign

    root = make_campaign(tmp_path / "campaign")
    groups = root / "state/groups.yaml"
    groups.write_text(groups.read_text().replace("id: n1", "id: n\u04301", 1))
    code, _out, err = run("check", "--source", root)
    assert code == 1
    assert ("groups[0].id: 'n\u04301' has U+0430 CYRILLIC SMALL LETTER A where an id takes "
            "a-z; expected lowercase letters, digits and hyphens, such as 'kessel-drift'; did "
            "you mean 'na1'?") in err, err
    groups.write_text(groups.read_text().replace("id: n\u04301", "id: \uff4e1", 1))
    code, _out, err = run("check", "--source", root)
    assert "'\uff4e1' has U+FF4E FULLWIDTH LATIN SMALL LETTER N where an id takes a-z" in err
    assert "did you mean 'n1'?" in err


def test_a_bad_id_written_as_a_key_is_located_on_its_own_line(tmp_path, run):
    from test_crash_safety import make_campaign

    root = make_campaign(tmp_path / "campaign")
    (root / "orders/t001/nac.yaml").write_text(
        "turn: t001\nplayer: nac\ngroups:\n  n\u04301:\n    move: b\n    posture: attack\n")
    code, _out, err = run("check", "--source", root)
    assert code == 1
    assert err.startswith("orders/t001/nac.yaml:4:3: groups.n\u04301: 'n\u04301' has U+0430 "
                          "CYRILLIC SMALL LETTER A where an id takes a-z"), err
