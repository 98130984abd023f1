"""``ftpress check``: everything the build would read, checked, nothing written.

The whole campaign is loaded and rendered in memory exactly as a build would
(drafts and scheduled posts included), so every problem a build could meet is
found. Named files narrow the report to the problems in those files; the
rest of the campaign is still read, because a file is only right or wrong in
the context of the others (a group's owner must be a player).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ftpress.errors import InputError, Problem
from ftpress.secrecy.agekeys import UMPIRE_KEY_ENV
from ftpress.secrecy.twins import UmpireKey, is_sealed, needed_key, umpire_key
from ftpress.site import BuildOptions, load, render
from ftpress.site.clock import build_now
from ftpress.state.turns import SETUP, TURNS_DIR, turn_number
from ftpress.text.logsafe import say
from ftpress.turn.last_record import behind_last_record

#: What ``check`` knows how to check, by where it lives in the campaign.
CHECKED = ("site.yaml", "content/", "state/", "themes/", "orders/", "battles/")


@dataclass(frozen=True, slots=True)
class CheckReport:
    problems: tuple[Problem, ...]
    #: What was checked, for the summary line.
    scope: str
    #: For each clean order file of the open turn: what its orders will do.
    orders: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: In a sealed campaign checked without the umpire's key: what was not checked.
    unchecked: str | None = None


def check(root: Path, paths: Sequence[Path] = (), identity: Path | None = None) -> CheckReport:
    """Every problem in the campaign at ``root``, or in the files ``paths``.

    A sealed campaign is checked with the umpire's key where there is one (``identity``,
    ``$FTPRESS_UMPIRE_KEY`` or the key file): its whole files, read from their twins,
    and that each plain file is the projection of its twin. Without one, its plain
    files, and that none holds more than the public may know."""
    wanted, problems = _wanted(root, paths)
    sealed = is_sealed(root)
    umpire = None
    player = _player_answering(root, identity) if sealed and identity is not None else None
    if sealed and player is None and (identity is not None or umpire_key(root) is not None):
        umpire = needed_key(root, "checking the sealed files", identity)
    found: tuple[Problem, ...] = ()
    try:
        render(load(root, BuildOptions(build_now(None), drafts=True, future=True,
                                       umpire=umpire)))
    except InputError as exc:
        found = exc.problems
    unchecked = None
    if sealed and umpire is not None and not found:
        from ftpress.store.campaign import load_states

        try:  # the plain files, as everyone reads them, must load too
            load_states(root)
        except InputError as exc:
            found = exc.problems
    if sealed and not found:
        from ftpress.secrecy.sealed_campaign import plain_problems, stale_projections, twinned

        if umpire is not None:
            found = (*plain_problems(root), *stale_projections(root, umpire))
        else:
            found = tuple(plain_problems(root))
            sealed_here = [rel for rel in twinned(root) if wanted is None or rel in wanted or
                           any(rel.startswith(w + "/") for w in wanted)]
            if sealed_here:
                unchecked = (f"the {len(sealed_here)} sealed twins (state/**/*.age) hold the "
                             "whole files; checking them needs the umpire's key (--identity "
                             f"FILE or ${UMPIRE_KEY_ENV})")
    from ftpress.turn.order_check import check_orders

    known = None
    if umpire is not None or player is not None:
        from ftpress.store.campaign import load_state

        try:  # the open turn's orders, against the whole state, or what the player knows
            known = load_state(root, umpire)
            if player is not None and known is not None and identity is not None:
                from ftpress.commands.seal import players_view

                known = players_view(root, known, player, identity)
        except InputError:
            known = None  # reported by the load above
    order_problems, summaries = check_orders(root, wanted, known)
    found = (*found, *order_problems, *_battle_problems(root), *behind_last_record(root),
             *record_problems(root, umpire))
    if wanted is not None:
        # Problems in site.yaml stop the whole load, so they always count.
        found = tuple(p for p in found if p.path in wanted or p.path == "site.yaml" or
                      any(p.path.startswith(w + "/") for w in wanted))
    scope = "the campaign" if wanted is None else \
        f"{len(wanted)} file{'s' if len(wanted) != 1 else ''}"
    return CheckReport(tuple(sorted(set(problems) | set(found))), scope,
                       tuple((path, tuple(lines)) for path, lines in summaries), unchecked)


def record_problems(root: Path, umpire: UmpireKey | None) -> list[Problem]:
    """What is wrong with each recorded turn's ``turn.yaml`` (how its dice were seeded,
    which ``ftpress turn --verify`` rolls again from): missing, not its model, or
    naming another turn than its folder's."""
    from ftpress.turn.record import read_record

    folder = root / TURNS_DIR
    found: list[Problem] = []
    for turn in sorted(p.name for p in folder.iterdir()) if folder.is_dir() else ():
        if turn == SETUP or not (folder / turn).is_dir() or not _is_turn(turn):
            continue
        rel = f"{TURNS_DIR}/{turn}/turn.yaml"
        if not (root / rel).is_file():
            found.append(Problem(rel, 0, 0, "missing: every recorded turn keeps how its "
                                 "dice were seeded; restore the file from the repository's "
                                 "history"))
            continue
        try:
            record = read_record(root, f"{TURNS_DIR}/{turn}", umpire)
        except InputError as exc:
            found.extend(exc.problems)
            continue
        if record.turn != turn:
            found.append(Problem(rel, 1, 1, f"turn: the record of {turn} says it is "
                                 f"{record.turn!r}; expected '{turn}'"))
    return found


def _is_turn(name: str) -> bool:
    try:
        turn_number(name)
    except ValueError:
        return False
    return True


def _player_answering(root: Path, identity: Path) -> str | None:
    """The player whose recipient ``identity`` answers to (a player checking their own
    orders against what they know), or None (the umpire's key, or no key of the roster)."""
    from ftpress.secrecy import agekeys
    from ftpress.store.campaign import load_state

    try:
        loaded = load_state(root)
    except InputError:
        return None  # the check says why
    identities = agekeys.read_identity(identity)
    return next((p.id for p in loaded.state.players.players if p.recipient is not None
                 and agekeys.answers(identities, p.recipient)), None) if loaded else None


def _wanted(root: Path, paths: Sequence[Path]) -> tuple[set[str] | None, list[Problem]]:
    """The named paths as campaign-relative names, and problems with the names."""
    if not paths:
        return None, []
    base = root.resolve()
    wanted: set[str] = set()
    problems = []
    for path in paths:
        full = (path if path.is_absolute() else Path.cwd() / path).resolve()
        if not full.exists():
            problems.append(Problem(str(path), 0, 0, "no such file"))
            continue
        if not full.is_relative_to(base):
            problems.append(Problem(str(path), 0, 0, f"not inside the campaign folder {root}"))
            continue
        rel = full.relative_to(base).as_posix()
        if rel != "." and not any(rel == c.rstrip("/") or rel.startswith(c) for c in CHECKED):
            problems.append(Problem(rel, 0, 0, "not a campaign file ftpress checks; expected "
                                    "site.yaml or a file under content/, state/, orders/, "
                                    "battles/ or themes/"))
            continue
        if rel == ".":
            return None, problems
        wanted.add(rel)
    return wanted, problems


def _battle_problems(root: Path) -> list[Problem]:
    """Battle-result files the umpire is filling in: their form, and the battle they
    name (whether they fit the forces that fought is checked when the turn resumes)."""
    from ftpress.state.battle_results import BATTLES_DIR
    from ftpress.turn.inputs import load_battles

    found: list[Problem] = []
    base = root / BATTLES_DIR
    for folder in sorted(base.iterdir()) if base.is_dir() else ():
        if not folder.is_dir():
            found.append(Problem(f"{BATTLES_DIR}/{folder.name}", 0, 0, "not a battle-result "
                                 f"file; expected {BATTLES_DIR}/<turn-id>/<battle-id>.yaml"))
            continue
        try:
            load_battles(root, folder.name)
        except InputError as exc:
            found.extend(exc.problems)
    return found


# --- the command ----------------------------------------------------------------------

def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                        help="files to report on (default: the whole campaign)")
    parser.add_argument("--identity", type=Path, metavar="FILE",
                        help="in a sealed campaign, the umpire's key, to check the sealed "
                        "files too (default: $FTPRESS_UMPIRE_KEY, else .ftpress-umpire-key); "
                        "or a player's, to check their orders against what they know")
    parser.add_argument("--source", type=Path, default=Path())


def run(args: argparse.Namespace) -> int:
    """Every problem on stderr, and what each clean order file named will do."""
    report = check(args.source, args.paths, args.identity)
    if args.paths:
        for path, lines in report.orders:
            say(f"{path}:")
            for line in lines:
                say(f"  {line}")
    for problem in report.problems:
        say(problem, err=True)
    if report.problems:
        count = len(report.problems)
        say(f"ftpress: {count} problem{'s' if count != 1 else ''} in {report.scope}", err=True)
        return 1
    if report.unchecked is not None:
        say(f"not checked without the umpire's key: {report.unchecked}")
    say(f"checked {report.scope}: no problems")
    return 0
