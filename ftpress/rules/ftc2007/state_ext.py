"""What ftc2007 keeps in the state beyond the shared model.

A player's upkeep level (§7) and ally (§13.1), the treasury last stated to everyone
(§5.4), the player whose attack has left a
world interdicted (§10.6) and the one it
paid income to this economic turn (§11.1), the hulks a player
has captured and not yet rebuilt, stripped or sold (§12), the damage a repulse
left a fleet owing (§10.7) and the system checks it left a ship to make
(§10.8), whether a design is of non-standard technology and when the umpires
approved it (§16.2), the systems of a design that the later tabletop rulings
name (§20), whether a ship carries parts from another ship (§11.3.3), whether a
group's move of the next turn is its jump out of a
system (§18.4), and, in ``queues.yaml`` beside the slips and repairs, the spares each
player keeps at its worlds (§6.2.1) and the defences it is rebuilding (§10.5). The
keys stand in the state files beside the shared ones (see
:mod:`ftpress.state.extension`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Literal

from ftpress.state.extension import (
    Extension,
    Knowledge,
    StateExtension,
    extended,
    extension_of,
    kept,
    placed_after,
    withheld,
)
from ftpress.state.model import (
    CONFIG,
    Count,
    Design,
    Group,
    Id,
    Location,
    Player,
    Positive,
    Ship,
    State,
    System,
    Text,
)
from ftpress.text.written_dates import Day

#: §7 the upkeep levels a navy may choose.
Maintenance = Literal["full", "standardised", "reduced"]


@dataclass(frozen=True, slots=True)
class Prize:
    """A hulk taken after a battle (ftc2007 §12.1), its captor's until rebuilt,
    stripped or sold (§12.2); whoever wins a later battle where it lies takes it."""

    __pydantic_config__ = CONFIG

    id: Id
    at: Location
    ship: Ship
    #: The navy it was taken from.
    taken_from: Id
    #: Stripped for parts (§12.2.2): what is left cannot be sold or rebuilt.
    stripped: bool = False


@dataclass(frozen=True, slots=True)
class OwedDamage:
    """The damage a repulse left a fleet owing (ftc2007 §10.7): held by the fleet,
    not yet put on any ship, until a battle or the next economic turn calls for it
    to be allocated (§10.8) or the player repairs it first."""

    __pydantic_config__ = CONFIG

    #: The world whose defences threw the fleet back.
    world: Id
    #: A third of the defence points standing then (§10.8): the hull boxes owed.
    boxes: Positive
    #: The damage in points, equal to the world's income (§10.7): its repair price.
    cost: Count
    #: The ships that took part in the attack, in roster order (the tie-break, §10.8).
    ships: tuple[Text, ...]
    #: The economic turn of the repulse; it falls due as the next one opens.
    economic_turn: Positive


@dataclass(frozen=True, slots=True)
class Spares:
    """Pre-positioned spare parts at a world (ftc2007 §6.2.1)."""

    __pydantic_config__ = CONFIG

    owner: Id
    at: Id
    #: The level set at setup, which replenishment may restore.
    level: Count
    stock: Count
    #: Points bought as a top-up this economic turn: in stock from the next (§6.2.1).
    arriving: Count = 0


@dataclass(frozen=True, slots=True)
class DefenceWork:
    """Inherent defence points being rebuilt at a world (ftc2007 §10.5)."""

    __pydantic_config__ = CONFIG

    system: Id
    owner: Id
    points: Positive
    cost: Count
    #: The economic turn at whose start the points stand again.
    ready: Positive


@dataclass(frozen=True, slots=True)
class Ftc2007Queues(Extension):
    __pydantic_config__ = CONFIG

    #: §6.2.1: the spares each player keeps at its worlds, one entry per world.
    spares: tuple[Spares, ...] = ()
    #: §10.5: the inherent defences being rebuilt, one entry per world.
    defences: tuple[DefenceWork, ...] = ()


@dataclass(frozen=True, slots=True)
class Ftc2007System(Extension):
    __pydantic_config__ = CONFIG

    #: The player whose attack has left the world interdicted this turn (§10.6).
    interdicted_by: Id | None = None
    #: The player the world paid income to as this economic turn opened, while the
    #: same player holds it (§11.1: repairs are made there all economic turn).
    paid_income_to: Id | None = None


@dataclass(frozen=True, slots=True)
class Ftc2007Player(Extension):
    __pydantic_config__ = CONFIG

    #: §7: the upkeep level: full 10%, standardised 7.5%, reduced 5%.
    maintenance: Maintenance = field(default="full", metadata=placed_after("navy"))
    #: §13.1: the allied navy whose designs the player buys at a discount.
    ally: Id | None = field(default=None, metadata=placed_after("navy"))
    #: §12: hulks this player has captured and not yet rebuilt, stripped or sold.
    prizes: tuple[Prize, ...] = ()
    #: §10.7: the damage repulses left this player's fleets owing, oldest first.
    owed: tuple[OwedDamage, ...] = ()
    #: §5.4: the treasury as it stood when the current economic turn began (after the
    #: books of the one before closed, before any new spending): the one figure of a
    #: power's money everyone is told. None in a state recorded before any was stated.
    stated_treasury: Count | None = field(default=None, metadata=placed_after("treasury"))


@dataclass(frozen=True, slots=True)
class Ftc2007Design(Extension):
    __pydantic_config__ = CONFIG

    #: Non-standard ships are repaired only from spares or at the capital (§16);
    #: non-indigenous ones too, and they cost 20% more to build and repair (§16.3).
    tech: Literal["standard", "non-standard", "non-indigenous"] = "standard"
    #: §16.2: the day the umpires approved a design that is not standard, as the
    #: umpire writes it in ``designs.yaml``.
    approved: Day | None = None
    #: §16.2: the approval has been told to every player (set by the turn that did).
    announced: bool = False
    #: §20: the systems it carries that a later tabletop ruling names.
    fits: tuple[Literal["heavy-missiles", "cloaking-field", "nova-cannon"], ...] = ()


@dataclass(frozen=True, slots=True)
class Ftc2007Ship(Extension):
    __pydantic_config__ = CONFIG

    #: §10.8: the hull rows (1 the first) that owed repulse damage stripped out,
    #: whose system checks the ship makes as its next battle begins.
    system_checks: tuple[Positive, ...] = ()
    #: §11.3.3: she carries parts taken from another ship (not an identical one of
    #: her task group), which check for damage one level worse for good.
    grafted: bool = False


@dataclass(frozen=True, slots=True)
class Ftc2007Group(Extension):
    __pydantic_config__ = CONFIG

    #: §18.4: the group jumped out of a system this turn, out of a battle or on
    #: withdraw if contested; the jump is its move for the next turn.
    jumped_out: bool = False


def _not_jumped_out(group: Group) -> bool:
    """§18.4: others learn where a group that jumped out went only when they meet it
    again; until its jump is made as next week's move it is gone from their map."""
    return not jumped_out(group)


def _player_as_others_know(ext: Ftc2007Player) -> Ftc2007Player:
    """A power's upkeep level and ally are on the powers' table for all to read; the
    prizes it holds were taken in battles all could see (§12.1); which of its ships
    owe repulse damage is told to its owner alone (§10.8)."""
    return dataclasses.replace(ext, owed=())


def _treasury_as_others_know(player: Player) -> int:
    """§5.4: others know a power's treasury as it was stated when the economic turn
    began; what it spent since, and on what, is its own and the umpire's (§13.2). A
    state from before any statement (the set-up's) holds the starting treasury, which
    is no secret."""
    stated = extension_of(player, Ftc2007Player).stated_treasury
    return player.treasury if stated is None else stated


def stated_treasury(player: Player) -> int | None:
    """§5.4: the treasury last stated to everyone, if one has been."""
    return extension_of(player, Ftc2007Player).stated_treasury


def _design_as_others_know(ext: Ftc2007Design) -> Ftc2007Design:
    """A design's technology and the systems the later rulings name show where its
    ships are seen; its approval, once it has been told to every player (§16.2)."""
    return ext if ext.announced else dataclasses.replace(ext, approved=None)


def _queues_as_known(ext: Ftc2007Queues, viewer: str | None) -> Ftc2007Queues:
    """Where a power keeps its spares and which defences it is rebuilding are its own
    business (§6.2.1, §10.5), as its slips and repairs are: each viewer knows their
    own entries, the public none."""
    return Ftc2007Queues(tuple(s for s in ext.spares if s.owner == viewer),
                         tuple(d for d in ext.defences if d.owner == viewer))


#: What others may know of ftc2007's keys (``ftpress.secrecy.knowledge``): who interdicted a
#: world and whom it paid (the map shows them), a power's prizes, a design's technology;
#: not whether a group has jumped out, nor, while it has, where it is (§18.4), nor the
#: repulse damage a fleet owes and the system checks it leaves its ships (§10.8), nor
#: another power's spares and defence works.
KNOWLEDGE = Knowledge(outsider={"system": kept, "player": _player_as_others_know,
                                "design": _design_as_others_know, "group": withheld,
                                "ship": withheld},
                      part={"queues": _queues_as_known},
                      group_seen=_not_jumped_out, treasury=_treasury_as_others_know)

EXTENSION = StateExtension("ftc2007", {"system": Ftc2007System, "player": Ftc2007Player,
                                       "design": Ftc2007Design, "group": Ftc2007Group,
                                       "ship": Ftc2007Ship, "queues": Ftc2007Queues},
                           KNOWLEDGE)


def interdictor(system: System) -> str | None:
    """The player whose attack has left ``system`` interdicted (§10.6), if any."""
    return extension_of(system, Ftc2007System).interdicted_by


def paid_income_to(system: System) -> str | None:
    """Who ``system`` paid income to as this economic turn opened and holds it still
    (§11.1), if anyone."""
    return extension_of(system, Ftc2007System).paid_income_to


def maintenance_of(player: Player) -> Maintenance:
    """The upkeep level ``player`` has chosen (§7)."""
    return extension_of(player, Ftc2007Player).maintenance


def ally_of(player: Player) -> str | None:
    """The allied navy whose designs ``player`` buys at a discount (§13.1), if any."""
    return extension_of(player, Ftc2007Player).ally


def prizes_of(player: Player) -> tuple[Prize, ...]:
    """The prizes ``player`` holds (§12)."""
    return extension_of(player, Ftc2007Player).prizes


def jumped_out(group: Group) -> bool:
    """Did ``group`` jump out of a system last turn, so that its move this turn is
    made (§18.4)?"""
    return extension_of(group, Ftc2007Group).jumped_out


def owed_by(player: Player) -> tuple[OwedDamage, ...]:
    """The repulse damage ``player``'s fleets owe (§10.7)."""
    return extension_of(player, Ftc2007Player).owed


def owed_of(state: State, player_id: str) -> tuple[OwedDamage, ...]:
    """The repulse damage ``player_id``'s fleets owe (§10.7)."""
    player = state.player(player_id)
    return owed_by(player) if player is not None else ()


def with_owed(state: State, player_id: str, owed: tuple[OwedDamage, ...]) -> State:
    """The state with ``player_id``'s repulse damage owed set to ``owed``."""
    players = tuple(extended(p, Ftc2007Player, owed=owed) if p.id == player_id else p
                    for p in state.players.players)
    return dataclasses.replace(state, players=dataclasses.replace(state.players,
                                                                  players=players))


def grafted(ship: Ship) -> bool:
    """§11.3.3: does ``ship`` carry parts from another ship, checking one level worse?"""
    return extension_of(ship, Ftc2007Ship).grafted


def system_checks(ship: Ship) -> tuple[int, ...]:
    """The hull rows whose system checks ``ship`` makes as its next battle begins (§10.8)."""
    return extension_of(ship, Ftc2007Ship).system_checks


def tech_of(design: Design) -> str:
    return extension_of(design, Ftc2007Design).tech


def approved_on(design: Design) -> Day | None:
    """The day the umpires approved ``design``, if it is not standard (§16.2)."""
    return extension_of(design, Ftc2007Design).approved


def announced(design: Design) -> bool:
    """Has every player been told of ``design``'s approval (§16.2)?"""
    return extension_of(design, Ftc2007Design).announced


def fits_of(design: Design) -> tuple[str, ...]:
    """What ``design`` carries that a later tabletop ruling names (§20)."""
    return extension_of(design, Ftc2007Design).fits


def spares_of(state: State) -> tuple[Spares, ...]:
    """Every player's spares at its worlds (§6.2.1)."""
    return extension_of(state.queues, Ftc2007Queues).spares


def defence_works(state: State) -> tuple[DefenceWork, ...]:
    """The inherent defences being rebuilt (§10.5)."""
    return extension_of(state.queues, Ftc2007Queues).defences


def with_spares(state: State, spares: tuple[Spares, ...]) -> State:
    """The state with the spares at every world set to ``spares``."""
    return dataclasses.replace(state, queues=extended(state.queues, Ftc2007Queues,
                                                      spares=spares))


def with_defence_works(state: State, works: tuple[DefenceWork, ...]) -> State:
    """The state with the defences being rebuilt set to ``works``."""
    return dataclasses.replace(state, queues=extended(state.queues, Ftc2007Queues,
                                                      defences=works))
