"""Cheaper page templates give the same bytes: each post's card made once (``Cards``),
and markup that repeats from page to page made once per build (``memo``)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import jinja2
from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from ftpress.render.theme import BUILTIN, environment
from ftpress.render.turns import PowerRef, SystemRow
from ftpress.render.views import Cards, EditView, Link, Memo, PostView

from conftest import files_of, post

NOW = "2026-05-01"


def _env() -> jinja2.Environment:
    env = environment((BUILTIN,))
    env.globals["memo"] = Memo()
    return env


def _post(path: str, title: str = "A post", *, draft: bool = False, edited: bool = False,
          tags: tuple[str, ...] = ("fleet",), description: str = "Summary.") -> PostView:
    day = datetime(2026, 4, 7, 21, tzinfo=UTC)
    return PostView(
        source=f"content/{path}.md", path=path, url=f"/{path}", title=title, date=day,
        updated=datetime(2026, 4, 9, tzinfo=UTC) if edited else day, kind_id="rulings",
        kind=Link("/kinds/rulings/", "Rulings"), tags=tuple(Link(f"/tags/{t}/", t) for t in tags),
        description=description, html=Markup("<p>Body.</p>"),
        edits=(EditView(datetime(2026, 4, 9, tzinfo=UTC), "typo"),) if edited else (),
        words=2, draft=draft, feed_id=None, trail=())


def _direct(env: jinja2.Environment, view: PostView, *args: object) -> Markup:
    return env.get_template("_macros.html").module.card(view, *args)


def test_a_card_is_made_once_per_post_and_level_and_is_the_macros_own():
    env = _env()
    cards = Cards(env)
    view = _post("posts/2026/04/07/a/")
    first = cards(view)
    assert cards(view) is first  # the second listing joins the ready markup
    assert first == _direct(env, view) == _direct(env, view, 2)
    assert cards(view, 3) == _direct(env, view, 3) != first
    assert '<h3 class="card-title">' in cards(view, 3)


titles = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1,
                 max_size=20)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(titles, st.booleans(), st.booleans(), st.sampled_from((None, 2, 3))),
                min_size=1, max_size=6),
       st.lists(st.integers(0, 5), max_size=20))
def test_cards_give_what_the_macro_gives_in_any_order(posts, order):
    """Posts with any title, draft or edited, shown at any level, in any order."""
    env = _env()
    cards = Cards(env)
    views = [_post(f"posts/p{i}/", title, draft=draft, edited=edited)
             for i, (title, draft, edited, _) in enumerate(posts)]
    for i in [*order, *range(len(posts))]:
        if i < len(posts):
            args = () if posts[i][3] is None else (posts[i][3],)
            assert cards(views[i], *args) == _direct(env, views[i], *args)


def test_memo_calls_a_macro_once_for_equal_arguments():
    calls: list[tuple[object, ...]] = []

    def macro(*args: object) -> Markup:
        calls.append(args)
        return Markup(repr(args))

    memo = Memo()
    link = Link("/a/", "A")
    assert memo(macro, link, 2) == memo(macro, Link("/a/", "A"), 2) == Markup(repr((link, 2)))
    assert len(calls) == 1


def test_memo_keeps_apart_arguments_that_are_equal_but_print_differently():
    def macro(value: object) -> Markup:
        return Markup(str(value))

    memo = Memo()
    shown = [memo(macro, v) for v in (1, True, 1.0)]
    assert shown == ["1", "True", "1.0"]


def test_memo_renders_a_call_with_unhashable_arguments_every_time():
    calls: list[object] = []

    def macro(items: list[str]) -> Markup:
        calls.append(items)
        return Markup(", ".join(items))

    memo = Memo()
    assert memo(macro, ["a", "b"]) == memo(macro, ["a", "b"]) == "a, b"
    assert len(calls) == 2


@given(st.lists(st.integers(0, 3) | st.booleans() | st.lists(st.integers(0, 1), max_size=2),
                max_size=8))
def test_memo_each_joins_what_one_call_per_item_gives(items):
    """Hashable items are made once each (also for later single calls); lists every time."""
    calls: list[object] = []

    def macro(item: object) -> Markup:
        calls.append(item)
        return Markup("<i>{}</i>\n").format(item)

    memo = Memo()
    joined = memo.each(macro, items)
    assert joined == Markup("").join(Markup("<i>{}</i>\n").format(i) for i in items)
    hashable = {(type(i), i) for i in items if not isinstance(i, list)}
    assert len(calls) == len(hashable) + sum(isinstance(i, list) for i in items)
    singles = [memo(macro, i) for i in items]  # only the lists are made again
    assert len(calls) == len(hashable) + 2 * sum(isinstance(i, list) for i in items)
    assert singles == [Markup("<i>{}</i>\n").format(i) for i in items]


#: The systems table's body as turn.html wrote it before each row was memoised.
INLINE_ROWS = """\
{% from "_power.html" import power_link %}
  <tbody>
  {% for s in systems %}
    <tr>
      <th scope="row">{{ s.name }}</th>
      <td class="hex">{{ s.hex }}</td>
      <td class="holder">{{ power_link(s.owner) }}</td>
      <td class="num">{% if s.income is none %}unknown{% else %}{{ s.income }}{% endif %}</td>
      <td class="num">{% if s.idp is none %}unknown{% else %}{{ s.idp }}{% if s.idp != s.idp_full %} of {{ s.idp_full }}{% endif %}{% endif %}</td>
      <td class="notes">{{ s.works or "—" }}</td>
      {% for power in s.powers %}
      <td class="holder">{% if power %}{{ power_link(power) }}{% else %}—{% endif %}</td>
      {% endfor %}
    </tr>
  {% endfor %}
  </tbody>
"""
#: The same as turn.html writes it now: each different row made once.
MEMO_ROWS = """\
{% from "_system_row.html" import system_row %}
  <tbody>
{{ memo.each(system_row, systems) }}{# each row ends its own line #}
  </tbody>
"""

# The turn reports' own views, so the test reads what the template really gets.
powers = st.builds(PowerRef, st.sampled_from(("nac", "esu")), titles, st.just("#c33"),
                   st.sampled_from(("NAC", "ESU")), st.just("/players/nac/"))
counts = st.none() | st.integers(0, 12)
rows = st.builds(SystemRow, st.sampled_from(("vesper", "lumen")), titles, st.just("(1, -2)"),
                 st.none() | powers, counts, counts, counts,
                 st.sampled_from(("", "base", "supply depot, shipyard")),
                 st.lists(st.none() | powers, max_size=2).map(tuple))


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(rows, max_size=5), min_size=1, max_size=4))
def test_memoised_system_rows_are_the_inline_rows(turns):
    """Several turn reports in one build: rows seen before are reused, byte for byte."""
    env = _env()
    inline, memoised = env.from_string(INLINE_ROWS), env.from_string(MEMO_ROWS)
    for systems in turns:
        assert memoised.render(systems=systems) == inline.render(systems=systems)


# Whole sites: the listing templates as they were (the card macro imported, so
# called for every listing) against the templates as they are.
LISTINGS = {"list.html": ('import pagination %}', 'import card, pagination %}'),
            "archive.html": ('import breadcrumbs, post_line %}', 'import card, breadcrumbs, post_line %}')}


def _blog(campaign, extra: dict[str, str]) -> Path:
    posts = {f"content/posts/2026/04/{d:02d}-p{d}.md": post(
        title=f"Post <{d}> & co", date=f"2026-04-{d:02d}T{8 + d}:00:00+01:00",
        kind=("rulings", "status", "guff")[d % 3],
        extra=f"tags: [fleet, t{d % 2}]\n" + ("draft: true\n" if d == 5 else ""))
        for d in range(1, 9)}
    posts["content/posts/2026/04/03-twin.md"] = post(title="Same day", date="2026-04-03")
    return campaign({**posts, **extra})


def _build(run, root: Path, out: Path) -> dict[str, bytes]:
    code, _, err = run("build", "--source", root, "--out", out, "--now", NOW, "--drafts")
    assert (code, err) == (0, "")
    return files_of(out)


def test_listings_are_byte_for_byte_those_of_the_card_macro_called_every_time(
        campaign, run, tmp_path):
    root = _blog(campaign, {})
    now = _build(run, root, tmp_path / "now")
    for name, (new, old) in LISTINGS.items():
        text = (BUILTIN / name).read_text(encoding="utf-8")
        assert text.count(new) == 1
        (root / "themes/default").mkdir(parents=True, exist_ok=True)
        (root / "themes/default" / name).write_text(text.replace(new, old), encoding="utf-8")
    before = _build(run, root, tmp_path / "before")
    assert before == now
    assert sum(b'class="card ' in data for data in now.values()) > 20


def test_a_theme_that_overrides_the_card_macro_gets_its_own_cards(campaign, run, tmp_path):
    macros = (BUILTIN / "_macros.html").read_text(encoding="utf-8")
    assert macros.count('<article class="card ') == 1
    root = _blog(campaign, {"themes/default/_macros.html": macros.replace(
        '<article class="card ', '<article data-theme="mine" class="card ')})
    out = _build(run, root, tmp_path / "out")
    for page in ("index.html", "posts/2026/04/03/index.html", "tags/fleet/index.html",
                 "kinds/rulings/index.html"):
        text = out[page].decode()
        assert text.count('<article data-theme="mine" class="card ') == text.count('class="card ')
        assert text.count('class="card ') >= 1


def test_a_theme_whose_macros_have_no_card_fails_with_a_template_error(campaign, run, tmp_path):
    macros = (BUILTIN / "_macros.html").read_text(encoding="utf-8")
    start, end = macros.index("{% macro card("), macros.index("{% macro tag_list(")
    root = _blog(campaign, {"themes/default/_macros.html": macros[:start] + macros[end:]})
    out = tmp_path / "out"
    code, _, err = run("build", "--source", root, "--out", out, "--now", NOW)
    assert code == 1
    assert "list.html:" in err and "_macros.html has no macro 'card'; expected one" in err
    assert "Traceback" not in err
    assert not out.exists() or not any(out.iterdir())  # nothing written


def test_a_template_edited_between_builds_of_one_process_is_compiled_again(campaign, run,
                                                                          tmp_path):
    """Templates are compiled once per process and kept (``theme._Compiled``): an edit
    must still show in the next build, as it does under ``serve``."""
    page = '{% extends "base.html" %}{% block main %}<p>VERSION</p>{% endblock %}\n'
    root = _blog(campaign, {"themes/default/404.html": page.replace("VERSION", "first")})
    out = tmp_path / "out"
    assert run("build", "--source", root, "--out", out, "--now", NOW)[0] == 0
    assert "<p>first</p>" in (out / "404.html").read_text(encoding="utf-8")
    (root / "themes/default/404.html").write_text(page.replace("VERSION", "second"),
                                                   encoding="utf-8")
    assert run("build", "--source", root, "--out", out, "--now", NOW)[0] == 0
    text = (out / "404.html").read_text(encoding="utf-8")
    assert "<p>second</p>" in text and "<p>first</p>" not in text
