"""The set-up turn's orders (§6): what a power's starting capital may buy, vetted.

In a campaign whose ``setup.forces`` is ``orders`` (what ``ftpress init`` makes),
turn 1 is the set-up turn: each player's order file for it has a ``setup:``
block that spends the starting capital. :func:`vet_setup` sorts that block into
what stands and what the rules forbid, each refusal at its place in the file;
``ftpress check`` reports the refusals and the turn leaves them undone (one
function decides both, as :func:`.orders.vet` does for the week's orders).

Spending is weighed in the order the file writes it (as the economy pays,
reading ``spending-in-file-order``): an order that would take the ships
past 4,000 (§6.1) or the spending past the capital (§6.3, no credit) is refused,
and a later, cheaper one may still stand.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from ftpress.orders.load import LoadedOrders
from ftpress.rules.ftc2007.catalogue import catalogue
from ftpress.rules.ftc2007.construction import (
    approval_problem,
    names_in_use,
    own_navy,
    purchase_price,
)
from ftpress.rules.ftc2007.orderfile import (
    DefenceOrder,
    OrdersFile,
    SetupGroup,
    SetupShip,
    SparesOrder,
)
from ftpress.rules.ftc2007.rejection import Rejection
from ftpress.rules.ftc2007.setup import SHIP_CAP
from ftpress.rules.ftc2007.spares import SPARES_PRICE
from ftpress.rules.ftc2007.state_ext import ally_of
from ftpress.rules.ftc2007.state_legality import CAPITAL_SIZES
from ftpress.rules.ftc2007.treasury import charge
from ftpress.rules.suggest import did_you_mean
from ftpress.state.model import Design, Player, State
from ftpress.state.turns import turn_id

#: The strategic turn that is the set-up turn, in a campaign that buys its starting
#: forces by orders: turn 1, so that the calendar's weeks and economic turns (§5)
#: are those of every campaign. The set-up is done before anything else of the
#: week, and the counters it places may be given their week-1 orders in the same file.
SETUP_TURN = 1


def setup_open(state: State) -> bool:
    """Is the open turn the set-up turn of a campaign that buys its forces by orders?"""
    return (state.campaign.setup.forces == "orders"
            and state.campaign.calendar.turn == SETUP_TURN)


@dataclass(frozen=True, slots=True)
class Bought:
    """A ship that stands, with the design she is built to and her price."""

    ship: SetupShip
    design: Design
    price: int
    #: Her place in the file: ``("setup", "groups", <id>, "ships", <n>)``.
    loc: tuple[Hashable, ...]


@dataclass(frozen=True, slots=True)
class Placed:
    """A counter that stands: where it starts and the ships in it (none: a dummy)."""

    id: str
    order: SetupGroup
    ships: tuple[Bought, ...]

    @property
    def dummy(self) -> bool:
        return not self.ships


@dataclass(frozen=True, slots=True)
class SetupVetted:
    """One player's set-up sorted: what stands, in file order, and the refusals."""

    player: str
    designs: tuple[Design, ...]
    groups: tuple[Placed, ...]
    #: (index in the file, order, cost).
    spares: tuple[tuple[int, SparesOrder, int], ...]
    defences: tuple[tuple[int, DefenceOrder], ...]
    rejected: tuple[Rejection, ...]
    capital: int

    @property
    def spent(self) -> int:
        return (sum(b.price for g in self.groups for b in g.ships)
                + sum(cost for _, _, cost in self.spares)
                + sum(o.points for _, o in self.defences))

    @property
    def on_ships(self) -> int:
        return sum(b.price for g in self.groups for b in g.ships if not b.design.freighter)


@dataclass(frozen=True, slots=True)
class _Spending:
    """One spending order of a set-up file, where it is: a ship (of the counter
    ``group``), or spares or defences (``index`` in their list)."""

    loc: tuple[Hashable, ...]
    order: SetupShip | SparesOrder | DefenceOrder
    group: str | None = None
    index: int = 0


def refused_outside_setup(state: State, orders: OrdersFile) -> Rejection | None:
    """A ``setup:`` block in any turn but the set-up turn."""
    if orders.setup is None or setup_open(state):
        return None
    if state.campaign.setup.forces != "orders":
        why = "this campaign's starting forces were placed when it was made"
    else:
        why = f"the set-up turn was {turn_id(SETUP_TURN)}"
    return Rejection(("setup",), f"set-up orders are given only in the set-up turn (§6), "
                     f"and {why}; this is {turn_id(state.campaign.calendar.turn)}", key=True)


def vet_setup(state: State, loaded: LoadedOrders[OrdersFile]) -> SetupVetted:
    """Sort one player's ``setup:`` block (see the module docstring): ships within the
    4,000 (§6.1) and the capital (§6.2), spares (§6.2.1) and defences (§6.2.2) at the
    player's own worlds, dummy counters one per capital ship (§15.2). The player is
    one of the campaign's, and the set-up turn is open.

    Reading ``setup-ships-at-list-price`` (the ruleset's readings).
    """
    orders = loaded.orders
    player = state.player(orders.player)
    assert player is not None and setup_open(state)
    setup = orders.setup
    capital = player.treasury
    if setup is None:
        return SetupVetted(player.id, (), (), (), (), (), capital)
    rejected: list[Rejection] = []
    designs = _designs(state, player, setup.designs, rejected)
    known = {d.id: d for d in designs}
    refused_designs = {d.id for d in setup.designs} - set(known)
    names = names_in_use(state, player.id)
    counters: dict[str, SetupGroup] = {}
    for group_id, group in setup.groups.items():
        problem = _counter_problem(state, player, group_id, group)
        if problem is not None:
            rejected.append(Rejection(("setup", "groups", group_id, *problem[0]), problem[1],
                                      key=not problem[0]))
        else:
            counters[group_id] = group
    # Every spending order, in the order the file writes it.
    items = [_Spending(("setup", "groups", gid, "ships", n), ship, gid)
             for gid, group in counters.items() for n, ship in enumerate(group.ships)]
    items += [_Spending(("setup", "spares", k), o, index=k) for k, o in enumerate(setup.spares)]
    items += [_Spending(("setup", "defences", k), o, index=k)
              for k, o in enumerate(setup.defences)]
    items.sort(key=lambda item: loaded.where(*item.loc)[1:])
    spent = on_ships = 0
    bought: dict[str, list[Bought]] = {gid: [] for gid in counters}
    spares: list[tuple[int, SparesOrder, int]] = []
    defences: list[tuple[int, DefenceOrder]] = []
    for item in items:
        order = item.order
        design = None
        if isinstance(order, SetupShip):
            design = known.get(order.design) or state.design(order.design) or \
                catalogue().design(order.design)
            problem = _ship_problem(player, order, design, names, refused_designs)
            cost = design.points if design is not None else 0
            ship_cost = 0 if design is None or design.freighter else cost
            if problem is None and on_ships + ship_cost > SHIP_CAP:
                problem = ((), f"{order.name} would take the ships bought at set-up to "
                           f"{on_ships + ship_cost:,}; at most {SHIP_CAP:,} may go on "
                           "ships, freighters aside (§6.1, §19.4)")
        elif isinstance(order, SparesOrder):
            cost, ship_cost = charge(order.points, SPARES_PRICE), 0
            problem = _world_problem(state, player, order.at, "spares are placed")
        else:
            cost, ship_cost = order.points, 0
            problem = _world_problem(state, player, order.system, "defences are bought",
                                     key="system")
        if problem is None and spent + cost > capital:
            problem = ((), f"this would take the set-up's spending to {spent + cost:,} of a "
                       f"starting capital of {capital:,}; there is no credit (§6.2, §6.3)")
        if problem is not None:
            rejected.append(Rejection((*item.loc, *problem[0]), problem[1]))
            continue
        spent, on_ships = spent + cost, on_ships + ship_cost
        if isinstance(order, SetupShip):
            assert design is not None and item.group is not None
            names.add(order.name)
            bought[item.group].append(Bought(order, design, cost, item.loc))
        elif isinstance(order, SparesOrder):
            spares.append((item.index, order, cost))
        else:
            defences.append((item.index, order))
    placed = _counters(counters, bought, rejected)
    rejected.sort(key=lambda r: loaded.where(*r.loc, key=r.key)[1:])
    return SetupVetted(player.id, designs, placed, tuple(spares), tuple(defences),
                       tuple(rejected), capital)


def _capital_ships(ships: list[Bought] | tuple[Bought, ...]) -> int:
    """§15.2: how many of ``ships`` are capital units, each bringing a dummy counter."""
    return sum(1 for b in ships if b.design.size in CAPITAL_SIZES)


def _designs(state: State, player: Player, written: tuple[Design, ...],
             rejected: list[Rejection]) -> tuple[Design, ...]:
    """The designs a player adds (§13.1, §16.1): of their own navy, with an id of
    their own; they are standard technology (§16.2: anything else needs the umpires'
    leave, and an umpire enters it in ``designs.yaml``)."""
    taken: set[str] = set()
    found = []
    for i, design in enumerate(written):
        loc: tuple[Hashable, ...] = ("setup", "designs", i)
        if design.navy != own_navy(player):
            rejected.append(Rejection((*loc, "navy"), f"{design.name} is written as a design "
                                      f"of the {design.navy} navy; the designs you add are "
                                      f"of your own, {own_navy(player)} (§13.1)"))
        elif state.design(design.id) or catalogue().design(design.id) or design.id in taken:
            rejected.append(Rejection((*loc, "id"), f"there is a design {design.id!r} "
                                      "already; give yours an id of its own"))
        else:
            taken.add(design.id)
            found.append(design)
    return tuple(found)


def _counter_problem(state: State, player: Player, group_id: str,
                     group: SetupGroup) -> tuple[tuple[Hashable, ...], str] | None:
    """reading ``setup-counters-at-own-worlds``; a counter stands for ships or is a dummy."""
    if not group_id.startswith(f"{player.id}-"):
        return (), (f"a counter's id begins with your player id, such as '{player.id}-1', "
                    "so that no two powers' counters share one")
    if any(g.id == group_id for g in state.groups.groups):
        return (), f"{group_id!r} is a group already; a new counter needs a new id"
    world = _world_problem(state, player, group.at, "counters start")
    if world is not None:
        return ("at",), world[1]
    if group.ships and group.dummy:
        return ("dummy",), ("a dummy counter has no ships (§15.2); leave out 'dummy' or "
                            "the ships")
    if not group.ships and not group.dummy:
        return (), ("a counter stands for at least one ship (§15.2); list its 'ships', or "
                    "write 'dummy: true' for a dummy counter")
    return None


def _ship_problem(player: Player, order: SetupShip, design: Design | None, names: set[str],
                  refused_designs: set[str]) -> tuple[tuple[Hashable, ...], str] | None:
    if design is None and order.design in refused_designs:
        return ("design",), (f"the design {order.design!r} of this file is refused above, "
                             "so no ship is built to it")
    if design is None:
        return ("design",), (f"there is no design {order.design!r} in the catalogue, the "
                             "campaign's designs or this file's 'designs'")
    if purchase_price(player, design) is None:
        ally = f" or your ally's ({ally_of(player)})" if ally_of(player) else ""
        return ("design",), (f"{design.name} ({design.id}) is a {design.navy} design; you "
                             f"buy the designs of your own navy ({own_navy(player)}){ally} "
                             "(§13.1)")
    approval = approval_problem(design)
    if approval is not None:
        return ("design",), approval
    if order.name in names:
        return ("name",), (f"your navy already has a ship named {order.name!r}; give each "
                           "ship a name of her own")
    return None


def _world_problem(state: State, player: Player, world_id: str, what: str,
                   key: str = "at") -> tuple[tuple[Hashable, ...], str] | None:
    world = state.system(world_id)
    if world is None:
        mine = ((s.id, s.name) for s in state.map.systems if s.owner == player.id)
        return (key,), (f"there is no world {world_id!r} on the map"
                        f"{did_you_mean(world_id, mine)}")
    if world.owner != player.id:
        holder = f"held by {world.owner}" if world.owner else "neutral"
        return (key,), f"{world.name} is {holder}; {what} only at your own worlds (§6)"
    return None


def _counters(counters: dict[str, SetupGroup], bought: dict[str, list[Bought]],
              rejected: list[Rejection]) -> tuple[Placed, ...]:
    """The counters that stand: those with a ship bought, and dummies up to one per
    capital ship bought (§15.2)."""
    allowed = _capital_ships([b for ships in bought.values() for b in ships])
    placed = []
    dummies = 0
    for group_id, group in counters.items():
        if group.dummy:
            dummies += 1
            if dummies > allowed:
                sizes = ", ".join(sorted(CAPITAL_SIZES))
                why = (f"the set-up buys no capital ship ({sizes}), so it places no dummy "
                       "counter (§15.2)" if not allowed else
                       f"the set-up buys {allowed} capital ship{'s' if allowed != 1 else ''} "
                       f"({sizes}), so it places at most {allowed} dummy "
                       f"counter{'s' if allowed != 1 else ''}; this is dummy {dummies} (§15.2)")
                rejected.append(Rejection(("setup", "groups", group_id, "dummy"), why))
                continue
        elif not bought[group_id]:
            rejected.append(Rejection(("setup", "groups", group_id), f"{group_id!r} has no "
                                      "ship left once its refused ships are taken out, and "
                                      "a counter other than a dummy stands for a ship (§15.2)",
                                      key=True))
            continue
        placed.append(Placed(group_id, group, tuple(bought[group_id])))
    return tuple(placed)
