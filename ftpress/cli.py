"""The ``ftpress`` command: a table of commands, each run by its own module.

Every command is a module of :mod:`ftpress.commands` with two functions:
``arguments(parser)`` adds its arguments, ``run(args)`` does it and returns the
exit code. Only the module of the command asked for is imported, so a command
pays for no other command's imports (a build with nothing to do stays instant).

A :class:`~ftpress.errors.UserError` is something the user can put right: it
prints as ``ftpress: …`` (an invalid file, one line per problem) and exits 1.
A full disk (``ENOSPC``, ``EDQUOT``) is one line and exit 1: what failed to
be written was undone. Any other exception is a bug in ftpress: its traceback,
a line saying so and where to report it, and exit code 70 (``EX_SOFTWARE``).
"""

from __future__ import annotations

import argparse
import errno
import importlib
import sys
import traceback
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Protocol, cast

from ftpress import __version__
from ftpress.errors import UserError
from ftpress.files.lock import campaign_lock, clear_stale
from ftpress.state.writeout import committed, recover
from ftpress.text.logsafe import say

#: The exit code of a bug in ftpress (sysexits.h's EX_SOFTWARE): neither 1 (the user's
#: mistake) nor 2 (argparse's, a malformed command line).
BUG = 70
#: Where the line about a bug sends the reader.
REPORT_BUGS_TO = "the issue tracker of ftpress's repository"


class CommandModule(Protocol):
    """What a module of :mod:`ftpress.commands` provides."""

    def arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


@dataclass(frozen=True, slots=True)
class Command:
    name: str
    #: One line for ``ftpress --help``.
    help: str
    #: Does the command, run with these arguments, write the campaign? Then it holds the
    #: campaign lock while it runs (:mod:`ftpress.files.lock`).
    writes: Callable[[argparse.Namespace], bool] = lambda args: False
    #: Would the command, run again, go on from where a run of it stopped, rather than
    #: redo it? (A turn resolves the open turn: once an interrupted one's record is
    #: finished, the next.) Then, when it finds a write-out past its commit point and
    #: finishes it, it stops there (:func:`main`).
    goes_on: Callable[[argparse.Namespace], bool] = lambda args: False

    @property
    def module(self) -> str:
        """Its module: ``check-pr`` is ``ftpress.commands.check_pr``."""
        return f"ftpress.commands.{self.name.replace('-', '_')}"

    def load(self) -> CommandModule:
        return cast(CommandModule, importlib.import_module(self.module))


COMMANDS = (
    Command("build", "build the site",
            writes=lambda args: True),
    Command("serve", "build, serve and rebuild on every change"),
    Command("rules", "print the rulebook as it stood on a date"),
    Command("check", "check the whole campaign, or the named files, and report every "
            "problem; write nothing"),
    Command("init", "create a new campaign with a generated map"),
    Command("schemas", "write the JSON Schemas of every campaign file into a folder"),
    Command("turn", "resolve the open turn from its order files and record it; or --verify "
            "a recorded turn",
            writes=lambda args: args.verify is None,
            goes_on=lambda args: args.verify is None and args.redo is None),
    Command("status", "the open turn, its deadline, and who has sent orders"),
    Command("check-pr", "check an orders pull request: what it may change, and its order "
            "files read from git; for CI"),
    Command("new", "create new content"),
    Command("orders", "write a player's order form for the open turn, or seal an order file",
            writes=lambda args: args.what == 'seal'),
    Command("roster", "record which GitHub account plays each power, and the umpires",
            writes=lambda args: True),
    Command("battles", "the battles a paused turn waits for, as Markdown for the umpires; "
            "a sealed campaign's battle-result files opened and sealed",
            writes=lambda args: args.action in ("open", "seal")),
    Command("calendar", "extend, pause or resume the open turn's deadline",
            writes=lambda args: True),
    Command("remind", "the reminder for players who have not sent orders, when it is due; "
            "for CI"),
    Command("doctor", "check the GitHub repository's settings the campaign's trust model "
            "needs, through gh api; change nothing"),
    Command("keys", "the umpire's key and the players' recipients: init, check, rotate",
            writes=lambda args: args.action != 'check'),
    Command("seal", "the same as 'ftpress orders seal': check an order file, then seal it "
            "for the umpires and its player",
            writes=lambda args: True),
)


def parser(argv: Sequence[str]) -> argparse.ArgumentParser:
    """The ``ftpress`` parser: every command listed, with the arguments of the one
    ``argv`` names (the first word that is not an option: the top level takes
    only ``--help`` and ``--version``, which take no value)."""
    top = argparse.ArgumentParser(prog="ftpress", description="Run a Full Thrust campaign "
                                  "from a Git repository and publish it as a static site.")
    top.add_argument("--version", action="version", version=f"ftpress {__version__}")
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    named = next((word for word in argv if not word.startswith("-")), None)
    for command in COMMANDS:
        sub = commands.add_parser(command.name, help=command.help)
        if command.name == named:
            command.load().arguments(sub)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Run one ``ftpress`` command; its exit code."""
    words = sys.argv[1:] if argv is None else list(argv)
    args = parser(words).parse_args(words)
    command = next(c for c in COMMANDS if c.name == args.command)
    try:
        with ExitStack() as held:
            if hasattr(args, "source") and command.writes(args):
                # One writer at a time; what a dead one left is taken over and said.
                for note in held.enter_context(campaign_lock(
                        args.source, f"`ftpress {' '.join(words)[:200]}`")):
                    say(f"ftpress: {note}", err=True)
            elif hasattr(args, "source") and args.source.is_dir():
                clear_stale(args.source)  # a dead writer's lock is no one's: dropped
            # Before anything else reads the campaign: finish or undo an interrupted
            # write-out.
            finishing = hasattr(args, "source") and committed(args.source)
            if hasattr(args, "source") and (recovered := recover(args.source)):
                say(f"ftpress: {recovered}", err=True)
                if finishing and command.goes_on(args):
                    # Run again after a full disk or a kill past the commit point, it
                    # would act twice (a turn would resolve the next turn too).
                    say(f"ftpress: nothing more was done; run `ftpress {command.name}` "
                        "again to go on from there", err=True)
                    return 0
            return command.load().run(args)
    except UserError as exc:
        for line in exc.lines():
            say(line, err=True)
        return 1
    except KeyboardInterrupt:
        return 130
    except PermissionError as exc:
        # A file or folder this user may not read (or write): the machine's setting, not
        # a bug; said in one line, at the path.
        where = exc.filename if exc.filename is not None else "a campaign file"
        say(f"ftpress: {where}: cannot be read or written ({exc.strerror}); expected a file "
            "or folder this user may read and write: check its permissions and run the "
            "command again", err=True)
        return 1
    except OSError as exc:
        if exc.errno not in DISK_FULL:
            return _bug()
        # The machine's fault, not the campaign's or ftpress's: every command writes
        # through a staging folder or a temporary file, undone when a write fails.
        where = f" writing {exc.filename}" if exc.filename else ""
        source = getattr(args, "source", None)
        if source is not None and committed(source):
            # Past the commit point the change is made, only not all in place: running
            # the command again would go on from there (a turn would resolve the next).
            say(f"ftpress: the disk is full ({exc.strerror}{where}) after the change was "
                "committed; it is only partly in place: free some space, then run 'ftpress "
                "status', which finishes it (not this command again, which would go on "
                "from there)", err=True)
            return 1
        say(f"ftpress: the disk is full ({exc.strerror}{where}); nothing was changed: free "
            "some space and run the command again", err=True)
        return 1
    except Exception:
        return _bug()


#: The errors of a disk with no room left: no space, or the user's quota used up.
DISK_FULL = frozenset((errno.ENOSPC, errno.EDQUOT))


def _bug() -> int:
    """A bug: shown whole, as one, so that it is reported rather than worked round."""
    say(traceback.format_exc().rstrip("\n"), err=True)  # its messages may quote a file
    print(f"ftpress: this is a bug in ftpress {__version__}, not a mistake in the "
          f"campaign; please report it, with the command and the traceback above, to "
          f"{REPORT_BUGS_TO}", file=sys.stderr)
    return BUG


def run() -> None:
    """The ``ftpress`` command."""
    sys.exit(main())
