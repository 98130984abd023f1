"""Standalone pages: ``content/pages/<slug>.md`` → ``/<slug>/``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from pydantic import ConfigDict, Field, TypeAdapter

from ftpress.content.frontmatter import split
from ftpress.errors import InputError, Problem, Problems
from ftpress.files import validation, yamlsource
from ftpress.text.cleantext import LINE, CleanText

PAGES_DIR = "content/pages"
_FILE_NAME = re.compile(r"([a-z0-9]+(?:-[a-z0-9]+)*)\.md")


@dataclass(frozen=True, slots=True)
class PageMeta:
    __pydantic_config__ = ConfigDict(extra="forbid", str_strip_whitespace=True)

    title: Annotated[str, Field(min_length=1), LINE]
    summary: CleanText | None = None
    #: Order in the site menu, lightest first; pages of equal weight go by title.
    weight: int = 0


PAGE_META = TypeAdapter(PageMeta)


@dataclass(frozen=True, slots=True)
class Page:
    source: str
    slug: str
    title: str
    summary: str | None
    weight: int
    body: str
    body_line: int

    @property
    def url_path(self) -> str:
        return f"{self.slug}/"


def load_pages(root: Path) -> tuple[Page, ...]:
    """Every page under ``content/pages``, in menu order; all problems at once."""
    problems = Problems()
    pages: list[Page] = []
    base = root / PAGES_DIR
    files = sorted(p for p in base.iterdir() if p.suffix == ".md" and not p.name.startswith(".")) \
        if base.is_dir() else []
    for file in files:
        rel = file.relative_to(root).as_posix()
        name = _FILE_NAME.fullmatch(file.name)
        if name is None:
            problems.add(rel, 0, 0, "page file name must be a slug of lowercase letters, "
                         "digits and hyphens, such as 'about.md'")
            continue
        try:
            doc = split(yamlsource.read_text(file, rel), rel)
            meta = validation.validate(PAGE_META, doc.meta, rel)
        except InputError as exc:
            problems.extend(exc.problems)
            continue
        pages.append(Page(rel, name.group(1), meta.title, meta.summary or None, meta.weight,
                          doc.body, doc.body_line))
    problems.raise_if_any()
    return tuple(sorted(pages, key=lambda p: (p.weight, p.title, p.slug)))


def reserved_clash(page: Page, reserved: frozenset[str]) -> Problem | None:
    """A page may not take a URL the site itself uses (``posts``, ``tags`` …)."""
    if page.slug in reserved:
        return Problem(page.source, 0, 0, f"page slug {page.slug!r} is taken by the site's own "
                       f"pages; rename the file (reserved: {', '.join(sorted(reserved))})")
    return None
