"""The campaign state as typed, frozen values: one model per file in ``state/``.

Each ``*File`` class is what one YAML file holds; :class:`State` is all of them
together. The models check what one file can check on its own (types, ranges,
the shape of ids and hexes); references between files are checked by
:mod:`ftpress.state.crossrefs`, and what the rules allow by the ruleset.

These are what every ruleset shares. What one ruleset keeps beyond them (sct's
positions on a plane, ftcamp02's loyalty, ftc2007's prizes) is its own, in its
extension records, held in a shared record's ``ext`` (:mod:`ftpress.state.extension`).

Fields with a default may be left out of a file, and the saver leaves them out
when they hold the default, so files stay short and diffs small.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    AfterValidator,
    ConfigDict,
    Field,
    PlainValidator,
    Strict,
    WithJsonSchema,
)

from ftpress.state.dice import Roll
from ftpress.state.extension import Extension, check_extension, normalised
from ftpress.state.hexes import Hex
from ftpress.text.cleantext import LINE
from ftpress.text.durations import PATTERN as DURATION
from ftpress.text.lookalikes import meant_id, why_not_an_id
from ftpress.text.written_dates import Day, Moment

#: Ids of players, systems, designs, groups …: lowercase words joined by hyphens,
#: so they are safe in URLs and file names (no spaces, no '/', no '..').
ID_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
_ID = re.compile(ID_PATTERN)


def check_id(value: str) -> str:
    """``value`` if it is a well-formed id, else ``ValueError`` saying what an id is."""
    if not _ID.fullmatch(value):
        # A character that looks like one an id takes is named: the quoted value alone
        # would read as a valid id.
        stray = why_not_an_id(value) if not value.isascii() else None
        meant = meant_id(value)
        raise ValueError((stray or f"{value!r} is not an id") + "; expected lowercase "
                         "letters, digits and hyphens, such as 'kessel-drift'" +
                         (f"; did you mean {meant!r}?" if meant is not None else ""))
    if len(value) > 64:
        raise ValueError(f"id {value[:20]!r}… is {len(value)} characters long; expected at "
                         "most 64")
    return value


def _hex(value: Any) -> Hex:
    if isinstance(value, Hex):
        return value
    if (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        return Hex(value[0], value[1])
    raise ValueError(f"expected a hex as [q, r], such as [2, -1], got {value!r}")


def _location(value: Any) -> str | Hex | Point:
    if isinstance(value, str):
        return check_id(value)
    if isinstance(value, (Point, dict)):
        return _point(value)  # a place in open space on a planar map
    try:
        return _hex(value)
    except ValueError:
        raise ValueError("expected a system id such as 'vesper' or a hex [q, r] such as "
                         f"[2, -1], got {value!r}") from None


# --- planar maps (positions in MU instead of hexes) ------------------------------------

#: Coordinates on a planar map are kept to this many decimal places of an MU, so a
#: position reads back from YAML exactly as it was written.
POINT_DECIMALS = 2


def _coordinate(value: Any, name: str) -> int | float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value \
            or abs(value) > 1e6:
        raise ValueError(f"expected {name} as a number of MU, such as 3 or -2.5, "
                         f"got {value!r}")
    rounded = round(float(value), POINT_DECIMALS)
    return int(rounded) if rounded.is_integer() else rounded


@dataclass(frozen=True, slots=True, order=True)
class Point:
    """A place on a planar map, in MU from the map's centre: ``x`` grows to the
    east, ``y`` to the north (12 o'clock); ``z`` is shown, not moved in."""

    x: int | float
    y: int | float
    z: int | float = 0

    def __repr__(self) -> str:
        z = f", {self.z!r}" if self.z else ""
        return f"Point({self.x!r}, {self.y!r}{z})"

    def __str__(self) -> str:
        return f"({self.x:g}, {self.y:g})"


def _point(value: Any) -> Point:
    if isinstance(value, Point):
        return value
    if not isinstance(value, dict) or not {"x", "y"} <= set(value) \
            or not set(value) <= {"x", "y", "z"}:
        raise ValueError(f"expected a position as {{x: …, y: …}} in MU (and z for a "
                         f"system), got {value!r}")
    return Point(*(_coordinate(value.get(k, 0), k) for k in ("x", "y", "z")))


def _colour(value: str) -> str:
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", value):
        raise ValueError(f"expected a colour as '#rrggbb', such as '#0072b2', got {value!r}")
    return value.lower()


_HEX_SCHEMA = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2,
               "description": "axial hex coordinates [q, r]"}
_ID_SCHEMA = {"type": "string", "pattern": ID_PATTERN}

Id = Annotated[str, Strict(), AfterValidator(check_id), WithJsonSchema(_ID_SCHEMA)]
HexField = Annotated[Hex, PlainValidator(_hex), WithJsonSchema(_HEX_SCHEMA)]
_POINT_SCHEMA = {"type": "object", "additionalProperties": False, "required": ["x", "y"],
                 "properties": {k: {"type": "number"} for k in ("x", "y", "z")},
                 "description": "a position on a planar map in MU"}
#: Where a task group is: at a world (its id) or in open space (a hex; on a planar
#: map, a point).
Location = Annotated[str | Hex | Point, PlainValidator(_location),
                     WithJsonSchema({"oneOf": [_ID_SCHEMA, _HEX_SCHEMA, _POINT_SCHEMA]})]
PointField = Annotated[Point, PlainValidator(_point), WithJsonSchema(_POINT_SCHEMA)]
Text = Annotated[str, Strict(), Field(min_length=1, max_length=200), LINE]
Count = Annotated[int, Strict(), Field(ge=0)]
Positive = Annotated[int, Strict(), Field(ge=1)]
Colour = Annotated[str, Strict(), AfterValidator(_colour),
                   WithJsonSchema({"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"})]
#: A GitHub login (it can be renamed, so it only names; the numeric id identifies).
GitHubLogin = Annotated[str, Strict(), Field(pattern=r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$")]
#: A GitHub account's numeric user id (``https://api.github.com/users/<login>``, ``id``):
#: it never changes, unlike the login, so order pull requests are matched by it.
GitHubId = Annotated[int, Strict(), Field(ge=1)]

#: How every record of a state file is validated: unknown keys refused, text stripped.
CONFIG = ConfigDict(extra="forbid", str_strip_whitespace=True)

#: A shared record's extension (:mod:`ftpress.state.extension`): what the campaign's
#: ruleset keeps about it beyond the shared fields. The loader fills it from the
#: ruleset's keys in the record; it is never a key of the file itself.
ExtensionField = Annotated[Extension | None, PlainValidator(check_extension),
                           WithJsonSchema({})]


#: The metadata of a field the file never names (``ext``): messages that list a
#: record's keys leave it out.
NOT_A_KEY = {"key": False}


def check_recipient(value: str) -> str:
    """A public key age can encrypt to; pyrage is imported only when a file names one."""
    from ftpress.secrecy.agekeys import recipient_problem

    problem = recipient_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


#: A public key sealed files are encrypted to (:func:`check_recipient`).
AgeRecipient = Annotated[str, Strict(), AfterValidator(check_recipient), WithJsonSchema({
    "type": "string", "pattern": r"^\s*(?:age1|ssh-ed25519 |ssh-rsa )",
    "description": "an age recipient ('age1…') or an SSH public key ('ssh-ed25519 AAAA…')"})]


def _normalise_ext(record: Any) -> None:
    """An extension holding only its defaults is none (see :class:`Extension`)."""
    if record.ext is not None:
        object.__setattr__(record, "ext", normalised(record.ext))


# --- state/campaign.yaml ---------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class DeadlineChange:
    """An umpire's change to the open turn's deadline (``ftpress calendar``), kept
    on the calendar until the turn is resolved (the turn's record keeps it then)."""

    __pydantic_config__ = CONFIG

    #: When the umpire made it.
    at: Moment
    #: extend: the deadline moved on by ``by``; pause: the deadline stopped running;
    #: resume: it runs again, moved on by as long as it was paused.
    change: Literal["extend", "pause", "resume"]
    #: The deadline after the change (none while paused).
    deadline: Moment | None = None
    #: How much later, for ``extend`` (``2d``, ``6h``).
    by: Annotated[str, Strict(), Field(pattern=DURATION)] | None = None


@dataclass(frozen=True, slots=True)
class Calendar:
    """Where the campaign is in time. A strategic turn is a week; six make an
    economic turn (ftc2007 §5)."""

    __pydantic_config__ = CONFIG

    #: The day strategic turn 1 opened.
    start: Day
    #: The strategic turn now open for orders, counted from 1 over the whole campaign.
    turn: Positive
    #: The economic turn that strategic turn belongs to.
    economic_turn: Positive
    #: When orders for the open turn are due, with its time zone.
    deadline: Moment
    turns_per_economic_turn: Positive = 6
    turn_days: Positive = 7
    #: SHA-256 (hex) of the umpire's secret for the open turn's dice, published when
    #: the turn opens; the secret itself is revealed in the turn's record.
    secret_sha256: Annotated[str, Strict(), Field(pattern=r"^[0-9a-f]{64}$")] | None = None
    #: SHA-256 (hex) of the secret behind the open turn's hidden rolls (a sealed
    #: campaign's, :mod:`ftpress.store.secret`), published with ``secret_sha256``; the
    #: secret is revealed only in the sealed twin of the turn's record.
    hidden_secret_sha256: Annotated[str, Strict(), Field(pattern=r"^[0-9a-f]{64}$")] | None \
        = None
    #: How long after the deadline the orders check still accepts orders (``90m``,
    #: ``6h``, ``1d``; none: not a minute), for pull requests opened in time and merged
    #: late.
    grace: Annotated[str, Strict(), Field(pattern=DURATION)] | None = None
    #: When the next turn's orders fall due once a turn is resolved: ``on-schedule``
    #: (left out) keeps the deadlines' weekday and time, ``turn_days`` apart, and a turn
    #: resolved late opens the next at the first of them still ahead;
    #: ``after-resolution`` makes it ``turn_days`` after the turn was resolved.
    next_deadline: Literal["on-schedule", "after-resolution"] | None = None
    #: How long before the deadline the players who have sent no orders are reminded
    #: by the publishing workflow (``1d``, ``12h``; left out: never).
    reminder: Annotated[str, Strict(), Field(pattern=DURATION)] | None = None
    #: True while the umpire has paused the deadline (``ftpress calendar pause``):
    #: the turn is not due, and no orders are late.
    paused: bool | None = None
    #: The umpire's changes to this turn's deadline, in order.
    changes: tuple[DeadlineChange, ...] | None = None


@dataclass(frozen=True, slots=True)
class Settings:
    __pydantic_config__ = CONFIG

    #: How battles between task groups are fought (ftc2007 §14): on the tabletop,
    #: by the abstract combat, or as both sides agree each time.
    battles: Literal["tabletop", "abstract", "agreed"] = "tabletop"
    #: True: the orders workflow merges by itself a player's pull request that passes
    #: the check and changes only that player's own order file (left out: the umpire
    #: merges every one).
    auto_merge: bool | None = None
    #: Whether orders travel sealed (age-encrypted to the umpires and their player,
    #: see :mod:`ftpress.secrecy.sealing`) or in plain text; unset is open, left out of the file.
    secrecy: Literal["sealed", "open"] | None = None


@dataclass(frozen=True, slots=True)
class Setup:
    """How the starting map was made, so anyone can make it again."""

    __pydantic_config__ = CONFIG

    #: The dice seed the map was generated with.
    seed: Count
    #: The ruleset's generation options (for ftc2007: radius, world_on, extra_worlds).
    options: dict[Annotated[str, Strict()], Annotated[int, Strict()]] = field(
        default_factory=dict)
    #: How the starting forces come in: ``orders``, bought by each player's order file
    #: of turn 1, the set-up turn (ftc2007 §6); left out: written in the state itself.
    forces: Literal["orders"] | None = None


@dataclass(frozen=True, slots=True)
class Umpire:
    """Someone who may change any order file in a pull request (and, by the
    repository's CODEOWNERS, must review every other change)."""

    __pydantic_config__ = CONFIG

    #: The umpire's numeric GitHub user id: what order pull requests are matched by.
    github_id: GitHubId
    #: The umpire's GitHub login, for people reading the file.
    github: GitHubLogin | None = None


#: ``known_to`` of the public's known state (:mod:`ftpress.secrecy.knowledge`).
PUBLIC_KNOWLEDGE = "public"


@dataclass(frozen=True, slots=True)
class CampaignFile:
    __pydantic_config__ = CONFIG

    id: Id
    name: Text
    #: The ruleset that resolves turns: ftc2007, …
    ruleset: Id
    calendar: Calendar
    setup: Setup
    settings: Settings = Settings()
    #: Who may change any player's orders in a pull request (none: left out of the file).
    umpires: tuple[Umpire, ...] | None = None
    #: The umpires' public keys (age recipients, or SSH public keys) every sealed file is
    #: encrypted to; ``ftpress keys init`` adds one (none: left out of the file).
    umpire_recipients: tuple[AgeRecipient, ...] | None = None
    #: Whose knowledge this state is, when it is not the whole of it
    #: (:mod:`ftpress.secrecy.knowledge`): ``public`` for what every reader may know, or a
    #: player's id for what that player knows. Left out: the full state, every fact.
    known_to: Id | None = None

    @property
    def sealed(self) -> bool:
        """Orders travel sealed: ``settings.secrecy: sealed``."""
        return self.settings.secrecy == "sealed"


# --- state/players.yaml ----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Player:
    __pydantic_config__ = CONFIG

    id: Id
    name: Text
    #: The player's colour on maps and tables.
    colour: Colour
    #: Construction points in hand. There is no credit (ftc2007 §6.3).
    treasury: Count
    #: The player's capital world (a system id).
    capital: Id
    #: The navy whose published designs the player builds (a catalogue navy id).
    navy: Id | None = None
    #: The player's GitHub login, for people reading the file.
    github: GitHubLogin | None = None
    #: The player's numeric GitHub user id: an order pull request is the player's when
    #: its author has this id (a login can be renamed; the id cannot).
    github_id: GitHubId | None = None
    #: The public key the player's sealed files are encrypted to: an age recipient
    #: (``age1…``), or the SSH public key GitHub shows for them (``ssh-ed25519 …``).
    recipient: AgeRecipient | None = None
    ext: ExtensionField = field(default=None, metadata=NOT_A_KEY)

    def __post_init__(self) -> None:
        _normalise_ext(self)


@dataclass(frozen=True, slots=True)
class PlayersFile:
    __pydantic_config__ = CONFIG

    players: tuple[Player, ...]


# --- state/map.yaml --------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class System:
    """A world. ``income`` and ``idp`` are None for a neutral world nobody has
    scouted or attacked: its worth has not been rolled yet (ftc2007 §4.2)."""

    __pydantic_config__ = CONFIG

    id: Id
    name: Text
    #: Where the world is on a hex map (None: the ruleset places it by its own keys,
    #: as on a planar map).
    hex: HexField | None = None
    owner: Id | None = None
    income: Count | None = None
    #: Inherent defence points standing now.
    idp: Count | None = None
    #: Inherent defence points at full strength, when damage has cut ``idp`` below it.
    idp_full: Count | None = None
    depot: bool = False
    base: bool = False
    shipyard: bool = False
    ext: ExtensionField = field(default=None, metadata=NOT_A_KEY)

    def __post_init__(self) -> None:
        _normalise_ext(self)

    @property
    def full_idp(self) -> int | None:
        return self.idp_full if self.idp_full is not None else self.idp


@dataclass(frozen=True, slots=True)
class Route:
    """A charted route: worlds joined by links; travel along it takes a week."""

    __pydantic_config__ = CONFIG

    id: Id
    links: Annotated[tuple[tuple[Id, Id], ...], Field(min_length=1)]

    @property
    def systems(self) -> tuple[str, ...]:
        """The worlds on the route, in the order the links first name them."""
        return tuple(dict.fromkeys(s for link in self.links for s in link))


@dataclass(frozen=True, slots=True)
class MapFile:
    __pydantic_config__ = CONFIG

    #: Hexes from the centre to the edge: 5 is six hexes on a side, 91 hexes. On a
    #: planar map, MU from the centre to each edge.
    radius: Annotated[int, Strict(), Field(ge=1, le=40)]
    systems: tuple[System, ...] = ()
    routes: tuple[Route, ...] = ()
    #: 'plane' for a map in MU, where the ruleset places each system by its own keys;
    #: left out: a hex map, where each system has a ``hex``.
    geometry: Literal["plane"] | None = None
    ext: ExtensionField = field(default=None, metadata=NOT_A_KEY)

    def __post_init__(self) -> None:
        _normalise_ext(self)


# --- state/designs.yaml ----------------------------------------------------------------

#: Size classes (ftc2007 §7.3 "the standard FT2 codes"; seed 002's class-by-mass table).
SizeClass = Literal["SC", "CT", "FF", "FH", "DD", "DH", "DM", "CL", "CE", "CH", "BC", "BB",
                    "BDN", "DN", "SDN", "CVL", "CVA", "CVH"]
SIZE_CLASSES: tuple[str, ...] = get_args(SizeClass)


@dataclass(frozen=True, slots=True)
class Abstract:
    """Values for the abstract combat (seed 001): full, and when halved and
    quartered (crippled, out of supply, or both)."""

    __pydantic_config__ = CONFIG

    offence: Count
    defence: Positive
    half: tuple[Count, Count]
    quarter: tuple[Count, Count]


@dataclass(frozen=True, slots=True)
class Design:
    __pydantic_config__ = CONFIG

    id: Id
    name: Text
    navy: Id
    size: SizeClass
    mass: Positive
    points: Positive
    #: Hull boxes in each damage row, first row first.
    hull: Annotated[tuple[Positive, ...], Field(min_length=1, max_length=6)]
    abstract: Abstract
    fighter_groups: Count = 0
    #: A lightly armed freighter: outside the 4000-point cap on ships at setup (ftc2007 §6).
    freighter: bool = False
    ext: ExtensionField = field(default=None, metadata=NOT_A_KEY)

    def __post_init__(self) -> None:
        _normalise_ext(self)

    @property
    def hull_boxes(self) -> int:
        return sum(self.hull)


@dataclass(frozen=True, slots=True)
class DesignsFile:
    __pydantic_config__ = CONFIG

    designs: tuple[Design, ...] = ()


# --- state/groups.yaml -----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Ship:
    __pydantic_config__ = CONFIG

    name: Text
    design: Id
    #: Hull boxes lost and not yet repaired.
    damage: Count = 0
    #: Crippled in the abstract combat (:mod:`ftpress.rules.abstract_combat`): its
    #: values halved until repaired.
    crippled: bool = False
    ext: ExtensionField = field(default=None, metadata=NOT_A_KEY)

    def __post_init__(self) -> None:
        _normalise_ext(self)


@dataclass(frozen=True, slots=True)
class Group:
    """A task group: one counter on the map (ftc2007 §15.1). A dummy counter has
    no ships (§15.2). Its ships are secret until it is contacted (§15.3)."""

    __pydantic_config__ = CONFIG

    id: Id
    owner: Id
    at: Location
    ships: tuple[Ship, ...] = ()
    dummy: bool = False
    #: What it is made of is known to all (a ruleset whose forces are public, or a
    #: ruling that makes contact public).
    revealed: bool = False
    #: The powers that have made contact with it, and so know what it holds (§15.3:
    #: known to the opponents in contact, not to everyone).
    seen_by: tuple[Id, ...] = ()
    #: The endurance (supply) points it carries, where the ruleset counts them; None
    #: where it keeps none.
    endurance: Count | None = None
    ext: ExtensionField = field(default=None, metadata=NOT_A_KEY)

    def __post_init__(self) -> None:
        _normalise_ext(self)

    def shown_to(self, player: str | None) -> bool:
        """Does ``player`` (None: the public) know what this group holds: its owner,
        a power that has made contact with it, or anyone once it is revealed?"""
        return self.revealed or (player is not None
                                 and (player == self.owner or player in self.seen_by))


@dataclass(frozen=True, slots=True)
class GroupsFile:
    __pydantic_config__ = CONFIG

    groups: tuple[Group, ...] = ()


# --- state/queues.yaml -----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Keel:
    """A ship under construction at one of its owner's worlds (ftc2007 §13)."""

    __pydantic_config__ = CONFIG

    id: Id
    owner: Id
    at: Id
    design: Id
    name: Text
    #: Construction points built into her so far.
    built: Count = 0


@dataclass(frozen=True, slots=True)
class Repair:
    """Repairs to one ship under way at a world (ftc2007 §11)."""

    __pydantic_config__ = CONFIG

    id: Id
    owner: Id
    group: Id
    ship: Text
    at: Id
    #: Hull boxes being restored.
    boxes: Positive
    cost: Count
    #: The strategic turn by whose end the work is done.
    ready: Positive


@dataclass(frozen=True, slots=True)
class QueuesFile:
    """Work under way: ships on the slips and repairs, each its owner's; a ruleset
    that queues more (ftc2007's spares and defence rebuilding) keeps it in its
    extension, whose keys stand beside these in the file."""

    __pydantic_config__ = CONFIG

    keels: tuple[Keel, ...] = ()
    repairs: tuple[Repair, ...] = ()
    ext: ExtensionField = field(default=None, metadata=NOT_A_KEY)

    def __post_init__(self) -> None:
        _normalise_ext(self)


# --- state/turns/<turn-id>/dice.yaml ---------------------------------------------------

@dataclass(frozen=True, slots=True)
class DiceFile:
    """Every die rolled in making a turn (or the starting map), in order."""

    __pydantic_config__ = CONFIG

    #: What the dice came from: 'seed 42', or the file of dice an umpire rolled by hand.
    source: Text
    rolls: tuple[Roll, ...] = ()


# --- all of it ------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class State:
    """One complete campaign state: the current one, or a turn's snapshot.

    Lookups by id and hex are indexed once, when the state is made; change a
    state with ``dataclasses.replace``, which makes a new one.
    """

    campaign: CampaignFile
    players: PlayersFile
    map: MapFile
    designs: DesignsFile
    groups: GroupsFile
    queues: QueuesFile
    _index: dict[Any, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # First of each id wins, as the checks report the duplicates.
        index: dict[Any, Any] = {}
        kinds: tuple[tuple[str, tuple[Player | System | Design, ...]], ...] = (
            ("player", self.players.players), ("system", self.map.systems),
            ("design", self.designs.designs))
        for kind, items in kinds:
            for item in reversed(items):
                index[kind, item.id] = item
        for s in reversed(self.map.systems):
            if s.hex is not None:
                index["hex", s.hex] = s
        object.__setattr__(self, "_index", index)

    def player(self, player_id: str) -> Player | None:
        return self._index.get(("player", player_id))

    def system(self, system_id: str) -> System | None:
        return self._index.get(("system", system_id))

    def design(self, design_id: str) -> Design | None:
        return self._index.get(("design", design_id))

    def system_at(self, h: Hex) -> System | None:
        return self._index.get(("hex", h))

    def hex_of(self, location: str | Hex | Point) -> Hex | None:
        """The hex of a group's location (a system id or a hex); None for a point on a
        planar map, or a system placed without a hex."""
        if isinstance(location, Hex):
            return location
        if isinstance(location, Point):
            return None
        found = self.system(location)
        return found.hex if found else None

    def worlds_of(self, player_id: str) -> tuple[System, ...]:
        return tuple(s for s in self.map.systems if s.owner == player_id)

    def groups_of(self, player_id: str) -> tuple[Group, ...]:
        return tuple(g for g in self.groups.groups if g.owner == player_id)
