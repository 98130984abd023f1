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

The edits: ``rule`` (a rule file's text), ``post`` (a post's text), ``newpost`` (on the
newest post's day), ``page`` (a new page, named anew each time), ``pagebody`` (a page's
text: ``content/pages/about.md``, written into the copy before the first build if the
campaign has none), ``turntemplate`` (the turn report's template), ``template`` (a new
masthead, on every page), ``state`` (a state file, the same state), ``siteyaml`` (the
site's title, on every page). A third argument picks
some, comma-separated (default: all, in that order). With ``--profile DIR``, each
edit's rebuild runs under cProfile and its statistics go to ``DIR/<edit>.prof``
(Pagefind's CPU is then outside the profile; the figures printed are slower).
``--runs N`` makes every edit N times over, ``--now`` gives the builds' ``--now``, and
``--json FILE`` saves every figure (``bench/run.py`` runs this script so, for its
serve rows).

A browser is taken to show, during each edit, the page its author looks at
(:data:`SHOWN`: the rulebook for a rule, the front page for a new post or page, the
about page for its text), as the live-reload script tells ``serve``, which renders
that page first and reloads then if it changed; with ``--no-browser``, none.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from ftpress.files.clock import build_now
from ftpress.site import BuildOptions, build
from ftpress.site.serve import LiveSite
from ftpress.speed.executor import ForkExecutor


def cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


#: The page a browser shows while each edit is made (an output path).
SHOWN = {"rule": "rules/index.html", "newpost": "index.html", "page": "index.html",
         "pagebody": "about/index.html", "turntemplate": "turns/t050/index.html",
         "template": "index.html", "state": "index.html", "siteyaml": "index.html"}

#: The page ``pagebody`` edits, when the campaign has none: :func:`measure` writes it
#: before the first build, so that the edit changes a page that was there.
ABOUT = "---\ntitle: About\n---\nUs.\n"


def edits(root: Path) -> dict[str, Callable[[], Path]]:
    posts = sorted((root / "content/posts").rglob("*.md"))
    rule = sorted((root / "content/rules").glob("*.md"))[3]
    page = root / "content/pages/about.md"
    # A new post goes on the day of the newest one, so that it is published under the
    # build's --now (the corpus's posts end before it).
    year, month, day = posts[-1].parent.parent.name, posts[-1].parent.name, posts[-1].name[:2]
    builtin = Path(__file__).resolve().parent.parent / "ftpress/themes/default/turn.html"

    def write(path: Path, change: Callable[[str], str]) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(change(path.read_text() if path.exists() else ""))
        return path

    def stamp() -> str:  # each edit writes new bytes
        return str(time.time_ns())

    return {
        "rule": lambda: write(rule, lambda t: t + f"\nWhere it ends, {stamp()}.\n"),
        "post": lambda: write(posts[len(posts) // 2], lambda t: t + f"\nOne more, {stamp()}.\n"),
        "newpost": lambda: write(root / f"content/posts/{year}/{month}/{day}-new-{stamp()}.md",
                                 lambda _: ("---\ntitle: A new one\n"
                                            f"date: {year}-{month}-{day}\nkind: guff\n---\n"
                                            "A new post.\n")),
        "page": lambda: write(root / f"content/pages/new-{stamp()}.md", lambda _: (
            "---\ntitle: A new page\n---\nNew.\n")),
        "pagebody": lambda: write(page, lambda t: (t or ABOUT).replace("Us", f"Us {stamp()}")),
        "turntemplate": lambda: write(root / "themes/default/turn.html",
                                      lambda t: (t or builtin.read_text()) + "\n"),
        "template": lambda: write(root / "themes/default/_masthead.html",
                                  lambda _: f"<p>A masthead {stamp()}</p>\n"),
        "state": lambda: write(root / "state/players.yaml", lambda t: t + "# a comment\n"),
        "siteyaml": lambda: write(root / "site.yaml", lambda t: t.replace(
            "title: ", f"title: {stamp()} ", 1)),
    }


@dataclass(frozen=True, slots=True)
class Edit:
    """One edit's rebuild: CPU (this process and its children) and wall seconds until
    the browser is told to reload (``None``: no reload was sent), and until it is all
    done, the search index included."""

    reload_cpu: float | None
    reload_wall: float | None
    done_cpu: float
    done_wall: float
    failed: bool = False


def measure(source: Path, work: Path, kinds: list[str], *, runs: int = 1,
            now: str | None = None, profiles: Path | None = None,
            report: Callable[[str], None] = print, browser: bool = True
            ) -> dict[str, list[Edit]]:
    """Each kind of edit in ``kinds`` made and rebuilt, in that order, ``runs`` times over,
    on a copy of ``source`` in ``work`` after one first build; ``report`` is told each
    figure as it comes; ``browser``: a browser shows :data:`SHOWN`'s page of each edit."""
    shutil.rmtree(work, ignore_errors=True)
    root, out = work / "src", work / "out"
    shutil.copytree(source, root)  # its .ftpress-cache too: maps already drawn are kept
    about = root / "content/pages/about.md"
    if not about.exists():
        about.parent.mkdir(parents=True, exist_ok=True)
        about.write_text(ABOUT)
    site = LiveSite(root, out, drafts=False, future=False, now=now)
    started, wall = cpu(), time.perf_counter()
    site.site = build(root, out, BuildOptions(build_now(now)), cache=site.cache,
                      executor=ForkExecutor(), keep_site=True).site
    report(f"first build: {cpu() - started:.2f} s CPU, {time.perf_counter() - wall:.2f} s wall")
    marks: list[tuple[float, float]] = []
    announce = site._announce

    def announced(error: str | None) -> None:  # the reload: serve tells the browser now
        marks.append((cpu(), time.perf_counter()))
        announce(error)

    site._announce = announced  # type: ignore[method-assign]
    made = edits(root)
    unknown = [kind for kind in kinds if kind not in made]
    if unknown:
        raise SystemExit(f"unknown edits {unknown}: pick from {', '.join(made)}")
    timings: dict[str, list[Edit]] = {}
    for _ in range(runs):
        for kind in kinds:
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
            edit = Edit(marks[0][0] - started if marks else None,
                        marks[0][1] - wall if marks else None,
                        cpu() - started, time.perf_counter() - wall, site.error is not None)
            timings.setdefault(kind, []).append(edit)
            reload = f"reload after {edit.reload_cpu:.2f} s CPU; " if marks else ""
            report(f"{kind}: {reload}all done {edit.done_cpu:.2f} s CPU, "
                   f"{edit.done_wall:.2f} s wall{'; FAILED' if edit.failed else ''}")
    report(f"load average {os.getloadavg()}")
    return timings


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="the campaign to copy")
    parser.add_argument("work", type=Path, help="the folder for the copy and its output "
                        "(emptied first)")
    parser.add_argument("kinds", nargs="?", default=None,
                        help="the edits, comma-separated (default: all, in order)")
    parser.add_argument("--profile", type=Path, metavar="DIR")
    parser.add_argument("--runs", type=int, default=1, help="times over every edit")
    parser.add_argument("--now", help="the builds' --now")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument("--no-browser", action="store_true",
                        help="no browser shows a page (serve knows of none to render first)")
    args = parser.parse_args(argv)
    if args.profile is not None:
        args.profile.mkdir(parents=True, exist_ok=True)
    kinds = args.kinds.split(",") if args.kinds else list(edits(args.source))
    timings = measure(args.source, args.work, kinds, runs=args.runs, now=args.now,
                      profiles=args.profile, report=lambda line: print(line, flush=True),
                      browser=not args.no_browser)
    if args.json is not None:
        args.json.write_text(json.dumps({k: [asdict(e) for e in v] for k, v in timings.items()},
                                        indent=1) + "\n")
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
