"""The rulebook: numbered sections in ``content/rules/``, amended by ruling posts.

Each file holds one top-level rule; ``## 10.2 Title`` headings open its
sections (the number of ``#`` is the depth of the number). A rule file is
dated: the rulebook as it stood before that date does not contain it. Ruling
posts declare ``amends:`` in their front matter; folding every file and every
amendment in date order gives one :class:`Version` of the rulebook per date on
which it changed.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Annotated, Literal

from pydantic import ConfigDict, Field, TypeAdapter, model_validator
from pydantic.json_schema import JsonDict  # type: ignore[attr-defined]  # pydantic re-exports it without __all__

from ftpress.content.frontmatter import split
from ftpress.errors import InputError, Problems
from ftpress.files import validation, yamlsource
from ftpress.text.cleantext import LINE, CleanText
from ftpress.text.written_dates import Day

RULES_DIR = "content/rules"
NUMBER_PATTERN = r"^\d+(?:\.\d+)*$"
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_NUMBERED = re.compile(r"(\d+(?:\.\d+)*)\.?(?:\s+(.*))?$")
_FENCE = re.compile(r"^\s*(```|~~~)")

Number = Annotated[str, Field(pattern=NUMBER_PATTERN)]


def number_key(number: str) -> tuple[int, ...]:
    """'10.2' → (10, 2): numeric order, so 10.10 follows 10.9."""
    return tuple(int(part) for part in number.split("."))


def anchor(number: str) -> str:
    """The stable HTML id of a section: 10.2 → 'r-10-2'."""
    return "r-" + number.replace(".", "-")


@dataclass(frozen=True, slots=True)
class RuleMeta:
    __pydantic_config__ = ConfigDict(extra="forbid", str_strip_whitespace=True)

    rule: Annotated[int, Field(ge=1)]
    title: Annotated[str, Field(min_length=1), LINE]
    #: When the rule was first published; earlier versions of the rulebook lack it.
    date: Day
    #: Slug of the post that published it, if any.
    source: Annotated[str, Field(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$")] | None = None


RULE_META = TypeAdapter(RuleMeta)


def _without(*keys: str) -> JsonDict:
    return {"not": {"anyOf": [{"required": [k]} for k in keys]}}


#: What ``_one_action`` below checks, said in the JSON Schema for editors: exactly one
#: of amend (with a title or a text), add (with both) and repeal (with neither).
_ONE_ACTION: JsonDict = {"anyOf": [
    {"required": ["amend"], **_without("add", "repeal"),
     "anyOf": [{"required": ["title"]}, {"required": ["text"]}]},
    {"required": ["add", "title", "text"], **_without("amend", "repeal")},
    {"required": ["repeal"], **_without("amend", "add", "title", "text")},
]}


@dataclass(frozen=True, slots=True)
class AmendMeta:
    """One item of a post's ``amends:`` list, as written."""

    __pydantic_config__ = ConfigDict(extra="forbid", json_schema_extra=_ONE_ACTION)

    amend: Number | None = None
    add: Number | None = None
    repeal: Number | None = None
    title: Annotated[str, Field(min_length=1), LINE] | None = None
    text: CleanText | None = None

    @model_validator(mode="after")
    def _one_action(self) -> AmendMeta:
        actions = [a for a in ("amend", "add", "repeal") if getattr(self, a) is not None]
        if len(actions) != 1:
            raise ValueError("give exactly one of 'amend', 'add' or 'repeal' with a section "
                             "number, such as amend: \"10.2\"")
        if self.add is not None and (self.title is None or self.text is None):
            raise ValueError("a section that is added needs a 'title' and a 'text'")
        if self.amend is not None and self.title is None and self.text is None:
            raise ValueError("an amendment needs a new 'text', a new 'title', or both")
        if self.repeal is not None and (self.title is not None or self.text is not None):
            raise ValueError("a repeal takes no 'title' or 'text'")
        return self

    @property
    def action(self) -> Literal["amend", "add", "repeal"]:
        return "amend" if self.amend else "add" if self.add else "repeal"

    @property
    def number(self) -> str:
        return self.amend or self.add or self.repeal or ""


@dataclass(frozen=True, slots=True)
class Ruling:
    """Who changed the rulebook: the post that declared the amendments."""

    slug: str
    title: str
    url_path: str
    posted: date


@dataclass(frozen=True, slots=True)
class Amendment:
    """One checked change to one section, from one ruling post."""

    action: Literal["amend", "add", "repeal"]
    number: str
    title: str | None
    text: str | None
    effective: date
    ruling: Ruling
    source: str
    line: int


@dataclass(frozen=True, slots=True)
class Section:
    """One numbered section as it stands in one version of the rulebook."""

    number: str
    title: str
    text: str
    #: Where its current wording came from: the rule file or the ruling post, and line.
    source: str
    line: int
    #: Every ruling that has changed this section so far, oldest first.
    amended_by: tuple[tuple[Ruling, date], ...] = ()

    @property
    def depth(self) -> int:
        return self.number.count(".") + 1

    @property
    def anchor(self) -> str:
        return anchor(self.number)


@dataclass(frozen=True, slots=True)
class Change:
    """What one amendment did: the section before and after (``None`` if absent)."""

    amendment: Amendment
    before: Section | None
    after: Section | None


@dataclass(frozen=True, slots=True)
class Version:
    """The whole rulebook as it stood from ``date`` until the next version."""

    date: date
    sections: tuple[Section, ...]
    #: The amendments that took effect on this date (new rule files are not listed).
    changes: tuple[Change, ...]
    #: Top-level rules first published on this date.
    new_rules: tuple[str, ...]

    def section(self, number: str) -> Section | None:
        for s in self.sections:
            if s.number == number:
                return s
        return None


def _dated(version: Version) -> date:
    return version.date


@dataclass(frozen=True, slots=True)
class Rulebook:
    versions: tuple[Version, ...]  # oldest first

    def at(self, day: date) -> Version | None:
        """The version in force on ``day``: the newest one dated on or before it."""
        found = bisect.bisect_right(self.versions, day, key=_dated)  # oldest first
        return self.versions[found - 1] if found else None

    @property
    def current(self) -> Version | None:
        return self.versions[-1] if self.versions else None


@dataclass(frozen=True, slots=True)
class RuleFile:
    meta: RuleMeta
    sections: tuple[Section, ...]


def load_rule_files(folder: Path, root: Path) -> tuple[RuleFile, ...]:
    """Every ``*.md`` rule file of a folder, checked; all problems at once."""
    problems = Problems()
    files: list[RuleFile] = []
    paths = sorted(p for p in folder.glob("*.md") if not p.name.startswith(".")) \
        if folder.is_dir() else []
    for path in paths:
        rel = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
        try:
            files.append(_load_rule_file(path, rel))
        except InputError as exc:
            problems.extend(exc.problems)
    seen: dict[int, str] = {}
    for rule_file in files:
        rule = rule_file.meta.rule
        if rule in seen:
            problems.add(rule_file.sections[0].source, 2, 1, f"rule {rule} is already "
                         f"defined in {seen[rule]}; each rule has one file")
        seen.setdefault(rule, rule_file.sections[0].source)
    problems.raise_if_any()
    return tuple(sorted(files, key=lambda f: f.meta.rule))


@dataclass(frozen=True, slots=True)
class _Reading:
    """The section a rule file is being read into: its heading and its lines so far."""

    number: str
    title: str
    line: int
    lines: list[str] = field(default_factory=list)


def _load_rule_file(path: Path, rel: str) -> RuleFile:
    doc = split(yamlsource.read_text(path, rel), rel)
    meta = validation.validate(RULE_META, doc.meta, rel)
    problems = Problems()
    top = str(meta.rule)
    sections: list[Section] = []
    current = _Reading(top, meta.title, 1)
    in_fence = False

    def close() -> None:
        text = "\n".join(current.lines).strip("\n")
        sections.append(Section(current.number, current.title, text, rel, current.line))

    for offset, line in enumerate(doc.body.split("\n")):
        lineno = doc.body_line + offset
        if _FENCE.match(line):
            in_fence = not in_fence
        heading = None if in_fence else _HEADING.match(line)
        if heading is None:
            current.lines.append(line)
            continue
        hashes, label = heading.groups()
        numbered = _NUMBERED.match(label)
        if numbered is None or not numbered.group(2):
            problems.add(rel, lineno, 1, f"heading {label!r} needs a section number and a "
                         f"title, such as '## {top}.1 Who may attack'")
            current.lines.append(line)
            continue
        number, title = numbered.group(1), numbered.group(2)
        parts = number.split(".")
        if parts[0] != top or len(parts) < 2:
            problems.add(rel, lineno, len(hashes) + 2, f"section {number} does not belong in "
                         f"rule {top}; expected a number such as {top}.1")
        elif len(hashes) != len(parts):
            problems.add(rel, lineno, 1, f"section {number} needs {'#' * len(parts)} (one '#' "
                         f"per part of its number), not {hashes}")
        elif number_key(number) <= number_key(current.number):
            problems.add(rel, lineno, len(hashes) + 2, f"section {number} is out of order or "
                         f"repeated; it follows {current.number}")
        elif len(parts) > 2 and ".".join(parts[:-1]) not in \
                {s.number for s in sections} | {current.number}:
            problems.add(rel, lineno, len(hashes) + 2, f"section {number} has no parent "
                         f"section {'.'.join(parts[:-1])}")
        close()
        current = _Reading(number, title, lineno)
    close()
    problems.raise_if_any()
    return RuleFile(meta, tuple(sections))


def fold(files: Iterable[RuleFile], amendments: Iterable[Amendment]) -> Rulebook:
    """Apply rule files and amendments in date order; one version per date.

    On one date, new rule files come first, then amendments in the order their
    posts were published. Two amendments of one section on one date conflict.
    """
    by_date: dict[date, tuple[list[RuleFile], list[Amendment]]] = {}
    for rule_file in files:
        by_date.setdefault(rule_file.meta.date, ([], []))[0].append(rule_file)
    for amendment in amendments:
        by_date.setdefault(amendment.effective, ([], []))[1].append(amendment)
    problems = Problems()
    sections: dict[str, Section] = {}
    versions: list[Version] = []
    for day in sorted(by_date):
        new_files, day_amendments = by_date[day]
        for rule_file in new_files:
            for section in rule_file.sections:
                sections[section.number] = section
        changes: list[Change] = []
        touched: dict[str, Amendment] = {}
        for amendment in day_amendments:
            number = amendment.number
            if number in touched:
                first = touched[number]
                problems.add(amendment.source, amendment.line, 0, f"conflicting amendments of "
                             f"{number} on {day.isoformat()}: {first.source}:{first.line} "
                             "changes it too; merge them into one")
                continue
            touched[number] = amendment
            change = _apply(sections, amendment, problems)
            if change is not None:
                changes.append(change)
        ordered = tuple(sorted(sections.values(), key=lambda s: number_key(s.number)))
        versions.append(Version(day, ordered, tuple(changes),
                                tuple(str(f.meta.rule) for f in new_files)))
    problems.raise_if_any()
    return Rulebook(tuple(versions))


def _apply(sections: dict[str, Section], amendment: Amendment,
           problems: Problems) -> Change | None:
    number, day = amendment.number, amendment.effective
    existing = sections.get(number)
    where = f"on {day.isoformat()}"
    stamp = ((amendment.ruling, day),)
    if amendment.action == "add":
        parent = ".".join(number.split(".")[:-1])
        if existing is not None:
            problems.add(amendment.source, amendment.line, 0, f"cannot add section {number}: it "
                         f"already exists {where}; use amend: \"{number}\" to change it")
            return None
        if not parent or parent not in sections:
            problems.add(amendment.source, amendment.line, 0, f"cannot add section {number}: "
                         f"its parent section {parent or '(none)'} does not exist {where}")
            return None
        added = Section(number, amendment.title or "", (amendment.text or "").strip("\n"),
                        amendment.source, amendment.line, stamp)
        sections[number] = added
        return Change(amendment, None, added)
    if existing is None:
        known = ", ".join(sorted((n for n in sections if n.split(".")[0] == number.split(".")[0]),
                                 key=number_key)[:12])
        hint = f"; rule {number.split('.')[0]} has {known}" if known else ""
        problems.add(amendment.source, amendment.line, 0, f"cannot {amendment.action} section "
                     f"{number}: no such section in the rulebook {where}{hint}")
        return None
    if amendment.action == "repeal":
        for other in [n for n in sections if n == number or n.startswith(number + ".")]:
            del sections[other]
        return Change(amendment, existing, None)
    changed = replace(
        existing,
        title=amendment.title or existing.title,
        text=existing.text if amendment.text is None else amendment.text.strip("\n"),
        source=amendment.source, line=amendment.line,
        amended_by=existing.amended_by + stamp,
    )
    sections[number] = changed
    return Change(amendment, existing, changed)


def amendments_of(meta_amends: Iterable[AmendMeta], effective: date, ruling: Ruling,
                  source: str, lines: Iterable[int]) -> tuple[Amendment, ...]:
    """A post's ``amends:`` as checked :class:`Amendment` values."""
    return tuple(Amendment(a.action, a.number, a.title, a.text, effective, ruling, source, line)
                 for a, line in zip(meta_amends, lines, strict=True))
