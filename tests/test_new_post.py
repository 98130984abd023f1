"""`ftpress new post`: a new file with valid front matter, dated now, in the right place."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ftpress.content.posts import load_posts
from ftpress.content.scaffold import new_post, slugify
from ftpress.errors import InputError
from ftpress.files.clock import build_now
from ftpress.files.config import load_config

from conftest import SITE_YAML, post, write_files


def test_writes_a_post_that_builds(campaign, run):
    root = campaign({})
    code, out, err = run("new", "post", "Rule clarifications: §10.2", "--kind", "rulings",
                         "--tags", "rule-10,sieges", "--source", root,
                         "--now", "2026-05-20T22:30:00+00:00")
    assert (code, err) == (0, "")
    assert out.strip() == "content/posts/2026/05/20-rule-clarifications-10-2.md"
    text = (root / out.strip()).read_text()
    assert 'title: "Rule clarifications: §10.2"' in text
    assert "date: 2026-05-20T23:30:00+01:00" in text  # in the campaign's zone, with its offset
    assert "tags: [rule-10, sieges]" in text
    assert "id: urn:uuid:" in text
    code, _, err = run("build", "--source", root, "--out", root.parent / "out", "--now", "2026-06-01")
    assert (code, err) == (0, "")
    assert (root.parent / "out/posts/2026/05/20/rule-clarifications-10-2/index.html").is_file()


def test_refuses_a_taken_slug_and_bad_tags(campaign, run):
    root = campaign({"content/posts/2026/04/07-hello.md": post(title="Hello", date="2026-04-07")})
    code, _, err = run("new", "post", "Hello!", "--kind", "guff", "--source", root)
    assert code == 1
    assert "content/posts/2026/04/07-hello.md: slug 'hello' is already used" in err
    code, _, err = run("new", "post", "Other", "--kind", "guff", "--tags", "Bad Tag", "--source", root)
    assert code == 1
    assert "tag 'Bad Tag' is not lowercase words" in err


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(min_size=1, max_size=80).filter(lambda t: slugify(t)))
def test_any_title_round_trips_or_is_refused_clearly(tmp_path_factory, title):
    root = write_files(tmp_path_factory.mktemp("c"), {"site.yaml": SITE_YAML})
    now = build_now("2026-05-20T12:00:00+00:00")
    try:
        rel = new_post(root, title, "guff", (), now)
    except InputError as exc:
        assert "new post: the title: character U+" in str(exc)
        return
    (loaded,) = load_posts(root, load_config(root).zone)
    assert loaded.title == title.strip()
    assert loaded.source == rel.as_posix()
