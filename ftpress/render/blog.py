"""The campaign blog: home, posts, archives by date, kinds, tags, pages, 404.

Input is already checked and already filtered by the publish rule; this module
only turns it into pages. Output paths follow the site map in DESIGN.md.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from markupsafe import Markup

from ftpress.content import markdown
from ftpress.content.pages import Page
from ftpress.content.posts import KINDS, Post
from ftpress.content.rulebook import Rulebook
from ftpress.errors import Problem
from ftpress.files.config import SiteConfig
from ftpress.render.pages import Renderer
from ftpress.render.rulebook import RulebookViews, citable, render_rulebook
from ftpress.render.theme import StaticFile
from ftpress.render.views import Cards, EditView, Group, Link, Pager, PostView, SiteView, Urls
from ftpress.render.words import plural
from ftpress.state.words import MONTHS, long_date

#: Top-level URL segments the site uses itself; pages may not take them.
RESERVED = frozenset({"posts", "kinds", "tags", "page", "static", "rules", "turns", "schemas",
                      "players", "systems", "search", "pagefind"})


@dataclass(frozen=True, slots=True)
class Blog:
    """Everything the blog pages are made from."""

    config: SiteConfig
    posts: tuple[Post, ...]  # published, oldest first
    pages: tuple[Page, ...]
    rulebook: Rulebook
    #: The campaign keeps a state, so the menu links its powers and systems.
    campaign: bool = False


def site_view(blog: Blog, urls: Urls, statics: Sequence[StaticFile]) -> SiteView:
    """What every page shares: titles, menu, stylesheet and feed URLs."""
    config = blog.config
    css = next((s for s in statics if s.path == "static/style.css"), None)
    css_url = urls.page("static/style.css") + (f"?v={css.fingerprint}" if css else "")
    return SiteView(
        title=config.title, description=config.description, author=config.author,
        language=config.language, base_path=config.base_path, base_url=config.base_url,
        feed_url=urls.page("feed.xml"), css_url=css_url, nav=_nav(blog, urls),
        kinds=tuple(Link(urls.page(f"kinds/{k}/"), label) for k, (label, _) in KINDS.items()),
    )


def render_blog(blog: Blog, r: Renderer, statics: Sequence[StaticFile],
                headline: object = None) -> tuple[tuple[PostView, ...], list[Problem]]:
    """Queue every blog page on ``r`` (the caller flushes it).

    ``headline``, when the campaign has recorded turns, is the latest turn's view:
    the home page leads with it.

    Returns the post views, newest first, and the citations that did not resolve.
    """
    config, urls = blog.config, r.urls
    rules = RulebookViews(blog.rulebook, urls, blog.posts[0].date if blog.posts else None, r.env,
                          r.kept("rule sections", (urls.base_path, citable(blog.rulebook)),
                                 ("_rule_section.html",)))
    rules.diff_ahead(r.markdown, r.memo_many)  # ruling posts show their changes
    for static in statics:
        r.out.add(static.path, static.data, "theme")
    # Markdown is most of a build's work: cached between builds, rendered by the executor.
    bodies = r.markdown([(p.body, rules.resolver(p.date.date())) for p in blog.posts])
    views = tuple(reversed([_post_view(p, b, urls, rules) for p, b in zip(blog.posts, bodies,
                                                                        strict=True)]))

    cards = Cards(r.env)  # shared by every listing: each post's card is made once
    _listing(r, cards, views, "", "Latest posts", config.title, config.description, "home",
             config.paginate, headline=headline)
    _post_pages(r, views)
    _archives(r, cards, views)
    _kinds(r, cards, views, config.paginate)
    _tags(r, cards, views, config.paginate, blog.rulebook)
    render_rulebook(r, rules)
    today = rules.rulebook.current.date if rules.rulebook.current else None
    for page in blog.pages:
        # Pages are undated: their citations point at the rulebook as it stands.
        body = markdown.render(page.body, config.base_path,
                               rules.resolver(today) if today else None)
        rules.problems.extend(rules.cite_problem(page.source, markdown.citation_line(
            page.body, n, page.body_line), n, today or date.min) for n in body.unresolved)
        rules.problems.extend(markdown.located(body, page.source, page.body_line))
        r.page(page.url_path + "index.html", "page.html", page.source, title=page.title,
               description=page.summary or markdown.shorten(body.lead), section=page.slug,
               body=Markup(body.html), heading=page.title)
    for post in blog.posts:
        for alias in post.aliases:
            r.page(alias, "alias.html", post.source, title=f"Moved: {post.title}",
                   description=f"This page has moved to {urls.absolute(post.url_path)}",
                   noindex=True, target_title=post.title, target_url=urls.absolute(post.url_path),
                   target_path=urls.page(post.url_path), lead="This post has moved to")
    if config.search:
        r.page("search/index.html", "search.html", "theme", title="Search",
               description="Search every post, rule section and turn report.", section="search")
    r.page("404.html", "404.html", "theme", title="Page not found",
           description="There is no page at this address.", noindex=True,
           recent=views[:5], search_url=urls.page("search/") if config.search else "")
    return views, rules.problems


def render_post(blog: Blog, r: Renderer, index: int) -> str:
    """Queue the page of ``blog.posts[index]`` alone, exactly as :func:`render_blog`
    would (it links its neighbours); return its output path.

    For ``ftpress serve``: an edited post's page is rewritten before the rest of the site.
    """
    rules = RulebookViews(blog.rulebook, r.urls, blog.posts[0].date, r.env)
    start = max(0, index - 1)
    posts = blog.posts[start:index + 2]  # the post and its neighbours, oldest first
    bodies = r.markdown([(p.body, rules.resolver(p.date.date())) for p in posts])
    views = tuple(reversed([_post_view(p, b, r.urls, rules)
                            for p, b in zip(posts, bodies, strict=True)]))  # newest first
    _post_pages(r, views, only=len(posts) - 1 - (index - start))
    return blog.posts[index].url_path + "index.html"


def _nav(blog: Blog, urls: Urls) -> tuple[Link, ...]:
    links = [Link(urls.page(""), "Home", key="home")]
    if blog.rulebook.versions:
        links.append(Link(urls.page("rules/"), "Rulebook", key="rulebook"))
    if blog.campaign:
        links += [Link(urls.page("turns/"), "Turns", key="turns"),
                  Link(urls.page("players/"), "Powers", key="players"),
                  Link(urls.page("systems/"), "Systems", key="systems")]
    links += [Link(urls.page("posts/"), "Archive", key="archive"),
              Link(urls.page("kinds/"), "Kinds", key="kinds"),
              Link(urls.page("tags/"), "Tags", key="tags")]
    if blog.config.search:
        links.append(Link(urls.page("search/"), "Search", key="search"))
    links += [Link(urls.page(p.url_path), p.title, key=p.slug) for p in blog.pages]
    return tuple(links)


def _post_view(post: Post, body: markdown.Rendered, urls: Urls,
               rules: RulebookViews) -> PostView:
    day = post.date.date()
    rules.problems.extend(
        rules.cite_problem(post.source, markdown.citation_line(post.body, n, post.body_line), n,
                           day) for n in body.unresolved)
    rules.problems.extend(markdown.located(body, post.source, post.body_line))
    d = post.date
    trail = (
        Link(urls.page("posts/"), "Archive"),
        Link(urls.page(f"posts/{d.year:04d}/"), str(d.year)),
        Link(urls.page(f"posts/{d.year:04d}/{d.month:02d}/"), MONTHS[d.month - 1]),
        Link(urls.page(f"posts/{d.year:04d}/{d.month:02d}/{d.day:02d}/"), str(d.day)),
    )
    return PostView(
        source=post.source, path=post.url_path, url=urls.page(post.url_path), title=post.title,
        date=post.date, updated=post.updated, kind_id=post.kind,
        kind=Link(urls.page(f"kinds/{post.kind}/"), KINDS[post.kind][0]),
        tags=tuple(Link(urls.page(f"tags/{t}/"), t) for t in post.tags),
        description=post.summary or markdown.shorten(body.lead),
        html=Markup(body.html), edits=tuple(EditView(e.date, e.note) for e in post.edits),
        words=body.words, draft=post.draft, feed_id=post.id, trail=trail,
        changes=rules.changes_by(post.slug) if post.amends else (),
    )


def _post_pages(r: Renderer, views: tuple[PostView, ...], only: int | None = None) -> None:
    for index, view in enumerate(views):
        if only is not None and index != only:
            continue
        newer = views[index - 1] if index > 0 else None
        older = views[index + 1] if index + 1 < len(views) else None
        r.page(view.path + "index.html", "post.html", view.source, title=view.title,
               description=view.description, section="archive", post=view,
               newer=newer, older=older)


def _paginate(views: Sequence[PostView], per: int, prefix: str,
              urls: Urls) -> Iterable[tuple[str, tuple[PostView, ...], Pager]]:
    """Pages of ``per`` posts: ``prefix`` first, then ``prefix/page/N/``."""
    count = max(1, -(-len(views) // per))

    def path(n: int) -> str:
        return f"{prefix}index.html" if n == 1 else f"{prefix}page/{n}/index.html"

    for n in range(1, count + 1):
        newer = Link(urls.page(path(n - 1)), "Newer posts") if n > 1 else None
        older = Link(urls.page(path(n + 1)), "Older posts") if n < count else None
        yield path(n), tuple(views[(n - 1) * per: n * per]), Pager(n, count, newer, older)


def _listing(r: Renderer, cards: Cards, views: Sequence[PostView], prefix: str, heading: str,
             title: str, description: str, section: str, per: int, intro: str = "",
             headline: object = None, related: Link | None = None,
             feed: Link | None = None) -> None:
    """``related``: the rule section a tag's listing is about, linked above the posts;
    ``feed``: the listing's own Atom feed (:func:`ftpress.render.feeds.atom_feeds`)."""
    for path, chunk, pager in _paginate(views, per, prefix, r.urls):
        paged = title if pager.number == 1 else f"{title}, page {pager.number}"
        r.page(path, "list.html", "site", title=paged, description=description,
               section=section, heading=heading, intro=intro, posts=chunk, pager=pager,
               headline=headline if pager.number == 1 else None, card=cards, related=related,
               feed=feed)


def _archives(r: Renderer, cards: Cards, views: tuple[PostView, ...]) -> None:
    """``/posts/`` and the year, month and day archives, newest first."""
    years: dict[int, list[PostView]] = defaultdict(list)
    months: dict[tuple[int, int], list[PostView]] = defaultdict(list)
    days: dict[tuple[int, int, int], list[PostView]] = defaultdict(list)
    for v in views:
        when = v.date
        years[when.year].append(v)
        months[when.year, when.month].append(v)
        days[when.year, when.month, when.day].append(v)
    # Each year's months, in the order they first appear (newest first), so that no
    # page looks through every month of the archive.
    months_of: dict[int, list[int]] = defaultdict(list)
    for y, m in months:
        months_of[y].append(m)

    def month_group(y: int, m: int) -> Group:
        return Group(f"{MONTHS[m - 1]} {y}", r.urls.page(f"posts/{y:04d}/{m:02d}/"),
                     tuple(months[y, m]))

    overview = tuple(
        (Link(r.urls.page(f"posts/{y:04d}/"), str(y), len(years[y])),
         tuple(Link(r.urls.page(f"posts/{y:04d}/{m:02d}/"), MONTHS[m - 1], len(months[y, m]))
               for m in months_of[y]))
        for y in years)
    r.page("posts/index.html", "archive_index.html", "site", title="Archive",
           description=f"All {_posts(len(views))} by year and month.", section="archive",
           years=overview, total=len(views))
    for y, posts in years.items():
        groups = tuple(month_group(y, m) for m in months_of[y])
        # A year and a month list a line per post (a card each would run to thousands
        # of pixels); a day's few posts keep their cards.
        r.page(f"posts/{y:04d}/index.html", "archive.html", "site", title=str(y),
               description=f"{_posts(len(posts))} from {y}.", section="archive",
               heading=str(y), trail=(Link(r.urls.page("posts/"), "Archive"),), groups=groups,
               card=cards, compact=True)
    for (y, m), posts in months.items():
        r.page(f"posts/{y:04d}/{m:02d}/index.html", "archive.html", "site",
               title=f"{MONTHS[m - 1]} {y}", description=f"{_posts(len(posts))} from "
               f"{MONTHS[m - 1]} {y}.", section="archive", heading=f"{MONTHS[m - 1]} {y}",
               trail=(Link(r.urls.page("posts/"), "Archive"),
                      Link(r.urls.page(f"posts/{y:04d}/"), str(y))),
               groups=(Group("", "", tuple(posts)),), card=cards, compact=True)
    for (y, m, d), posts in days.items():
        heading = long_date(posts[0].date)
        r.page(f"posts/{y:04d}/{m:02d}/{d:02d}/index.html", "archive.html", "site",
               title=heading, description=f"{_posts(len(posts))} from {heading}.",
               section="archive", heading=heading,
               trail=(Link(r.urls.page("posts/"), "Archive"),
                      Link(r.urls.page(f"posts/{y:04d}/"), str(y)),
                      Link(r.urls.page(f"posts/{y:04d}/{m:02d}/"), MONTHS[m - 1])),
               groups=(Group("", "", tuple(posts)),), card=cards, compact=False)


def _kinds(r: Renderer, cards: Cards, views: tuple[PostView, ...], per: int) -> None:
    counts = {k: sum(1 for v in views if v.kind_id == k) for k in KINDS}
    terms = tuple(Link(r.urls.page(f"kinds/{k}/"), label, counts[k])
                  for k, (label, _) in KINDS.items())
    r.page("kinds/index.html", "terms.html", "site", title="Kinds of post",
           description="Rules, rulings, cogitation, status reports and guff.",
           section="kinds", heading="Kinds of post", terms=terms,
           notes={t.text: KINDS[k][1] for t, k in zip(terms, KINDS, strict=True)})
    for kind, (label, about) in KINDS.items():
        chosen = [v for v in views if v.kind_id == kind]
        _listing(r, cards, chosen, f"kinds/{kind}/", label, label, about, "kinds", per,
                 intro=about, feed=Link(r.urls.page(f"kinds/{kind}/feed.xml"), label)
                 if chosen else None)


def _tags(r: Renderer, cards: Cards, views: tuple[PostView, ...], per: int,
          rulebook: Rulebook) -> None:
    tagged: dict[str, list[PostView]] = defaultdict(list)
    for v in views:
        for link in v.tags:
            tagged[link.text].append(v)
    names = sorted(tagged, key=natural_key)
    terms = tuple(Link(r.urls.page(f"tags/{t}/"), t, len(tagged[t])) for t in names)
    r.page("tags/index.html", "terms.html", "site", title="Tags",
           description=f"{plural(len(terms), 'tag')}, from rule sections to battle reports.",
           section="tags", heading="Tags", terms=terms, notes={})
    for tag in names:
        _listing(r, cards, tagged[tag], f"tags/{tag}/", f"Tagged “{tag}”", f"Tagged {tag}",
                 f"{_posts(len(tagged[tag]))} tagged {tag}.", "tags", per,
                 related=_rule_of(tag, rulebook, r.urls),
                 feed=Link(r.urls.page(f"tags/{tag}/feed.xml"), f"tagged {tag}"))


#: A tag that names a rule: ``rule-10`` is about rule 10.
_RULE_TAG = re.compile(r"rule-(\d+(?:\.\d+)*)")


def _rule_of(tag: str, rulebook: Rulebook, urls: Urls) -> Link | None:
    """The rulebook's section a ``rule-N`` tag is about, as it now stands (if it has one)."""
    match = _RULE_TAG.fullmatch(tag)
    if not match or not rulebook.versions:
        return None
    section = rulebook.versions[-1].section(match.group(1))
    if section is None:
        return None
    return Link(urls.page("rules/") + f"#{section.anchor}",
                f"rule {section.number}, {section.title}")


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """Sorts numbers inside text by value: ``rule-2`` before ``rule-10``."""
    return tuple((0, int(part)) if part.isdigit() else (1, part)
                 for part in re.split(r"(\d+)", text) if part)


def _posts(count: int) -> str:
    return plural(count, "post")
