"""Dated posts: ``content/posts/YYYY/MM/DD-slug.md``.

A post's file name carries its date and slug, so the archive is readable in a
plain directory listing and in pull-request diffs. The front matter must agree
with the file name; slugs are unique across the whole campaign so that a post
can be named by its slug alone.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time
from pathlib import Path
from typing import Annotated, Literal
from zoneinfo import ZoneInfo

from pydantic import AfterValidator, ConfigDict, Field, TypeAdapter

from ftpress.content.frontmatter import split
from ftpress.content.rulebook import AmendMeta
from ftpress.errors import InputError, Problem, Problems
from ftpress.files import validation, yamlsource
from ftpress.files.nolinks import links_below
from ftpress.speed.executor import SERIAL, Executor
from ftpress.text.cleantext import LINE, TEXT, CleanText
from ftpress.text.written_dates import Stamp

POSTS_DIR = "content/posts"

#: The five kinds of post a campaign umpire writes, in the order menus show them.
KINDS: dict[str, tuple[str, str]] = {
    "rules": ("Rules", "The campaign rules as the umpire posts them."),
    "rulings": ("Rulings", "Clarifications, answers and amendments to the rules."),
    "cogitation": ("Cogitation", "The umpire thinking aloud about the campaign and its design."),
    "status": ("Status reports", "The state of play, turn by turn."),
    "guff": ("Guff", "Propaganda, jokes and other nonsense from the Reach."),
}
Kind = Literal["rules", "rulings", "cogitation", "status", "guff"]

TAG_PATTERN = r"^[a-z0-9]+(?:[-.][a-z0-9]+)*$"
_FILE_NAME = re.compile(r"(\d\d)-([a-z0-9]+(?:-[a-z0-9]+)*)\.md")
_YEAR, _MONTH = re.compile(r"\d{4}"), re.compile(r"\d\d")


def _each_once(tags: tuple[str, ...]) -> tuple[str, ...]:
    if len(set(tags)) != len(tags):
        raise ValueError("a tag is listed twice; give each tag once")
    return tags


def _alias(value: str) -> str:
    """An old URL → the output file that must redirect from it."""
    if "://" in value or value.startswith("//"):
        raise ValueError("an alias is a path on this site such as '/2007/05/old-name.html', "
                         "not a full URL")
    if any(c in value for c in "\\?#") or any(ord(c) < 32 for c in value):
        raise ValueError("an alias must be a plain path without '\\', '?', '#' or "
                         "control characters")
    parts = [p for p in value.strip("/").split("/") if p]
    if not parts or any(p in (".", "..") for p in parts):
        raise ValueError("an alias must be a path inside the site, without '.' or '..' parts")
    path = "/".join(parts)
    if not path.endswith((".html", ".htm")):
        path = posixpath.join(path, "index.html")
    return path


#: A calendar day, by a name that a field called ``date`` does not hide.
Day = date
Tag = Annotated[str, Field(pattern=TAG_PATTERN)]
FeedId = Annotated[str, Field(pattern=r"^[A-Za-z][A-Za-z0-9+.-]*:\S+$")]


@dataclass(frozen=True, slots=True)
class EditMeta:
    __pydantic_config__ = ConfigDict(extra="forbid")

    date: Stamp
    note: Annotated[str, Field(min_length=1), TEXT]


@dataclass(frozen=True, slots=True)
class PostMeta:
    """A post's front matter as written. Unknown keys are errors."""

    __pydantic_config__ = ConfigDict(extra="forbid", str_strip_whitespace=True)

    title: Annotated[str, Field(min_length=1), LINE]
    date: Stamp
    kind: Kind
    #: Each tag once (checked when the post is read; said here for editors).
    tags: Annotated[tuple[Tag, ...], Field(json_schema_extra={"uniqueItems": True}),
                    AfterValidator(_each_once)] = ()
    summary: CleanText | None = None
    draft: bool = False
    edits: tuple[EditMeta, ...] = ()
    #: Old URLs of this post; each gets a page that redirects here.
    aliases: tuple[Annotated[str, AfterValidator(_alias)], ...] = ()
    #: A stable Atom id (a URI such as ``urn:uuid:…``), so renaming never re-announces.
    id: FeedId | None = None
    #: Changes this post makes to the rulebook (sections amended, added, repealed).
    amends: tuple[AmendMeta, ...] = ()
    #: When those changes apply, if not from the post's own date.
    effective: Stamp | None = None


POST_META = TypeAdapter(PostMeta)


@dataclass(frozen=True, slots=True)
class Edit:
    date: datetime
    note: str


@dataclass(frozen=True, slots=True)
class Post:
    """A post, checked: dates are aware and in the campaign's time zone."""

    source: str
    slug: str
    title: str
    date: datetime
    kind: str
    tags: tuple[str, ...]
    summary: str | None
    draft: bool
    edits: tuple[Edit, ...]
    aliases: tuple[str, ...]
    id: str | None
    body: str
    body_line: int
    amends: tuple[AmendMeta, ...] = ()
    #: The day the amendments apply from, in the campaign's zone.
    effective: Day | None = None
    #: Line of each item of ``amends`` in the file.
    amend_lines: tuple[int, ...] = ()

    @property
    def updated(self) -> datetime:
        """When the post last changed: its newest edit, or its date."""
        return max([self.date, *(e.date for e in self.edits)])

    @property
    def url_path(self) -> str:
        """Output path of the post's page, relative to the site root."""
        d = self.date
        return f"posts/{d.year:04d}/{d.month:02d}/{d.day:02d}/{self.slug}/"

    def published(self, now: datetime, *, drafts: bool, future: bool) -> bool:
        """The one publish rule every output obeys."""
        return (drafts or not self.draft) and (future or self.date <= now)


def in_zone(value: datetime | date, zone: ZoneInfo) -> datetime:
    """A front-matter date as an aware datetime; zone-less values take the campaign's."""
    if not isinstance(value, datetime):
        value = datetime.combine(value, time(0, 0))
    if value.tzinfo is None:
        return value.replace(tzinfo=zone)
    return value.astimezone(zone)


def load_posts(root: Path, zone: ZoneInfo,
               read: Callable[[Path, str, ZoneInfo], Post] | None = None,
               executor: Executor = SERIAL) -> tuple[Post, ...]:
    """Every post under ``content/posts``, oldest first; all problems at once.

    ``read(file, rel, zone)`` reads one post (default: from its file; ``serve`` passes
    one that keeps the posts whose files did not change). Without one, ``executor``
    reads them (on every core, for a build: thousands of files parsed and checked)."""
    problems = Problems()
    base = root / POSTS_DIR
    files = sorted(p for p in base.rglob("*.md") if not p.name.startswith(".")) \
        if base.is_dir() else []
    if base.is_dir():  # a linked folder, which rglob passes over without a word
        problems.extend(links_below(base, POSTS_DIR))
    reader = read or _load_post

    def one(file: Path) -> Post | tuple[Problem, ...]:
        try:
            return reader(file, file.relative_to(root).as_posix(), zone)
        except InputError as exc:  # carried back as data from a worker
            return exc.problems

    posts: list[Post] = []
    for result in (executor if read is None else SERIAL).map(one, files):
        if isinstance(result, Post):
            posts.append(result)
        else:
            problems.extend(result)
    _check_unique_slugs(posts, problems)
    problems.raise_if_any()
    return tuple(sorted(posts, key=lambda p: (p.date, p.slug)))


def load_post(root: Path, rel: str, zone: ZoneInfo) -> Post:
    """The one post at ``rel`` (``content/posts/…``), checked on its own: not against
    the other posts (slugs), which only :func:`load_posts` sees."""
    return _load_post(root / rel, rel, zone)


def _load_post(file: Path, rel: str, zone: ZoneInfo) -> Post:
    # A post is DD-slug.md, or a page bundle: DD-slug/index.md with its files beside it.
    bundle = file.name == "index.md" and len(Path(rel).parts) == 6
    parts = file.relative_to(file.parents[3 if bundle else 2]).parts  # YYYY, MM, DD-slug…
    name = _FILE_NAME.fullmatch(file.parent.name + ".md" if bundle else file.name)
    layout_ok = (len(Path(rel).parts) in (5, 6) and (bundle or len(Path(rel).parts) == 5)
                 and _YEAR.fullmatch(parts[0]) is not None
                 and _MONTH.fullmatch(parts[1]) is not None)
    if name is None or not layout_ok:
        raise InputError([Problem(rel, 0, 0, "post file is misplaced or misnamed; expected "
                                      "content/posts/YYYY/MM/DD-slug.md (or DD-slug/index.md "
                                      "with the post's files beside it) with a slug of "
                                      "lowercase letters, digits and hyphens")])
    doc = split(yamlsource.read_text(file, rel), rel)
    meta = validation.validate(POST_META, doc.meta, rel)
    when = in_zone(meta.date, zone)
    problems = Problems()
    file_day = f"{parts[0]}-{parts[1]}-{name.group(1)}"
    if when.date().isoformat() != file_day:
        line, col = yamlsource.locate(doc.meta, ("date",))
        problems.add(rel, line, col, f"date {when.date().isoformat()} (in {zone.key}) does not "
                     f"match the file name's date {file_day}; rename the file or fix the date")
    edits = tuple(Edit(in_zone(e.date, zone), e.note) for e in meta.edits)
    for index, edit in enumerate(edits):
        if edit.date < when:
            line, col = yamlsource.locate(doc.meta, ("edits", index, "date"))
            problems.add(rel, line, col, "an edit cannot be dated before the post itself "
                         f"({when.isoformat()})")
    effective = in_zone(meta.effective, zone).date() if meta.effective else when.date()
    if meta.effective is not None and not meta.amends:
        line, col = yamlsource.locate(doc.meta, ("effective",))
        problems.add(rel, line, col, "'effective' dates the post's amendments, but it has no "
                     "'amends' list")
    problems.raise_if_any()
    return Post(
        source=rel, slug=name.group(2), title=meta.title, date=when, kind=meta.kind,
        tags=meta.tags, summary=meta.summary or None, draft=meta.draft,
        edits=tuple(sorted(edits, key=lambda e: e.date)), aliases=meta.aliases, id=meta.id,
        body=doc.body, body_line=doc.body_line, amends=meta.amends,
        effective=effective if meta.amends else None,
        amend_lines=tuple(yamlsource.locate(doc.meta, ("amends", i))[0]
                          for i in range(len(meta.amends))),
    )


def _check_unique_slugs(posts: list[Post], problems: Problems) -> None:
    first: dict[str, Post] = {}
    for post in sorted(posts, key=lambda p: p.source):
        if post.slug in first:
            problems.add(post.source, 1, 1, f"duplicate slug {post.slug!r}: "
                         f"{first[post.slug].source} already uses it; slugs are unique "
                         "across the campaign so that posts can be named by slug")
        else:
            first[post.slug] = post
