"""Rolling up the strategic map: ftc2007 rules 1–3.

One function per rule section, each taking the dice and returning what it
made plus the events that explain it. Worlds are named by hex here; names and
ids are given afterwards (:mod:`.setup`), so the same seed always gives the
same map whatever the worlds end up being called.

Where the rules leave a choice open, the choice is a named constant below and
a ruling in the campaign's rulebook.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ftpress.errors import SetupError
from ftpress.state.dice import Dice
from ftpress.state.hexes import DIRECTION_NAMES, Hex, hexagon, nearest_in_direction, on_map

#: §1.3 "within four hexes".
STUB_REACH = 4


@dataclass(frozen=True, slots=True)
class MapOptions:
    """What the rules fix, as options so a campaign can vary them (house rules)."""

    #: §1.1: six hexes on a side is radius 5.
    radius: int = 5
    #: §1.2: a world on a roll of 1 up to this on a d6.
    world_on: int = 3
    #: §2.2: a d3 plus this many additional worlds.
    extra_worlds: int = 4

    @classmethod
    def from_dict(cls, values: dict[str, int]) -> MapOptions:
        """Options from ``campaign.yaml``'s ``setup.options``; :class:`SetupError` names the
        bad one."""
        for name, value in values.items():
            if name not in OPTION_LIMITS:
                raise SetupError(f"unknown option {name!r}; expected "
                                 f"{', '.join(OPTION_LIMITS)}")
            low, high = OPTION_LIMITS[name]
            if not low <= value <= high:
                raise SetupError(f"option {name} is {value}; expected {low} to {high}")
        return cls(**values)

    def as_dict(self) -> dict[str, int]:
        return {"radius": self.radius, "world_on": self.world_on,
                "extra_worlds": self.extra_worlds}


#: The range each option may take.
OPTION_LIMITS = {"radius": (1, 20), "world_on": (1, 6), "extra_worlds": (0, 20)}


# --- events: what happened, for the log -------------------------------------------------

@dataclass(frozen=True, slots=True)
class StubRolled:
    """§1.3: a route stub's direction, and what lay that way."""

    world: Hex
    direction: int
    #: The world it links to, or None if it had to be rolled again.
    target: Hex | None
    why: str = ""


@dataclass(frozen=True, slots=True)
class StubAbandoned:
    """§1.3: no side of this world can carry a stub."""

    world: Hex


@dataclass(frozen=True, slots=True)
class StartRolled:
    """§2.1."""

    player: str
    roll: int
    sides: int
    world: Hex


@dataclass(frozen=True, slots=True)
class ExtraRolled:
    """§2.2: d3 + N additional worlds."""

    player: str
    roll: int
    worlds: int


@dataclass(frozen=True, slots=True)
class ClaimRolled:
    """§2.2: a claim direction from a world, and the world it took (or None: roll again)."""

    player: str
    origin: Hex
    direction: int
    world: Hex | None


@dataclass(frozen=True, slots=True)
class ClaimsExhausted:
    """§2.3: no unclaimed worlds are left for a player still owed some."""

    player: str
    short: int


@dataclass(frozen=True, slots=True)
class IncomeRolled:
    """§3.2: 3d5 × 10."""

    world: Hex
    dice: tuple[int, ...]
    income: int


Event = (StubRolled | StubAbandoned | StartRolled | ExtraRolled | ClaimRolled
         | ClaimsExhausted | IncomeRolled)


@dataclass(frozen=True, slots=True)
class GeneratedMap:
    """The map as rolled, everything by hex."""

    options: MapOptions
    worlds: tuple[Hex, ...]  # in map order
    routes: tuple[tuple[tuple[Hex, Hex], ...], ...]  # each route's links
    owners: dict[Hex, str]
    capitals: dict[str, Hex]
    #: Each player's worlds in the order they were claimed, capital first.
    holdings: dict[str, tuple[Hex, ...]]
    incomes: dict[Hex, int]
    events: tuple[Event, ...] = field(default=())


# --- §1 strategic space ---------------------------------------------------------------

def place_worlds(dice: Dice, options: MapOptions) -> tuple[tuple[Hex, ...], tuple[Hex, ...]]:
    """§1.1–1.2: a d6 for every hex of the hexagon, in map order; a world on 1
    to ``world_on``. Returns the worlds, and those on a charted route (a roll of
    1, reading ``route-on-world-roll-of-1``)."""
    worlds, on_route = [], []
    for h in hexagon(options.radius):
        roll = dice.d6(f"world in hex {h}", "ftc2007 §1.2")
        if roll <= options.world_on:
            worlds.append(h)
            if roll == 1:
                on_route.append(h)
    return tuple(worlds), tuple(on_route)


def chart_routes(dice: Dice, worlds: Sequence[Hex], on_route: Sequence[Hex],
                 options: MapOptions,
                 events: list[Event]) -> tuple[tuple[tuple[Hex, Hex], ...], ...]:
    """§1.3: roll each route world's stub direction and link the stubs up into routes.

    Reading ``stubs-after-placement`` (the ruleset's readings).
    """
    links: list[tuple[Hex, Hex]] = []
    for world in on_route:
        targets = {d: _stub_target(world, d, worlds, options) for d in DIRECTION_NAMES}
        if not any(targets.values()):
            events.append(StubAbandoned(world))
            continue
        while True:
            d = dice.d6(f"route stub direction from {world}", "ftc2007 §1.3")
            target = targets[d]
            if target is not None:
                events.append(StubRolled(world, d, target))
                links.append((world, target))
                break
            off = not on_map(world.step(d), options.radius)
            events.append(StubRolled(world, d, None, "off the map" if off
                                     else f"no world within {STUB_REACH} hexes"))
    return link_up(links)


def _stub_target(world: Hex, direction: int, worlds: Sequence[Hex],
                 options: MapOptions) -> Hex | None:
    if not on_map(world.step(direction), options.radius):
        return None
    others = (w for w in worlds if w != world)
    return nearest_in_direction(world, direction, others, within=STUB_REACH)


def link_up(stubs: Sequence[tuple[Hex, Hex]]) -> tuple[tuple[tuple[Hex, Hex], ...], ...]:
    """§1.3: stubs → routes (reading ``routes-are-connected-links``): each link written
    west-to-east (lower hex first), links in order, routes in the order of
    their first link.

    Reading ``stub-off-edge-is-first-step`` (the ruleset's readings).
    """
    links = sorted({(min(a, b), max(a, b)) for a, b in stubs})
    route_of: dict[Hex, int] = {}
    routes: list[list[tuple[Hex, Hex]]] = []
    for a, b in links:
        ra, rb = route_of.get(a), route_of.get(b)
        if ra is None and rb is None:
            routes.append([(a, b)])
            route_of[a] = route_of[b] = len(routes) - 1
        elif ra is not None and rb is not None and ra != rb:
            keep, gone = min(ra, rb), max(ra, rb)
            routes[keep].extend(routes[gone])
            routes[gone] = []
            for h, r in route_of.items():
                if r == gone:
                    route_of[h] = keep
            routes[keep].append((a, b))
        else:  # one end on a route already, or both on the same one
            on = ra if ra is not None else rb
            assert on is not None
            routes[on].append((a, b))
            route_of[a] = route_of[b] = on
    return tuple(tuple(sorted(r)) for r in routes if r)


# --- §2 player worlds -----------------------------------------------------------------

def claim_worlds(dice: Dice, players: Sequence[str], worlds: Sequence[Hex],
                 options: MapOptions, events: list[Event]) -> dict[str, list[Hex]]:  # §2
    """Starting worlds (§2.1), then additional worlds claimed in turn (§2.2–2.3).

    Readings ``claim-from-capital``, ``start-by-die-over-free-worlds`` (the ruleset's readings).
    """
    held: dict[str, list[Hex]] = {}
    taken: set[Hex] = set()
    for player in players:
        free = [w for w in worlds if w not in taken]
        if not free:
            raise SetupError(f"the map has {len(worlds)} worlds, too few for "
                           f"{len(players)} players")
        roll = dice.roll(len(free), f"starting world for {player}", "ftc2007 §2.1")
        held[player] = [free[roll - 1]]
        taken.add(free[roll - 1])
        events.append(StartRolled(player, roll, len(free), free[roll - 1]))
    owed = {}
    for player in players:
        roll = dice.d3(f"additional worlds for {player}", "ftc2007 §2.2")
        owed[player] = roll + options.extra_worlds
        events.append(ExtraRolled(player, roll, owed[player]))
    while any(owed.values()):
        for player in players:
            if not owed[player]:
                continue
            free = [w for w in worlds if w not in taken]
            if not free:
                events.append(ClaimsExhausted(player, owed[player]))
                owed[player] = 0
                continue
            origin = held[player][0]
            while True:
                d = dice.d6(f"claim direction for {player} from {origin}", "ftc2007 §2.2")
                world = nearest_in_direction(origin, d, free)
                events.append(ClaimRolled(player, origin, d, world))
                if world is not None:
                    break
            held[player].append(world)
            taken.add(world)
            owed[player] -= 1
    return held


# --- §3 player world income -----------------------------------------------------------

def player_income(dice: Dice, held: dict[str, list[Hex]],
                  events: list[Event]) -> dict[Hex, int]:
    """§3.2: 3d5 × 10 for each player world, player by player, capital first.
    Neutral worlds are not rolled for until scouted or attacked (§4.2)."""
    incomes = {}
    for player, worlds in held.items():
        for world in worlds:
            rolls = tuple(dice.d5(f"income of {player} world {world} ({i} of 3)",
                                  "ftc2007 §3.2") for i in (1, 2, 3))
            incomes[world] = sum(rolls) * 10
            events.append(IncomeRolled(world, rolls, incomes[world]))
    return incomes


def generate(dice: Dice, players: Sequence[str], options: MapOptions) -> GeneratedMap:
    """The whole of §1–§3, in the order the rules give."""
    events: list[Event] = []
    worlds, on_route = place_worlds(dice, options)
    routes = chart_routes(dice, worlds, on_route, options, events)
    held = claim_worlds(dice, players, worlds, options, events)
    incomes = player_income(dice, held, events)
    owners = {w: p for p, ws in held.items() for w in ws}
    return GeneratedMap(options, worlds, routes, owners, {p: ws[0] for p, ws in held.items()},
                        {p: tuple(ws) for p, ws in held.items()}, incomes, tuple(events))
