"""The rulebooks that ship with ftpress for `sct`, `ftcamp02` and `ftc2007` are valid and self-contained."""

from __future__ import annotations

from pathlib import Path

import pytest

import ftpress
from ftpress.content import markdown
from ftpress.content.rulebook import fold, load_rule_files

PACKAGE = Path(ftpress.__file__).parent


@pytest.mark.parametrize("ruleset", ["sct", "ftcamp02", "ftc2007"])
def test_ruleset_rulebook_loads_and_its_citations_resolve(ruleset):
    folder = PACKAGE / "rules" / ruleset / "rulebook"
    files = load_rule_files(folder, PACKAGE)
    assert len(files) >= 5
    book = fold(files, [])
    current = book.current
    numbers = {s.number for s in current.sections}
    for section in current.sections:
        body = markdown.render(section.text, "/", lambda n: "#" if n in numbers else None)
        assert body.unresolved == (), (section.source, section.number)
    assert len(current.sections) >= 20
