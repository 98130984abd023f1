"""The campaign store's interface, what it reads and writes, and how a campaign is opened.

Whether a campaign is open or sealed decides how each of its files is read (a
projection from its twin, with the umpire's key) and what a turn writes (the
whole files, or their public projections with the whole sealed beside them).
It is decided here once, by :func:`open_store`, from the plain
``state/campaign.yaml`` that says it to everyone; the two answers are the two
implementations, :class:`~ftpress.store.open.OpenStore` and
:class:`~ftpress.store.sealed.SealedStore`. What does not depend on it
is written once, in :class:`CampaignStore`: a turn's whole record is made by
one recipe (:func:`whole_record`) whatever the campaign, and only what becomes
of it on disk differs (:meth:`CampaignStore.projected`).
"""

from __future__ import annotations

import dataclasses
import functools
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import TypeAdapter

from ftpress.errors import InputError, InvalidArgument, Problem, RefusedCommand
from ftpress.files import validation, yamlsource
from ftpress.files.write import write_file
from ftpress.orders.load import LoadedOrders, orders_digest, orders_path, parse_orders
from ftpress.rules import STATE_EXTENSIONS
from ftpress.secrecy import sealing
from ftpress.secrecy.twins import (
    UmpireKey,
    needed_key,
    open_twin,
    plain_campaign,
    read,
    twin,
    umpire_key,
)
from ftpress.speed.executor import SERIAL, Executor
from ftpress.state.battle_results import BATTLES_DIR, LoadedBattle
from ftpress.state.dice import SuppliedDice
from ftpress.state.events import Event, EventsFile, TurnRecord
from ftpress.state.files import KINDS, STATE_DIR
from ftpress.state.load import LoadedState, Store
from ftpress.state.model import DiceFile, State
from ftpress.state.records import RecordedTurn, load_turns, read_events
from ftpress.state.save import dump, schema_url
from ftpress.state.turns import TURNS_DIR, turn_id
from ftpress.state.writeout import write_out
from ftpress.store.campaign import load_folder, load_state, load_states
from ftpress.store.inputs import load_battles, read_supplied_dice
from ftpress.store.record import base_url, keeps_before, read_record
from ftpress.store.secret import (
    SECRET_ENV,
    SECRET_FILE,
    hidden_secret,
    master_secret,
    secret_hash,
    turn_secret,
)

_DICE: TypeAdapter[DiceFile] = TypeAdapter(DiceFile)
#: Why a sealed campaign's turn is not resolved without the umpire's master secret:
#: its hidden rolls would come from a stream anyone can compute once the turn is
#: recorded, and the next turn would open with no secret's hash published.
NO_MASTER = (f"this campaign is sealed: resolving {{turn}} needs the umpire's master secret, "
             "which keys the hidden rolls so that nobody else can compute them and publishes "
             "the next turn's secret hashes; set "
             f"{SECRET_ENV} (in the publishing workflow, a secret of the environment "
             f"'umpire') or put it in {SECRET_FILE} at the campaign's root (git-ignored; a "
             "new one: python -c \"import secrets; print(secrets.token_hex(32))\" > "
             f"{SECRET_FILE}, and keep a copy); nothing was done")


@dataclass(frozen=True, slots=True)
class TurnOrders:
    """A turn's order files as the turn folds them, and what keys its dice."""

    #: The orders that can be used, by player, in the ruleset's format.
    orders: dict[str, LoadedOrders[Any]]
    #: The dice key's digest: of the orders in canonical form, or of the players'
    #: receipts of their sealed files (of the sealed files' bytes, before receipts).
    digest: str
    #: What ``digest`` digests, as ``turn.yaml`` says it (None: the orders).
    digest_of: Literal["orders", "sealed", "receipts"] | None = None
    #: Each unusable sealed file's events: why, for its player; that it could not be
    #: used, for all.
    events: tuple[Event, ...] = ()
    #: The sealed files as committed, by player: the record keeps them so that anyone
    #: can check them against their receipts.
    sealed: dict[str, bytes] = field(default_factory=dict)
    #: Each player's receipt (``digest_of: receipts``), which keys the dice.
    receipts: dict[str, str] | None = None


@dataclass(frozen=True, slots=True)
class DiceSecrets:
    """The umpire's secrets behind a turn's dice (:mod:`ftpress.store.secret`), checked
    against the hashes published when it opened."""

    #: The turn's secret (None: it opened without one).
    secret: str | None
    #: The secret of its hidden rolls (None: they come from the one stream).
    hidden: str | None
    #: The hashes the next turn opens with, the secret's and its hidden secret's;
    #: None when there is no master secret (it opens without one).
    following: tuple[str, str | None] | None
    #: What the umpire is told of them.
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MadeTurn:
    """Everything a turn's record keeps: what it started from, what it folded in, what
    it made. Resolving, verifying, redoing and sealing a turn each make one, and hand
    it to the store's one recipe (:meth:`CampaignStore.turn_files`)."""

    turn: str
    #: The state it started from, kept in ``before/`` when it is not the previous
    #: turn's snapshot (the umpire edited it between turns); else None.
    before: State | None
    #: The state it started from, whether kept or not: what the published copies of
    #: its order files may name.
    start: State
    #: The state it ended with, the next turn's secret hashes published.
    state: State
    events: tuple[Event, ...]
    dice: DiceFile
    #: The key of its dice stream; None for dice rolled by hand.
    key: bytes | None
    record: TurnRecord
    #: Each player's order file folded in, as sent, by player.
    orders: Mapping[str, bytes]
    #: The sealed order files its dice were keyed on, by player.
    sealed: Mapping[str, bytes] = field(default_factory=dict)
    #: The battle results fought on the tabletop, by battle id.
    battles: Mapping[str, LoadedBattle] = field(default_factory=dict)

    @property
    def folder(self) -> str:
        return f"{TURNS_DIR}/{self.turn}"


@dataclass(frozen=True, slots=True)
class TurnFiles:
    """A turn's files: whole, and as the store writes them."""

    #: Every file of the record and of ``state/``, whole, by path.
    whole: dict[str, bytes]
    #: What is written, by path: the whole files in an open campaign; in a sealed one,
    #: their public projections with the whole sealed beside them, and each player's
    #: intelligence.
    written: dict[str, bytes]


def whole_record(url: str | None, made: MadeTurn) -> dict[str, bytes]:
    """Every file a turn writes, whole, by path: its record folder and the current
    state. The tabletop battle results folded in are kept in the record's
    ``battles/``; the sealed order files, beside the plain copies."""
    folder = made.folder
    files: dict[str, bytes] = {}
    for kind in KINDS.values():
        text = dump(getattr(made.state, kind.name), schema_url(url, kind)).encode("utf-8")
        files[f"{folder}/{kind.file}"] = text
        files[f"{STATE_DIR}/{kind.file}"] = text
        if made.before is not None:
            files[f"{folder}/before/{kind.file}"] = dump(
                getattr(made.before, kind.name), schema_url(url, kind)).encode("utf-8")
    files[f"{folder}/dice.yaml"] = dump(made.dice).encode("utf-8")
    files[f"{folder}/events.yaml"] = dump(EventsFile(made.turn, made.events)).encode("utf-8")
    files[f"{folder}/turn.yaml"] = dump(made.record).encode("utf-8")
    for player, raw in sorted(made.orders.items()):
        files[f"{folder}/orders/{player}.yaml"] = raw
    for player, data in sorted(made.sealed.items()):
        files[f"{folder}/orders/{player}{sealing.SEALED}"] = data
    fought = {e.order for e in made.events if e.kind == "battle" and e.order}
    for name, battle in sorted(made.battles.items()):
        if battle.path in fought:
            files[f"{folder}/{BATTLES_DIR}/{name}.yaml"] = battle.raw
    return files


class CampaignStore(ABC):
    """A campaign as one reader reads it and a turn writes it (see the module
    docstring). ``key``: the umpire's, where this reader has it; the loaders it is
    handed to read each projection from its twin with it."""

    def __init__(self, root: Path, key: UmpireKey | None = None,
                 environ: Mapping[str, str] | None = None) -> None:
        self.root = root
        self.key = key
        self._environ = environ

    # --- reading ----------------------------------------------------------------------

    @property
    @abstractmethod
    def reads_whole(self) -> bool:
        """Does this reader read every file whole? (A sealed campaign's reader without
        the umpire's key reads the public projections alone.)"""

    @property
    def reading_player(self) -> tuple[str, Path] | None:
        """The player this reader is, with their key file (a sealed campaign read with a
        player's key instead of the umpire's); None for the umpire or anyone."""
        return None

    def state(self) -> LoadedState | None:
        """The current state as this reader reads it, checked by its ruleset; None for
        a campaign without one."""
        return load_state(self.root, self.key)

    def states(self, cache: Store | None = None, executor: Executor = SERIAL,
               ) -> tuple[LoadedState, ...]:
        """The current state first, then every turn snapshot, as this reader reads them
        (:func:`ftpress.store.campaign.load_states`): for a build, whose ``cache`` keeps
        the parsed files between runs and whose ``executor`` parses them."""
        return load_states(self.root, cache, executor, self.key)

    def turns(self, snapshots: dict[str, State] | None = None, executor: Executor = SERIAL,
              cache: Store | None = None) -> tuple[RecordedTurn, ...]:
        """Every recorded turn, oldest first, as this reader reads them; ``snapshots``:
        the states loaded already, by folder; ``cache``: the build's, which keeps the
        event logs read (by their bytes) for the next build of the same process."""
        return load_turns(self.root, snapshots, executor, extensions=STATE_EXTENSIONS,
                          umpire=self.key, store=cache)

    def folder_state(self, folder: str) -> State:
        """One state folder (``state/``, a record, its ``before/``) as this reader
        reads it."""
        return load_folder(self.root, folder, umpire=self.key).state

    def said(self, rel: str) -> bytes:
        """What the file ``rel`` says to this reader: its twin's text where it is a
        projection and this reader has the key; else its bytes."""
        return read(self.root, rel, self.key)[0]

    @abstractmethod
    def senders(self, turn: str, players: Iterable[str]) -> tuple[str, ...]:
        """The ``players`` (ids, in their order) who have sent orders for ``turn``, as
        the turn will read them."""

    def is_recorded(self, turn: str) -> bool:
        return (self.root / TURNS_DIR / turn).is_dir()

    def record_of(self, folder: str) -> TurnRecord:
        """A recorded turn's ``turn.yaml``, whole where this reader has the key."""
        return read_record(self.root, folder, self.key)

    def events_of(self, folder: str) -> tuple[Event, ...]:
        """A recorded turn's events, as this reader may read them."""
        return tuple(read_events(self.root, folder, self.key))

    def start_of(self, turn: str, number: int) -> str:
        """The folder of the state a recorded turn started from: its ``before/``, or
        the turn before's record."""
        folder = f"{TURNS_DIR}/{turn}"
        return f"{folder}/before" if (self.root / folder / "before").is_dir() else \
            f"{TURNS_DIR}/{turn_id(number - 1)}"

    @abstractmethod
    def turn_orders(self, state: State, turn: str, adapter: TypeAdapter[Any],
                    ) -> TurnOrders:
        """The open turn's order files, as the turn folds them; raises with every
        syntax mistake in a plain one."""

    def recorded_orders(self, folder: str, record: TurnRecord,
                        adapter: TypeAdapter[Any]) -> TurnOrders:
        """The orders a recorded turn folded in, read back from its record (a sealed
        campaign's whole copies from their twins), and what its dice were keyed on."""
        turn = record.turn
        orders = {}
        for player in record.orders:
            raw, _ = read(self.root, f"{folder}/orders/{player}.yaml", self.key)
            orders[player] = parse_orders(raw, orders_path(turn, player), adapter)
        sealed = self.recorded_seal(folder, record)
        if sealed is None:
            return TurnOrders(orders, orders_digest(o.orders for o in orders.values()))
        return TurnOrders(orders, sealed.digest,
                          "sealed" if sealed.receipts is None else "receipts", sealed.events,
                          {path.rsplit("/", 1)[1].removesuffix(sealing.SEALED): data
                           for path, data in sealed.files.items()}, sealed.receipts)

    def recorded_seal(self, folder: str, record: TurnRecord) -> sealing.RecordedSeal | None:
        """The sealed orders a recorded turn's dice were keyed on, with the players'
        receipts where it kept them; None for a turn resolved from plain orders
        (:func:`ftpress.secrecy.sealing.recorded_seal`)."""
        return sealing.recorded_seal(self.root, folder, record, self.key)

    def recorded_dice(self, folder: str) -> tuple[DiceFile, str]:
        """A recorded turn's dice log, whole where this reader has the key, and the path
        a problem in it is told at."""
        raw, shown = read(self.root, f"{folder}/dice.yaml", self.key)
        return validation.validate(_DICE, yamlsource.parse(yamlsource.decode(raw, shown),
                                                           shown), shown), shown

    def twin_said(self, rel: str) -> bytes | None:
        """What the twin of ``rel`` says; None where it has none, or this reader has no
        key to open it."""
        if self.key is None or not (self.root / twin(rel)).is_file():
            return None
        return open_twin(self.root, twin(rel), self.key)

    def open_twin(self, rel: str) -> bytes:
        """What the twin ``rel`` says; refused to a reader without the umpire's key."""
        if self.key is None:
            raise RefusedCommand(f"{rel} is sealed to the umpires; reading it needs the "
                                 "umpire's key")
        return open_twin(self.root, rel, self.key)

    def battles(self, turn: str, folder: str | None = None) -> dict[str, LoadedBattle]:
        """The battle results of ``turn`` the umpire filled in (or those a record keeps
        in ``folder``)."""
        return load_battles(self.root, turn, folder)

    # --- the battle-result files of a turn paused for the tabletop --------------------

    def battle_kept_as(self, path: str) -> str:
        """The file the battle-result file ``path`` (``battles/<turn>/<battle>.yaml``) is
        committed as, which the turn's pause names: here the plain file itself."""
        return path

    def write_battle_template(self, state: State, path: str, text: bytes) -> None:
        """Write the template of the battle-result file ``path``, for the umpire to fill
        in (``state``: the campaign's, whose umpires it is for)."""
        write_file(self.root / path, text)

    def public_battle(self, path: str) -> bytes | None:
        """What everyone reads of the battle-result file committed as ``path``: its
        bytes (the forces that meet are public in an open campaign); None where it is
        sealed to the umpires."""
        return (self.root / path).read_bytes()

    def waiting_battles(self, turn: str) -> list[str]:
        """The battle-result files a paused ``turn`` still waits for, as committed: those
        not yet marked ``fought: true``."""
        folder = self.root / BATTLES_DIR / turn
        return [f"{BATTLES_DIR}/{turn}/{file.name}" for file in
                (sorted(folder.glob("*.yaml")) if folder.is_dir() else ())
                if not _fought(file)]

    def sealed_battles(self, turn: str) -> dict[str, bytes]:
        """The battle-result files of ``turn`` the umpire filled in, sealed to the
        umpires beside the plain ones, by path; refused where they are committed plain."""
        raise RefusedCommand("this campaign is open: its battle-result files are committed "
                             "as they are, in plain; there is nothing to seal")

    def opened_battles(self, turn: str) -> dict[str, bytes]:
        """The sealed battle-result files of ``turn`` opened, as the plain files the
        umpire fills in, by path; refused where nothing is sealed."""
        raise RefusedCommand("this campaign is open: its battle-result files are plain "
                             "already; there is nothing to open")

    def hand_dice(self, path: Path) -> SuppliedDice:
        """``--dice FILE``: the dice rolled by hand."""
        return read_supplied_dice(self.root, path)

    @functools.cached_property
    def base_url(self) -> str | None:
        """The site's address (``site.yaml``, read once), for the schema line of each
        state file written."""
        return base_url(self.root)

    @functools.cached_property
    def _master(self) -> bytes | None:
        return master_secret(self.root, self._environ)

    #: Are a turn's hidden rolls drawn from a stream of their own, its secret sealed?
    #: Only where something can be sealed.
    _hides_rolls = False

    def dice_secrets(self, state: State, turn: str) -> DiceSecrets:
        """The open turn's secrets, checked against the hashes it opened with; refused
        when one was published and the master secret is missing or does not match."""
        cal = state.campaign.calendar
        master = self._master
        if master is None and self._hides_rolls:
            raise RefusedCommand(NO_MASTER.format(turn=turn))
        notes: list[str] = []
        secret = None
        if cal.secret_sha256 is not None:
            if master is None:
                raise RefusedCommand(f"turn {turn} opened with an umpire secret; set "
                                     f"{SECRET_ENV} or put it in {SECRET_FILE} to resolve it")
            secret = turn_secret(master, state.campaign.id, turn)
            if secret_hash(secret) != cal.secret_sha256:
                raise RefusedCommand(f"the umpire secret does not match the hash published "
                                     f"when {turn} opened (calendar.secret_sha256); check "
                                     f"{SECRET_ENV} or {SECRET_FILE}")
        else:
            notes.append(f"{turn} opened without an umpire secret: its dice depend only on "
                         "public inputs")
        hidden = _hidden_secret(master, state, turn)
        if self._hides_rolls and hidden is None and master is not None:
            notes.append(f"{turn} opened without a hidden secret: its hidden rolls come from "
                         "the public stream, as before; the next turn opens with one")
        following = None
        if master is not None:
            after = turn_id(cal.turn + 1)
            following = (secret_hash(turn_secret(master, state.campaign.id, after)),
                         secret_hash(hidden_secret(master, state.campaign.id, after))
                         if self._hides_rolls else None)
        return DiceSecrets(secret, hidden, following, tuple(notes))

    def keeps_before(self, state: State, number: int) -> bool:
        """Must turn ``number``'s record keep the state it started from (the umpire
        edited it after the turn before was recorded)?"""
        return keeps_before(self.root, state, number, self.key)

    # --- checking ---------------------------------------------------------------------

    def known(self) -> LoadedState | None:
        """The state the open turn's orders are checked against, as this reader knows
        it; None where that is ``state/`` as everyone reads it."""
        return None

    def known_by(self, player: str, identity: Path | None) -> LoadedState | None:
        """The state ``player``'s orders are checked against, as this reader knows it
        (``identity``: the player's key, to open what they know); None where that is
        ``state/`` as everyone reads it."""
        return None

    @abstractmethod
    def order_recipients(self, state: State, player: str) -> list[str]:
        """Who ``player``'s order file is sealed to; refused where orders travel in
        plain."""

    def sealed_order_problems(self, rel: str, state: State) -> list[Problem] | None:
        """What is wrong with the order file ``rel`` as a sealed file, found with no key;
        None where it is not one this campaign takes (it is checked as any order file)."""
        return None

    def resealed_problems(self, rel: str) -> list[Problem] | None:
        """What is wrong with the order file ``rel`` as the open turn's receipts of files
        sealed again (``orders/<turn>/receipts.yml``: keys rotate); None where it is not
        that file (it is checked as any order file)."""
        if rel.count("/") != 2 or not rel.endswith(f"/{sealing.RESEALED}"):
            return None
        try:
            sealing.read_resealed(self.root, rel.split("/")[1])
        except InputError as exc:
            return list(exc.problems)
        return []

    def stored_problems(self, wanted: set[str] | None = None,
                        ) -> tuple[list[Problem], str | None]:
        """Every problem in how the campaign is stored, and what this reader could not
        check of it (of the ``wanted`` files, if named), in words; for ``ftpress check``,
        once the campaign itself loads."""
        return [], None

    # --- writing ----------------------------------------------------------------------

    def current_files(self, state: State, kinds: Iterable[str] | None = None,
                      ) -> dict[str, bytes]:
        """The files of ``state/`` written from ``state`` (the ``kinds`` named, else every
        one), by path, as this store writes them."""
        wanted = [KINDS[k] for k in kinds] if kinds is not None else list(KINDS.values())
        return {f"{STATE_DIR}/{kind.file}": dump(getattr(state, kind.name),
                                                 schema_url(self.base_url, kind)).encode("utf-8")
                for kind in wanted}

    def rekeyed(self, state: State, recipients: tuple[str, ...]) -> dict[str, bytes]:
        """The files to write when the umpires' recipients become ``recipients`` (a key
        rotated): the current campaign file listing them."""
        campaign = dataclasses.replace(state.campaign, umpire_recipients=recipients or None)
        return self.current_files(dataclasses.replace(state, campaign=campaign), ("campaign",))

    def intelligence_for(self, player: str) -> dict[str, bytes]:
        """What ``player`` knows of the latest recorded turn, sealed to the key ``state/``
        now lists for them, by path: none where nothing is sealed."""
        return {}

    def how_to_send(self, turn: str, player: str = "<your-id>") -> str:
        """How a player sends a turn's orders, in the words of every reminder and hint."""
        return sealing.how_to_send(turn, player, sealed=False)

    # --- what the campaign's secrecy means for its players and its repository ---------

    @property
    @abstractmethod
    def order_suffix(self) -> str:
        """How the name of the order file a player sends ends: ``orders/<turn>/<player>``
        and this (the order guide shows it, and what it means)."""

    @property
    @abstractmethod
    def environment_secrets(self) -> tuple[str, ...]:
        """The secrets the publishing run needs in its environment, by name."""

    @abstractmethod
    def sent_refusal(self, path: str) -> str | None:
        """Why the order file ``path`` may not be sent in a pull request, as a campaign
        of this kind takes them; None where it may (the check of its name and turn comes
        after)."""

    @abstractmethod
    def sent_for(self, path: str) -> str:
        """The order file ``path`` stands for, for the check of its turn and player."""

    @abstractmethod
    def sent_problems(self, path: str, data: bytes, state: State) -> list[Problem] | None:
        """What is wrong with the order file ``path`` sent with the bytes ``data``, as far
        as it can be checked with no key; None where it is read and judged as any order
        file."""

    @abstractmethod
    def keyed_players(self, state: State) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Each player a turn seals their own report and intelligence to, with the
        recipients those are sealed to: none where every file is plain."""

    @abstractmethod
    def published_views(self, turn: str | None) -> tuple[tuple[str, bytes], ...] | None:
        """The players' own reports of the recorded turn ``turn`` (None: none is
        recorded), each as the site publishes it for its player's browser, by site path;
        None where the players have no such page (their report is the whole site)."""

    @abstractmethod
    def keeps_deputies(self, state: State) -> bool:
        """Does a new umpire key made here wait, as a deputy's, for an umpire already
        listed to add it (``keys add-umpire``), because what is stored is sealed to
        them? Else its recipient is listed in ``state/campaign.yaml`` at once."""

    def write_current(self, state: State, kinds: Iterable[str] | None = None,
                      about: str = f"{STATE_DIR}/") -> None:
        """Write :meth:`current_files`, all or nothing (an edit between turns: the next
        turn's record keeps the state it started from)."""
        write_out(self.root, about, self.current_files(state, kinds))

    @abstractmethod
    def kept_as(self, name: str) -> tuple[str, ...]:
        """The files a state file named ``name`` is kept as, in ``state/`` and in each
        record: itself, and its twin where it is sealed."""

    def finish_recorded(self, turn: str) -> State:
        """The open turn ``turn`` is recorded but ``state/`` was not updated (an earlier
        version of ftpress was killed between the two steps): the record's state files,
        as this store keeps them, copied into ``state/``, all or nothing; the state they
        hold."""
        folder = f"{TURNS_DIR}/{turn}"
        names = [name for kind in KINDS.values() for name in self.kept_as(kind.file)
                 if (self.root / folder / name).is_file()]
        write_out(self.root, f"{STATE_DIR}/ as {turn} left it",
                  {f"{STATE_DIR}/{name}": (self.root / folder / name).read_bytes()
                   for name in names})
        return self.folder_state(folder)

    def turn_files(self, made: MadeTurn) -> TurnFiles:
        """Every file a turn writes, whole and as written (the one recipe)."""
        whole = whole_record(self.base_url, made)
        return TurnFiles(whole, self.projected(made, whole))

    @abstractmethod
    def projected(self, made: MadeTurn, whole: Mapping[str, bytes]) -> dict[str, bytes]:
        """What the store writes of a turn's whole files (:func:`whole_record`)."""

    def record_turn(self, made: MadeTurn) -> TurnFiles:
        """Write a turn's record, the current state and (sealed) each player's
        intelligence, all or nothing (:mod:`ftpress.state.writeout`)."""
        files = self.turn_files(made)
        too_big = too_big_to_read(files.whole)
        if too_big:
            raise InputError(too_big)
        write_out(self.root, f"the record of {made.turn} and {STATE_DIR}/", files.written,
                  folders=[made.folder])
        return files


#: The largest campaign file a turn writes: the largest ftpress reads.
WRITE_LIMIT = yamlsource.MAX_BYTES


def too_big_to_read(files: Mapping[str, bytes]) -> list[Problem]:
    """The files a turn would write whole that every later command would refuse to read
    (more than :data:`~ftpress.files.yamlsource.MAX_BYTES`): a turn never writes what
    ``check`` and ``build`` then refuse."""
    limit = WRITE_LIMIT
    return [Problem(rel, 0, 0, f"would be {len(data):,} bytes, over the {limit:,} bytes "
                    "ftpress reads of a campaign file, so every later command would refuse the "
                    "campaign; expected a smaller turn: split the campaign's groups or orders "
                    "over more turns; nothing was written")
            for rel, data in sorted(files.items())
            if rel.endswith(".yaml") and len(data) > limit]


def _fought(file: Path) -> bool:
    """Has the umpire marked the plain battle-result file ``file`` ``fought: true``?"""
    data = yamlsource.parse(yamlsource.read_text(file, file.name), file.name)
    return isinstance(data, dict) and data.get("fought") is True


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


def is_sealed(root: Path) -> bool:
    """Is the campaign at ``root`` sealed (``settings.secrecy: sealed`` in the plain
    ``state/campaign.yaml``, which says it to everyone)? Asked once, when the campaign is
    opened, before its state is loaded (with the umpire's key, or without)."""
    settings = (plain_campaign(root) or {}).get("settings")
    return isinstance(settings, dict) and settings.get("secrecy") == "sealed"


def open_store(root: Path, *, identity: Path | None = None,
               environ: Mapping[str, str] | None = None, why: str = "reading the sealed files",
               required: bool = False, players: bool = False) -> CampaignStore:
    """The campaign at ``root``, opened once for everything a command does with it.

    An open campaign is read and written whole. A sealed one is read with the umpire's
    key: ``identity``, else ``$FTPRESS_UMPIRE_KEY`` (in ``environ``), else the key file;
    a key given or found must be the umpire's (refused, naming ``why`` it is needed).
    Without one, the reader reads the public projections alone, unless the key is
    ``required`` (refused). With ``players``, ``identity`` may instead be a player's
    key: the reader is that player, who knows what their intelligence tells them."""
    from ftpress.store.open import OpenStore
    from ftpress.store.sealed import SealedStore, player_answering

    if not is_sealed(root):
        return OpenStore(root, None, environ)
    if players and identity is not None:
        player = player_answering(root, identity)
        if player is not None:
            return SealedStore(root, None, environ, player=(player, identity))
    if required or identity is not None or umpire_key(root, None, environ) is not None:
        return SealedStore(root, needed_key(root, why, identity, environ), environ)
    return SealedStore(root, None, environ)


def open_with(root: Path, key: UmpireKey | None = None) -> CampaignStore:
    """The campaign at ``root`` read with ``key``, the umpire's as :func:`open_store` found
    it, else (None) as anyone reads it: no other key is looked for. For a reader whose key
    was settled before (a build of one view of the site), or who has none by design (the
    order check of a pull request, judging by the base revision's plain files)."""
    from ftpress.store.open import OpenStore
    from ftpress.store.sealed import SealedStore

    if not is_sealed(root):
        return OpenStore(root)
    return SealedStore(root, key)


def open_at_hand(root: Path) -> CampaignStore:
    """The campaign at ``root``, read with the umpire's key where this checkout has it
    (``$FTPRESS_UMPIRE_KEY`` or the key file) and it opens the campaign, else as anyone
    reads it: for the commands a player runs too (an order form, sealing an order
    file), which read the whole state for the umpire."""
    from ftpress.store.open import OpenStore
    from ftpress.store.sealed import SealedStore

    if not is_sealed(root):
        return OpenStore(root)
    try:
        return SealedStore(root, needed_key(root, ""))
    except (RefusedCommand, InvalidArgument):
        return SealedStore(root)
