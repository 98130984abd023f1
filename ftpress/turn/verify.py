"""``ftpress turn --verify``: a recorded turn resolved again from what its record
keeps (the state it started from, its orders, battle results and dice), compared
byte for byte with the record."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from pydantic import TypeAdapter

from ftpress import rules
from ftpress.errors import InputError, Problem, RefusedCommand
from ftpress.files import validation, yamlsource
from ftpress.orders.load import (
    LoadedOrders,
    OrderFile,
    orders_digest,
    orders_path,
    parse_orders,
)
from ftpress.secrecy import sealing
from ftpress.secrecy.hidden_state import Sealer, TurnFacts, seal_record
from ftpress.secrecy.twins import TWIN, UmpireKey, is_sealed, open_twin, read
from ftpress.state.battle_results import BATTLES_DIR, LoadedBattle
from ftpress.state.dice import Dice, KeyedStream, SuppliedDice, stream_positions, stream_value
from ftpress.state.events import Event, TurnRecord
from ftpress.state.model import Calendar, DiceFile, State
from ftpress.state.turns import TURNS_DIR, turn_id, turn_number
from ftpress.store.campaign import load_folder
from ftpress.turn.inputs import load_battles
from ftpress.turn.record import base_url, read_record, record_files, with_secret_hash
from ftpress.turn.resolve import fold
from ftpress.turn.secret import hidden_key, keyed_source, secret_hash, turn_key

_DICE: TypeAdapter[DiceFile] = TypeAdapter(DiceFile)


@dataclass(frozen=True, slots=True)
class Verified:
    """What ``ftpress turn --verify`` found."""

    #: Every difference from the record (empty: it verified).
    differences: tuple[str, ...]
    #: In a sealed campaign verified without the umpire's key: what was checked, and
    #: what could not be.
    checked: str | None = None
    unchecked: str | None = None


def verify_turn(root: Path, turn: str, umpire: UmpireKey | None = None) -> list[str]:
    """Re-resolve a recorded turn from its record; every difference as a unified diff
    (an empty list: the same result, byte for byte). See :func:`verification`."""
    return list(verification(root, turn, umpire).differences)


def verification(root: Path, turn: str, umpire: UmpireKey | None = None) -> Verified:
    """Re-resolve a recorded turn from its record; every difference as a unified diff
    (none: the same result, byte for byte). In a sealed campaign, with the umpire's key
    the full files are re-resolved and compared with their twins, and the plain files
    with their projections; without it, only what a third party can check
    (:func:`verify_publicly`)."""
    number = turn_number(turn)
    folder = f"{TURNS_DIR}/{turn}"
    if not (root / folder).is_dir():
        raise RefusedCommand(f"turn {turn} is not recorded; there is no {folder}/")
    record = read_record(root, folder, umpire)
    if umpire is None and is_sealed(root):
        return verify_publicly(root, turn, record)
    start = f"{folder}/before" if (root / folder / "before").is_dir() else \
        f"{TURNS_DIR}/{turn_id(number - 1)}"
    state = load_folder(root, start, umpire=umpire).state
    differences = _secret_differences(folder, record, state.campaign.calendar)
    again = rerun(root, turn, state, record, umpire)
    recorded = load_folder(root, folder, umpire=umpire).state.campaign.calendar
    new_state = with_secret_hash(again.state, recorded.secret_sha256,
                                 recorded.hidden_secret_sha256)
    url = base_url(root)
    before = state if start.endswith("/before") else None
    files = record_files(url, turn, before, new_state, again.events, again.dice, record,
                         again.orders, again.results) | again.sealed
    full = dict(files)
    if umpire is not None:
        files = seal_record(Sealer.of(root, new_state, umpire), files,
                            TurnFacts(turn, before, new_state, again.events, again.dice,
                                      again.key, record), state, url)
    for rel, data in sorted(files.items()):
        if not rel.startswith(folder + "/"):
            continue
        target = root / rel
        old = target.read_bytes() if target.is_file() else b""
        if old == data:
            continue
        plain = rel.removesuffix(TWIN)
        if umpire is not None and rel.endswith(TWIN) and plain in full and target.is_file():
            try:  # sealed afresh: compared by what it says
                old = open_twin(root, rel, umpire)
            except InputError as exc:
                differences += [str(p) for p in exc.problems]
                continue
            if old != full[plain]:
                differences.append(unified_diff(rel, old, full[plain]))
        else:
            differences.append(unified_diff(rel, old, data))
    differences += _given_differences(root, turn)
    return Verified(tuple(differences))


def _secret_differences(folder: str, record: TurnRecord, published: Calendar) -> list[str]:
    """Do the revealed secrets hash to what was published when the turn opened (the
    hidden one, where the record read holds it: the twin of ``turn.yaml``)?"""
    found = []
    opened = folder.rsplit("/", 1)[1]
    if record.secret is not None and secret_hash(record.secret) != record.secret_sha256:
        found.append(f"{folder}/turn.yaml: the revealed secret does not hash to secret_sha256")
    if record.secret_sha256 != published.secret_sha256:
        found.append(f"{folder}/turn.yaml: secret_sha256 is not the hash published when "
                     f"{opened} opened")
    if record.hidden_secret is not None and \
            secret_hash(record.hidden_secret) != record.hidden_secret_sha256:
        found.append(f"{folder}/turn.yaml{TWIN}: the hidden secret does not hash to "
                     "hidden_secret_sha256")
    if record.hidden_secret_sha256 != published.hidden_secret_sha256:
        found.append(f"{folder}/turn.yaml: hidden_secret_sha256 is not the hash published "
                     f"when {opened} opened")
    return found


def _given_differences(root: Path, turn: str) -> list[str]:
    """The order files sent for the turn (plain or sealed) that differ from the copies
    its record keeps."""
    folder = f"{TURNS_DIR}/{turn}"
    given = root / "orders" / turn
    found = []
    for file in sorted(given.glob("*.yaml*")) if given.is_dir() else ():
        kept = root / folder / "orders" / file.name
        if not kept.is_file() or kept.read_bytes() != file.read_bytes():
            found.append(f"orders/{turn}/{file.name}: differs from the copy folded into the "
                         f"turn, {folder}/orders/{file.name}")
    return found


def verify_publicly(root: Path, turn: str, record: TurnRecord) -> Verified:
    """What anyone can verify of a sealed campaign's turn, with no key: the revealed
    secret (and the hidden secret's hash) against the hashes published when the turn
    opened; the dice key against the sealed orders' bytes; each public roll against the
    keyed stream at its place and, where the hidden rolls had a stream of their own,
    that the public rolls are the whole public stream; the sealed order files sent
    against the record's copies."""
    number = turn_number(turn)
    folder = f"{TURNS_DIR}/{turn}"
    previous = load_folder(root, f"{TURNS_DIR}/{turn_id(number - 1)}").state
    published = previous.campaign.calendar if not (root / folder / "before").is_dir() else \
        load_folder(root, f"{folder}/before").state.campaign.calendar
    differences = _secret_differences(folder, record, published)
    checked = ["the revealed secret"]
    hidden = record.hidden_secret_sha256 is not None
    sealed = sealing.recorded_seal(root, folder, record)
    if sealed is not None:
        checked.append(f"the dice key, from the {len(sealed.files)} sealed order files")
        if sealed.digest != record.orders_sha256:
            differences.append(f"{folder}/turn.yaml: orders_sha256 is not the digest of the "
                               f"sealed order files in {folder}/orders/")
    shown = f"{folder}/dice.yaml"
    logged = validation.validate(_DICE, yamlsource.parse(yamlsource.read_text(
        root / shown, shown), shown), shown)
    if record.dice == "keyed":
        key = turn_key(previous.campaign.id, turn, record.orders_sha256, record.secret)
        for number_, roll in enumerate(logged.rolls, 1):
            if roll.at is None or stream_value(key, roll.at, roll.sides) != roll.value:
                differences.append(f"{shown}: roll {number_} ({roll.purpose}) is not what "
                                   "the turn's keyed stream gives at its place "
                                   f"({roll.at if roll.at is not None else 'none given'})")
        if hidden and [r.at for r in logged.rolls] != stream_positions(key, logged.rolls):
            differences.append(f"{shown}: the public rolls are not the whole of the turn's "
                               "public stream, one after another; expected every roll it "
                               "gave, the hidden rolls having their own stream")
        checked.append(f"{len(logged.rolls)} public rolls against the keyed stream" +
                       (", which gave no other roll" if hidden else ""))
    differences += _given_differences(root, turn)
    checked.append("the order files sent against the record's copies")
    rolls = ("the hidden rolls (drawn from their own stream, keyed with the hidden secret "
             f"sealed in turn.yaml{TWIN})" if hidden else "the hidden rolls")
    return Verified(tuple(differences), ", ".join(checked),
                    f"the orders, {rolls} and events, and the state the turn made are "
                    "sealed: verifying them needs the umpire's key")


@dataclass(frozen=True, slots=True)
class Rerun:
    """A recorded turn resolved again from what its record keeps."""

    orders: dict[str, LoadedOrders[OrderFile]]
    digest: str
    dice: DiceFile
    results: dict[str, LoadedBattle]
    #: The state the turn ends with, before the next turn's secret hash is set.
    state: State
    events: tuple[Event, ...]
    #: The sealed order files the record keeps (:mod:`ftpress.secrecy.sealing`), by path.
    sealed: dict[str, bytes]
    #: The key of the turn's dice stream; None for dice rolled by hand.
    key: bytes | None = None


def rerun(root: Path, turn: str, state: State, record: TurnRecord,
          umpire: UmpireKey | None = None) -> Rerun:
    """Resolve a recorded turn again from ``state``, with its recorded orders, battle
    results and dice (the supplied ones as logged, or the keyed stream again); in a
    sealed campaign, ``umpire`` reads the whole order files and dice from their twins."""
    folder = f"{TURNS_DIR}/{turn}"
    ruleset = rules.find_ruleset(state.campaign.ruleset)
    orders = {}
    for player in record.orders:
        raw, _ = read(root, f"{folder}/orders/{player}.yaml", umpire)
        orders[player] = parse_orders(raw, orders_path(turn, player), ruleset.orders_adapter)
    sealed = sealing.recorded_seal(root, folder, record, umpire)
    digest = sealed.digest if sealed is not None else \
        orders_digest(o.orders for o in orders.values())
    key: bytes | None = None
    if record.dice == "supplied":
        raw, shown = read(root, f"{folder}/dice.yaml", umpire)
        logged = validation.validate(_DICE, yamlsource.parse(yamlsource.decode(raw, shown),
                                                             shown), shown)
        dice = Dice(SuppliedDice([r.value for r in logged.rolls], shown))
        source = logged.source
    else:
        key = turn_key(state.campaign.id, turn, digest, record.secret)
        dice = Dice(KeyedStream(key), _hidden_stream(root, folder, state, digest, record))
        source = keyed_source(state.campaign.id, turn, digest)
    results = load_battles(root, turn, f"{folder}/{BATTLES_DIR}")
    new_state, events = fold(ruleset, state, orders, dice, results)
    if sealed is not None:
        events = (*sealed.events, *events)
    return Rerun(orders, digest, DiceFile(source, dice.log), results, new_state, events,
                 sealed.files if sealed is not None else {}, key)


def _hidden_stream(root: Path, folder: str, state: State, digest: str,
                   record: TurnRecord) -> KeyedStream | None:
    """The stream a recorded turn's hidden rolls came from; None where they came from
    the one stream (the turn opened without a hidden secret)."""
    if record.hidden_secret_sha256 is None:
        return None
    if record.hidden_secret is None:
        shown = f"{folder}/turn.yaml{TWIN}"
        raise InputError([Problem(shown if (root / shown).is_file() else f"{folder}/turn.yaml",
                                  0, 0, "holds no hidden_secret, yet the turn opened with "
                                  "hidden_secret_sha256; expected the hidden secret, sealed "
                                  "in the twin of turn.yaml")])
    return KeyedStream(hidden_key(state.campaign.id, record.turn, digest, record.hidden_secret))


def unified_diff(rel: str, old: bytes, new: bytes) -> str:
    """How a record's file differs from the same file re-resolved."""
    lines = difflib.unified_diff(old.decode("utf-8", "replace").splitlines(keepends=True),
                                 new.decode("utf-8", "replace").splitlines(keepends=True),
                                 f"{rel} (recorded)", f"{rel} (re-resolved)")
    return "".join(lines).rstrip("\n")
