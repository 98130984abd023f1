"""The order window, enforced when the publishing run resolves a turn: the orders of
a turn are the order files as they stood on ``main`` when the turn closed, and any
order file that landed later is *set aside*, whatever let it in (a merge made by
hand after the deadline, a pull request checked in time and merged late, a merge
while the turn was paused for tabletop battles, a merge into a turn already
resolved). This holds with GitHub's merge queue or without one: on a personal
account there is none, and the run is the last word.

When a file landed is read from Git: the last commit on ``main``'s first-parent
line that changed it. GitHub makes that commit when it merges a pull request (a
merge or squash commit, or a rebased copy), with its own time as the committer
date, so a player cannot choose it. A turn closes

- when it was paused for battles fought on the tabletop: at the run's commit that
  paused it (the first on ``main`` to add ``battles/<turn>/``): what came after is
  late, whatever the clock said;
- otherwise at its deadline plus the calendar's grace, unless the umpire paused the
  deadline (``calendar.paused``), when nothing is late.

A turn already resolved keeps exactly the order files its record folded in
(``state/turns/<turn>/orders/``); any other file, or other bytes, in
``orders/<turn>/`` is set aside too, so ``ftpress turn --verify`` holds for
everyone. A late edit of a file that was in time is set aside and the version as
the turn closed is put back.

Set aside means moved to ``orders-set-aside/<turn>/<commit>-<file>`` (the commit
that brought it in), in the run's own commit: nothing is lost, and nothing in
``orders/`` differs from what the turn was resolved with. Outside a Git work tree
(an umpire's folder never committed) nothing is judged.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ftpress.errors import Problem
from ftpress.files.write import write_file
from ftpress.orders.load import ORDERS_DIR
from ftpress.state.battle_results import BATTLES_DIR
from ftpress.state.model import State
from ftpress.state.turns import TURNS_DIR, turn_number
from ftpress.text import durations
from ftpress.turn.orders_window import Window

#: Where order files that landed after their turn closed are kept.
SET_ASIDE_DIR = "orders-set-aside"


@dataclass(frozen=True, slots=True)
class SetAside:
    """One order file moved out of its turn's folder."""

    #: ``orders/t003/nac.yaml.age``
    path: str
    #: ``orders-set-aside/t003/<commit>-nac.yaml.age``
    to: str
    #: The commit on main that brought it in (a pull request's merge, usually).
    commit: str
    #: Why, in words: "landed 2026-03-23 09:00 UTC, after t003 closed at …".
    reason: str
    #: The version as the turn closed was put back in its place.
    restored: bool = False


def set_aside_late_orders(root: Path, state: State, now: datetime) -> tuple[SetAside, ...]:
    """Move every order file that landed after its turn closed out of ``orders/``
    (see the module's docstring); what was moved. ``state`` is the campaign's state,
    ``now`` the run's time: before the deadline (and grace) has passed by it, nothing of
    the open turn is late."""
    if not _in_git(root):
        return ()
    open_turn = state.campaign.calendar.turn
    moved: list[SetAside] = []
    folder = root / ORDERS_DIR
    for turn_dir in sorted(folder.iterdir()) if folder.is_dir() else ():
        try:
            number = turn_number(turn_dir.name)
        except ValueError:
            continue  # not a turn's folder: ``check`` names it
        if not turn_dir.is_dir():
            continue
        if number < open_turn:
            moved += _stale(root, turn_dir.name)
        elif number == open_turn:
            moved += _late(root, state, turn_dir.name, now)
    return tuple(moved)


def _not_in_record(root: Path, turn: str) -> list[Path]:
    """Files in ``orders/<turn>/`` of a resolved turn that are not the copies its
    record folded in (``state/turns/<turn>/orders/``)."""
    found = []
    for file in _files(root, turn):
        kept = root / TURNS_DIR / turn / ORDERS_DIR / file.name
        if not kept.is_file() or kept.read_bytes() != file.read_bytes():
            found.append(file)
    return found


def stale_problems(root: Path, state: State) -> list[Problem]:
    """For ``ftpress check``: each order file of a resolved turn that its record did not
    fold in (it would make ``turn --verify`` fail; the next publishing run sets it
    aside)."""
    found = []
    folder = root / ORDERS_DIR
    for turn_dir in sorted(folder.iterdir()) if folder.is_dir() else ():
        try:
            resolved = turn_number(turn_dir.name) < state.campaign.calendar.turn
        except ValueError:
            continue
        for file in _not_in_record(root, turn_dir.name) if resolved else ():
            found.append(Problem(f"{ORDERS_DIR}/{turn_dir.name}/{file.name}", 0, 0,
                                 f"not the order file {turn_dir.name} was resolved with "
                                 f"({TURNS_DIR}/{turn_dir.name}/{ORDERS_DIR}/ keeps those): it "
                                 f"came after the turn closed; the next publishing run moves it "
                                 f"to {SET_ASIDE_DIR}/{turn_dir.name}/, as nothing late counts"))
    return found


def set_aside_files(root: Path) -> tuple[str, ...]:
    """Every order file set aside so far, ``orders-set-aside/<turn>/<commit>-<file>``."""
    folder = root / SET_ASIDE_DIR
    return tuple(sorted(p.relative_to(root).as_posix() for p in folder.rglob("*")
                        if p.is_file())) if folder.is_dir() else ()


def _stale(root: Path, turn: str) -> list[SetAside]:
    """Files of a resolved turn that are not the copies its record folded in."""
    found = []
    for file in _not_in_record(root, turn):
        kept = root / TURNS_DIR / turn / ORDERS_DIR / file.name
        rel = f"{ORDERS_DIR}/{turn}/{file.name}"
        landed = _landed(root, rel)
        if landed is None:
            continue  # not committed: nothing merged it
        commit, when = landed
        found.append(_move(root, rel, commit, (
            f"it landed on main {durations.utc(when)}, after {turn} was resolved; the turn "
            "keeps the orders its record folded in"),
            kept.read_bytes() if kept.is_file() else None))
    return found


def _late(root: Path, state: State, turn: str, now: datetime) -> list[SetAside]:
    """Files of the open turn that landed after it closed (its pause, or its deadline
    and grace)."""
    calendar = state.campaign.calendar
    paused_at = _pause_commit(root, turn)
    window = Window.of(calendar)
    if paused_at is None and (window.paused or not _files(root, turn)):
        return []
    closes = window.deadline + window.grace
    if paused_at is None and now <= closes:
        return []
    found = []
    for file in _files(root, turn):
        rel = f"{ORDERS_DIR}/{turn}/{file.name}"
        landed = _landed(root, rel)
        if landed is None:
            continue
        commit, when = landed
        if paused_at is not None:
            if _git(root, "merge-base", "--is-ancestor", commit, paused_at) is not None:
                continue
            why = (f"it landed on main {durations.utc(when)}, after {turn} paused for battles "
                   "fought on the tabletop; the turn resolves with the orders it paused with")
            then = _blob(root, paused_at, rel)
        else:
            if when <= closes:
                continue
            grace = f" and its grace of {durations.spoken(window.grace)}" if window.grace else ""
            why = (f"it landed on main {durations.utc(when)}, after {turn}'s orders closed: "
                   f"they were due {durations.utc(window.deadline)}{grace}; the turn resolves "
                   "with the orders on main by then")
            before = _git(root, "rev-list", "--first-parent", "-1",
                          f"--before={int(closes.timestamp())}", "HEAD")
            then = _blob(root, before, rel) if before else None
        found.append(_move(root, rel, commit, why, then))
    return found


def _move(root: Path, rel: str, commit: str, reason: str, then: bytes | None) -> SetAside:
    """Move ``rel`` aside (and put ``then`` back in its place, if it was there)."""
    source = root / rel
    turn, name = rel.split("/")[1:3]
    to = f"{SET_ASIDE_DIR}/{turn}/{commit[:12]}-{name}"
    write_file(root / to, source.read_bytes())
    if then is None:
        source.unlink()
    else:
        write_file(source, then)
    return SetAside(rel, to, commit, reason, then is not None)


def _files(root: Path, turn: str) -> list[Path]:
    folder = root / ORDERS_DIR / turn
    return sorted(p for p in folder.glob("*.yaml*") if p.is_file() and not p.is_symlink()) \
        if folder.is_dir() else []


def _landed(root: Path, rel: str) -> tuple[str, datetime] | None:
    """The last commit on HEAD's first-parent line that changed ``rel``, and its
    committer date; None if none did (the file is not committed)."""
    out = _git(root, "log", "--first-parent", "-1", "--format=%H %ct", "--", rel)
    if not out:
        return None
    commit, stamp = out.split()
    return commit, datetime.fromtimestamp(int(stamp), UTC)


def _pause_commit(root: Path, turn: str) -> str | None:
    """The first commit on HEAD's first-parent line that added ``battles/<turn>/``: the
    run's commit that paused the turn; None if it never paused."""
    out = _git(root, "log", "--first-parent", "--reverse", "--diff-filter=A",
               "--format=%H", "--", f"{BATTLES_DIR}/{turn}/")
    return out.split()[0] if out else None


def _blob(root: Path, commit: str, rel: str) -> bytes | None:
    done = subprocess.run(["git", "-C", str(root), "show", f"{commit}:./{rel}"],
                          capture_output=True, check=False)
    return done.stdout if done.returncode == 0 else None


def _git(root: Path, *args: str) -> str | None:
    """Git's output, stripped; None when git fails (or answers no, for --is-ancestor)."""
    done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                          check=False)
    return done.stdout.strip() if done.returncode == 0 else None


def _in_git(root: Path) -> bool:
    return _git(root, "rev-parse", "--verify", "--quiet", "HEAD") is not None
