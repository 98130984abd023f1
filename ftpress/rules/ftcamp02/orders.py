"""Order legality (§3, §4): each order in a player's file, vetted against the state.

:func:`vet` is what ``ftpress check`` reports (:func:`problems`) and what a turn
obeys: an order it refuses becomes Hold-Nothing, with an event saying why.
Orders are vetted against the state the round starts from, with the file's own
attachments and detachments (§3, which come before orders are issued) taken
into account.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import TypeAlias

from ftpress.errors import Problem
from ftpress.orders.load import LoadedOrders
from ftpress.rules import planning
from ftpress.rules.ftcamp02.crafts import drifting, is_military, optimal_move
from ftpress.rules.ftcamp02.flight import flight_problem
from ftpress.rules.ftcamp02.groups import (
    attach_allowed,
    designs_of,
    group_class,
    kind_of,
    points,
)
from ftpress.rules.ftcamp02.orderfile import GroupOrder, OrdersFile
from ftpress.rules.ftcamp02.reorganise import reorganise_problem, settle_structure
from ftpress.rules.ftcamp02.space import (
    HEX_TYPE_MODIFIER,
    contents_modifier,
    distance_modifier,
    hex_type,
    place_hex,
)
from ftpress.rules.ftcamp02.state_ext import of_design, of_group, of_map, of_ship, of_system
from ftpress.rules.suggest import aside
from ftpress.state.hexes import Hex, on_map
from ftpress.state.model import Design, Group, Ship, State

#: §4.2 hold sub-orders whose rules are in chapters of FTCamp0.2 that are not part of
#: this rulebook: the order is refused, saying which chapter it needs.
MISSING_CHAPTER = {
    "patrol": "command HQs and their bubbles, in the Support Phase section",
    "build": "builders, in the Support Phase section",
    "rebuild": "builders, in the Support Phase section",
    "unbuild": "builders, in the Support Phase section",
    "repair": "repairers, in the Support Phase section",
    "make": "builders, in the Support Phase section",
    "restock": "consumables and restocking, in the Support Phase section",
    "diplomatic": "diplomats, in the Support Phase section",
    "beacon": "beacons, in the Systems Compendium",
    "research": "research missions, in the Support Phase section",
}

#: §4.1.1: a move may only be tried if a 6 could succeed, i.e. 6 + modifier >= 1.
WORST_MODIFIER = -5

#: Ruling: a wormhole is entered by whichever of its ends is nearer the group (the
#: first end listed, if both are as near); the lost roll counts the hexes flown to
#: that end plus the hexes flown on from the other end.
WORMHOLE_ENTRY = "nearer end"

#: Ruling: a group supports only a group of the same power in the same hex.
SUPPORT_SAME_HEX = True

#: Ruling: each supporting group follows one group, but nothing limits how many
#: groups may support the same one (the seed's example has one; None: no limit).
SUPPORTERS_PER_GROUP = None


@dataclass(frozen=True, slots=True)
class Rejection:
    """An order the rules forbid: where in the file, and why."""

    group: str | None
    loc: tuple[Hashable, ...]
    message: str
    key: bool = False


@dataclass(frozen=True, slots=True)
class Journey:
    """§4.1: a move that may be tried: where to, how far, and the lost-roll modifier."""

    start: Hex
    target: Hex
    distance: int
    optimal: int
    modifier: int
    wormhole: str | None = None
    entry: Hex | None = None
    exit: Hex | None = None


@dataclass(frozen=True, slots=True)
class FleetChanges:
    """What of a player's file stands beside the group orders: each moving group's
    journey (§4.1), and the independents attached to a group or detached (§3)."""

    journeys: Mapping[str, Journey]
    attach: Mapping[str, str]
    detach: tuple[str, ...]


#: A player's orders once vetted (:class:`ftpress.rules.planning.Vetted`): each
#: group's order that stands, the orders refused, and the :class:`FleetChanges`.
Vetted: TypeAlias = planning.Vetted[GroupOrder, Rejection, FleetChanges]


def problems(state: State, loaded: LoadedOrders[OrdersFile]) -> list[Problem]:
    """Every illegal order in one player's file, located (``ftpress check``)."""
    return [Problem(*loaded.where(*r.loc, key=r.key), r.message)
            for r in vet(state, loaded.orders).rejected]


def vet(state: State, orders: OrdersFile) -> Vetted:
    """Each order of ``orders`` accepted or refused, with the reason."""
    return _Vetter(state, orders).run()


class _Vetter:
    def __init__(self, state: State, orders: OrdersFile) -> None:
        self.state, self.orders, self.player = state, orders, orders.player
        self.groups = {g.id: g for g in state.groups.groups}
        self.mine = {g.id: g for g in state.groups_of(orders.player)}
        self.rejected: list[Rejection] = []
        self.accepted: dict[str, GroupOrder] = {}
        self.journeys: dict[str, Journey] = {}
        self.attach: dict[str, str] = {}
        self.detach: list[str] = []

    def refuse(self, group: str | None, loc: tuple[Hashable, ...], message: str,
               key: bool = False) -> None:
        self.rejected.append(Rejection(group, loc, message, key))

    def run(self) -> Vetted:
        if self.state.player(self.player) is None:
            self.refuse(None, ("player",), f"{self.player!r} is not a player of this "
                        "campaign; expected one of " + ", ".join(
                            p.id for p in self.state.players.players))
            return self._done()
        self._detachments()
        self._attachments()
        orders = self.orders.groups
        for group_id, order in orders.items():
            if order.support is None:
                self._group(group_id, order)
        for group_id, order in orders.items():
            if order.support is not None:
                self._group(group_id, order)
        self._structure()
        return self._done()

    def _structure(self) -> None:
        """§5.3: the player's reorganisations, taken together, must fit the structure."""
        mine = {gid: o for gid, o in self.accepted.items()
                if o.action == "hold" and o.sub == "reorganise"}
        if not mine:
            return
        _after, refused = settle_structure(self.state, self.player, mine)
        for group_id, message in refused.items():
            del self.accepted[group_id]
            self.refuse(group_id, ("groups", group_id, "hold"), message)

    def _done(self) -> Vetted:
        return planning.Vetted(self.player, self.accepted, tuple(self.rejected),
                               FleetChanges(self.journeys, self.attach, tuple(self.detach)))

    # -- §3 independents --------------------------------------------------------------

    def _detachments(self) -> None:
        for i, group_id in enumerate(self.orders.detach):
            group = self.mine.get(group_id)
            if group is None:
                self.refuse(group_id, ("detach", i), self._unknown(group_id))
            elif of_group(group).attached_to is None:
                self.refuse(group_id, ("detach", i), f"{group_id} is not attached to a "
                            "group; only an attached independent can be detached (§3.1)")
            else:
                self.detach.append(group_id)

    def attached_to(self, group_id: str) -> str | None:
        """Where an independent is attached once this file's §3 changes are made."""
        if group_id in self.attach:
            return self.attach[group_id]
        if group_id in self.detach:
            return None
        group = self.groups.get(group_id)
        return of_group(group).attached_to if group is not None else None

    def riders(self, group_id: str) -> list[Group]:
        """The independents attached to a group once §3 is done."""
        return [g for g in self.mine.values() if self.attached_to(g.id) == group_id]

    def _attachments(self) -> None:
        for independent, target in sorted(self.orders.attach.items()):
            loc = ("attach", independent)
            group, parent = self.mine.get(independent), self.mine.get(target)
            if group is None:
                self.refuse(independent, loc, self._unknown(independent), key=True)
                continue
            if parent is None:
                self.refuse(independent, loc, self._unknown(target))
                continue
            if kind_of(self.state, group) != "independent":
                self.refuse(independent, loc, f"{independent} is not a single independent "
                            "craft; only independents can be attached (§3)", key=True)
            elif of_group(group).attached_to is not None and independent not in self.detach:
                self.refuse(independent, loc, f"{independent} is already attached to "
                            f"{of_group(group).attached_to}; detach it first (§3.1)", key=True)
            elif of_group(group).lost or of_group(parent).lost:
                lost = independent if of_group(group).lost else target
                self.refuse(independent, loc, f"{lost} is lost and can do nothing until "
                            "it is located (§4.1.1)")
            elif kind_of(self.state, parent) != "standard" or of_group(parent).attached_to:
                self.refuse(independent, loc, f"{target} is not a standard fleet group; "
                            "independents attach only to standard fleet groups (§5.2.1)")
            elif place_hex(self.state, group) != place_hex(self.state, parent):
                self.refuse(independent, loc, f"{independent} is at {group.at} and "
                            f"{target} at {parent.at}; an independent attaches to a group "
                            "in its own hex (§3.1)")
            else:
                size = points(designs_of(self.state, parent))
                already = [points(designs_of(self.state, g)) for g in self.riders(target)]
                cost = points(designs_of(self.state, group))
                if not attach_allowed(size, already, cost):
                    code = group_class(size)
                    self.refuse(independent, loc, f"{target} is a {size}-point {code} with "
                                f"{sum(already)} points of independents attached; adding "
                                f"{cost} more passes its class limit (§3.1)")
                else:
                    self.attach[independent] = target

    # -- §4 group orders ---------------------------------------------------------------

    def _unknown(self, group_id: str) -> str:
        other = self.groups.get(group_id)
        if other is not None:
            return f"{group_id} belongs to {other.owner}; you can order only your own groups"
        return (f"no group {group_id!r}{aside(group_id, ((g, g) for g in self.mine))}; "
                f"expected one of your groups: {', '.join(sorted(self.mine)) or 'you have none'}")

    def _group(self, group_id: str, order: GroupOrder) -> None:
        loc = ("groups", group_id)
        group = self.mine.get(group_id)
        if group is None:
            self.refuse(group_id, loc, self._unknown(group_id), key=True)
            return
        given = order.given
        if len(given) != 1:
            self.refuse(group_id, loc, f"{group_id} is given "
                        f"{' and '.join(given) if given else 'no order'}; give exactly one of "
                        "move, support, maintain_orbit and hold (§4.0)", key=True)
            return
        action = given[0]
        if self.attached_to(group_id) is not None:
            self.refuse(group_id, (*loc, action), f"{group_id} is attached to "
                        f"{self.attached_to(group_id)} and follows it; detach it to give it "
                        "its own order (§3.1)", key=True)
            return
        if of_group(group).lost and not (action == "hold" and order.sub == "locate"):
            self.refuse(group_id, (*loc, action), f"{group_id} is lost and can do nothing "
                        "but 'hold: locate' until it is located (§4.1.1)", key=True)
            return
        if action != "hold" and (order.split or order.merge or order.place or order.crafts):
            extra = next(k for k in ("split", "merge", "place", "crafts") if getattr(order, k))
            self.refuse(group_id, (*loc, extra), f"'{extra}' goes with a hold order "
                        "(§4.2); this group is given " + action, key=True)
            return
        if order.wormhole is not None and action != "move":
            self.refuse(group_id, (*loc, "wormhole"), "a wormhole is used on a move; "
                        "give 'move:' too (§4.1.2)", key=True)
            return
        check = {"move": self._move, "support": self._support,
                 "maintain_orbit": self._orbit, "hold": self._hold}[action]
        if check(group_id, group, order):
            self.accepted[group_id] = order

    def party(self, group: Group) -> list[tuple[Ship, Design]]:
        """The group's craft and its attached independents' craft, with designs."""
        ships = [(s, self.state.design(s.design)) for g in (group, *self.riders(group.id))
                 for s in g.ships]
        return [(s, d) for s, d in ships if d is not None]

    def _move(self, group_id: str, group: Group, order: GroupOrder) -> bool:
        """§4.1, §4.1.1–§4.1.3: may this group try this move?"""
        loc = ("groups", group_id, "move")
        state = self.state
        target = state.hex_of(order.move) if isinstance(order.move, str) else order.move
        if target is None:
            worlds = ((w.id, w.name) for w in state.map.systems)
            self.refuse(group_id, loc, f"no system {order.move!r}{aside(order.move, worlds)}; "
                        "expected a system id or a hex such as (2, -1)")
            return False
        if not on_map(target, state.map.radius):
            self.refuse(group_id, loc, f"hex {target} is off the map; a radius-"
                        f"{state.map.radius} map holds hexes at most {state.map.radius} "
                        "from (0, 0)")
            return False
        if not self._can_fly(group_id, group, loc):
            return False
        home = state.system_at(target)
        if of_group(group).reserve and (home is None or home.owner != self.player
                              or of_system(home).loyalty <= 0):
            self.refuse(group_id, loc, f"{group_id} has lost the craft that made it a "
                        "reserve group, so it must return to a system you hold (§5.2.2)")
            return False
        start = place_hex(state, group)
        journey = self._journey(group_id, group, start, target, order.wormhole)
        if journey is None:
            return False
        if journey.distance == 0:
            self.refuse(group_id, loc, f"{group_id} is already at {target}; give it "
                        "'hold: nothing' to stay (§4.2)")
            return False
        if journey.modifier < WORST_MODIFIER:
            self.refuse(group_id, loc, f"the lost roll for this move has a modifier of "
                        f"{journey.modifier:+d} (distance {journey.distance} against an "
                        f"optimal move of {journey.optimal}, {hex_type(state, target)}), "
                        "so even a 6 fails; a move may only be tried if a 6 can succeed "
                        f"(§4.1.1). {_in_reach(state, group)}")
            return False
        self.journeys[group_id] = journey
        return True

    def _can_fly(self, group_id: str, group: Group, loc: tuple[Hashable, ...]) -> bool:
        """§4.1, §4.1.3: see :func:`.flight.flight_problem`."""
        problem = flight_problem(group_id, self.party(group))
        if problem is not None:
            self.refuse(group_id, loc, problem)
            return False
        return True

    def _journey(self, group_id: str, group: Group, start: Hex, target: Hex,
                 wormhole_id: str | None) -> Journey | None:
        party = [(s, d) for s, d in self.party(group) if not drifting(s, d)]
        optimal = min(optimal_move(s) for s, _d in party)
        state = self.state
        entry = exit_ = None
        if wormhole_id is None:
            distance = start.distance(target)
        else:
            holes = of_map(state.map).wormholes or ()
            hole = next((w for w in holes if w.id == wormhole_id), None)
            if hole is None:
                known = ", ".join(w.id for w in holes) or "there are none"
                self.refuse(group_id, ("groups", group_id, "wormhole"), f"no wormhole "
                            f"{wormhole_id!r}; expected one of: {known}")
                return None
            a, b = hole.ends
            entry, exit_ = (a, b) if start.distance(a) <= start.distance(b) else (b, a)
            distance = start.distance(entry) + exit_.distance(target)
        modifier = (distance_modifier(distance, optimal) + HEX_TYPE_MODIFIER[hex_type(
            state, target)] + contents_modifier(state, target))
        return Journey(start, target, distance, optimal, modifier, wormhole_id, entry, exit_)

    def _support(self, group_id: str, group: Group, order: GroupOrder) -> bool:
        """§4.4: follow exactly one other group that is not itself on support."""
        loc = ("groups", group_id, "support")
        parent_id = order.support
        assert parent_id is not None
        parent = self.mine.get(parent_id)
        if parent is None:
            self.refuse(group_id, loc, self._unknown(parent_id))
            return False
        if parent_id == group_id:
            self.refuse(group_id, loc, "a group cannot support itself; name the group it "
                        "follows (§4.4)")
            return False
        parent_order = self.orders.groups.get(parent_id)
        if parent_order is not None and parent_order.support is not None:
            self.refuse(group_id, loc, f"{parent_id} is itself on support orders; support "
                        "groups cannot be chained (§4.4)")
            return False
        if SUPPORT_SAME_HEX and place_hex(self.state, parent) != place_hex(self.state, group):
            self.refuse(group_id, loc, f"{group_id} is at {group.at} and {parent_id} at "
                        f"{parent.at}; a group supports a group in its own hex (§4.4)")
            return False
        followers = sum(1 for o in self.accepted.values() if o.support == parent_id)
        if SUPPORTERS_PER_GROUP is not None and followers >= SUPPORTERS_PER_GROUP:
            self.refuse(group_id, loc, f"{parent_id} already has {followers} supporting "
                        f"group{'s' if followers != 1 else ''} (§4.4)")
            return False
        if parent_id not in self.accepted and parent_order is not None:
            self.refuse(group_id, loc, f"{parent_id}'s own order is refused, so there is "
                        "nothing to follow (§4.4)")
            return False
        return parent_id not in self.journeys or self._can_fly(group_id, group, loc)

    def _orbit(self, group_id: str, group: Group, order: GroupOrder) -> bool:
        """§4.3: military groups, troop carriers and diplomats may maintain orbit."""
        loc = ("groups", group_id, "maintain_orbit")
        if self.state.system_at(place_hex(self.state, group)) is None:
            self.refuse(group_id, loc, f"{group_id} is at {group.at}, not at a system; "
                        "Maintain Orbit is given at a system (§4.3)", key=True)
            return False
        party = self.party(group)
        if not any(is_military(d) or of_design(d).troops or of_ship(s).diplomat for s, d in party):
            self.refuse(group_id, loc, f"{group_id} has no military craft, troops or "
                        "diplomat aboard; only those can maintain orbit (§4.3)", key=True)
            return False
        return True

    def _hold(self, group_id: str, group: Group, order: GroupOrder) -> bool:
        """§4.2: hold, with sub-orders for the group and for single craft. Maintain
        (§4.2.5) stands; those that need a chapter not in the rulebook are refused
        (:data:`MISSING_CHAPTER`: §4.2.1, §4.2.3, §4.2.4, §4.2.7, §4.2.9, §4.2.10)."""
        loc = ("groups", group_id)
        if not self._sub(group_id, group, order.sub, [s.name for s in group.ships],
                         (*loc, "hold")):
            return False
        names = {s.name for s in group.ships}
        for name, sub in order.crafts.items():
            if name not in names:
                self.refuse(group_id, (*loc, "crafts", name), f"{group_id} has no craft "
                            f"named {name!r}; expected one of {', '.join(sorted(names))}",
                            key=True)
                return False
            if sub in ("locate", "reorganise"):
                self.refuse(group_id, (*loc, "crafts", name), f"'{sub}' is an order for "
                            "the whole group; give it as 'hold:' (§4.2)")
                return False
            if not self._sub(group_id, group, sub, [name], (*loc, "crafts", name)):
                return False
        if (order.split or order.merge or order.place) and order.sub != "reorganise":
            extra = next(k for k in ("split", "merge", "place") if getattr(order, k))
            self.refuse(group_id, (*loc, extra), f"'{extra}' needs 'hold: reorganise' "
                        "(§4.2.2)", key=True)
            return False
        if order.sub == "reorganise":
            found = reorganise_problem(self.state, self.orders, group_id, order,
                                       self.attached_to)
            if found is not None:
                where, message = found
                self.refuse(group_id, (*loc, *where), message)
                return False
        return True

    def _sub(self, group_id: str, group: Group, sub: str, names: list[str],
             loc: tuple[Hashable, ...]) -> bool:
        if sub in MISSING_CHAPTER:
            self.refuse(group_id, loc, f"Hold-{sub.title()} needs the rules for "
                        f"{MISSING_CHAPTER[sub]} of FTCamp0.2, which are not part of this "
                        "rulebook, so ftpress cannot carry it out; give another order")
            return False
        if sub == "locate" and not of_group(group).lost:
            self.refuse(group_id, loc, f"{group_id} is not lost; 'locate' is for a group "
                        "that failed its lost roll (§4.2.8)")
            return False
        if sub == "tug":
            tugs = [s.name for s in group.ships if s.name in names
                    and (d := self.state.design(s.design)) is not None
                    and of_design(d).tug > 0 and of_design(d).tug_grade == "civilian"]
            if not tugs:
                self.refuse(group_id, loc, f"{names[0] if len(names) == 1 else group_id}"
                            " has no civilian tug to make ready; 'tug' is for civilian tugs "
                            "(§4.2.6)")
                return False
        return True


def within_optimal(state: State, group: Group) -> tuple[int, tuple[tuple[int, str], ...]]:
    """The group's optimal move (its slowest craft's, §4.1.1) and the systems within
    it, nearest first: ``(optimal, ((hexes, system id), …))``."""
    start = state.hex_of(group.at)
    if not isinstance(start, Hex) or not group.ships:
        return 0, ()
    optimal = min(optimal_move(s) for s in group.ships)
    return optimal, tuple(sorted((start.distance(s.hex), s.id) for s in state.map.systems
                                 if s.hex is not None and 0 < start.distance(s.hex) <= optimal))


def _in_reach(state: State, group: Group) -> str:
    optimal, near = within_optimal(state, group)
    listed = ", ".join(f"{system} ({hexes} hexes)" for hexes, system in near)
    return f"Within its optimal move of {optimal}: {listed or 'no system'}"

