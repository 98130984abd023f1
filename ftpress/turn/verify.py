"""``ftpress turn --verify``: a recorded turn resolved again from what its record
keeps (the state it started from, its orders, battle results and dice), compared
byte for byte with the record."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from pydantic import TypeAdapter

from ftpress import rules, validation, yamlsource
from ftpress.battles import BATTLES_DIR, LoadedBattle
from ftpress.campaign import load_folder
from ftpress.dice import Dice, SuppliedDice
from ftpress.errors import RefusedCommand
from ftpress.events import Event, TurnRecord
from ftpress.orders.load import LoadedOrders, orders_digest, orders_path, parse_orders
from ftpress.state.model import DiceFile, State
from ftpress.state.turns import TURNS_DIR, turn_id, turn_number
from ftpress.turn.inputs import load_battles
from ftpress.turn.record import base_url, read_record, record_files, with_secret_hash
from ftpress.turn.resolve import fold
from ftpress.turn.secret import keyed_source, secret_hash, turn_dice

_DICE: TypeAdapter[DiceFile] = TypeAdapter(DiceFile)


def verify_turn(root: Path, turn: str) -> list[str]:
    """Re-resolve a recorded turn from its record; every difference as a unified diff
    (an empty list: the same result, byte for byte)."""
    number = turn_number(turn)
    folder = f"{TURNS_DIR}/{turn}"
    if not (root / folder).is_dir():
        raise RefusedCommand(f"turn {turn} is not recorded; there is no {folder}/")
    record = read_record(root, folder)
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
    again = rerun(root, turn, state, record)
    recorded = load_folder(root, folder).state
    new_state = with_secret_hash(again.state, recorded.campaign.calendar.secret_sha256)
    files = record_files(base_url(root), turn, state if start.endswith("/before") else None,
                         new_state, again.events, again.dice, record, again.orders,
                         again.results)
    for rel, data in sorted(files.items()):
        if not rel.startswith(folder + "/"):
            continue
        target = root / rel
        old = target.read_bytes() if target.is_file() else b""
        if old != data:
            differences.append(unified_diff(rel, old, data))
    given = root / "orders" / turn
    if given.is_dir():
        for file in sorted(given.glob("*.yaml")):
            kept = root / folder / "orders" / file.name
            if not kept.is_file() or kept.read_bytes() != file.read_bytes():
                differences.append(f"orders/{turn}/{file.name}: differs from the copy folded "
                                   f"into the turn, {folder}/orders/{file.name}")
    return differences


@dataclass(frozen=True, slots=True)
class Rerun:
    """A recorded turn resolved again from what its record keeps."""

    orders: dict[str, LoadedOrders]
    digest: str
    dice: DiceFile
    results: dict[str, LoadedBattle]
    #: The state the turn ends with, before the next turn's secret hash is set.
    state: State
    events: tuple[Event, ...]


def rerun(root: Path, turn: str, state: State, record: TurnRecord) -> Rerun:
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
        source = keyed_source(state.campaign.id, turn, digest)
    results = load_battles(root, turn, f"{folder}/{BATTLES_DIR}")
    new_state, events = fold(ruleset, state, orders, dice, results)
    return Rerun(orders, digest, DiceFile(source, dice.log), results, new_state, events)


def unified_diff(rel: str, old: bytes, new: bytes) -> str:
    """How a record's file differs from the same file re-resolved."""
    lines = difflib.unified_diff(old.decode("utf-8", "replace").splitlines(keepends=True),
                                 new.decode("utf-8", "replace").splitlines(keepends=True),
                                 f"{rel} (recorded)", f"{rel} (re-resolved)")
    return "".join(lines).rstrip("\n")
