"""``ftpress turn``: resolve the open turn, record it, advance the calendar.

Load, resolve, record. Load: the state, the turn's order files (every syntax
mistake stops it, nothing written), the umpire's secrets behind its dice
(:mod:`ftpress.store.secret`), dice rolled by hand and the battle results, each read once
through the campaign's store (:mod:`ftpress.store`), which alone knows whether
the campaign is sealed. Resolve: the campaign's ruleset folds them into the
next state and the turn's events. Record: the store writes the turn's record
and the new current state together, all or nothing. A battle to be fought on
the tabletop pauses the turn instead (:mod:`.tabletop`). It writes nowhere else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ftpress import rules
from ftpress.errors import InputError, Problem, RefusedCommand
from ftpress.orders.load import LoadedOrders, OrdersT
from ftpress.rules.ruleset import Ruleset
from ftpress.state.battle_results import LoadedBattle
from ftpress.state.dice import Dice
from ftpress.state.events import Event, TurnRecord
from ftpress.state.files import STATE_DIR
from ftpress.state.model import DiceFile, State
from ftpress.state.recorded_kinds import check_made
from ftpress.state.turns import TURNS_DIR, turn_id, turn_number
from ftpress.store import CampaignStore, MadeTurn, TurnOrders, open_store
from ftpress.store.kept_names import TWIN
from ftpress.store.record import with_secret_hash
from ftpress.store.secret import SECRET_ENV, SECRET_FILE, keyed_source, turn_dice, turn_key
from ftpress.turn.last_record import behind_last_record
from ftpress.turn.tabletop import stray_battles, write_templates

#: The kind of event every ruleset gives an order it does not carry out.
REFUSED = "rejected"

#: What the campaign a store holds has wrong, as ``ftpress check`` finds it: the turn
#: command passes :func:`ftpress.checking.campaign.campaign_problems`, so that the turn
#: refuses whatever ``check`` refuses (the checker sits above the turn, and is given).
Vetting = Callable[[CampaignStore], Sequence[Problem]]


@dataclass(frozen=True, slots=True)
class TurnResult:
    turn: str
    state: State
    events: tuple[Event, ...]
    #: Relative path → bytes of every file the turn writes.
    files: dict[str, bytes]
    #: The dice rolled that the public dice log shows (hidden rolls left out).
    dice_rolled: int
    #: Notes for the umpire (no secret; dice left over).
    notes: tuple[str, ...] = ()
    #: False when the turn was already recorded and nothing was written.
    written: bool = True
    #: The battle-result files the turn waits for (it paused; nothing recorded).
    waiting: tuple[str, ...] = ()

    @property
    def public_events(self) -> tuple[Event, ...]:
        """The events told to everyone: what the log, the commit message and the job
        summary count (a count of every event would give the hidden ones away)."""
        return tuple(e for e in self.events if e.audience.public)

    def refusal_report(self, *, public_log: bool) -> list[str]:
        """The refused orders as the umpire's log says them. A public log (a GitHub
        Actions job's) lists only the refusals everyone is told, and always says that
        the others are left out: saying so only when there are some would tell too."""
        lines = list(self.refusals(hidden=not public_log))
        out = [f"{len(lines)} order{'s' if len(lines) != 1 else ''} refused:", *lines] \
            if lines else []
        if public_log:
            out.append("refusals told to their players alone are not listed in this public "
                       "log; the umpire's view ('ftpress build --view umpire') and each "
                       "player's show them")
        return out

    def refusals(self, *, hidden: bool) -> tuple[str, ...]:
        """One line per order the turn refused (its player, what was refused, why), in
        the order of the events; ``hidden``: those told to their player alone too (for
        the umpire's eyes: a public log gets the public ones only)."""
        return tuple(f"  {e.player or 'the umpire'}"
                     + (f", {' '.join(e.order.split())}" if e.order else "") + f": {e.text}"
                     for e in self.events if e.kind == REFUSED and (hidden or e.audience.public))

    def summary(self) -> str:
        if self.waiting:
            files = "\n".join(f"  {path}" for path in self.waiting)
            count = len(self.waiting)
            what = ("each ship's 'fate' (afloat, crippled or destroyed) and who holds the "
                    "field ('held_by')" if self.state.map.geometry == "plane" else
                    "the hull boxes each ship lost ('damage'), its 'fate' (afloat, destroyed or "
                    "drifting), who withdrew and where to ('withdrew'), who holds the field "
                    "('held_by')")
            sealed = (f" (a sealed file: 'ftpress battles open {self.turn}' writes it in "
                      f"plain to fill in, 'ftpress battles seal {self.turn}' seals it again)"
                      if any(path.endswith(TWIN) for path in self.waiting) else "")
            return (f"{self.turn} waits for {count} battle{'s' if count != 1 else ''} fought "
                    f"on the tabletop; nothing was recorded. Fill in for each: {what}, then "
                    f"set 'fought: true' and run ftpress turn again{sealed}:\n" + files)
        if not self.written:
            return f"{self.turn} is already recorded in {TURNS_DIR}/{self.turn}/; nothing changed"
        cal = self.state.campaign.calendar
        return (f"resolved {self.turn}: {len(self.public_events)} events, {self.dice_rolled} dice "
                f"rolled; recorded in {TURNS_DIR}/{self.turn}/; {turn_id(cal.turn)} opens, "
                f"orders due {cal.deadline.isoformat(sep=' ')}")


def _public_rolls(dice: Dice) -> int:
    """How many rolls the public dice log shows: the hidden ones are not counted."""
    return sum(not roll.hidden for roll in dice.log)


def resolve_turn(root: Path, *, now: datetime, early: bool = False,
                 supplied: Path | None = None, wanted: str | None = None,
                 environ: Mapping[str, str] | None = None,
                 identity: Path | None = None, vet: Vetting | None = None) -> TurnResult:
    """Resolve the open turn and record it (see the module docstring). A sealed
    campaign's turn needs the umpire's key: ``identity``, else ``$FTPRESS_UMPIRE_KEY``
    (in ``environ``), else the key file. ``vet``: see :func:`resolve_in`."""
    store = open_store(root, identity=identity, environ=environ, why="resolving a turn",
                       required=True)
    return resolve_in(store, now=now, early=early, supplied=supplied, wanted=wanted, vet=vet)


def resolve_in(store: CampaignStore, *, now: datetime, early: bool = False,
               supplied: Path | None = None, wanted: str | None = None,
               vet: Vetting | None = None) -> TurnResult:
    """The open turn of the campaign ``store`` holds, resolved and recorded: its inputs
    read through the store once, folded, and its record written once. Before anything
    is read to resolve it, ``vet`` (the campaign's check) finds what is wrong with the
    campaign: any problem refuses the turn, every one located, nothing written. Without
    it, the turn refuses what it cannot fold in: order files of nobody who plays, and
    plain files that are not their twins' projections."""
    # Load: the state, then everything the turn folds in.
    loaded = store.state()
    if loaded is None:
        raise InputError([Problem(STATE_DIR, 0, 0, "this campaign has no state to resolve a "
                                  "turn of; expected state/campaign.yaml and the rest")])
    state = loaded.state
    cal = state.campaign.calendar
    turn = turn_id(cal.turn)
    if wanted is not None:
        turn_number(wanted)  # a ValueError: the turn command checks its ids first
        if store.is_recorded(wanted) and wanted != turn:
            return TurnResult(wanted, state, (), {}, 0, written=False)
        if wanted != turn:
            raise RefusedCommand(f"turn {wanted} is neither recorded nor open; the open turn is "
                                 f"{turn}")
    stale = [p for p in behind_last_record(store) if p.path.endswith(".age")]
    if stale:  # a twin older than the record: finishing or resolving would keep it
        raise InputError(stale)
    if store.is_recorded(turn):
        return _finish_interrupted(store, turn)
    behind = behind_last_record(store)
    if behind:  # resolved on a half-written state, the turn would record the mix as its start
        raise InputError(behind)
    if now < cal.deadline and not early:
        raise RefusedCommand(f"turn {turn}'s orders are due {cal.deadline.isoformat(sep=' ')}; "
                             "nothing was done (use --early to resolve it now)")
    if vet is not None and (found := list(vet(store))):
        raise InputError(found)  # what `check` refuses, the turn does not resolve over
    ruleset = rules.find_ruleset(state.campaign.ruleset)
    given = store.turn_orders(state, turn, ruleset.orders_adapter)
    refused = _strangers(state, turn, given) + \
        (store.stored_problems()[0] if vet is None else [])  # else vetted just now
    if refused:  # what `check` refuses, the turn does not fold in
        raise InputError(refused)
    secrets = store.dice_secrets(state, turn)
    hand = store.hand_dice(supplied) if supplied is not None else None
    results = store.battles(turn)
    # Resolve.
    dice = Dice(hand) if hand is not None else \
        turn_dice(state.campaign.id, turn, given.digest, secrets.secret, secrets.hidden)
    new_state, events = fold(ruleset, state, given.orders, dice, results)
    events = (*given.events, *events)
    notes = list(secrets.notes)
    waiting = [e for e in events if e.kind == "battle-pending"]
    if waiting:
        paths = write_templates(store, turn, new_state, waiting)
        return TurnResult(turn, new_state, events, {}, _public_rolls(dice), tuple(notes),
                          written=False, waiting=paths)
    notes += [f"{path} is not a battle of {turn}; it was left out" for path in
              stray_battles(results, events)]
    if hand is not None and hand.unused:
        notes.append(f"{hand.unused} of the dice in {supplied} were not needed")
    if secrets.following is not None:
        new_state = with_secret_hash(new_state, *secrets.following)
    else:
        notes.append(f"no umpire secret ({SECRET_ENV} or {SECRET_FILE}): "
                     f"{turn_id(cal.turn + 1)} opens without one")
    # Record.
    record = TurnRecord(turn, given.digest, tuple(sorted(given.orders)),
                        "supplied" if hand is not None else "keyed", secrets.secret,
                        cal.secret_sha256, given.digest_of, secrets.hidden,
                        cal.hidden_secret_sha256, given.receipts)
    source = (f"dice rolled by hand: {supplied}" if hand is not None else
              keyed_source(state.campaign.id, turn, given.digest))
    key = None if hand is not None else \
        turn_key(state.campaign.id, turn, given.digest, secrets.secret)
    made = MadeTurn(turn, state if store.keeps_before(state, cal.turn) else None, state,
                    new_state, events, DiceFile(source, dice.log), key, record,
                    {player: loaded.raw for player, loaded in given.orders.items()},
                    given.sealed, results)
    files = store.record_turn(made)
    return TurnResult(turn, new_state, events, files.written, _public_rolls(dice), tuple(notes))


def _strangers(state: State, turn: str, given: TurnOrders) -> list[Problem]:
    """The order files of the open turn sent under the name of nobody who plays."""
    players = {p.id for p in state.players.players}
    ids = ", ".join(sorted(players))
    return [Problem(f"orders/{turn}/{name}", 0, 0, f"{player!r} is not a player of this "
                    f"campaign (state/players.yaml), so the turn cannot fold its orders in; "
                    f"expected the order file of one of {ids}: remove it or name it after "
                    "its player")
            for player in sorted({*given.orders, *given.sealed}) if player not in players
            for name in [f"{player}.yaml" if player in given.orders else
                         f"{player}.yaml.age"]]


def fold(ruleset: Ruleset[OrdersT], state: State, orders: Mapping[str, LoadedOrders[OrdersT]],
         dice: Dice, battles: Mapping[str, LoadedBattle],
         ) -> tuple[State, tuple[Event, ...]]:
    """The ruleset's resolution of one turn, given the battle results; ``orders`` are
    in its own format (read with its ``orders_adapter``)."""
    made = ruleset.resolve(state, orders, dice, battles)
    check_made(made[1], ruleset.report, ruleset.name)  # a kind its report cannot file: a bug
    return made


def _finish_interrupted(store: CampaignStore, turn: str) -> TurnResult:
    """The open turn is recorded but ``state/`` was not updated (an earlier version of
    ftpress killed between the two steps): the store puts the record's state in place."""
    state = store.finish_recorded(turn)
    return TurnResult(turn, state, (), {}, 0, (f"{turn} was recorded but state/ was not "
                                              "updated; it is now",))
