"""A new sct campaign: a planar map of systems rolled from a seed, and each
player's starting forces.

The seed describes a map that is given, not how to make one; every number
here is ftpress's choice, named below, so that ``ftpress init --ruleset sct``
gives a campaign to start from. The umpire may edit the state before turn 1.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime

from ftpress.errors import SetupError
from ftpress.rules.campaign_setup import PALETTE, option_values, setup_dice, slug
from ftpress.rules.sct.catalogue import catalogue
from ftpress.rules.sct.plan import FORCES_ARE_PUBLIC
from ftpress.rules.sct.state_ext import SctSystem, Spectral, of_system
from ftpress.rules.sct.supply import MILITARY_ENDURANCE
from ftpress.state.dice import Dice
from ftpress.state.model import (
    Calendar,
    CampaignFile,
    DesignsFile,
    Group,
    GroupsFile,
    MapFile,
    Player,
    PlayersFile,
    Point,
    QueuesFile,
    Setup,
    Ship,
    State,
    System,
)
from ftpress.text.names import world_names

RULE = "sct setup"

#: House options of ``ftpress init --ruleset sct``: name → (default, least, most).
#: ``radius``: MU from the centre to each edge; ``systems``: systems per player.
OPTION_LIMITS: dict[str, tuple[int, int, int]] = {"radius": (12, 6, 40),
                                                  "systems": (5, 2, 12)}

#: A home system's EV and installations: a depot, a base and a shipyard (§7).
HOME_EV = 400
#: Any other system's EV: this many MUCr times 2d6 (50 to 300).
EV_STEP = 25
#: Home systems stand on a circle this fraction of the radius from the centre.
HOME_RING = 0.7
#: Systems are at least this many MU apart (re-rolled until they are).
SPACING = 2
#: Spectral classes by a d6 (the outer ring of §7.1), cool stars commonest.
SPECTRAL: dict[int, Spectral] = {1: "M", 2: "M", 3: "K", 4: "G", 5: "F", 6: "A"}
#: The starting task force of every player, by size class: the first design of
#: that class in the player's navy (the seed gives no starting forces).
STARTING_FORCE = ("BC", "CL", "DD", "DD", "FF")
#: What ``ftpress init`` tells the umpire to tell the players: the starting forces
#: are given (the rulebook's reading of the seed, rule 1.1), so turn 1 is ordinary.
FIRST_ORDERS = (
    "Each player starts with one task force at its home system (rule 1.1 says what, and "
    "why); from turn t001 each player runs 'ftpress orders new PLAYER', edits "
    "orders/t001/PLAYER.yaml, checks it with 'ftpress check PATH' and sends it by pull "
    "request.")
#: sct systems have no inherent defence points (their defences are bases, §7.3);
#: the shared state records that as 0.
NO_IDP = 0


@dataclass(frozen=True, slots=True)
class Options:
    radius: int
    systems: int

    @classmethod
    def from_dict(cls, given: Mapping[str, int]) -> Options:
        return cls(**option_values(OPTION_LIMITS, given))

    def as_dict(self) -> dict[str, int]:
        return {"radius": self.radius, "systems": self.systems}


def _spot(dice: Dice, radius: int, taken: list[Point], purpose: str) -> Point | None:
    """A whole-MU spot on the map at least :data:`SPACING` from every other."""
    for attempt in range(1, 51):
        x = dice.roll(2 * radius + 1, f"{purpose}: x (try {attempt})", RULE) - radius - 1
        y = dice.roll(2 * radius + 1, f"{purpose}: y (try {attempt})", RULE) - radius - 1
        spot = Point(x, y)
        if all(math.hypot(x - p.x, y - p.y) >= SPACING for p in taken):
            return spot
    return None


def build(seed: int, players: tuple[str, ...], options: Options, *, campaign_id: str,
          name: str, start: date, deadline: datetime) -> tuple[State, Dice]:
    """The starting state a seed gives, and the dice that made it."""
    dice = setup_dice("sct", seed)
    radius = options.radius
    homes = []
    for i, _player in enumerate(players):
        angle = 2 * math.pi * i / len(players)
        homes.append(Point(round(radius * HOME_RING * math.sin(angle)),
                           round(radius * HOME_RING * math.cos(angle))))
    spots = list(homes)
    for n in range(options.systems * len(players) - len(players)):
        spot = _spot(dice, radius, spots, f"system {n + 1}")
        if spot is None:
            raise SetupError(f"no room for {options.systems} systems a player on a radius-"
                             f"{radius} map; choose a larger radius or fewer systems")
        spots.append(spot)
    names = world_names(seed, len(spots))
    systems = []
    owners: dict[str, str] = {}
    for i, (spot, world) in enumerate(zip(spots, names, strict=True)):
        nearest = min(range(len(players)),
                      key=lambda k: (math.hypot(spot.x - homes[k].x, spot.y - homes[k].y), k))
        owner = players[nearest]
        z = dice.d6(f"{world}: z-coordinate", RULE) - 3
        spectral = SPECTRAL[dice.d6(f"{world}: spectral class", RULE)]
        home = i < len(players)
        ev = HOME_EV if home else EV_STEP * dice.total(2, 6, f"{world}: EV", RULE)
        system_id = slug(world)
        owners[system_id] = owner
        systems.append(System(id=system_id, name=world, owner=owner, income=ev, idp=NO_IDP,
                              depot=home, base=home, shipyard=home,
                              ext=SctSystem(position=Point(spot.x, spot.y, z),
                                            spectral=spectral, nation=owner)))
    cat = catalogue()
    fallback = [n.id for n in cat.navies]
    player_list, groups, designs = [], [], {}
    for i, player_id in enumerate(players):
        navy = cat.navy(player_id) or cat.navy(fallback[i % len(fallback)])
        assert navy is not None
        capital = systems[i].id
        player_list.append(Player(id=player_id, name=navy.name if cat.navy(player_id)
                                  else player_id.upper(), colour=PALETTE[i % len(PALETTE)],
                                  treasury=0, capital=capital, navy=navy.id))
        ships = []
        for n, size in enumerate(STARTING_FORCE, start=1):
            design = next((d for d in cat.of_navy(navy.id) if d.size == size), None)
            if design is None:
                continue
            designs[design.id] = design
            ships.append(Ship(f"{design.name} {n}", design.id))
        for design in cat.of_navy(navy.id):
            designs.setdefault(design.id, design)
        groups.append(Group(f"{player_id}-tf1", player_id, capital, tuple(ships),
                            revealed=FORCES_ARE_PUBLIC, endurance=MILITARY_ENDURANCE))
    campaign = CampaignFile(
        id=campaign_id, name=name, ruleset="sct",
        calendar=Calendar(start=start, turn=1, economic_turn=1, deadline=deadline,
                          turns_per_economic_turn=1),
        setup=Setup(seed=seed, options=options.as_dict()))
    ordered = tuple(sorted(designs.values(), key=lambda d: (d.navy, d.points, d.id)))
    state = State(campaign, PlayersFile(tuple(player_list)),
                  MapFile(radius, tuple(systems), geometry="plane"),
                  DesignsFile(ordered), GroupsFile(tuple(groups)), QueuesFile())
    return state, dice


def setup_post(state: State) -> tuple[str, str, str]:
    """The first status post: title, summary and a Markdown table of the map."""
    lines = ["The map of the campaign, as rolled. Positions are in MU from the centre; "
             "z is shown inside each star's symbol.", "",
             "| System | Position | z | Star | EV | Held by | Installations |",
             "|---|---|---|---|---|---|---|"]
    for s in state.map.systems:
        sct = of_system(s)
        assert sct.position is not None
        works = ", ".join(k for k in ("depot", "base", "shipyard") if getattr(s, k)) or "—"
        lines.append(f"| {s.name} | ({sct.position.x}, {sct.position.y}) | {sct.position.z} | "
                     f"{sct.spectral} | {s.income} | {s.owner or '—'} | {works} |")
    lines += ["", "Each player starts with one task force at the home system:"]
    for g in state.groups.groups:
        lines.append(f"- **{g.id}** ({g.owner}): " + ", ".join(s.name for s in g.ships))
    summary = (f"{len(state.map.systems)} systems for {len(state.players.players)} players "
               f"on a map {2 * state.map.radius} MU across.")
    return "The map is drawn", summary, "\n".join(lines) + "\n"
