"""ftpress's one Markdown engine (markdown-it-py with mdit-py-plugins), as the build uses it.

The CommonMark spec's examples render as the spec says through :func:`markdown.render`,
the function every post, page and rule section goes through; the cases where an
earlier second engine went wrong are kept as regression tests; a post nested
deeper than the parser renders is reported at the place, never dropped or crashed
on; and the render cache's key moves with the libraries that shape the HTML.
"""

from __future__ import annotations

import json
import re
from importlib import metadata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ftpress.content import markdown
from ftpress.speed import buildcache
from ftpress.speed.buildcache import RenderCache

SPEC = Path(__file__).parent / "commonmark" / "spec-0.31.2.json"
EXAMPLES = {e["example"]: e for e in json.loads(SPEC.read_text(encoding="utf-8"))}
BASE = "/campaign/"

#: Examples whose expected HTML passes raw HTML through (a tag, a comment, a
#: processing instruction). The site escapes raw HTML, so that a post can show
#: markup but never inject it: its output differs from these by design.
RAW_HTML = frozenset({
    21, 31,  # a tag in the backslash-escape and entity sections
    *range(148, 192),  # HTML blocks
    201,  # a link destination that is left as text, with a tag in it
    308, 309,  # an HTML comment ending a list
    344,  # a tag beside a code span
    475, 476, 477,  # tags among emphasis delimiters
    491, 494, 524, 536,  # tags inside link text and destinations
    613, 614, 615, 616, 617, 623, *range(625, 632),  # raw inline HTML
    642, 643,  # a line break inside a tag
})

#: Characters the site's typographer writes for what the spec leaves as typed:
#: smart quotes, dashes, the ellipsis and the (c)/(r)/(tm)/+- signs.
TYPOGRAPHIC = {"“": "&quot;", "”": "&quot;", "‘": "'", "’": "'", "—": "---", "–": "--",
               "…": "...", "©": "(c)", "®": "(r)", "™": "(tm)", "±": "+-"}


def as_spec_writes_it(html: str, expected: str) -> str:
    """The site's HTML with its three deliberate departures from the spec's HTML undone.

    The site writes HTML void elements (``<br>``, where the spec writes XHTML's
    ``<br />``: done to ``expected`` instead), gives headings of levels 2 to 4 an
    id for links into a post, and sets typographic quotes and dashes where the
    spec keeps what was typed. Only a typographic character the spec's output does
    not itself contain is turned back, so none that the text wrote is changed.
    """
    html = re.sub(r'<(h[234]) id="[^"]*">', r"<\1>", html)
    for char, typed in TYPOGRAPHIC.items():
        if char not in expected:
            html = html.replace(char, typed)
    return html


def spec_html(number: int) -> str:
    """The spec's HTML for an example, void elements written as HTML writes them.

    markdown-it-py writes an empty block quote as ``<blockquote></blockquote>``
    where the spec has a newline inside (examples 218, 239, 240); markdown-it-py's
    own spec test accepts that difference, and so does this one.
    """
    html = EXAMPLES[number]["html"].replace(" />", ">")
    return html.replace("<blockquote>\n</blockquote>", "<blockquote></blockquote>")


@pytest.mark.parametrize("number", sorted(set(EXAMPLES) - RAW_HTML))
def test_commonmark_spec_example(number):
    expected = spec_html(number)
    got = markdown.render(EXAMPLES[number]["markdown"]).html
    assert as_spec_writes_it(got, expected) == expected


@pytest.mark.parametrize("number", sorted(RAW_HTML))
def test_spec_examples_left_out_are_raw_html_the_site_escapes(number):
    got = markdown.render(EXAMPLES[number]["markdown"]).html
    assert "&lt;" in got
    assert as_spec_writes_it(got, spec_html(number)) != spec_html(number)


# Where the compiled second engine (markdown-it-pyrs, patched to match) went wrong.
REGRESSIONS = {
    "a list after a quote is not swallowed by it": (
        "> Orders for the week\n2. Move to Marrow\n",
        '<blockquote>\n<p>Orders for the week</p>\n</blockquote>\n'
        '<ol start="2">\n<li>Move to Marrow</li>\n</ol>\n'),
    "an entity in an image's alt text is kept": (
        "![Fleet &amp; escorts](f.png)\n",
        '<p><img src="f.png" alt="Fleet &amp; escorts"></p>\n'),
    "a star before a pound sign and a letter does not open emphasis": (
        "*£*bravo\n", "<p>*£*bravo</p>\n"),
}


@pytest.mark.parametrize("text, html", REGRESSIONS.values(), ids=REGRESSIONS.keys())
def test_regression(text, html):
    assert markdown.render(text).html == html


# What the site enables beyond CommonMark, and the markup ftpress gives it.
EXTENSIONS = {
    "a table, aligned, in a scrolling region, with an escaped pipe": (
        "| a | b |\n|:--|--:|\n| 1 \\| 2 | `x` |\n",
        '<div class="table-wrap" tabindex="0" role="region" aria-label="Table">\n<table>\n'
        '<thead>\n<tr>\n<th style="text-align:left">a</th>\n<th style="text-align:right">b</th>\n'
        '</tr>\n</thead>\n<tbody>\n<tr>\n<td style="text-align:left">1 | 2</td>\n'
        '<td style="text-align:right"><code>x</code></td>\n</tr>\n</tbody>\n</table>\n</div>\n'),
    "strikethrough": ("~~gone~~ and ~~also~~\n", "<p><s>gone</s> and <s>also</s></p>\n"),
    "footnotes, one cited twice, under a hidden heading": (
        "One[^a] and two[^b] and one again[^a].\n\n[^a]: First.\n[^b]: Second.\n",
        '<p>One<sup class="footnote-ref"><a href="#fn1" id="fnref1">[1]</a></sup> and two'
        '<sup class="footnote-ref"><a href="#fn2" id="fnref2">[2]</a></sup> and one again'
        '<sup class="footnote-ref"><a href="#fn1" id="fnref1:1">[1:1]</a></sup>.</p>\n'
        '<hr class="footnotes-sep">\n<section class="footnotes">\n'
        '<h2 class="visually-hidden">Footnotes</h2>\n<ol class="footnotes-list">\n'
        '<li id="fn1" class="footnote-item"><p>First. <a href="#fnref1" class="footnote-backref">'
        '↩︎</a> <a href="#fnref1:1" class="footnote-backref">↩︎</a></p>\n</li>\n'
        '<li id="fn2" class="footnote-item"><p>Second. <a href="#fnref2" class="footnote-backref">'
        '↩︎</a></p>\n</li>\n</ol>\n</section>\n'),
    "typographic quotes, apostrophes, dashes, ellipsis and signs": (
        "The \"*Sa'Vasku*\" fleet's 'best' -- A---B... (c)\n",
        "<p>The “<em>Sa’Vasku</em>” fleet’s ‘best’ – A—B… ©</p>\n"),
}


@pytest.mark.parametrize("text, html", EXTENSIONS.values(), ids=EXTENSIONS.keys())
def test_extension(text, html):
    assert markdown.render(text).html == html


def test_twenty_thousand_reference_definitions_render():
    text = "".join(f"[ref{i}]: /posts/{i}/\n" for i in range(20_000)) + "See [ref19999].\n"
    assert markdown.render(text, BASE).html == \
        '<p>See <a href="/campaign/posts/19999/">ref19999</a>.</p>\n'


def test_a_list_nested_500_deep_is_reported_where_it_goes_too_deep():
    text = "".join("  " * depth + f"- level {depth + 1}\n" for depth in range(500))
    got = markdown.render(text)
    # The tenth list starts on the tenth line, its marker after 18 spaces.
    assert got.faults == (markdown.Fault(9, 19, "lists, block quotes and footnotes nested 10 "
                                            "deep; expected at most 9 inside one another"),)
    assert [str(p) for p in markdown.located(got, "content/posts/x.md", 6)] == [
        "content/posts/x.md:15:19: lists, block quotes and footnotes nested 10 deep; "
        "expected at most 9 inside one another"]


MARKERS = ["> ", "- ", "+ ", "1. ", "3) "]


@given(st.lists(st.sampled_from(MARKERS), min_size=1, max_size=2 * markdown.MAX_DEPTH))
def test_nesting_is_rendered_whole_up_to_the_limit_and_reported_beyond_it(markers):
    text = "intro\n\n" + "".join(markers) + "the innermost words\n"
    got = markdown.render(text)
    if len(markers) <= markdown.MAX_DEPTH:
        assert got.faults == ()
        assert "the innermost words" in got.html
    else:
        # The first container past the limit is the one reported, at its marker.
        col = len("".join(markers[:markdown.MAX_DEPTH])) + 1
        assert [(f.line, f.col) for f in got.faults] == [(2, col)]


def test_a_footnote_counts_as_a_level_of_nesting():
    text = "A note.[^1]\n\n[^1]: " + "> " * markdown.MAX_DEPTH + "deep\n"
    # The note is the first level, so the last quote is one too many.
    col = len("[^1]: ") + len("> ") * (markdown.MAX_DEPTH - 1) + 1
    assert [(f.line, f.col) for f in markdown.render(text).faults] == [(2, col)]


def test_faults_survive_the_render_cache():
    got = markdown.render("> " * 12 + "x\n")
    assert got.faults
    assert markdown.from_tuple(json.loads(json.dumps(markdown.as_tuple(got)))) == got


def cite(number: str) -> str | None:
    """Sections ending in 9 do not exist; the others point into the rulebook."""
    return None if number.endswith("9") else f"/campaign/rules/#s{number}"


def test_citations_link_or_are_reported_in_order_once_each():
    got = markdown.render("[[rule:19]] then [[rule:2|the rule]] then [[rule:9]] [^1]\n\n"
                          "[^1]: and [[rule:29]]\n", BASE, cite)
    assert got.unresolved == ("19", "9", "29")
    assert '<a class="rule-ref" href="/campaign/rules/#s2">the rule</a>' in got.html
    assert "<p>§19 then" in got.html


def test_the_base_path_goes_on_root_relative_links_and_images_only():
    html = markdown.render("[a](/x/) [b](//cdn.x/) [c](x/) ![d](/i.png) <https://e.x/>\n",
                           BASE).html
    assert 'href="/campaign/x/"' in html and 'src="/campaign/i.png"' in html
    assert 'href="//cdn.x/"' in html and 'href="x/"' in html and 'href="https://e.x/"' in html


def test_headings_get_ids_at_levels_two_to_four_only():
    html = markdown.render("# One\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n").html
    assert [level for level in "12345" if f'<h{level} id="' in html] == ["2", "3", "4"]


def test_a_heading_that_is_only_a_citation_gets_a_stable_id_of_its_own():
    html = markdown.render("## [[rule:4.1]]\n\n## [[rule:4.1]]\n\n## Sieges [[rule:4.2|the rule]]"
                           "\n\n## ...\n\n### 10.2 Sieges\n", BASE, cite).html
    assert re.findall(r'<h\d id="([^"]*)"', html) == [
        "rule-4-1", "rule-4-1-1", "sieges-the-rule", "section", "102-sieges"]


def test_a_citation_in_an_image_reads_in_its_alt_text_and_is_checked():
    got = markdown.render("![The map of [[rule:4.1]] and [[rule:5.2|the rule]] and [[rule:9]]]"
                          "(/map.png)\n", BASE, cite)
    assert 'alt="The map of §4.1 and the rule and §9"' in got.html
    assert got.unresolved == ("9",)


@pytest.mark.parametrize(("text", "html"), [
    ("[see [[rule:4.1]] here](/posts/x/)", '<p><a href="/campaign/posts/x/">see §4.1 here</a></p>'),
    ("[[[rule:4.1|the rule]]](/y)", '<p><a href="/campaign/y">the rule</a></p>'),
    ("[[rule:4.1]] [a [[rule:4.2]]](/z)",
     '<p><a class="rule-ref" href="/campaign/rules/#s4.1">§4.1</a> '
     '<a href="/campaign/z">a §4.2</a></p>'),
])
def test_a_citation_inside_a_link_keeps_the_link_and_is_not_a_link_itself(text, html):
    assert markdown.render(text + "\n", BASE, cite).html == html + "\n"


def test_a_citation_inside_a_link_is_still_checked():
    assert markdown.render("[a [[rule:9]]](/z)\n", BASE, cite).unresolved == ("9",)


def test_lead_and_word_count():
    got = markdown.render("## Heading\n\nThe *first* paragraph[^1]\nover [two](/x) lines.\n\n"
                          "Second.\n\n[^1]: A note.\n")
    assert got.lead == "The first paragraph over two lines."
    assert got.words == 10  # heading, paragraphs and note, as written (markup and all)


#: Every library whose output lands in the site: Markdown, templates, YAML-sourced
#: values, SVG maps, validated models.
SHAPING = ["markdown-it-py", "mdit-py-plugins", "jinja2", "pyyaml", "svgwrite", "pydantic"]


@pytest.mark.parametrize("library", SHAPING)
def test_a_changed_library_version_misses_the_render_cache(monkeypatch, library):
    text = "Unchanged *post*.\n"
    cache = RenderCache(None)
    key = markdown.cache_key(text, BASE, None)
    cache.put(key, markdown.as_tuple(markdown.render(text, BASE)))
    installed = metadata.version
    monkeypatch.setattr(metadata, "version",
                        lambda name: "999.0" if name == library else installed(name))
    buildcache.code_version.cache_clear()
    try:
        upgraded = markdown.cache_key(text, BASE, None)
    finally:
        monkeypatch.undo()
        buildcache.code_version.cache_clear()
    assert upgraded != key
    assert cache.get_many([upgraded]) == {}
    assert markdown.cache_key(text, BASE, None) == key  # and back again it hits
