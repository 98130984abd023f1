"""What each kind of edit costs under ``ftpress serve``: CPU until the browser is told
to reload, and until the whole rebuild (the search index included) is done.

Runs ``serve``'s builder (:class:`ftpress.site.serve.LiveSite`) in this process on a
copy of a campaign (the corpus of ``bench/corpus.py``), builds it once (on every core,
to save time; what ``serve`` keeps from it is the same), then makes each edit in
turn and rebuilds, as the file watcher would. CPU is this process's and its
children's (Pagefind), so the figures hold on a shared machine; wall time is printed
too, with the load average at the end.

    python bench/corpus.py --posts 1000 --turns 100 --radius 10 --seed 9 --out /tmp/corpus
    python bench/serve_edits.py /tmp/corpus/ftpress-campaign /tmp/serve-work

The edits: ``rule`` (a rule file's text), ``post`` (a post's text), ``newpost``, ``page``
(a new page), ``pagebody`` (that page's text), ``turntemplate`` (the turn report's
template), ``template`` (a new masthead, on every page), ``state`` (a state file, the
same state), ``siteyaml`` (the site's title, on every page). A third argument picks
some, comma-separated (default: all, in that order). With ``--profile DIR``, each
edit's rebuild runs under cProfile and its statistics go to ``DIR/<edit>.prof``
(Pagefind's CPU is then outside the profile; the figures printed are slower).

A browser is taken to show, during each edit, the page its author looks at
(:data:`SHOWN`: the rulebook for a rule, the front page for a new post, the about page
for a page), as the live-reload script tells ``serve``; with ``--no-browser``, none.
"""

from __future__ import annotations

import cProfile
import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path

from ftpress.files.clock import build_now
from ftpress.site import BuildOptions, build
from ftpress.site.serve import LiveSite
from ftpress.speed.executor import ForkExecutor


def cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


#: The page a browser shows while each edit is made (an output path).
SHOWN = {"rule": "rules/index.html", "newpost": "index.html", "page": "about/index.html",
         "pagebody": "about/index.html", "turntemplate": "turns/t050/index.html",
         "template": "index.html", "state": "index.html", "siteyaml": "index.html"}


def edits(root: Path) -> dict[str, Callable[[], Path]]:
    posts = sorted((root / "content/posts").rglob("*.md"))
    rule = sorted((root / "content/rules").glob("*.md"))[3]
    page = root / "content/pages/about.md"
    builtin = Path(__file__).resolve().parent.parent / "ftpress/themes/default/turn.html"

    def write(path: Path, change: Callable[[str], str]) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(change(path.read_text() if path.exists() else ""))
        return path

    stamp = lambda: str(time.time_ns())  # noqa: E731 - each edit writes new bytes
    return {
        "rule": lambda: write(rule, lambda t: t + f"\nWhere it ends, {stamp()}.\n"),
        "post": lambda: write(posts[len(posts) // 2], lambda t: t + f"\nOne more, {stamp()}.\n"),
        "newpost": lambda: write(root / f"content/posts/2026/04/20-new-{stamp()}.md", lambda _: (
            "---\ntitle: A new one\ndate: 2026-04-20\nkind: guff\n---\nA new post.\n")),
        "page": lambda: write(page, lambda _: "---\ntitle: About\n---\nUs.\n"),
        "pagebody": lambda: write(page, lambda t: (t or "---\ntitle: About\n---\nUs.\n").replace(
            "Us", f"Us {stamp()}")),
        "turntemplate": lambda: write(root / "themes/default/turn.html",
                                      lambda t: (t or builtin.read_text()) + "\n"),
        "template": lambda: write(root / "themes/default/_masthead.html",
                                  lambda _: f"<p>A masthead {stamp()}</p>\n"),
        "state": lambda: write(root / "state/players.yaml", lambda t: t + "# a comment\n"),
        "siteyaml": lambda: write(root / "site.yaml", lambda t: t.replace(
            "title: ", f"title: {stamp()} ", 1)),
    }


def main(argv: list[str]) -> int:
    profiles = None
    if "--profile" in argv:
        at = argv.index("--profile")
        profiles = Path(argv[at + 1])
        profiles.mkdir(parents=True, exist_ok=True)
        argv = argv[:at] + argv[at + 2:]
    browser = "--no-browser" not in argv
    argv = [a for a in argv if a != "--no-browser"]
    source, work = Path(argv[0]), Path(argv[1])
    shutil.rmtree(work, ignore_errors=True)
    root, out = work / "src", work / "out"
    shutil.copytree(source, root)  # its .ftpress-cache too: maps already drawn are kept
    site = LiveSite(root, out, drafts=False, future=False, now=None)
    started, wall = cpu(), time.perf_counter()
    site.site = build(root, out, BuildOptions(build_now(None)), cache=site.cache,
                      executor=ForkExecutor(), keep_site=True).site
    print(f"first build: {cpu() - started:.2f} s CPU, {time.perf_counter() - wall:.2f} s wall")
    marks: list[float] = []
    announce = site._announce
    site._announce = lambda error: (marks.append(cpu()), announce(error))[1]  # type: ignore[method-assign]
    made = edits(root)
    for kind in argv[2].split(",") if len(argv) > 2 else list(made):
        path = made[kind]()
        marks.clear()
        shown = SHOWN.get(kind) if browser else None
        site.watching(shown, True)
        started, wall = cpu(), time.perf_counter()
        if profiles is None:
            site.rebuild({str(path)})
        else:
            with cProfile.Profile() as profile:
                site.rebuild({str(path)})
            profile.dump_stats(profiles / f"{kind}.prof")
        site.watching(shown, False)
        reload = f"reload after {marks[0] - started:.2f} s CPU; " if marks else ""
        print(f"{kind}: {reload}all done {cpu() - started:.2f} s CPU, "
              f"{time.perf_counter() - wall:.2f} s wall{'; FAILED' if site.error else ''}",
              flush=True)
    print(f"load average {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
