"""Split a Markdown file into its YAML front matter and its body, refusing a body
that holds control, bidi or invisible characters (:mod:`ftpress.text.cleantext`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ftpress.errors import InputError, Problem
from ftpress.files import yamlsource
from ftpress.text import cleantext

_FENCE = "---"


@dataclass(frozen=True, slots=True)
class Document:
    """A Markdown file taken apart: parsed front matter, body, where the body starts."""

    meta: Any
    body: str
    body_line: int


def split(text: str, path: str) -> Document:
    """Parse ``---``-fenced YAML front matter at the very top of ``text``."""
    lines = text.split("\n")
    if lines[0].rstrip() != _FENCE:
        raise InputError([Problem(path, 1, 1, "expected front matter: a line '---', "
                                  "YAML settings (title, date, kind …), then '---'")])
    for index in range(1, len(lines)):
        if lines[index].rstrip() in (_FENCE, "..."):
            break
    else:
        raise InputError([Problem(path, 1, 1, "front matter is never closed; expected a "
                                  "second '---' line after the settings")])
    # Front matter's first line is line 2 of the file.
    meta = yamlsource.parse("\n".join(lines[1:index]), path, line_offset=1)
    if meta is None:
        meta = yamlsource.MarkedMap((2, 1))
    if not isinstance(meta, dict):
        raise InputError([Problem(path, 2, 1, "front matter must be a mapping of keys "
                                  "such as 'title: …'")])
    body = "\n".join(lines[index + 1:])
    problems = list(_unclean_body(body, path, index + 2))
    if problems:
        raise InputError(problems)
    return Document(meta, body, index + 2)


def _unclean_body(body: str, path: str, first_line: int) -> Iterator[Problem]:
    """A problem at each line of the body holding a character no text may hold
    (:mod:`ftpress.text.cleantext`): its first such character, at its line and column."""
    if cleantext.unclean(body) is None:
        return
    for number, line in enumerate(body.split("\n"), start=first_line):
        at = cleantext.unclean(line.removesuffix("\r"))  # a Windows line break is one
        if at is not None:
            yield Problem(path, number, at + 1, cleantext.refusal(line[at]))
