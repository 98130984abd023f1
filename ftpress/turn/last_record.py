"""Does ``state/`` stand where the last recorded turn left it?

A turn writes its record and the current state together
(:mod:`ftpress.state.writeout`), so the two can only disagree in two ways: the
umpire edited ``state/`` since (the next turn then keeps the edited start in
``before/``; that is allowed), or an earlier version of ftpress was killed while
writing a turn out, leaving some of ``state/`` behind. The second is told from the
first by what the files hold:

- the calendar still opens a turn that is recorded already; or
- a file holds what it held before the last turn, which changed it: the
  write-out never reached it. (An edit that happens to undo exactly what
  the turn did to a file looks the same; it is refused too, and ``--redo`` is
  the way to change what a recorded turn did.)

Resolving a turn on such a mix would record it as the next turn's start.
"""

from __future__ import annotations

from pathlib import Path

from ftpress.errors import InputError, Problem
from ftpress.files import yamlsource
from ftpress.state.files import KINDS, STATE_DIR
from ftpress.state.load import snapshot_folders
from ftpress.state.turns import TURNS_DIR, turn_id, turn_number
from ftpress.store import CampaignStore

_CAMPAIGN = f"{STATE_DIR}/{KINDS['campaign'].file}"


def behind_last_record(store: CampaignStore) -> list[Problem]:
    """Where ``state/`` is not as the last recorded turn left it (see the module
    docstring); [] when it is, or when nothing but the setup is recorded. Where the
    ``store`` reads the whole files (a sealed campaign with the umpire's key), the twins
    are compared too, by what they say: a stale twin (a merge conflict resolved the
    wrong way) under a current projection."""
    root = store.root
    numbers = []
    for folder in snapshot_folders(root):
        try:
            numbers.append(turn_number(folder.rsplit("/", 1)[1]))
        except ValueError:
            continue  # a misnamed folder: the load reports it
    if not numbers or max(numbers) == 0:
        return []
    last = turn_id(max(numbers))
    record = f"{TURNS_DIR}/{last}"
    behind = _calendar_behind(root, max(numbers), record)
    if behind is not None:
        return [behind]
    start = f"{record}/before" if (root / record / "before").is_dir() else \
        f"{TURNS_DIR}/{turn_id(max(numbers) - 1)}"
    def said(folder: str, name: str) -> bytes | None:
        try:
            whole = store.twin_said(f"{folder}/{name}")
        except InputError:
            return None  # the store's check says what is wrong with it
        return whole if whole is not None else _bytes(root / folder / name)

    differ = [kind for kind in KINDS.values()
              if said(STATE_DIR, kind.file) != said(record, kind.file)]
    if not differ:
        return []  # as after every turn: nothing to parse
    try:  # compared as models: an edit by hand is the same state in other words
        now, then, after = (store.folder_state(f) for f in (STATE_DIR, start, record))
    except InputError:
        return []  # the load says what is wrong
    return [_behind(store, last, start, record, kind.file)
            for kind in differ
            if getattr(now, kind.name) == getattr(then, kind.name) != getattr(after, kind.name)]


def _behind(store: CampaignStore, last: str, start: str, record: str, name: str) -> Problem:
    whole = store.kept_as(name)[-1]  # the file that holds the whole state
    if whole != name and store.key is not None and (store.root / STATE_DIR / whole).is_file():
        return Problem(f"{STATE_DIR}/{whole}", 0, 0,
                       f"says what {STATE_DIR}/{name} said before {last} ({start}/{name}), "
                       f"but {last} changed it: it is older than the record (a merge resolved "
                       f"the wrong way?); expected it as {last} left it: copy "
                       f"{record}/{whole} over it (not 'keys seal-campaign', which would "
                       "keep the old one)")
    return Problem(f"{STATE_DIR}/{name}", 0, 0,
                   f"is as it stood before {last} ({start}/{name}), but {last} changed "
                   f"it: writing out {last} stopped before it reached this file; expected it "
                   f"as {last} left it: copy {record}/{name} over it")


def _calendar_behind(root: Path, last: int, record: str) -> Problem | None:
    """A problem if ``state/campaign.yaml`` still opens a turn that is recorded."""
    try:
        data = yamlsource.parse(yamlsource.read_text(root / _CAMPAIGN, _CAMPAIGN), _CAMPAIGN)
    except (InputError, OSError):
        return None  # the load says what is wrong with it
    calendar = data.get("calendar") if isinstance(data, dict) else None
    number = calendar.get("turn") if isinstance(calendar, dict) else None
    if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number <= last:
        return None
    line, col = yamlsource.locate(data, ("calendar", "turn"))
    return Problem(_CAMPAIGN, line, col,
                   f"the open turn is {turn_id(number)}, but {turn_id(last)} is recorded "
                   f"({record}/): state/ was not brought up to date when it was written out; "
                   f"expected the open turn {turn_id(last + 1)}: run `ftpress turn` to copy "
                   "the record's state into place")


def _bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None
