"""ftc2007's order file: short, written by hand, with nothing left to guess.

One file per player per turn, ``orders/t004/nac.yaml``::

    turn: t004                 # the turn and player repeat the file's path, so a
    player: nac                # file copied from last week is caught, not obeyed
    groups:
      nac-1:                   # a task group by its id
        move: kessel-drift     # a world id, or a hex: (2, -1)
        posture: stand-off     # stand-off, attack or withdraw-if-contested (§17.2)
      nac-2:
        move: marrow
        route: eastmarch-route # travel along a charted route (§8.2)
        posture: attack
      nac-3:
        scout: vesper          # go to a neutral world (or stay at it) and scout it (§2.3)
        posture: withdraw-if-contested
      nac-4:
        hold: true             # stay put (a posture may be given)
        split:                 # §15.1: new group id → the ships that leave to form it
          nac-7: [Lancer, Sabre]
        merge: [nac-5]         # §15.1: these groups, in the same place, join this one
        battle: abstract       # where the campaign lets players agree (§14.1)
        note: Free text for the umpire.
      nac-7:
        move: (-3, 4)
        posture: attack
    economy:                   # the first week of an economic turn (keels, repairs any week)
      maintenance: standardised
      prizes:                  # §12.2: a captured hulk rebuilt, stripped or sold
        prize-t003-1: {action: rebuild, group: nac-8}

Every group order has exactly one of ``move``, ``scout`` and ``hold``; a move
or a scout must name its posture (§17.2 "every strategic move must state the
task force's destination and the posture"). The schema cannot say these, so the
format states them itself (:meth:`OrdersFile.syntax`), and the loader applies
them as it reads a file: a group that breaks one is an *invalid order*, and holds
while the rest of the file is checked. Groups a file does not mention hold.
Nothing here knows whether an order is legal; :mod:`.orders` decides that.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import ConfigDict, Field, TypeAdapter
from pydantic.json_schema import JsonDict  # type: ignore[attr-defined]  # pydantic re-exports it without __all__

from ftpress.errors import Problem
from ftpress.orders.fields import Destination, Note, ShipName, TurnId, World
from ftpress.rules.ftc2007.state_ext import Maintenance
from ftpress.state.model import Design, Id, Positive

#: Arrival postures, §17.2.1–17.2.3.
POSTURES = ("stand-off", "attack", "withdraw-if-contested")
Posture = Literal["stand-off", "attack", "withdraw-if-contested"]

_CONFIG = ConfigDict(extra="forbid", str_strip_whitespace=True)


#: The syntax rules of a group order (:meth:`OrdersFile.syntax`) said in its JSON Schema,
#: so that an editor underlines what ``ftpress check`` refuses: exactly one of move,
#: scout and hold; a move or scout names its posture; a route goes with a destination.
_ONE_ORDER: JsonDict = {
    "oneOf": [{"required": ["move"]}, {"required": ["scout"]}, {"required": ["hold"]}],
    "dependentRequired": {"move": ["posture"], "scout": ["posture"]},
    "dependentSchemas": {"route": {"anyOf": [{"required": ["move"]},
                                             {"required": ["scout"]}]}},
}


@dataclass(frozen=True, slots=True)
class GroupOrder:
    """What one task group does this week: exactly one of move, scout, hold."""

    __pydantic_config__ = ConfigDict(**_CONFIG, json_schema_extra=_ONE_ORDER)

    #: Where to: a world id or a hex. By a jump (§8.1) unless ``route`` is given.
    move: Destination | None = None
    #: The charted route to travel along (§8.2); ``move`` names a world on it.
    route: Id | None = None
    #: A neutral world to scout (§2.3): the group goes there, or stays if it is there.
    scout: World | None = None
    #: Stay where it is.
    hold: Literal[True] | None = None
    #: The posture on arrival (§17.2); for a hold, the posture it keeps this turn.
    posture: Posture | None = None
    #: §15.1: new group id → names of the ships that leave this group to form it.
    split: dict[Id, Annotated[tuple[ShipName, ...], Field(min_length=1)]] = field(
        default_factory=dict)
    #: §15.1: groups in the same place that join this one before it moves.
    merge: tuple[Id, ...] = ()
    #: Free text for the umpire; kept in the turn's record.
    note: Note | None = None
    #: How a battle this group is in should be settled, where the campaign lets the
    #: players agree (``settings.battles: agreed``, ftc2007 §14.1): the abstract combat
    #: only if every power in the battle asks for it.
    battle: Literal["abstract", "tabletop"] | None = None

    @property
    def action(self) -> str:
        """'move', 'scout' or 'hold' (the syntax check makes it exactly one)."""
        if self.move is not None:
            return "move"
        if self.scout is not None:
            return "scout"
        return "hold"


# --- economic orders (the first strategic turn of an economic turn) -------------------

@dataclass(frozen=True, slots=True)
class KeelOrder:
    """Lay down a keel (§13): a new ship of a design, built at one of your worlds."""

    __pydantic_config__ = _CONFIG

    design: Id
    at: Id
    name: ShipName
    note: Note | None = None


@dataclass(frozen=True, slots=True)
class KeelChangeOrder:
    """Change the design of a ship on the slips (ftc2007 §13.2), billed as a refit."""

    __pydantic_config__ = _CONFIG

    #: The name of the ship whose keel is laid.
    keel: ShipName
    design: Id
    note: Note | None = None


@dataclass(frozen=True, slots=True)
class PurchaseOrder:
    """Buy a ship on the open market (§13.1), delivered at one of your worlds."""

    __pydantic_config__ = _CONFIG

    design: Id
    at: Id
    name: ShipName
    note: Note | None = None


@dataclass(frozen=True, slots=True)
class RefitOrder:
    """Change what a ship carries (ftc2007, the notes after rule 16): a weapon refit,
    a modular weapon fit swapped, or a freighter's cargo space converted."""

    __pydantic_config__ = _CONFIG

    kind: Literal["weapons", "module", "cargo"]
    group: Id
    ship: ShipName
    note: Note | None = None


@dataclass(frozen=True, slots=True)
class RepairOrder:
    """Repair hull boxes of one ship of a group where it is (§11)."""

    __pydantic_config__ = _CONFIG

    group: Id
    ship: ShipName
    boxes: Positive
    #: A ship of yours at the same world whose parts are fitted instead of new ones
    #: (§11.3.2 an identical ship of the same group, §11.3.3 any other), or the id of
    #: a prize stripped there (§12.2.2); it loses the boxes.
    parts_from: ShipName | None = None
    note: Note | None = None


@dataclass(frozen=True, slots=True)
class SparesOrder:
    """Pre-position spare parts worth ``points`` at one of your worlds (§6.2.1)."""

    __pydantic_config__ = _CONFIG

    at: Id
    points: Positive
    note: Note | None = None


@dataclass(frozen=True, slots=True)
class DefenceOrder:
    """Rebuild inherent defence points at one of your worlds (§10.5)."""

    __pydantic_config__ = _CONFIG

    system: Id
    points: Positive
    note: Note | None = None


@dataclass(frozen=True, slots=True)
class PrizeOrder:
    """What to do with a captured hulk (ftc2007 §12.2): rebuild it into ``group``
    (a group of yours where it lies, or a new group id), strip it, or sell it."""

    __pydantic_config__ = _CONFIG

    action: Literal["rebuild", "strip", "sell"]
    group: Id | None = None
    note: Note | None = None


@dataclass(frozen=True, slots=True)
class EconomyOrders:
    """Orders given once an economic turn, in its first strategic turn (§5.2)."""

    __pydantic_config__ = _CONFIG

    #: The upkeep level for this economic turn (§7).
    maintenance: Maintenance | None = None
    keels: tuple[KeelOrder, ...] = ()
    #: Keels whose design changes while they are built (ftc2007 §13.2).
    changes: tuple[KeelChangeOrder, ...] = ()
    purchases: tuple[PurchaseOrder, ...] = ()
    repairs: tuple[RepairOrder, ...] = ()
    #: Worlds whose repulse left damage owed, repaired now for its price (ftc2007 §10.8).
    owed: tuple[Id, ...] = ()
    refits: tuple[RefitOrder, ...] = ()
    spares: tuple[SparesOrder, ...] = ()
    defences: tuple[DefenceOrder, ...] = ()
    #: Prize id → what to do with it (ftc2007 §12.2).
    prizes: dict[Id, PrizeOrder] = field(default_factory=dict)
    #: Build price of the ordnance (missiles, SMPs …) expended in the economic turn
    #: just ended, charged now at half that (§7.1).
    ordnance: Positive | None = None
    #: Boxes of Sa'Vasku biomass expended (spent as munitions) in the economic turn
    #: just ended, charged now at 1 point a box (ftc2007 §11.5).
    biomass: Positive | None = None
    note: Note | None = None


# --- set-up orders (ftc2007 §6: the starting capital spent, in the set-up turn) -------

@dataclass(frozen=True, slots=True)
class SetupShip:
    """A ship bought with the starting capital (§6.1)."""

    __pydantic_config__ = _CONFIG

    design: Id
    name: ShipName
    note: Note | None = None


@dataclass(frozen=True, slots=True)
class SetupGroup:
    """A counter placed at set-up at one of your worlds: its ships (§15.1), or none
    as a dummy counter (``dummy: true``, §15.2)."""

    __pydantic_config__ = _CONFIG

    at: World
    ships: tuple[SetupShip, ...] = ()
    dummy: Literal[True] | None = None
    note: Note | None = None


@dataclass(frozen=True, slots=True)
class SetupOrders:
    """How a power spends its starting capital, in the set-up turn only (§6): its
    own designs, its counters and the ships in them, pre-positioned spares and
    planetary defences; what is left is reserve cash (§6.2.3)."""

    __pydantic_config__ = _CONFIG

    #: Designs of the player's own navy, as ``designs.yaml`` writes them.
    designs: tuple[Design, ...] = ()
    #: New group id (``<player>-…``) → where it starts and what it holds.
    groups: dict[Id, SetupGroup] = field(default_factory=dict)
    #: Spares placed at a world, at 75% of their installed value (§6.2.1).
    spares: tuple[SparesOrder, ...] = ()
    #: Points added to a world's inherent defence points (§6.2.2).
    defences: tuple[DefenceOrder, ...] = ()
    note: Note | None = None


@dataclass(frozen=True, slots=True)
class OrdersFile:
    """One player's orders for one strategic turn."""

    __pydantic_config__ = _CONFIG

    #: The turn these orders are for; must match the folder.
    turn: TurnId
    #: The player giving them; must match the file name.
    player: Id
    #: Group id → its order. Groups left out hold.
    groups: dict[Id, GroupOrder] = field(default_factory=dict)
    economy: EconomyOrders | None = None
    #: The starting capital spent (ftc2007 §6), in the set-up turn only.
    setup: SetupOrders | None = None
    #: Free text for the umpire about the whole turn.
    note: Note | None = None

    def syntax(self, where: Callable[..., tuple[str, int, int]],
               held: set[tuple[str, Hashable]]) -> Iterable[tuple[tuple[str, Hashable], Problem]]:
        """The rules the schema cannot say, by group, each problem with the entry that
        holds for it (:class:`ftpress.orders.load.StatesItsSyntax`); the entries
        ``held``, already wrong in form, are left out. ``where`` locates in the file."""
        for group_id, order in self.groups.items():
            if ("groups", group_id) not in held:
                for problem in _group_syntax(where, group_id, order):
                    yield ("groups", group_id), problem


def _group_syntax(where: Callable[..., tuple[str, int, int]], group_id: str,
                  order: GroupOrder) -> Iterable[Problem]:
    """§17.2: exactly one of move, scout and hold, and a move or scout names its
    posture; a route goes with a destination; a group splits into new groups and
    merges with others, never itself."""
    loc = ("groups", group_id)
    given = [k for k in ("move", "scout", "hold") if getattr(order, k) is not None]
    if not given:
        yield Problem(*where(*loc, key=True), f"group {group_id!r} has no order; give it "
                      "one of 'move', 'scout' or 'hold: true'")
    elif len(given) > 1:
        yield Problem(*where(*loc, given[1], key=True), f"group {group_id!r} is given both "
                      f"'{given[0]}' and '{given[1]}'; give exactly one of 'move', "
                      "'scout' or 'hold'")
    elif given[0] in ("move", "scout") and order.posture is None:
        yield Problem(*where(*loc, given[0], key=True), f"the {given[0]} of group "
                      f"{group_id!r} names no posture; add 'posture:' with stand-off, "
                      "attack or withdraw-if-contested (§17.2)")
    if order.route is not None and order.scout is None and not isinstance(order.move, str):
        yield Problem(*where(*loc, "route", key=True), f"group {group_id!r} has a route "
                      "but no world to travel to along it; add 'move:' with a world on "
                      f"{order.route!r}")
    if group_id in order.merge:
        yield Problem(*where(*loc, "merge"), f"group {group_id!r} cannot merge with "
                      "itself; list the other groups that join it")
    for new_id in order.split:
        if new_id == group_id:
            yield Problem(*where(*loc, "split", new_id, key=True), f"a split from "
                          f"{group_id!r} needs a new group id, not its own")


ADAPTER: TypeAdapter[OrdersFile] = TypeAdapter(OrdersFile)
