"""A new ftcamp02 campaign (``ftpress init --ruleset ftcamp02``).

Seed 002 is one chapter of FTCamp0.2 and has no rules for making a map or
starting forces, so every figure here is an explicit choice of ftpress, named
below and written into the campaign's first status post. The map is rolled
with the seed's dice: home systems evenly round a ring, neutral systems and
dust clouds placed by dice, Biology rates rolled.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from ftpress.rules.campaign_setup import PALETTE, option_values, setup_dice, slug
from ftpress.rules.ftcamp02.groups import designs_of, kind_of, points, store_limit
from ftpress.rules.ftcamp02.state_ext import (
    Ftcamp02Design,
    Ftcamp02Map,
    Ftcamp02System,
    Wormhole,
)
from ftpress.state.dice import Dice
from ftpress.state.hexes import Hex, hexagon, on_map, ring
from ftpress.state.model import (
    Abstract,
    Calendar,
    CampaignFile,
    Design,
    DesignsFile,
    Group,
    GroupsFile,
    MapFile,
    Player,
    PlayersFile,
    QueuesFile,
    Setup,
    Ship,
    State,
    System,
)
from ftpress.text.names import world_names

#: Setup options and their (default, least, most).
OPTION_LIMITS = {"radius": (6, 4, 12), "neutrals": (3, 0, 8), "dust": (4, 0, 12),
                 "wormholes": (1, 0, 4)}

#: Choice: each home system has Biology 20 and loyalty 10 to its player.
HOME_BIO = 20
HOME_LOYALTY = 10
#: Choice: a neutral system's Biology rate is 2d6.
NEUTRAL_BIO_DICE = 2
#: Choice: home systems stand this many hexes in from the map's edge.
HOME_INSET = 2
#: Choice: a wormhole's two ends (§4.1.2) are rolled on hexes without a system, at
#: least the map's radius apart, so that the short cut is worth taking.
WORMHOLE_SPAN = "radius"

_ABSTRACT = Abstract(1, 1, (0, 0), (0, 0))
#: Choice: the starting designs every power may use (points and masses in the usual
#: Full Thrust ranges; classes follow from mass, §5.1.0).
DESIGNS = (
    Design("frigate", "Frigate", "ftcamp", "FF", 20, 68, (2, 2, 2), _ABSTRACT),
    Design("destroyer", "Destroyer", "ftcamp", "DD", 32, 108, (3, 3, 2, 2), _ABSTRACT),
    Design("cruiser", "Cruiser", "ftcamp", "CH", 70, 238, (5, 5, 4, 4), _ABSTRACT,
           ext=Ftcamp02Design(sensors="enhanced")),
    Design("courier", "Courier", "ftcamp", "SC", 10, 30, (1, 1), _ABSTRACT,
           ext=Ftcamp02Design(craft="civilian", sensors="none")),
    Design("tug", "Tug", "ftcamp", "CL", 40, 90, (3, 3, 3), _ABSTRACT,
           ext=Ftcamp02Design(craft="civilian", sensors="none", tug=80, tug_grade="civilian")),
    Design("station", "Orbital station", "ftcamp", "CE", 60, 150, (4, 4, 4), _ABSTRACT,
           ext=Ftcamp02Design(craft="military", ftl=False, main_drive=False)),
)
#: Choice: each power starts with two task forces and a courier at home:
#: (group number, designs).
STARTING_GROUPS = ((1, ("cruiser", "destroyer", "destroyer")),
                   (2, ("frigate", "frigate", "frigate")),
                   (3, ("courier",)))


#: What ``ftpress init`` tells the umpire to tell the players: the starting groups
#: are given (the rulebook's reading of the chapter, rule 1), so round 1 is ordinary.
FIRST_ORDERS = (
    "Each power starts with three groups at its home system (rule 1 says what, and why); "
    "from turn t001 each player runs 'ftpress orders new PLAYER', edits "
    "orders/t001/PLAYER.yaml, checks it with 'ftpress check PATH' and sends it by pull "
    "request.")


@dataclass(frozen=True, slots=True)
class Options:
    radius: int
    neutrals: int
    dust: int
    wormholes: int = 1

    @classmethod
    def from_dict(cls, given: dict[str, int]) -> Options:
        return cls(**option_values(OPTION_LIMITS, given))


def pick(dice: Dice, candidates: list[Hex], purpose: str) -> Hex:
    """One of ``candidates`` (in map order) by a die with as many sides as there are."""
    return candidates[dice.roll(len(candidates), purpose, "ftcamp02 setup") - 1]


def build(seed: int, campaign_id: str, name: str, players: tuple[str, ...], start: date,
          deadline: datetime, options: Options) -> tuple[State, Dice, list[str]]:
    """The starting state, the dice that made it and a line of log per step."""
    dice = setup_dice("ftcamp02", seed)
    log: list[str] = []
    circle = ring(Hex(0, 0), options.radius - HOME_INSET)
    homes = [circle[i * len(circle) // len(players)] for i in range(len(players))]
    taken = set(homes)
    for player, h in zip(players, homes, strict=True):
        log.append(f"{player}'s home system is at {h}, Biology {HOME_BIO}, loyalty "
                   f"{HOME_LOYALTY}.")
    neutrals: list[tuple[Hex, int]] = []
    for i in range(options.neutrals * len(players)):
        free = [h for h in hexagon(options.radius) if on_map(h, options.radius)
                and all(h.distance(t) > 1 for t in taken)]
        if not free:
            log.append("No room is left for more neutral systems.")
            break
        h = pick(dice, free, f"neutral system {i + 1}: its hex")
        bio = dice.total(NEUTRAL_BIO_DICE, 6, f"neutral system {i + 1}: Biology",
                         "ftcamp02 setup")
        taken.add(h)
        neutrals.append((h, bio))
        log.append(f"Neutral system {i + 1} is at {h}, Biology {bio}.")
    dust: list[Hex] = []
    for i in range(options.dust * len(players)):
        free = [h for h in hexagon(options.radius) if h not in taken and h not in dust]
        if not free:
            break
        dust.append(pick(dice, free, f"dust cloud {i + 1}: its hex"))
    if dust:
        log.append(f"Dust clouds fill {len(dust)} hexes: {', '.join(map(str, sorted(dust)))}.")
    holes: list[Wormhole] = []
    for i in range(options.wormholes):
        used = {h for w in holes for h in w.ends}
        free = [h for h in hexagon(options.radius) if h not in taken and h not in used]
        a = pick(dice, free, f"wormhole {i + 1}: one end")
        far = [h for h in free if h.distance(a) >= options.radius]
        if not far:
            break
        b = pick(dice, far, f"wormhole {i + 1}: the other end")
        holes.append(Wormhole(f"w{i + 1}", (a, b)))
        log.append(f"Wormhole {i + 1} joins {a} and {b}.")
    names = world_names(seed, len(homes) + len(neutrals))
    systems = [System(slug(names[i]), names[i], h, owner=p, income=0, idp=0,
                      ext=Ftcamp02System(bio=HOME_BIO, loyalty=HOME_LOYALTY))
               for i, (p, h) in enumerate(zip(players, homes, strict=True))]
    systems += [System(slug(names[len(homes) + i]), names[len(homes) + i], h,
                       ext=Ftcamp02System(bio=bio))
                for i, (h, bio) in enumerate(neutrals)]
    state = State(
        CampaignFile(campaign_id, name, "ftcamp02",
                     Calendar(start=start, turn=1, economic_turn=1, deadline=deadline),
                     Setup(seed=seed, options={"radius": options.radius,
                                               "neutrals": options.neutrals,
                                               "dust": options.dust,
                                               "wormholes": options.wormholes})),
        PlayersFile(tuple(Player(p, p.upper(), PALETTE[i % len(PALETTE)], 0, systems[i].id)
                          for i, p in enumerate(players))),
        MapFile(options.radius, tuple(systems),
                ext=Ftcamp02Map(dust=tuple(sorted(dust)) or None, wormholes=tuple(holes) or None)),
        DesignsFile(DESIGNS), GroupsFile(), QueuesFile())
    groups = []
    for i, p in enumerate(players):
        for number, designs in STARTING_GROUPS:
            ships = tuple(Ship(f"{p.upper()} {d.title()} {number}-{k + 1}", d)
                          for k, d in enumerate(designs))
            group = Group(f"{p}-{number}", p, systems[i].id, ships)
            size = points(designs_of(state, group))
            groups.append(Group(group.id, p, group.at, ships,
                                endurance=store_limit(kind_of(state, group), size)))
    log.append("Each power starts at home with " + "; ".join(
        f"group {n}: {', '.join(d)}" for n, d in STARTING_GROUPS) + ", stores full.")
    return State(state.campaign, state.players, state.map, state.designs,
                 GroupsFile(tuple(groups)), state.queues), dice, log
