"""What each player knows after a turn, sealed to that player.

In a sealed campaign every resolved turn also writes, for each player with a
recipient, ``state/turns/<turn>/intelligence/<player>.yaml.age``: that
player's whole known state as the turn left them (:func:`ftpress.secrecy.knowledge.
known_state`: their own groups in full, with ids, ships, damage and endurance;
everything else as they know it), and the turn's events whose audience
includes the player, encrypted to the umpires and to that player
(:mod:`ftpress.secrecy.sealing`). The player reads it with ``age -d -i KEY`` or through
``ftpress build --view <player> --identity KEY``, which builds their site from
the public files and these (:mod:`ftpress.secrecy.viewing`); nobody else can.

The plain form is one YAML mapping: ``turn``, ``player``, ``state`` (each
state file's mapping under its kind: ``campaign``, ``players``, ``map``,
``designs``, ``groups``, ``queues``, ruleset keys in place as in the files) and
``events``.

The files are sealed afresh each time (age encryption is randomised), so
``ftpress turn --verify`` compares what they say only through the record's
plain files, and ``--redo`` writes them again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from ftpress.errors import InputError, Problem, Problems
from ftpress.files import validation, yamlsource
from ftpress.secrecy import agekeys, sealing
from ftpress.secrecy.hidden_state import counters_named
from ftpress.secrecy.knowledge import counter_names, known_state
from ftpress.secrecy.visibility import Viewer
from ftpress.state import crossrefs
from ftpress.state.events import Event
from ftpress.state.extension import Extensions
from ftpress.state.files import KINDS
from ftpress.state.load import validate_file
from ftpress.state.model import (
    CampaignFile,
    DesignsFile,
    GroupsFile,
    MapFile,
    PlayersFile,
    QueuesFile,
    State,
)
from ftpress.state.save import dump

#: The record's folder of sealed intelligence.
FOLDER = "intelligence"

_EVENTS: TypeAdapter[tuple[Event, ...]] = TypeAdapter(tuple[Event, ...])


@dataclass(frozen=True, slots=True)
class Intelligence:
    """One player's knowledge after a turn (the file's plain form)."""

    turn: str
    player: str
    #: The player's known state (``campaign.known_to`` is the player).
    state: State
    #: The turn's events the player is told, public ones included, in order.
    events: tuple[Event, ...]


def known_to(state: State, events: tuple[Event, ...], turn: str, player: str,
             start: State | None = None) -> Intelligence:
    """What ``player`` knows after ``turn`` (``start``: the state it began with, where
    known): the state as they know it, and what they were told, each group named as in
    that state (:func:`names_for`)."""
    told = tuple(e for e in events if e.audience.tells(player))
    return Intelligence(turn, player, known_state(state, Viewer.of(player)),
                        counters_named(told, names_for(state, player, start)))


def names_for(state: State, player: str, start: State | None = None) -> dict[str, str]:
    """How what ``player`` is told of a turn names each group (by real id): their own
    groups (in ``state``, the full state the turn ended with, or in ``start``, the one
    it began with) by their ids; another power's by the name its counter goes by in the
    player's known state, as the public's events name counters
    (:func:`ftpress.secrecy.knowledge.counter_names`). Another power's group the player
    cannot tell from its neighbours, or gone from the map, goes unnamed: its real id is
    its owner's label, which would let the player follow it from turn to turn."""
    own = {g.id for s in (start, state) if s is not None for g in s.groups_of(player)}
    return counter_names(state, Viewer.of(player)) | {g: g for g in own}


def path_of(folder: str, player: str) -> str:
    """Where a turn's record (``folder``) keeps ``player``'s sealed intelligence."""
    return f"{folder}/{FOLDER}/{player}{sealing.SEALED}"


@dataclass(frozen=True, slots=True)
class _Files:
    """A state's files under their kinds, as the plain form writes them."""

    campaign: CampaignFile
    players: PlayersFile
    map: MapFile
    designs: DesignsFile
    groups: GroupsFile
    queues: QueuesFile


@dataclass(frozen=True, slots=True)
class _Written:
    """The plain form of one player's intelligence (see the module docstring)."""

    turn: str
    player: str
    state: _Files
    events: tuple[Event, ...] = ()


def text_of(intelligence: Intelligence) -> str:
    """The plain form of one player's intelligence, canonical YAML."""
    files = _Files(**{kind.name: getattr(intelligence.state, kind.name)
                      for kind in KINDS.values()})
    return dump(_Written(intelligence.turn, intelligence.player, files, intelligence.events))


def keyed_players(state: State) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each player a sealed campaign seals their own files to, with the recipients
    those are sealed to (the umpires', then theirs); none before an umpire has a key.
    Only the sealed campaign's store asks (:meth:`ftpress.store.CampaignStore.keyed_players`):
    an open campaign seals nothing to anyone."""
    umpires = tuple(state.campaign.umpire_recipients or ())
    if not umpires:
        return ()
    # A player with no recipient has nobody to seal to: `ftpress keys check` names them.
    return tuple((p.id, (*umpires, p.recipient)) for p in state.players.players
                 if p.recipient is not None)


def intelligence_files(folder: str, state: State, events: tuple[Event, ...],
                       turn: str, start: State | None = None) -> dict[str, bytes]:
    """The sealed intelligence of every player with a recipient, by path in ``folder``,
    and their sealed reports (:mod:`ftpress.yourview.files`): what a sealed campaign's
    turn writes (:mod:`ftpress.store.sealed`, :mod:`ftpress.store.sealed_campaign`);
    ``start``, the state the turn began with, where known (a player's groups gone in
    the turn keep their ids in what they are told)."""
    files: dict[str, bytes] = {}
    for player, to in keyed_players(state):
        text = text_of(known_to(state, events, turn, player, start))
        files[path_of(folder, player)] = agekeys.encrypt(text.encode("utf-8"),
                                                         agekeys.recipients(to))
    # And what the site publishes of it for the player's browser ("Your view").
    from ftpress.yourview.files import view_files

    return files | view_files(folder, state, events, turn)


def read_intelligence(root: Path, rel: str, identities: list[agekeys.Identity],
                      extensions: Extensions) -> Intelligence:
    """The sealed intelligence at ``rel`` opened with ``identities`` and checked as a
    state folder is; raises :class:`InputError` naming the file."""
    try:
        text = agekeys.decrypt((root / rel).read_bytes(), identities).decode("utf-8")
    except agekeys.Unreadable as exc:
        raise InputError([Problem(rel, 1, 1, f"{exc}; expected a file 'ftpress turn' sealed "
                                  "to your key")]) from None
    except UnicodeDecodeError:
        raise InputError([Problem(rel, 1, 1, "is not UTF-8 text once opened; expected the "
                                  "YAML 'ftpress turn' writes")]) from None
    return parse_intelligence(text, rel, extensions)


def parse_intelligence(text: str, rel: str, extensions: Extensions) -> Intelligence:
    """An opened intelligence file's text, checked; raises with every problem in it."""
    data = yamlsource.parse(text, rel)
    if not isinstance(data, dict) or not isinstance(data.get("state"), dict):
        raise InputError([Problem(rel, 1, 1, "expected a mapping with 'turn', 'player', "
                                  "'state' and 'events', as 'ftpress turn' writes it")])
    files = data["state"]
    problems = Problems()
    models: dict[str, Any] = {}
    sources: dict[str, Any] = {}
    for kind in KINDS.values():
        found = files.get(kind.name)
        if not isinstance(found, dict):
            problems.add(rel, *yamlsource.locate(data, ("state",)),
                         f"state has no {kind.name!r} mapping; expected one for each state "
                         f"file: {', '.join(KINDS)}")
            continue
        campaign = models.get("campaign")
        ext = extensions.get(campaign.ruleset) if isinstance(campaign, CampaignFile) else None
        try:
            models[kind.name] = validate_file(found, rel, kind, ext)
            sources[kind.name] = found
        except InputError as exc:
            problems.extend(exc.problems)
    problems.raise_if_any()
    problems.extend(crossrefs.cross_references(rel, models, sources))
    problems.raise_if_any()
    events = validation.validate(_EVENTS, data.get("events") or [], rel)
    return Intelligence(str(data.get("turn")), str(data.get("player")), State(**models),
                        events)
