"""The section index: each numbered section of a ruleset's rulebook, and the
code that applies it or the reason no code does.

A ruleset lists one :class:`Indexed` per section of its rulebook (the rule
itself, ``10``, and every numbered heading under it, ``10.2``), in rulebook
order, as ``Ruleset.section_index``. An entry names the functions that apply
the section as ``"module:qualname"`` paths, a leading dot meaning the
ruleset's own package (``".defences:attack_defences"``), and each of those
functions cites the section in its docstring (``§10.2``, or a range such as
``§10.3–§10.7``). A section no function applies says why, as one of
:data:`WhyNone`, and in a sentence of its own.

:func:`index_problems` checks an index against the headings of its rulebook;
``tests/test_section_index.py`` runs it on every ruleset.

Beside its index a ruleset lists its :class:`Reading` of each clause that could be
read more than one way, each naming the case that holds it.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

#: Why no function applies a section (or the part of it no function applies):
#:
#: - ``narrative``: it explains, introduces or justifies, and sets no rule;
#: - ``tabletop``: the tactical game decides it, and the umpire enters the outcome;
#: - ``source-missing``: it rests on a part of the source that is not in its text
#:   (orders that need that part are refused, naming it);
#: - ``choice``: ftpress chose not to model it, and the ruleset's rulebook says so;
#: - ``unapplied``: nobody has written it yet, and nothing can be ordered that
#:   needs it.
WhyNone = Literal["narrative", "tabletop", "source-missing", "choice", "unapplied"]

#: The note of a rule whose opening words only lead into its numbered sections.
INTRODUCES = "The rule's opening words introduce its sections."

_CITATION = re.compile(r"§\s*(\d+(?:\.\d+)*)(?:\s*[–-]\s*§?\s*(\d+(?:\.\d+)*))?")


@dataclass(frozen=True, slots=True)
class Indexed:
    """One section of the rulebook and what applies it.

    ``applied_by`` and ``why_none`` may both be given where code applies part
    of a section and the rest is, say, played on the tabletop; ``note`` then
    says which part is which.
    """

    number: str
    #: The heading's title, as the rulebook gives it (checked against it).
    title: str
    applied_by: tuple[str, ...] = ()
    why_none: WhyNone | None = None
    #: Why, in words: required with ``why_none``.
    note: str = ""


@dataclass(frozen=True, slots=True)
class Reading:
    """How ftpress reads a clause its rules leave open, and the case that shows it.

    Where a clause can be read more than one way, the ruleset takes one reading
    and lists it here, not as a module constant that looks like a switch: the
    code applies only this reading, and cites it by ``name`` where it does. A
    ruleset lists its readings, in section order, as ``Ruleset.readings``.
    """

    #: What the reading says, as a short name: 'whole-multiples-only'.
    name: str
    #: The section whose clause it reads (a number of the section index).
    section: str
    #: What ftpress takes the clause to mean, and why, in a few sentences.
    reading: str
    #: What fails if the reading changes: a case's file name in
    #: ``tests/turns/<ruleset>/``, or, for a reading applied before any turn (the
    #: map rolled at ``init``), a test as ``test_file.py::test_name``.
    case: str


def cited(docstring: str) -> frozenset[str]:
    """The section numbers a docstring cites: '§10.3–§10.5 and §9' →
    {'10.3', '10.4', '10.5', '9'}. A range runs over the last part of the
    number, between numbers of the same parent."""
    numbers: set[str] = set()
    for first, last in _CITATION.findall(docstring):
        numbers.add(first)
        if not last:
            continue
        head, _, start = first.rpartition(".")
        last_head, _, end = last.rpartition(".")
        if head == last_head:
            prefix = f"{head}." if head else ""
            numbers.update(f"{prefix}{n}" for n in range(int(start), int(end) + 1))
        else:
            numbers.add(last)
    return frozenset(numbers)


def resolve(path: str, package: str) -> Callable[..., object] | str:
    """The function ``path`` names (``module:qualname``, a leading dot for
    ``package``), or why it names none."""
    module_name, colon, qualname = path.partition(":")
    if not colon or not module_name or not qualname:
        return f"{path!r} is not 'module:function'"
    try:
        target: object = importlib.import_module(module_name, package)
    except ImportError as exc:
        return f"{path!r}: module {module_name!r} does not import ({exc})"
    for part in qualname.split("."):
        target = getattr(target, part, None)
        if target is None:
            return f"{path!r}: there is no {qualname!r} in {module_name!r}"
    # A cached function (functools.cache) is still the function it wraps.
    if not callable(target) or not inspect.isfunction(inspect.unwrap(target)):
        return f"{path!r} is a {type(target).__name__}, not a function"
    return target


def index_problems(index: Sequence[Indexed], headings: Mapping[str, str],
                   package: str) -> list[str]:
    """Every way ``index`` fails its rulebook: a section left out, an entry for a
    section that is not there, a title that differs, an entry with neither code
    nor reason, and a path that resolves to no function or to one whose
    docstring does not cite the section. ``headings``: number → title, in
    rulebook order."""
    problems: list[str] = []
    numbers = [entry.number for entry in index]
    for number, title in headings.items():
        if number not in numbers:
            problems.append(f"§{number} {title!r} is not in the index")
    seen: set[str] = set()
    for entry in index:
        where = f"§{entry.number}"
        if entry.number in seen:
            problems.append(f"{where} is indexed twice")
        seen.add(entry.number)
        if entry.number not in headings:
            problems.append(f"{where} {entry.title!r} is indexed but the rulebook has no "
                            "such section")
        elif headings[entry.number] != entry.title:
            problems.append(f"{where} is titled {entry.title!r} in the index and "
                            f"{headings[entry.number]!r} in the rulebook")
        if not entry.applied_by and entry.why_none is None:
            problems.append(f"{where} names no function and gives no reason")
        elif entry.why_none is not None and not entry.note.strip():
            problems.append(f"{where} gives its reason ({entry.why_none}) but no note "
                            "saying it in words")
        for path in entry.applied_by:
            found = resolve(path, package)
            if isinstance(found, str):
                problems.append(f"{where}: {found}")
            elif entry.number not in cited(inspect.getdoc(found) or ""):
                problems.append(f"{where}: {path} does not cite §{entry.number} in its "
                                "docstring")
    order = [n for n in numbers if n in headings]
    if order != [n for n in headings if n in numbers]:
        problems.append("the index is not in rulebook order")
    return problems
