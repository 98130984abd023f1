"""``ftpress turn``: resolve the open turn, record it, advance the calendar.

The orchestrator, in order: load the state and the turn's order files (every
syntax mistake stops it, nothing written); seed the dice; let the campaign's
ruleset resolve the turn; write the record ``state/turns/<turn-id>/`` in a
staging folder and rename it into place (the commit point); then rewrite the
current state files. It writes nowhere else.

**Dice.** The turn's dice are a keyed stream (:mod:`ftpress.dice`) whose key
is made of ``ftpress-turn``, the campaign id, the turn id, the SHA-256 of
every player's orders in canonical form (re-spacing a file changes nothing),
and the umpire's secret for the turn. The secret's SHA-256 is published in
``state/campaign.yaml`` (``calendar.secret_sha256``) when the turn opens and
the secret itself is revealed in the turn's record, so nobody can grind the
dice by reshaping their orders, and anybody can check the dice afterwards.

**Where the secret lives before it is revealed.** The umpire keeps one master
secret, never committed: in the environment variable ``FTPRESS_UMPIRE_SECRET``
(a repository secret of the publishing workflow) or in the git-ignored file
``.ftpress-secret`` at the campaign's root. Each turn's secret is
``HMAC-SHA256(master, "ftpress-turn-secret" | campaign id | turn id)`` in hex,
so revealing one turn's secret gives away nothing about the next. With no
master secret the next turn opens without one, and its dice depend only on
public inputs; ``ftpress turn`` says so.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import hmac
import json
import os
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from ftpress import rules, validation, yamlsource
from ftpress.battles import BATTLES_DIR, LoadedBattle, battle_id, battle_path, parse_battle
from ftpress.campaign import load_folder
from ftpress.campaign import load_state as load_campaign_state
from ftpress.config import CONFIG_FILE, load_config
from ftpress.dice import Dice, KeyedStream, SuppliedDice, key_from
from ftpress.errors import InputError, Problem, RefusedCommand, UnknownRuleset
from ftpress.events import Event, EventsFile, TurnRecord
from ftpress.hexes import Hex
from ftpress.nolinks import links_below
from ftpress.orders.load import (
    LoadedOrders,
    folded_problem,
    orders_digest,
    orders_path,
    parse_orders,
    read_orders,
    stray_problem,
)
from ftpress.recorded_kinds import check_made
from ftpress.state.files import KINDS
from ftpress.state.model import DiceFile, Point, State
from ftpress.state.save import dump, schema_url
from ftpress.state.turns import TURNS_DIR, turn_id, turn_number
from ftpress.write import write_file

SECRET_ENV = "FTPRESS_UMPIRE_SECRET"
SECRET_FILE = ".ftpress-secret"
_SECRET_LABEL = "ftpress-turn-secret"
_STATE = "state"
_RECORD: TypeAdapter[TurnRecord] = TypeAdapter(TurnRecord)
_DICE: TypeAdapter[DiceFile] = TypeAdapter(DiceFile)


@dataclass(frozen=True, slots=True)
class TurnResult:
    turn: str
    state: State
    events: tuple[Event, ...]
    #: Relative path → bytes of every file the turn writes.
    files: dict[str, bytes]
    dice_rolled: int
    #: Notes for the umpire (no secret; dice left over).
    notes: tuple[str, ...] = ()
    #: False when the turn was already recorded and nothing was written.
    written: bool = True
    #: The battle-result files the turn waits for (it paused; nothing recorded).
    waiting: tuple[str, ...] = ()

    def summary(self) -> str:
        if self.waiting:
            files = "\n".join(f"  {path}" for path in self.waiting)
            count = len(self.waiting)
            what = ("each ship's 'fate' (afloat, crippled or destroyed) and who holds the "
                    "field ('held_by')" if self.state.map.geometry == "plane" else
                    "the hull boxes each ship lost ('damage'), its 'fate' (afloat, destroyed or "
                    "drifting), who withdrew and where to ('withdrew'), who holds the field "
                    "('held_by')")
            return (f"{self.turn} waits for {count} battle{'s' if count != 1 else ''} fought "
                    f"on the tabletop; nothing was recorded. Fill in for each: {what}, then "
                    "set 'fought: true' and run ftpress turn again:\n" + files)
        if not self.written:
            return f"{self.turn} is already recorded in {TURNS_DIR}/{self.turn}/; nothing changed"
        cal = self.state.campaign.calendar
        return (f"resolved {self.turn}: {len(self.events)} events, {self.dice_rolled} dice "
                f"rolled; recorded in {TURNS_DIR}/{self.turn}/; {turn_id(cal.turn)} opens, "
                f"orders due {cal.deadline.isoformat(sep=' ')}")


# --- the umpire's secret --------------------------------------------------------------

def master_secret(root: Path, environ: Mapping[str, str] | None = None) -> bytes | None:
    """The umpire's master secret: ``$FTPRESS_UMPIRE_SECRET``, else ``.ftpress-secret``."""
    environ = os.environ if environ is None else environ
    value = environ.get(SECRET_ENV, "").strip()
    if not value and (root / SECRET_FILE).is_file():
        value = (root / SECRET_FILE).read_text(encoding="utf-8").strip()
    return value.encode("utf-8") if value else None


def turn_secret(master: bytes, campaign_id: str, turn: str) -> str:
    """The secret for one turn, derived from the master secret (hex)."""
    return hmac.new(master, key_from(_SECRET_LABEL, campaign_id, turn),
                    hashlib.sha256).hexdigest()


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def turn_dice(campaign_id: str, turn: str, digest: str, secret: str | None) -> Dice:
    """The keyed dice of a turn (see the module docstring)."""
    return Dice(KeyedStream(key_from("ftpress-turn", campaign_id, turn, digest, secret or "")))


# --- reading --------------------------------------------------------------------------

def load_orders(root: Path, turn: str, adapter: TypeAdapter[Any] | None = None,
                ) -> dict[str, LoadedOrders]:
    """Every order file of a turn, by player (the file's name); raises with every
    syntax mistake in any of them. ``adapter``: the ruleset's order format."""
    folder = root / "orders" / turn
    found: dict[str, LoadedOrders] = {}
    problems: list[Problem] = []
    if folder.is_dir():
        for file in sorted(folder.iterdir()):
            if file.name.startswith(".") or file.suffix == ".md":
                continue
            rel = f"orders/{turn}/{file.name}"
            if not file.is_file() or file.suffix != ".yaml":
                problems.append(Problem(rel, 0, 0, "not an order file; expected "
                                        f"orders/{turn}/<player-id>.yaml"))
                continue
            try:
                found[file.stem] = read_orders(root, rel, adapter)
            except InputError as exc:
                problems.extend(exc.problems)
    if problems:
        raise InputError(problems)
    return found


def read_supplied_dice(root: Path, path: Path) -> SuppliedDice:
    """``--dice FILE``: ``dice: [3, 6, 1, …]``, the dice rolled by hand, in order."""
    rel = str(path)
    data = yamlsource.parse(yamlsource.read_text(root / path if not path.is_absolute()
                                                 else path, rel), rel)
    values = data.get("dice") if isinstance(data, dict) else None
    if not isinstance(values, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise InputError([Problem(rel, 1, 1, "expected 'dice:' and a list of whole numbers, "
                                  "the dice rolled by hand in order, such as dice: [3, 6, 1]")])
    lines = [m[0] for m in getattr(values, "item_marks", [])] or None
    return SuppliedDice(values, rel, lines)


# --- resolving ------------------------------------------------------------------------

def resolve_turn(root: Path, *, now: datetime, early: bool = False,
                 supplied: Path | None = None, wanted: str | None = None,
                 environ: Mapping[str, str] | None = None) -> TurnResult:
    """Resolve the open turn and record it (see the module docstring)."""
    loaded = load_campaign_state(root)
    if loaded is None:
        raise InputError([Problem(_STATE, 0, 0, "this campaign has no state to resolve a "
                                  "turn of; expected state/campaign.yaml and the rest")])
    state = loaded.state
    cal = state.campaign.calendar
    turn = turn_id(cal.turn)
    if wanted is not None:
        turn_number(wanted)  # a ValueError: the turn command checks its ids first
        if (root / TURNS_DIR / wanted).is_dir() and wanted != turn:
            return TurnResult(wanted, state, (), {}, 0, written=False)
        if wanted != turn:
            raise RefusedCommand(f"turn {wanted} is neither recorded nor open; the open turn is "
                                 f"{turn}")
    if (root / TURNS_DIR / turn).is_dir():
        return _finish_interrupted(root, turn)
    if now < cal.deadline and not early:
        raise RefusedCommand(f"turn {turn}'s orders are due {cal.deadline.isoformat(sep=' ')}; "
                             "nothing was done (use --early to resolve it now)")
    ruleset = rules.find_ruleset(state.campaign.ruleset)
    if ruleset.resolve is None:
        raise RefusedCommand(f"ruleset {ruleset.name} does not resolve turns")
    orders = load_orders(root, turn, ruleset.orders_adapter)
    notes: list[str] = []
    master = master_secret(root, environ)
    secret = None
    if cal.secret_sha256 is not None:
        if master is None:
            raise RefusedCommand(f"turn {turn} opened with an umpire secret; set {SECRET_ENV} or "
                                 f"put it in {SECRET_FILE} to resolve it")
        secret = turn_secret(master, state.campaign.id, turn)
        if secret_hash(secret) != cal.secret_sha256:
            raise RefusedCommand(f"the umpire secret does not match the hash published when {turn} "
                                 f"opened (calendar.secret_sha256); check {SECRET_ENV} or "
                                 f"{SECRET_FILE}")
    else:
        notes.append(f"{turn} opened without an umpire secret: its dice depend only on public "
                     "inputs")
    digest = orders_digest(o.orders for o in orders.values())
    if supplied is not None:
        hand = read_supplied_dice(root, supplied)
        dice = Dice(hand)
    else:
        dice = turn_dice(state.campaign.id, turn, digest, secret)
    results = load_battles(root, turn)
    new_state, events = _resolve(ruleset, state, orders, dice, results)
    waiting = [e for e in events if e.kind == "battle-pending"]
    if waiting:
        return _pause(root, turn, new_state, events, waiting, len(dice.log), notes)
    notes += [f"{path} is not a battle of {turn}; it was left out" for path in
              _stray_battles(results, events)]
    if supplied is not None and hand.unused:
        notes.append(f"{hand.unused} of the dice in {supplied} were not needed")
    if master is not None:
        nxt = secret_hash(turn_secret(master, state.campaign.id, turn_id(cal.turn + 1)))
        new_state = _with_secret_hash(new_state, nxt)
    else:
        notes.append(f"no umpire secret ({SECRET_ENV} or {SECRET_FILE}): "
                     f"{turn_id(cal.turn + 1)} opens without one")
    record = TurnRecord(turn, digest, tuple(sorted(orders)),
                        "supplied" if supplied is not None else "keyed", secret,
                        cal.secret_sha256)
    source = (f"dice rolled by hand: {supplied}" if supplied is not None else
              _keyed_source(state.campaign.id, turn, digest))
    before = _before(root, state, cal.turn)
    files = record_files(_base_url(root), turn, state if before else None, new_state, events,
                         DiceFile(source, dice.log), record, orders, results)
    _write(root, turn, files)
    return TurnResult(turn, new_state, events, files, len(dice.log), tuple(notes))


# --- battles fought on the tabletop -------------------------------------------------

def load_battles(root: Path, turn: str, folder: str | None = None,
                 ) -> dict[str, LoadedBattle]:
    """The battle-result files of a turn (``battles/<turn-id>/``, or the copies kept in
    ``folder``) that the umpire has filled in (``fought: true``), by battle id; raises
    with every problem. Each is named by its place under ``battles/``, as the turn's
    events name it, wherever it was read from."""
    base = root / (folder or f"{BATTLES_DIR}/{turn}")
    found: dict[str, LoadedBattle] = {}
    problems: list[Problem] = []
    if base.is_dir():
        for file in sorted(base.glob("*.yaml")):
            rel = battle_path(turn, file.stem)
            try:
                loaded = parse_battle(yamlsource.read_bytes(file, rel), rel)
            except InputError as exc:
                problems.extend(exc.problems)
                continue
            if loaded.result.battle != file.stem:
                problems.append(loaded.problem(f"this file is named for battle {file.stem!r} "
                                               f"but says {loaded.result.battle!r}; expected "
                                               "the file name and 'battle:' to agree",
                                               "battle"))
            elif loaded.result.fought:
                found[file.stem] = loaded
    if problems:
        raise InputError(problems)
    return found


def _resolve(ruleset: rules.Ruleset, state: State, orders: Mapping[str, LoadedOrders],
             dice: Dice, battles: Mapping[str, LoadedBattle],
             ) -> tuple[State, tuple[Event, ...]]:
    assert ruleset.resolve is not None
    if ruleset.takes_battle_results:
        made = ruleset.resolve(state, orders, dice, battles=battles)  # type: ignore[call-arg]
    else:
        made = ruleset.resolve(state, orders, dice)
    check_made(made[1], ruleset.report, ruleset.name)  # a kind its report cannot file: a bug
    return made


def _stray_battles(results: Mapping[str, LoadedBattle], events: tuple[Event, ...],
                   ) -> list[str]:
    fought = {e.order for e in events if e.kind == "battle" and e.order}
    return [loaded.path for loaded in results.values() if loaded.path not in fought]


def _pause(root: Path, turn: str, state: State, events: tuple[Event, ...],
           waiting: list[Event], rolled: int, notes: list[str]) -> TurnResult:
    """A battle awaits the table: write its result file to fill in (one not written
    yet; an unfinished one is left as the umpire has it), and record nothing."""
    base_url = _base_url(root)
    paths = []
    for event in waiting:
        assert event.at is not None
        battle = battle_id(event.at)
        path = battle_path(turn, battle)
        paths.append(path)
        if not (root / path).is_file():
            write_file(root / path, battle_template(turn, battle, event, state,
                                                    base_url).encode("utf-8"))
    return TurnResult(turn, state, events, {}, rolled, tuple(notes), written=False,
                      waiting=tuple(paths))


#: What the umpire fills in, as the battle-result template explains it.
_FILL_IN = (
    "#   ships     each ship's 'damage' (hull boxes lost in this battle, at most its",
    "#             'hull') and 'fate': afloat, destroyed, or drifting (a hulk, taken",
    "#             as a prize by whoever holds the field, §12)",
    "#   withdrew  each power that jumped out and where to: [{player: nac, to: corvid}]")
#: The same on a planar map (sct): no hull boxes, no hulks, no withdrawal.
_PLANAR_FILL_IN = (
    "#   ships     each ship's 'fate': afloat, crippled or destroyed (sct §6.4)",
    "#   withdrew  leave it empty: no force moves after an sct battle")


def battle_template(turn: str, battle: str, event: Event, state: State,
                    base_url: str | None) -> str:
    """The battle-result file to fill in, pre-filled with the forces that meet."""
    at = event.at
    if isinstance(at, Hex):
        at_text = f"[{at.q}, {at.r}]"
    elif isinstance(at, Point):  # a planar map (sct)
        at_text = f"{{x: {at.x}, y: {at.y}}}"
    else:
        at_text = json.dumps(at)
    lines = []
    if base_url:
        lines.append(f"# yaml-language-server: $schema={base_url}schemas/battle.json")
    lines += [
        f"# {event.text}",
        "# Fill in, then set 'fought: true' and run `ftpress turn` again:",
        *(_PLANAR_FILL_IN if state.map.geometry == "plane" else _FILL_IN),
        "#   held_by   the power left holding the field (empty: nobody)",
        f"turn: {turn}",
        f"battle: {battle}",
        f"at: {at_text}",
        f"players: [{', '.join(event.players)}]",
        "ships:",
    ]
    for group in state.groups.groups:
        if group.id not in event.groups:
            continue
        for ship in group.ships:
            design = state.design(ship.design)
            left = design.hull_boxes - ship.damage if design else 0
            lines.append(f"  - {{player: {group.owner}, group: {group.id}, ship: "
                         f"{json.dumps(ship.name, ensure_ascii=False)}, design: {ship.design}, "
                         f"hull: {left}, damage: 0, fate: afloat}}")
    lines += ["withdrew: []", "held_by:", "fought: false", ""]
    return "\n".join(lines)


def _with_secret_hash(state: State, value: str | None) -> State:
    cal = dataclasses.replace(state.campaign.calendar, secret_sha256=value)
    return dataclasses.replace(state, campaign=dataclasses.replace(state.campaign,
                                                                   calendar=cal))


def _before(root: Path, state: State, number: int) -> bool:
    """Must the record keep the state the turn started from? Only when it is not
    the previous turn's snapshot (the umpire edited it in between)."""
    previous = f"{TURNS_DIR}/{turn_id(number - 1)}"
    if not (root / previous).is_dir():
        return True
    try:
        return load_folder(root, previous).state != state
    except InputError:
        return True


def _base_url(root: Path) -> str | None:
    return load_config(root).base_url if (root / CONFIG_FILE).is_file() else None


def record_files(base_url: str | None, turn: str, before: State | None, state: State,
                 events: tuple[Event, ...], dice: DiceFile, record: TurnRecord,
                 orders: Mapping[str, LoadedOrders],
                 battles: Mapping[str, LoadedBattle] | None = None) -> dict[str, bytes]:
    """Every file a turn writes, by path: its record folder and the current state.
    The tabletop battle results folded in are kept in the record's ``battles/``."""
    folder = f"{TURNS_DIR}/{turn}"
    files: dict[str, bytes] = {}
    for kind in KINDS.values():
        text = dump(getattr(state, kind.name), schema_url(base_url, kind)).encode("utf-8")
        files[f"{folder}/{kind.file}"] = text
        files[f"{_STATE}/{kind.file}"] = text
        if before is not None:
            files[f"{folder}/before/{kind.file}"] = dump(
                getattr(before, kind.name), schema_url(base_url, kind)).encode("utf-8")
    files[f"{folder}/dice.yaml"] = dump(dice).encode("utf-8")
    files[f"{folder}/events.yaml"] = dump(EventsFile(turn, events)).encode("utf-8")
    files[f"{folder}/turn.yaml"] = dump(record).encode("utf-8")
    for player, loaded in sorted(orders.items()):
        files[f"{folder}/orders/{player}.yaml"] = loaded.raw
    fought = {e.order for e in events if e.kind == "battle" and e.order}
    for name, loaded in sorted((battles or {}).items()):
        if loaded.path in fought:
            files[f"{folder}/{BATTLES_DIR}/{name}.yaml"] = loaded.raw
    return files


def _write(root: Path, turn: str, files: dict[str, bytes]) -> None:
    """Stage the record folder, rename it into place, then rewrite ``state/*.yaml``."""
    folder = f"{TURNS_DIR}/{turn}"
    base = root / TURNS_DIR
    base.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{turn}.tmp-", dir=base))
    try:
        for rel, data in files.items():
            if rel.startswith(folder + "/"):
                _write_synced(staging / rel.removeprefix(folder + "/"), data)
        for sub in (staging, *[p for p in staging.rglob("*") if p.is_dir()]):
            sub.chmod(0o755)
        staging.rename(root / folder)  # the commit point: the turn is recorded
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _update_state(root, files)


def _finish_interrupted(root: Path, turn: str) -> TurnResult:
    """The open turn is recorded but ``state/`` was not updated (a crash between
    the two steps): copy the record's state files into place."""
    folder = f"{TURNS_DIR}/{turn}"
    for kind in KINDS.values():
        write_file(root / _STATE / kind.file, (root / folder / kind.file).read_bytes())
    state = load_folder(root, folder).state
    return TurnResult(turn, state, (), {}, 0, (f"{turn} was recorded but state/ was not "
                                              "updated; it is now",))


# --- verifying ------------------------------------------------------------------------

def verify_turn(root: Path, turn: str) -> list[str]:
    """Re-resolve a recorded turn from its record; every difference as a unified diff
    (an empty list: the same result, byte for byte)."""
    number = turn_number(turn)
    folder = f"{TURNS_DIR}/{turn}"
    if not (root / folder).is_dir():
        raise RefusedCommand(f"turn {turn} is not recorded; there is no {folder}/")
    record = _read_record(root, folder)
    start = f"{folder}/before" if (root / folder / "before").is_dir() else \
        f"{TURNS_DIR}/{turn_id(number - 1)}"
    state = load_folder(root, start).state
    differences: list[str] = []
    if record.secret is not None and secret_hash(record.secret) != record.secret_sha256:
        differences.append(f"{folder}/turn.yaml: the revealed secret does not hash to "
                           "secret_sha256")
    if record.secret_sha256 != state.campaign.calendar.secret_sha256:
        differences.append(f"{folder}/turn.yaml: secret_sha256 is not the hash published "
                           f"when {turn} opened")
    again = _rerun(root, turn, state, record)
    recorded = load_folder(root, folder).state
    new_state = _with_secret_hash(again.state, recorded.campaign.calendar.secret_sha256)
    files = record_files(_base_url(root), turn, state if start.endswith("/before") else None,
                         new_state, again.events, again.dice, record, again.orders,
                         again.results)
    for rel, data in sorted(files.items()):
        if not rel.startswith(folder + "/"):
            continue
        target = root / rel
        old = target.read_bytes() if target.is_file() else b""
        if old != data:
            differences.append(_diff(rel, old, data))
    given = root / "orders" / turn
    if given.is_dir():
        for file in sorted(given.glob("*.yaml")):
            kept = root / folder / "orders" / file.name
            if not kept.is_file() or kept.read_bytes() != file.read_bytes():
                differences.append(f"orders/{turn}/{file.name}: differs from the copy folded "
                                   f"into the turn, {folder}/orders/{file.name}")
    return differences


def _read_record(root: Path, folder: str) -> TurnRecord:
    """The ``turn.yaml`` of a recorded turn's folder."""
    shown = f"{folder}/turn.yaml"
    return validation.validate(_RECORD, yamlsource.parse(yamlsource.read_text(
        root / folder / "turn.yaml", shown), shown), shown)


@dataclass(frozen=True, slots=True)
class _Rerun:
    """A recorded turn resolved again from what its record keeps."""

    orders: dict[str, LoadedOrders]
    digest: str
    dice: DiceFile
    results: dict[str, LoadedBattle]
    #: The state the turn ends with, before the next turn's secret hash is set.
    state: State
    events: tuple[Event, ...]


def _rerun(root: Path, turn: str, state: State, record: TurnRecord) -> _Rerun:
    """Resolve a recorded turn again from ``state``, with its recorded orders, battle
    results and dice (the supplied ones as logged, or the keyed stream again)."""
    folder = f"{TURNS_DIR}/{turn}"
    ruleset = rules.find_ruleset(state.campaign.ruleset)
    orders = {player: parse_orders(yamlsource.read_bytes(
                  root / folder / "orders" / f"{player}.yaml", f"{folder}/orders/{player}.yaml"),
                  orders_path(turn, player), ruleset.orders_adapter)
              for player in record.orders}
    digest = orders_digest(o.orders for o in orders.values())
    if record.dice == "supplied":
        shown = f"{folder}/dice.yaml"
        logged = validation.validate(_DICE, yamlsource.parse(yamlsource.read_text(
            root / folder / "dice.yaml", shown), shown), shown)
        dice = Dice(SuppliedDice([r.value for r in logged.rolls], shown))
        source = logged.source
    else:
        dice = turn_dice(state.campaign.id, turn, digest, record.secret)
        source = _keyed_source(state.campaign.id, turn, digest)
    results = load_battles(root, turn, f"{folder}/{BATTLES_DIR}")
    new_state, events = _resolve(ruleset, state, orders, dice, results)
    return _Rerun(orders, digest, DiceFile(source, dice.log), results, new_state, events)


def _keyed_source(campaign_id: str, turn: str, digest: str) -> str:
    """How ``dice.yaml`` names the keyed stream a turn's dice came from."""
    return f"keyed stream: campaign {campaign_id}, turn {turn}, orders {digest[:16]}…"


# --- redoing --------------------------------------------------------------------------

#: A later turn whose record keeps the state it started from (``before/``: the umpire
#: edited the state between turns) starts from that edited state when redone; what
#: the redo changed in the turn before it does not carry over that edit.
REDO_KEEPS_EDITED_STARTS = True

#: What a record folder holds that a redo writes afresh; anything else in it is
#: another tool's, and is carried over as it is.
_RECORD_NAMES = frozenset({*(k.file for k in KINDS.values()), "dice.yaml", "events.yaml",
                           "turn.yaml", "orders", "before", BATTLES_DIR})


@dataclass(frozen=True, slots=True)
class TurnChange:
    """What redoing one turn changed."""

    turn: str
    #: Events as 'kind: text', gained and lost (a repeated event counts each time).
    added: tuple[str, ...]
    removed: tuple[str, ...]
    #: The record's files that differ (dice, events, state files …), relative paths.
    files: tuple[str, ...]
    #: How each state file of the record changed: the lines of a unified diff.
    state: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        if not self.files:
            return [f"{self.turn}: unchanged"]
        out = [f"{self.turn}: {len(self.added)} event{'s' if len(self.added) != 1 else ''} "
               f"added, {len(self.removed)} removed; changed: {', '.join(self.files)}"]
        out += [f"  + {e}" for e in self.added]
        out += [f"  - {e}" for e in self.removed]
        out += [f"    {line}" for line in self.state]
        return out


@dataclass(frozen=True, slots=True)
class RedoResult:
    turns: tuple[str, ...]
    changes: tuple[TurnChange, ...]
    written: bool

    def lines(self) -> list[str]:
        out = [line for change in self.changes for line in change.lines()]
        span = self.turns[0] if len(self.turns) == 1 else f"{self.turns[0]}–{self.turns[-1]}"
        changed = sum(1 for c in self.changes if c.files)
        if not self.written:
            out.append(f"redid {span} from the recorded orders: nothing changed; nothing "
                       "was written")
        else:
            out.append(f"redid {span} from the recorded orders: {changed} turn"
                       f"{'s' if changed != 1 else ''} changed; their records and state/ "
                       "rewritten")
        return out


def redo_turns(root: Path, first: str) -> RedoResult:
    """``ftpress turn --redo``: resolve a recorded turn and every later recorded turn
    again from their recorded orders, battle results and (if supplied) dice, and
    rewrite their records and the current state in one go. Refused, with nothing
    written, if ``state/`` was edited after the last turn was recorded, or if a
    turn now has a battle that was never fought."""
    number = turn_number(first)
    if number == 0:
        raise RefusedCommand("t000 is the setup, not a turn; redo t001 or later")
    turns: list[str] = []
    while (root / TURNS_DIR / turn_id(number)).is_dir():
        turns.append(turn_id(number))
        number += 1
    if not turns:
        raise RefusedCommand(f"turn {first} is not recorded; there is no {TURNS_DIR}/{first}/")
    last = f"{TURNS_DIR}/{turns[-1]}"
    for kind in KINDS.values():
        current = root / _STATE / kind.file
        if not current.is_file() or current.read_bytes() != (root / last / kind.file).read_bytes():
            raise RefusedCommand(f"{_STATE}/{kind.file} differs from {last}/{kind.file}: the state "
                                 f"was edited after {turns[-1]} was recorded; record or undo that "
                                 "edit first. Nothing was redone")
    base_url = _base_url(root)
    state: State | None = None
    folders: dict[str, dict[str, bytes]] = {}
    changes: list[TurnChange] = []
    for turn in turns:
        folder = f"{TURNS_DIR}/{turn}"
        edited = (root / folder / "before").is_dir()
        if state is None or (edited and REDO_KEEPS_EDITED_STARTS):
            previous = f"{TURNS_DIR}/{turn_id(turn_number(turn) - 1)}"
            start = f"{folder}/before" if edited else previous
            state = load_folder(root, start).state
        files, events = _redo_one(root, turn, state, base_url, edited)
        state = load_state_from(files, folder)
        changes.append(_change(root, turn, files, events))
        folders[turn] = files
    if not any(c.files for c in changes):
        return RedoResult(tuple(turns), tuple(changes), False)
    _rewrite(root, folders)
    return RedoResult(tuple(turns), tuple(changes), True)


def _redo_one(root: Path, turn: str, state: State, base_url: str | None,
              edited: bool) -> tuple[dict[str, bytes], tuple[Event, ...]]:
    folder = f"{TURNS_DIR}/{turn}"
    record = _read_record(root, folder)
    again = _rerun(root, turn, state, record)
    unfought = [e.text for e in again.events if e.kind == "battle-pending"]
    if unfought:
        raise RefusedCommand(f"redone, {turn} has a battle that was never fought: {unfought[0]} "
                             "Nothing was redone")
    recorded = load_folder(root, folder).state
    new_state = _with_secret_hash(again.state, recorded.campaign.calendar.secret_sha256)
    files = record_files(base_url, turn, state if edited else None, new_state, again.events,
                         again.dice, dataclasses.replace(record, orders_sha256=again.digest),
                         again.orders, again.results)
    return files, again.events


def load_state_from(files: Mapping[str, bytes], folder: str) -> State:
    """The state a redone turn ended with, read back from the files it will write
    (so the next turn starts from exactly what is recorded)."""
    with tempfile.TemporaryDirectory(prefix="ftpress-redo-") as scratch:
        for kind in KINDS.values():
            target = Path(scratch) / "s" / kind.file
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(files[f"{folder}/{kind.file}"])
        return load_folder(Path(scratch), "s").state


def _change(root: Path, turn: str, files: Mapping[str, bytes],
            events: tuple[Event, ...]) -> TurnChange:
    folder = f"{TURNS_DIR}/{turn}"
    old_path = root / folder / "events.yaml"
    old = yaml_events(old_path.read_text(encoding="utf-8")) if old_path.is_file() else []
    new = [f"{e.kind}: {e.text}" for e in events]
    added, removed = _multiset_diff(new, old), _multiset_diff(old, new)
    written = {rel.removeprefix(folder + "/") for rel in files if rel.startswith(folder + "/")}
    existing = {p.relative_to(root / folder).as_posix()
                for p in (root / folder).rglob("*") if p.is_file()
                and p.relative_to(root / folder).parts[0] in _RECORD_NAMES}
    differ = sorted(rel for rel in written | existing
                    if rel not in written or rel not in existing
                    or (root / folder / rel).read_bytes() != files[f"{folder}/{rel}"])
    state: list[str] = []
    for kind in KINDS.values():
        if kind.file in differ:
            old_file = root / folder / kind.file
            diff = _diff(f"{folder}/{kind.file}",
                         old_file.read_bytes() if old_file.is_file() else b"",
                         files[f"{folder}/{kind.file}"])
            state += diff.splitlines()
    return TurnChange(turn, tuple(added), tuple(removed), tuple(differ), tuple(state))


def yaml_events(text: str) -> list[str]:
    """'kind: text' of every event in an ``events.yaml``."""
    data = yamlsource.parse(text, "events.yaml")
    return [f"{e['kind']}: {e['text']}" for e in (data or {}).get("events", [])]


def _multiset_diff(a: list[str], b: list[str]) -> list[str]:
    left = list(b)
    out = []
    for item in a:
        if item in left:
            left.remove(item)
        else:
            out.append(item)
    return out


def _rewrite(root: Path, folders: Mapping[str, Mapping[str, bytes]]) -> None:
    """Stage every redone record folder, then swap them all in and rewrite ``state/``.

    Each new folder is written and synced beside the old one before any is
    swapped, so a failure while writing leaves every record as it was; the swaps
    are renames. Files of other tools in a record folder are carried over.
    """
    base = root / TURNS_DIR
    staged: dict[str, Path] = {}
    try:
        for turn, files in folders.items():
            folder = f"{TURNS_DIR}/{turn}"
            staging = Path(tempfile.mkdtemp(prefix=f".{turn}.redo-", dir=base))
            staged[turn] = staging
            for rel, data in files.items():
                if rel.startswith(folder + "/"):
                    _write_synced(staging / rel.removeprefix(folder + "/"), data)
            for other in (root / folder).iterdir():
                if other.name not in _RECORD_NAMES:
                    if other.is_dir():
                        shutil.copytree(other, staging / other.name)
                    else:
                        shutil.copy2(other, staging / other.name)
            for sub in (staging, *[p for p in staging.rglob("*") if p.is_dir()]):
                sub.chmod(0o755)
    except BaseException:
        for staging in staged.values():
            shutil.rmtree(staging, ignore_errors=True)
        raise
    retired = []
    for turn, staging in staged.items():
        old = Path(tempfile.mkdtemp(prefix=f".{turn}.old-", dir=base))
        old.rmdir()
        (base / turn).rename(old)
        staging.rename(base / turn)
        retired.append(old)
    _update_state(root, folders[list(folders)[-1]])
    for old in retired:
        shutil.rmtree(old, ignore_errors=True)


def _update_state(root: Path, files: Mapping[str, bytes]) -> None:
    """Rewrite ``state/*.yaml`` from a turn's files (its record folder is left alone)."""
    for rel, data in files.items():
        if rel.startswith(_STATE + "/") and not rel.startswith(TURNS_DIR + "/"):
            write_file(root / rel, data)


def _write_synced(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def _diff(rel: str, old: bytes, new: bytes) -> str:
    lines = difflib.unified_diff(old.decode("utf-8", "replace").splitlines(keepends=True),
                                 new.decode("utf-8", "replace").splitlines(keepends=True),
                                 f"{rel} (recorded)", f"{rel} (re-resolved)")
    return "".join(lines).rstrip("\n")


# --- checking order files -------------------------------------------------------------

def _orders_adapter(root: Path, state: State | None) -> TypeAdapter[Any] | None:
    """The order format of the campaign's ruleset (None: the shared one, also when
    it names no known ruleset). A state with problems elsewhere still names its
    ruleset, so its order files are not read in another ruleset's format."""
    name = state.campaign.ruleset if state is not None else _ruleset_named(root)
    try:
        return rules.find_ruleset(name).orders_adapter if name else None
    except UnknownRuleset:
        return None


def _ruleset_named(root: Path) -> str | None:
    """The ``ruleset`` of ``state/campaign.yaml`` as written, if it can be read."""
    rel = f"{_STATE}/{KINDS['campaign'].file}"
    try:
        data = yamlsource.parse(yamlsource.read_text(root / rel, rel), rel)
    except (InputError, OSError):
        return None
    name = data.get("ruleset") if isinstance(data, dict) else None
    return name if isinstance(name, str) else None


def check_orders(root: Path, wanted: set[str] | None = None,
                 ) -> tuple[list[Problem], list[tuple[str, list[str]]]]:
    """Every problem in the campaign's order files (or the ``wanted`` ones), and a
    plain-words summary of each clean file for the open turn.

    Syntax mistakes are invalid orders; against the current state, the ruleset
    finds illegal ones. Orders of a recorded turn are checked for syntax only:
    they were legal against the state of their day.
    """
    base = root / "orders"
    if not base.is_dir():
        return [], []
    paths = sorted(p.relative_to(root).as_posix() for p in base.rglob("*")
                   if p.is_file() and not any(part.startswith(".") for part in p.parts))
    if wanted is not None:
        paths = [p for p in paths if p in wanted or any(p.startswith(w + "/") for w in wanted)]
    problems: list[Problem] = links_below(base, "orders")  # rglob passes over linked folders
    summaries: list[tuple[str, list[str]]] = []
    try:
        loaded_state = load_campaign_state(root)
    except InputError:
        loaded_state = None  # the state's own problems are reported by the state check
    adapter = _orders_adapter(root, loaded_state.state if loaded_state else None)
    for rel in paths:
        if rel.endswith(".md"):
            continue  # a README for the players
        stray = stray_problem(rel)
        if stray is not None:
            problems.append(stray)
            continue
        try:
            loaded = read_orders(root, rel, adapter)
        except InputError as exc:
            problems.extend(exc.problems)
            continue
        if loaded_state is None:
            continue
        state = loaded_state.state
        open_turn = turn_id(state.campaign.calendar.turn)
        folder = rel.split("/")[1]
        if folder != open_turn:
            if not (root / TURNS_DIR / folder).is_dir():
                problems.append(Problem(rel, 0, 0, f"orders for {folder}, but the turn open "
                                        f"for orders is {open_turn}"))
            elif (folded := folded_problem(root, loaded)) is not None:
                problems.append(folded)
            continue
        ruleset = rules.find_ruleset(state.campaign.ruleset)
        if ruleset.check_orders is None or ruleset.describe_orders is None:
            continue
        found = ruleset.check_orders(state, loaded)
        problems.extend(found)
        if not found:
            summaries.append((rel, ruleset.describe_orders(state, loaded)))
    return problems, summaries
