"""Markdown → HTML: CommonMark plus tables, footnotes, strikethrough, heading ids,
and rule citations: ``[[rule:10.2]]`` or ``[[rule:10.2|the siege rule]]``.

One parser instance serves the whole build. Raw HTML in Markdown is escaped,
not passed through: whatever a post says shows as text and cannot inject
markup. Root-relative links (``/posts/…``) get the site's base path, so the
same Markdown works at the domain root and under a GitHub Pages sub-path.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.anchors import anchors_plugin
from mdit_py_plugins.footnote import footnote_plugin

from ftpress import markdown_fast
from ftpress.buildcache import code_version

DESCRIPTION_CHARS = 160


@dataclass(frozen=True, slots=True)
class Rendered:
    html: str
    #: The first paragraph as plain text, for listings and ``<meta name=description>``.
    lead: str
    words: int
    #: Section numbers cited with ``[[rule:…]]`` that the resolver could not find.
    unresolved: tuple[str, ...] = ()


#: Given a section number, the URL of that section, or ``None`` if there is none.
Resolver = Callable[[str], "str | None"]
_CITE = re.compile(r"\[\[rule:(\d+(?:\.\d+)*)(?:\|([^\]\n]+))?\]\]")


def _cite_rule(state: StateInline, silent: bool) -> bool:
    if not state.src.startswith("[[rule:", state.pos):
        return False
    match = _CITE.match(state.src, state.pos)
    if match is None:
        return False
    if not silent:
        token = state.push("rule_ref", "", 0)
        token.meta = {"number": match.group(1), "text": match.group(2)}
    state.pos = match.end()
    return True


def _render_rule_ref(self: Any, tokens: list[Token], idx: int, options: Any, env: dict) -> str:
    number = tokens[idx].meta["number"]
    text = escapeHtml(tokens[idx].meta["text"] or f"§{number}")
    url = env["cite"](number) if env.get("cite") else None
    if url is None:
        env.setdefault("unresolved", []).append(number)
        return text
    return f'<a class="rule-ref" href="{escapeHtml(url)}">{text}</a>'


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "typographer": True, "xhtmlOut": False})
    md.enable(["table", "strikethrough", "replacements", "smartquotes"])
    md.use(footnote_plugin)
    md.use(anchors_plugin, min_level=2, max_level=4)
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
    for rule in ("link_open", "image"):
        md.add_render_rule(rule, _with_base_path(md.renderer.rules.get(rule)))
    return md


def _with_base_path(default: Any) -> Any:
    attr_of = {"link_open": "href", "image": "src"}

    def render(self: Any, tokens: list[Token], idx: int, options: Any, env: dict) -> str:
        token = tokens[idx]
        attr = attr_of[token.type]
        value = token.attrGet(attr)
        if isinstance(value, str) and value.startswith("/") and not value.startswith("//"):
            token.attrSet(attr, env.get("base_path", "/") + value.lstrip("/"))
        if default is not None:
            return default(tokens, idx, options, env)
        return self.renderToken(tokens, idx, options, env)

    return render


_MD = _parser()


def render(text: str, base_path: str = "/", cite: Resolver | None = None) -> Rendered:
    """Render one Markdown body; also return its lead paragraph and word count.

    ``cite`` resolves ``[[rule:…]]`` citations; those it cannot resolve are
    returned in ``unresolved`` (and shown as plain text) for the caller to report.
    The compiled parser of :mod:`ftpress.markdown_fast` does the work wherever it
    gives exactly what :func:`render_reference` gives; elsewhere that does.
    """
    fast = markdown_fast.render(text, base_path, cite)
    if fast is not None:
        return Rendered(*fast)
    return render_reference(text, base_path, cite)


def render_reference(text: str, base_path: str = "/", cite: Resolver | None = None) -> Rendered:
    """:func:`render` through markdown-it-py and its plugins: the reference output."""
    env: dict[str, Any] = {"base_path": base_path, "cite": cite}
    tokens = _MD.parse(text, env)
    html = _MD.renderer.render(tokens, _MD.options, env)
    words = sum(len(t.content.split()) for t in tokens if t.type == "inline")
    return Rendered(html, _lead(tokens), words, tuple(env.get("unresolved", ())))


def cache_key(text: str, base_path: str, cite: Resolver | None) -> str:
    """A key for everything :func:`render` output depends on: the text, the base path,
    where each citation in it points, and the version of ftpress."""
    h = hashlib.sha256()
    h.update(f"{code_version()}\0{base_path}\0".encode())
    h.update(text.encode("utf-8"))
    for match in _CITE.finditer(text):
        h.update(f"\0{match.group(1)}={cite(match.group(1)) if cite else None}".encode())
    return h.hexdigest()


def as_tuple(rendered: Rendered) -> tuple:
    """A cacheable (JSON-safe) form of a :class:`Rendered`."""
    return (rendered.html, rendered.lead, rendered.words, list(rendered.unresolved))


def from_tuple(value: tuple) -> Rendered:
    html, lead, words, unresolved = value
    return Rendered(html, lead, words, tuple(unresolved))


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
