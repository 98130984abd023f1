"""``ftpress check``: everything the build would read, checked, nothing written.

The whole campaign is loaded and rendered in memory exactly as a build would
(drafts and scheduled posts included), so every problem a build could meet is
found. Named files narrow the report to the problems in those files; the
rest of the campaign is still read, because a file is only right or wrong in
the context of the others (a group's owner must be a player).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ftpress.errors import InputError, Problem, RefusedCommand
from ftpress.files.clock import build_now
from ftpress.files.wanted import asked_about
from ftpress.secrecy.twins import UmpireKey
from ftpress.site import BuildOptions, load, render
from ftpress.state.turns import SETUP, TURNS_DIR, turn_number
from ftpress.store import CampaignStore, open_store
from ftpress.turn.last_record import behind_last_record
from ftpress.turn.order_check import check_orders

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
    #: Order files set aside by the publishing run: they landed after their turn closed.
    set_aside: tuple[str, ...] = ()


def check(root: Path, paths: Sequence[Path] = (), identity: Path | None = None) -> CheckReport:
    """Every problem in the campaign at ``root``, or in the files ``paths``.

    The campaign is read through its store (:mod:`ftpress.store`), opened with the key
    ``identity`` (else ``$FTPRESS_UMPIRE_KEY`` or the key file): a sealed campaign is
    checked whole with the umpire's, and so is how it is stored (each plain file the
    projection of its twin); with a player's, their orders against what they know;
    with none, its plain files, and that none holds more than the public may know."""
    wanted, problems = _wanted(root, paths)
    store = open_store(root, identity=identity, why="checking the sealed files",
                       players=True)
    found, unchecked, summaries = _examined(store, wanted)
    scope = "the campaign" if wanted is None else \
        _files_in_scope(root, wanted, [path for path, _ in summaries])
    from ftpress.turn.window import set_aside_files

    return CheckReport(tuple(sorted(set(problems) | set(found))), scope,
                       tuple((path, tuple(lines)) for path, lines in summaries), unchecked,
                       set_aside_files(root))


def campaign_problems(store: CampaignStore) -> tuple[Problem, ...]:
    """Every problem ``ftpress check`` reports of the whole campaign ``store`` holds,
    read as that store reads it (the umpire's, for a turn): the same engine, so that
    what ``check --identity`` refuses, ``ftpress turn`` refuses too."""
    found, _unchecked, _summaries = _examined(store, None)
    return tuple(sorted(set(found)))


def _examined(store: CampaignStore, wanted: set[str] | None,
              ) -> tuple[tuple[Problem, ...], str | None, list[tuple[str, list[str]]]]:
    """What :func:`check` finds through ``store`` (in the ``wanted`` files, if named):
    the problems, what was not checked without the umpire's key, and what each clean
    order file of the open turn will do."""
    root = store.root
    found: tuple[Problem, ...] = ()
    try:
        render(load(store, BuildOptions(build_now(None), drafts=True, future=True)))
    except InputError as exc:
        found = exc.problems
    unchecked = None
    if not found:
        stored, unchecked = store.stored_problems(wanted)
        found = tuple(stored)
    order_problems, summaries = check_orders(store, wanted, store.known())
    found = (*found, *order_problems, *_battle_problems(store), *behind_last_record(store),
             *_stale_orders(root), *_stray_temporaries(root),
             *record_problems(root, store.key))
    if wanted is not None:
        # Problems in site.yaml stop the whole load, so they always count.
        found = tuple(p for p in found if p.path == "site.yaml" or asked_about(p.path, wanted))
    return found, unchecked, summaries


def record_problems(root: Path, umpire: UmpireKey | None) -> list[Problem]:
    """What is wrong with each recorded turn's ``turn.yaml`` (how its dice were seeded,
    which ``ftpress turn --verify`` rolls again from): missing, not its model, or
    naming another turn than its folder's."""
    from ftpress.store.record import read_record

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


def _stray_temporaries(root: Path) -> list[Problem]:
    """The temporary files killed runs left (a killed ``orders seal``'s ``.tmp-*.age``):
    never part of the campaign, and a pull request must not commit them."""
    from ftpress.files.lock import stray_temporaries

    return [Problem(rel, 0, 0, "a temporary file an interrupted ftpress command left; "
                    "expected none: the next command that writes the campaign removes it, "
                    "or delete it") for rel in stray_temporaries(root)]


def _is_turn(name: str) -> bool:
    try:
        turn_number(name)
    except ValueError:
        return False
    return True


def _stale_orders(root: Path) -> list[Problem]:
    """Order files of resolved turns that their records did not fold in."""
    from ftpress.store.campaign import load_state
    from ftpress.turn.window import stale_problems

    try:
        loaded = load_state(root)
    except InputError:
        return []  # reported by the load above
    return stale_problems(root, loaded.state) if loaded is not None else []


def _files_in_scope(root: Path, wanted: set[str], reported: Sequence[str]) -> str:
    """'2 files': the files the named paths cover (a folder named, every file under
    it), and every order file the report summarised, each counted once, so the
    closing line agrees with the files the report went through."""
    files = set(reported)
    for rel in wanted:
        path = root / rel
        if path.is_dir() and not path.is_symlink():
            files |= {f.relative_to(root).as_posix() for f in path.rglob("*")
                      if f.is_file() and not f.is_symlink()}
        else:
            files.add(rel)
    return f"{len(files)} file{'s' if len(files) != 1 else ''}"


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


def _battle_problems(store: CampaignStore) -> list[Problem]:
    """Battle-result files the umpire is filling in: their form, and the battle they
    name (whether they fit the forces that fought is checked when the turn resumes);
    both the plain working copies and the results as the store keeps them (a sealed
    campaign's sealed files, read with the umpire's key; without it they are not read)."""
    from ftpress.state.battle_results import BATTLES_DIR
    from ftpress.store.inputs import load_battles

    found: list[Problem] = []
    base = store.root / BATTLES_DIR
    for folder in sorted(base.iterdir()) if base.is_dir() else ():
        if not folder.is_dir():
            found.append(Problem(f"{BATTLES_DIR}/{folder.name}", 0, 0, "not a battle-result "
                                 f"file; expected {BATTLES_DIR}/<turn-id>/<battle-id>.yaml"))
            continue
        for read in (lambda turn: load_battles(store.root, turn), store.battles):
            try:
                read(folder.name)
            except InputError as exc:
                found.extend(p for p in exc.problems if p not in found)
            except RefusedCommand:
                pass  # sealed, and no key: only the umpires can read them
    return found
