"""Dependencies point one way (STYLE.md, ARCHITECTURE.md): every package of ftpress has a
rule saying what it may never import, so the shared pieces and the renderer never reach up
into the rules, the orchestrator or the command line. A new package needs its rule here
before its first import is checked."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from conftest import REPO

PACKAGE = REPO / "ftpress"

#: What may stay at the package's root: the entry points and the error types every
#: stage raises. Everything else lives in the package of the stage it serves.
ROOT_MODULES = {"__init__.py", "__main__.py", "cli.py", "errors.py"}

#: The stages and tools above the shared pieces, which the shared pieces never import.
_ABOVE = ("ftpress.cli", "ftpress.commands")
_RENDERING = ("ftpress.render", "ftpress.maps", "ftpress.site")
_ORCHESTRATION = ("ftpress.turn", "ftpress.store", "ftpress.github")

#: package (or module) → (why, what it may never import).
RULES: dict[str, tuple[str, tuple[str, ...]]] = {
    "ftpress/text": ("words and marks with no campaign in them: the bottom layer",
                     ("ftpress.",)),
    "ftpress/speed": ("the seam between the pipeline and the cores knows nothing of the "
                      "pipeline", ("ftpress.",)),
    "ftpress/files": ("reading and writing files serves every stage and knows none",
                      ("ftpress.state", "ftpress.rules", "ftpress.orders", "ftpress.secrecy",
                       "ftpress.content", *_RENDERING, *_ORCHESTRATION, *_ABOVE)),
    "ftpress/state": ("the campaign as data: the model imports no renderer, no ruleset, no "
                      "stage that reads or writes it",
                      ("ftpress.rules", "ftpress.content", *_RENDERING, *_ORCHESTRATION,
                       *_ABOVE)),
    "ftpress/state/dice.py": ("dice know no campaign", ("ftpress.state", "ftpress.rules",
                                                         "ftpress.secrecy", *_RENDERING)),
    "ftpress/state/hexes.py": ("geometry alone", ("ftpress.",)),
    "ftpress/orders": ("order files as data and their form; the ruleset judges them",
                       ("ftpress.secrecy", "ftpress.content", *_RENDERING, *_ORCHESTRATION,
                        *_ABOVE)),
    "ftpress/rules": ("a ruleset resolves a turn from data: it imports no renderer and no "
                      "stage, so a fourth ruleset touches nothing outside its package",
                      ("ftpress.secrecy", "ftpress.content", *_RENDERING, *_ORCHESTRATION,
                       *_ABOVE)),
    "ftpress/secrecy": ("who may know what is decided from the state, never from how it "
                        "is drawn nor from how the campaign is stored: the store reads and "
                        "writes through it",
                        ("ftpress.content", *_RENDERING, *_ORCHESTRATION, "ftpress.checking",
                         "ftpress.creating", *_ABOVE)),
    "ftpress/yourview": ("a player's own report is made from what they know; it draws "
                         "nothing and runs no stage",
                         ("ftpress.content", *_RENDERING, *_ORCHESTRATION, *_ABOVE)),
    "ftpress/content": ("the umpire's Markdown, read before any campaign state",
                        ("ftpress.state", "ftpress.rules", "ftpress.orders", "ftpress.secrecy",
                         *_RENDERING, *_ORCHESTRATION, *_ABOVE)),
    "ftpress/maps": ("maps are drawn from the state, never from a ruleset",
                     ("ftpress.rules", "ftpress.orders", "ftpress.secrecy", "ftpress.content",
                      "ftpress.render", "ftpress.site", *_ORCHESTRATION, *_ABOVE)),
    "ftpress/render": ("rendering reads no input file: the load stage has read them all",
                       ("ftpress.rules", "ftpress.site", "ftpress.files.yamlsource",
                        "ftpress.files.validation", "ftpress.state.load", *_ORCHESTRATION,
                        *_ABOVE)),
    "ftpress/store": ("reading and writing a whole campaign: below every command, above "
                      "the files", (*_RENDERING, "ftpress.turn", "ftpress.github", *_ABOVE)),
    "ftpress/turn": ("a turn is load → resolve → record through the store, and reaches "
                     "secrecy only through the store's interface",
                     (*_RENDERING, "ftpress.secrecy", "ftpress.github", *_ABOVE)),
    "ftpress/github": ("the campaign on GitHub drives the stages; it draws nothing itself",
                       (*_RENDERING, *_ABOVE)),
    "ftpress/site": ("the build: load → render → write, under the command line",
                     ("ftpress.turn", "ftpress.github", *_ABOVE)),
    "ftpress/checking": ("'ftpress check': the campaign read as a build and a turn would "
                         "read it, under the command line", _ABOVE),
    "ftpress/creating": ("'ftpress init': a new campaign made from every stage's pieces, "
                         "under the command line", _ABOVE),
    "ftpress/commands": ("each command reads its arguments and calls one stage",
                         ("ftpress.cli",)),
}


def imports(file: Path) -> set[str]:
    tree = ast.parse(file.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            if node.module == "ftpress":
                found |= {f"ftpress.{alias.name}" for alias in node.names}
    return found


def _forbidden(name: str, bad: str) -> bool:
    if bad.endswith("."):
        return name.startswith(bad) and name != "ftpress.__version__"
    return name == bad or name.startswith(bad + ".")


@pytest.mark.parametrize("where", sorted(RULES))
def test_dependencies_point_one_way(where):
    base = REPO / where
    files = [base] if base.suffix == ".py" else sorted(base.rglob("*.py"))
    assert files
    why, never = RULES[where]
    wrong = [f"{f.relative_to(REPO)} imports {name}" for f in files for name in imports(f)
             if any(_forbidden(name, bad) for bad in never)]
    assert wrong == [], why


def test_every_package_has_a_rule():
    packages = {f"ftpress/{p.name}" for p in PACKAGE.iterdir()
                if p.is_dir() and (p / "__init__.py").exists()}
    assert packages - set(RULES) == set()


def test_the_root_keeps_only_entry_points():
    assert {p.name for p in PACKAGE.glob("*.py")} <= ROOT_MODULES


#: The most lines a command module may have: it reads its arguments, calls one stage and
#: says what happened; anything more belongs to the stage's package.
THIN = 150


def test_commands_stay_thin():
    thick = [f"{f.relative_to(REPO)}: {n} lines" for f in sorted((PACKAGE / "commands").glob("*.py"))
             if (n := len(f.read_text(encoding="utf-8").splitlines())) > THIN]
    assert thick == []


def test_architecture_names_every_package():
    text = (REPO / "ARCHITECTURE.md").read_text(encoding="utf-8")
    missing = [where for where in RULES if where.count("/") == 1 and f"`{where[8:]}/`" not in text]
    assert missing == []


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
