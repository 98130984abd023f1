"""The compiled fast path of ftpress.markdown against the markdown-it-py reference.

Every test here states one thing: for the input, :func:`markdown_fast.render`
either declines (``None``) or gives exactly the :class:`markdown.Rendered` that
:func:`markdown.render_reference` gives, and :func:`markdown.render` always
gives the reference's result.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ftpress import markdown, markdown_fast

ROOT = Path(__file__).resolve().parent.parent
BASE = "/campaign/"


def cite(number: str) -> str | None:
    """Sections ending in 9 do not exist; the others point into the rulebook."""
    return None if number.endswith("9") else f"/campaign/rules/#s{number}"


def fast(text: str) -> markdown.Rendered | None:
    result = markdown_fast.render(text, BASE, cite)
    return None if result is None else markdown.Rendered(*result)


def check(text: str) -> markdown.Rendered | None:
    """The fast result, after asserting it is the reference's or absent."""
    reference = markdown.render_reference(text, BASE, cite)
    got = fast(text)
    assert got is None or got == reference, text
    assert markdown.render(text, BASE, cite) == reference
    return got


# Snippets the fast path must render itself, identically.
FAST = {
    "paragraphs and a lead": "First *lead* paragraph\nover two lines.\n\nSecond one.\n",
    "nested lists": "- one\n  - two\n    - three\n- four\n\n1. a\n2. b\n   1. c\n",
    "loose list": "- one\n\n- two\n\n  more of two\n",
    "emphasis with quotes and apostrophes":
        "The \"*Sa'Vasku*\" fleet's 'best' ships, players' \"choice\".\n",
    "smart quotes next to punctuation": "(\"a\") -\"b\"- 'c'. \"d,\" 'e'? it's 'tis 1\" x\n",
    "quotes across blocks stay apart": "\"open\n\n## close\"\n\n- 'a\n- b'\n",
    "quotes in nested emphasis": "> \"A\" \"B *g* c.\"\n\n## H\n",
    "footnotes": "One[^a] and two[^b] and one again[^a].\n\n[^a]: First.\n[^b]: Second.\n",
    "footnotes referenced out of definition order": "See[^2] then[^1].\n\n[^1]: One.\n\n[^2]: Two.\n",
    "unused footnote": "Text[^1].\n\n[^1]: Used.\n\n[^9]: Never cited.\n",
    "table with escaped pipes": "| a | b |\n|:--|--:|\n| 1 \\| 2 | `x` |\n| \"q\" | it's |\n",
    "table straight after a heading": "### 5.1.0 Craft class\n| Class | Mass |\n|---|---|\n| Scout | 4–10 |\n",
    "headings with duplicate text": "## Moves\n\n## Moves\n\n### Moves\n\n# Top\n\n#### Last ##\n",
    "heading with code and a citation": "## The `siege` rule [[rule:11.2]]\n",
    "citations": "See [[rule:8.2]] and [[rule:4.1|the rule on this]] and [[rule:9]].\n",
    "citation labels with dots, dashes and per cent": "[[rule:8.1|Rule 8.1]] and "
        "([[rule:3|a 20% allied-design discount]]) and [[rule:5|p. 4/5]]\n",
    "citation in a code block is not one": "Not a citation:\n\n    [[rule:2.2]]\n",
    "links with titles": "[one](/posts/x/ \"The 'first'\") and [two](https://e.x/ 'T')\n",
    "root-relative image": "![A map](/img/map.png \"Map\")\n",
    "autolinks": "<https://example.org/a> and <mailto:a@b.c>\n",
    "raw HTML is escaped": "<b>bold</b> & <i>x</i>\n\n<div>\nblock\n</div>\n",
    "entities": "&amp; &copy; &#35; &lt;tag&gt; caf&eacute;\n",
    "dashes and ellipses": "A--B, A---B, wait... (c) (tm) +- ok?.... no!!!!! yes,,\n",
    "hard breaks": "line one  \nline two\\\nline three\n",
    "setext headings": "Title\n=====\n\nSub title\nover two lines\n---\n",
    "reference links": "[a][one] and [b] and [c][]\n\n[one]: /posts/one/ \"One\"\n[b]: /b/\n[c]: https://c.example/\n",
    "blockquote over lines": "> quoted *text*\n> goes on \"here\"\nlazily\n",
    "fenced code": "```python\nx = \"a\" -- 'b' ...\n```\n",
    "strikethrough": "~~gone~~ and ~~also \"gone\"~~\n",
}

# Snippets the fast path must decline (each names why), rendered by the reference.
DECLINED = {
    "tab": "a\tb\n",
    "no-break space": "a\u00a0\n",
    "inline footnote": "Text^[inline note].\n",
    "footnote defined twice": "A[^1].\n\n[^1]: first\n\n[^1]: second\n",
    "footnote definition interrupting a paragraph": "A[^1].\nmore\n[^1]: note\n",
    "indented footnote definition": "A[^1].\n\n [^1]: note\n",
    "footnote citing a footnote": "A[^1].\n\n[^1]: B[^2]\n\n[^2]: C\n",
    "citation label with an apostrophe": "[[rule:3|the admiral's rule]]\n",
    "citation label with an ellipsis": "[[rule:3|and so on...]]\n",
    "citation label with a dash": "[[rule:3|this -- that]]\n",
    "citation next to a quote": "\"[[rule:3]]\"\n",
    "citation followed by a link destination": "[[rule:3]](/x)\n",
    "link label that looks like a rule": "[rule:3]\n\n[rule:3]: /x\n",
    "three tildes": "~~~a~~~\n",
    "citation in a code span (its neighbours are backticks)": "Use `[[rule:1.1]]` as is.\n",
    "code span across a table pipe": "| a |\n|---|\n| `x\\|y` |\n",
    "unpaired backtick after a bracket": "[`\n",
    "code span of spaces": "`    `\n",
    "code span with a replacement": "`a -- b`\n",
    "image alt with a replacement": "![a -- b](/i.png)\n",
    "table interrupting a paragraph": "text\n| a | b |\n|---|---|\n",
    "table without pipes": "a\n:--\n",
    "broken inline link beside a definition": "[ref]( x [y]\n\n[ref]: /r\n",
    "empty list item": "> a\n-\n",
    "lead only in a note": "| a |\n|---|\n| b[^2] c[^1] |\n\n[^1]: One.\n\n[^2]: Two.\n",
}


# Snippets where only equality is asserted: the fast path may take them or not.
EITHER = {
    "apostrophe in a link target and in an unused definition":
        "[a](/it's) and it's\n\n[x]: /don't\n",
    "apostrophe in an image alt": "![the fleet's](/f.png) sails\n",
    "lead after a tight list": "- it's\n- x\n\nThen the lead.\n",
    "no paragraph at all": "## Only 'a' heading\n",
}


@pytest.mark.parametrize("text", EITHER.values(), ids=EITHER.keys())
def test_fast_path_equals_the_reference_or_declines(text):
    check(text)


@pytest.mark.parametrize("text", FAST.values(), ids=FAST.keys())
def test_fast_path_gives_the_reference_bytes(text):
    assert check(text) is not None


@pytest.mark.parametrize("text", DECLINED.values(), ids=DECLINED.keys())
def test_fast_path_declines_what_it_cannot_copy(text):
    assert check(text) is None


def test_unresolved_citations_are_reported_in_order_once_each():
    got = check("[[rule:19]] then [[rule:2]] then [[rule:9]] [^1]\n\n[^1]: and [[rule:29]]\n")
    assert got is not None and got.unresolved == ("19", "9", "29")


def test_the_base_path_goes_on_root_relative_links_and_images_only():
    got = check("[a](/x/) [b](//cdn.x/) [c](x/) ![d](/i.png) <https://e.x/>\n")
    assert got is not None
    assert 'href="/campaign/x/"' in got.html and 'src="/campaign/i.png"' in got.html
    assert 'href="//cdn.x/"' in got.html and 'href="x/"' in got.html


def test_headings_get_ids_at_levels_two_to_four_only():
    got = check("# One\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n")
    assert got is not None
    assert [level for level in "12345" if f'<h{level} id="' in got.html] == \
        list(markdown_fast.ANCHOR_LEVELS)


def test_every_markdown_file_of_the_demo_and_examples():
    files = [path for folder in ("content", "examples") for path in (ROOT / folder).rglob("*.md")]
    assert files
    taken = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        if text.startswith("---\n") and "\n---\n" in text[3:]:
            text = text[text.index("\n---\n", 3) + 5:]
        taken += check(text) is not None
    # The fast path is the common case, not the exception.
    assert taken > len(files) * 3 // 4


WORDS = ["fleet", "Sa'Vasku", "it's", "players'", "'tis", "1\"", "é", "x", "42", "Halcyon"]
INLINE = ["*a b*", "**bold**", "_em_", "***x***", "*a **b** c*", "~~gone~~", "`code`",
          "`a \"q\" b`", "[link](/p/)", "[t](/p \"a 'b' c\")", "[ref]", "![alt](/i.png)",
          "<http://e.x/>", "&amp;", "&quot;", "&#39;", "\\*", "\\\"", "--", "---", "...", "(c)",
          "+-", "\"", "'", "(", ")", ",", ".", "!", "?", ":", "[^1]", "[^2]", "[[rule:3.1]]",
          "[[rule:2|the rule]]", "[[rule:9]]", "[[rule:8.1|Rule 8.1]]", "[[rule:3|a-b 20%.]]", "  \n", "\\\n", "\n", " ", "<b>", "</i>",
          "<!-- c -->"]
inline = st.lists(st.sampled_from(WORDS + INLINE), min_size=1, max_size=12).map(
    lambda parts: " ".join(parts).strip().replace("\n\n", "\n").strip("\n") or "word")
one_line = inline.map(lambda text: " ".join(text.split("\n")) or "word")


def _table(cells: list[str], columns: int) -> str:
    rows = [cells[i:i + columns] for i in range(0, len(cells), columns)]
    lines = ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |"
             for row in rows if len(row) == columns]
    return "\n".join([*lines[:1], "|" + "|".join(["---"] * columns) + "|", *lines[1:]])


block = st.one_of(
    inline,
    st.tuples(st.sampled_from(["# ", "## ", "### ", "#### "]), one_line).map("".join),
    st.lists(one_line, min_size=1, max_size=3).map(lambda ls: "\n".join("> " + x for x in ls)),
    st.lists(one_line, min_size=1, max_size=3).map(lambda ls: "\n".join("- " + x for x in ls)),
    st.lists(one_line, min_size=1, max_size=3).map(lambda ls: "\n\n".join("1. " + x for x in ls)),
    st.integers(1, 3).flatmap(lambda n: st.lists(one_line, min_size=n, max_size=3 * n).map(
        lambda cells: _table(cells, n) if len(cells) >= n else cells[0])),
    st.sampled_from(["```\ncode \"q\" 'a' [[rule:1]]\n```", "    indented 'code'", "---",
                     "<div>\nraw *block*\n</div>"]),
    st.tuples(st.sampled_from(["[^1]: ", "[^2]: "]), one_line).map("".join),
    st.tuples(inline, st.sampled_from(["\n===", "\n---"])).map("".join),
)
document = st.lists(block, min_size=1, max_size=6).map("\n\n".join)
soup = st.lists(st.sampled_from(WORDS + INLINE + ["# ", "> ", "- ", "1. ", "    ", "|",
                                                  "\n\n", "[^1]: n\n", "===\n", "`"]),
                max_size=30).map("".join)


PLAIN_WORDS = ["fleet", "Sa'Vasku", "it's", "rock'n'roll", "é", "42", "Halcyon", "*a b*", "**b**",
               "_em_", "***x***", "~~gone~~", "[link](/p/)", "[two words](/q)", "[a](/b)c", "[ref]",
               "[ z](/p)", "[](/p)", "--", "...", "(c)", "(", ")", ",", ".", "!", "[^1]", "x[^2]y",
               "[[rule:3.1]]", "[[rule:2|the rule]]", "[[rule:9]]", "  \n", "\n"]
plain_inline = st.lists(st.sampled_from(PLAIN_WORDS), min_size=1, max_size=12).map(
    lambda parts: " ".join(parts).strip().replace("\n\n", "\n").strip("\n") or "word")
plain_line = plain_inline.map(lambda text: " ".join(text.split("\n")) or "word")
plain_block = st.one_of(
    plain_inline,
    st.tuples(st.sampled_from(["# ", "## ", "### "]), plain_line).map("".join),
    st.lists(plain_line, min_size=1, max_size=3).map(lambda ls: "\n".join("> " + x for x in ls)),
    st.lists(plain_line, min_size=1, max_size=3).map(lambda ls: "\n".join("- " + x for x in ls)),
    st.lists(plain_line, min_size=1, max_size=3).map(lambda ls: "\n\n".join("1. " + x for x in ls)),
    st.integers(1, 3).flatmap(lambda n: st.lists(plain_line, min_size=n, max_size=3 * n).map(
        lambda cells: _table(cells, n) if len(cells) >= n else cells[0])),
    st.tuples(st.sampled_from(["[^1]: ", "[^2]: "]), plain_line).map("".join),
    st.sampled_from(["---", "[ref]: /r", "[ref]: /it's"]),
)
plain_document = st.lists(plain_block, min_size=1, max_size=6).map("\n\n".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plain_document)
def test_any_plain_document_fast_or_declined_equals_the_reference(text):
    check(text)


def test_a_plain_post_is_read_from_its_html_alone():
    text = ("The Sa'Vasku fleet [left](/posts/x/) at *dawn*.[^1] See [[rule:8.2]].\n\n"
            "## What's next\n\n| World | Owner |\n|---|---|\n| Tethys | the Sa'Vasku |\n\n"
            "- one\n- two\n\n[^1]: A note.\n")
    html = markdown_fast._PARSER.render(text)
    assert markdown_fast._read_plain(text, html) is not None
    assert check(text) is not None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document)
def test_any_document_fast_or_declined_equals_the_reference(text):
    check(text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(soup)
def test_any_markup_soup_fast_or_declined_equals_the_reference(text):
    check(text)
