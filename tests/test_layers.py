"""Dependencies point one way (STYLE.md): the shared pieces and the renderer
never reach up into the rules, the orchestrator or the command line."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from conftest import REPO

#: module or package → what it may never import.
FORBIDDEN = {
    "ftpress/state/hexes.py": ("ftpress",),
    # The seam between the pipeline and the cores knows nothing of the pipeline.
    "ftpress/speed/executor.py": ("ftpress",),
    "ftpress/state/dice.py": ("ftpress.state", "ftpress.rules", "ftpress.render", "ftpress.site"),
    "ftpress/state": ("ftpress.rules", "ftpress.render", "ftpress.site", "ftpress.cli",
                      "ftpress.store.campaign", "ftpress.commands"),
    # Rendering reads no input file: the load stage has read them all.
    "ftpress/render": ("ftpress.rules", "ftpress.site", "ftpress.cli", "ftpress.store.campaign",
                       "ftpress.commands", "ftpress.files.yamlsource", "ftpress.state.load",
                       "ftpress.files.validation"),
    "ftpress/maps": ("ftpress.rules", "ftpress.site", "ftpress.cli", "ftpress.store.campaign",
                     "ftpress.commands"),
    "ftpress/rules": ("ftpress.render", "ftpress.site", "ftpress.cli", "ftpress.maps",
                      "ftpress.commands"),
}


def imports(file: Path) -> set[str]:
    tree = ast.parse(file.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


@pytest.mark.parametrize("where", sorted(FORBIDDEN))
def test_dependencies_point_one_way(where):
    base = REPO / where
    files = [base] if base.suffix == ".py" else sorted(base.rglob("*.py"))
    assert files
    wrong = [f"{f.relative_to(REPO)} imports {name}" for f in files for name in imports(f)
             if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN[where])]
    assert wrong == []


@pytest.mark.parametrize("where", ["ftpress/render", "ftpress/maps"])
def test_render_and_maps_name_no_ruleset(where):
    """What a ruleset keeps beside the shared state shows through its Display
    (ftpress.state.display); the renderer and the maps never name a ruleset, in code or in
    comments, so a fourth ruleset changes nothing here."""
    from ftpress.rules import RULESETS

    name = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(RULESETS))) + r")\b")
    found = [f"{f.relative_to(REPO)}:{number}: {line.strip()}"
             for f in sorted((REPO / where).rglob("*.py"))
             for number, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1)
             if name.search(line)]
    assert found == []
