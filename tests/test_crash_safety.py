"""A turn's record and the state it changes become visible together or not at all.

``ftpress turn`` (and ``--redo``) is stopped at each of its write and sync calls
in turn: fault injection, not timing. Killed, the N-th call fails and so does
every call after it, as in a process that died there (no cleanup gets to write);
with Ctrl-C, the N-th call raises ``KeyboardInterrupt`` and the command unwinds.
Whatever the moment:

- no file of ``state/`` is torn or foreign: each is as it was or as the turn
  writes it; and the whole tree is the old one or the new one, unless the
  write-out had passed its commit point, in which case only what is left for
  the next command to move into place differs;
- the next command (here ``ftpress status``) finishes or undoes the write-out
  before anything else and says so in one line, leaving exactly the old tree or
  exactly the new one;
- resolving on from there gives exactly the reference result, byte for byte.
"""

from __future__ import annotations

import builtins
import io
import json
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from turnfixture import build_state

from ftpress.cli import main
from ftpress.files.lock import LOCK_FILE
from ftpress.state import files, writeout
from ftpress.state.save import save_state

from conftest import files_of

T001 = "2026-03-16T09:00:00+00:00"
T002 = "2026-03-23T09:00:00+00:00"
T003 = "2026-03-30T09:00:00+00:00"

#: Two powers, three worlds: a turn resolves in milliseconds and writes a full record
#: (the state it started from in ``before/`` too: there is no setup snapshot).
SPEC = {
    "systems": [{"id": "a", "hex": [0, 0], "owner": "nac"}, {"id": "b", "hex": [2, -1]},
                {"id": "d", "hex": [-2, 1], "owner": "esu"}],
    "groups": [{"id": "n1", "owner": "nac", "at": "a", "ships": ["dd", "sc"]},
               {"id": "e1", "owner": "esu", "at": "d", "ships": ["dd"]}],
    "battles": "abstract",
    "players": {"nac": {"treasury": 358}, "esu": {"treasury": 392}},
}
ORDERS = {"nac": "n1: {move: b, posture: attack}", "esu": "e1: {move: a, posture: attack}"}

JOURNAL = writeout.WRITE_OUT
FINISHED = "ftpress: finished writing {about}, which an interrupted run had begun\n"
UNDONE = ("ftpress: undid the unfinished writing of {about}, which an interrupted run had "
          "begun; state/ is as it was\n")
EMPTY = f"ftpress: removed the empty {JOURNAL}/ an interrupted run left\n"


class Killed(BaseException):
    """The process died at this call."""


#: The ``os`` calls that change the file system (:mod:`pathlib` and :mod:`shutil` go
#: through them too); ``open`` counts when it opens for writing.
CHANGING = ("write", "fsync", "fdatasync", "replace", "rename", "mkdir", "unlink", "rmdir",
            "chmod", "utime", "link", "symlink", "truncate", "ftruncate", "sendfile")
FLUSHES = ("fsync", "fdatasync")
_WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


@dataclass
class Faults:
    """Counts the changing calls; fails the ``at``-th (1-based) as a kill or a Ctrl-C."""

    at: int | None = None
    ctrl_c: bool = False
    calls: list[str] = field(default_factory=list)
    dead: bool = False

    def __call__(self, name: str) -> None:
        self.calls.append(name)
        if self.dead:
            raise Killed(name)
        if len(self.calls) == self.at:
            if self.ctrl_c:
                raise KeyboardInterrupt
            self.dead = True
            raise Killed(name)


@contextmanager
def injected(faults: Faults) -> Iterator[None]:
    def wrapped(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            faults(f"{name} {args[0]}" if name == "mkdir" else name)
            return real(*args, **kwargs)
        return call

    def flush(name: str) -> Callable[..., None]:
        # Counted, not done: a flush changes nothing another process can see, and
        # thousands of them on a busy disk would make the test slow, not stricter.
        return lambda *args, **kwargs: faults(name)

    real_open, real_io_open = os.open, io.open

    def os_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & _WRITING:
            faults("open")
        return real_open(path, flags, *args, **kwargs)

    def io_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if any(c in mode for c in "wax+"):
            faults("open")
        return real_io_open(file, mode, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        for name in CHANGING:
            if hasattr(os, name):
                patch.setattr(os, name, flush(name) if name in FLUSHES else
                              wrapped(name, getattr(os, name)))
        patch.setattr(os, "open", os_open)
        patch.setattr(io, "open", io_open)
        patch.setattr(builtins, "open", io_open)
        yield


def copy(source: Path, target: Path) -> None:
    """A copy of a campaign folder made of hard links: quick, and safe, since ftpress
    never writes a file in place (it writes a new one and renames it)."""
    shutil.copytree(source, target, copy_function=os.link)


def make_campaign(root: Path) -> Path:
    save_state(root, build_state(SPEC))
    (root / "site.yaml").write_text("title: Case\nbase_url: https://example.org/\n"
                                    "timezone: UTC\n")
    (root / "orders/t001").mkdir(parents=True)
    for player, text in ORDERS.items():
        (root / f"orders/t001/{player}.yaml").write_text(
            f"turn: t001\nplayer: {player}\ngroups:\n  {text}\n")
    return root


def command(capsys: pytest.CaptureFixture[str], *args: str | Path,
            faults: Faults | None = None) -> tuple[int | None, str]:
    """Run the CLI in-process, under ``faults``: the exit code (None: killed), stderr."""
    with injected(faults or Faults()):
        try:
            code: int | None = main([str(a) for a in args])
        except Killed:
            code = None
    return code, capsys.readouterr().err


@dataclass(frozen=True)
class Reference:
    """The campaign before (``old``), after t001 (``new``) and after t002 (``next``),
    and the changing calls a clean run of the command makes."""

    old: dict[str, bytes]
    new: dict[str, bytes]
    next: dict[str, bytes]
    calls: tuple[str, ...]


def reference(capsys: pytest.CaptureFixture[str], base: Path, *args: str,
              then: str = T002) -> Reference:
    """What running ``args`` on the campaign ``base/old`` does, then the turn after it
    resolved at ``then``."""
    root = base / "reference"
    copy(base / "old", root)
    old = files_of(root)
    counted = Faults()
    assert command(capsys, *args, "--source", root, faults=counted)[0] == 0
    new = files_of(root)
    assert command(capsys, "turn", "--source", root, "--now", then)[0] == 0
    return Reference(old, new, files_of(root), tuple(counted.calls))


def assert_all_or_nothing(capsys: pytest.CaptureFixture[str], base: Path, ref: Reference,
                          turn: str, ctrl_c: bool, *args: str) -> None:
    assert len(ref.calls) > 40, ref.calls  # the injection sees the write-out
    for at in range(1, len(ref.calls) + 1):
        where = f"{'Ctrl-C' if ctrl_c else 'killed'} at call {at} ({ref.calls[at - 1]})"
        root = base / f"at-{at}"
        copy(base / "old", root)
        code, _ = command(capsys, *args, "--source", root, faults=Faults(at, ctrl_c))
        assert code == (130 if ctrl_c else None), where
        journal = root / JOURNAL
        committed = (journal / "committed").exists()
        # The lock a killed run holds is the process's, not the campaign's: a reader drops
        # it, a writer takes it over (test_campaign_lock.py).
        seen = {p: data for p, data in files_of(root).items()
                if not p.startswith(JOURNAL) and p != LOCK_FILE}
        torn = [p for p in set(seen) | set(ref.old) | set(ref.new)
                if seen.get(p) not in (ref.old.get(p), ref.new.get(p))]
        assert not torn, f"{where}: {torn}"
        assert committed or seen in (ref.old, ref.new), where
        done = committed or seen == ref.new

        expected = ("" if not journal.exists() else
                    (FINISHED if committed else UNDONE if any(journal.iterdir())
                     else EMPTY).format(about=about(journal, turn)))
        assert command(capsys, "status", "--source", root, "--now", T001) == (0, expected), where
        assert files_of(root) == (ref.new if done else ref.old), where
        if not done:
            assert command(capsys, *args, "--source", root)[0] == 0, where
            assert files_of(root) == ref.new, where
        assert command(capsys, "turn", "--source", root, "--now", T002)[0] == 0, where
        assert files_of(root) == ref.next, where
        shutil.rmtree(root)


def about(journal: Path, turn: str) -> str:
    """How the recovery line names the write-out: as its plan says, if it was written
    whole before the run stopped."""
    try:
        json.loads((journal / "plan.json").read_bytes())
    except (OSError, ValueError):
        return "state/"
    return f"the record of {turn} and state/"


@pytest.mark.parametrize("ctrl_c", [False, True], ids=["killed", "ctrl-c"])
def test_a_turn_stopped_at_any_write_leaves_the_old_state_or_the_new(tmp_path, capsys, ctrl_c):
    make_campaign(tmp_path / "old")
    args = ("turn", "--now", T001)
    ref = reference(capsys, tmp_path, *args)
    assert_all_or_nothing(capsys, tmp_path, ref, "t001", ctrl_c, *args)


def test_a_redo_stopped_at_any_write_leaves_the_old_records_or_the_new(tmp_path, capsys):
    """``--redo`` rewrites two records and state/ through the same write-out: here the
    recorded copy of an order file was corrected, so both turns come out different."""
    old = make_campaign(tmp_path / "old")
    assert command(capsys, "turn", "--source", old, "--now", T001)[0] == 0
    assert command(capsys, "turn", "--source", old, "--now", T002)[0] == 0
    # The order file corrected, and the record's copy with it (the next turn refuses an
    # order file that differs from its record's copy, as check does).
    for kept in (old / "state/turns/t001/orders/esu.yaml", old / "orders/t001/esu.yaml"):
        kept.write_text(kept.read_text().replace("move: a", "move: b"))
    (old / "state/turns/t001/notes.txt").write_text("another tool's file, carried over\n")
    args = ("turn", "--redo", "t001")
    ref = reference(capsys, tmp_path, *args, then=T003)
    assert ref.new["state/turns/t001/notes.txt"] == b"another tool's file, carried over\n"
    assert ref.new["state/groups.yaml"] != ref.old["state/groups.yaml"]
    # From the write-out on: before it, the redo only reads (and writes scratch files
    # outside the campaign).
    begun = next(i for i, call in enumerate(ref.calls) if call.endswith(JOURNAL))
    for at in range(begun + 1, len(ref.calls) + 1):
        where = f"killed at call {at} ({ref.calls[at - 1]})"
        root = tmp_path / f"at-{at}"
        copy(old, root)
        assert command(capsys, *args, "--source", root, faults=Faults(at))[0] is None, where
        committed = (root / JOURNAL / "committed").exists()
        seen = {p: data for p, data in files_of(root).items()
                if not p.startswith(JOURNAL) and p != LOCK_FILE}
        assert committed or seen in (ref.old, ref.new), where
        line = command(capsys, "status", "--source", root, "--now", T002)[1]
        assert line.count("\n") <= 1 and (line.startswith("ftpress: ") or not line), where
        assert files_of(root) == (ref.new if committed or seen == ref.new else ref.old), where
        shutil.rmtree(root)


# --- what earlier versions left, and a state/ that does not match its record ---------

@pytest.fixture
def recorded(tmp_path, capsys):
    """The small campaign with t001 recorded, and the state before it (``before``)."""
    root = make_campaign(tmp_path / "campaign")
    before = files_of(root)
    assert command(capsys, "turn", "--source", root, "--now", T001)[0] == 0
    return root, before


def test_what_killed_runs_of_earlier_versions_left_is_swept_and_said(recorded, capsys):
    root, _ = recorded
    clean = files_of(root)
    (root / "state/.tmp-k2j3.yaml").write_text("players: [\n")
    (root / "state/turns/.t002.tmp-x1/orders").mkdir(parents=True)
    (root / "state/turns/.t002.tmp-x1/events.yaml").write_text("turn: t002\n")
    (root / "state/turns/t001").rename(root / "state/turns/.t001.old-q9")  # a redo, cut short
    assert command(capsys, "status", "--source", root, "--now", T002) == (0, (
        "ftpress: put back state/turns/t001/, which an interrupted redo had moved aside; "
        "removed what interrupted runs left in state/: state/.tmp-k2j3.yaml, "
        "state/turns/.t002.tmp-x1\n"))
    assert files_of(root) == clean
    assert command(capsys, "status", "--source", root, "--now", T002) == (0, "")


def test_check_and_turn_refuse_a_state_that_a_write_out_never_reached(recorded, capsys):
    """The mix an earlier version left when killed: the calendar moved on, the groups
    did not. ``check`` says where; ``turn`` refuses to record the mix as t002's start."""
    root, before = recorded
    (root / "state/groups.yaml").write_bytes(before["state/groups.yaml"])
    problem = ("state/groups.yaml: is as it stood before t001 (state/turns/t001/before/"
               "groups.yaml), but t001 changed it: writing out t001 stopped before it reached "
               "this file; expected it as t001 left it: copy state/turns/t001/groups.yaml over it")
    code, err = command(capsys, "check", "--source", root)
    assert code == 1 and problem in err.splitlines(), err
    mixed = files_of(root)
    assert command(capsys, "turn", "--source", root, "--now", T002) == (1, (
        f"{problem}\nftpress: 1 problem found; nothing was written\n"))
    assert files_of(root) == mixed
    shutil.copy(root / "state/turns/t001/groups.yaml", root / "state/groups.yaml")
    code, err = command(capsys, "check", "--source", root)
    assert "groups.yaml" not in err


def test_check_reports_a_calendar_that_still_opens_a_recorded_turn(recorded, capsys, run):
    root, before = recorded
    for name in ("campaign.yaml", "groups.yaml", "players.yaml", "map.yaml"):
        (root / "state" / name).write_bytes(before[f"state/{name}"])
    code, err = command(capsys, "check", "--source", root)
    assert code == 1
    assert ("state/campaign.yaml:6:9: the open turn is t001, but t001 is recorded "
            "(state/turns/t001/): state/ was not brought up to date when it was written out; "
            "expected the open turn t002: run `ftpress turn` to copy the record's state into "
            "place") in err.splitlines(), err
    assert "is as it stood before" not in err  # one problem says it all
    assert run("turn", "--source", root, "--now", T002) == (
        0, "note: t001 was recorded but state/ was not updated; it is now\n"
        "resolved t001: 0 events, 0 dice rolled; recorded in state/turns/t001/; t002 opens, "
        "orders due 2026-03-22 20:00:00+00:00\n", "")
    assert files_of(root)["state/groups.yaml"] == files_of(root)["state/turns/t001/groups.yaml"]


def test_the_write_out_names_the_state_folder_as_the_state_does():
    assert writeout.STATE_DIR == files.STATE_DIR


def test_a_write_out_under_way_is_waited_for_not_taken_for_an_interrupted_one(recorded):
    """While a write-out holds the lock on state/, a command that finds its journal
    waits; it acts only on what is left once the lock is free."""
    import threading

    fcntl = pytest.importorskip("fcntl")  # where the system has no flock, nothing waits
    root, _ = recorded
    journal = root / JOURNAL
    journal.mkdir()
    (journal / "plan.json").write_text('{"about": "the record of t002 and state/", '
                                       '"targets": ["state/groups.yaml"]}')
    lock = os.open(root / "state", os.O_RDONLY)
    fcntl.flock(lock, fcntl.LOCK_EX)
    found: list[str | None] = []
    waiting = threading.Thread(target=lambda: found.append(writeout.recover(root)))
    waiting.start()
    waiting.join(0.3)
    assert waiting.is_alive() and journal.exists()
    os.close(lock)
    waiting.join()
    assert found == ["undid the unfinished writing of the record of t002 and state/, which "
                     "an interrupted run had begun; state/ is as it was"]
    assert not journal.exists()


@pytest.mark.parametrize("stage", ["staging", "moving"])
def test_a_recovery_stopped_at_any_write_is_taken_up_by_the_next_command(tmp_path, capsys, stage):
    """Finishing or undoing is itself done once, whatever stops it: killed at any of its
    own calls, the command after it still ends with exactly the old or the new tree."""
    make_campaign(tmp_path / "old")
    args = ("turn", "--now", T001)
    ref = reference(capsys, tmp_path, *args)
    # Killed while the files were being staged (undone), or halfway through moving
    # them into place (finished).
    at = (ref.calls.index("write", 20) if stage == "staging" else
          ref.calls.index("replace") + 3)
    crashed = tmp_path / "crashed"
    copy(tmp_path / "old", crashed)
    assert command(capsys, *args, "--source", crashed, faults=Faults(at))[0] is None
    counted = Faults()
    probe = tmp_path / "probe"
    copy(crashed, probe)
    assert command(capsys, "status", "--source", probe, "--now", T001, faults=counted)[0] == 0
    expected = files_of(probe)
    assert expected == (ref.old if stage == "staging" else ref.new)
    assert len(counted.calls) > 3, counted.calls
    for again in range(1, len(counted.calls) + 1):
        where = f"recovery killed at call {again} ({counted.calls[again - 1]})"
        root = tmp_path / f"again-{again}"
        copy(crashed, root)
        assert command(capsys, "status", "--source", root, "--now", T001,
                       faults=Faults(again))[0] is None, where
        code, err = command(capsys, "status", "--source", root, "--now", T001)
        assert code == 0 and err.count("\n") == 1, f"{where}: {err}"
        assert files_of(root) == expected, where
        shutil.rmtree(root)


# --- one writer at a time: the campaign lock ----------------------------------------

@dataclass
class Meanwhile(Faults):
    """Runs ``other`` once, as the write-out under way makes its journal: a second
    command started while the first is writing, at a chosen moment, not a timed one."""

    other: Callable[[], tuple[int | None, str]] | None = None
    said: list[tuple[int | None, str]] = field(default_factory=list)

    def __call__(self, name: str) -> None:
        if self.other is not None and name.endswith(JOURNAL):
            other, self.other = self.other, None
            self.said.append(other())
        super().__call__(name)


def _while_a_turn_runs(capsys: pytest.CaptureFixture[str], root: Path, *args: str,
                       ) -> tuple[int | None, str]:
    def other() -> tuple[int | None, str]:
        capsys.readouterr()
        code = main([*args, "--source", str(root)])
        return code, capsys.readouterr().err

    meanwhile = Meanwhile(other=other)
    assert command(capsys, "turn", "--source", root, "--now", T001, faults=meanwhile)[0] == 0
    assert len(meanwhile.said) == 1
    return meanwhile.said[0]


@pytest.mark.parametrize("second", [("turn", "--now", T001), ("keys", "rotate")],
                         ids=["turn", "keys-rotate"])
def test_a_second_writer_is_refused_while_a_turn_runs(tmp_path, capsys, second):
    """Two ``ftpress turn`` at once, or ``keys rotate`` during a turn: the second is
    refused, naming the holder, and the campaign ends exactly as one turn leaves it."""
    old = make_campaign(tmp_path / "old")
    assert command(capsys, "keys", "init", "--source", old)[0] == 0
    single = tmp_path / "single"
    copy(old, single)
    assert command(capsys, "turn", "--source", single, "--now", T001)[0] == 0
    root = tmp_path / "twice"
    copy(old, root)
    code, err = _while_a_turn_runs(capsys, root, *second)
    assert code == 1, err
    assert err.startswith(f"ftpress: `ftpress turn --source {root} --now {T001}` (pid "), err
    assert err.endswith(f"is writing this campaign (it holds {LOCK_FILE}); nothing was "
                        "changed: run the command again once it has finished\n"), err
    assert files_of(root) == files_of(single)
    assert not (root / LOCK_FILE).exists()


def test_a_lock_a_dead_writer_left_is_taken_over_and_said(recorded, capsys):
    root, _ = recorded
    clean = files_of(root)
    (root / LOCK_FILE).write_text("`ftpress keys rotate` (pid 99999 on elsewhere, since "
                                  "2026-03-16T09:00:00+00:00)\n")
    (root / "orders/t002").mkdir()
    (root / "orders/t002/.tmp-k2j3.age").write_bytes(b"age-encryption.org/v1\n")
    code, err = command(capsys, "calendar", "pause", "--source", root, "--now", T001)
    assert code == 0, err
    assert err == (f"ftpress: took over {LOCK_FILE}, left by `ftpress keys rotate` (pid 99999 "
                   "on elsewhere, since 2026-03-16T09:00:00+00:00), which is no longer "
                   "running\nftpress: removed the temporary files interrupted runs left: "
                   "orders/t002/.tmp-k2j3.age\n")
    assert not (root / LOCK_FILE).exists()
    assert set(files_of(root)) == set(clean)
    # A reader leaves a held lock alone and drops a dead one, silently.
    (root / LOCK_FILE).write_text("`ftpress turn` (pid 99999 on elsewhere)\n")
    assert command(capsys, "status", "--source", root, "--now", T001)[0] == 0
    assert not (root / LOCK_FILE).exists()


def test_check_reports_the_temporary_file_a_killed_seal_left(recorded, capsys):
    root, _ = recorded
    (root / "orders/t002").mkdir()
    (root / "orders/t002/.tmp-x8d1.age").write_bytes(b"age-encryption.org/v1\n")
    code, err = command(capsys, "check", "--source", root)
    assert code == 1
    assert ("orders/t002/.tmp-x8d1.age: a temporary file an interrupted ftpress command "
            "left; expected none: the next command that writes the campaign removes it, or "
            "delete it") in err.splitlines(), err


# --- keys rotate killed at any write, twice: some key on disk opens everything -------

def _key_files(root: Path) -> dict[str, list[Any]]:
    from ftpress.secrecy import agekeys

    found = {}
    for name in (agekeys.UMPIRE_KEY_FILE, f"{agekeys.UMPIRE_KEY_FILE}.old"):
        if (root / name).is_file():
            found[name] = agekeys.read_identity(root / name)
    return found


def _opened_by_one_key_file(root: Path) -> str | None:
    """The key file on disk that opens every file sealed to the umpires; None if none."""
    from ftpress.secrecy import agekeys

    sealed = [p for p in sorted(root.rglob("*.age")) if not p.name.startswith(".tmp-")
              and JOURNAL not in p.relative_to(root).as_posix()]
    for name, identities in _key_files(root).items():
        try:
            for file in sealed:
                agekeys.decrypt(file.read_bytes(), identities)
        except agekeys.Unreadable:
            continue
        return name
    return None


def test_keys_rotate_killed_at_any_write_twice_never_loses_the_campaign(tmp_path, capsys):
    """The issue's scenario: ``keys rotate`` killed at its N-th write, then killed again
    (with ``--identity .ftpress-umpire-key.old``, as a user recovering would run it):
    at every moment some key file on disk opens every sealed file, a command reading the
    campaign finds its key, and a rotation run to the end leaves one key opening all."""
    base = _sealed_case(tmp_path / "base", capsys)
    assert command(capsys, "turn", "--source", base, "--now", T001)[0] == 0
    shutil.rmtree(base / "orders/t001")  # sealed: the record keeps them
    counted = Faults()
    probe = tmp_path / "probe"
    copy(base, probe)
    assert command(capsys, "keys", "rotate", "--source", probe, faults=counted)[0] == 0
    assert _opened_by_one_key_file(probe) == ".ftpress-umpire-key"
    calls = len(counted.calls)
    assert calls > 20, counted.calls
    for at in range(1, calls + 1):
        where = f"killed at call {at} ({counted.calls[at - 1]})"
        root = tmp_path / f"at-{at}"
        copy(base, root)
        assert command(capsys, "keys", "rotate", "--source", root,
                       faults=Faults(at))[0] is None, where
        assert _opened_by_one_key_file(root) is not None, where
        again = ("--identity", root / ".ftpress-umpire-key.old") \
            if (root / ".ftpress-umpire-key.old").is_file() else ()
        code, err = command(capsys, "keys", "rotate", "--source", root, *again,
                            faults=Faults(at))
        assert code in (None, 1), f"{where}: {err}"
        assert _opened_by_one_key_file(root) is not None, where
        code, err = command(capsys, "status", "--source", root)
        assert code == 0, f"{where}: {err}"
        code, err = command(capsys, "keys", "rotate", "--source", root)
        assert code == 0, f"{where}: {err}"
        assert _opened_by_one_key_file(root) == ".ftpress-umpire-key", where
        shutil.rmtree(root)


def test_a_refusal_names_the_key_file_a_cut_short_rotation_kept(tmp_path, capsys):
    """The key file replaced by one that does not open the campaign (as an earlier
    version's rotation, killed, left it): the refusal names the file that does."""
    from ftpress.secrecy import agekeys

    root = _sealed_case(tmp_path / "campaign", capsys)
    (root / ".ftpress-umpire-key").rename(root / ".ftpress-umpire-key.old")
    (root / ".ftpress-umpire-key").write_text(agekeys.new_identity().secret + "\n")
    code, err = command(capsys, "turn", "--source", root, "--now", T001)
    assert code == 1
    assert ("; .ftpress-umpire-key.old opens it (a 'keys rotate' cut short kept it there): "
            "give --identity .ftpress-umpire-key.old, or run 'ftpress keys rotate --identity "
            ".ftpress-umpire-key.old' to finish the rotation") in err, err
    assert command(capsys, "keys", "rotate", "--identity", root / ".ftpress-umpire-key.old",
                   "--source", root)[0] == 0
    assert _opened_by_one_key_file(root) == ".ftpress-umpire-key"


# --- a second umpire is added, never substituted ------------------------------------

def _sealed_case(root: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    make_campaign(root)
    campaign = root / "state/campaign.yaml"
    campaign.write_text(campaign.read_text().replace("  battles: abstract\n",
                                                     "  battles: abstract\n  secrecy: sealed\n"))
    for args in (("keys", "init"), ("keys", "seal-campaign")):
        assert command(capsys, *args, "--source", root)[0] == 0, args
    # A fixed master secret in place of the random one 'keys init' made, so that the
    # hidden rolls are the same every run.
    (root / ".ftpress-secret").write_text("the umpire's master secret of the tests\n")
    return root


def test_a_deputy_is_added_as_an_umpire_and_removed_only_on_purpose(tmp_path, capsys):
    from ftpress.secrecy import agekeys

    root = _sealed_case(tmp_path / "campaign", capsys)
    first = agekeys.read_identity(root / ".ftpress-umpire-key")
    listed = (root / "state/campaign.yaml").read_bytes()
    # The deputy's own checkout: 'keys init' makes their key and changes nothing.
    deputy_checkout = tmp_path / "deputy"
    copy(root, deputy_checkout)
    (deputy_checkout / ".ftpress-umpire-key").unlink()
    code, err = command(capsys, "keys", "init", "--source", deputy_checkout)
    assert code == 0, err
    assert (deputy_checkout / "state/campaign.yaml").read_bytes() == listed
    deputy = agekeys.read_identity(deputy_checkout / ".ftpress-umpire-key")
    recipient = str(deputy[0].to_public())  # type: ignore[union-attr]
    # The umpire adds them: both keys open every sealed file.
    code, err = command(capsys, "keys", "add-umpire", recipient, "--source", root)
    assert code == 0, err
    sealed = list(root.rglob("*.age"))
    assert sealed
    for key in (first, deputy):
        for file in sealed:
            agekeys.decrypt(file.read_bytes(), key)
    assert command(capsys, "keys", "add-umpire", recipient, "--source", root)[0] == 1
    code, err = command(capsys, "check", "--source", root)
    assert code == 0, err
    # Removed on purpose: the first key alone opens them again.
    code, err = command(capsys, "keys", "remove-umpire", recipient, "--source", root)
    assert code == 0, err
    for file in sealed:
        agekeys.decrypt(file.read_bytes(), first)
        with pytest.raises(agekeys.Unreadable):
            agekeys.decrypt(file.read_bytes(), deputy)


# --- the turn refuses what check refuses, and writes nothing check would refuse -------

def test_the_turn_refuses_order_files_of_players_who_do_not_exist(tmp_path, capsys):
    root = make_campaign(tmp_path / "campaign")
    for n in range(3):
        (root / f"orders/t001/stranger{n}.yaml").write_text(
            f"turn: t001\nplayer: stranger{n}\ngroups: {{}}\n")
    before = files_of(root)
    code, checked = command(capsys, "check", "--source", root)
    assert code == 1 and "stranger0" in checked
    code, err = command(capsys, "turn", "--source", root, "--now", T001)
    assert code == 1, err
    # The turn refuses with check's own located lines, every one of them.
    assert ("orders/t001/stranger1.yaml:2:9: 'stranger1' is not a player in this campaign; "
            "expected one of nac, esu") in err.splitlines(), err
    assert err.count("is not a player in this campaign") == 3
    assert [line for line in err.splitlines() if "stranger" in line] == \
        [line for line in checked.splitlines() if "stranger" in line]
    assert files_of(root) == before


def test_the_turn_never_writes_a_file_later_commands_refuse_to_read(tmp_path, capsys,
                                                                   monkeypatch):
    """As ten thousand groups would: the events over the size ftpress reads."""
    from ftpress.store import campaign_store

    root = make_campaign(tmp_path / "campaign")
    before = files_of(root)
    monkeypatch.setattr(campaign_store, "WRITE_LIMIT", 400)
    code, err = command(capsys, "turn", "--source", root, "--now", T001)
    assert code == 1, err
    assert "state/turns/t001/events.yaml: would be " in err, err
    assert "bytes, over the 400 bytes ftpress reads of a campaign file" in err
    assert files_of(root) == before


def test_check_and_turn_refuse_a_stale_twin(tmp_path, capsys):
    """A binary merge conflict resolved the wrong way: campaign.yaml.age from before t001
    over the current one, under the current projection. ``check`` refuses it, naming the
    record's copy (not ``seal-campaign``, which would make it permanent), and so does the
    turn."""
    root = _sealed_case(tmp_path / "campaign", capsys)
    stale = (root / "state/campaign.yaml.age").read_bytes()
    assert command(capsys, "turn", "--source", root, "--now", T001)[0] == 0
    shutil.rmtree(root / "orders/t001")  # sealed: the record keeps them
    (root / "state/campaign.yaml.age").write_bytes(stale)
    before = files_of(root)
    problem = ("state/campaign.yaml.age: says what state/campaign.yaml said before t001 "
               "(state/turns/t001/before/campaign.yaml), but t001 changed it: it is older than "
               "the record (a merge resolved the wrong way?); expected it as t001 left it: "
               "copy state/turns/t001/campaign.yaml.age over it (not 'keys seal-campaign', "
               "which would keep the old one)")
    code, err = command(capsys, "check", "--source", root)
    assert code == 1 and problem in err.splitlines(), err
    code, err = command(capsys, "turn", "--source", root, "--now", T002)
    assert code == 1, err
    assert problem in err.splitlines(), err
    assert files_of(root) == before


# --- messages that tell the truth after a crash ------------------------------------

@dataclass
class DiskFull(Faults):
    """The ``at``-th changing call finds the disk full (and the run unwinds)."""

    def __call__(self, name: str) -> None:
        self.calls.append(name)
        if len(self.calls) == self.at:
            import errno
            raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_disk_after_the_commit_point_does_not_say_nothing_was_changed(tmp_path,
                                                                            capsys):
    make_campaign(tmp_path / "old")
    args = ("turn", "--now", T001)
    ref = reference(capsys, tmp_path, *args)
    committed_at = next(i for i, call in enumerate(ref.calls)
                        if call == "replace" and i > ref.calls.index("fsync")) + 1
    for at, after in ((committed_at, True), (ref.calls.index("write", 20) + 1, False)):
        root = tmp_path / f"at-{at}"
        copy(tmp_path / "old", root)
        code, err = command(capsys, *args, "--source", root, faults=DiskFull(at))
        assert code == 1, err
        if after:
            assert "nothing was changed" not in err, err
            assert err.endswith("after the change was committed; it is only partly in place: "
                                "free some space, then run 'ftpress status', which finishes "
                                "it (not this command again, which would go on from there)\n")
            assert command(capsys, "status", "--source", root, "--now", T001)[0] == 0
            assert files_of(root) == ref.new
        else:
            assert err.endswith("nothing was changed: free some space and run the command "
                                "again\n"), err
            assert files_of(root) == ref.old


# --- orders seal killed at any write -------------------------------------------------

def test_orders_seal_killed_at_any_write_leaves_no_half_file_and_its_temporary_is_swept(
        tmp_path, capsys):
    """Killed at any write, ``orders seal`` leaves the sealed file whole or absent; the
    temporary it was writing is reported by ``check`` and swept by the next writer, and
    sealing again gives a file the umpire opens."""
    from pyrage import x25519

    from ftpress.secrecy import agekeys

    base = make_campaign(tmp_path / "base")
    nac = x25519.Identity.generate()
    (base / "nac.key").write_text(f"{nac}\n")
    players = base / "state/players.yaml"
    players.write_text(players.read_text().replace(
        "    capital: a\n", f"    capital: a\n    recipient: {nac.to_public()}\n", 1))
    campaign = base / "state/campaign.yaml"
    campaign.write_text(campaign.read_text().replace("  battles: abstract\n",
                                                     "  battles: abstract\n  secrecy: sealed\n"))
    for args in (("keys", "init"), ("keys", "seal-campaign")):
        assert command(capsys, *args, "--source", base)[0] == 0, args
    plain = base / "orders/t001/nac.yaml"
    args = ("orders", "seal", plain, "--identity", base / "nac.key")
    counted = Faults()
    probe = tmp_path / "probe"
    copy(base, probe)
    assert command(capsys, "orders", "seal", probe / "orders/t001/nac.yaml", "--identity",
                   probe / "nac.key", "--source", probe, faults=counted)[0] == 0
    assert len(counted.calls) > 3, counted.calls
    umpire = agekeys.read_identity(base / ".ftpress-umpire-key")
    for at in range(1, len(counted.calls) + 1):
        where = f"killed at call {at} ({counted.calls[at - 1]})"
        root = tmp_path / f"at-{at}"
        copy(base, root)
        moved = [str(a).replace(str(base), str(root)) for a in args]
        assert command(capsys, *moved, "--source", root, faults=Faults(at))[0] is None, where
        sealed = root / "orders/t001/nac.yaml.age"
        if sealed.exists():
            assert agekeys.decrypt(sealed.read_bytes(), umpire), where
        assert _opened_by_one_key_file(root) == ".ftpress-umpire-key", where
        left = sorted(p.name for p in (root / "orders/t001").glob(".tmp-*"))
        if left:
            code, err = command(capsys, "check", "--source", root)
            assert code == 1 and f"orders/t001/{left[0]}: a temporary file" in err, where
        plain_now = root / "orders/t001/nac.yaml"
        if plain_now.exists():
            code, err = command(capsys, *moved, "--source", root)
            assert code == 0, f"{where}: {err}"
        assert not list((root / "orders/t001").glob(".tmp-*")), where
        assert agekeys.decrypt((root / "orders/t001/nac.yaml.age").read_bytes(), umpire)
        shutil.rmtree(root)


# --- init killed at any write: undone, and run again it makes the campaign ----------

def test_init_killed_at_any_write_leaves_no_campaign_or_a_whole_one(tmp_path, capsys,
                                                                    monkeypatch):
    """Killed at any write, ``init`` leaves the folder as it was or the whole campaign
    in it (its keys with it, never state sealed to a key that was not written); run
    again, it makes the campaign and leaves nothing beside it."""
    monkeypatch.setenv("FTPRESS_UMPIRE_SECRET", "0" * 64)
    args = ("init", "--players", "nac,esu", "--seed", "7", "--now", "2026-03-01T09:00:00Z")

    def campaign_files(root: Path) -> set[str]:
        return {p for p in files_of(root) if not p.startswith(".git/")} \
            if root.exists() else set()

    whole = tmp_path / "whole" / "campaign"
    counted = Faults()
    assert command(capsys, *args, whole, faults=counted)[0] == 0
    made = campaign_files(whole)
    assert ".ftpress-umpire-key" in made
    writes = [i + 1 for i, call in enumerate(counted.calls) if call != "fsync"]
    assert len(writes) > 20, counted.calls
    # Every write of the first files and of the last, and one in five between.
    chosen = sorted({*writes[:15], *writes[-40:], *writes[15:-40:5]})
    for at in chosen:
        where = f"killed at call {at} ({counted.calls[at - 1]})"
        root = tmp_path / f"at-{at}" / "campaign"
        assert command(capsys, *args, root, faults=Faults(at))[0] is None, where
        seen = campaign_files(root)
        assert seen in (set(), made), f"{where}: {sorted(seen ^ made)[:5]}"
        if not seen:
            code, err = command(capsys, *args, root)
            assert code == 0, f"{where}: {err}"
            assert campaign_files(root) == made, where
        # Its keys came with it: the key file on disk opens every sealed file.
        assert _opened_by_one_key_file(root) == ".ftpress-umpire-key", where
        assert [p.name for p in root.parent.iterdir()] == ["campaign"], where
        shutil.rmtree(root.parent)


@pytest.mark.parametrize("moment", ["before", "halfway", "after", "renamed"])
def test_init_killed_around_its_git_init_leaves_no_campaign_or_a_whole_repository(
        tmp_path, capsys, monkeypatch, moment):
    """``git init`` runs in the folder the campaign is staged in, before the one rename:
    killed before it, while it writes (a ``.git/`` half made), just after it, or once the
    folder is in place, ``init`` leaves nothing or the whole campaign with its repository
    on branch main; run again after a kill, it makes both."""
    import subprocess

    from ftpress.github import setup

    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed")
    monkeypatch.setenv("FTPRESS_UMPIRE_SECRET", "0" * 64)
    args = ("init", "--players", "nac,esu", "--seed", "7", "--now", "2026-03-01T09:00:00Z")
    root = tmp_path / "campaign"
    real_run = subprocess.run
    faults = Faults()  # every changing call fails once the process is dead, as it would

    def killed(at: str) -> Killed:
        faults.dead = True
        return Killed(at)

    def run(cmd: list[str], *a: Any, **kw: Any) -> Any:
        if cmd[1:2] != ["init"]:
            return real_run(cmd, *a, **kw)
        if moment == "before":
            raise killed("git init")
        done = real_run(cmd, *a, **kw)
        if moment == "halfway":  # the process died with the repository half written
            shutil.rmtree(Path(cmd[-1]) / ".git/refs")
            (Path(cmd[-1]) / ".git/HEAD").unlink()
        if moment in ("halfway", "after"):
            raise killed("git init")
        return done

    with injected(faults), monkeypatch.context() as patch:
        patch.setattr(setup.subprocess, "run", run)
        real_replace = os.replace  # the injection's, which counts the call

        def replace(source: Any, target: Any) -> None:
            real_replace(source, target)
            if moment == "renamed" and Path(target) == root:
                raise killed("after the rename")

        patch.setattr(os, "replace", replace)
        with suppress(Killed):
            main([*args, str(root)])
    capsys.readouterr()
    if moment != "renamed":
        # Nothing but the staging folder, which the next init sweeps.
        assert [p.name.startswith(".campaign.ftpress-init-") for p in tmp_path.iterdir()] \
            == [True], list(tmp_path.iterdir())
        assert main([*args, str(root)]) == 0, capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["campaign"]
    assert _opened_by_one_key_file(root) == ".ftpress-umpire-key"
    branch = real_run([git, "-C", str(root), "symbolic-ref", "--short", "HEAD"],
                      capture_output=True, text=True, check=True)
    assert branch.stdout == "main\n"
    assert real_run([git, "-C", str(root), "rev-parse", "--show-toplevel"], capture_output=True,
                    text=True, check=True).stdout.strip() == str(root.resolve())
    listed = real_run([git, "-C", str(root), "status", "--porcelain", "--ignored"],
                      capture_output=True, text=True, check=True).stdout
    assert "!! .ftpress-umpire-key" in listed and "?? state/" in listed, listed


@pytest.mark.parametrize("action", ["add-umpire", "seal-campaign", "keys-init"])
def test_every_key_command_killed_at_any_write_leaves_a_key_that_opens_the_campaign(
        tmp_path, capsys, action):
    """Killed at any write (one in three of a long run), a key command leaves some key
    file on disk that opens every sealed file, and run again it finishes."""
    from ftpress.secrecy import agekeys

    base = _sealed_case(tmp_path / "base", capsys)
    assert command(capsys, "turn", "--source", base, "--now", T001)[0] == 0
    shutil.rmtree(base / "orders/t001")  # sealed: the record keeps them
    deputy = agekeys.new_identity().public
    if action == "keys-init":  # a deputy's checkout: their key written, nothing else
        (base / ".ftpress-umpire-key").rename(base / "umpire.key")
    args = {"add-umpire": ("keys", "add-umpire", deputy),
            "seal-campaign": ("keys", "seal-campaign"),
            "keys-init": ("keys", "init")}[action]
    counted = Faults()
    probe = tmp_path / "probe"
    copy(base, probe)
    assert command(capsys, *args, "--source", probe, faults=counted)[0] == 0
    calls = len(counted.calls)
    assert calls > 3, counted.calls
    for at in range(1, calls + 1, 1 if calls < 120 else 3):
        where = f"killed at call {at} ({counted.calls[at - 1]})"
        root = tmp_path / f"at-{at}"
        copy(base, root)
        assert command(capsys, *args, "--source", root, faults=Faults(at))[0] is None, where
        if action == "keys-init":
            (root / "umpire.key").rename(root / ".ftpress-umpire-key.old")
        assert _opened_by_one_key_file(root) is not None, where
        if action != "keys-init":
            code, err = command(capsys, *args, "--source", root)
            assert code in (0, 1) and "Traceback" not in err, f"{where}: {err}"
            assert _opened_by_one_key_file(root) == ".ftpress-umpire-key", where
        shutil.rmtree(root)
