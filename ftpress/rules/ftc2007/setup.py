"""Starting a campaign: the generated map made into a state, and what
starting capital buys (ftc2007 §6)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from ftpress.rules.campaign_setup import PALETTE, setup_dice, slug
from ftpress.rules.ftc2007.catalogue import Navy, catalogue
from ftpress.rules.ftc2007.mapgen import GeneratedMap, MapOptions, generate
from ftpress.rules.ftc2007.spares import SPARES_PRICE
from ftpress.rules.ftc2007.state_ext import spares_of
from ftpress.rules.ftc2007.treasury import charge
from ftpress.state.dice import Dice
from ftpress.state.model import (
    Calendar,
    CampaignFile,
    DesignsFile,
    GroupsFile,
    MapFile,
    Player,
    PlayersFile,
    QueuesFile,
    Route,
    Setup,
    State,
    System,
)
from ftpress.text.names import world_names

#: §6.1: at most this much of the starting capital may go on ships.
SHIP_CAP = 4000


def starting_capital(income: int) -> int:
    """§6.1: ten times the player's total planetary income."""
    return 10 * income


@dataclass(frozen=True, slots=True)
class Spending:  # §6.1–6.2
    """How a player's starting capital was spent at setup."""

    capital: int
    ships: int
    freighters: int
    defences: int
    spares: int
    treasury: int

    @property
    def unaccounted(self) -> int:
        """Capital neither spent nor in the treasury (negative: overspent)."""
        return self.capital - (self.ships + self.freighters + self.defences + self.spares
                               + self.treasury)


def spending(state: State, player_id: str) -> Spending:
    """§6.1–§6.2: ships and freighters (§19.4) by list price, defence points
    bought (IDP above income, §6.2.2), spares at 75% of their level (§6.2.1: the
    level is the installed value they stand for, each depot priced as a top-up of
    it would be), and what is left in the treasury (§6.2.3)."""
    player = state.player(player_id)
    assert player is not None
    worlds = state.worlds_of(player_id)
    ships = freighters = 0
    for group in state.groups_of(player_id):
        for ship in group.ships:
            design = state.design(ship.design)
            if design is None:
                continue
            if design.freighter:
                freighters += design.points
            else:
                ships += design.points
    defences = sum((w.full_idp or 0) - (w.income or 0) for w in worlds)
    spares = sum(charge(s.level, SPARES_PRICE) for s in spares_of(state)
                 if s.owner == player_id)
    capital = starting_capital(sum(w.income or 0 for w in worlds))
    return Spending(capital, ships, freighters, defences, spares, player.treasury)


def build_state(generated: GeneratedMap, *, campaign_id: str, name: str, seed: int,
                start: date, deadline: datetime,
                names: tuple[str, ...] | None = None) -> State:
    """The starting state of a generated map: worlds named (in map order, from
    ``names`` or the seed's names), each player with a navy (:func:`navies_for`) and
    their starting capital in the treasury, nothing yet bought: the set-up turn's
    orders spend it (``setup.forces: orders``, :mod:`.setup_orders`)."""
    names = names or world_names(seed, len(generated.worlds))
    ids = {w: slug(n) for w, n in zip(generated.worlds, names, strict=False)}
    systems = []
    for world, world_name in zip(generated.worlds, names, strict=False):
        income = generated.incomes.get(world)
        systems.append(System(id=ids[world], name=world_name, hex=world,
                              owner=generated.owners.get(world), income=income, idp=income))
    routes = tuple(Route(f"route-{i}", tuple((ids[a], ids[b]) for a, b in links))
                   for i, links in enumerate(generated.routes, start=1))
    navies = navies_for(tuple(generated.holdings))
    players = []
    for i, (player_id, held) in enumerate(generated.holdings.items()):
        navy = navies[player_id]
        income = sum(generated.incomes[w] for w in held)
        players.append(Player(
            id=player_id, name=navy.name if navy.id == player_id else player_id.upper(),
            colour=PALETTE[i % len(PALETTE)], treasury=starting_capital(income),
            capital=ids[generated.capitals[player_id]], navy=navy.id))
    campaign = CampaignFile(
        id=campaign_id, name=name, ruleset="ftc2007",
        calendar=Calendar(start=start, turn=1, economic_turn=1, deadline=deadline),
        setup=Setup(seed=seed, options=generated.options.as_dict(), forces="orders"))
    return State(campaign, PlayersFile(tuple(players)),
                 MapFile(generated.options.radius, tuple(systems), routes),
                 DesignsFile(), GroupsFile(), QueuesFile())


def navies_for(players: tuple[str, ...]) -> dict[str, Navy]:
    """The navy each player builds and buys (§13.1): the catalogue's navy of the
    player's id, or else the first navy of the catalogue no other player has, in
    player order (round again when there are more players than navies)."""
    cat = catalogue()
    found = {p: n for p in players if (n := cat.navy(p)) is not None}
    free = [n for n in cat.navies if n.id not in found] or list(cat.navies)
    for i, player in enumerate(p for p in players if p not in found):
        found[player] = free[i % len(free)]
    return {p: found[p] for p in players}


def roll_up(seed: int, players: tuple[str, ...], options: MapOptions) -> tuple[GeneratedMap, Dice]:
    """The map a seed gives, with the dice that made it."""
    dice = setup_dice("ftc2007", seed)
    return generate(dice, players, options), dice
