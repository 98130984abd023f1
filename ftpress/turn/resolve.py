"""``ftpress turn``: resolve the open turn, record it, advance the calendar.

In order: load the state and the turn's order files (every syntax mistake
stops it, nothing written); seed the dice (:mod:`.secret`); let the campaign's
ruleset resolve the turn; then write its record and the new current state
together (:mod:`.record`). A battle to be fought on the tabletop pauses the
turn instead (:mod:`.tabletop`). It writes nowhere else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ftpress import rules
from ftpress.errors import InputError, Problem, RefusedCommand
from ftpress.orders.load import LoadedOrders, OrdersT, orders_digest
from ftpress.rules.ruleset import Ruleset
from ftpress.secrecy import sealing
from ftpress.secrecy.hidden_state import Sealer, TurnFacts, seal_record
from ftpress.secrecy.intelligence import intelligence_files
from ftpress.secrecy.twins import UmpireKey, key_for, twin
from ftpress.state.battle_results import LoadedBattle
from ftpress.state.dice import Dice
from ftpress.state.events import Event, TurnRecord
from ftpress.state.files import KINDS, STATE_DIR
from ftpress.state.model import DiceFile, State
from ftpress.state.recorded_kinds import check_made
from ftpress.state.turns import TURNS_DIR, turn_id, turn_number
from ftpress.state.writeout import write_out
from ftpress.store.campaign import load_folder
from ftpress.store.campaign import load_state as load_campaign_state
from ftpress.turn.inputs import load_battles, load_orders, read_supplied_dice
from ftpress.turn.last_record import behind_last_record
from ftpress.turn.record import (
    base_url,
    keeps_before,
    record_files,
    with_secret_hash,
    write_record,
)
from ftpress.turn.secret import (
    SECRET_ENV,
    SECRET_FILE,
    hidden_secret,
    keyed_source,
    master_secret,
    secret_hash,
    turn_dice,
    turn_key,
    turn_secret,
)
from ftpress.turn.tabletop import stray_battles, write_templates


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


def resolve_turn(root: Path, *, now: datetime, early: bool = False,
                 supplied: Path | None = None, wanted: str | None = None,
                 environ: Mapping[str, str] | None = None,
                 identity: Path | None = None) -> TurnResult:
    """Resolve the open turn and record it (see the module docstring). A sealed
    campaign's turn needs the umpire's key: ``identity``, else ``$FTPRESS_UMPIRE_KEY``
    (in ``environ``), else the key file."""
    umpire = key_for(root, "resolving a turn", identity, environ)
    loaded = load_campaign_state(root, umpire)
    if loaded is None:
        raise InputError([Problem(STATE_DIR, 0, 0, "this campaign has no state to resolve a "
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
        return _finish_interrupted(root, turn, umpire)
    behind = behind_last_record(root)
    if behind:  # resolved on a half-written state, the turn would record the mix as its start
        raise InputError(behind)
    if now < cal.deadline and not early:
        raise RefusedCommand(f"turn {turn}'s orders are due {cal.deadline.isoformat(sep=' ')}; "
                             "nothing was done (use --early to resolve it now)")
    ruleset = rules.find_ruleset(state.campaign.ruleset)
    if ruleset.resolve is None:
        raise RefusedCommand(f"ruleset {ruleset.name} does not resolve turns")
    opened = sealing.open_for_turn(root, state, turn, ruleset.orders_adapter, umpire)
    orders = opened.orders if opened is not None else \
        load_orders(root, turn, ruleset.orders_adapter)
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
    hidden = _hidden_secret(master, state, turn)
    if umpire is not None and hidden is None and master is not None:
        notes.append(f"{turn} opened without a hidden secret: its hidden rolls come from the "
                     "public stream, as before; the next turn opens with one")
    digest = opened.digest if opened is not None else \
        orders_digest(o.orders for o in orders.values())
    if supplied is not None:
        hand = read_supplied_dice(root, supplied)
        dice = Dice(hand)
    else:
        dice = turn_dice(state.campaign.id, turn, digest, secret, hidden)
    results = load_battles(root, turn)
    new_state, events = fold(ruleset, state, orders, dice, results)
    if opened is not None:
        events = (*opened.events, *events)
    waiting = [e for e in events if e.kind == "battle-pending"]
    if waiting:
        paths = write_templates(root, turn, new_state, waiting, base_url(root))
        return TurnResult(turn, new_state, events, {}, len(dice.log), tuple(notes),
                          written=False, waiting=paths)
    notes += [f"{path} is not a battle of {turn}; it was left out" for path in
              stray_battles(results, events)]
    if supplied is not None and hand.unused:
        notes.append(f"{hand.unused} of the dice in {supplied} were not needed")
    if master is not None:
        following = turn_id(cal.turn + 1)
        nxt = secret_hash(turn_secret(master, state.campaign.id, following))
        # Only a sealed campaign has rolls to hide: an open one keeps the one stream.
        nxt_hidden = secret_hash(hidden_secret(master, state.campaign.id, following)) \
            if umpire is not None else None
        new_state = with_secret_hash(new_state, nxt, nxt_hidden)
    else:
        notes.append(f"no umpire secret ({SECRET_ENV} or {SECRET_FILE}): "
                     f"{turn_id(cal.turn + 1)} opens without one")
    record = TurnRecord(turn, digest, tuple(sorted(orders)),
                        "supplied" if supplied is not None else "keyed", secret,
                        cal.secret_sha256, "sealed" if opened is not None else None,
                        hidden, cal.hidden_secret_sha256)
    source = (f"dice rolled by hand: {supplied}" if supplied is not None else
              keyed_source(state.campaign.id, turn, digest))
    before = keeps_before(root, state, cal.turn, umpire)
    logged = DiceFile(source, dice.log)
    files = record_files(base_url(root), turn, state if before else None, new_state, events,
                         logged, record, orders, results)
    if opened is not None:
        files.update(opened.record_files(f"{TURNS_DIR}/{turn}"))
    if umpire is not None:
        key = None if supplied is not None else turn_key(state.campaign.id, turn, digest, secret)
        files = seal_record(Sealer.of(root, new_state, umpire), files,
                            TurnFacts(turn, state if before else None, new_state, events,
                                      logged, key, record), state, base_url(root))
    if opened is not None:
        files.update(intelligence_files(f"{TURNS_DIR}/{turn}", new_state, events, turn))
    write_record(root, turn, files)
    return TurnResult(turn, new_state, events, files, len(dice.log), tuple(notes))


def _hidden_secret(master: bytes | None, state: State, turn: str) -> str | None:
    """The secret behind the open turn's hidden rolls, checked against the hash
    published when it opened; None when none was (every roll from the one stream)."""
    published = state.campaign.calendar.hidden_secret_sha256
    if published is None:
        return None
    if master is None:
        raise RefusedCommand(f"turn {turn} opened with a hidden secret for its hidden rolls; "
                             f"set {SECRET_ENV} or put it in {SECRET_FILE} to resolve it")
    secret = hidden_secret(master, state.campaign.id, turn)
    if secret_hash(secret) != published:
        raise RefusedCommand(f"the umpire secret does not match the hash published when {turn} "
                             f"opened (calendar.hidden_secret_sha256); check {SECRET_ENV} or "
                             f"{SECRET_FILE}")
    return secret


def fold(ruleset: Ruleset[OrdersT], state: State, orders: Mapping[str, LoadedOrders[OrdersT]],
         dice: Dice, battles: Mapping[str, LoadedBattle],
         ) -> tuple[State, tuple[Event, ...]]:
    """The ruleset's resolution of one turn, given the battle results if it takes them;
    ``orders`` are in its own format (read with its ``orders_adapter``)."""
    assert ruleset.resolve is not None
    if ruleset.takes_battle_results:
        # Such a ruleset's resolve also takes battles=, which its Callable type cannot say.
        made = ruleset.resolve(state, orders, dice, battles=battles)  # type: ignore[call-arg]
    else:
        made = ruleset.resolve(state, orders, dice)
    check_made(made[1], ruleset.report, ruleset.name)  # a kind its report cannot file: a bug
    return made


def _finish_interrupted(root: Path, turn: str, umpire: UmpireKey | None) -> TurnResult:
    """The open turn is recorded but ``state/`` was not updated (an earlier version of
    ftpress killed between the two steps): copy the record's state files (and their
    twins) into place."""
    folder = f"{TURNS_DIR}/{turn}"
    names = [name for kind in KINDS.values() for name in (kind.file, twin(kind.file))
             if (root / folder / name).is_file()]
    write_out(root, f"{STATE_DIR}/ as {turn} left it",
              {f"{STATE_DIR}/{name}": (root / folder / name).read_bytes() for name in names})
    state = load_folder(root, folder, umpire=umpire).state
    return TurnResult(turn, state, (), {}, 0, (f"{turn} was recorded but state/ was not "
                                              "updated; it is now",))
