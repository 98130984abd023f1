"""Markdown → HTML: CommonMark plus tables, footnotes, strikethrough and heading ids.

One parser instance serves the whole build. Raw HTML in Markdown is escaped,
not passed through: whatever a post says shows as text and cannot inject
markup. Root-relative links (``/posts/…``) get the site's base path, so the
same Markdown works at the domain root and under a GitHub Pages sub-path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.anchors import anchors_plugin
from mdit_py_plugins.footnote import footnote_plugin

DESCRIPTION_CHARS = 160


@dataclass(frozen=True, slots=True)
class Rendered:
    html: str
    #: The first paragraph as plain text, for listings and ``<meta name=description>``.
    lead: str
    words: int


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "typographer": True, "xhtmlOut": False})
    md.enable(["table", "strikethrough", "replacements", "smartquotes"])
    md.use(footnote_plugin)
    md.use(anchors_plugin, min_level=2, max_level=4)
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


def render(text: str, base_path: str = "/") -> Rendered:
    """Render one Markdown body; also return its lead paragraph and word count."""
    env: dict[str, Any] = {"base_path": base_path}
    tokens = _MD.parse(text, env)
    html = _MD.renderer.render(tokens, _MD.options, env)
    words = sum(len(t.content.split()) for t in tokens if t.type == "inline")
    return Rendered(html, _lead(tokens), words)


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
        elif child.type in ("softbreak", "hardbreak"):
            out.append(" ")
    return " ".join("".join(out).split())


def shorten(text: str, limit: int = DESCRIPTION_CHARS) -> str:
    """Cut ``text`` at a word boundary to at most ``limit`` characters."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:.-—")
    return cut + "…"
