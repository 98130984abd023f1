"""The ``ftpress`` command: a table of commands, each in its own module; a user's
mistake is one ``ftpress: …`` message and exit 1, anything else is shown as a bug."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from ftpress import __version__, cli
from ftpress.commands import schemas
from ftpress.errors import (
    InputError,
    InvalidArgument,
    Problem,
    RefusedCommand,
    SetupError,
    UnknownRuleset,
    UserError,
)
from ftpress.github.check_pr import GitError
from ftpress.site.search import SearchError

from conftest import REPO

BUG_LINE = (f"ftpress: this is a bug in ftpress {__version__}, not a mistake in the campaign; "
            "please report it, with the command and the traceback above, to the issue "
            "tracker of ftpress's repository\n")


@pytest.mark.parametrize("command", cli.COMMANDS, ids=lambda c: c.name)
def test_every_command_has_its_module(command):
    module = command.load()
    parser = argparse.ArgumentParser()
    module.arguments(parser)
    assert callable(module.run)


def test_every_command_module_is_in_the_table():
    modules = {p.stem for p in (REPO / "ftpress/commands").glob("*.py")} - {"__init__"}
    assert {c.module.removeprefix("ftpress.commands.") for c in cli.COMMANDS} == modules


def test_a_command_imports_no_other_command(campaign):
    """Only the module of the command asked for is imported: ``ftpress schemas`` pays
    for neither the build's imports nor the turn's."""
    root = campaign({})
    probe = ("import sys\nfrom ftpress.cli import main\n"
             f"main(['schemas', '--source', {str(root)!r}, '--out', {str(root / 's')!r}])\n"
             "print(sorted(m for m in sys.modules if m.startswith('ftpress.commands.')))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, cwd=REPO)
    assert done.stdout.rstrip().endswith("['ftpress.commands.schemas']"), done.stdout


#: A user error of each kind, raised by a command, and what the user reads.
USER_ERRORS = {
    "refused": (RefusedCommand("turn t009 is not recorded; there is no state/turns/t009/"),
                "ftpress: turn t009 is not recorded; there is no state/turns/t009/\n"),
    "invalid argument": (InvalidArgument("--at '2026-13-01': expected a date such as "
                                         "2026-05-20"),
                         "ftpress: --at '2026-13-01': expected a date such as 2026-05-20\n"),
    "setup": (SetupError("the map has 2 worlds, too few for 3 players"),
              "ftpress: the map has 2 worlds, too few for 3 players\n"),
    "unknown ruleset": (UnknownRuleset("unknown ruleset 'ftc1999'; expected one of ftc2007"),
                        "ftpress: unknown ruleset 'ftc1999'; expected one of ftc2007\n"),
    "git": (GitError("git merge-base main nope: fatal: Not a valid object name nope"),
            "ftpress: git merge-base main nope: fatal: Not a valid object name nope\n"),
    "search": (SearchError("pagefind failed: out of memory"),
               "ftpress: the site was written but its search index was not: pagefind failed: "
               "out of memory\n"),
    "invalid files": (InputError([Problem("state/players.yaml", 3, 5, "no player 'nac'"),
                                  Problem("site.yaml", 0, 0, "missing")]),
                      "site.yaml: missing\nstate/players.yaml:3:5: no player 'nac'\n"
                      "ftpress: 2 problems found; nothing was written\n"),
}


@pytest.mark.parametrize("error, said", USER_ERRORS.values(), ids=USER_ERRORS.keys())
def test_a_user_error_is_its_message_and_exit_1(monkeypatch, tmp_path, run, error, said):
    def refuse(_root, _out):
        raise error

    monkeypatch.setattr(schemas, "write_schemas", refuse)
    assert isinstance(error, UserError)
    assert run("schemas", "--source", tmp_path, "--out", tmp_path / "schemas") == (1, "", said)


def test_a_bad_command_line_value_is_a_user_error(campaign, run):
    root = campaign({})
    assert run("rules", "--source", root, "--at", "2026-13-01") == (
        1, "", "ftpress: --at '2026-13-01': expected a date such as 2026-05-20\n")
    assert run("build", "--source", root, "--now", "soon") == (
        1, "", "ftpress: --now 'soon': expected an ISO date or date-time such as 2026-05-20 "
        "or 2026-05-20T18:00:00+01:00\n")
    assert run("turn", "t4", "--source", root) == (
        1, "", "ftpress: 't4' is not a turn id; expected 't' and the strategic turn's number "
        "in at least three digits, such as 't007'\n")


def test_a_value_error_inside_ftpress_is_a_bug_with_its_traceback(monkeypatch, campaign, run):
    """A ``ValueError`` no longer reads as the user's mistake: it is a bug, shown whole."""
    import ftpress.site

    def broken(*_args, **_kwargs):
        raise ValueError("a page with no path")

    monkeypatch.setattr(ftpress.site, "build", broken)
    root = campaign({})
    code, out, err = run("build", "--source", root, "--out", root.parent / "out",
                         "--now", "2026-05-01")
    assert (code, out) == (cli.BUG, "")
    assert err.startswith("Traceback (most recent call last):\n")
    assert "ValueError: a page with no path\n" in err
    assert err.endswith("ValueError: a page with no path\n" + BUG_LINE)
    assert "ftpress: a page with no path" not in err


def test_an_interrupt_exits_quietly(monkeypatch, tmp_path, run):
    def interrupted(_root, _out):
        raise KeyboardInterrupt

    monkeypatch.setattr(schemas, "write_schemas", interrupted)
    assert run("schemas", "--source", tmp_path, "--out", tmp_path / "s") == (130, "", "")
