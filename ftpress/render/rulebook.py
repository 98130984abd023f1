"""Rulebook pages: ``/rules/`` (as it stands), ``/rules/<date>/`` (as it stood),
``/rules/changes/`` (what each ruling changed, :mod:`ftpress.render.htmldiff`), and
the citation links that posts make with ``[[rule:10.2]]``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from difflib import SequenceMatcher

import jinja2
from markupsafe import Markup, escape

from ftpress.content import markdown
from ftpress.content.rulebook import Change, Rulebook, Section, Version, anchor
from ftpress.errors import Problem
from ftpress.render.htmldiff import paragraph_diff
from ftpress.render.pages import Renderer
from ftpress.render.views import Link, Urls
from ftpress.state.words import long_date

_TOKENS = re.compile(r"\s+|[^\s]+")


def word_diff(before: str, after: str) -> Markup:
    """``before`` → ``after`` as escaped HTML, removed words in ``<del>``, added in ``<ins>``
    (for a section's title: plain text, one line)."""
    a, b = _TOKENS.findall(before), _TOKENS.findall(after)
    out: list[str] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(str(escape("".join(a[i1:i2]))))
            continue
        if op in ("delete", "replace"):
            out.append(f"<del>{escape(''.join(a[i1:i2]))}</del>")
        if op in ("insert", "replace"):
            out.append(f"<ins>{escape(''.join(b[j1:j2]))}</ins>")
    return Markup("".join(out))


@dataclass(frozen=True, slots=True)
class SectionView:
    number: str
    title: str
    anchor: str
    depth: int
    html: Markup
    amended_by: tuple[Link, ...]


@dataclass(frozen=True, slots=True)
class ChangeView:
    verb: str  # "amended", "added", "repealed"
    number: str
    #: The section in the version where the change took effect (or, for a repeal, the last
    #: version that had it).
    url: str
    title: str
    title_diff: Markup | None
    diff: Markup
    ruling: Link
    effective: datetime


@dataclass(frozen=True, slots=True)
class VersionView:
    date: datetime
    url: str
    #: Each section's HTML, from ``_rule_section.html``.
    blocks: tuple[Markup, ...]
    contents: tuple[Link, ...]
    changes: tuple[ChangeView, ...]

    def by_ruling(self) -> tuple[RulingChanges, ...]:
        """The changes grouped by the ruling that made them, in the order they came."""
        groups: dict[str, list[ChangeView]] = {}
        rulings: dict[str, Link] = {}
        for c in self.changes:
            groups.setdefault(c.ruling.url, []).append(c)
            rulings.setdefault(c.ruling.url, c.ruling)
        return tuple(RulingChanges(rulings[url], tuple(cs)) for url, cs in groups.items())


@dataclass(frozen=True, slots=True)
class RulingChanges:
    """What one ruling changed on one date, for the change log's fold of it."""

    ruling: Link
    changes: tuple[ChangeView, ...]

    @property
    def summary(self) -> str:
        """'§8.1 amended, §10.9 added'."""
        return ", ".join(f"§{c.number} {c.verb}" for c in self.changes)


def _midnight(day: date, like: datetime | None = None) -> datetime:
    zone = like.tzinfo if like is not None else None
    return datetime.combine(day, time(0, 0), tzinfo=zone)


class RulebookViews:
    """Rendered versions of the rulebook, with the citation resolver every page shares."""

    def __init__(self, rulebook: Rulebook, urls: Urls, zone_of: datetime | None,
                 env: jinja2.Environment | None,
                 kept: dict[tuple[Section, date | None], Markup] | None = None) -> None:
        """``kept``: sections' HTML by their value (and the day of a section that cites),
        from an earlier build whose sections' template, base path and citable sections
        (:func:`citable`) were the same (``serve``'s; a new dict for one build)."""
        # env None: a resolver of citations alone, rendering no section.
        self.rulebook, self.urls, self.env = rulebook, urls, env
        self._kept = kept if kept is not None else {}
        self.problems: list[Problem] = []
        self._zone = zone_of
        self._versions: dict[date, VersionView] = {}
        # Most sections read the same in every version; render each wording once.
        self._html: dict[str, Markup] = {}
        self._blocks: dict[tuple[int, date | None], Markup] = {}
        self._by_ruling: dict[str, list[Change]] | None = None
        self._changes: dict[int, ChangeView] = {}
        #: Diffs of changes made ahead (:meth:`diff_ahead`), by the change's identity.
        self._diffs: dict[int, Markup] = {}
        self._section_numbers: dict[date, frozenset[str]] = {}
        #: Section Markdown rendered ahead (:meth:`prerender`), by text and, for a text
        #: that cites, the date of the version it is shown in.
        self._rendered: dict[tuple[str, date | None], markdown.Rendered] = {}

    def prerender(self, render_many: Callable[[list[tuple[str, markdown.Resolver | None]]],
                                              list[markdown.Rendered]]) -> None:
        """Render the Markdown of every version's sections in one go with ``render_many``
        (:meth:`Renderer.markdown`: cached between builds, rendered by its executor)."""
        wanted: dict[tuple[str, date | None], markdown.Resolver] = {}
        for version in self.rulebook.versions:
            cite = self.resolver(version.date)
            for section in version.sections:
                key = (section.text, version.date if "[[rule:" in section.text else None)
                wanted.setdefault(key, cite)
        keys = list(wanted)
        for key, body in zip(keys, render_many([(k[0], wanted[k]) for k in keys]),
                             strict=True):
            self._rendered[key] = body

    def diff_ahead(self, render_many: Callable[[list[tuple[str, markdown.Resolver | None]]],
                                               list[markdown.Rendered]],
                   memo_many: Callable[[Sequence[str], Callable[[int], str]], list[str]]
                   ) -> None:
        """Diff every change's wording at once, before any view asks for one: both
        wordings rendered with ``render_many`` (:meth:`Renderer.markdown`: cached
        between builds), then compared with ``memo_many`` (:meth:`Renderer.memo_many`:
        kept between builds by the two renderings, made by its executor; difflib is
        slow: a thousand changes take half a second)."""
        changes = [c for version in self.rulebook.versions for c in version.changes]
        wordings = [w for c in changes for w in self._wordings(c)]
        shown = iter(render_many([w for w in wordings if w[0]]))
        html = [next(shown).html if text else "" for text, _ in wordings]
        diffs = memo_many([f"paragraph diff\0{html[2 * i]}\0{html[2 * i + 1]}"
                           for i in range(len(changes))],
                          lambda i: paragraph_diff(html[2 * i], html[2 * i + 1]))
        self._diffs = {id(c): Markup(d) for c, d in zip(changes, diffs, strict=True)}

    def _wordings(self, change: Change) -> tuple[tuple[str, markdown.Resolver], ...]:
        """A change's text before and after ("" where there is none), each with the
        resolver of its own day: a citation links to the rulebook as it then stood."""
        effective = change.amendment.effective
        before, after = change.before, change.after
        return ((before.text if before else "", self.resolver(_day_before(effective))),
                (after.text if after else "", self.resolver(effective)))

    def _text_diff(self, change: Change) -> Markup:
        """The change to a section's text, compared as readers see it."""
        old, new = (markdown.render(text, self.urls.base_path, cite).html if text else ""
                    for text, cite in self._wordings(change))
        return paragraph_diff(old, new)

    def version_url(self, version: Version) -> str:
        return self.urls.page(f"rules/{version.date.isoformat()}/")

    def resolver(self, day: date) -> markdown.Resolver:
        """Citations from something dated ``day`` link to the rulebook as it stood then."""
        version = self.rulebook.at(day)
        numbers = self._numbers(version) if version is not None else frozenset()

        def cite(number: str) -> str | None:
            if version is None or number not in numbers:
                return None
            return f"{self.version_url(version)}#{anchor(number)}"

        return cite

    def _numbers(self, version: Version) -> frozenset[str]:
        """The section numbers of a version, gathered once (thousands of posts cite)."""
        if version.date not in self._section_numbers:
            self._section_numbers[version.date] = frozenset(s.number for s in version.sections)
        return self._section_numbers[version.date]

    def cite_problem(self, source: str, line: int, number: str, day: date) -> Problem:
        version = self.rulebook.at(day)
        when = version.date.isoformat() if version else "(no rulebook yet)"
        return Problem(source, line, 0, f"[[rule:{number}]] cites a section that does not "
                       f"exist in the rulebook as of {day.isoformat()} (version {when})")

    def view(self, version: Version) -> VersionView:
        if version.date not in self._versions:
            self._versions[version.date] = self._make_view(version)
        return self._versions[version.date]

    def _make_view(self, version: Version) -> VersionView:
        cite = self.resolver(version.date)
        blocks = tuple(self._block(s, cite, version.date) for s in version.sections)
        contents = tuple(Link(f"#{s.anchor}", f"{s.number} {s.title}")
                         for s in version.sections if s.depth == 1)
        changes = tuple(self.change(c) for c in version.changes)
        return VersionView(_midnight(version.date, self._zone), self.version_url(version),
                           blocks, contents, changes)

    def _block(self, section: Section, cite: markdown.Resolver, day: date) -> Markup:
        """A section's HTML; the same Section object in two versions is rendered once.
        By identity: every Section lives in the rulebook as long as these views do, and
        hashing one hashes its whole text (a 5,000-post rulebook asks 165,000 times)."""
        key = (id(section), day if "[[rule:" in section.text else None)
        if key not in self._blocks:
            # By value across builds: a rule file edited is read again, every section anew.
            block = self._kept.get((section, key[1]))
            if block is None:
                problems = len(self.problems)
                view = self._section(section, cite, day)
                assert self.env is not None, "sections need the theme's templates"
                block = Markup(self.env.get_template("_rule_section.html").render(s=view))
                if len(self.problems) == problems:  # one with a problem says so every time
                    self._kept[(section, key[1])] = block
            self._blocks[key] = block
        return self._blocks[key]

    def _section(self, section: Section, cite: markdown.Resolver, day: date) -> SectionView:
        html = self._html.get(section.text)
        if html is None:
            body = self._rendered.get((section.text, day if "[[rule:" in section.text else None))
            if body is None:
                body = markdown.render(section.text, self.urls.base_path, cite)
            for number in body.unresolved:
                line = markdown.citation_line(section.text, number, section.line + 1)
                self.problems.append(Problem(section.source, line, 0, f"[[rule:{number}]] "
                                             "cites a section that is not in the rulebook at "
                                             "this section's date"))
            self.problems.extend(markdown.located(body, section.source, section.line + 1))
            html = Markup(body.html)
            if "[[rule:" not in section.text:  # citations link to one version: no reuse
                self._html[section.text] = html
        amended = tuple(Link(self.urls.page(r.url_path), f"{r.title}, {long_date(day)}")
                        for r, day in section.amended_by)
        return SectionView(section.number, section.title, section.anchor, section.depth,
                           html, amended)

    def change(self, change: Change) -> ChangeView:
        # Shown twice (its version's change log and its ruling's post): diffed once.
        # By identity: every Change lives in the rulebook as long as these views do.
        if id(change) not in self._changes:
            self._changes[id(change)] = self._change(change)
        return self._changes[id(change)]

    def _change(self, change: Change) -> ChangeView:
        a = change.amendment
        before, after = change.before, change.after
        verb = {"amend": "amended", "add": "added", "repeal": "repealed"}[a.action]
        shown = after if after is not None else before
        where = self.rulebook.at(a.effective) if after is not None else \
            self.rulebook.at(_day_before(a.effective))
        url = f"{self.version_url(where)}#{anchor(a.number)}" if where else ""
        title_diff = None
        if before is not None and after is not None and before.title != after.title:
            title_diff = word_diff(before.title, after.title)
        diff = self._diffs.pop(id(change), None)
        if diff is None:
            diff = self._text_diff(change)
        ruling = Link(self.urls.page(a.ruling.url_path), a.ruling.title)
        return ChangeView(verb, a.number, url, shown.title if shown else "", title_diff, diff,
                          ruling, _midnight(a.effective, self._zone))

    def changes_by(self, slug: str) -> tuple[ChangeView, ...]:
        """Every change the ruling post ``slug`` made, in the order it made them."""
        if self._by_ruling is None:  # grouped once, not searched again for every post
            self._by_ruling = {}
            for v in self.rulebook.versions:
                for c in v.changes:
                    self._by_ruling.setdefault(c.amendment.ruling.slug, []).append(c)
        return tuple(self.change(c) for c in self._by_ruling.get(slug, ()))


def citable(rulebook: Rulebook) -> tuple[tuple[date, frozenset[str]], ...]:
    """What decides where a citation of the rulebook points: each version's date and
    the sections it has (a citation links to its section in the version in force)."""
    return tuple((v.date, frozenset(s.number for s in v.sections)) for v in rulebook.versions)


def _day_before(day: date) -> date:
    return date.fromordinal(day.toordinal() - 1)


def render_rulebook(r: Renderer, views: RulebookViews) -> None:
    """``/rules/``, one page per version, and the change log."""
    rulebook = views.rulebook
    if not rulebook.versions:
        return
    views.prerender(r.markdown)
    versions = tuple(Link(views.version_url(v), long_date(v.date)) for v in rulebook.versions)
    current = rulebook.versions[-1]
    r.page("rules/index.html", "rulebook.html", "content/rules", title="The rulebook",
           description=f"The campaign rules as they stand, consolidated with every ruling up "
           f"to {long_date(current.date)}.", section="rulebook", version=views.view(current),
           versions=versions, is_current=True)
    for version in rulebook.versions:
        r.page(f"rules/{version.date.isoformat()}/index.html", "rulebook.html", "content/rules",
               title=f"The rulebook as of {long_date(version.date)}",
               description="The campaign rules exactly as they stood on "
               f"{long_date(version.date)}.",
               section="rulebook", version=views.view(version), versions=versions,
               is_current=False)
    log = tuple(views.view(v) for v in reversed(rulebook.versions) if v.changes)
    r.page("rules/changes/index.html", "rule_changes.html", "content/rules",
           title="Changes to the rulebook",
           description="Every ruling that changed the rules, with the words it changed.",
           section="rulebook", log=log)


def as_text(version: Version) -> str:
    """The rulebook of one version as plain Markdown, for reading in a terminal or editor."""
    lines = [f"# The rulebook as of {long_date(version.date)}", ""]
    for section in version.sections:
        lines.append(f"{'#' * (section.depth + 1)} {section.number} {section.title}")
        lines.append("")
        if section.text:
            lines += [section.text, ""]
        if section.amended_by:
            notes = "; ".join(f"{r.title}, {long_date(day)}" for r, day in section.amended_by)
            lines += [f"*Amended by {notes}.*", ""]
    return "\n".join(lines).rstrip() + "\n"
