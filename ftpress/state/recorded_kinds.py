"""Recorded turns held to the campaign's ruleset: every kind of event in a turn's
``events.yaml`` must be one its ruleset declares (``Ruleset.report``).

An event log is read before anyone knows whose rules it follows, so the kinds
are checked once the turns are loaded. A log with a kind its ruleset does not
declare is read again, held to the ruleset's kinds, so that the problem names
the line; a log without one costs a set lookup an event.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from pydantic import TypeAdapter

from ftpress.errors import InputError, Problem
from ftpress.files import validation, yamlsource
from ftpress.state.events import Event, EventsFile, kinds_context
from ftpress.state.report_spec import ReportSpec, unknown_kinds
from ftpress.state.turns import TURNS_DIR

_EVENTS: TypeAdapter[EventsFile] = TypeAdapter(EventsFile)


def kind_problems(root: Path, turns: Iterable[tuple[str, Sequence[Event]]],
                  report: ReportSpec, ruleset: str) -> list[Problem]:
    """Every event of ``turns`` (turn id, its events) whose kind ``ruleset`` does not
    declare, at its line of ``state/turns/<turn-id>/events.yaml``."""
    problems: list[Problem] = []
    context = kinds_context(report.kind_names, ruleset)
    for turn, events in turns:
        if not unknown_kinds(events, report):
            continue
        path = f"{TURNS_DIR}/{turn}/events.yaml"
        data = yamlsource.parse(yamlsource.read_text(root / path, path), path)
        try:
            validation.validate(_EVENTS, data, path, context)
        except InputError as exc:
            problems.extend(exc.problems)
    return problems


def check_made(events: Iterable[Event], report: ReportSpec, ruleset: str) -> None:
    """Raise if a ruleset's turn made an event of a kind it does not declare: a bug
    in the ruleset, which would record a turn its own report cannot file."""
    unknown = unknown_kinds(events, report)
    if unknown:
        raise UndeclaredKind(f"the {ruleset} ruleset made events of kinds it does not "
                             f"declare in its report: {', '.join(unknown)}")


class UndeclaredKind(RuntimeError):
    """A ruleset made an event of a kind it does not declare (a bug, not bad input)."""
