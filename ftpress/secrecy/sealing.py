"""Sealed orders: order files encrypted to the umpires and their player.

In a campaign whose ``settings.secrecy`` is ``sealed``, a player sends
``orders/<turn>/<player>.yaml.age`` instead of the plain file: the same bytes,
encrypted (age, :mod:`ftpress.secrecy.agekeys`) to every umpire recipient in
``state/campaign.yaml`` and to the player's own ``recipient`` in
``state/players.yaml``. Nobody else can read them before the turn resolves,
yet anybody can check, with no key:

- the pull request's sealed file: it is an age file, with a stanza for every
  umpire recipient and the player's, no bigger than the limit
  (:func:`sealed_problems`), and its receipt (:func:`receipt`): the SHA-256
  of the bytes committed, and when they were checked;
- the turn's dice: keyed from the players' receipts (:func:`receipts_digest`), so
  they were fixed when the files were committed, and re-encrypting a file (``keys
  rotate``, ``keys add-umpire``) does not change them: the command keeps, in the turn's
  ``orders/<turn>/receipts.yml`` (:data:`RESEALED`), the receipt each file had when its
  player sent it beside the SHA-256 of the bytes it holds since. Turns recorded before
  receipts were keyed on the sealed files' bytes (:func:`sealed_digest`) and keep that.

The turn opens them with the umpire's key (:func:`open_turn_orders`); a file
that cannot be opened, or whose orders are invalid, is not used: that player's
groups hold, the player is told why, and the report says their orders could
not be used.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Annotated, Any

from pydantic import Field, Strict, TypeAdapter

from ftpress.errors import InputError, Problem, RefusedCommand
from ftpress.files import validation, yamlsource
from ftpress.files.gitignore import ensure_ignored
from ftpress.files.write import write_file
from ftpress.orders.load import LoadedOrders, parse_orders
from ftpress.secrecy import agekeys
from ftpress.secrecy.twins import UmpireKey
from ftpress.state.events import PUBLIC, Audience, Event, TurnRecord
from ftpress.state.model import State
from ftpress.state.records import read_events
from ftpress.state.words import powers_own

#: What a sealed order file's name ends with.
SEALED = ".yaml.age"
#: The largest sealed file accepted: the largest plain order file, and room for the
#: age header of a few dozen recipients and the format's 16 bytes per 64 KiB chunk.
MAX_SEALED_BYTES = yamlsource.MAX_BYTES + 64 * 1024
#: What ``ftpress check`` says of a sealed file it has no key to open.
NEEDS_KEY = ("sealed: its form and recipients are checked; its orders are read with the "
             "umpire's key when the turn is resolved")
#: How a player of a sealed campaign sends orders, for every place that tells them
#: (``init``'s next steps and ``orders/README.md``, the reminder; the site's
#: ``/orders/`` page says the same in its own markup).
SENDING = ("This campaign is sealed: orders travel encrypted. Each player makes a key "
           "once ('ftpress keys new', or on the site's 'Your view' page) and sends the "
           "recipient it prints to the umpire, who records it ('ftpress roster key PLAYER "
           "RECIPIENT'); each turn the player seals the order file with their key, "
           "'ftpress seal orders/<turn>/<player>.yaml --identity KEY' (which checks it "
           "against what they know first), or seals it on the 'Your view' page, and sends "
           "only the .yaml.age file by pull request.")

#: Why an open campaign's orders are not sealed.
PLAIN_ORDERS = ("this campaign's orders travel in plain (settings.secrecy in "
                "state/campaign.yaml is not 'sealed'); send the plain file")
#: The rule an unusable sealed file's events cite.
RULE = "sealed orders"


def how_to_send(turn: str, player: str = "<your-id>", *, sealed: bool) -> str:
    """How a player sends a turn's orders, in the words every reminder and hint uses:
    in a sealed campaign, seal the file with your own key and send the ``.age`` file."""
    plain = f"orders/{turn}/{player}.yaml"
    if sealed:
        return (f"write {plain}, seal it with your key (ftpress seal {plain} --identity "
                f"<your key file>, or on the 'Your view' page of the campaign's site) and send "
                f"the sealed {plain}{SEALED.removeprefix('.yaml')} in a pull request from your "
                "fork")
    return f"send {plain} in a pull request from your fork"


def sealed_name(path: str) -> bool:
    """Does ``path`` name a sealed order file (``…/<player>.yaml.age``)?"""
    return path.endswith(SEALED)


def plain_of(path: str) -> str:
    """``orders/t004/nac.yaml.age`` → ``orders/t004/nac.yaml``."""
    return path.removesuffix(".age")


def seal_recipients(state: State, player: str) -> list[str]:
    """Who a player's sealed file is encrypted to: every umpire, then the player;
    refused while either has no key (``ftpress keys init``, the roster's recipient)."""
    umpires = list(state.campaign.umpire_recipients or ())
    if not umpires:
        raise RefusedCommand("state/campaign.yaml lists no umpire_recipients, so nobody could "
                             "open sealed orders; the umpire runs 'ftpress keys init' first")
    own = state.player(player)
    if own is None:
        raise RefusedCommand(f"there is no player {player!r} in state/players.yaml; the file's "
                             "name must be a player's id")
    if own.recipient is None:
        raise RefusedCommand(f"player {player!r} has no recipient in state/players.yaml; add "
                             "'recipient:' with your age public key or your SSH public key "
                             "(https://github.com/<login>.keys) to your roster entry")
    return [*umpires, own.recipient]


def seal(data: bytes, to: Sequence[str], identities: Sequence[agekeys.Identity] = (),
         shown: str = "") -> bytes:
    """``data`` encrypted to ``to``. With ``identities`` (the player's own), the
    sealed bytes are opened again first, so a wrong key is found now, not after the
    deadline; raises :class:`RefusedCommand` naming ``shown`` (the identity file)."""
    sealed = agekeys.encrypt(data, agekeys.recipients(to))
    if identities:
        try:
            agekeys.decrypt(sealed, identities)
        except agekeys.Unreadable:
            raise RefusedCommand(f"{shown}: this identity does not answer to your recipient in "
                                 "state/players.yaml, so you could not read your own sealed "
                                 "orders; nothing was written") from None
    return sealed


#: The plain order files, kept out of git in a sealed campaign: only the sealed
#: files are committed (``orders/<turn>/README.md`` stays tracked).
PLAIN_IGNORED = "/orders/*/*.yaml"


def write_sealed(root: Path, rel: str, sealed: bytes) -> str:
    """Write ``rel + '.age'`` atomically, and make sure git ignores the plain file
    beside it; the sealed file's path."""
    target = rel + ".age"
    write_file(root / target, sealed)
    ensure_ignored(root, PLAIN_IGNORED)
    return target


def receipt(path: str, data: bytes, now: datetime) -> str:
    """What the check prints for a sealed file: nothing of its content."""
    stamp = now.astimezone(UTC).isoformat(timespec="seconds")
    return (f"{path}: sealed, {len(data):,} bytes, SHA-256 {hashlib.sha256(data).hexdigest()}, "
            f"checked {stamp}")


def sealed_problems(path: str, data: bytes, state: State) -> list[Problem]:
    """What is wrong with a sealed order file, found with no key: its size, its form,
    and a stanza for each umpire recipient and the player's own."""
    # Armor adds a third in base64; the limit is the binary file's.
    limit = MAX_SEALED_BYTES * 4 // 3 + MAX_SEALED_BYTES // 48 + 128 \
        if data.lstrip().startswith(agekeys.ARMOR_BEGIN) else MAX_SEALED_BYTES
    if len(data) > limit:
        return [Problem(path, 0, 0, f"is {len(data):,} bytes; a sealed order file may be at "
                        f"most {limit:,}")]
    try:
        stanzas = agekeys.header(data)
    except agekeys.Unreadable as exc:
        return [Problem(path, 0, 0, f"{exc}; expected the file 'ftpress seal' writes")]
    player = PurePosixPath(path).name.removesuffix(SEALED)
    wanted = list(state.campaign.umpire_recipients or ())
    own = state.player(player)
    if own is not None and own.recipient is not None:
        wanted.append(own.recipient)
    missing = agekeys.missing_recipients(stanzas, wanted)
    if not missing:
        return []
    return [Problem(path, 0, 0, f"is not sealed to {len(missing)} of its {len(wanted)} "
                    "recipients (the umpires' in state/campaign.yaml and the player's in "
                    "state/players.yaml); seal it again with 'ftpress seal'")]


def sealed_digest(files: Mapping[str, bytes]) -> str:
    """SHA-256 (hex) of the sealed files' bytes, by player in order: the dice key of
    the turns recorded before receipts (``digest_of: sealed``), which re-encrypting
    a file would have changed."""
    digest = hashlib.sha256(b"ftpress-sealed-orders")
    for player, data in sorted(files.items()):
        for part in (player.encode("utf-8"), data):
            digest.update(len(part).to_bytes(8, "big"))
            digest.update(part)
    return digest.hexdigest()


def sha256_of(data: bytes) -> str:
    """A sealed file's receipt: the SHA-256 (hex) of its bytes, as the pull request's
    check prints it (:func:`receipt`)."""
    return hashlib.sha256(data).hexdigest()


def receipts_digest(receipts: Mapping[str, str]) -> str:
    """SHA-256 (hex) of the players' receipts, by player in order: the turn's dice
    key (``digest_of: receipts``). A receipt is fixed when its player's file is
    committed, and stays the same when the file is sealed again to other keys."""
    digest = hashlib.sha256(b"ftpress-receipts")
    for player, receipt in sorted(receipts.items()):
        for part in (player.encode("utf-8"), receipt.encode("ascii")):
            digest.update(len(part).to_bytes(8, "big"))
            digest.update(part)
    return digest.hexdigest()


#: The file of a turn's order folder that keeps the receipts of sealed files sealed
#: again since their players sent them (not ``.yaml``: the plain order files are, and
#: a sealed campaign's git ignores them).
RESEALED = "receipts.yml"
_SHA256 = Annotated[str, Strict(), Field(pattern=r"^[0-9a-f]{64}$")]


@dataclass(frozen=True, slots=True)
class Resealed:
    """One sealed order file of the open turn sealed again after its player sent it."""

    __pydantic_config__ = {"extra": "forbid"}  # noqa: RUF012

    #: Its receipt: the SHA-256 of the file as its player sent it.
    sent: _SHA256
    #: The SHA-256 of the file each time it was sealed again, the latest last.
    sealed: tuple[_SHA256, ...]


_RESEALED: TypeAdapter[dict[str, Resealed]] = TypeAdapter(dict[str, Resealed])
_RESEALED_HEAD = ("# The sealed order files of this turn sealed again since their players sent "
                  "them ('ftpress keys rotate',\n# 'keys add-umpire', 'keys remove-umpire'): by "
                  "player, the receipt each file's pull request\n# was given (sent: the SHA-256 "
                  "of the file sent) and the SHA-256 of the file as sealed again (sealed).\n# The "
                  "turn's dice are keyed on the receipts, which re-encrypting does not change.\n")


def read_resealed(root: Path, turn: str) -> dict[str, Resealed]:
    """The open turn's receipts of files sealed again (:data:`RESEALED`), by player;
    every problem of the file at once, located."""
    shown = f"orders/{turn}/{RESEALED}"
    file = root / shown
    if not file.is_file() or file.is_symlink():
        return {}
    data = yamlsource.parse(yamlsource.decode(yamlsource.read_bytes(file, shown), shown), shown)
    return validation.validate(_RESEALED, {} if data is None else data, shown)


def receipts_of(sealed: Mapping[str, bytes], resealed: Mapping[str, Resealed]
                ) -> dict[str, str]:
    """Each player's receipt: the one kept in :data:`RESEALED` where the file holds the
    bytes it was sealed again as, else the SHA-256 of its bytes (as sent)."""
    out = {}
    for player, data in sorted(sealed.items()):
        now = sha256_of(data)
        kept = resealed.get(player)
        out[player] = kept.sent if kept is not None and now in kept.sealed else now
    return out


def resealed_file(turn: str, before: Mapping[str, bytes], after: Mapping[str, bytes],
                  kept: Mapping[str, Resealed]) -> tuple[str, bytes] | None:
    """The receipts file of ``turn`` once its sealed files ``before`` (by player) are
    sealed again as ``after``: each file's receipt as sent, kept through every
    re-encryption, with every hash it was sealed again as (a rotation killed half way
    leaves some files with their earlier bytes, which still answer to their receipt);
    None where no sealed order file is sealed again."""
    if not after:
        return None
    sent = receipts_of(before, kept)
    body = ""
    for player, data in sorted(after.items()):
        earlier = kept[player].sealed if player in kept and sent[player] == kept[player].sent \
            else ()
        hashes = [*earlier, sha256_of(data)]
        body += f"{player}:\n  sent: {sent[player]}\n  sealed:\n" + \
            "".join(f"  - {sha}\n" for sha in hashes)
    return f"orders/{turn}/{RESEALED}", (_RESEALED_HEAD + body).encode("utf-8")


@dataclass(frozen=True, slots=True)
class OpenedOrders:
    """A sealed turn's orders, opened by the umpire."""

    #: The orders that could be used, by player.
    orders: dict[str, LoadedOrders[Any]]
    #: The dice key (:func:`receipts_digest`).
    digest: str
    #: For each player whose file could not be used: their event and the public one.
    events: tuple[Event, ...]
    #: The sealed files as committed, by player: the turn's record keeps them, so
    #: anyone can check their receipts.
    sealed: dict[str, bytes]
    #: Each player's receipt, which keys the dice (:func:`receipts_of`).
    receipts: dict[str, str]

    def record_files(self, folder: str) -> dict[str, bytes]:
        """The sealed files in the turn's record folder."""
        return {f"{folder}/orders/{player}{SEALED}": data
                for player, data in sorted(self.sealed.items())}


def open_turn_orders(root: Path, turn: str, identities: Sequence[agekeys.Identity],
                     adapter: TypeAdapter[Any], *,
                     state: State | None = None) -> OpenedOrders:
    """Every sealed order file of ``turn``, opened and parsed. A file that cannot
    be opened or parsed makes its player's groups hold (they sent no usable
    orders): the player is told why, everyone that the orders could not be used."""
    folder = root / "orders" / turn
    sealed: dict[str, bytes] = {}
    if folder.is_dir():
        for file in sorted(folder.glob(f"*{SEALED}")):
            sealed[file.name.removesuffix(SEALED)] = file.read_bytes()
    orders: dict[str, LoadedOrders[Any]] = {}
    events: list[Event] = []
    for player, data in sorted(sealed.items()):
        rel = f"orders/{turn}/{player}{SEALED}"
        try:
            if len(data) > MAX_SEALED_BYTES:
                raise agekeys.Unreadable(f"is bigger than {MAX_SEALED_BYTES:,} bytes")
            plain = agekeys.decrypt(data, identities)
            orders[player] = parse_orders(plain, plain_of(rel), adapter)
        except agekeys.Unreadable as exc:
            events.extend(unusable(player, f"{rel} {exc}", state))
        except InputError as exc:
            events.extend(unusable(player, f"{rel} is not valid orders: "
                                   + "; ".join(str(p) for p in exc.problems), state))
    receipts = receipts_of(sealed, read_resealed(root, turn))
    return OpenedOrders(orders, receipts_digest(receipts), tuple(events), sealed, receipts)


def unusable(player: str, why: str, state: State | None = None) -> tuple[Event, Event]:
    """The two events of orders that could not be used: why, for the player (and the
    umpire); that they could not, for everyone, naming the power as ``state`` does."""
    whose = powers_own(state, player, start=True) if state is not None else f"{player}'s"
    return (Event("rejected", RULE, f"Your sealed orders could not be used: {why}.",
                  audience=Audience.told(player), player=player),
            Event("rejected", RULE, f"{whose} orders could not be used; its groups hold.",
                  audience=PUBLIC, player=player))


@dataclass(frozen=True, slots=True)
class RecordedSeal:
    """What a recorded sealed turn keeps of its sealed orders, to resolve it again."""

    #: The dice key: from the receipts the record keeps (``digest_of: receipts``), or
    #: from the sealed files' bytes (``sealed``, a turn recorded before receipts).
    digest: str
    #: The events of the orders that could not be used, as recorded (opening them
    #: again would need the umpire's key, and they are already the umpire's finding).
    events: tuple[Event, ...]
    #: The sealed files, by their path in the record.
    files: dict[str, bytes]
    #: Each player's receipt, as the record keeps it (none before receipts).
    receipts: dict[str, str] | None = None

    def problems(self, folder: str) -> list[str]:
        """What does not add up: the receipts against the digest the record says keyed
        the dice, and each sealed file the record keeps against its receipt (a file
        sealed again after it was sent, ``keys rotate``, has other bytes: see
        :meth:`resealed`)."""
        if self.receipts is None:
            return []
        found = []
        players = {path.rsplit("/", 1)[1].removesuffix(SEALED) for path in self.files}
        if players != set(self.receipts):
            found.append(f"{folder}/turn.yaml: receipts name {_names(self.receipts)}, but the "
                         f"record keeps the sealed files of {_names(players)}")
        return found

    def resealed(self) -> list[str]:
        """The sealed files the record keeps whose bytes are not those of their
        receipt: sealed again after their players sent them."""
        return [path for path, data in sorted(self.files.items())
                if self.receipts is not None and
                self.receipts.get(path.rsplit("/", 1)[1].removesuffix(SEALED)) !=
                sha256_of(data)]


def _names(players: Iterable[str]) -> str:
    return ", ".join(sorted(players)) or "nobody"


def recorded_seal(root: Path, folder: str, record: TurnRecord,
                  umpire: UmpireKey | None = None) -> RecordedSeal | None:
    """The sealed orders a turn's record keeps (``<folder>/orders/*.yaml.age``) when the
    turn's dice were keyed on them; None for a turn resolved from plain orders (whose
    record's ``.age`` copies, in a campaign sealed since, are the twins of the plain
    ones). The events of orders that could not be used are read from the record's
    event log (its twin, with ``umpire``: they are told to their player alone)."""
    base = root / folder / "orders"
    found = sorted(base.glob(f"*{SEALED}")) if base.is_dir() else []
    if record.digest_of == "orders" or (not found and record.digest_of != "sealed"):
        return None  # (a sealed turn in which nobody sent orders keys on no files)
    sealed = {file.name.removesuffix(SEALED): file.read_bytes() for file in found}
    recorded = read_events(root, folder, umpire)
    receipts = dict(record.receipts or {}) if record.digest_of == "receipts" else None
    return RecordedSeal(receipts_digest(receipts) if receipts is not None else
                        sealed_digest(sealed), tuple(e for e in recorded if e.rule == RULE),
                        {f"{folder}/orders/{file.name}": sealed[file.name.removesuffix(SEALED)]
                         for file in found}, receipts)


