"""What a sealed campaign writes: each file's public projection, and its sealed twin.

In a campaign whose ``settings.secrecy`` is ``sealed``, every state file (the
current ones, each turn's snapshot and its ``before/``), each turn's
``events.yaml`` and ``dice.yaml``, and each order file its record keeps, is
written twice (:mod:`ftpress.secrecy.twins`):

- the plain file, what every player may know: the state as the public knows it
  (:func:`ftpress.secrecy.knowledge.public_state`); the public events, naming each
  counter as that state does (:func:`counters_named`); the public rolls
  (those the rules do not mark ``hidden``), each with its place in the turn's
  keyed stream (``at``), so that anyone can check it without the hidden ones; the
  public copy of an order file (:func:`public_order_copy`: whose orders they are, for
  which turn, and nothing the player wrote);
  the turn's ``turn.yaml`` without its hidden secret (where it has one);
- its twin, the whole file, encrypted to ``campaign.umpire_recipients``. The twin
  of a record's order file is the sealed file the player committed, where there
  is one (it is sealed to the umpires already, and the turn's dice were keyed on
  its bytes).

Age encryption is randomised, so a twin is sealed afresh only when what it says
changes (:class:`Sealer`): writing the same state again changes no byte. A turn's
files are written so by the sealed campaign store (:mod:`ftpress.store.sealed`),
each plain one from the public's part of the turn (:mod:`ftpress.store.projection`).
"""

from __future__ import annotations

import collections
import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ftpress.secrecy import agekeys
from ftpress.secrecy.knowledge import public_state
from ftpress.secrecy.twins import UmpireKey, marked, twin
from ftpress.secrecy.visibility import PUBLIC_VIEW, HiddenFacts, visible
from ftpress.state.dice import Roll, stream_positions
from ftpress.state.events import Event
from ftpress.state.files import KINDS
from ftpress.state.model import DiceFile, State
from ftpress.state.save import dump, schema_url


@dataclass(frozen=True, slots=True)
class Sealer:
    """How twins are written: to whom, and which twins already written to keep.

    ``umpire`` opens the twins already there: one that says what is to be written
    keeps its bytes. ``fresh`` seals every twin anew (a rotation: the recipients
    changed, which an x25519 stanza does not show)."""

    root: Path
    recipients: tuple[str, ...]
    umpire: UmpireKey | None = None
    fresh: bool = False

    @classmethod
    def of(cls, root: Path, state: State, umpire: UmpireKey | None,
           fresh: bool = False) -> Sealer:
        return cls(root, tuple(state.campaign.umpire_recipients or ()), umpire, fresh)

    def sealed(self, rel: str, full: bytes) -> bytes:
        """``full`` sealed as the twin of ``rel`` (the bytes there if they say it)."""
        old = self.root / twin(rel)
        if not self.fresh and self.umpire is not None and old.is_file():
            data = old.read_bytes()
            try:
                same = agekeys.decrypt(data, self.umpire.identities) == full and \
                    not agekeys.missing_recipients(agekeys.header(data), self.recipients)
            except agekeys.Unreadable:
                same = False
            if same:
                return data
        return agekeys.encrypt(full, agekeys.recipients(self.recipients))

    def kept(self, rel: str, sealed: bytes) -> bytes:
        """A file sealed to recipients of its own (a player's intelligence): the bytes
        already at ``rel`` where they open to what ``sealed`` opens to (age encryption
        is randomised), else ``sealed``; ``sealed`` itself when sealing afresh."""
        old = self.root / rel
        if self.fresh or self.umpire is None or not old.is_file():
            return sealed
        data = old.read_bytes()
        try:
            same = agekeys.decrypt(data, self.umpire.identities) == \
                agekeys.decrypt(sealed, self.umpire.identities)
        except agekeys.Unreadable:
            return sealed
        return data if same else sealed

    def pair(self, rel: str, full: bytes, public: bytes) -> dict[str, bytes]:
        """The plain file (the projection, marked so) and its twin."""
        return {rel: marked(rel.rsplit("/", 1)[1], public), twin(rel): self.sealed(rel, full)}


def state_pairs(sealer: Sealer, folders: Sequence[str], state: State,
                base_url: str | None, public: State | None = None) -> dict[str, bytes]:
    """Every state file of each of ``folders``, which hold the same ``state`` (a turn's
    record and the current state): the public's, and the whole in its twin. The
    projection (``public``, made here when not given) and the files' text are made once
    for all of them."""
    public = public_state(state) if public is None else public
    files: dict[str, bytes] = {}
    for kind in KINDS.values():
        url = schema_url(base_url, kind)
        full = dump(getattr(state, kind.name), url).encode("utf-8")
        shown = dump(getattr(public, kind.name), url).encode("utf-8")
        for folder in folders:
            files |= sealer.pair(f"{folder}/{kind.file}", full, shown)
    return files


def public_events(events: Iterable[Event], net: HiddenFacts | None = None
                  ) -> tuple[Event, ...]:
    """The events the public may read, as the public site shows them."""
    return visible(events, PUBLIC_VIEW, net)


def counters_named(events: Iterable[Event], names: Mapping[str, str]) -> tuple[Event, ...]:
    """``events`` with each group they name under the name its counter goes by for the
    viewer (``names``: :func:`ftpress.secrecy.knowledge.counter_names` of the state the
    turn ended with), as the viewer's known state names it; a group with no such name
    (gone from the viewer's map, or one of counters that look alike) is not named."""
    def named(event: Event) -> Event:
        group = names.get(event.group) if event.group is not None else None
        groups = tuple(names[g] for g in event.groups if g in names)
        if group == event.group and groups == event.groups:
            return event
        return dataclasses.replace(event, group=group, groups=groups)

    return tuple(named(e) for e in events)


def public_order_copy(turn: str, player: str) -> bytes:
    """The public copy of ``player``'s order file for ``turn`` in a sealed campaign.

    The public knows that ``player`` sent orders (the record lists who did) and what
    came of them (the turn's public events, which say which counter went where, held or
    fought, by which rule); it does not know the file's words. So the copy is made
    from that alone, never from the player's text: a copy filtered from the file would
    tell by what it drops (a dummy's entry gone from among its counters, the lines
    between two entries giving a counter's ships, a comment or note left in). What was
    ordered, as the public knows it, is read in the turn's events."""
    return (f"# {player}'s orders for {turn}: what the public knows of them is in this "
            f"turn's events.yaml\nturn: {turn}\nplayer: {player}\n").encode()


def public_rolls(dice: DiceFile, events: Iterable[Event], key: bytes | None,
                 hidden_apart: bool = False) -> DiceFile:
    """The rolls of ``dice`` the public may see, in order, each with its place (``at``):
    its attempt in the stream keyed ``key``, or (dice rolled by hand, ``key`` None) its
    place in the log. A roll the rules keep from the public (``hidden``) is left out.

    ``hidden_apart``: the hidden rolls were drawn from a stream of their own
    (:mod:`ftpress.store.secret`), so the public stream holds the public rolls alone:
    every one is shown, and their places follow one another with no gap. Otherwise (a
    turn that opened without a hidden secret) the hidden rolls sit in the one stream
    between the public ones, and only the rolls public events carry are shown, as such
    turns always were."""
    if hidden_apart:
        public = [r for r in dice.rolls if not r.hidden]
        places = stream_positions(key, public) if key is not None else \
            [i for i, r in enumerate(dice.rolls) if not r.hidden]
        return DiceFile(dice.source, tuple(dataclasses.replace(roll, at=at)
                                           for roll, at in zip(public, places, strict=True)))
    wanted = collections.Counter(r for e in events for r in e.rolls)
    places = stream_positions(key, dice.rolls) if key is not None else \
        list(range(len(dice.rolls)))
    shown: list[Roll] = []
    for roll, at in zip(dice.rolls, places, strict=True):
        if wanted[roll] > 0 and not roll.hidden:
            wanted[roll] -= 1
            shown.append(dataclasses.replace(roll, at=at))
    return DiceFile(dice.source, tuple(shown))
