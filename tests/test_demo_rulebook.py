"""The demo's rulebook on every version date equals the original text plus the rulings
up to that date, worked out here independently of ftpress's own fold."""

from __future__ import annotations

import re
from datetime import date, datetime

import pytest
import yaml

from ftpress.site import BuildOptions, load
from ftpress.store import open_with

from conftest import DEMO_NOW, REPO

HEADING = re.compile(r"^(#{2,6}) (\d+(?:\.\d+)*) (.+)$")


def front(text: str) -> tuple[dict, str]:
    head, body = text[4:].split("\n---\n", 1)
    return yaml.safe_load(head), body


def original_sections() -> list[tuple[date, str, str, str]]:
    """(date, number, title, text) of every section as the rule files first state it."""
    found = []
    for file in sorted((REPO / "content/rules").glob("*.md")):
        meta, body = front(file.read_text(encoding="utf-8"))
        number, title, lines = str(meta["rule"]), meta["title"], []
        for line in body.split("\n"):
            match = HEADING.match(line)
            if match:
                found.append((meta["date"], number, title, "\n".join(lines).strip("\n")))
                number, title, lines = match.group(2), match.group(3), []
            else:
                lines.append(line)
        found.append((meta["date"], number, title, "\n".join(lines).strip("\n")))
    return found


def amendments() -> list[tuple[date, datetime, int, dict]]:
    found = []
    for file in sorted((REPO / "content/posts").rglob("*.md")):
        meta, _ = front(file.read_text(encoding="utf-8"))
        if meta.get("draft") or not meta.get("amends"):
            continue
        posted = meta["date"] if isinstance(meta["date"], datetime) else \
            datetime.combine(meta["date"], datetime.min.time())
        effective = meta.get("effective") or posted.date()
        for index, change in enumerate(meta["amends"]):
            found.append((effective, posted, index, change))
    return found


def expected_at(day: date) -> dict[str, tuple[str, str]]:
    sections = {n: (t, x) for d, n, t, x in original_sections() if d <= day}
    for effective, _, _, change in sorted(amendments(), key=lambda a: a[:3]):
        if effective > day:
            continue
        if "repeal" in change:
            gone = change["repeal"]
            sections = {n: v for n, v in sections.items()
                        if n != gone and not n.startswith(gone + ".")}
        elif "add" in change:
            sections[change["add"]] = (change["title"], change["text"].strip("\n"))
        else:
            old_title, old_text = sections[change["amend"]]
            text = change["text"].strip("\n") if "text" in change else old_text
            sections[change["amend"]] = (change.get("title", old_title), text)
    return sections


@pytest.fixture(scope="module")
def rulebook():
    return load(open_with(REPO), BuildOptions(datetime.fromisoformat(DEMO_NOW))).rulebook


def test_the_demo_carries_all_eighteen_rules_and_the_notes(rulebook):
    tops = {s.number for s in rulebook.current.sections if s.depth == 1}
    assert {str(n) for n in range(1, 19)} <= tops
    assert len(amendments()) >= 8


def test_every_version_is_the_original_plus_the_rulings_so_far(rulebook):
    days = sorted({d for d, *_ in original_sections()} | {a[0] for a in amendments()})
    assert [v.date for v in rulebook.versions] == days
    for version in rulebook.versions:
        got = {s.number: (s.title, s.text) for s in version.sections}
        assert got == expected_at(version.date), version.date


def test_the_rulings_of_the_seed_are_folded_in(rulebook):
    before = {s.number: s.text for s in rulebook.at(date(2026, 3, 10)).sections}
    now = {s.number: s.text for s in rulebook.current.sections}
    assert "three hexes" in before["8.1"] and "three" not in now["8.1"]  # 20 May, item 1
    assert "**two** hexes" in now["8.1"]
    assert "evenly" in before["10.8"] and "mass" in now["10.8"]  # 21 May
    assert "freighter" not in before["7.1"].lower() and "freighter" in now["7.1"].lower()
