"""While the build loads the campaign state, the worker that read the posts renders
their Markdown ahead, under the very cache keys the blog then looks up."""

from __future__ import annotations

from ftpress import markdown
from ftpress import site as build_site
from ftpress.buildcache import RenderCache
from ftpress.clock import build_now
from ftpress.parallel import flag
from ftpress.site import BuildOptions, load, render

from conftest import post

RULE = "---\nrule: 1\ntitle: Moving\ndate: 2026-03-02\n---\n## 1.1 Jumps\nA jump takes a week.\n"


class Never:
    def set(self) -> None:
        pass

    def is_set(self) -> bool:
        return False


def posts(n: int) -> dict[str, str]:
    return {f"content/posts/2026/04/{d:02d}-p{d}.md": post(
        title=f"Post {d}", date=f"2026-04-{d:02d}",
        body=f"Post {d} cites [[rule:1.1]] and *stresses* it.") for d in range(1, n + 1)}


def test_the_markdown_rendered_ahead_is_all_the_blog_asks_for(campaign, monkeypatch):
    root = campaign({**posts(5), "content/rules/01-moving.md": RULE})
    options = BuildOptions(build_now("2026-05-01T12:00:00+00:00"))
    site = load(root, options)
    cache = RenderCache(None)
    ahead = build_site._render_ahead(site.config, site.posts,
                                     build_site.load_rule_files(root / "content/rules", root),
                                     cache, Never())
    assert len(ahead) == 5
    for key, value in ahead.items():
        cache.put(key, value)
    rendered: list[str] = []
    real = markdown.render
    monkeypatch.setattr(markdown, "render", lambda text, *a, **k: (rendered.append(text),
                                                                  real(text, *a, **k))[1])
    render(site, cache=cache)
    assert not [text for text in rendered if text.startswith("Post ")]


def test_nothing_is_rendered_ahead_once_the_flag_is_raised(campaign):
    root = campaign(posts(3))
    site = load(root, BuildOptions(build_now("2026-05-01T12:00:00+00:00")))
    raised = flag(parallel=False)
    assert raised.is_set()
    assert build_site._render_ahead(site.config, site.posts, (), RenderCache(None), raised) == {}
