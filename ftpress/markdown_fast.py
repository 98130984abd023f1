"""The fast path of :mod:`ftpress.markdown`: the same output through markdown-it-pyrs.

markdown-it-pyrs (a Rust port of markdown-it) parses a post about ten times
faster than markdown-it-py, but it has no plugin API and its HTML differs from
ours in a handful of known ways. :func:`render` renders with it and then fixes
those up in Python: XHTML void tags, the table wrapper, footnote numbering and
the notes' hidden heading, heading ids, the base path, rule citations, and
smart quotes (pyrs's own pair quotes across blocks, so they are off and done
here with markdown-it-py's own pass). A plain document (the common post) gives
its lead, word count and apostrophes straight from the HTML; any other is read
from pyrs's syntax tree. Whenever a document uses something these fixes cannot
reproduce byte for byte, :func:`render` returns ``None`` and the caller uses the
markdown-it-py pipeline, which stays the reference; each such case is named
below where it is detected, and tests/test_markdown_engine.py holds one
example of each.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core.smartquotes import process_inlines
from markdown_it_pyrs import MarkdownIt, Node
from mdit_py_plugins.anchors.index import slugify, unique_slug

#: (html, lead, words, unresolved): the fields of ``ftpress.markdown.Rendered``.
Result = tuple[str, str, int, tuple[str, ...]]
Resolver = Callable[[str], "str | None"]

#: Headings that get an ``id`` (as ``anchors_plugin(min_level=2, max_level=4)`` gives them).
ANCHOR_LEVELS = "234"

#: CommonMark without raw HTML (ours escapes it, html=False), plus our extensions;
#: smart quotes are done in Python (pyrs carries open quotes from one block to the next).
_PARSER = MarkdownIt("zero").enable_many(
    ["blockquote", "code", "fence", "heading", "hr", "lheading", "list", "paragraph",
     "reference", "autolink", "backticks", "emphasis", "entity", "escape", "image", "link",
     "newline", "table", "strikethrough", "replacements", "footnote"])

_CITE = re.compile(r"\[\[rule:(\d+(?:\.\d+)*)(?:\|([^\]\n]+))?\]\]")
#: The reference parser takes a citation as one opaque token; pyrs sees its
#: characters as text. The two agree only if nothing around or inside it can
#: take part in other inline syntax, so the fast path accepts a citation only
#: when its label is letters, digits, spaces and ``,;:§%/`` and single ``.`` or
#: ``-`` (two in a row are typography) and it stands between
#: these neighbours (anything else: the reference pipeline).
_CITE_BEFORE = frozenset(" \t\n(")
_CITE_AFTER = frozenset(" \t\n.,;:)!?")
_LABEL_PUNCTUATION = frozenset(" ,;:§%/.-")
#: Anything that might be a link label starting with ``rule:`` outside a citation
#: (``[rule:1]: /x`` would turn the inside of ``[[rule:1]]`` into a link for pyrs).
_RULE_LABEL = re.compile(r"\[\s*rule:", re.IGNORECASE)

_BACKTICKS = re.compile(r"`+")
_LINK_OPEN = re.compile(r"\]\((?![^)\s]*\))")
_DEFINITION = re.compile(r"^[ >]*\[(?!\^)[^\]\n]+\]:", re.MULTILINE)
_FENCE = re.compile(r" {0,3}(`{3,})")
_FOOTNOTE_DEFINITION = re.compile(r"\[\^([^\]\n]*)\]:")
_EMPTY_ITEM = re.compile(r"\n[ >]*(?:[*+-]|\d{1,9}[.)])[ ]*(?:\n|$)")
_DELIMITER_ROW = re.compile(r"\|(?: *:?-+:? *\|)+ *$")
_ATX_LINE = re.compile(r" {0,3}#{1,6}(?: |$)")
_PIPE_ROW = re.compile(r"\|.*\| *$")
#: What markdown-it-py's typographic replacements look for. pyrs also applies
#: them inside code spans and image alt text, where ours do not.
_TYPOGRAPHY = re.compile(r"\+-|\.\.|\?\?\?\?|!!!!|,,|--|\((?:c|tm|r)\)", re.IGNORECASE)
_IMAGE_ON = re.compile(r"!\[(?:[^\n]|\n(?![ >]*\n))*")
#: A ' that is not between two letters or digits.
_LONE_QUOTE = re.compile(r"'(?:(?![^\W_])|(?<![^\W_]'))")
_NOT_PLAIN = ('"', "`", "&", "\\", "<", "![", "[]", "[ ", " ](")
_NOT_APOSTROPHE = ('"', "`", "&", "\\", "<", "](", "![")
_SPACED_DESTINATION = re.compile(r"\]\([^)\n]*[ \n]")
_PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.DOTALL)
#: Tags that join the words around them, and a note's back-reference (no word
#: of the source) with them.
_INLINE_TAG = re.compile(r' <a href="#fnref\d+" class="footnote-backref">\u21a9\ufe0e</a>'
                         r"|</?(?:em|strong|s|a|sup)\b[^>]*>")
_QUOTE_IN_TAG = re.compile(r"<[^>']*'")
_ODD_SPACE = re.compile(r"[^\S \n]")
_ODD_ASCII_SPACE = "\t\r\x0b\x0c\x1c\x1d\x1e\x1f"
_CODE = re.compile(r"(<code[^>]*>.*?</code>)", re.DOTALL)
_TAG = re.compile(r"<[^>]*>")
_HEADING = re.compile(rf"<h([{ANCHOR_LEVELS}])>(.*?)</h\1>", re.DOTALL)
_FOOTNOTE_REF = re.compile(
    r'<sup class="footnote-ref"><a href="#fn(\d+)" id="fnref(\d+)">\[\d+\]</a></sup>')
_FOOTNOTE_SUP = re.compile(r'<sup class="footnote-ref">.*?</sup>')
_FOOTNOTE_ITEM = re.compile(r'<li id="fn(\d+)" class="footnote-item">')
_BACKREF = re.compile(r'<a href="#fnref(\d+)" class="footnote-backref">')
_BASE_PATH = re.compile(r'(<a href="|<img src=")/(?!/)')


def render(text: str, base_path: str, cite: Resolver | None) -> Result | None:
    """Render ``text`` as ``ftpress.markdown.render`` would, or ``None`` if the fast
    path cannot promise the identical result for this document."""
    if not _accepts(text):
        return None
    try:
        html = _PARSER.render(text)
        if "[[rule:" in html and not _citations_only_in_text(html):
            return None
        plain = _read_plain(text, html)
        if plain is None:
            # Not plain text: the lead, the words and the quotes come from pyrs's tree.
            reading = _read(_PARSER.tree(text), text)
            if reading is None:
                return None
            lead, words = reading.lead or "", reading.words
            if reading.changed:
                placed = _place_quotes(html, "".join(reading.quotes))
                if placed is None:
                    return None
                html = placed
        else:
            lead, words, html = plain
    except BaseException as error:
        # pyo3 turns a Rust panic into PanicException, a BaseException. None is
        # known to remain after _accepts; should one, the reference renders.
        if type(error).__name__ != "PanicException":
            raise
        return None
    fixed = _fix_html(html, base_path)
    if fixed is None:
        return None
    unresolved: list[str] = []
    html = _resolve_citations(fixed, cite, unresolved)
    return html, lead, words, tuple(unresolved)


def _read_plain(text: str, html: str) -> tuple[str, int, str] | None:
    """The lead, the word count and the HTML with apostrophes of a plain document,
    read from its HTML alone; ``None`` if the document is not plain.

    Plain: no double quotes, code, escapes, entities, raw angle brackets, images,
    empty or space-edged link texts, link destinations with spaces or titles, and
    every ' between two letters or digits. Then every inline run's source splits
    into the same words as its HTML text (inline tags joined, block tags apart),
    and every ' in the text is one the reference makes an apostrophe."""
    if (any(mark in text for mark in _NOT_PLAIN) or "<pre>" in html
            or ("](" in text and _SPACED_DESTINATION.search(text))
            or ("'" in text and _LONE_QUOTE.search(text))):
        return None
    apostrophes = text.count("'")
    if apostrophes:
        if html.count("'") != apostrophes or _QUOTE_IN_TAG.search(html):
            return None  # one sits in a link target or an unused definition
        html = html.replace("'", "’")
    cut = html.find('<hr class="footnotes-sep"')
    lead = ""
    for match in _PARAGRAPH.finditer(html, 0, len(html) if cut < 0 else cut):
        if "<li>" in html[:match.start()]:
            return None  # a tight list item's hidden paragraph may come first
        lead = _plain_lead(match.group(1))
        if lead:
            break
    if not lead:
        return None  # the lead would come from a note, or there is none
    return lead, len(_TAG.sub(" ", _INLINE_TAG.sub("", html)).split()), html


def _plain_lead(inner: str) -> str:
    text = _TAG.sub("", _FOOTNOTE_SUP.sub("", inner.replace("<br />", " ")))
    text = _CITE.sub(_citation_label, text) if "[[rule:" in text else text
    return " ".join(_unescape(text).split())


def _accepts(text: str) -> bool:
    # Inline footnotes (^[...]): pyrs numbers and places them its own way.
    if "^[" in text:
        return False
    # Whitespace other than spaces and newlines (tabs, no-break spaces, CR, ...):
    # markdown-it-py trims lines with str.strip(), which takes all Unicode
    # whitespace; pyrs trims spaces and tabs only, and expands tabs its own way.
    if (_ODD_SPACE.search(text) if not text.isascii()
            else any(space in text for space in _ODD_ASCII_SPACE)):
        return False
    if "[^" in text and not _footnotes_plain(text):
        return False
    # An empty list item ("-" alone on its line): pyrs reads it as a lazy
    # continuation of a blockquote's paragraph where markdown-it-py starts a list.
    if _EMPTY_ITEM.search("\n" + text):
        return False
    # Three or more tildes in a row: the two parsers pair strikethrough runs
    # of odd lengths differently.
    if "~~~" in text:
        return False
    # A table that is not plainly one: the parsers disagree about tables that
    # interrupt a paragraph or sit in a container, and about loose pipe rows.
    if "-" in text and ("|" in text or ":" in text) and not _tables_plain(text):
        return False
    # Something typographic in or after an image's alt text in its paragraph:
    # pyrs applies replacements to alt text, ours do not.
    if "![" in text and any(_TYPOGRAPHY.search(alt) for alt in _IMAGE_ON.findall(text)):
        return False
    # A backtick run that closes no code span: pyrs panics on some of them ("[`").
    if "`" in text and not _backticks_pair(text):
        return False
    # "[label](" not followed by a plain destination and ")", in a document with
    # link reference definitions: where the inline link fails, the parsers
    # differ on whether the label is tried as a reference.
    if "](" in text and _LINK_OPEN.search(text) and _DEFINITION.search(text):
        return False
    # Something that is not a citation but might be taken as a link label ``rule:…``.
    if "rule:" not in text:
        return True
    citations = list(_CITE.finditer(text))
    if len(_RULE_LABEL.findall(text)) != len(citations):
        return False
    for match in citations:
        start, end = match.span()
        if start > 0 and text[start - 1] not in _CITE_BEFORE:
            return False
        if end < len(text) and text[end] not in _CITE_AFTER:
            return False
        label = match.group(2)
        if label is not None and (not all(c.isalnum() or c in _LABEL_PUNCTUATION for c in label)
                                  or ".." in label or "--" in label):
            return False
    return True


def _footnotes_plain(text: str) -> bool:
    """Whether every footnote definition starts its line, after a blank line or a
    definition, and no label is defined twice: pyrs keeps part of an indented
    definition's label in its text, does not let a definition interrupt a
    paragraph as markdown-it-py does, and keeps the first of two definitions
    where markdown-it-py keeps the last."""
    labels: set[str] = set()
    for match in _FOOTNOTE_DEFINITION.finditer(text):
        start = match.start()
        line = text.rfind("\n", 0, start) + 1
        if line != start and text[line:start].strip(" >"):
            continue  # not at the start of its line: no definition
        if line != start or match.group(1) in labels:
            return False
        labels.add(match.group(1))
        if line > 0:
            before = text[text.rfind("\n", 0, line - 1) + 1:line - 1]
            if before.strip(" ") and not _FOOTNOTE_DEFINITION.match(before):
                return False
    return True


def _tables_plain(text: str) -> bool:
    """Whether every line that might be a table's delimiter row belongs to a
    plain table: a pipe-fenced header row after a blank line, a heading or nothing,
    a pipe-fenced delimiter row of as many cells, body rows that start with a
    pipe, and a blank line or the end after them."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if "-" not in line or index == 0 or not lines[index - 1].strip(" ") \
                or line.strip(" |:-"):
            continue
        if "|" not in line and ":" not in line and "|" not in lines[index - 1]:
            # Dashes under a line without pipes: a setext heading or a rule.
            continue
        header = lines[index - 1]
        if not (_DELIMITER_ROW.match(line) and _PIPE_ROW.match(header)):
            return False
        if index >= 2 and lines[index - 2].strip(" ") and not _ATX_LINE.match(lines[index - 2]):
            return False
        if header.count("|") - header.count("\\|") != line.count("|"):
            return False
        for row in lines[index + 1:]:
            if not row.strip(" "):
                break
            if not _PIPE_ROW.match(row):
                return False
    return True


def _backticks_pair(text: str) -> bool:
    """Whether every backtick run pairs with a later one of its length on its own
    line and between the same table pipes (stricter than code spans need), and
    no code span holds only spaces or anything typographic replacements change."""
    if "\\`" in text:
        return False
    fence = ""
    for line in text.split("\n"):
        if "`" not in line:
            continue
        opening = _FENCE.match(line)
        if fence:
            # Inside a fenced block: only its closing line counts.
            if opening and opening.group(1).startswith(fence) and not line.strip(" `"):
                fence = ""
            continue
        if opening and "`" not in line[opening.end():]:
            fence = opening.group(1)
            continue
        for piece in line.split("|"):
            runs = list(_BACKTICKS.finditer(piece))
            lengths = [len(run.group()) for run in runs]
            at = 0
            while at < len(runs):
                if lengths[at] not in lengths[at + 1:]:
                    return False
                close = lengths.index(lengths[at], at + 1)
                code = piece[runs[at].end():runs[close].start()]
                # Spaces only, or something typographic: pyrs changes code
                # spans there, CommonMark and ours do not.
                if not code.strip(" ") or _TYPOGRAPHY.search(code):
                    return False
                at = close + 1
    # A fence left open to the end: pyrs ends its code with a newline.
    return not fence


def _citations_only_in_text(html: str) -> bool:
    # A citation inside an attribute (a link's destination or title, an image's
    # alt text, a code block's language) is something the reference treats in
    # ways the fast path does not copy.
    return not any("[[rule:" in tag for tag in _TAG.findall(html))


def _fix_html(html: str, base_path: str) -> str | None:
    # pyrs writes XHTML void elements; ours are HTML (xhtmlOut=False). Text and
    # attribute values are escaped, so " />" only ever ends a tag.
    html = html.replace(" />", ">")
    # An empty blockquote: ours puts its closing tag straight after the opening one.
    html = html.replace("<blockquote>\n</blockquote>", "<blockquote></blockquote>")
    if "<table>" in html:
        html = html.replace("<table>\n", '<div class="table-wrap" tabindex="0" role="region" '
                            'aria-label="Table">\n<table>\n')
        html = html.replace("</table>\n", "</table>\n</div>\n")
    if '<section class="footnotes">' in html:
        fixed = _fix_footnotes(html)
        if fixed is None:
            return None
        html = fixed
    if "<h" in html:
        html = _fix_headings(html)
    if '="/' in html:
        prefix = escapeHtml(base_path)
        html = _BASE_PATH.sub(lambda m: m.group(1) + prefix, html)
    return html


def _fix_footnotes(html: str) -> str | None:
    """Number the notes as ours do: by first reference, a later reference to the
    same note as N:1, N:2, ...; pyrs numbers notes by definition and every
    reference anew. Also add the hidden heading and put each note's first block
    on the line of its <li>."""
    cut = html.index('<hr class="footnotes-sep">')
    body, section = html[:cut], html[cut:]
    if "footnote-ref" in section:
        # A note that cites a note: ours number its marks in source order, pyrs
        # in output order.
        return None
    number: dict[str, str] = {}
    for match in _FOOTNOTE_REF.finditer(body):
        number.setdefault(match.group(1), str(len(number) + 1))
    seen: dict[str, int] = {}
    ident: dict[str, str] = {}

    def ref(match: re.Match[str]) -> str:
        note = number[match.group(1)]
        sub = seen.get(note, 0)
        seen[note] = sub + 1
        mark = ident[match.group(2)] = note if sub == 0 else f"{note}:{sub}"
        return (f'<sup class="footnote-ref"><a href="#fn{note}" id="fnref{mark}">'
                f"[{mark}]</a></sup>")

    body = _FOOTNOTE_REF.sub(ref, body)
    head, *items = _FOOTNOTE_ITEM.split(section)
    notes: list[tuple[int, str]] = []
    for note, item in zip(items[::2], items[1::2], strict=True):
        if note not in number or any(n not in ident for n in _BACKREF.findall(item)):
            # A note or back-reference in a form the patterns do not know.
            return None
        item = _BACKREF.sub(lambda m: f'<a href="#fnref{ident[m.group(1)]}" '
                            'class="footnote-backref">', item)
        notes.append((int(number[note]), f'<li id="fn{number[note]}" class="footnote-item">'
                      + item.removeprefix("\n")))
    if not notes or not notes[-1][1].endswith("</ol>\n</section>\n"):
        return None
    last = notes[-1]
    notes[-1] = (last[0], last[1].removesuffix("</ol>\n</section>\n"))
    head = head.replace('<section class="footnotes">\n<ol class="footnotes-list">\n',
                        '<section class="footnotes">\n<h2 class="visually-hidden">Footnotes</h2>\n'
                        '<ol class="footnotes-list">\n')
    return (body + head + "".join(item for _, item in sorted(notes))
            + "</ol>\n</section>\n")


def _fix_headings(html: str) -> str:
    slugs: set[str] = set()

    def heading(match: re.Match[str]) -> str:
        level, inner = match.group(1), match.group(2)
        # The anchors plugin builds the id from the heading's text and code,
        # leaving out citations, footnote marks and images.
        title = _CITE.sub("", _FOOTNOTE_SUP.sub("", inner))
        title = _unescape(_TAG.sub("", title))
        slug = unique_slug(slugify(title), slugs)
        return f'<h{level} id="{escapeHtml(slug)}">{inner}</h{level}>'

    return _HEADING.sub(heading, html)


def _unescape(text: str) -> str:
    # Only the four escapes escapeHtml writes occur in rendered text.
    return (text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
            .replace("&amp;", "&"))


def _resolve_citations(html: str, cite: Resolver | None, unresolved: list[str]) -> str:
    if "[[rule:" not in html:
        return html

    def one(match: re.Match[str]) -> str:
        number, label = match.group(1), match.group(2)
        shown = escapeHtml(label or f"§{number}")
        url = cite(number) if cite else None
        if url is None:
            unresolved.append(number)
            return shown
        return f'<a class="rule-ref" href="{escapeHtml(url)}">{shown}</a>'

    # Text inside code spans and blocks is never a citation.
    parts = _CODE.split(html)
    for index in range(0, len(parts), 2):
        if "[[rule:" in parts[index]:
            parts[index] = _CITE.sub(one, parts[index])
    return "".join(parts)


_INLINE = frozenset({"text", "text_special", "code_inline", "softbreak", "hardbreak", "em",
                     "strong", "strikethrough", "link", "image", "autolink", "footnote_ref",
                     "footnote_ref_anchor"})
_CELLS = frozenset({"paragraph", "heading", "lheading", "tcell"})
_BLOCKS = frozenset({"root", "blockquote", "bullet_list", "ordered_list", "list_item",
                     "code_block", "fence", "hr", "table", "thead", "tbody", "trow",
                     "footnote_container", "footnote_def", "definition"})
#: Inline nodes whose content the reference's smart quotes never change but
#: whose quote characters still show in the HTML text.
_VERBATIM = frozenset({"text_special", "code_inline"})
_QUOTES = "“”‘’"
_QUOTE_CHARS = re.compile("[\'\"]")
_LIST_MARKER = re.compile(rb"[ ]*(?:[*+-]|\d{1,9}[.)])")
_ATX_OPEN = re.compile(rb"[ ]{0,3}#{1,6}(?=[ ]|$)")
_BREAK = re.compile(rb"[ \\]*\n[ >]*")


class _Token:
    """What markdown-it-py's smart-quotes pass reads of an inline token."""

    __slots__ = ("content", "level", "original", "type")

    def __init__(self, kind: str, content: str, level: int) -> None:
        self.type = kind
        self.content = content
        self.level = level
        self.original = content


class _Reading:
    """The lead, the word count and the quote characters of one document's tree."""

    def __init__(self, source: bytes, quotes: bool, typography: bool) -> None:
        self.source = source
        self.lead: str | None = None
        self.words = 0
        self.ok = True
        #: Whether the document has any straight quote for smart quotes to turn.
        self.has_quotes = quotes
        #: Whether the document has anything typographic replacements would change.
        self.typography = typography
        #: Every quote character that reaches the HTML text, in document order,
        #: as the reference shows it.
        self.quotes: list[str] = []
        #: Whether smart quotes turned any of them.
        self.changed = False


def _read(tree: Node, text: str) -> _Reading | None:
    reading = _Reading(text.encode("utf-8"), "'" in text or '"' in text,
                       _TYPOGRAPHY.search(text) is not None)
    _block(reading, tree, in_quote=False)
    return reading if reading.ok else None


def _block(reading: _Reading, node: Node, in_quote: bool) -> None:
    name = node.name
    if name in _CELLS:
        span = _content_span(reading.source, node)
        if span is None:
            reading.ok = False
            return
        _run(reading, node.children, span, in_quote, name == "paragraph")
        return
    if name not in _BLOCKS or (node.srcmap is None and name not in ("root",
                                                                   "footnote_container")):
        # A node this reading does not know: leave the document to the reference.
        reading.ok = False
        return
    if name in ("code_block", "fence"):
        if reading.has_quotes:
            reading.quotes.append("".join(_QUOTE_CHARS.findall(node.meta["content"])))
        return
    if name == "footnote_container" and reading.lead is None:
        # No paragraph before the notes: the lead would come from a note, and
        # ours order notes by first reference where pyrs's tree has them by
        # definition.
        reading.ok = False
        return
    if name == "trow" and _plain_row(reading, node):
        return
    in_quote = in_quote or name == "blockquote"
    # A tight list item's paragraph is hidden: its inline nodes sit directly in
    # the item, and its source is what lies between the marker and the item's
    # blocks (pyrs's positions of inline nodes are not reliable enough).
    at = 0
    if name == "list_item":
        marker = _LIST_MARKER.match(reading.source, node.srcmap[0])
        at = marker.end() if marker else node.srcmap[0]
    pending: list[Node] = []
    for child in node.children:
        if child.name in _INLINE:
            pending.append(child)
            continue
        if pending:
            _loose_run(reading, node, pending, (at, _start(child)), in_quote)
            pending = []
        _block(reading, child, in_quote)
        if child.srcmap is not None:
            at = child.srcmap[1]
    if pending:
        _loose_run(reading, node, pending, (at, node.srcmap[1] if node.srcmap else at), in_quote)


def _plain_row(reading: _Reading, row: Node) -> bool:
    """Count the words of a table row without visiting its cells, when its
    pipes are plain cell borders and its only quotes are mid-word apostrophes."""
    if row.srcmap is None:
        return False
    line = reading.source[row.srcmap[0]:row.srcmap[1]].strip(b" ")
    if b"\\" in line or not (line.startswith(b"|") and line.endswith(b"|")):
        return False
    cells = line[1:-1].split(b"|")
    if len(cells) != len(row.children):
        return False
    if reading.has_quotes and (b"'" in line or b'"' in line or b"&" in line):
        text = line.decode("utf-8")
        if not _only_apostrophes(text):
            return False
        reading.quotes.append("’" * text.count("'"))
        reading.changed = True
    # Spaces and newlines are the only whitespace _accepts lets through.
    reading.words += sum(len(cell.split()) for cell in cells)
    return True


def _start(node: Node) -> int:
    return node.srcmap[0] if node.srcmap is not None else -1


def _loose_run(reading: _Reading, item: Node, nodes: list[Node], span: tuple[int, int],
               in_quote: bool) -> None:
    if item.name != "list_item" or span[0] < 0 or span[1] < span[0]:
        reading.ok = False
        return
    _run(reading, nodes, span, in_quote, True)


def _content_span(source: bytes, node: Node) -> tuple[int, int] | None:
    """Where the inline content of a paragraph, heading or table cell lies."""
    if node.srcmap is None:
        return None
    start, end = node.srcmap
    if node.name == "heading":
        # Past the opening #s; before a closing run of #s that follows a space.
        marker = _ATX_OPEN.match(source, start, end)
        if marker is None:
            return None
        start = marker.end()
        while end > start and source[end - 1] == 0x20:
            end -= 1
        closing = end
        while closing > start and source[closing - 1] == 0x23:
            closing -= 1
        if start < closing and source[closing - 1] == 0x20:
            end = closing
    elif node.name == "lheading":
        # All but the underline.
        cut = source.rfind(b"\n", start, end)
        if cut < 0 or source[cut + 1:end].strip(b" >=-"):
            return None
        end = cut
    return start, end


def _run(reading: _Reading, nodes: list[Node], span: tuple[int, int], in_quote: bool,
         paragraph: bool) -> None:
    """One inline run: what the reference holds in one ``inline`` token."""
    content = _run_source(reading, nodes, *span)
    if "\n" in content and in_quote:
        # A line break inside a code span or link in a blockquote: its ">"
        # markers are not in the reference's content.
        reading.ok = False
    reading.words += len(content.split())
    # Quote characters reach the text only from quotes, escapes and entities.
    quoted = reading.has_quotes and ("'" in content or '"' in content or "&" in content)
    lead = paragraph and reading.lead is None
    if not quoted and not lead:
        return
    if quoted and not lead and _only_apostrophes(content):
        # Every quote is a ' between two letters or digits in plain text: the
        # reference makes each one an apostrophe, whatever surrounds it.
        reading.quotes.append("’" * content.count("'"))
        reading.changed = True
        return
    tokens: list[_Token] = []
    _flatten(reading, nodes, 0, tokens)
    if quoted:
        if "'" in content or '"' in content:
            process_inlines(tokens, _SMART_QUOTES)  # type: ignore[arg-type]
        for token in tokens:
            if token.type in _VERBATIM or token.type == "text":
                original = token.original
                if "'" not in original and '"' not in original:
                    continue
                if token.content == original:
                    reading.quotes.append("".join(_QUOTE_CHARS.findall(original)))
                else:
                    reading.changed = True
                    changed = token.content
                    reading.quotes.append("".join(
                        changed[m.start()] for m in _QUOTE_CHARS.finditer(original)))
    if paragraph and reading.lead is None:
        lead = _plain_text(tokens)
        if lead:
            reading.lead = lead


def _only_apostrophes(text: str) -> bool:
    """Whether every quote of a run is a ' between two letters or digits in plain
    text: no double quote, and no markup that can hide quotes from the text
    (code, escapes, entities, link targets, images, autolinks)."""
    return not (any(mark in text for mark in _NOT_APOSTROPHE) or _LONE_QUOTE.search(text))


def _flatten(reading: _Reading, nodes: list[Node], level: int, out: list[_Token]) -> None:
    """The run as markdown-it-py's inline token list, each token at its nesting
    level (the text of a link or an emphasis is one deeper than its markers)."""
    for node in nodes:
        name = node.name
        if name in ("text", "text_special"):
            out.append(_Token(name, node.meta["content"], level))
        elif name == "code_inline":
            code = "".join(c.meta["content"] for c in node.children)
            if not code.strip(" "):
                # A code span of spaces only: pyrs trims it, CommonMark keeps it.
                reading.ok = False
            out.append(_Token(name, code, level))
        elif name in ("softbreak", "hardbreak"):
            out.append(_Token(name, "", level))
        elif name in ("em", "strong", "strikethrough"):
            out.append(_Token(name + "_open", "", level))
            _flatten(reading, node.children, level + 1, out)
            out.append(_Token(name + "_close", "", level))
        elif name == "link":
            out.append(_Token("link_open", "", level))
            _flatten(reading, node.children, level + 1, out)
            out.append(_Token("link_close", "", level))
        elif name == "autolink":
            # The reference writes an autolink's text as a plain text token.
            url = "".join(c.meta["content"] for c in node.children)
            if "'" in url or '"' in url:
                reading.ok = False
            out.append(_Token("link_open", "", level))
            out.append(_Token("text", url, level + 1))
            out.append(_Token("link_close", "", level))
        elif name == "image":
            # The reference keeps the raw alt source as an image's content; its
            # alt text is never given smart quotes or replacements.
            written = reading.source[node.srcmap[0]:node.srcmap[1]] if node.srcmap else b""
            alt = written[2:written.find(b"]")]
            if not written.startswith(b"![") or b"[" in alt or (
                    reading.typography and _TYPOGRAPHY.search(alt.decode("utf-8"))):
                reading.ok = False
            out.append(_Token("image", alt.decode("utf-8"), level))
        elif name in ("footnote_ref", "footnote_ref_anchor"):
            out.append(_Token(name, "", level))
        else:
            reading.ok = False


class _Options:
    quotes = _QUOTES


class _Md:
    options = _Options()


class _State:
    """The part of markdown-it-py's core state that its smart quotes read."""

    md = _Md()


_SMART_QUOTES = _State()


def _run_source(reading: _Reading, nodes: list[Node], start: int, end: int) -> str:
    """The source of one inline run with each line break's container prefix
    (blockquote markers, indentation) cut off, as the reference's content has it."""
    source = reading.source
    if source.find(b"\n", start, end) < 0:
        return source[start:end].decode("utf-8")
    breaks: list[tuple[int, int]] = []

    def find(node_list: list[Node]) -> None:
        for node in node_list:
            if node.name in ("softbreak", "hardbreak"):
                if node.srcmap is None:
                    reading.ok = False
                else:
                    breaks.append(node.srcmap)
            elif node.children:
                find(node.children)

    find(nodes)
    if not breaks:
        return source[start:end].decode("utf-8")
    pieces: list[bytes] = []
    at = start
    for brk_start, brk_end in breaks:
        brk = source[brk_start:brk_end]
        if brk_start < at or brk_end > end or not _BREAK.fullmatch(brk):
            reading.ok = False
            return ""
        pieces.append(source[at:brk_start])
        # Up to the line end the break is the reference's too ("  " or "\\");
        # what follows is the next line's container prefix.
        pieces.append(brk[: brk.index(b"\n")] + b" ")
        at = brk_end
    pieces.append(source[at:end])
    return b"".join(pieces).decode("utf-8")


def _plain_text(tokens: list[_Token]) -> str:
    out: list[str] = []
    for token in tokens:
        kind = token.type
        if kind == "text":
            content = token.content
            out.append(_CITE.sub(_citation_label, content) if "[[rule:" in content else content)
        elif kind in _VERBATIM:
            out.append(token.content)
        elif kind in ("softbreak", "hardbreak"):
            out.append(" ")
    return " ".join("".join(out).split())


def _citation_label(match: re.Match[str]) -> str:
    return match.group(2) or f"§{match.group(1)}"


_TAG_SPLIT = re.compile(r"(<[^>]*>)")
_QUOTE_MARK = re.compile(r"('|&quot;)")


def _place_quotes(html: str, quotes: str) -> str | None:
    """Put the reference's quote characters into pyrs's HTML, which has none turned.

    Tags aside, every ``&quot;`` and ``'`` in the HTML is one quote character of
    the text, in document order; ``None`` if the count does not match."""
    parts = _TAG_SPLIT.split(html)
    at = 0
    for index in range(0, len(parts), 2):
        part = parts[index]
        if "'" not in part and "&quot;" not in part:
            continue
        pieces = _QUOTE_MARK.split(part)
        for mark in range(1, len(pieces), 2):
            if at >= len(quotes):
                return None
            pieces[mark] = "&quot;" if quotes[at] == '"' else quotes[at]
            at += 1
        parts[index] = "".join(pieces)
    return "".join(parts) if at == len(quotes) else None
