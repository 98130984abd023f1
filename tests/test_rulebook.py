"""The rulebook: sections, amendments folded by date, versions, diffs, citations."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import post
from sitecheck import Site

RULE_8 = """\
---
rule: 8
title: Movement
date: 2026-03-02
source: rules
---
How ships move.

## 8.1 Jumps
A jump may cross three hexes between worlds.

## 8.2 Routes
Routes take a week.

### 8.2.1 Interdiction
Interdicted routes stop you.
"""
RULE_10 = """\
---
rule: 10
title: Defences
date: 2026-03-05
---
## 10.1 Attack
Roll a die. See [[rule:8.1]].
"""

RULES_POST = post(title="Rules", date="2026-03-02", kind="rules", body="The rules.")
RULING = post(title="Clarifications", date="2026-03-24", extra="""\
amends:
  - amend: "8.1"
    text: |
      A jump may cross two hexes between worlds.
  - add: "8.3"
    title: News
    text: News travels no faster than ships.
  - repeal: "8.2.1"
""", body="Two, not three. Now [[rule:8.3]] exists; see [[rule:8.1|the jump rule]].")


def files() -> dict[str, str]:
    return {"content/rules/08-movement.md": RULE_8, "content/rules/10-defences.md": RULE_10,
            "content/posts/2026/03/02-rules.md": RULES_POST,
            "content/posts/2026/03/24-clarifications.md": RULING}


def build(run, root: Path, *flags: str) -> tuple[int, str, Path]:
    out = root.parent / "out"
    code, _, err = run("build", "--source", root, "--out", out, "--now", "2026-11-01", *flags)
    return code, err, out


def test_versions_fold_rule_files_and_rulings_by_date(campaign, run):
    code, err, out = build(run, campaign(files()))
    assert (code, err) == (0, "")
    for day in ("2026-03-02", "2026-03-05", "2026-03-24"):
        assert (out / "rules" / day / "index.html").is_file()
    first = (out / "rules/2026-03-02/index.html").read_text()
    assert "three hexes" in first and 'id="r-8-2-1"' in first and 'id="r-10-1"' not in first
    middle = (out / "rules/2026-03-05/index.html").read_text()
    assert "three hexes" in middle and 'id="r-10-1"' in middle
    current = (out / "rules/index.html").read_text()
    assert "two hexes" in current and "three hexes" not in current
    assert 'id="r-8-3"' in current and 'id="r-8-2-1"' not in current
    assert "Amended by" in current and 'href="/camp/posts/2026/03/24/clarifications/"' in current
    assert Site(out, "https://example.org/camp/").broken_links() == []


def test_change_log_and_ruling_show_word_diffs(campaign, run):
    code, err, out = build(run, campaign(files()))
    assert (code, err) == (0, "")
    log = (out / "rules/changes/index.html").read_text()
    assert "<del>three</del><ins>two</ins>" in log
    assert "repealed" in log and "added" in log
    ruling = (out / "posts/2026/03/24/clarifications/index.html").read_text()
    assert "What this ruling changes in the rulebook" in ruling
    assert "<del>three</del><ins>two</ins>" in ruling


def test_citations_link_to_the_rulebook_as_of_the_post(campaign, run):
    code, err, out = build(run, campaign(files()))
    assert (code, err) == (0, "")
    ruling = (out / "posts/2026/03/24/clarifications/index.html").read_text()
    assert '<a class="rule-ref" href="/camp/rules/2026-03-24/#r-8-3">§8.3</a>' in ruling
    assert 'href="/camp/rules/2026-03-24/#r-8-1">the jump rule</a>' in ruling
    rule10 = (out / "rules/2026-03-05/index.html").read_text()
    assert 'href="/camp/rules/2026-03-05/#r-8-1"' in rule10


def test_the_terminal_shows_any_date(campaign, run):
    root = campaign(files())
    code, text, err = run("rules", "--source", root, "--at", "2026-03-10")
    assert code == 0
    assert "## 8.1 Jumps\n\nA jump may cross three hexes" in text
    assert "## 10.1 Attack" in text and "8.3" not in text
    code, text, _ = run("rules", "--source", root)
    assert "two hexes" in text and "*Amended by Clarifications, 24 March 2026.*" in text
    code, _, err = run("rules", "--source", root, "--at", "2026-01-01")
    assert code == 1 and "no rulebook before 2026-03-02" in err


BAD = {
    "amend of a missing section": (
        {"content/posts/2026/03/25-x.md": post(title="X", date="2026-03-25",
                                               extra='amends:\n  - amend: "9.4"\n    text: t\n')},
        "content/posts/2026/03/25-x.md:6: cannot amend section 9.4: no such section in the "
        "rulebook on 2026-03-25",
    ),
    "repeal before the rule exists": (
        {"content/posts/2026/03/03-x.md": post(title="X", date="2026-03-03",
                                               extra='amends:\n  - repeal: "10.1"\n')},
        "content/posts/2026/03/03-x.md:6: cannot repeal section 10.1: no such section",
    ),
    "add of an existing section": (
        {"content/posts/2026/03/25-x.md": post(title="X", date="2026-03-25",
                                               extra='amends:\n  - add: "8.2"\n    title: T\n    text: t\n')},
        "content/posts/2026/03/25-x.md:6: cannot add section 8.2: it already exists",
    ),
    "two rulings on one date": (
        {"content/posts/2026/03/24-y.md": post(title="Y", date="2026-03-24T23:00:00+00:00",
                                               extra='amends:\n  - amend: "8.1"\n    text: t\n')},
        "content/posts/2026/03/24-y.md:6: conflicting amendments of 8.1 on 2026-03-24: "
        "content/posts/2026/03/24-clarifications.md:6 changes it too",
    ),
    "effective date moves a conflict": (
        {"content/posts/2026/03/26-y.md": post(title="Y", date="2026-03-26",
                                               extra='effective: 2026-03-24\namends:\n  - amend: "8.1"\n    text: t\n')},
        "conflicting amendments of 8.1 on 2026-03-24",
    ),
    "amend without an action": (
        {"content/posts/2026/03/25-x.md": post(title="X", date="2026-03-25",
                                               extra='amends:\n  - title: T\n')},
        "content/posts/2026/03/25-x.md:6:5: amends[0]: give exactly one of 'amend', 'add' or "
        "'repeal'",
    ),
    "dangling citation": (
        {"content/posts/2026/03/25-x.md": post(title="X", date="2026-03-25",
                                               body="Line one.\n\nAs [[rule:8.2.1]] said.")},
        "content/posts/2026/03/25-x.md:8: [[rule:8.2.1]] cites a section that does not exist "
        "in the rulebook as of 2026-03-25 (version 2026-03-24)",
    ),
    "citation in a rule file": (
        {"content/rules/10-defences.md": RULE_10.replace("[[rule:8.1]]", "[[rule:8.9]]")},
        "content/rules/10-defences.md:7: [[rule:8.9]] cites a section that is not in the rulebook",
    ),
    "quotes nested too deep in a rule file": (
        {"content/rules/10-defences.md": RULE_10 + "\n" + "> " * 10 + "x\n"},
        "content/rules/10-defences.md:9:19: lists, block quotes and footnotes nested 10 deep; "
        "expected at most 9 inside one another",
    ),
    "heading without a number": (
        {"content/rules/10-defences.md": RULE_10 + "\n## Odd heading\n"},
        "content/rules/10-defences.md:9:1: heading 'Odd heading' needs a section number",
    ),
    "section in the wrong rule": (
        {"content/rules/10-defences.md": RULE_10 + "\n## 11.1 Stray\n"},
        "content/rules/10-defences.md:9:4: section 11.1 does not belong in rule 10",
    ),
    "wrong heading depth": (
        {"content/rules/10-defences.md": RULE_10 + "\n## 10.1.1 Deep\n"},
        "content/rules/10-defences.md:9:1: section 10.1.1 needs ### (one '#' per part",
    ),
    "section out of order": (
        {"content/rules/10-defences.md": RULE_10 + "\n## 10.1 Again\n"},
        "content/rules/10-defences.md:9:4: section 10.1 is out of order or repeated",
    ),
    "two files for one rule": (
        {"content/rules/10-again.md": RULE_10},
        "rule 10 is already defined in content/rules/10-again.md",
    ),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_rulebook_input(campaign, run, name):
    extra, expected = BAD[name]
    code, err, out = build(run, campaign(files() | extra))
    assert code == 1
    assert expected in err
    assert not out.exists()


def test_a_draft_ruling_changes_nothing(campaign, run):
    draft = RULING.replace("kind: rulings\n", "kind: rulings\ndraft: true\n").replace(
        " Now [[rule:8.3]] exists;", "")
    code, err, out = build(run, campaign(files() | {
        "content/posts/2026/03/24-clarifications.md": draft}))
    assert (code, err) == (0, "")
    assert "three hexes" in (out / "rules/index.html").read_text()
    assert not (out / "rules/2026-03-24").exists()
