"""A whole campaign as a sealed campaign stores it: ``ftpress keys seal-campaign``,
the check that its plain files are the projections of their twins, and the
re-encryption of ``ftpress keys rotate``.

:func:`sealed_files` makes, from the campaign as it stands, every file of
``state/`` a sealed campaign keeps (:mod:`ftpress.secrecy.hidden_state`): the plain
projection and the twin of each state file of ``state/``, of every record and
its ``before/``, and of each record's event log, dice log and order files. It
changes no recorded outcome: every event, roll, state and digest is what the
record says. What it adds:

- the campaign's keys, the same in every snapshot not sealed yet, and in every
  snapshot when the umpire's key is rotated (``settings.secrecy: sealed``,
  ``umpire_recipients``, each player's ``recipient``, as ``state/`` lists them),
  so that ``--verify`` and ``--redo`` resolve each turn to its record again. A
  snapshot sealed already keeps its keys: a recipient recorded since
  (``ftpress roster key``) is an edit of ``state/``, which the next turn's record
  keeps in its ``before/``, as for any edit between turns;
- ``digest_of: orders`` in the ``turn.yaml`` of a turn resolved from plain
  orders: its digest was made from them, and its record's ``.age`` order
  copies are twins, not the sealed files of a turn keyed on their bytes.

Where it reads each file from: a plain file marked as a projection
(:data:`ftpress.secrecy.twins.MARK`) is read from its twin (re-running on a sealed
campaign re-projects it); any other holds the whole file in plain (a campaign not
sealed yet, or a record written since by a tool of an open campaign, or taken
from another branch in a merge), and its old twin, if any, is replaced.
"""

from __future__ import annotations

import contextlib
import dataclasses
from dataclasses import dataclass
from pathlib import Path

from ftpress.errors import InputError, Problem, RefusedCommand
from ftpress.secrecy import agekeys, sealing
from ftpress.secrecy.hidden_state import Sealer, state_pairs
from ftpress.secrecy.intelligence import FOLDER as INTELLIGENCE
from ftpress.secrecy.intelligence import intelligence_files
from ftpress.secrecy.knowledge import knowledge_of, public_state
from ftpress.secrecy.twins import (
    RECORD_TWINS,
    TWIN,
    UmpireKey,
    is_projection,
    missing_twins,
    twin,
)
from ftpress.state.battle_results import BATTLES_DIR, LoadedBattle
from ftpress.state.files import DICE, KINDS, STATE_DIR
from ftpress.state.load import load_dice, snapshot_folders
from ftpress.state.model import DiceFile, State
from ftpress.state.records import read_events, read_recorded_orders
from ftpress.state.save import dump, schema_url
from ftpress.state.turns import SETUP, TURNS_DIR, turn_id
from ftpress.store import MadeTurn, SealedStore
from ftpress.store.campaign import load_folder
from ftpress.store.inputs import load_battles
from ftpress.store.listing import LISTING, record_lines, state_lines
from ftpress.store.record import read_record
from ftpress.store.secret import turn_key
from ftpress.yourview.files import view_name
from ftpress.yourview.view import FOLDER as VIEWS

#: Where the players send their order files, one folder per turn.
_ORDERS = "orders"


@dataclass(frozen=True, slots=True)
class SealedCampaign:
    """What sealing the campaign writes and removes."""

    #: Every file under ``state/`` it writes, by path.
    files: dict[str, bytes]
    #: The open turn's plain order files sealed, by the sealed file's path.
    sealed_orders: dict[str, bytes]
    #: Plain order files it removes: those of resolved turns (their record keeps them
    #: whole, sealed) and of the open turn once sealed.
    removed: tuple[str, ...]
    #: The open turn's plain order files left as they are (no ``--seal-orders``).
    left: tuple[str, ...]


def _keyed(state: State, keys: State) -> State:
    """``state`` with the campaign's keys as ``keys`` has them: sealed, the umpires'
    recipients, each player's recipient."""
    settings = dataclasses.replace(state.campaign.settings, secrecy="sealed")
    campaign = dataclasses.replace(state.campaign, settings=settings,
                                   umpire_recipients=keys.campaign.umpire_recipients)
    given = {p.id: p.recipient for p in keys.players.players}
    players = tuple(dataclasses.replace(p, recipient=given.get(p.id, p.recipient))
                    for p in state.players.players)
    return dataclasses.replace(state, campaign=campaign, players=dataclasses.replace(
        state.players, players=players))


def sealed_files(root: Path, umpire: UmpireKey, *, seal_orders: bool = False,
                 recipients: tuple[str, ...] | None = None) -> SealedCampaign:
    """Every file of the campaign at ``root`` as a sealed campaign keeps it (see the
    module docstring); raises with every problem, nothing written. ``recipients``: the
    umpires' to seal to instead of those listed (a rotation: every twin sealed anew)."""
    current = load_folder(root, STATE_DIR, umpire=umpire).state
    if not current.campaign.umpire_recipients:
        raise RefusedCommand("state/campaign.yaml lists no umpire_recipients, so nobody could "
                             "open the sealed files; run 'ftpress keys init' first")
    keys = current if recipients is None else dataclasses.replace(
        current, campaign=dataclasses.replace(current.campaign, umpire_recipients=recipients))
    current = _keyed(current, keys)
    # Whatever the campaign was, it is written from now on as a sealed one is.
    store = SealedStore(root, umpire, fresh=recipients is not None)
    sealer = Sealer.of(root, current, umpire, fresh=store.fresh)
    url = store.base_url
    files = state_pairs(sealer, (STATE_DIR,), current, url)
    problems: list[Problem] = []
    removed: list[str] = []
    previous: State | None = None
    for folder in snapshot_folders(root):
        turn = folder.rsplit("/", 1)[1]
        source = umpire
        full = load_folder(root, folder, umpire=source).state
        # Sealed already, a snapshot keeps its own keys, unless they are rotated.
        snapshot_keys = keys if recipients is not None or not full.campaign.sealed else full
        full = _keyed(full, snapshot_keys)
        if turn == SETUP:
            files |= state_pairs(sealer, (folder,), full, url)
            # What each player with a key knows before any turn: what their set-up
            # orders are checked against where they seal them.
            for rel, data in setup_intelligence(folder, full, keys).items():
                files[rel] = sealer.kept(rel, data)
            dice = load_dice(root, folder, umpire=source)
            rel = f"{folder}/{DICE.file}"
            schema = _schema_line(root / rel)
            files |= sealer.pair(rel, dump(dice, schema).encode("utf-8"),
                                 dump(dataclasses.replace(dice, rolls=()), schema).encode("utf-8"))
            previous = full
            continue
        has_before = (root / folder / "before").is_dir()
        before = load_folder(root, f"{folder}/before", umpire=umpire).state \
            if has_before else None
        if before is not None:
            before = _keyed(before, keys if recipients is not None or not
                            before.campaign.sealed else before)
        start = before if before is not None else previous
        assert start is not None, f"{folder} has no turn before it"
        files |= _record(store, folder, turn, full, before, start)
        removed += _resolved_orders(root, turn, folder, source, problems)
        # A battle result the record kept in plain: its twin holds it now.
        removed += sorted(rel for file in (root / folder / BATTLES_DIR).glob("*.yaml")
                          if twin(rel := file.relative_to(root).as_posix()) in files)
        previous = full
    sealed_orders, left, gone = _open_orders(root, current, seal_orders, problems)
    if problems:
        raise InputError(problems)
    return SealedCampaign(files, sealed_orders, (*removed, *gone), left)


def setup_intelligence(folder: str, setup: State, keys: State) -> dict[str, bytes]:
    """Each player's intelligence of the set-up snapshot (``folder``), sealed to them
    as ``keys`` lists their recipients: the set-up is recorded before any player has a
    key, so no turn wrote it; without it a player could check their set-up orders
    against nothing but the public's state."""
    return intelligence_files(folder, _keyed(setup, keys), (), SETUP)


def latest_intelligence(root: Path, umpire: UmpireKey, player: str) -> dict[str, bytes]:
    """``player``'s intelligence of the latest recorded turn, and their report, sealed
    to the recipient
    ``state/`` now lists for them (a recipient recorded after that turn was resolved:
    the player can read and check against what they know at once)."""
    from ftpress.secrecy.intelligence import path_of

    folders = snapshot_folders(root)
    if not folders:
        return {}
    folder = folders[-1]
    keys = load_folder(root, STATE_DIR, umpire=umpire).state
    full = load_folder(root, folder, umpire=umpire).state
    if folder.endswith(f"/{SETUP}"):
        made = setup_intelligence(folder, full, keys)
    else:
        start = load_folder(root, folders[-2], umpire=umpire).state if len(folders) > 1 \
            else None
        made = intelligence_files(folder, _keyed(full, keys), read_events(root, folder, umpire),
                                  folder.rsplit("/", 1)[1], start)
    own = keys.player(player)
    mine = {path_of(folder, player)}
    if own is not None and own.recipient is not None:
        mine.add(f"{folder}/{VIEWS}/{view_name(own.recipient)}")
    return {rel: data for rel, data in made.items() if rel in mine}


def _schema_line(file: Path) -> str | None:
    """The schema a file's first line points editors at (``ftpress init`` writes one on
    the set-up's dice log), kept as it is."""
    first = file.read_text("utf-8").split("\n", 1)[0] if file.is_file() else ""
    prefix = "# yaml-language-server: $schema="
    return first.removeprefix(prefix) if first.startswith(prefix) else None


def _record(store: SealedStore, folder: str, turn: str, full: State, before: State | None,
            start: State) -> dict[str, bytes]:
    """One record folder's files, sealed, as the turn would have written them in a sealed
    campaign (the store's one recipe): its state, before/, logs, order files and each
    player's intelligence, and the battle results it was resolved with (fought on the
    tabletop), which its list of hashes names too. Only the record's: the current state is
    written apart."""
    root, key = store.root, store.key
    record = store.record_of(folder)
    sealed = sealing.recorded_seal(root, folder, record, key)
    if record.digest_of is None:
        record = dataclasses.replace(record, digest_of="sealed" if sealed else "orders")
    dice = load_dice(root, folder, umpire=key)
    made = MadeTurn(turn, before, start, full, store.events_of(folder), dice,
                    turn_key(full.campaign.id, turn, record.orders_sha256, record.secret)
                    if record.dice == "keyed" else None, record,
                    dict(read_recorded_orders(root, folder, key)),
                    {path.rsplit("/", 1)[1].removesuffix(sealing.SEALED): data
                     for path, data in sealed.files.items()} if sealed is not None else {},
                    _kept_battles(store, turn, f"{folder}/{BATTLES_DIR}"))
    listed = f"{folder}/{LISTING}"  # a record made before records were listed keeps none
    files = {rel: data for rel, data in store.turn_files(made).written.items()
             if rel.startswith(folder + "/")}
    # The current state's hashes stay as the turn listed them: an edit of the state since,
    # or a twin sealed again, is told apart from a plain file changed by hand by --verify.
    if listed in files:
        files[listed] = record_lines(files[listed]) + state_lines((root / listed).read_bytes())
    return files


def _kept_battles(store: SealedStore, turn: str, kept: str) -> dict[str, LoadedBattle]:
    """The battle results a record keeps: sealed (its twins), or, in a record written
    before they were sealed, the plain copies, which the twins written now replace."""
    if any((store.root / kept).glob("*.yaml" + TWIN)):
        return store.battles(turn, kept)
    return load_battles(store.root, turn, kept)


def _resolved_orders(root: Path, turn: str, folder: str, source: UmpireKey | None,
                     problems: list[Problem]) -> list[str]:
    """The plain order files sent for a resolved turn: removed, their content being
    in the record (checked to be the same first)."""
    given = root / _ORDERS / turn
    kept = dict(read_recorded_orders(root, folder, source))
    found = []
    for file in sorted(given.glob("*.yaml")) if given.is_dir() else ():
        rel = f"{_ORDERS}/{turn}/{file.name}"
        if kept.get(file.stem) != file.read_bytes():
            problems.append(Problem(rel, 0, 0, f"differs from the copy folded into {turn}, "
                                    f"{folder}/orders/{file.name}; expected the file the turn "
                                    "was resolved from (restore it from git)"))
        else:
            found.append(rel)
    return found


def _open_orders(root: Path, state: State, seal: bool, problems: list[Problem]
                 ) -> tuple[dict[str, bytes], tuple[str, ...], tuple[str, ...]]:
    """The open turn's plain order files: sealed to the umpires and their player (with
    ``seal``), or left for their players to seal."""
    turn = turn_id(state.campaign.calendar.turn)
    given = root / _ORDERS / turn
    plain = sorted(given.glob("*.yaml")) if given.is_dir() else []
    if not seal:
        return {}, tuple(f"{_ORDERS}/{turn}/{f.name}" for f in plain), ()
    sealed: dict[str, bytes] = {}
    for file in plain:
        rel = f"{_ORDERS}/{turn}/{file.name}"
        try:
            to = sealing.seal_recipients(state, file.stem)
        except RefusedCommand as exc:
            problems.append(Problem(rel, 0, 0, f"cannot be sealed: {exc}"))
            continue
        sealed[twin(rel)] = agekeys.encrypt(file.read_bytes(), agekeys.recipients(to))
    return sealed, (), tuple(f"{_ORDERS}/{turn}/{f.name}" for f in plain)


def stale_projections(root: Path, umpire: UmpireKey) -> list[Problem]:
    """The files of a sealed campaign that are not what sealing it would write: a plain
    file that is not the projection of its twin, a twin missing or saying something
    else (``ftpress check`` with the umpire's key)."""
    made = sealed_files(root, umpire).files
    found = []
    for rel, data in sorted(made.items()):
        target = root / rel
        if target.is_file() and target.read_bytes() == data:
            continue
        if f"/{VIEWS}/" in rel:
            if target.is_file():  # a turn recorded before reports were sealed has none
                found.append(Problem(rel, 0, 0, "does not hold its player's report of the "
                                     "turn's record; run 'ftpress keys seal-campaign' to seal "
                                     "it again"))
            continue
        if f"/{INTELLIGENCE}/" in rel:
            if rel.startswith(f"{TURNS_DIR}/{SETUP}/") and not target.is_file():
                continue  # sealed from the keys of a later day: welcome, not owed
            what = "is missing" if not target.is_file() else "does not hold"
            found.append(Problem(rel, 0, 0, f"{what} what its player knows by the turn's "
                                 "record; run 'ftpress keys seal-campaign' to seal it again"))
        elif rel.endswith(".age"):
            what = "is missing" if not target.is_file() else "does not hold the whole file"
            found.append(Problem(rel, 0, 0, f"{what}; expected the full file beside "
                                 f"{rel.removesuffix('.age')}: run 'ftpress keys "
                                 "seal-campaign' to write it again"))
        else:
            found.append(Problem(rel, 0, 0, f"is not the public projection of its twin "
                                 f"{twin(rel)}; expected only what every player may know: "
                                 "run 'ftpress keys seal-campaign' to write it again"))
    return found



def twinned(root: Path) -> list[str]:
    """Every plain file of a sealed campaign that must have its twin beside it: the
    state files of ``state/``, of each record and its ``before/``, each record's logs
    and the order files it keeps."""
    folders = [STATE_DIR, *snapshot_folders(root)]
    folders += [f"{f}/before" for f in folders[1:] if (root / f / "before").is_dir()]
    found = [f"{folder}/{kind.file}" for folder in folders for kind in KINDS.values()]
    for folder in snapshot_folders(root):
        found += [f"{folder}/{name}" for name in RECORD_TWINS
                  if (root / folder / name).is_file()]
        # A turn with hidden rolls keeps their secret in the twin of its turn.yaml.
        if is_projection(root, f"{folder}/turn.yaml"):
            found.append(f"{folder}/turn.yaml")
        found += [f"{folder}/orders/{f.name}"
                  for f in sorted((root / folder / "orders").glob("*.yaml"))]
    return found


def plain_problems(root: Path) -> list[Problem]:
    """What is wrong with a sealed campaign's plain files, found with no key: a plain
    file without its twin, a state folder that is not its own public projection (what
    :func:`ftpress.secrecy.knowledge.public_state` makes of it is not itself: it does not
    say it is what the public knows, where the ruleset's rules hide anything; the load
    holds a state that says so to that, refusing a counter whose ships the public
    cannot know), and an event log in plain that tells what the public may not read."""
    problems = missing_twins(root, twinned(root))
    for folder in [STATE_DIR, *snapshot_folders(root)]:
        try:
            plain = load_folder(root, folder).state
        except InputError:
            continue  # the load reports it
        if public_state(plain) != plain:
            problems.append(_more_than_public(f"{folder}/{KINDS['campaign'].file}"))
        if (root / folder / "events.yaml").is_file():
            try:
                events = read_events(root, folder)
            except InputError:
                continue
            if any(not e.audience.public for e in events):
                problems.append(_more_than_public(f"{folder}/events.yaml"))
        if folder != STATE_DIR:
            problems += _hidden_rolls_in_plain(root, folder)
    return problems


def _hidden_rolls_in_plain(root: Path, folder: str) -> list[Problem]:
    """A record's plain dice log holding a hidden roll, or its plain turn.yaml the
    secret of the hidden stream (a file that does not read, the load reports)."""
    found = []
    if (root / folder / DICE.file).is_file():
        with contextlib.suppress(InputError):
            if any(r.hidden for r in load_dice(root, folder).rolls):
                found.append(_more_than_public(f"{folder}/{DICE.file}"))
    if (root / folder / "turn.yaml").is_file():
        with contextlib.suppress(InputError):
            if read_record(root, folder).hidden_secret is not None:
                found.append(_more_than_public(f"{folder}/turn.yaml"))
    return found


def _more_than_public(rel: str) -> Problem:
    return Problem(rel, 0, 0, "holds what the rules hide from the public; in a sealed "
                   f"campaign the plain file holds only its public projection, the whole file "
                   f"being sealed in {twin(rel)}: run 'ftpress keys seal-campaign' with the "
                   "umpire's key")


def default_secrecy(ruleset: str) -> str:
    """How ``ftpress init`` makes a campaign of ``ruleset`` by default: sealed, unless
    the ruleset's rules hide nothing (sct), whose campaigns are open."""
    return "open" if knowledge_of(ruleset).hides_nothing else "sealed"


def sealed_setting(state: State, recipient: str) -> State:
    """A new campaign's state made sealed, to the umpire ``recipient``."""
    settings = dataclasses.replace(state.campaign.settings, secrecy="sealed")
    return dataclasses.replace(state, campaign=dataclasses.replace(
        state.campaign, settings=settings, umpire_recipients=(recipient,)))


def setup_files(root: Path, state: State, dice: DiceFile, base_url: str | None
                ) -> dict[str, bytes]:
    """A new sealed campaign's state and set-up snapshot: projections and twins."""
    sealer = Sealer.of(root, state, None)
    files = state_pairs(sealer, (STATE_DIR, f"{TURNS_DIR}/{SETUP}"), state, base_url)
    url = schema_url(base_url, DICE)
    files |= sealer.pair(f"{TURNS_DIR}/{SETUP}/{DICE.file}", dump(dice, url).encode("utf-8"),
                         dump(dataclasses.replace(dice, rolls=()), url).encode("utf-8"))
    return files
