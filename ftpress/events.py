"""What happened in a turn, as data: the event log a ruleset returns.

Events are frozen values, in the order things happened. Each names the rule it
applied (``ftc2007 §8.2``), says in one plain sentence what happened, and
carries the dice rolled for it and its :class:`Audience`: who may learn of it.
The turn's record keeps them as ``state/turns/<turn-id>/events.yaml``; the turn
report renders them. A ruleset makes them; nothing here knows a rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, PlainValidator, Strict, WithJsonSchema

from ftpress.dice import Roll
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


#: Every kind of event, for the report to group and style them by.
EventKind = Literal[
    "no-orders",        # a player sent no orders: every group holds
    "unordered",        # a group the orders did not mention holds
    "rejected",         # an order illegal at resolution: the group holds instead
    "split",            # §15.1 a group split
    "merge",            # §15.1 groups merged
    "hold",             # a group stayed where it was
    "departure",        # a group left a system or hex
    "arrival",          # a group arrived, with its posture
    "blocked",          # a route move stopped short of an interdicted world
    "encounter",        # two powers' groups in one place: a battle to resolve
    "siege",            # §10.3 an attack on a world's defences, and its roll
    "siege-refused",    # §10.2 too weak to attack the defences at all
    "conquest",         # §9, §10.9 a world changes hands
    "capital",          # a player's capital fell and moved
    "works-lost",       # keels, repairs, spares or defence works lost with a world
    "defences-damaged", # §10.5 what is left of surrendered defences
    "interdicted",      # §10.6 a world interdicted for the strategic turn
    "repulsed",         # §10.7 an attack on the defences thrown back
    "damage",           # §10.8 hull boxes put on ships
    "ship-lost",        # a ship with no hull boxes left is destroyed
    "contact",          # §15.3 an enemy has seen what a group holds
    "withdrawal",       # §17.2.3, §10.7 a group pulls out or falls back
    "scouted",          # a neutral world's worth rolled and made public
    "interdiction-ends",
    "maintenance",      # the upkeep level set for the economic turn
    "not-resolved",     # an order this version of ftpress does not carry out
    "income",           # §5.2 a world's income paid into its owner's treasury
    "income-lost",      # §10.6 a world interdicted as the economic turn opens pays nothing
    "upkeep",           # §7 the navy's upkeep for the economic turn just ended
    "ordnance",         # §7.1 ordnance expended in the economic turn just ended
    "purchase",         # §13.1 a ship bought on the open market
    "keel-laid",        # §13.1 a keel laid down at a world
    "construction",     # §13.1 a week's work on a keel, paid as it is built
    "ship-built",       # §13.1 a ship completed or delivered, and the group it joins
    "repair",           # §11 repairs begun and paid for
    "repaired",         # §11.4 repairs done: the hull boxes are back
    "spares",           # §6.2.1 spares bought, or a top-up coming into stock
    "defences-ordered", # §10.5 rebuilding of lost defence points begun and paid for
    "defences-rebuilt", # §10.5 rebuilt defence points standing again
    "unpaid",           # §6.3 no credit: what the treasury could not pay
    # sct (seed 001)
    "initiative",       # §2.2 the turn's initiative rolls, highest first
    "movement",         # §4.1–§4.3 a task force carries out its move
    "secondary-move",   # §4.4 a move for an endurance point
    "endurance",        # §5 endurance spent to fight supplied, or replenished at a depot
    "battle",           # §6 an abstract combat fought, attack by attack
    "crippled",         # §6.4 a ship crippled
    "works-begun",      # §7.2–§7.4 a supply depot, base or shipyard begun and paid for
    "works-done",       # §7.2–§7.4 an installation completed
    # ftcamp02 (seed 002); it uses "endurance" too, for §2 EPs spent or a system's allowance
    "out-of-supply",    # §2.3 EPs short: every craft loses a crew factor
    "attach",           # §3 an independent joins a standard group (its marker comes off)
    "detach",           # §3 an independent leaves its group (its marker goes back)
    "lost",             # §4.1.1 a lost roll, passed or failed
    "located",          # §4.2.8 a locator roll, passed or failed
    "tug",              # §4.2.6 a civilian tug made ready to tow
    "scan",             # §7 what a long-range scan revealed of a group
    "claim",            # §8 a system claimed, or invaded
    # ftc2007 battles and capture (the "battle" kind above serves both rulesets)
    "battle-pending",   # ftc2007 §14, §17 a battle awaits the tabletop: the turn pauses
    "prize",            # ftc2007 §12.1 a hulk left drifting taken by the side holding the field
    "prize-rebuilt",    # ftc2007 §12.2.1 a prize rebuilt into its captor's navy
    "prize-stripped",   # ftc2007 §12.2.2 a prize stripped for parts
    "prize-sold",       # ftc2007 §12.2.3 a prize sold for scrap
    "note",             # a player's note to the umpire about the whole turn
    "calendar",         # the turn ends; the next one opens
]

#: The lines of a player's accounts that an event's ``amount`` belongs to.
Account = Literal["opening", "income", "interdicted", "maintenance", "ordnance", "construction",
                  "purchases", "repairs", "spares", "defences", "sale", "capture"]

_CONFIG = ConfigDict(extra="forbid")
Text = Annotated[str, Strict(), Field(min_length=1)]


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. Fields that do not apply are left out."""

    __pydantic_config__ = _CONFIG

    kind: EventKind
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
