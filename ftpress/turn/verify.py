"""``ftpress turn --verify``: a recorded turn resolved again from what its record
keeps (the state it started from, its orders, battle results and dice), compared
byte for byte with the record."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from ftpress import rules
from ftpress.errors import InputError, Problem, RefusedCommand
from ftpress.state.battle_results import BATTLES_DIR, LoadedBattle
from ftpress.state.dice import Dice, KeyedStream, SuppliedDice, stream_positions, stream_value
from ftpress.state.events import Event, TurnRecord
from ftpress.state.files import KINDS, STATE_DIR
from ftpress.state.model import Calendar, DiceFile, State
from ftpress.state.turns import TURNS_DIR, turn_id, turn_number
from ftpress.store import CampaignStore, MadeTurn, TurnOrders
from ftpress.store.kept_names import TWIN, twin
from ftpress.store.listing import (
    LISTING,
    Listed,
    listing_differences,
    read_listing,
    record_lines,
    sha256_file,
)
from ftpress.store.players_check import players_differences
from ftpress.store.record import with_secret_hash
from ftpress.store.secret import hidden_key, keyed_source, secret_hash, turn_key
from ftpress.turn.resolve import fold


@dataclass(frozen=True, slots=True)
class Verified:
    """What ``ftpress turn --verify`` found."""

    #: Every difference from the record (empty: it verified).
    differences: tuple[str, ...]
    #: In a sealed campaign verified without the umpire's key: what was checked, and
    #: what could not be.
    checked: str | None = None
    unchecked: str | None = None
    #: The player who verified with their own key (None: anyone, with no key).
    reader: str | None = None


def verify_turn(store: CampaignStore, turn: str) -> list[str]:
    """Re-resolve a recorded turn from its record; every difference as a unified diff
    (an empty list: the same result, byte for byte). See :func:`verification`."""
    return list(verification(store, turn).differences)


def verification(store: CampaignStore, turn: str) -> Verified:
    """Re-resolve a recorded turn from its record, made again by the store's one recipe,
    and compare every file with the record's; every difference as a unified diff (none:
    the same result, byte for byte). A twin made afresh is compared by what it says. A
    reader who cannot read the whole record (a sealed campaign's, without the umpire's
    key) checks what a third party can (:func:`verify_publicly`)."""
    number = turn_number(turn)
    folder = f"{TURNS_DIR}/{turn}"
    if not store.is_recorded(turn):
        raise RefusedCommand(f"turn {turn} is not recorded; there is no {folder}/")
    record = store.record_of(folder)
    if not store.reads_whole:
        return verify_publicly(store, turn, record)
    start = store.start_of(turn, number)
    state = store.folder_state(start)
    differences = _secret_differences(folder, record, state.campaign.calendar)
    made = remade(store, turn, state, start.endswith("/before"), record)[0]
    files = store.turn_files(made)
    root = store.root
    for rel, data in sorted(files.written.items()):
        if not rel.startswith(folder + "/"):
            continue
        target = root / rel
        if rel == f"{folder}/{LISTING}":
            if not target.is_file():
                continue  # recorded before records were listed
            old, data = record_lines(target.read_bytes()), record_lines(data)
            if old != data:  # the current state's twins are sealed afresh: left out
                differences.append(unified_diff(rel, old, data))
            continue
        old = target.read_bytes() if target.is_file() else b""
        if old == data:
            continue
        plain = rel.removesuffix(TWIN)
        if rel.endswith(TWIN) and plain in files.whole and target.is_file():
            try:  # sealed afresh: compared by what it says
                old = store.open_twin(rel)
            except InputError as exc:
                differences += [str(p) for p in exc.problems]
                continue
            if old != files.whole[plain]:
                differences.append(unified_diff(rel, old, files.whole[plain]))
        elif rel.endswith(".age"):  # sealed to its reader: no text to show of it
            differences.append(f"{rel}: " + ("the record has no such file" if not
                                             target.is_file() else
                                             "the record's sealed bytes differ"))
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
    its record keeps. A plain file whose orders were sealed (the sealed file beside it,
    or in the record) is not what was sent: it is its player's working copy, left in
    their clone and ignored by git, and the record's plain copy is the public's."""
    folder = f"{TURNS_DIR}/{turn}"
    given = root / "orders" / turn
    found = []
    for file in sorted(given.glob("*.yaml*")) if given.is_dir() else ():
        kept = root / folder / "orders" / file.name
        sealed = f"{file.name}{TWIN}"
        if not file.name.endswith(TWIN) and ((given / sealed).is_file() or
                                             (root / folder / "orders" / sealed).is_file()):
            continue
        if not kept.is_file() or kept.read_bytes() != file.read_bytes():
            found.append(f"orders/{turn}/{file.name}: differs from the copy folded into the "
                         f"turn, {folder}/orders/{file.name}")
    return found


def verify_publicly(store: CampaignStore, turn: str, record: TurnRecord) -> Verified:
    """What anyone can verify of a sealed campaign's turn, with no key: the revealed
    secret (and the hidden secret's hash) against the hashes published when the turn
    opened; the dice key against the players' receipts (or, before receipts, the sealed
    orders' bytes); each public roll against the keyed stream at its place and, where
    the hidden rolls had a stream of their own, that the public rolls are the whole
    public stream; every file of the record, public and sealed, against the list of
    their hashes the turn wrote (:mod:`ftpress.store.listing`); the plain state against
    the record; the order files sent against the record's copies. Read with a player's
    key (:attr:`CampaignStore.reading_player`), that player's intelligence and sealed
    orders too (:func:`ftpress.store.players_check.players_differences`)."""
    number = turn_number(turn)
    folder = f"{TURNS_DIR}/{turn}"
    root = store.root
    before = f"{TURNS_DIR}/{turn_id(number - 1)}"
    previous = store.folder_state(before)
    start = store.start_of(turn, number)
    published = (previous if start == before else store.folder_state(start)).campaign.calendar
    differences = _secret_differences(folder, record, published)
    checked = ["the revealed secret"]
    unchecked = []
    hidden = record.hidden_secret_sha256 is not None
    sealed = store.recorded_seal(folder, record)
    if sealed is not None:
        differences += sealed.problems(folder)
        count = len(sealed.files)
        if sealed.receipts is not None:
            checked.append(f"the dice key, from the players' {count} receipt"
                           f"{'s' if count != 1 else ''}")
            again = sealed.resealed()
            if again:
                unchecked.append(f"that the receipts of {', '.join(again)} (sealed again after "
                                 "they were sent: keys rotate) are those their pull requests "
                                 "were given: compare them with the checks' logs")
        else:
            checked.append(f"the dice key, from the {count} sealed order files")
        if sealed.digest != record.orders_sha256:
            what = "players' receipts" if sealed.receipts is not None else \
                f"sealed order files in {folder}/orders/"
            differences.append(f"{folder}/turn.yaml: orders_sha256 is not the digest of the "
                               f"{what}")
    logged, shown = store.recorded_dice(folder)
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
    listed = read_listing(root, folder)
    if listed is None:
        unchecked.append(f"that the record's files are those the turn wrote ({turn} was "
                         f"recorded before records listed their hashes in {LISTING})")
    else:
        differences += listing_differences(root, folder, listed)
        checked.append(f"every file of the record, public and sealed, against {LISTING}")
    if not store.is_recorded(turn_id(number + 1)):
        found, edited = _plain_state_differences(root, folder, listed)
        differences += found
        checked.append(f"the plain {STATE_DIR}/ against the record")
        if edited:
            unchecked.append(f"the edits of {', '.join(edited)} since {turn} (an edit of the "
                             "state between turns, which the next turn's record keeps in "
                             "before/)")
    differences += _given_differences(root, turn)
    checked.append("the order files sent against the record's copies")
    reader = store.reading_player
    if reader is not None:
        differences += players_differences(root, folder, record, *reader)
        checked.append(f"{reader[0]}'s intelligence (it opens with their key, is theirs and "
                       "this turn's, and was told every public event) and their sealed orders "
                       "in the record (theirs, as sent)")
    rolls = ("the hidden rolls (drawn from their own stream, keyed with the hidden secret "
             f"sealed in turn.yaml{TWIN})" if hidden else "the hidden rolls")
    unchecked.append(f"the orders, {rolls} and events, and the state the turn made, and so "
                     "whether the public files are what the rules make of them, are sealed: "
                     "verifying them needs the umpire's key")
    if listed is not None:
        unchecked.append(f"a record rewritten whole with its {LISTING} shows only in the git "
                         f"history (git log -- {folder}/)")
    return Verified(tuple(differences), ", ".join(checked), "; ".join(unchecked),
                    reader[0] if reader is not None else None)


def _plain_state_differences(root: Path, folder: str, listed: Listed | None,
                             ) -> tuple[list[str], list[str]]:
    """The plain state files changed since the latest turn wrote them while their sealed
    twins were not (changed by hand: an edit of the state between turns writes both);
    and those changed since, which nobody without the key can check (all of them, for
    a turn recorded before records were listed)."""
    found, edited = [], []
    for kind in KINDS.values():
        plain, kept = root / STATE_DIR / kind.file, root / folder / kind.file
        if not plain.is_file():
            continue
        if listed is None or kind.file not in listed.state:
            if kept.is_file() and plain.read_bytes() != kept.read_bytes():
                edited.append(f"{STATE_DIR}/{kind.file}")
            continue
        if sha256_file(plain) == listed.state[kind.file]:
            continue
        sealed = root / STATE_DIR / twin(kind.file)
        if sealed.is_file() and sha256_file(sealed) == listed.state.get(twin(kind.file)):
            found.append(f"{STATE_DIR}/{kind.file}: is not the file {folder} wrote, yet its "
                         "sealed twin is: the plain file was changed by hand, not by an edit "
                         "of the state (which writes both)")
        else:
            edited.append(f"{STATE_DIR}/{kind.file}")
    return found, edited


@dataclass(frozen=True, slots=True)
class Rerun:
    """A recorded turn resolved again from what its record keeps."""

    #: The orders folded in, and what the dice were keyed on.
    given: TurnOrders
    dice: DiceFile
    results: dict[str, LoadedBattle]
    #: The state the turn ends with, before the next turn's secret hash is set.
    state: State
    events: tuple[Event, ...]
    #: The key of the turn's dice stream; None for dice rolled by hand.
    key: bytes | None = None


def rerun(store: CampaignStore, turn: str, state: State, record: TurnRecord) -> Rerun:
    """Resolve a recorded turn again from ``state``, with its recorded orders, battle
    results and dice (the supplied ones as logged, or the keyed stream again), each read
    back from the record through the store."""
    folder = f"{TURNS_DIR}/{turn}"
    ruleset = rules.find_ruleset(state.campaign.ruleset)
    given = store.recorded_orders(folder, record, ruleset.orders_adapter)
    key: bytes | None = None
    if record.dice == "supplied":
        logged, shown = store.recorded_dice(folder)
        dice = Dice(SuppliedDice([r.value for r in logged.rolls], shown))
        source = logged.source
    else:
        key = turn_key(state.campaign.id, turn, given.digest, record.secret)
        dice = Dice(KeyedStream(key), _hidden_stream(store.root, folder, state, given.digest,
                                                     record))
        source = keyed_source(state.campaign.id, turn, given.digest)
    results = store.battles(turn, f"{folder}/{BATTLES_DIR}")
    new_state, events = fold(ruleset, state, given.orders, dice, results)
    return Rerun(given, DiceFile(source, dice.log), results, new_state,
                 (*given.events, *events), key)


def remade(store: CampaignStore, turn: str, start: State, edited: bool, record: TurnRecord,
           ) -> tuple[MadeTurn, Rerun]:
    """A recorded turn made again from ``start`` (kept as its ``before/`` when
    ``edited``), for the store's recipe to write as the turn wrote it: the next turn's
    secret hashes as its record published them."""
    again = rerun(store, turn, start, record)
    recorded = store.folder_state(f"{TURNS_DIR}/{turn}").campaign.calendar
    new_state = with_secret_hash(again.state, recorded.secret_sha256,
                                 recorded.hidden_secret_sha256)
    made = MadeTurn(turn, start if edited else None, start, new_state, again.events,
                    again.dice, again.key, record,
                    {player: loaded.raw for player, loaded in again.given.orders.items()},
                    again.given.sealed, again.results)
    return made, again


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


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """What ``ftpress turn --verify`` says: each difference, then its verdict."""

    ok: bool
    differences: tuple[str, ...]
    verdict: str


def verify_report(root: Path, turn: str, identity: Path | None) -> VerifyReport:
    """Verify ``turn`` of the campaign at ``root``: without the key a sealed campaign's
    turn is verified as a third party can; a key given (or found) must be the umpire's."""
    from ftpress.store import open_store

    verified = verification(open_store(root, identity=identity, players=True,
                                       why="verifying the whole turn"), turn)
    count = len(verified.differences)
    if count:
        return VerifyReport(False, verified.differences,
                            f"ftpress: {turn} does not re-resolve to its record "
                            f"({count} difference{'s' if count != 1 else ''})")
    if verified.checked is not None:
        who = "anyone can, without the umpire's key" if verified.reader is None else \
            f"{verified.reader} can, with their own key"
        return VerifyReport(True, (), f"verified {turn} as {who}: {verified.checked}; not "
                            f"verified: {verified.unchecked}")
    return VerifyReport(True, (), f"verified {turn}: re-resolving it gives the recorded "
                        "result exactly")
