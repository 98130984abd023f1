"""How a ruleset's events make up a turn report, as data the ruleset declares.

Every ruleset has one :class:`ReportSpec` (``Ruleset.report``): the kinds of
event it makes beyond the shared ones, the sections its report has and which
kinds each takes, which kinds are filed by the chapter of the rule they cite,
which routine kinds fold away under one line, which kinds move a group on the
map, and which places the turn's summary lists. The orchestrator hands the
campaign's spec to the renderer, which asks it and knows no ruleset itself;
this module imports nothing of ``ftpress.rules``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from ftpress.state.events import SHARED_KINDS, Event, EventKind
from ftpress.state.model import Calendar

#: How the map marks where an event happened: a starburst or a ring.
Marker = Literal["battle", "siege"]

#: The section a rule citation names: '8.2' of 'ftc2007 §8.2'.
CITATION = re.compile(r"§\s*(\d+(?:\.\d+)*)")


def cited_section(rule: str) -> str | None:
    """'8.2' for 'ftc2007 §8.2'; None for a rule that cites no numbered section."""
    found = CITATION.search(rule)
    return found.group(1) if found else None


@dataclass(frozen=True, slots=True)
class ReportSection:
    """One section of a turn report and what goes in it."""

    key: str
    heading: str
    #: The kinds of event always filed here.
    kinds: tuple[str, ...] = ()
    #: The rulebook's chapters (the first number of a cited section) whose events
    #: are filed here, for the kinds the spec files by their rule.
    chapters: tuple[str, ...] = ()
    #: How the map marks the places of this section's events (None: it does not).
    marker: Marker | None = None


@dataclass(frozen=True, slots=True)
class Fold:
    """Routine events of one kind folded away under one line of their own: the line
    says how many there were and what their amounts add up to."""

    kind: str
    #: The line for one event and for several; ``{count}`` and ``{total:,}`` are filled in.
    one: str
    many: str

    def summary(self, events: Sequence[Event]) -> str:
        """The line for ``events`` ('' for none)."""
        if not events:
            return ""
        total = sum(e.amount or 0 for e in events)
        return (self.one if len(events) == 1 else self.many).format(count=len(events),
                                                                     total=total)


@dataclass(frozen=True, slots=True)
class PlaceList:
    """A sentence of the turn's summary that lists where some events happened:
    ``lead`` and the places, or ``none`` when there were none ('' says nothing)."""

    lead: str
    #: The events it counts: those filed in these sections, and those of these kinds.
    sections: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    none: str = ""

    def counts(self, event: Event, section: str) -> bool:
        return section in self.sections or event.kind in self.kinds


@dataclass(frozen=True, slots=True)
class ReportSpec:
    """A ruleset's events as its turn report reads them (see the module docstring)."""

    #: The ruleset's own kinds of event, beyond :data:`ftpress.state.events.SHARED_KINDS`.
    kinds: tuple[EventKind, ...]
    #: The report's sections in the order they are shown; the last one takes every
    #: event no other section does.
    sections: tuple[ReportSection, ...]
    #: Kinds filed by the chapter of the rule they cite (a loss in a battle under the
    #: battle, a loss to a world's defences under the siege).
    by_rule: frozenset[str] = frozenset()
    folds: tuple[Fold, ...] = ()
    #: Kinds whose event carries a group from ``origin`` to ``at``: an arrow on the map,
    #: and a group that moved in the summary.
    moves: frozenset[str] = frozenset()
    #: The summary's sentences of places, in order.
    places: tuple[PlaceList, ...] = ()
    #: What the ruleset's texts call a counter on the map, in the summary's words.
    group_noun: str = "task group"
    #: Where a turn stands in the ruleset's time, as every turn report names it: a
    #: template of ``{turn}``, ``{week}`` (the turn's place in its economic turn, 1
    #: first), ``{weeks}`` (turns in an economic turn) and ``{economic_turn}``.
    when: str = "week {week} of economic turn {economic_turn}"
    _by_kind: dict[str, str] = field(init=False, repr=False, compare=False, hash=False)
    _by_chapter: dict[str, str] = field(init=False, repr=False, compare=False, hash=False)
    _legal: frozenset[str] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        by_kind: dict[str, str] = {}
        by_chapter: dict[str, str] = {}
        for section in self.sections:
            for kind in section.kinds:
                if kind in by_kind:
                    raise ValueError(f"event kind {kind!r} is in two report sections, "
                                     f"{by_kind[kind]!r} and {section.key!r}")
                by_kind[kind] = section.key
            for chapter in section.chapters:
                by_chapter.setdefault(chapter, section.key)
        if self.by_rule & by_kind.keys():
            raise ValueError(f"event kinds {sorted(self.by_rule & by_kind.keys())} are filed "
                             "both by their rule and in a section")
        object.__setattr__(self, "_by_kind", by_kind)
        object.__setattr__(self, "_by_chapter", by_chapter)
        object.__setattr__(self, "_legal", frozenset(k.name for k in (*SHARED_KINDS,
                                                                       *self.kinds)))

    @property
    def kind_names(self) -> frozenset[str]:
        """Every kind of event a campaign under this ruleset may record."""
        return self._legal

    @property
    def fallback(self) -> str:
        return self.sections[-1].key

    def section_of(self, event: Event) -> str:
        """The key of the section ``event`` is filed in."""
        if event.kind in self.by_rule:
            cited = cited_section(event.rule)
            chapter = cited.split(".")[0] if cited else None
            return self._by_chapter.get(chapter or "", self.fallback)
        return self._by_kind.get(event.kind, self.fallback)

    def marker_of(self, event: Event) -> Marker | None:
        """How the map marks the place of ``event``: its section decides."""
        key = self.section_of(event)
        return next((s.marker for s in self.sections if s.key == key), None)

    def when_of(self, calendar: Calendar) -> str:
        """Where the turn open on ``calendar`` stands, in :attr:`when`'s words."""
        week = (calendar.turn - 1) % calendar.turns_per_economic_turn + 1
        return self.when.format(turn=calendar.turn, week=week,
                                weeks=calendar.turns_per_economic_turn,
                                economic_turn=calendar.economic_turn)

    def fold_of(self, kind: str) -> Fold | None:
        return next((f for f in self.folds if f.kind == kind), None)

    def unplaced(self) -> list[str]:
        """Kinds the ruleset may record that no section takes and that are not filed
        by rule (they would land in the last section unasked): a test keeps this empty."""
        return sorted(self.kind_names - set(self._by_kind) - self.by_rule)


def unknown_kinds(events: Iterable[Event], spec: ReportSpec) -> list[str]:
    """The kinds among ``events`` that ``spec``'s ruleset does not declare, sorted."""
    legal = spec.kind_names
    return sorted({e.kind for e in events if e.kind not in legal})
