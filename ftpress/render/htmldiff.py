"""What a ruling changed in a section, shown on the rendered text a reader sees.

Both wordings are rendered first (citations become links, ``**two**`` becomes
bold two), then compared paragraph by paragraph: paragraphs are aligned with
each other, a paragraph edited in a few words gets its words marked (``<del>``
and ``<ins>``), and one rewritten beyond about half is shown whole, as it was and
then as it is, since interleaved old and new words read as nonsense. Every piece
of markup written here is balanced: inline elements (a link, bold) are closed at
the end of each marked run and opened again after it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from html.parser import HTMLParser

from markupsafe import Markup, escape

#: Elements whose content is one paragraph of the comparison.
_BLOCKS = frozenset({"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "td", "th", "dt",
                     "dd", "caption"})
_VOID = frozenset({"br", "img", "wbr", "hr", "input"})
#: Below this share of words in common (about half its words changed, or more) a
#: paragraph counts as rewritten, not edited: shown whole, as it was and as it is.
REWRITTEN = 0.6
#: Paragraphs with less in common than this are not paired at all.
_UNRELATED = 0.2
_WORDS = re.compile(r"\s+|[^\s]+")
_NAME = re.compile(r"<\s*([a-zA-Z][a-zA-Z0-9]*)")
_RULE_REF = re.compile(r'class="rule-ref"[^>]*?href="[^"#]*(#[^"]*)"|href="[^"#]*(#[^"]*)"'
                       r'[^>]*?class="rule-ref"')


@dataclass(frozen=True, slots=True)
class _Atom:
    """A word or a run of white space, with the inline elements around it."""

    text: str
    #: The start tags of the enclosing inline elements, outermost first, as rendered.
    marks: tuple[str, ...]
    void: bool = False

    @property
    def space(self) -> bool:
        return not self.void and self.text.isspace()

    @property
    def key(self) -> tuple[str, tuple[str, ...]]:
        """What two atoms must share to be the same word: a citation's link differs
        between versions only in the rulebook date it points to, so it is compared by
        the section it names."""
        return (" " if self.space else self.text, tuple(_signature(m) for m in self.marks))


@dataclass(frozen=True, slots=True)
class _Paragraph:
    kind: str  # the block element it came from: "p", "li", "h3", …
    atoms: tuple[_Atom, ...]

    @property
    def key(self) -> tuple[str, tuple[tuple[str, tuple[str, ...]], ...]]:
        return (self.kind, tuple(a.key for a in self.atoms))


def _signature(start_tag: str) -> str:
    match = _RULE_REF.search(start_tag)
    if match:
        return "rule-ref" + (match.group(1) or match.group(2))
    return start_tag


class _Splitter(HTMLParser):
    """Rendered HTML → its paragraphs of atoms."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.paragraphs: list[_Paragraph] = []
        self._kind = ""
        self._atoms: list[_Atom] = []
        self._inline: list[tuple[str, str]] = []

    def _flush(self) -> None:
        while self._atoms and self._atoms[-1].space:
            self._atoms.pop()
        if self._atoms:
            self.paragraphs.append(_Paragraph(self._kind or "p", tuple(self._atoms)))
        self._atoms = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        raw = self.get_starttag_text() or f"<{tag}>"
        if tag in _BLOCKS:
            self._flush()
            # A paragraph inside a list item is the item's.
            self._kind = "li" if tag == "p" and self._kind == "li" else tag
            self._inline = []
        elif tag in _VOID:
            self._atoms.append(_Atom(raw, self._marks(), void=True))
        elif tag not in {"ul", "ol", "table", "thead", "tbody", "tr", "blockquote", "div",
                         "dl", "section"}:
            self._inline.append((tag, raw))

    def handle_endtag(self, tag: str) -> None:
        if tag in _BLOCKS:
            self._flush()
            if tag == "li" or self._kind != "li":
                self._kind = ""
        elif any(name == tag for name, _ in self._inline):
            while self._inline and self._inline.pop()[0] != tag:
                pass

    def handle_data(self, data: str) -> None:
        for token in _WORDS.findall(data):
            if token.isspace() and (not self._atoms or self._atoms[-1].space):
                continue  # no paragraph starts with white space, none has two in a row
            self._atoms.append(_Atom(token, self._marks()))

    def close(self) -> None:
        super().close()
        self._flush()  # text after the last block (none, from our Markdown)

    def _marks(self) -> tuple[str, ...]:
        return tuple(raw for _, raw in self._inline)


def _paragraphs(html: str) -> list[_Paragraph]:
    splitter = _Splitter()
    splitter.feed(html)
    splitter.close()
    return splitter.paragraphs


def _run(atoms: tuple[_Atom, ...] | list[_Atom]) -> str:
    """Atoms as balanced HTML: inline elements opened and closed as the atoms need."""
    out: list[str] = []
    open_: list[str] = []
    for atom in atoms:
        common = 0
        while (common < len(open_) and common < len(atom.marks)
               and open_[common] == atom.marks[common]):
            common += 1
        for raw in reversed(open_[common:]):
            out.append(_end(raw))
        out.extend(atom.marks[common:])
        open_ = list(atom.marks)
        out.append(atom.text if atom.void else str(escape(atom.text)))
    out.extend(_end(raw) for raw in reversed(open_))
    return "".join(out)


def _end(start_tag: str) -> str:
    match = _NAME.match(start_tag)
    return f"</{match.group(1) if match else 'span'}>"


def _words(atoms: tuple[_Atom, ...]) -> int:
    return sum(not a.space for a in atoms)


def _likeness(a: _Paragraph, b: _Paragraph) -> float:
    """The share of words the two paragraphs have in common, 0 to 1."""
    total = _words(a.atoms) + _words(b.atoms)
    if not total:
        return 1.0
    matcher = SequenceMatcher(None, [x.key for x in a.atoms], [x.key for x in b.atoms],
                              autojunk=False)
    same = sum(_words(a.atoms[m.a:m.a + m.size]) for m in matcher.get_matching_blocks())
    return 2 * same / total


def _opcodes(a: tuple[_Atom, ...], b: tuple[_Atom, ...]) -> list[tuple[str, int, int, int, int]]:
    """Word-level edits, with a lone space kept between two edits folded into them:
    ``<del>one world</del><ins>one jump</ins>``, not word against word."""
    codes = SequenceMatcher(None, [x.key for x in a], [x.key for x in b],
                            autojunk=False).get_opcodes()
    merged: list[tuple[str, int, int, int, int]] = []
    for k, (op, i1, i2, j1, j2) in enumerate(codes):
        lone_space = (op == "equal" and 0 < k < len(codes) - 1
                      and all(x.space for x in a[i1:i2]))
        if (op != "equal" or lone_space) and merged and merged[-1][0] == "replace":
            _, p1, _, q1, _ = merged[-1]
            merged[-1] = ("replace", p1, i2, q1, j2)
        elif op != "equal" or lone_space:
            merged.append(("replace", i1, i2, j1, j2))
        else:
            merged.append((op, i1, i2, j1, j2))
    return merged


def _marked(a: _Paragraph, b: _Paragraph) -> str:
    out: list[str] = []
    for op, i1, i2, j1, j2 in _opcodes(a.atoms, b.atoms):
        if op == "equal":
            out.append(_run(b.atoms[j1:j2]))
            continue
        spans = (a.atoms[i1:i2], b.atoms[j1:j2])
        old, new = (_strip(span) for span in spans)
        # The space an edit starts or ends with stays outside its marks, once.
        lead = " " if any(span and span[0].space for span in spans) else ""
        tail = " " if any(span and span[-1].space for span in spans) else ""
        out.append(lead)
        if old:
            out.append(f"<del>{_run(old)}</del>")
        if new:
            out.append(f"<ins>{_run(new)}</ins>")
        out.append(tail)
    return "".join(out)


def _strip(atoms: tuple[_Atom, ...]) -> tuple[_Atom, ...]:
    start, end = 0, len(atoms)
    while start < end and atoms[start].space:
        start += 1
    while end > start and atoms[end - 1].space:
        end -= 1
    return atoms[start:end]


def _block(p: _Paragraph, css: str, body: str, label: str = "") -> str:
    tag = "pre" if p.kind == "pre" else "p"
    head = f'<span class="diff-label">{label}</span> ' if label else ""
    return f'<{tag} class="{css} diff-{p.kind}">{head}{body}</{tag}>'


def _align(old: list[_Paragraph], new: list[_Paragraph]) -> list[tuple[int | None, int | None]]:
    """Pairs of paragraphs, in reading order: (i, j) where old[i] became new[j],
    (i, None) where old[i] went, (None, j) where new[j] came. The pairing keeps the
    order of both texts and has the most words in common (a small table of the best
    alignment of every pair of prefixes)."""
    n, m = len(old), len(new)
    like = [[_likeness(a, b) for b in new] for a in old]
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            paired = like[i][j] + best[i + 1][j + 1] if like[i][j] >= _UNRELATED else -1.0
            best[i][j] = max(paired, best[i + 1][j], best[i][j + 1])
    pairs: list[tuple[int | None, int | None]] = []
    i = j = 0
    while i < n and j < m:
        if like[i][j] >= _UNRELATED and best[i][j] == like[i][j] + best[i + 1][j + 1]:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            pairs.append((i, None))
            i += 1
        else:
            pairs.append((None, j))
            j += 1
    pairs += [(k, None) for k in range(i, n)] + [(None, k) for k in range(j, m)]
    # A paragraph that went just where another came was replaced by it: shown as
    # before and after, however little the two share.
    merged: list[tuple[int | None, int | None]] = []
    for pair in pairs:
        if merged and pair[0] is None and merged[-1][1] is None and merged[-1][0] is not None:
            merged[-1] = (merged[-1][0], pair[1])
        else:
            merged.append(pair)
    return merged


def paragraph_diff(before_html: str, after_html: str) -> Markup:
    """``before_html`` → ``after_html`` (two renderings of a section's text) as HTML,
    one block per paragraph: unchanged, edited with its words marked, or, where
    rewritten, removed or added, shown whole as it was and as it is."""
    old, new = _paragraphs(before_html), _paragraphs(after_html)
    labelled = bool(old) and bool(new)  # a whole section added or repealed needs no labels
    out: list[str] = []
    codes = SequenceMatcher(None, [p.key for p in old], [p.key for p in new],
                            autojunk=False).get_opcodes()
    for op, i1, i2, j1, j2 in codes:
        if op == "equal":
            out += [_block(p, "diff-same", _run(p.atoms)) for p in new[j1:j2]]
            continue
        for i, j in _align(old[i1:i2], new[j1:j2]):
            a = old[i1 + i] if i is not None else None
            b = new[j1 + j] if j is not None else None
            if a is not None and b is not None and _likeness(a, b) >= REWRITTEN:
                out.append(_block(b, "diff-edit", _marked(a, b)))
                continue
            rewrite = a is not None and b is not None
            if a is not None:
                label = ("Before" if rewrite else "Removed") if labelled else ""
                out.append(_block(a, "diff-old", f"<del>{_run(a.atoms)}</del>", label))
            if b is not None:
                label = ("After" if rewrite else "Added") if labelled else ""
                out.append(_block(b, "diff-new", f"<ins>{_run(b.atoms)}</ins>", label))
    return Markup("\n".join(out))
