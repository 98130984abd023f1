"""Every kind of bad input: a `path:line` message per problem, exit 1, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest
from damage import Damage, damage
from hypothesis import HealthCheck, given, settings

from conftest import REPO, files_of, post

GOOD = "content/posts/2026/04/07-good.md"


def build(run, root: Path) -> tuple[int, str, str, Path]:
    out = root.parent / "out"
    code, stdout, stderr = run("build", "--source", root, "--out", out, "--now", "2026-11-01")
    return code, stdout, stderr, out


CASES = {
    "broken yaml": (
        {"content/posts/2026/04/08-broken.md": "---\ntitle: [unclosed\ndate: 2026-04-08\nkind: guff\n---\nx\n"},
        "content/posts/2026/04/08-broken.md:3:5: YAML syntax error",
    ),
    "unknown kind": (
        {"content/posts/2026/04/08-kind.md": post(kind="gossip", date="2026-04-08")},
        "content/posts/2026/04/08-kind.md:4:7: kind: input should be 'rules', 'rulings', "
        "'cogitation', 'status' or 'guff', got 'gossip'",
    ),
    "bad date": (
        {"content/posts/2026/04/08-date.md": "---\ntitle: T\ndate: 2026-13-45\nkind: guff\n---\nx\n"},
        "content/posts/2026/04/08-date.md:3:7: cannot read '2026-13-45': month must be in 1..12",
    ),
    "date disagrees with file name": (
        {"content/posts/2026/04/08-other.md": post(date="2026-04-09T10:00:00+01:00")},
        "content/posts/2026/04/08-other.md:3:7: date 2026-04-09 (in Europe/London) does not "
        "match the file name's date 2026-04-08",
    ),
    "missing title": (
        {"content/posts/2026/04/08-untitled.md": "---\ndate: 2026-04-08\nkind: guff\n---\nx\n"},
        "content/posts/2026/04/08-untitled.md:2:1: missing required key 'title'",
    ),
    "duplicate slug": (
        {"content/posts/2026/05/01-good.md": post(date="2026-05-01")},
        "content/posts/2026/05/01-good.md:1:1: duplicate slug 'good': "
        "content/posts/2026/04/07-good.md already uses it",
    ),
    "unknown key": (
        {"content/posts/2026/04/08-typo.md": post(date="2026-04-08", extra="tgas: [a]\n")},
        "content/posts/2026/04/08-typo.md:5:1: unknown key 'tgas'; did you mean 'tags'?",
    ),
    "duplicate key": (
        {"content/posts/2026/04/08-dup.md": post(date="2026-04-08", extra="title: Again\n")},
        "content/posts/2026/04/08-dup.md:5:1: duplicate key 'title' (first given on line 2)",
    ),
    "no front matter": (
        {"content/posts/2026/04/08-bare.md": "Just text\n"},
        "content/posts/2026/04/08-bare.md:1:1: expected front matter",
    ),
    "unclosed front matter": (
        {"content/posts/2026/04/08-open.md": "---\ntitle: T\n"},
        "content/posts/2026/04/08-open.md:1:1: front matter is never closed",
    ),
    "misplaced post": (
        {"content/posts/2026/stray.md": post()},
        "content/posts/2026/stray.md: post file is misplaced or misnamed",
    ),
    "tab indentation": (
        {"content/posts/2026/04/08-tabs.md": "---\ntitle: T\ndate: 2026-04-08\nkind: guff\nedits:\n\t- note: x\n---\n"},
        "content/posts/2026/04/08-tabs.md:6:1: YAML syntax error",
    ),
    "not utf-8": (
        {"content/posts/2026/04/08-latin.md": post(date="2026-04-08").encode() + b"caf\xe9\n"},
        "content/posts/2026/04/08-latin.md:7:4: byte 0xe9 is not valid UTF-8",
    ),
    "alias leaving the site": (
        {"content/posts/2026/04/08-escape.md": post(date="2026-04-08", extra="aliases: [../../etc/x]\n")},
        "content/posts/2026/04/08-escape.md:5:11: aliases[0]: an alias must be a path inside the site",
    ),
    "alias bomb": (
        {"content/posts/2026/04/08-bomb.md": "---\ntitle: T\ndate: 2026-04-08\nkind: guff\n"
         "tags: &a [x, x]\nsummary: *a\n---\n"},
        "content/posts/2026/04/08-bomb.md:5:7: YAML anchors and aliases are not allowed",
    ),
    "edit before the post": (
        {"content/posts/2026/04/08-early.md": post(date="2026-04-08", extra="edits:\n  - date: 2026-04-01\n    note: n\n")},
        "content/posts/2026/04/08-early.md:6:11: an edit cannot be dated before the post itself",
    ),
    "alias clashing with a post": (
        {"content/posts/2026/04/08-clash.md": post(date="2026-04-08",
                                                   extra="aliases: [/posts/2026/04/07/good/]\n")},
        "content/posts/2026/04/08-clash.md: output 'posts/2026/04/07/good/index.html' is produced twice",
    ),
    "page taking a reserved name": (
        {"content/pages/tags.md": "---\ntitle: Tags\n---\nx\n"},
        "content/pages/tags.md: page slug 'tags' is taken by the site's own pages",
    ),
    "lists nested deeper than Markdown renders": (
        {"content/posts/2026/04/08-deep.md": post(date="2026-04-08", body="".join(
            "  " * depth + "- deeper\n" for depth in range(500)))},
        "content/posts/2026/04/08-deep.md:15:19: lists, block quotes and footnotes nested 10 "
        "deep; expected at most 9 inside one another",
    ),
    "quotes nested deeper than Markdown renders, in a page": (
        {"content/pages/deep.md": "---\ntitle: Deep\n---\nIntro.\n\n" + "> " * 12 + "x\n"},
        "content/pages/deep.md:6:19: lists, block quotes and footnotes nested 10 deep; "
        "expected at most 9 inside one another",
    ),
    "bad site setting": (
        {"site.yaml": "title: T\nbase_url: example.org\ntimezone: Mars/Olympus\n"},
        "site.yaml:2:11: base_url: must be an absolute http(s) URL",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input_is_reported_and_nothing_written(campaign, run, name):
    files, expected = CASES[name]
    root = campaign({GOOD: post(title="Good", date="2026-04-07"), **files})
    code, stdout, stderr, out = build(run, root)
    assert code == 1
    assert expected in stderr
    assert "Traceback" not in stderr
    assert stdout == ""
    assert not out.exists()


def test_every_problem_is_reported_at_once(campaign, run):
    root = campaign({
        "content/posts/2026/04/08-a.md": post(kind="gossip", date="2026-04-08"),
        "content/posts/2026/04/09-b.md": "---\ndate: 2026-04-09\nkind: guff\n---\n",
        "content/posts/2026/04/10-c.md": "---\ntitle: [x\n---\n",
        "content/pages/about.md": "---\ntitel: About\n---\n",
    })
    code, _, stderr, _ = build(run, root)
    assert code == 1
    for path in ("08-a.md:4", "09-b.md:2", "10-c.md:", "about.md:2"):
        assert path in stderr
    assert "4 problems found; nothing was written" in stderr


def test_a_failed_build_leaves_the_previous_output_untouched(campaign, run):
    root = campaign({GOOD: post(title="Good", date="2026-04-07")})
    code, _, _, out = build(run, root)
    assert code == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    (root / "content/posts/2026/04/08-bad.md").write_text(post(kind="nope", date="2026-04-08"))
    code, _, _, _ = build(run, root)
    assert code == 1
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_a_huge_file_is_refused_without_reading_it(campaign, run):
    root = campaign({GOOD: post(title="Good", date="2026-04-07")})
    big = root / "content/posts/2026/04/08-big.md"
    with big.open("wb") as handle:
        handle.write(post(date="2026-04-08").encode())
        handle.truncate(50 * 1024 * 1024)
    code, _, stderr, _ = build(run, root)
    assert code == 1
    assert "08-big.md: file is 50 MB; expected at most 4 MB for a hand-written file" in stderr


def test_the_output_folder_may_not_hold_the_campaign(campaign, run):
    root = campaign({GOOD: post(title="Good", date="2026-04-07")})
    for out in (root, root.parent, root / "content"):
        code, _, stderr = run("build", "--source", root, "--out", out)
        assert code == 1
        assert "output folder overlaps the campaign's own files" in stderr
    assert (root / "content/posts/2026/04/07-good.md").is_file()


def test_a_template_typo_names_the_template_and_line(campaign, run):
    root = campaign({GOOD: post(title="Good", date="2026-04-07"),
                     "themes/default/post.html": "{% extends 'base.html' %}\n"
                                                 "{% block main %}\n{{ post.titel }}\n{% endblock %}\n"})
    code, _, stderr, _ = build(run, root)
    assert code == 1
    assert "themes/default/post.html:3: template error:" in stderr
    assert "titel" in stderr


def test_bad_now_is_a_clear_error(campaign, run):
    root = campaign({GOOD: post(title="Good", date="2026-04-07")})
    code, _, stderr = run("build", "--source", root, "--now", "yesterday")
    assert code == 1
    assert "--now 'yesterday': expected an ISO date" in stderr



def _demo_files() -> list[str]:
    found = [p for d in ("state", "content", "orders") for p in (REPO / d).rglob("*")
             if p.suffix in (".yaml", ".md") and p.is_file()]
    return [*sorted(p.relative_to(REPO).as_posix() for p in found), "site.yaml"]


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(harm=damage(_demo_files()))
def test_a_damaged_demo_file_fails_cleanly_or_builds(tmp_path_factory, run, harm: Damage):
    """Whatever a bad edit does to any file of the demo, the build succeeds or fails
    cleanly: exit 1, each problem at the file it is in, nothing written; no traceback."""
    from demos import FTC2007
    root = FTC2007.copy(tmp_path_factory.mktemp("damaged") / "campaign")
    harm.apply(root)
    out = root.parent / "out"
    code, _, stderr = run("build", "--source", root, "--out", out, "--now", FTC2007.now)
    assert code in (0, 1)
    if code == 1:
        assert not out.exists()
        problems = [line for line in stderr.splitlines()
                    if line and not line.startswith(("ftpress:", " "))]
        assert problems, stderr
        for line in problems:
            assert (root / line.split(":", 1)[0]).is_file(), line


def test_schemas_refuse_an_output_folder_inside_the_campaigns_state(tmp_path, run):
    from test_crash_safety import make_campaign

    root = make_campaign(tmp_path / "campaign")
    before = files_of(root)
    code, out, err = run("schemas", "--source", root, "--out", root / "state/turns")
    assert (code, out) == (1, "")
    assert err == (f"{(root / 'state/turns').resolve()}: output folder overlaps the campaign's "
                   "own files; choose a separate folder such as _site\n"
                   "ftpress: 1 problem found; nothing was written\n")
    assert files_of(root) == before
    assert run("schemas", "--source", root, "--out", tmp_path / "schemas")[0] == 0


@pytest.mark.parametrize("command", ["check", "status", "build"])
def test_an_unreadable_folder_is_one_located_line_not_a_traceback(tmp_path, run, monkeypatch,
                                                                   command):
    """A record folder without read permission (simulated: the tests may run as root,
    whom permissions do not stop)."""
    from test_crash_safety import make_campaign

    root = make_campaign(tmp_path / "campaign")
    assert run("turn", "--source", root, "--now", "2026-03-16T09:00:00+00:00")[0] == 0
    record = root / "state/turns/t001"
    import os

    reals = {name: getattr(os, name) for name in ("scandir", "listdir")}
    for name, real in reals.items():
        def refused(path=".", *, real=real):  # type: ignore[no-untyped-def]
            if not isinstance(path, int) and Path(os.fsdecode(path)) == record:
                raise PermissionError(13, "Permission denied", str(record))
            return real(path)

        monkeypatch.setattr(os, name, refused)
    import io

    real_open = io.open

    def opened(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        if not isinstance(file, int) and Path(os.fsdecode(file)).parent == record:
            raise PermissionError(13, "Permission denied", str(record))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(io, "open", opened)
    extra = ("--out", tmp_path / "site") if command == "build" else ()
    code, _out, err = run(command, "--source", root, *extra)
    assert "Traceback" not in err
    assert code == 1, err
    lines = [line for line in err.splitlines() if not line.startswith("ftpress: ") or
             "Permission denied" in line]
    assert lines and all("Permission denied" in line and "state/turns/t001" in line
                         for line in lines), err


def test_an_unreadable_sealed_order_file_is_one_located_line(tmp_path, run, monkeypatch):
    """Read where no loader guards it (a sealed file's recipients are checked from its
    bytes): the one line of the command line, not a traceback."""
    import io
    import os

    from test_crash_safety import make_campaign

    root = make_campaign(tmp_path / "campaign")
    campaign = root / "state/campaign.yaml"
    campaign.write_text(campaign.read_text().replace("  battles: abstract\n",
                                                     "  battles: abstract\n  secrecy: sealed\n"))
    for args in (("keys", "init"), ("keys", "seal-campaign")):
        assert run(*args, "--source", root)[0] == 0, args
    sealed = root / "orders/t001/nac.yaml.age"
    sealed.write_bytes(b"age-encryption.org/v1\n")
    real_open = io.open

    def opened(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        if not isinstance(file, int) and Path(os.fsdecode(file)) == sealed:
            raise PermissionError(13, "Permission denied", str(sealed))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(io, "open", opened)
    code, _out, err = run("check", "--source", root)
    assert (code, err) == (1, f"ftpress: {sealed}: cannot be read or written (Permission "
                           "denied); expected a file or folder this user may read and write: "
                           "check its permissions and run the command again\n")
