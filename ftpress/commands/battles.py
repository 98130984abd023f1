"""``ftpress battles report TURN``: a paused turn's battles fought on the tabletop, as
Markdown for the umpires (the publishing workflow's issue): while the turn waits, each
battle's forces and file (the issue's body); once it is resolved, how each ended and
where the turn's report is (the comment the issue is closed with)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ftpress.commands.turn import check_turn_id
from ftpress.errors import RefusedCommand
from ftpress.files import yamlsource
from ftpress.github.publishing import battles_markdown, fought_markdown
from ftpress.state.battle_results import BATTLES_DIR
from ftpress.state.turns import TURNS_DIR
from ftpress.text.logsafe import say


def arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    report = actions.add_parser("report", help="the battles TURN waits for, or once it is "
                                "resolved how they ended, as Markdown")
    report.add_argument("turn", metavar="TURN", help="the paused turn, e.g. t003")
    report.add_argument("--link", metavar="URL", help="where the battle files are read "
                        "online, e.g. https://github.com/OWNER/REPO/blob/main/")
    report.add_argument("--source", type=Path, default=Path())


def run(args: argparse.Namespace) -> int:
    check_turn_id(args.turn)
    if (args.source / TURNS_DIR / args.turn).is_dir():
        fought = fought_markdown(args.source, args.turn, args.link)
        if fought is None:
            raise RefusedCommand(f"{args.turn} was resolved without a battle fought on the "
                                 f"tabletop: {TURNS_DIR}/{args.turn}/{BATTLES_DIR}/ holds no "
                                 "result file")
        say(fought.rstrip("\n"))
        return 0
    folder = args.source / BATTLES_DIR / args.turn
    waiting = [f"{BATTLES_DIR}/{args.turn}/{file.name}" for file in sorted(folder.glob("*.yaml"))
               if not _fought(file)]
    text = battles_markdown(args.source, args.turn, waiting, args.link)
    if text is None:
        raise RefusedCommand(f"{args.turn} waits for no battle: {folder.relative_to(args.source)}"
                             "/ holds no result file still to fill in")
    say(text.rstrip("\n"))
    return 0


def _fought(file: Path) -> bool:
    data = yamlsource.parse(yamlsource.read_text(file, file.name), file.name)
    return isinstance(data, dict) and data.get("fought") is True
