"""``ftpress battles``: a paused turn's battles fought on the tabletop.

``report TURN``: as Markdown for the umpires (the publishing workflow's issue), while
the turn waits, each battle's file and, where everyone may read it, its forces (the
issue's body); once it is resolved, how each ended as the public events tell it and
where the turn's report is (the comment the issue is closed with).

``open TURN`` and ``seal TURN``, in a sealed campaign, whose battle-result files are
committed sealed to the umpires: ``open`` writes each in plain beside its sealed file
(git-ignored), with the umpire's key, for the umpire to fill in; ``seal`` checks every
plain one and seals it again, for the umpire to commit. The turn reads the sealed
files alone.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ftpress.commands.turn import check_turn_id
from ftpress.errors import RefusedCommand
from ftpress.files.write import write_file
from ftpress.github.publishing import battles_markdown, fought_markdown
from ftpress.state.battle_results import BATTLES_DIR
from ftpress.state.turns import TURNS_DIR
from ftpress.store import open_store, open_with
from ftpress.text.logsafe import say


def arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    report = actions.add_parser("report", help="the battles TURN waits for, or once it is "
                                "resolved how they ended, as Markdown")
    report.add_argument("turn", metavar="TURN", help="the paused turn, e.g. t003")
    report.add_argument("--link", metavar="URL", help="where the battle files are read "
                        "online, e.g. https://github.com/OWNER/REPO/blob/main/")
    report.add_argument("--source", type=Path, default=Path())
    for action, what in (("open", "write each sealed battle-result file of TURN in plain "
                          "beside it (git-ignored), to fill in; needs the umpire's key"),
                         ("seal", "check each plain battle-result file of TURN and seal it "
                          "to the umpires beside it, to commit")):
        sub = actions.add_parser(action, help=what)
        sub.add_argument("turn", metavar="TURN", help="the paused turn, e.g. t003")
        sub.add_argument("--identity", type=Path, metavar="FILE",
                         help="the umpire's key (default: $FTPRESS_UMPIRE_KEY or the key file)")
        sub.add_argument("--source", type=Path, default=Path())


def run(args: argparse.Namespace) -> int:
    check_turn_id(args.turn)
    if args.action == "open":
        store = open_store(args.source, identity=args.identity,
                           why="opening the sealed battle-result files", required=True)
        return _written(args.source, store.opened_battles(args.turn),
                        f"fill them in, then 'ftpress battles seal {args.turn}'")
    if args.action == "seal":
        store = open_store(args.source, identity=args.identity)
        return _written(args.source, store.sealed_battles(args.turn),
                        "commit them; the plain files stay git-ignored")
    if (args.source / TURNS_DIR / args.turn).is_dir():
        fought = fought_markdown(args.source, args.turn, args.link)
        if fought is None:
            raise RefusedCommand(f"{args.turn} was resolved without a battle fought on the "
                                 f"tabletop: {TURNS_DIR}/{args.turn}/{BATTLES_DIR}/ holds no "
                                 "result file")
        say(fought.rstrip("\n"))
        return 0
    waiting = open_with(args.source).waiting_battles(args.turn)
    text = battles_markdown(args.source, args.turn, waiting, args.link)
    if text is None:
        raise RefusedCommand(f"{args.turn} waits for no battle: {BATTLES_DIR}/{args.turn}/ "
                             "holds no result file still to fill in")
    say(text.rstrip("\n"))
    return 0


def _written(root: Path, files: dict[str, bytes], then: str) -> int:
    """Write ``files`` (paths under ``root``) and say which; then what to do."""
    if not files:
        raise RefusedCommand("no battle-result file to write; nothing was done")
    for rel, data in sorted(files.items()):
        write_file(root / rel, data)
    say(f"wrote {', '.join(sorted(files))}; {then}")
    return 0
