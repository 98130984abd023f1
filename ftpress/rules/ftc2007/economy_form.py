"""The economic orders of a week as the "Your view" form offers them (§5.2): the items
a player may add under ``economy:``, each field's options those this ruleset's own
check accepts (the functions :mod:`.economic_legality` runs), each priced as the turn
will price it, with the sums that keep a combination legal (a world's spares up to
their level, one rebuilding of a world's defences, a ship's boxes up to her damage).

In the first week of an economic turn (§5.2): the maintenance level (§7), and from
economic turn 2 on, when reserve cash may be spent (§6.3), purchases (§13.1), spares
(§6.2.1), rebuilt defences (§10.5), repulse damage owed repaired (§10.8) and the
ordnance (§7.1) or biomass (§11.5) expended paid for; in any economic turn's first week,
what to do with each prize (§12.2, :mod:`.salvage_form`). In any week from economic
turn 2: keels laid (§13.1) or changed (§13.2), and repairs (§11), with new parts or
another ship's (:mod:`.salvage_form`). What is left out is said (:data:`BY_HAND`).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from ftpress.rules.choices import Amount, Choice, Field, ItemChoices, ItemKind, Limit, Section
from ftpress.rules.ftc2007.catalogue import catalogue
from ftpress.rules.ftc2007.construction import (
    KEEL_WORK_PER_WEEK,
    change_price,
    change_problem,
    keel_problem,
    own_navy,
    purchase_price,
    purchase_problem,
)
from ftpress.rules.ftc2007.economic_legality import (
    LOOSE_CASH_FROM_ECONOMIC_TURN,
    economy_rejections,
)
from ftpress.rules.ftc2007.orderfile import (
    DefenceOrder,
    EconomyOrders,
    KeelChangeOrder,
    KeelOrder,
    OrdersFile,
    PurchaseOrder,
    RepairOrder,
    SparesOrder,
)
from ftpress.rules.ftc2007.orders import economic_week
from ftpress.rules.ftc2007.owed_repairs import owed_repair_problem
from ftpress.rules.ftc2007.rebuilding import DEFENCE_POINT_COST, defence_problem
from ftpress.rules.ftc2007.repairs import repair_cost, repair_problem
from ftpress.rules.ftc2007.salvage_form import boxes_sum, parts_kind, prize_kinds
from ftpress.rules.ftc2007.spares import SPARES_PRICE, spares_at, spares_problem
from ftpress.rules.ftc2007.state_ext import ally_of, owed_of
from ftpress.rules.ftc2007.technology import build_price
from ftpress.rules.ftc2007.upkeep import (
    EXPENDED_BIOMASS_BOX_COST,
    ORDNANCE_RATE,
    standardised_problem,
)
from ftpress.state.model import Design, Player, State, System
from ftpress.state.turns import turn_id

#: The sum of the money the week's orders spend.
SPENT = "spent"
#: What the form leaves to be written by hand, in words.
BY_HAND = ("refits (§19.1, §19.2, §19.6): ftpress cannot price or make them, so its check "
           "refuses every one; ask the umpire",
           "two new ships of one name, and a name already in use: the check finds them, "
           "not this page",
           "spares used by two repairs at one world: the money shown counts them for each",
           "parts from a prize stripped by this week's own orders: the page offers only "
           "prizes stripped already (§12.2.2)")
#: The economic orders written as one line under ``economy:`` (a key and its value).
_SCALARS = ("maintenance", "ordnance", "biomass")
#: A name the check accepts, standing for the one the player gives (checked apart).
_ANY_NAME = "x"


def economy_choices(state: State, player: Player) -> ItemChoices | None:
    """The items the week's economy may hold for ``player``, or None where it holds
    none."""
    cal = state.campaign.calendar
    econ = economic_week(state)
    spending = cal.economic_turn >= LOOSE_CASH_FROM_ECONOMIC_TURN
    mine = tuple(s for s in state.map.systems if s.owner == player.id)
    kinds: list[ItemKind] = []
    limits: list[Limit] = []
    if econ:
        kinds.append(_maintenance(state, player))
        limits.append(Limit("maintenance", "Maintenance levels given", most=1, always=False,
                            why="one level for the economic turn (§7)"))
    if spending and econ:
        more, more_limits = _bills(state, player)
        kinds += more
        limits += more_limits
        kinds += _purchases(state, player, mine)
        spares, spare_limits = _spares(state, player, mine)
        defences, defence_limits = _defences(state, player, mine)
        kinds += spares + defences
        limits += spare_limits + defence_limits
    if spending:
        kinds += _keels(state, player, mine)
        changes, change_limits = _changes(state, player)
        repairs, repair_limits = _repairs(state, player)
        parts, parts_limits = parts_kind(state, player)
        kinds += changes + repairs + parts
        limits += change_limits + repair_limits + parts_limits
    if spending and econ:
        owed, owed_limits = _owed(state, player)
        kinds += owed
        limits += owed_limits
    if econ:
        prizes, prize_limits = prize_kinds(state, player)
        kinds += prizes
        limits += prize_limits
    if not kinds:
        return None
    limits.insert(0, Limit(SPENT, "Spent this week", most=player.treasury, blocks=False,
                           why="the treasury now; what it cannot pay when the turn comes to "
                           "an order is left undone (§6.3)"))
    return ItemChoices(
        ("economy:",),
        tuple(Section(kind, "" if kind in _SCALARS else f"  {kind}:", "")
              for kind in (*_SCALARS, "purchases", "keels", "changes", "repairs", "owed",
                           "spares", "defences", "prizes")),
        tuple(kinds), (), "", BY_HAND, tuple(limits))


def world_choice(world: System, player: Player) -> Choice:
    """A world of the player's as a form offers it: its name, its id, and whether it is
    their capital."""
    capital = ", capital" if world.id == player.capital else ""
    return Choice(f"{world.name} ({world.id}{capital})", (world.id,))


def _maintenance(state: State, player: Player) -> ItemKind:
    levels = ("full", "reduced", *(() if standardised_problem(state, player.id)
                                   else ("standardised",)))
    return ItemKind("maintenance", "the maintenance level (§7)", "maintenance",
                    (Field("level", "Level", tuple(Choice(level, (level,))
                                                   for level in levels)),),
                    ("  maintenance: ${level}",), (Amount("maintenance", 1),))


def _purchases(state: State, player: Player, mine: tuple[System, ...]) -> list[ItemKind]:
    """§13.1: a published design of your navy or your ally's, at its price, delivered
    at a world of yours."""
    def problem(design: str, world: str) -> str | None:
        return purchase_problem(state, player, PurchaseOrder(design, world, _ANY_NAME), set())

    designs = [d for d in catalogue().designs if d.navy in (own_navy(player), ally_of(player))]
    return _new_ships(
        "purchase", "a ship bought (§13.1)", "purchases", "Delivered at", designs, mine,
        problem, lambda d: (f"{price:,}", ((SPENT, price),)) if (
            price := purchase_price(player, d)) is not None else None, player)


def _keels(state: State, player: Player, mine: tuple[System, ...]) -> list[ItemKind]:
    """§13.1: a keel of your own navy's design at a world of yours, built 100 points a
    week and paid as it is built."""
    def problem(design: str, world: str) -> str | None:
        return keel_problem(state, player, KeelOrder(design, world, _ANY_NAME), set())

    own = {d.id: d for d in (*catalogue().designs, *state.designs.designs)}
    designs = [d for d in own.values() if d.navy == own_navy(player)]
    return _new_ships(
        "keel", "a keel laid (§13.1)", "keels", "At", designs, mine, problem,
        lambda d: (f"{build_price(d):,} built {KEEL_WORK_PER_WEEK} a week, paid as built",
                   ()), player)


def _new_ships(kind: str, label: str, section: str, at: str, designs: list[Design],
               mine: tuple[System, ...], problem: Callable[[str, str], str | None],
               price: Callable[[Design], tuple[str, tuple[tuple[str, int], ...]] | None],
               player: Player) -> list[ItemKind]:
    """A new ship's item (bought or laid down): the designs the check accepts at one
    world of yours, the worlds it accepts with one of them (the two are judged apart,
    §13.1), each design with its price and what it adds to the sums, and her name."""
    if not mine:
        return []
    designs = [d for d in designs if problem(d.id, mine[0].id) is None]
    if not designs:
        return []
    worlds = tuple(world_choice(w, player) for w in mine if problem(designs[0].id, w.id) is None)
    offered = tuple(Choice(f"{d.name} ({d.id}, {d.size}, {priced[0]})", (d.id,),
                           adds=priced[1]) for d in designs if (priced := price(d)) is not None)
    return [ItemKind(kind, label, section,
                     (Field("design", "Design", offered), Field("world", at, worlds),
                      Field("name", "Her name")),
                     ("    - {design: ${design}, at: ${world}, name: ${name}}",))]


def _repairs(state: State, player: Player) -> tuple[list[ItemKind], list[Limit]]:
    """§11: each damaged ship of yours that may be repaired where she is, a number of
    her lost hull boxes at their price (spares there used first, §11.3.1); her group
    holds while she is in the yard (§11.4)."""
    options, limits = [], []
    for group in state.groups_of(player.id):
        for ship in group.ships:
            found, name = [], json.dumps(ship.name, ensure_ascii=False)
            for boxes in range(1, ship.damage + 1):
                order = RepairOrder(group.id, ship.name, boxes)
                if repair_problem(state, player.id, order, None, False, {}, {}) is not None:
                    continue
                money = repair_cost(state, player.id, order)[0]
                found.append(Choice(
                    f"{ship.name} of {group.id}: {boxes} of {ship.damage} boxes, {money:,}",
                    (f"group: {group.id}, ship: {name}, boxes: {boxes}",),
                    adds=((SPENT, money), (boxes_sum(group, ship), boxes)),
                    holds=(group.id,)))
            if found:
                options += found
                limits.append(Limit(boxes_sum(group, ship),
                                    f"Boxes of {ship.name} ({group.id}) repaired",
                                    most=ship.damage, always=False,
                                    why="no more than she has lost (§11)"))
    if not options:
        return [], []
    return [ItemKind("repair", "a repair (§11)", "repairs",
                     (Field("ship", "Ship and boxes", tuple(options)),),
                     ("    - {${ship}}",))], limits


def _spares(state: State, player: Player, mine: tuple[System, ...]
            ) -> tuple[list[ItemKind], list[Limit]]:
    """§6.2.1: spares topped up where they were placed at the start, up to the level
    set then, at 75% of their points."""
    worlds, limits = [], []
    for world in mine:
        found = spares_at(state, player.id, world.id)
        if found is None or spares_problem(state, player.id, SparesOrder(world.id, 1), 0):
            continue
        worlds.append(world_choice(world, player))
        limits.append(Limit(f"spares-{world.id}", f"Spares added at {world.name}",
                            most=found.level - found.stock - found.arriving, always=False,
                            why=f"up to the level of {found.level} set at the start, less "
                            "what is in stock and arriving (§6.2.1)"))
    if not worlds:
        return [], []
    return [ItemKind("spares", "spares (§6.2.1)", "spares",
                     (Field("world", "At", tuple(worlds)),
                      Field("points", "Points", number=True)),
                     ("    - {at: ${world}, points: ${points}}",),
                     (Amount(SPENT, field="points", rate=(SPARES_PRICE.numerator,
                                                          SPARES_PRICE.denominator)),
                      Amount("spares-${world}", field="points")))], limits


def _defences(state: State, player: Player, mine: tuple[System, ...]
              ) -> tuple[list[ItemKind], list[Limit]]:
    """§10.5: the defence points a world of yours lost, rebuilt at 5 a point, one
    rebuilding at a time."""
    worlds, limits = [], []
    for world in mine:
        if defence_problem(state, player.id, DefenceOrder(world.id, 1)) is not None:
            continue
        lost = (world.full_idp or 0) - (world.idp or 0)
        worlds.append(world_choice(world, player))
        limits += [Limit(f"defence-points-{world.id}", f"Defence points rebuilt at "
                         f"{world.name}", most=lost, always=False,
                         why=f"the {lost} it lost (§10.5)"),
                   Limit(f"defences-{world.id}", f"Rebuildings ordered at {world.name}",
                         most=1, always=False, why="one rebuilding at a time (§10.5)")]
    if not worlds:
        return [], []
    return [ItemKind("defences", "defences rebuilt (§10.5)", "defences",
                     (Field("world", "At", tuple(worlds)),
                      Field("points", "Points", number=True)),
                     ("    - {system: ${world}, points: ${points}}",),
                     (Amount(SPENT, field="points", rate=(DEFENCE_POINT_COST, 1)),
                      Amount("defence-points-${world}", field="points"),
                      Amount("defences-${world}", 1)))], limits


def _changes(state: State, player: Player) -> tuple[list[ItemKind], list[Limit]]:
    """§13.2: each keel of yours on the slips changed to each design the check accepts
    for her (one change a keel a week), with the surcharge the change costs now."""
    options, limits = [], []
    own = {d.id: d for d in (*catalogue().designs, *state.designs.designs)}
    for keel in (k for k in state.queues.keels if k.owner == player.id):
        old = state.design(keel.design)
        found = [d for d in own.values() if old is not None
                 and change_problem(state, player, KeelChangeOrder(keel.name, d.id), set()) is None]
        for new in found:
            assert old is not None
            price = change_price(old, new, keel.built)
            options.append(Choice(
                f"{keel.name} (at {keel.at}) to {new.name} ({new.id}, {new.size})"
                + (f", {price:,} now" if price else ", nothing more now"),
                (f"keel: {json.dumps(keel.name, ensure_ascii=False)}, design: {new.id}",),
                adds=((SPENT, price), (f"change-{keel.name}", 1))))
        if found:
            limits.append(Limit(f"change-{keel.name}", f"Changes to {keel.name}", most=1,
                                always=False, why="one change to a keel a week (§13.2)"))
    if not options:
        return [], []
    return [ItemKind("change", "a keel's design changed (§13.2)", "changes",
                     (Field("keel", "Keel and new design", tuple(options)),),
                     ("    - {${keel}}",))], limits


def _owed(state: State, player: Player) -> tuple[list[ItemKind], list[Limit]]:
    """§10.8: the damage a repulse left owing, from each world the check accepts,
    repaired at its price, once."""
    options, limits = [], []
    for debt in owed_of(state, player.id):
        if owed_repair_problem(state, player.id, debt.world, []) is not None:
            continue
        world = state.system(debt.world)
        options.append(Choice(f"the {debt.boxes} boxes owed from "
                              f"{world.name if world else debt.world}, {debt.cost:,}",
                              (debt.world,), adds=((SPENT, debt.cost),
                                                   (f"owed-{debt.world}", 1))))
        limits.append(Limit(f"owed-{debt.world}", f"Repairs of the damage owed from "
                            f"{debt.world}", most=1, always=False,
                            why="the damage owed is repaired once, all of it (§10.8)"))
    if not options:
        return [], []
    return [ItemKind("owed", "repulse damage owed, repaired (§10.8)", "owed",
                     (Field("world", "From", tuple(options)),), ("    - ${world}",))], limits


def _bills(state: State, player: Player) -> tuple[list[ItemKind], list[Limit]]:
    """§7.1: the build price of the ordnance expended in the economic turn just ended,
    paid at half; §11.5: the biomass a Sa'Vasku navy expended, at a point a box. Each
    once, where the check accepts it."""
    kinds, limits = [], []
    for key, label, rate, rule in (
            ("ordnance", "Build price of the ordnance expended", ORDNANCE_RATE, "§7.1"),
            ("biomass", "Boxes of biomass expended", EXPENDED_BIOMASS_BOX_COST, "§11.5")):
        if _bill_problem(state, player, key):
            continue
        kinds.append(ItemKind(key, f"the {key} expended last economic turn ({rule})", key,
                              (Field("points", label, number=True),), (f"  {key}: ${{points}}",),
                              (Amount(SPENT, field="points",
                                      rate=(int(rate.numerator), int(rate.denominator))),
                               Amount(key, 1))))
        limits.append(Limit(key, f"The {key} bills given", most=1, always=False,
                            why=f"one declaration for the economic turn ({rule})"))
    return kinds, limits


def _bill_problem(state: State, player: Player, key: str) -> bool:
    """Does the check refuse a bill of ``key`` (ordnance, biomass) for ``player``?"""
    economy = EconomyOrders(**{key: 1})  # type: ignore[arg-type]
    orders = OrdersFile(turn_id(state.campaign.calendar.turn), player.id, economy=economy)
    return bool(economy_rejections(state, orders, {}))
