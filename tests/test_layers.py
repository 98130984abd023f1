"""Dependencies point one way (STYLE.md): the shared pieces and the renderer
never reach up into the rules, the orchestrator or the command line."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from conftest import REPO

#: module or package → what it may never import.
FORBIDDEN = {
    "ftpress/hexes.py": ("ftpress",),
    # The seam between the pipeline and the cores knows nothing of the pipeline.
    "ftpress/executor.py": ("ftpress",),
    "ftpress/dice.py": ("ftpress.state", "ftpress.rules", "ftpress.render", "ftpress.site"),
    "ftpress/state": ("ftpress.rules", "ftpress.render", "ftpress.site", "ftpress.cli",
                      "ftpress.campaign", "ftpress.commands"),
    # Rendering reads no input file: the load stage has read them all.
    "ftpress/render": ("ftpress.rules", "ftpress.site", "ftpress.cli", "ftpress.campaign",
                       "ftpress.commands", "ftpress.yamlsource", "ftpress.state.load",
                       "ftpress.validation"),
    "ftpress/maps": ("ftpress.rules", "ftpress.site", "ftpress.cli", "ftpress.campaign",
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
