"""What ftc2007 requires of any state, beyond what the state model checks."""

from __future__ import annotations

from ftpress.errors import Problem
from ftpress.rules.campaign_setup import option_problems
from ftpress.rules.ftc2007.catalogue import catalogue
from ftpress.rules.ftc2007.mapgen import MapOptions
from ftpress.rules.ftc2007.setup import SHIP_CAP, spending
from ftpress.rules.ftc2007.state_ext import (
    ally_of,
    defence_works,
    interdictor,
    owed_by,
    spares_of,
)
from ftpress.rules.hex_map import hex_map_problems
from ftpress.state.load import LoadedState

#: §15.2 lists the capital units as BB, SDN, CVA, CVH and CVL. Ruling (the
#: ruleset's rulebook, 15.2): the battle dreadnought and the dreadnought count
#: too, being bigger than the BB and smaller than the SDN the list includes.
CAPITAL_SIZES = frozenset({"BB", "BDN", "DN", "SDN", "CVA", "CVH", "CVL"})


def check_state(loaded: LoadedState) -> list[Problem]:
    """Every ftc2007 problem with a loaded state, located."""
    problems: list[Problem] = []
    problems += setup_options(loaded)
    problems += hex_map_problems(loaded, "ftc2007")
    problems += navies(loaded)
    problems += incomes(loaded)
    problems += dummy_counters(loaded)
    problems += interdictions(loaded)
    problems += owed_damage(loaded)
    problems += spares_and_defence_works(loaded)
    # Only the full state adds up a power's setup: a known state (ftpress.secrecy.knowledge)
    # holds others' forces as counters.
    if loaded.state.campaign.calendar.turn == 1 and loaded.state.campaign.known_to is None:
        problems += starting_forces(loaded)
    return problems


def interdictions(loaded: LoadedState) -> list[Problem]:
    """§10.6: a world is interdicted by a player, and never by its own owner."""
    players = sorted(p.id for p in loaded.state.players.players)
    problems = []
    for i, s in enumerate(loaded.state.map.systems):
        by = interdictor(s)
        if by is None:
            continue
        where = loaded.where("map", "systems", i, "interdicted_by")
        if by not in players:
            problems.append(Problem(*where, f"unknown player {by!r}; expected one of the "
                                    f"players in players.yaml: {', '.join(players) or '(none)'}"))
        elif by == s.owner:
            problems.append(Problem(*where, "a world cannot be interdicted by its own owner"))
    return problems


def owed_damage(loaded: LoadedState) -> list[Problem]:
    """§10.7: repulse damage is owed from a world on the map, by ships of the player's
    own afloat (a ship lost owes nothing, so the engine never writes one)."""
    state = loaded.state
    problems = []
    for i, player in enumerate(state.players.players):
        afloat = {s.name for g in state.groups_of(player.id) for s in g.ships}
        for j, debt in enumerate(owed_by(player)):
            if state.system(debt.world) is None:
                problems.append(Problem(*loaded.where("players", "players", i, "owed", j,
                                                      "world"),
                                        f"there is no world {debt.world!r} on the map; "
                                        "expected the world whose defences threw the fleet "
                                        "back"))
            for k, name in enumerate(debt.ships):
                if name not in afloat:
                    problems.append(Problem(*loaded.where("players", "players", i, "owed", j,
                                                          "ships", k),
                                            f"{player.id!r} has no ship named {name!r} afloat; "
                                            "expected the ships of the attack still in its "
                                            "groups"))
    return problems


def spares_and_defence_works(loaded: LoadedState) -> list[Problem]:
    """§6.2.1 and §10.5: spares and defence works, one entry per world each, belong to a
    player and stand at a world that player holds; spares hold no more than the level
    set at setup."""
    state = loaded.state
    players = sorted(p.id for p in state.players.players)
    problems: list[Problem] = []

    def at_own_world(key: str, i: int, field: str, owner: str, world_id: str) -> None:
        if owner not in players:
            problems.append(Problem(*loaded.where("queues", key, i, "owner"),
                                    f"unknown owner {owner!r}; expected one of the players "
                                    f"in players.yaml: {', '.join(players) or '(none)'}"))
        world = state.system(world_id)
        if world is None:
            problems.append(Problem(*loaded.where("queues", key, i, field),
                                    f"unknown system {world_id!r}; expected a system id from "
                                    "map.yaml"))
        elif world.owner != owner:
            held = f"held by {world.owner!r}" if world.owner else "neutral"
            problems.append(Problem(*loaded.where("queues", key, i, field),
                                    f"{world_id!r} is {held}; expected a world held by "
                                    f"{owner!r}"))

    places: set[tuple[str, str]] = set()
    for i, spares in enumerate(spares_of(state)):
        at_own_world("spares", i, "at", spares.owner, spares.at)
        if spares.stock > spares.level:
            problems.append(Problem(*loaded.where("queues", "spares", i, "stock"),
                                    f"stock {spares.stock} is more than the level "
                                    f"{spares.level} set at setup"))
        if (spares.owner, spares.at) in places:
            problems.append(Problem(*loaded.where("queues", "spares", i, "at"),
                                    f"{spares.owner!r} already has spares at {spares.at!r}; "
                                    "one entry per world"))
        places.add((spares.owner, spares.at))
    rebuilding: set[str] = set()
    for i, work in enumerate(defence_works(state)):
        at_own_world("defences", i, "system", work.owner, work.system)
        if work.system in rebuilding:
            problems.append(Problem(*loaded.where("queues", "defences", i, "system"),
                                    f"defences at {work.system!r} are already being rebuilt; "
                                    "one entry per world"))
        rebuilding.add(work.system)
    return problems


def setup_options(loaded: LoadedState) -> list[Problem]:
    """The options the map was made with are ones ``ftpress init`` takes."""
    return option_problems(loaded, MapOptions.from_dict)


def navies(loaded: LoadedState) -> list[Problem]:
    """Navies and allies are the catalogue's; an ally is of the same species (§13.1)."""
    cat = catalogue()
    known = ", ".join(n.id for n in cat.navies)
    problems = []
    for i, p in enumerate(loaded.state.players.players):
        for name, value in (("navy", p.navy), ("ally", ally_of(p))):
            if value is not None and cat.navy(value) is None:
                problems.append(Problem(*loaded.where("players", "players", i, name),
                                        f"unknown navy {value!r}; expected one of {known}"))
        if ally_of(p) is not None and ally_of(p) == p.navy:
            problems.append(Problem(*loaded.where("players", "players", i, "ally"),
                                    f"ally {ally_of(p)!r} is the player's own navy; an ally "
                                    "is another navy"))
        own, ally = cat.navy(p.navy or ""), cat.navy(ally_of(p) or "")
        if own and ally and own.species != ally.species:
            problems.append(Problem(*loaded.where("players", "players", i, "ally"),
                                    f"{ally.name} are not of {own.name}'s species; an ally is "
                                    "a navy of your own species (§13.1)"))
    for i, d in enumerate(loaded.state.designs.designs):
        if cat.navy(d.navy) is None:
            problems.append(Problem(*loaded.where("designs", "designs", i, "navy"),
                                    f"unknown navy {d.navy!r}; expected one of {known}"))
    return problems


def incomes(loaded: LoadedState) -> list[Problem]:
    """Incomes are tens: 3d5 × 10 (§3.2), 2d6 or 3d6 × 10 or nothing (§4.1)."""
    return [Problem(*loaded.where("map", "systems", i, "income"), f"income {s.income} is "
                    "not a multiple of 10; incomes are dice × 10 (§3.2, §4.1)")
            for i, s in enumerate(loaded.state.map.systems)
            if s.income is not None and s.income % 10]


def dummy_counters(loaded: LoadedState) -> list[Problem]:
    """§15.2: one dummy counter per capital ship a player has, no more."""
    state = loaded.state
    problems = []
    for player in state.players.players:
        capitals = sum(1 for g in state.groups_of(player.id) for s in g.ships
                       if (d := state.design(s.design)) and d.size in CAPITAL_SIZES)
        dummies = [i for i, g in enumerate(state.groups.groups)
                   if g.owner == player.id and g.dummy]
        if len(dummies) > capitals:
            index = dummies[capitals]
            problems.append(Problem(*loaded.where("groups", "groups", index, "dummy"),
                                    f"{player.id!r} has {len(dummies)} dummy counters but "
                                    f"{capitals} capital ship{'s' if capitals != 1 else ''}; "
                                    "one dummy per capital ship (§15.2)"))
    return problems


def starting_forces(loaded: LoadedState) -> list[Problem]:
    """§6.1: at setup, at most 4,000 on ships; §6.2: the capital all accounted for."""
    problems = []
    for i, player in enumerate(loaded.state.players.players):
        if loaded.state.system(player.capital) is None:
            continue  # already reported: an unknown capital
        spent = spending(loaded.state, player.id)
        # Located only for a problem: a file kept from an earlier load is parsed again
        # to find a line.
        if spent.ships > SHIP_CAP:
            problems.append(Problem(*loaded.where("players", "players", i, "treasury"),
                                    f"{player.id!r} spent {spent.ships:,} on ships at "
                                    f"setup; at most {SHIP_CAP:,} may go on ships (§6.1)"))
        if spent.unaccounted:
            problems.append(Problem(*loaded.where("players", "players", i, "treasury"),
                                    _unaccounted(player.id, spent.treasury, spent.unaccounted,
                                                 spent.capital)))
    return problems


def _unaccounted(player: str, treasury: int, gap: int, capital: int) -> str:
    should = treasury + gap
    return (f"treasury {treasury:,} does not add up: {player!r} started with {capital:,} "
            f"(§6.1), so after ships, freighters, defences and spares the treasury should be "
            f"{should:,}" + ("; the purchases cost more than the capital" if should < 0 else ""))
