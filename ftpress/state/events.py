"""What happened in a turn, as data: the event log a ruleset returns.

Events are frozen values, in the order things happened. Each names the rule it
applied (``ftc2007 §8.2``), says in one plain sentence what happened, and
carries the dice rolled for it and its :class:`Audience`: who may learn of it.
The turn's record keeps them as ``state/turns/<turn-id>/events.yaml``; the turn
report renders them. A ruleset makes them; nothing here knows a rule.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    ConfigDict,
    Field,
    PlainValidator,
    Strict,
    ValidationInfo,
    WithJsonSchema,
)

from ftpress.state.dice import Roll
from ftpress.state.model import ID_PATTERN, Id, Location, check_id


@dataclass(frozen=True, slots=True)
class Audience:
    """Who may learn of an event: everyone, the umpire alone, or the umpire and
    the players named (a group's owner; the powers that met it).

    The rule that makes an event decides, because only the rule knows what its
    rulebook hides; every view of the campaign filters on it. ``events.yaml``
    writes it ``audience: public``, ``audience: umpire`` or ``audience: [esu, nac]``.
    """

    #: None for everyone; otherwise the players told, sorted, none for the umpire alone.
    players: tuple[Id, ...] | None

    @classmethod
    def told(cls, *players: str | None) -> Audience:
        """The umpire and ``players`` (unset ones skipped): :data:`UMPIRE` if none is left."""
        return cls(tuple(sorted({p for p in players if p is not None})))

    @property
    def public(self) -> bool:
        return self.players is None

    def tells(self, player: str) -> bool:
        """Is ``player`` told? Everyone is told a public event."""
        return self.players is None or player in self.players

    def yaml(self) -> str | tuple[str, ...]:
        """The form ``events.yaml`` writes."""
        if self.players is None:
            return "public"
        return self.players or "umpire"

    def __repr__(self) -> str:
        if self.players is None:
            return "PUBLIC"
        if not self.players:
            return "UMPIRE"
        return f"Audience.told({', '.join(map(repr, self.players))})"


#: Every reader of the campaign may learn of it.
PUBLIC = Audience(None)
#: Only the umpire may (every view of the umpire's shows everything).
UMPIRE = Audience(())


def _audience(value: Any) -> Audience:
    if isinstance(value, Audience):
        return value
    if value == "public":
        return PUBLIC
    if value == "umpire":
        return UMPIRE
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, str) for v in value):
        players = [check_id(v) for v in value]
        if len(set(players)) != len(players):
            raise ValueError(f"{list(value)!r} names a player twice; expected each once")
        return Audience.told(*players)
    raise ValueError(f"expected 'public', 'umpire' or a list of the players told, such as "
                     f"[esu, nac], got {value!r}")


AudienceField = Annotated[Audience, PlainValidator(_audience), WithJsonSchema({
    "description": "who may learn of the event: everyone, the umpire alone, or the umpire "
                   "and the players listed",
    "oneOf": [{"enum": ["public", "umpire"]},
              {"type": "array", "items": {"type": "string", "pattern": ID_PATTERN},
               "minItems": 1, "uniqueItems": True}]})]


@dataclass(frozen=True, slots=True)
class EventKind:
    """A kind of event a ruleset makes, and what an event of that kind says."""

    name: str
    about: str


#: The kinds of event every ruleset may record: those the shared steps of a turn
#: make (:mod:`ftpress.rules.planning`, :mod:`ftpress.rules.calendar`) and those
#: ``ftpress turn`` reads back (a battle waiting for the tabletop, and its result).
#: A ruleset declares its own beside these (``Ruleset.report.kinds``).
SHARED_KINDS = (
    EventKind("no-orders", "a player sent no orders: every group holds"),
    EventKind("unordered", "a group the orders did not mention holds"),
    EventKind("rejected", "an order illegal at resolution: the group holds instead"),
    EventKind("note", "a player's note to the umpire about the whole turn"),
    EventKind("calendar", "the turn ends; the next one opens"),
    EventKind("battle-pending", "a battle awaits the tabletop: the turn pauses"),
    EventKind("battle", "a battle fought, on the tabletop or by the abstract combat"),
)

#: What the context of a validation carries to check a kind against a ruleset's.
KINDS_CONTEXT = "event_kinds"
RULESET_CONTEXT = "ruleset"


def _legal_kind(value: str, info: ValidationInfo) -> str:
    """A kind is legal when the campaign's ruleset declares it; only a validation
    given the ruleset's kinds as context (``KINDS_CONTEXT``) can tell."""
    context = info.context if isinstance(info.context, dict) else {}
    legal = context.get(KINDS_CONTEXT)
    if legal is None or value in legal:
        return value
    close = difflib.get_close_matches(value, sorted(legal), n=1)
    hint = (f"did you mean {close[0]!r}?" if close
            else f"expected one of: {', '.join(sorted(legal))}")
    raise ValueError(f"{value!r} is not an event kind of the "
                     f"{context.get(RULESET_CONTEXT, 'campaign')} ruleset; {hint}")


def kinds_context(kinds: frozenset[str], ruleset: str) -> dict[str, object]:
    """The validation context that holds an event log to ``ruleset``'s ``kinds``."""
    return {KINDS_CONTEXT: kinds, RULESET_CONTEXT: ruleset}


#: A kind of event: lower-case words joined by hyphens, declared by the ruleset.
Kind = Annotated[str, Strict(), Field(pattern=r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$"),
                 AfterValidator(_legal_kind)]

#: The lines of a player's accounts that an event's ``amount`` belongs to.
Account = Literal["opening", "income", "interdicted", "maintenance", "ordnance", "construction",
                  "purchases", "repairs", "spares", "defences", "sale", "capture"]

_CONFIG = ConfigDict(extra="forbid")
Text = Annotated[str, Strict(), Field(min_length=1)]


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. Fields that do not apply are left out."""

    __pydantic_config__ = _CONFIG

    #: What kind of thing happened: a shared kind or one the campaign's ruleset declares.
    kind: Kind
    #: The rule applied, such as 'ftc2007 §8.2'.
    rule: Text
    #: What happened, in one plain sentence for the report.
    text: Text
    #: Who may learn of it, as the rule that made it says.
    audience: AudienceField = field(kw_only=True)
    player: Id | None = None
    group: Id | None = None
    #: Where it happened, or where a group ended up.
    at: Location | None = None
    #: Where a moving group set out from.
    origin: Location | None = None
    route: Id | None = None
    posture: Literal["stand-off", "attack", "withdraw-if-contested"] | None = None
    #: Bonus to the group's next initiative roll (+1 for arriving by route, §8.2).
    initiative: int = 0
    #: The groups involved, for events about several.
    groups: tuple[Id, ...] = ()
    players: tuple[Id, ...] = ()
    #: The order the event comes from, as 'orders/t004/nac.yaml:7:5'.
    order: Text | None = None
    #: The player's note on the order, kept word for word.
    note: Text | None = None
    rolls: tuple[Roll, ...] = ()
    #: Credits added to ``player``'s treasury by this event: negative for spending,
    #: 0 for money that was due and did not move. A turn's amounts for a player add
    #: up to the change in their treasury.
    amount: int | None = None
    #: Which line of the player's accounts ``amount`` belongs to.
    account: Account | None = None


@dataclass(frozen=True, slots=True)
class EventsFile:
    """A turn's event log, ``state/turns/<turn-id>/events.yaml``."""

    __pydantic_config__ = _CONFIG

    turn: Id
    events: tuple[Event, ...] = ()


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """How a turn was made, ``state/turns/<turn-id>/turn.yaml``: everything needed to
    roll its dice again (``ftpress turn --verify``)."""

    __pydantic_config__ = _CONFIG

    turn: Id
    #: SHA-256 of every player's canonical orders (``ftpress.orders.load.orders_digest``).
    orders_sha256: Annotated[str, Strict(), Field(pattern=r"^[0-9a-f]{64}$")]
    #: The players whose order files were folded in; their copies are under ``orders/``.
    orders: tuple[Id, ...] = ()
    #: Where the dice came from: a keyed stream, or dice an umpire rolled by hand.
    dice: Literal["keyed", "supplied"] = "keyed"
    #: The umpire's secret for this turn, revealed now that the turn is done.
    secret: Annotated[str, Strict(), Field(pattern=r"^[0-9a-f]{64}$")] | None = None
    #: Its SHA-256, as published when the turn opened.
    secret_sha256: Annotated[str, Strict(), Field(pattern=r"^[0-9a-f]{64}$")] | None = None
    #: What ``orders_sha256`` digests: the orders in canonical form (``orders``; so
    #: too when unset), the players' receipts of their sealed order files
    #: (``receipts``, :func:`ftpress.secrecy.sealing.receipts_digest`), or, in a turn
    #: recorded before receipts, the bytes of the sealed order files the record keeps
    #: (``sealed``, :func:`ftpress.secrecy.sealing.sealed_digest`); anyone can recompute it.
    #: A campaign sealed after some turns were resolved from plain orders keeps their
    #: digests, and says ``orders`` here: their record's ``.age`` copies are twins.
    digest_of: Literal["orders", "sealed", "receipts"] | None = None
    #: The secret behind this turn's hidden rolls (:mod:`ftpress.store.secret`): only
    #: in the sealed twin of ``turn.yaml``; the plain file keeps its hash alone.
    hidden_secret: Annotated[str, Strict(), Field(pattern=r"^[0-9a-f]{64}$")] | None = None
    #: Its SHA-256, as published when the turn opened; none: every roll came from the
    #: one stream.
    hidden_secret_sha256: Annotated[str, Strict(), Field(pattern=r"^[0-9a-f]{64}$")] | None \
        = None
    #: Each player's receipt of the sealed order file the turn folded in (``digest_of:
    #: receipts``): the SHA-256 of the file as their pull request's check saw it, which
    #: re-encrypting the file later does not change. Public, as the check printed it.
    receipts: dict[Id, Annotated[str, Strict(), Field(pattern=r"^[0-9a-f]{64}$")]] | None \
        = None
