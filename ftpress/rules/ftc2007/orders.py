"""Legality of a player's orders under ftc2007: what the rules forbid *now*.

:func:`vet` sorts one player's orders into the ones that stand and the ones
the rules forbid (each with its place in the file and the reason). ``ftpress
check`` reports the forbidden ones as *illegal orders* at ``path:line:col``;
turn resolution turns each into a hold with an event that says why. One
function decides both, so a file that checks clean resolves as checked,
unless the campaign changed in between.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable
from dataclasses import dataclass
from typing import TypeAlias

from ftpress.errors import Problem
from ftpress.orders.load import LoadedOrders
from ftpress.rules import planning
from ftpress.rules.ftc2007.economic_legality import economy_rejections
from ftpress.rules.ftc2007.orderfile import EconomyOrders, GroupOrder, OrdersFile
from ftpress.rules.ftc2007.prizes import prize_rejections
from ftpress.rules.ftc2007.rejection import Rejection
from ftpress.rules.ftc2007.scouts import SCOUT_MASS, is_scout
from ftpress.rules.ftc2007.state_ext import jumped_out
from ftpress.rules.suggest import aside, did_you_mean
from ftpress.state.hexes import Hex, on_map
from ftpress.state.model import Group, Location, Point, Route, State, System

#: §8.1 as amended 24 March: a jump between two worlds crosses at most this many
#: hexes (two, not three); into or out of open space, one.
WORLD_JUMP = 2


@dataclass(frozen=True, slots=True)
class Movement:
    """Where an accepted move or scout takes a group, worked out from the state."""

    #: The hex the group sets out from, and its world if it is at one.
    start: Hex
    #: The destination: a world id or a hex of open space.
    to: str | Hex
    #: For a route move: the worlds passed, origin first, destination last.
    path: tuple[str, ...] = ()

    @property
    def by_route(self) -> bool:
        return bool(self.path)


#: One player's orders sorted (:class:`ftpress.rules.planning.Vetted`): group id →
#: (its order, its movement or None for a hold), the rejections, and beside them
#: whether economic orders may be given this turn: all of them in the first week of
#: an economic turn (§5.2), a block of keels and repairs alone in any other (§13.1,
#: §11.1).
Vetted: TypeAlias = planning.Vetted[tuple[GroupOrder, Movement | None], Rejection, bool]


def rejected_groups(vetted: Vetted) -> dict[str, Rejection]:
    """The groups whose order was refused, each with why."""
    return {r.group: r for r in vetted.rejected if r.group is not None}


def economy_allowed(vetted: Vetted) -> bool:
    """May the player give economic orders this turn (see :data:`Vetted`)?"""
    return vetted.rest


def economy_refused(vetted: Vetted, *loc: Hashable) -> bool:
    """Is the economic order at ``loc`` (such as ``('keels', 0)``) forbidden?"""
    return not economy_allowed(vetted) or any(
        r.loc in (("economy",), ("economy", *loc)) for r in vetted.rejected)


def economic_week(state: State) -> bool:
    """Is the open turn the first strategic turn of an economic turn (§5.2)?"""
    cal = state.campaign.calendar
    return (cal.turn - 1) % cal.turns_per_economic_turn == 0


def vet(state: State, loaded: LoadedOrders[OrdersFile]) -> Vetted:
    """Sort one player's orders into accepted and rejected (see the module docstring).
    A group whose ships jumped out last week, itself, split from it or merged into it,
    may not move (§18.4)."""
    orders = loaded.orders
    player = orders.player
    rejected: list[Rejection] = []
    econ = economic_week(state)
    if state.player(player) is None:
        known = ", ".join(p.id for p in state.players.players)
        rejected.append(Rejection(("player",), f"{player!r} is not a player in this "
                                  f"campaign; expected one of {known}"))
        return planning.Vetted(player, {}, tuple(rejected), econ)
    if orders.turn != _open_turn(state):
        rejected.append(Rejection(("turn",), f"these orders are for {orders.turn}, but the "
                                  f"turn open for orders is {_open_turn(state)}"))
        return planning.Vetted(player, {}, tuple(rejected), econ)
    midweek = orders.economy is not None and not econ and any_week_only(orders.economy)
    if orders.economy is not None and not econ and not midweek:
        cal = state.campaign.calendar
        first = (cal.economic_turn - 1) * cal.turns_per_economic_turn + 1
        rejected.append(Rejection(("economy",), "economic orders are given only in the first "
                                  "strategic turn of an economic turn (§5.2); this is week "
                                  f"{cal.turn - first + 1} of economic turn "
                                  f"{cal.economic_turn}, when only keels may be laid or "
                                  "changed (§13.1, §13.2) and repairs ordered (§11.1)",
                                  key=True))
    elif orders.economy is not None and econ:
        rejected += [Rejection(loc, message) for loc, message
                     in prize_rejections(state, player, orders.economy.prizes)]

    groups = {g.id: g for g in state.groups.groups}
    mine = {g.id: g for g in state.groups.groups if g.owner == player}
    # Groups this file creates by splitting (§15.1), at their parent's place.
    created: dict[str, Group] = {}
    parent_of: dict[str, str] = {}
    merged_into: dict[str, str] = {}
    for group_id, order in orders.groups.items():
        for new_id in order.split:
            if group_id in mine and new_id not in created:
                created[new_id] = Group(new_id, player, mine[group_id].at)
                parent_of[new_id] = group_id
        for other in order.merge:
            merged_into.setdefault(other, group_id)

    accepted: dict[str, tuple[GroupOrder, Movement | None]] = {}
    for group_id, order in orders.groups.items():
        loc = ("groups", group_id)
        problem = _group_problem(state, player, group_id, order, groups, mine, created,
                                 merged_into, orders.groups)
        if problem is not None:
            sub, message, key = problem
            rejected.append(Rejection(loc + sub, message, group_id, key))
            continue
        group = mine.get(group_id) or created[group_id]
        # §18.4: a group that jumped out of a system last week (or was split from
        # one) has made this week's move.
        source = mine.get(group_id) or mine.get(parent_of.get(group_id, ""))
        if order.action != "hold" and source is not None and jumped_out(source):
            whose = (f"{source.id!r} jumped out of a system last week, and that jump is its "
                     "move this week" if source.id == group_id else
                     f"{group_id!r} is split from {source.id!r}, which jumped out of a system "
                     "last week, and that jump is the move of its ships this week")
            rejected.append(Rejection((*loc, order.action), f"{whose} (§18.4); write "
                                      "'hold: true'", group_id))
            continue
        # The mark goes with the ships: a group taking in one that jumped out holds too.
        joining = next((m for m in order.merge if m in mine and jumped_out(mine[m])), None)
        if order.action != "hold" and joining is not None:
            rejected.append(Rejection((*loc, order.action), f"{group_id!r} takes in "
                                      f"{joining!r}, which jumped out of a system last week; "
                                      "that jump is the move of its ships this week (§18.4), "
                                      "so the merged group holds; write 'hold: true', or "
                                      "merge next week", group_id))
            continue
        moved = _movement(state, player, group, order)
        if isinstance(moved, tuple):
            sub, message = moved
            rejected.append(Rejection(loc + sub, message, group_id))
            continue
        accepted[group_id] = (order, moved)
    # A group formed by a split the rules refused does not exist to be ordered.
    refused = {r.group for r in rejected if r.group is not None}
    for group_id in [g for g in accepted if parent_of.get(g) in refused]:
        del accepted[group_id]
        rejected.append(Rejection(("groups", group_id), f"{group_id!r} would be formed by "
                                  f"splitting {parent_of[group_id]!r}, whose order is refused",
                                  group_id, key=True))
    if orders.economy is not None and (econ or midweek):
        rejected += economy_rejections(state, orders, merged_into)
    return planning.Vetted(player, accepted, tuple(rejected), econ or midweek)


def any_week_only(economy: EconomyOrders) -> bool:
    """§13.1 lays keels in any week, §13.2 changes them as construction goes on,
    and §11.1 repairs wherever income was drawn this economic turn, naming no week;
    every other economic order waits for the first week of an economic turn (§5.2).
    Does this block order keels, changes to them or repairs and nothing else (a note
    aside, and refits, which are refused in any week with their own reason,
    :mod:`.refits`)?"""
    return bool(economy.keels or economy.changes or economy.repairs or economy.refits) \
        and economy == EconomyOrders(keels=economy.keels, changes=economy.changes,
                                     repairs=economy.repairs, refits=economy.refits,
                                     note=economy.note)


def _open_turn(state: State) -> str:
    return f"t{state.campaign.calendar.turn:03d}"


def _group_problem(state: State, player: str, group_id: str, order: GroupOrder,
                   groups: dict[str, Group], mine: dict[str, Group],
                   created: dict[str, Group], merged_into: dict[str, str],
                   all_orders: dict[str, GroupOrder],
                   ) -> tuple[tuple[Hashable, ...], str, bool] | None:
    """Why the rules forbid this group's reorganisation (§15.1), or None."""
    if group_id not in mine and group_id not in created:
        if group_id in groups:
            return (), (f"group {group_id!r} is {groups[group_id].owner}'s, not yours; "
                        "you can order only your own groups"), True
        return (), (f"there is no group {group_id!r}{_which_group(group_id, mine)}; "
                    f"your groups are {_listing(mine)}"), True
    if group_id in created and group_id in groups:
        return (), (f"{group_id!r} is already a group id; a split needs a new id"), True
    if group_id in merged_into:
        return (), (f"group {group_id!r} merges into {merged_into[group_id]!r} this turn, "
                    "so it cannot have orders of its own; its ships go with that group"), True
    group = mine.get(group_id) or created[group_id]
    if order.split or order.merge:
        if group_id in created:
            return (("split",) if order.split else ("merge",)), (
                f"{group_id!r} is formed by a split this turn; reorganise it next turn "
                "(§15.1)"), True
        if group.dummy:
            return (("split",) if order.split else ("merge",)), (
                f"{group_id!r} is a dummy counter with no ships to reorganise (§15.2)"), True
    if order.split:
        names = [s.name for s in group.ships]
        leaving: list[str] = []
        for new_id, ships in order.split.items():
            if new_id in groups:
                return ("split", new_id), (f"{new_id!r} is already a group id; a split needs "
                                           "a new id"), True
            for i, name in enumerate(ships):
                if name in leaving:
                    return ("split", new_id, i), (f"{name!r} is already listed to leave "
                                                  f"{group_id!r}; list each ship once"), False
                if name not in names:
                    return ("split", new_id, i), (f"{group_id!r} has no ship named {name!r}; "
                                                  f"its ships are {', '.join(names)}"), False
                leaving.append(name)
        if len(leaving) >= len(names):
            return ("split",), (f"the split would leave {group_id!r} with no ships; every "
                                "counter but a dummy stands for at least one ship (§15.2)"), True
    for i, other_id in enumerate(order.merge):
        other = groups.get(other_id)
        if other is None or other.owner != player:
            return ("merge", i), (f"there is no group {other_id!r} of yours to merge"
                                  f"{_which_group(other_id, mine)}; your groups are "
                                  f"{_listing(mine)}"), False
        if merged_into.get(other_id) != group_id:
            return ("merge", i), (f"{other_id!r} is also merged into "
                                  f"{merged_into[other_id]!r}; merge it into one group"), False
        if other.dummy:
            return ("merge", i), (f"{other_id!r} is a dummy counter with no ships to merge "
                                  "(§15.2)"), False
        if state.hex_of(other.at) != state.hex_of(group.at):
            return ("merge", i), (f"{other_id!r} is at {_place(state, other.at)}, not at "
                                  f"{_place(state, group.at)} with {group_id!r}; only groups "
                                  "in the same place merge (§15.1)"), False
        if other_id in all_orders:
            return ("merge", i), (f"{other_id!r} also has orders of its own; a merged group "
                                  "goes with the group it joins"), False
    return None


def _movement(state: State, player: str, group: Group,
              order: GroupOrder) -> Movement | tuple[tuple[Hashable, ...], str] | None:
    """§8.1 jumps, §8.2 routes: the accepted movement of a move or scout, None
    for a hold, or (loc, reason)."""
    start = state.hex_of(group.at)
    assert start is not None  # the state's cross-checks guarantee every location
    if order.action == "hold":
        return None
    key = order.action
    target = order.move if key == "move" else order.scout
    assert target is not None
    here = state.system_at(start)
    if isinstance(target, Hex):
        if not on_map(target, state.map.radius):
            return (key,), (f"{target} is off the map, which reaches {state.map.radius} hexes "
                            "from (0, 0)")
        world = state.system_at(target)
        dest: str | Hex = world.id if world else target
        dest_hex = target
    else:
        world = state.system(target)
        if world is None or world.hex is None:  # a system with no hex is not on a hex map
            return (key,), (f"there is no world {target!r} on the map"
                            f"{did_you_mean(target, _worlds(state))}")
        dest, dest_hex = world.id, world.hex
    if key == "scout":
        problem = _scout_problem(state, group, world, target)
        if problem:
            return (key,), problem
        if dest_hex == start:
            return Movement(start, dest)
    if dest_hex == start:
        return (key,), (f"{group.id!r} is already at {_place(state, dest)}; write "
                        "'hold: true' to stay")
    if order.route is not None:
        return _route_movement(state, group, here, order.route, dest, start)
    distance = start.distance(dest_hex)
    if distance == 1:
        return Movement(start, dest)
    if distance <= WORLD_JUMP and here is not None and world is not None:
        return Movement(start, dest)
    if distance <= WORLD_JUMP:
        why = ("it is in open space" if here is None else
               f"{_place(state, dest)} is open space")
        return (key,), (f"{_place(state, dest)} is {distance} hexes from "
                        f"{_place(state, group.at)}, and {why}; a jump crosses one hex, or "
                        f"up to {WORLD_JUMP} between two worlds (§8.1). "
                        f"{reach_text(state, reach(state, group))}")
    return (key,), (f"{_place(state, dest)} is {distance} hexes from "
                    f"{_place(state, group.at)}; a jump crosses one hex, or up to "
                    f"{WORLD_JUMP} between two worlds (§8.1); further takes a charted route "
                    f"(§8.2) or more weeks. {reach_text(state, reach(state, group))}")


def _scout_problem(state: State, group: Group, world: System | None,
                   target: object) -> str | None:
    """§2.3: a neutral world nobody has scouted, by one light unit on its own."""
    if world is None:
        return f"{target} is open space; scout a world"
    if world.owner is not None:
        return f"{world.name} belongs to {world.owner}; only neutral worlds are scouted (§2.3)"
    if world.income is not None:
        return f"{world.name} has been scouted already; what it is worth is public (§2.3)"
    if group.dummy or len(group.ships) != 1:
        return (f"{group.id!r} has {len(group.ships)} ships; a world is scouted by one light "
                "unit on its own (§2.3)")
    if not is_scout(state, [group]):
        design = state.design(group.ships[0].design)
        what = f"a {design.size} of {design.mass} mass" if design else "of an unknown design"
        return (f"{group.ships[0].name} is {what}; a scout is one light ship, "
                f"{SCOUT_MASS} mass or less, on its own (§2.3)")
    return None


def _route_movement(state: State, group: Group, here: System | None, route_id: str,
                    dest: str | Hex, start: Hex,
                    ) -> Movement | tuple[tuple[Hashable, ...], str]:
    route = next((r for r in state.map.routes if r.id == route_id), None)
    if route is None:
        known = ", ".join(r.id for r in state.map.routes) or "none"
        hint = aside(route_id, ((r.id, r.id) for r in state.map.routes))
        return ("route",), (f"there is no charted route {route_id!r}{hint}; the routes are "
                            f"{known}")
    if here is None:
        return ("route",), (f"{group.id!r} is in open space at {start}; a charted route starts "
                            "at a world on it (§8.2)")
    origin = here.id
    stops = route.systems
    if origin not in stops:
        return ("route",), (f"{_place(state, origin)} is not on {route_id!r}, which joins "
                            f"{', '.join(stops)} (§8.2)")
    if not isinstance(dest, str) or dest not in stops:
        return ("route",), (f"{_place(state, dest)} is not on {route_id!r}, which joins "
                            f"{', '.join(stops)} (§8.2)")
    path = route_path(route, origin, dest)
    if path is None:
        return ("route",), (f"{route_id!r} does not join {_place(state, origin)} to "
                            f"{_place(state, dest)} (§8.2)")
    return Movement(start, dest, path)


def route_path(route: Route, origin: str, dest: str) -> tuple[str, ...] | None:
    """§8.2: the worlds along ``route`` from ``origin`` to ``dest``, both included.

    Ruling (:data:`ROUTE_PATH`): the path with the fewest links; between equal
    ones, the first found taking links in the order the route lists them.
    """
    neighbours: dict[str, list[str]] = {}
    for a, b in route.links:
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    previous: dict[str, str | None] = {origin: None}
    queue = deque([origin])
    while queue:
        at = queue.popleft()
        if at == dest:
            path = [at]
            while (back := previous[path[-1]]) is not None:
                path.append(back)
            return tuple(reversed(path))
        for nxt in neighbours.get(at, ()):
            if nxt not in previous:
                previous[nxt] = at
                queue.append(nxt)
    return None


#: Ruling: a move along a charted route follows the fewest links from origin to
#: destination (ties: the route's own order of links), fixed when the orders are
#: written; it does not turn aside on the way (§8.2 "does not choose a detour").
ROUTE_PATH = "fewest links"


def problems(state: State, loaded: LoadedOrders[OrdersFile]) -> list[Problem]:
    """Every illegal order in one file, located (``ftpress check``)."""
    vetted = vet(state, loaded)
    return [Problem(*loaded.where(*r.loc, key=r.key), r.message) for r in vetted.rejected]


def place(state: State, location: Location) -> str:
    """A location in words: a world's name, or a hex as (q, r)."""
    return _place(state, location)


def _place(state: State, location: Location) -> str:
    if isinstance(location, Hex):
        world = state.system_at(location)
        return world.name if world else f"hex {location}"
    if isinstance(location, Point):
        return f"point {location}"  # of a planar map: refused on ftc2007's hexes
    world = state.system(location)
    return world.name if world else location


def _listing(groups: dict[str, Group]) -> str:
    return ", ".join(sorted(groups)) if groups else "none"


def _which_group(written: str, mine: dict[str, Group]) -> str:
    return aside(written, ((g, g) for g in mine))


def _worlds(state: State) -> list[tuple[str, str]]:
    return [(s.id, s.name) for s in state.map.systems]


@dataclass(frozen=True, slots=True)
class Reach:
    """Where a group can go this week (§8): the worlds one jump takes it to, whether
    an open hex beside it is in reach, and each charted route from its world with the
    worlds along it."""

    jumps: tuple[str, ...]
    open_space: bool
    routes: tuple[tuple[str, tuple[str, ...]], ...]

    def jump_places(self, state: State) -> list[str]:
        """The places a jump reaches, in words: 'Bellwether (bellwether)', …"""
        places = [f"{_place(state, w)} ({w})" for w in self.jumps]
        return [*places, "an open hex next to it"] if self.open_space else places


def reach(state: State, group: Group) -> Reach:
    """§8.1 jumps (one hex; up to :data:`WORLD_JUMP` from a world to a world) and
    §8.2 charted routes from where ``group`` is, nearest worlds first."""
    start = state.hex_of(group.at)
    assert start is not None  # the state's cross-checks guarantee every location
    here = state.system_at(start)
    jumps = sorted((start.distance(w.hex), w.name, w.id) for w in state.map.systems
                    if w.hex is not None and w.hex != start
                    and start.distance(w.hex) <= (WORLD_JUMP if here else 1))
    beside = [h for h in start.neighbours() if on_map(h, state.map.radius)
              and state.system_at(h) is None]
    routes = []
    origin = here.id if here is not None else None
    for route in state.map.routes:
        if origin in route.systems:
            along = tuple(w for w in route.systems if w != origin
                          and route_path(route, origin, w) is not None)
            if along:
                routes.append((route.id, along))
    return Reach(tuple(w for _, _, w in jumps), bool(beside), tuple(routes))


def reach_text(state: State, found: Reach) -> str:
    """One sentence of where a group can go: what an out-of-range move is told."""
    places = found.jump_places(state)
    text = "In reach this week: " + (", ".join(places) if places else "nowhere by a jump")
    for route_id, along in found.routes:
        text += f"; along {route_id}: {', '.join(along)}"
    return text
