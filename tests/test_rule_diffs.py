"""What a ruling changed, as readers see it: diffs of the rendered text, paragraph by
paragraph, words marked only in small edits, rewrites shown whole."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from hypothesis import given
from hypothesis import strategies as st

from ftpress.content import markdown
from ftpress.render.htmldiff import paragraph_diff

from conftest import post


def diff(before: str, after: str) -> str:
    cite = {"8.1": "/rules/2026-03-02/#r-8-1", "10.6": "/rules/2026-03-02/#r-10-6"}.get
    later = {"8.1": "/rules/2026-05-27/#r-8-1", "10.6": "/rules/2026-05-27/#r-10-6"}.get
    return str(paragraph_diff(markdown.render(before, "/", cite).html,
                              markdown.render(after, "/", later).html))


def test_a_small_edit_marks_the_words_on_the_rendered_text():
    assert diff("A jump may cross **three** hexes.", "A jump may cross **two** hexes.") == (
        '<p class="diff-edit diff-p">A jump may cross <del><strong>three</strong></del>'
        '<ins><strong>two</strong></ins> hexes.</p>')


def test_a_citation_is_a_link_and_unchanged_when_only_its_version_date_moves():
    out = diff("Move as in [[rule:8.1]].", "Move as in [[rule:8.1]].")
    assert out == ('<p class="diff-same diff-p">Move as in '
                   '<a class="rule-ref" href="/rules/2026-05-27/#r-8-1">§8.1</a>.</p>')
    out = diff("Move as in [[rule:8.1]] and no more.", "Move as in [[rule:10.6]] and no more.")
    assert "[[rule:" not in out
    assert ('<del><a class="rule-ref" href="/rules/2026-03-02/#r-8-1">§8.1</a></del>'
            '<ins><a class="rule-ref" href="/rules/2026-05-27/#r-10-6">§10.6</a></ins>') in out


def test_neighbouring_word_changes_read_as_one_phrase_not_word_against_word():
    out = diff("A fleet may go from one world to the next.",
               "A fleet may go by a jump to the next.")
    assert "go <del>from one world</del><ins>by a jump</ins> to" in out


def test_a_rewritten_paragraph_is_shown_as_it_was_then_as_it_is():
    out = diff("Keep this paragraph as it is.\n\nIf a fleet meets a blockage it stops there.",
               "Keep this paragraph as it is.\n\nA fleet travelling along a blocked route "
               "waits at the last friendly system.")
    assert out.splitlines() == [
        '<p class="diff-same diff-p">Keep this paragraph as it is.</p>',
        '<p class="diff-old diff-p"><span class="diff-label">Before</span> <del>If a fleet '
        'meets a blockage it stops there.</del></p>',
        '<p class="diff-new diff-p"><span class="diff-label">After</span> <ins>A fleet '
        'travelling along a blocked route waits at the last friendly system.</ins></p>']


def test_paragraphs_are_aligned_so_an_inserted_one_leaves_the_others_unmarked():
    out = diff("First rule.\n\nSecond rule stands.",
               "First rule.\n\nA new paragraph between them, all of it fresh.\n\n"
               "Second rule stands.")
    assert out.splitlines() == [
        '<p class="diff-same diff-p">First rule.</p>',
        '<p class="diff-new diff-p"><span class="diff-label">Added</span> <ins>A new paragraph '
        'between them, all of it fresh.</ins></p>',
        '<p class="diff-same diff-p">Second rule stands.</p>']


def test_a_whole_new_section_needs_no_labels():
    assert diff("", "- one\n- two") == ('<p class="diff-new diff-li"><ins>one</ins></p>\n'
                                        '<p class="diff-new diff-li"><ins>two</ins></p>')


class _Balance(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.ok = True
        self.kept: list[str] = []  # text outside <del> and labels: the new wording
        self.was: list[str] = []  # text outside <ins> and labels: the old wording
        self._skip_new = self._skip_old = 0

    def handle_starttag(self, tag, attrs):
        self.open.append(tag)
        if tag == "del" or ("class", "diff-label") in attrs:
            self._skip_new += 1
        if tag == "ins" or ("class", "diff-label") in attrs:
            self._skip_old += 1

    def handle_endtag(self, tag):
        if not self.open or self.open.pop() != tag:
            self.ok = False
        if tag in ("del", "span"):
            self._skip_new -= 1
        if tag in ("ins", "span"):
            self._skip_old -= 1

    def handle_data(self, data):
        if not self._skip_new:
            self.kept.append(data)
        if not self._skip_old:
            self.was.append(data)


WORD = st.sampled_from(["fleet", "**fleet**", "world", "*world*", "route", "[[rule:8.1]]",
                        "jump", "`code`", "two", "three"])
TEXT = st.lists(st.lists(WORD, min_size=1, max_size=12).map(" ".join), max_size=4).map(
    "\n\n".join)


def words(html_text: list[str]) -> list[str]:
    return "".join(html_text).split()


@given(TEXT, TEXT)
def test_every_diff_is_balanced_and_holds_both_wordings(before, after):
    out = diff(before, after)
    check = _Balance()
    check.feed(out)
    assert check.ok and check.open == []
    plain = re.compile(r"<[^>]+>")
    new = markdown.render(after, "/", {"8.1": "/x/#r-8-1"}.get).html
    old = markdown.render(before, "/", {"8.1": "/x/#r-8-1"}.get).html
    assert words(check.kept) == plain.sub(" ", new).replace("&amp;", "&").split()
    assert words(check.was) == plain.sub(" ", old).replace("&amp;", "&").split()


def test_the_change_log_folds_each_ruling_and_opens_the_newest(campaign, run):
    root = campaign({
        "content/rules/08-movement.md": (
            "---\nrule: 8\ntitle: Movement\ndate: 2026-03-02\n---\n"
            "## 8.1 Jumps\nA jump may cross **three** hexes, as [[rule:8.2]] says.\n\n"
            "## 8.2 Routes\nRoutes are charted.\n\n## 8.3 Drift\nFleets drift.\n"),
        "content/posts/2026/03/24-clarifications.md": post(
            title="Clarifications", date="2026-03-24",
            extra='amends:\n  - amend: "8.1"\n    text: A jump may cross **two** hexes, as '
                  '[[rule:8.2]] says.\n'),
        "content/posts/2026/04/01-later.md": post(
            title="Later", date="2026-04-01", extra='amends:\n  - repeal: "8.3"\n'),
    })
    assert run("build", "--source", root, "--out", root / "_site")[0] == 0
    log = (root / "_site/rules/changes/index.html").read_text(encoding="utf-8")
    assert "[[rule:" not in log and "**" not in log
    assert log.count('<details class="ruling-fold"') == 2
    assert ('<details class="ruling-fold" open>\n    <summary><span class="ruling-title">Later'
            '</span> <span class="ruling-summary">§8.3 repealed</span></summary>') in log
    assert ('<details class="ruling-fold">\n    <summary><span class="ruling-title">'
            'Clarifications</span> <span class="ruling-summary">§8.1 amended</span>') in log
    assert ('<del><strong>three</strong></del><ins><strong>two</strong></ins> hexes, as '
            '<a class="rule-ref" href="/camp/rules/2026-03-24/#r-8-2">§8.2</a> says.') in log
