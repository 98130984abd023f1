"""Markdown → HTML: CommonMark plus tables, footnotes, strikethrough, heading ids,
and rule citations: ``[[rule:10.2]]`` or ``[[rule:10.2|the siege rule]]``.

One parser instance serves the whole build. Raw HTML in Markdown is escaped,
not passed through: whatever a post says shows as text and cannot inject
markup. Root-relative links (``/posts/…``) get the site's base path, so the
same Markdown works at the domain root and under a GitHub Pages sub-path.
Lists, block quotes and footnotes nest at most :data:`MAX_DEPTH` deep: deeper,
the parser would drop the text, so a text that goes deeper is reported instead.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.parser_block import RuleFuncBlockType
from markdown_it.renderer import RendererHTML
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.anchors.index import slugify, unique_slug
from mdit_py_plugins.footnote import footnote_plugin

from ftpress.errors import Problem
from ftpress.speed.buildcache import code_version

DESCRIPTION_CHARS = 160
#: Levels markdown-it-py's CommonMark preset allows before it skips the rest of
#: a block without a word (a list takes two levels, its items' content being the
#: second; a block quote or a footnote one).
PARSER_LEVELS = 20
#: How many lists, block quotes and footnotes may sit inside one another: the
#: most that stays within :data:`PARSER_LEVELS`, so nothing within it is dropped.
MAX_DEPTH = (PARSER_LEVELS - 1) // 2
#: The block rules that open a container, whose contents are parsed one level down.
_CONTAINERS = ("blockquote", "list", "footnote_def")


@dataclass(frozen=True, slots=True)
class Fault:
    """Something in a Markdown text that cannot be rendered as written."""

    #: Line within the text (0 for its first) and column (1-based) of the offence.
    line: int
    col: int
    message: str


@dataclass(frozen=True, slots=True)
class Rendered:
    html: str
    #: The first paragraph as plain text, for listings and ``<meta name=description>``.
    lead: str
    words: int
    #: Section numbers cited with ``[[rule:…]]`` that the resolver could not find.
    unresolved: tuple[str, ...] = ()
    faults: tuple[Fault, ...] = ()


#: Given a section number, the URL of that section, or ``None`` if there is none.
Resolver = Callable[[str], "str | None"]
_CITE = re.compile(r"\[\[rule:(\d+(?:\.\d+)*)(?:\|([^\]\n]+))?\]\]")


def _cite_rule(state: StateInline, silent: bool) -> bool:
    if not state.src.startswith("[[rule:", state.pos):
        return False
    match = _CITE.match(state.src, state.pos)
    if match is None:
        return False
    if silent:
        # Asked only to step over a token while a link's text is measured: a
        # citation's brackets are left to count as the plain, balanced brackets
        # they are, so that a citation inside a link's text keeps the link a link
        # (markdown-it takes a '[' that opens a token there for a nested link).
        return False
    token = state.push("rule_ref", "", 0)
    token.meta = {"number": match.group(1), "text": match.group(2)}
    state.pos = match.end()
    return True


def _cite_text(token: Token) -> str:
    """What a citation reads as: its own words, or the section's number."""
    return str(token.meta["text"] or f"§{token.meta['number']}")


def _cite_url(token: Token, env: dict[str, Any]) -> str | None:
    """The cited section's URL, or None (and the number noted as unresolved)."""
    number = token.meta["number"]
    url = env["cite"](number) if env.get("cite") else None
    if url is None:
        env.setdefault("unresolved", []).append(number)
    return url


def _render_rule_ref(self: Any, tokens: list[Token], idx: int, options: Any,
                     env: dict[str, Any]) -> str:
    text = escapeHtml(_cite_text(tokens[idx]))
    url = _cite_url(tokens[idx], env)
    inside_link = sum(t.nesting for t in tokens[:idx] if t.type in ("link_open", "link_close"))
    if url is None or inside_link:  # (a link inside a link's text is not HTML)
        return text
    return f'<a class="rule-ref" href="{escapeHtml(url)}">{text}</a>'


def _heading_ids(state: StateCore) -> None:
    """Each ``##`` to ``####`` heading's id: its text as a slug (GitHub's rule), a
    citation counting as its words or as ``rule-4-1``; a second heading alike gets
    ``-1``, ``-2`` after it; a heading with no letter or digit is ``section``."""
    used: set[str] = set()
    for index, token in enumerate(state.tokens):
        if token.type != "heading_open" or token.tag not in ("h2", "h3", "h4"):
            continue
        words = []
        for child in state.tokens[index + 1].children or ():
            if child.type in ("text", "code_inline"):
                words.append(child.content)
            elif child.type == "rule_ref":
                words.append(child.meta["text"] or f"rule {child.meta['number']}"
                             .replace(".", "-"))
        slug = slugify("".join(words)) or "section"
        token.attrSet("id", unique_slug(slug, used))


def _guard_depth(rule: RuleFuncBlockType) -> RuleFuncBlockType:
    """``rule`` (one that opens a container), counting how deep containers are
    inside one another and noting in ``env`` the first that lies beyond MAX_DEPTH."""

    def guarded(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        if silent:  # asked whether the line could start one: nothing is parsed
            return rule(state, start, end, silent)
        depth = state.env.get("depth", 0) + 1
        state.env["depth"] = depth
        # Where the container's marker is (the rule moves these marks as it goes).
        at = state.bMarks[start] + state.tShift[start]
        try:
            opened = rule(state, start, end, silent)
        finally:
            state.env["depth"] = depth - 1
        if opened and depth == MAX_DEPTH + 1 and "too_deep" not in state.env:
            col = at - state.src.rfind("\n", 0, at)
            state.env["too_deep"] = Fault(
                start, col, f"lists, block quotes and footnotes nested {depth} deep; expected "
                f"at most {MAX_DEPTH} inside one another")
        return opened

    return guarded


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "typographer": True, "xhtmlOut": False,
                                   "maxNesting": PARSER_LEVELS})
    md.enable(["table", "strikethrough", "replacements", "smartquotes"])
    md.use(footnote_plugin)
    md.core.ruler.push("heading_ids", _heading_ids)
    # A <section> needs a heading to be valid HTML; footnotes get a hidden one.
    md.add_render_rule("footnote_block_open", lambda *_: (
        '<hr class="footnotes-sep">\n<section class="footnotes">\n'
        '<h2 class="visually-hidden">Footnotes</h2>\n<ol class="footnotes-list">\n'))
    # Wide tables scroll sideways on a phone; a scrolling region must take keyboard focus.
    md.add_render_rule("table_open", lambda *_: (
        '<div class="table-wrap" tabindex="0" role="region" aria-label="Table">\n<table>\n'))
    md.add_render_rule("table_close", lambda *_: "</table>\n</div>\n")
    md.inline.ruler.before("link", "rule_ref", _cite_rule)
    md.add_render_rule("rule_ref", _render_rule_ref)
    renderer = md.renderer
    assert isinstance(renderer, RendererHTML)  # the one renderer MarkdownIt makes
    for rule in ("link_open", "image"):
        md.add_render_rule(rule, _with_base_path(renderer.rules.get(rule)))
    for block_rule in md.block.ruler.__rules__:
        if block_rule.name in _CONTAINERS:
            md.block.ruler.at(block_rule.name, _guard_depth(block_rule.fn),
                              {"alt": block_rule.alt})
    return md


def _with_base_path(default: Any) -> Any:
    attr_of = {"link_open": "href", "image": "src"}

    def render(self: Any, tokens: list[Token], idx: int, options: Any, env: dict[str, Any]) -> str:
        token = tokens[idx]
        if token.type == "image":  # a citation in the alt text reads as its words there
            for child in token.children or ():
                if child.type == "rule_ref":
                    _cite_url(child, env)
                    child.type, child.content = "text", _cite_text(child)
        attr = attr_of[token.type]
        value = token.attrGet(attr)
        if isinstance(value, str) and value.startswith("/") and not value.startswith("//"):
            token.attrSet(attr, env.get("base_path", "/") + value.lstrip("/"))
        if default is not None:
            html: str = default(tokens, idx, options, env)
            return html
        plain: str = self.renderToken(tokens, idx, options, env)
        return plain

    return render


_MD = _parser()


def render(text: str, base_path: str = "/", cite: Resolver | None = None) -> Rendered:
    """Render one Markdown body; also return its lead paragraph and word count.

    ``cite`` resolves ``[[rule:…]]`` citations; those it cannot resolve are
    returned in ``unresolved`` (and shown as plain text) for the caller to report,
    as are, in ``faults``, the places where the text cannot be rendered as written.
    """
    env: dict[str, Any] = {"base_path": base_path, "cite": cite}
    tokens = _MD.parse(text, env)
    html = _MD.renderer.render(tokens, _MD.options, env)
    words = sum(len(t.content.split()) for t in tokens if t.type == "inline")
    faults = (env["too_deep"],) if "too_deep" in env else ()
    return Rendered(html, _lead(tokens), words, tuple(env.get("unresolved", ())), faults)


def located(rendered: Rendered, source: str, first_line: int) -> list[Problem]:
    """The faults of a text that starts at line ``first_line`` of ``source``, as problems."""
    return [Problem(source, first_line + f.line, f.col, f.message) for f in rendered.faults]


def cache_key(text: str, base_path: str, cite: Resolver | None) -> str:
    """A key for everything :func:`render` output depends on: the text, the base path,
    where each citation in it points, and the versions of ftpress and of the libraries
    that shape its output (:func:`~ftpress.speed.buildcache.code_version`)."""
    h = hashlib.sha256()
    h.update(f"{code_version()}\0{base_path}\0".encode())
    h.update(text.encode("utf-8"))
    for match in _CITE.finditer(text):
        h.update(f"\0{match.group(1)}={cite(match.group(1)) if cite else None}".encode())
    return h.hexdigest()


def as_tuple(rendered: Rendered) -> tuple[Any, ...]:
    """A cacheable (JSON-safe) form of a :class:`Rendered`."""
    return (rendered.html, rendered.lead, rendered.words, list(rendered.unresolved),
            [[f.line, f.col, f.message] for f in rendered.faults])


def from_tuple(value: tuple[Any, ...]) -> Rendered:
    html, lead, words, unresolved, faults = value
    return Rendered(html, lead, words, tuple(unresolved), tuple(Fault(*f) for f in faults))


@dataclass(frozen=True, slots=True)
class LocalTarget:
    """A link or image of a text that names a file beside it (``photo.png``,
    ``maps/t005.png``): no scheme, no root path, no fragment alone."""

    target: str
    image: bool
    #: Where it is written, counted from the text's first line and column (0 and 1).
    line: int
    col: int


_NOT_LOCAL = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|/|#|\?)")


#: Where a link's or image's destination is written: after "](" (inline), or after a
#: label's "]:" (a reference definition: group 2 is its colon). A footnote's label,
#: "[^1]:", is passed over whole: the footnotes plugin reads it before any reference
#: definition. An inline destination is looked at, not taken, so that one running on
#: cannot hide the next. Each match starts by taking the bracket and looks back at
#: which it was: the scan then skips to the next bracket, three times as fast as
#: trying each branch at every character (a serial step of every build's load).
_DESTINATION = re.compile(
    r"[\[\]](?:(?<=\[)\^[^\]\n]*\]:|(?<=\])(?=\(\s*<?([^\s)>]*))|(?<=\])(:))")


def may_name_a_file(text: str) -> bool:
    """Could ``text`` hold a link or image naming a file beside it? A scan that only
    ever says yes too often: every inline destination follows "](", and every
    reference definition's label ends "]:". A destination that starts with a scheme,
    a root path, a fragment or a query as written still does after its escapes and
    entities are decoded, since none of those characters can come from one."""
    for match in _DESTINATION.finditer(text):
        written, definition = match.group(1), match.group(2)
        if definition or (written and not _NOT_LOCAL.match(written)):
            return True
    return False


def local_targets(text: str) -> list[LocalTarget]:
    """Every link and image of ``text`` that names a file beside it, in order.

    A post with none is told apart by :func:`may_name_a_file` without parsing it
    again (the build parses every post once to render it)."""
    return targets_parsed(text) if may_name_a_file(text) else []


def targets_parsed(text: str) -> list[LocalTarget]:
    """What :func:`local_targets` finds, from a full parse of ``text``."""
    found: list[LocalTarget] = []
    lines = text.split("\n")
    for token in _MD.parse(text, {"base_path": "/", "cite": None}):
        if token.type != "inline" or not token.children:
            continue
        start, end = token.map if token.map else (0, len(lines))
        for child in token.children:
            attr = {"image": "src", "link_open": "href"}.get(child.type)
            value = child.attrGet(attr) if attr else None
            if not isinstance(value, str) or not value or _NOT_LOCAL.match(value):
                continue
            line, col = start, 1
            for offset in range(start, end):
                if (at := lines[offset].find(value)) >= 0:
                    line, col = offset, at + 1
                    break
            found.append(LocalTarget(value, child.type == "image", line, col))
    return found


def citation_line(text: str, number: str, first_line: int) -> int:
    """The line of a body (starting at ``first_line``) that cites section ``number``."""
    needle = re.compile(r"\[\[rule:" + re.escape(number) + r"(?:\||\]\])")
    for offset, line in enumerate(text.split("\n")):
        if needle.search(line):
            return first_line + offset
    return first_line


def _lead(tokens: list[Token]) -> str:
    for index, token in enumerate(tokens):
        if token.type == "paragraph_open" and index + 1 < len(tokens):
            text = plain_text(tokens[index + 1])
            if text:
                return text
    return ""


def plain_text(inline: Token) -> str:
    """The readable text of an inline token, markup and footnote marks dropped."""
    out: list[str] = []
    for child in inline.children or ():
        if child.type in ("text", "code_inline"):
            out.append(child.content)
        elif child.type == "rule_ref":
            out.append(child.meta["text"] or f"§{child.meta['number']}")
        elif child.type in ("softbreak", "hardbreak"):
            out.append(" ")
    return " ".join("".join(out).split())


def shorten(text: str, limit: int = DESCRIPTION_CHARS) -> str:
    """Cut ``text`` at a word boundary to at most ``limit`` characters."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:.-—")
    return cut + "…"
