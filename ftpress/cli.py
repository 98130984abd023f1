"""The ``ftpress`` command. Thin on purpose: parse arguments, call one module,
print the result. Input errors print as ``path:line:col: message`` and exit 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path

from ftpress import __version__
from ftpress.clock import build_now
from ftpress.errors import InputError
from ftpress.search import SearchError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ftpress", description="Run a Full Thrust campaign "
                                     "from a Git repository and publish it as a static site.")
    parser.add_argument("--version", action="version", version=f"ftpress {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def site_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--source", type=Path, default=Path(),
                       help="campaign folder (default: the current folder)")
        p.add_argument("--drafts", action="store_true", help="include draft posts")
        p.add_argument("--future", action="store_true", help="include posts dated in the future")
        p.add_argument("--now", help="the build's 'now' as an ISO date-time "
                       "(default: SOURCE_DATE_EPOCH, else the clock)")

    build = commands.add_parser("build", help="build the site")
    site_options(build)
    build.add_argument("--out", type=Path, default=None,
                       help="output folder (default: _site, or _site-umpire for the umpire's view)")
    build.add_argument("--view", choices=("public", "umpire"), default="public",
                       help="public: only what the rules make public (the default); umpire: "
                       "every fact, hidden ones too, for the umpire's eyes")

    serve = commands.add_parser("serve", help="build, serve and rebuild on every change")
    site_options(serve)
    serve.add_argument("--out", type=Path, default=None,
                       help="output folder (default: a temporary folder)")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--host", default="127.0.0.1")

    rules = commands.add_parser("rules", help="print the rulebook as it stood on a date")
    rules.add_argument("--at", help="the date, YYYY-MM-DD (default: as it stands now)")
    rules.add_argument("--source", type=Path, default=Path())

    check = commands.add_parser("check", help="check the whole campaign, or the named files, "
                                "and report every problem; write nothing")
    check.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                       help="files to report on (default: the whole campaign)")
    check.add_argument("--source", type=Path, default=Path())

    init = commands.add_parser("init", help="create a new campaign with a generated map")
    init.add_argument("dir", type=Path, metavar="DIR", help="a new or empty folder")
    init.add_argument("--players", required=True,
                      help="comma-separated player ids, e.g. nac,nsl,fse,esu")
    init.add_argument("--seed", type=int, help="dice seed for the map (default: a random one, "
                      "recorded in state/campaign.yaml)")
    init.add_argument("--name", help="the campaign's name (default: from DIR)")
    init.add_argument("--ruleset", default="ftc2007")
    init.add_argument("--option", action="append", default=[], metavar="NAME=NUMBER",
                      help="a house rule for map generation, e.g. world_on=1 (repeatable)")
    init.add_argument("--now", help="date the campaign at this ISO date-time instead of now")

    schemas = commands.add_parser("schemas", help="write the JSON Schemas of every campaign "
                                  "file into a folder")
    schemas.add_argument("--out", type=Path, default=Path("schemas"))
    schemas.add_argument("--source", type=Path, default=Path())

    turn = commands.add_parser("turn", help="resolve the open turn from its order files and "
                               "record it; or --verify a recorded turn")
    turn.add_argument("turn", nargs="?", metavar="TURN",
                      help="the turn to resolve, e.g. t004 (default: the open turn); "
                      "a turn already recorded is left as it is")
    turn.add_argument("--verify", metavar="TURN",
                      help="re-resolve a recorded turn and confirm the same result")
    turn.add_argument("--redo", metavar="TURN",
                      help="resolve a recorded turn and every later one again from their "
                      "recorded orders, rewrite their records and the state, and say what "
                      "changed")
    turn.add_argument("--dice", type=Path, metavar="FILE",
                      help="dice rolled by hand, 'dice: [3, 6, 1, …]', used in order")
    turn.add_argument("--early", action="store_true",
                      help="resolve the turn before its orders are due")
    turn.add_argument("--if-due", action="store_true",
                      help="resolve the open turn only if its deadline has passed or every "
                      "player has sent orders; otherwise say so and exit 0")
    turn.add_argument("--now", help="the time as an ISO date-time (default: "
                      "SOURCE_DATE_EPOCH, else the clock)")
    turn.add_argument("--source", type=Path, default=Path())

    status = commands.add_parser("status", help="the open turn, its deadline, and who has "
                                 "sent orders")
    status.add_argument("--now", help="the time as an ISO date-time (default: "
                        "SOURCE_DATE_EPOCH, else the clock)")
    status.add_argument("--source", type=Path, default=Path())

    check_pr = commands.add_parser("check-pr", help="check an orders pull request: what it "
                                   "may change, and its order files read from git; for CI")
    check_pr.add_argument("--base", required=True, metavar="SHA",
                          help="the base branch's commit (checked out at --source)")
    check_pr.add_argument("--head", required=True, metavar="SHA",
                          help="the pull request's head commit, read from git, never checked out")
    check_pr.add_argument("--author-id", required=True, type=int, metavar="ID",
                          help="the pull request author's numeric GitHub user id")
    check_pr.add_argument("--author", metavar="LOGIN", help="the author's login, for the report")
    check_pr.add_argument("--summary", type=Path, metavar="FILE",
                          help="append a Markdown report here (default: $GITHUB_STEP_SUMMARY)")
    check_pr.add_argument("--source", type=Path, default=Path())

    new = commands.add_parser("new", help="create new content")
    what = new.add_subparsers(dest="what", required=True, metavar="WHAT")
    post = what.add_parser("post", help="write a new post file dated now")
    post.add_argument("title")
    post.add_argument("--kind", required=True,
                      choices=("rules", "rulings", "cogitation", "status", "guff"))
    post.add_argument("--tags", default="", help="comma-separated tags, e.g. rule-10,sieges")
    post.add_argument("--source", type=Path, default=Path())
    post.add_argument("--now", help="date the post at this ISO date-time instead of now")
    return parser


def run() -> None:
    """The ``ftpress`` command."""
    sys.exit(main())


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return _run(args)
    except InputError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        count = len(exc.problems)
        print(f"ftpress: {count} problem{'s' if count != 1 else ''} found; nothing was written",
              file=sys.stderr)
        return 1
    except ValueError as exc:  # a malformed command-line value
        print(f"ftpress: {exc}", file=sys.stderr)
        return 1
    except SearchError as exc:
        print(f"ftpress: the site was written but its search index was not: {exc}",
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def _run(args: argparse.Namespace) -> int:
    if args.command == "build":
        import time

        from ftpress.buildcache import reusable
        from ftpress.write import check_out_dir

        started = time.perf_counter()
        out = args.out if args.out is not None else args.source / (
            "_site" if args.view == "public" else "_site-umpire")
        now = build_now(args.now)
        check_out_dir(args.source, out)
        # Asked before the rest of ftpress is imported: a no-op build stays instant.
        fingerprint, last = reusable(args.source, out, drafts=args.drafts, future=args.future,
                                     now=now, view=args.view)
        if last is not None:
            print(last.reused(time.perf_counter() - started))
            return 0
        from ftpress.executor import ForkExecutor
        from ftpress.site import BuildOptions, build

        options = BuildOptions(now, drafts=args.drafts, future=args.future, incremental=True,
                               view=args.view)
        report = build(args.source, out, options, fingerprint=fingerprint,
                       executor=ForkExecutor())
        print(report.summary(out))
        return 0
    if args.command == "serve":
        from ftpress.serve import serve

        return serve(args.source, args.out, host=args.host, port=args.port, drafts=args.drafts,
                     future=args.future, now=args.now)
    if args.command == "rules":
        from ftpress.render.rulebook import as_text
        from ftpress.site import BuildOptions, load

        site = load(args.source, BuildOptions(build_now(None)))
        day = _day(args.at) if args.at else None
        version = site.rulebook.at(day) if day else site.rulebook.current
        if version is None:
            first = site.rulebook.versions[0].date.isoformat() if site.rulebook.versions else None
            print(f"ftpress: no rulebook {'before ' + first if first else 'in content/rules/'}",
                  file=sys.stderr)
            return 1
        sys.stdout.write(as_text(version))
        return 0
    if args.command == "check":
        from ftpress.commands.check import check

        report = check(args.source, args.paths)
        if args.paths:
            for path, lines in report.orders:
                print(f"{path}:")
                for line in lines:
                    print(f"  {line}")
        for problem in report.problems:
            print(problem, file=sys.stderr)
        if report.problems:
            count = len(report.problems)
            print(f"ftpress: {count} problem{'s' if count != 1 else ''} in {report.scope}",
                  file=sys.stderr)
            return 1
        print(f"checked {report.scope}: no problems")
        return 0
    if args.command == "init":
        from ftpress.commands.init import init_campaign

        created = init_campaign(args.dir, args.players.split(","), now=build_now(args.now),
                                seed=args.seed, name=args.name, ruleset=args.ruleset,
                                options=args.option)
        print(created.summary())
        return 0
    if args.command == "schemas":
        from ftpress.schema_export import write_schemas

        for path in write_schemas(args.source, args.out):
            print(path)
        return 0
    if args.command == "turn":
        return _turn(args)
    if args.command == "status":
        from ftpress.status import turn_status

        for line in turn_status(args.source, build_now(args.now)).lines():
            print(line)
        return 0
    if args.command == "check-pr":
        return _check_pr(args)
    if args.command == "new":
        from ftpress.scaffold import new_post

        tags = tuple(t.strip() for t in args.tags.split(",") if t.strip())
        path = new_post(args.source, args.title, args.kind, tags, build_now(args.now))
        print(path)
        return 0
    raise AssertionError(args.command)  # argparse allows no other command


def _turn(args: argparse.Namespace) -> int:
    from ftpress.turn import redo_turns, resolve_turn, verify_turn

    if args.redo:
        for line in redo_turns(args.source, args.redo).lines():
            print(line)
        return 0
    if args.verify:
        differences = verify_turn(args.source, args.verify)
        for difference in differences:
            print(difference, file=sys.stderr)
        if differences:
            print(f"ftpress: {args.verify} does not re-resolve to its record "
                  f"({len(differences)} difference{'s' if len(differences) != 1 else ''})",
                  file=sys.stderr)
            return 1
        print(f"verified {args.verify}: re-resolving it gives the recorded result exactly")
        return 0
    early = args.early
    if args.if_due:
        from ftpress.status import turn_status

        status = turn_status(args.source, build_now(args.now))
        if not status.due:
            print(f"{status.turn} is not due: {status.reason()}; nothing was done")
            return 0
        print(f"{status.turn} is due: {status.reason()}")
        early = True
    result = resolve_turn(args.source, now=build_now(args.now), early=early,
                          supplied=args.dice, wanted=args.turn)
    for note in result.notes:
        print(f"note: {note}")
    print(result.summary())
    return 0


def _check_pr(args: argparse.Namespace) -> int:
    import os

    from ftpress.commands.check_pr import GitError, run

    summary = args.summary
    if summary is None and os.environ.get("GITHUB_STEP_SUMMARY"):
        summary = Path(os.environ["GITHUB_STEP_SUMMARY"])
    try:
        code, text = run(args.source, args.base, args.head, args.author_id, args.author,
                         summary)
    except GitError as exc:
        print(f"ftpress: {exc}", file=sys.stderr)
        return 1
    print(text, file=sys.stdout if code == 0 else sys.stderr)
    return code


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"--at {text!r}: expected a date such as 2026-05-20") from None
