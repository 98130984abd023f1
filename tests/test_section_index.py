"""Every section of every ruleset's rulebook is in its section index, and every
entry leads to a function that cites the section, or says why none does."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import ftpress
from ftpress.content.rulebook import load_rule_files
from ftpress.rules import RULESETS
from ftpress.rules.ruleset import RULES_ROOT, Ruleset
from ftpress.rules.section_index import Indexed, cited, index_problems


def headings(ruleset: Ruleset) -> dict[str, str]:
    """number → title of every section of the ruleset's rulebook, in order."""
    return {section.number: section.title
            for rule_file in load_rule_files(ruleset.rulebook, RULES_ROOT)
            for section in rule_file.sections}


@pytest.mark.parametrize("name", ["ftc2007", "ftcamp02", "sct"])  # those shipped
def test_every_section_is_indexed_and_leads_somewhere(name: str) -> None:
    ruleset = RULESETS[name]
    sections = headings(ruleset)
    assert sections, f"{ruleset.rulebook} has no sections"  # nothing to check is no pass
    assert index_problems(ruleset.section_index, sections, f"ftpress.rules.{name}") == []


@pytest.mark.parametrize(("docstring", "numbers"), [
    ("§10.2: the fleet's points.", {"10.2"}),
    ("§10.3–§10.5 as ruled 13 May, and §9", {"10.3", "10.4", "10.5", "9"}),
    ("§7.1–7.4: the upkeep", {"7.1", "7.2", "7.3", "7.4"}),
    ("§1–§3, in order", {"1", "2", "3"}),
    ("§4.1, §4.1.1–§4.1.3", {"4.1", "4.1.1", "4.1.2", "4.1.3"}),
    ("§2.1. and rule 5", {"2.1"}),
    ("§10.31", {"10.31"}),
])
def test_citations_read_from_docstrings(docstring: str, numbers: set[str]) -> None:
    assert cited(docstring) == numbers


def _cites_ten_two() -> None:
    """§10.2: a stand-in rule function."""


def _cites_nothing() -> None:
    """A function that names no section."""


HERE = "tests.test_section_index"
HEADINGS = {"10": "Attacking", "10.1": "When", "10.2": "Points"}


def test_a_complete_index_has_no_problems() -> None:
    index = (Indexed("10", "Attacking", why_none="narrative", note="Introduces rule 10."),
             Indexed("10.1", "When", why_none="choice", note="ftpress's choice."),
             Indexed("10.2", "Points", applied_by=(f"{HERE}:_cites_ten_two",)))
    assert index_problems(index, HEADINGS, "ftpress.rules.ftc2007") == []


def test_every_way_an_index_fails_its_rulebook_is_reported() -> None:
    index = (Indexed("10", "Attacking systems", why_none="narrative", note="Introduces."),
             Indexed("10.2", "Points", applied_by=(f"{HERE}:_cites_nothing",
                                                   f"{HERE}:HEADINGS",
                                                   f"{HERE}:_gone",
                                                   "ftpress.rules.nowhere:f",
                                                   ".defences")),
             Indexed("10.3", "The roll", why_none="tabletop"),
             Indexed("10.4", "Surrender"))
    assert index_problems(index, HEADINGS, "ftpress.rules.ftc2007") == [
        "§10.1 'When' is not in the index",
        "§10 is titled 'Attacking systems' in the index and 'Attacking' in the rulebook",
        f"§10.2: {HERE}:_cites_nothing does not cite §10.2 in its docstring",
        f"§10.2: '{HERE}:HEADINGS' is a dict, not a function",
        f"§10.2: '{HERE}:_gone': there is no '_gone' in '{HERE}'",
        "§10.2: 'ftpress.rules.nowhere:f': module 'ftpress.rules.nowhere' does not import "
        "(No module named 'ftpress.rules.nowhere')",
        "§10.2: '.defences' is not 'module:function'",
        "§10.3 'The roll' is indexed but the rulebook has no such section",
        "§10.3 gives its reason (tabletop) but no note saying it in words",
        "§10.4 'Surrender' is indexed but the rulebook has no such section",
        "§10.4 names no function and gives no reason",
    ]


def test_an_index_out_of_order_or_twice_over_is_reported() -> None:
    index = (Indexed("10.1", "When", why_none="choice", note="A choice."),
             Indexed("10", "Attacking", why_none="narrative", note="Introduces."),
             Indexed("10.2", "Points", applied_by=(f"{HERE}:_cites_ten_two",)),
             Indexed("10.2", "Points", applied_by=(f"{HERE}:_cites_ten_two",)))
    assert index_problems(index, HEADINGS, "ftpress.rules.ftc2007") == [
        "§10.2 is indexed twice",
        "the index is not in rulebook order",
    ]


def test_relative_paths_are_the_rulesets_own() -> None:
    index = [Indexed("10.2", "Points", applied_by=(".defences:fleet_points",))]
    assert index_problems(index, {"10.2": "Points"}, "ftpress.rules.ftc2007") == []


TESTS = Path(__file__).parent
PACKAGE = Path(ftpress.__file__).parent


@pytest.mark.parametrize("name", ["ftc2007", "ftcamp02", "sct"])  # those shipped
def test_every_reading_names_its_case_and_is_cited_where_it_is_applied(name: str) -> None:
    """A ruleset's readings of its open clauses: each of a section of its index, in
    section order, cited by the code that applies it, and by its case, which exists."""
    ruleset = RULESETS[name]
    numbers = [entry.number for entry in ruleset.section_index]
    readings = ruleset.readings
    assert readings, f"{name} lists no reading"
    assert len({r.name for r in readings}) == len(readings), "a reading's name is used twice"
    assert all(r.section in numbers for r in readings), [r.name for r in readings
                                                        if r.section not in numbers]
    assert [r.section for r in readings] == sorted((r.section for r in readings),
                                                   key=numbers.index)
    code = "\n".join(p.read_text() for p in (PACKAGE / "rules").rglob("*.py")
                     if p.name != "readings.py")
    for r in readings:
        assert f"``{r.name}``" in code, f"no code cites reading {r.name!r}"
        if "::" in r.case:
            test_file, test = r.case.split("::")
            found = re.search(rf"^def {test}\(.*?(?=^\S|\Z)", (TESTS / test_file).read_text(),
                              re.M | re.S)
            assert found is not None, f"{r.name}: no test {r.case}"
            case = found[0]
        else:
            path = TESTS / "turns" / name / r.case
            assert path.is_file(), f"{r.name}: no case {path}"
            case = path.read_text()
        assert r.name in case, f"{r.case} does not cite reading {r.name!r}"


def test_no_module_constant_looks_like_a_switch_and_is_not_one() -> None:
    """A module-level ``NAME = True`` (or ``False``) in ftpress is read by some code:
    a reading of the rules that no code reads is a :class:`Reading`, not a constant."""
    trees = {p: ast.parse(p.read_text()) for p in PACKAGE.rglob("*.py")}
    flags = {target.id: p.relative_to(PACKAGE) for p, tree in trees.items()
             for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
             and isinstance(node.value, ast.Constant) and isinstance(node.value.value, bool)
             for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
             if isinstance(target, ast.Name)}
    read = {node.id if isinstance(node, ast.Name) else node.attr
            for tree in trees.values() for node in ast.walk(tree)
            if (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load))
            or (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load))}
    assert {name: str(where) for name, where in flags.items() if name not in read} == {}
