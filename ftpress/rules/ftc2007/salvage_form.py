"""What the "Your view" form offers for hulks and parts (ftc2007 §11.3, §12.2): what to
do with each prize the player holds (rebuilt into a group, stripped, sold), and a
repair with the parts of another ship of theirs, or of a stripped prize, at the same
world. Each option is one this ruleset's own check accepts given alone (the functions
:mod:`.economic_legality` and :mod:`.prizes` run), priced as the turn prices it, with
the sums that keep a combination legal: one order a prize, a donor keeping one intact
hull box, a ship's boxes up to her damage (shared with :mod:`.economy_form`'s repairs).
"""

from __future__ import annotations

import json
from typing import Literal

from ftpress.rules.choices import Amount, Choice, Field, ItemKind, Limit
from ftpress.rules.ftc2007.capture import rebuild_premium
from ftpress.rules.ftc2007.orderfile import PrizeOrder, RepairOrder
from ftpress.rules.ftc2007.prizes import prize_rejections, sale_price
from ftpress.rules.ftc2007.repairs import repair_cost, repair_problem
from ftpress.rules.ftc2007.state_ext import Prize, prizes_of
from ftpress.state.model import Group, Player, Ship, State

#: What a prize order does.
Action = Literal["rebuild", "strip", "sell"]
#: The sum of the money the week's orders spend (as :mod:`.economy_form` names it).
SPENT = "spent"


def boxes_sum(group: Group, ship: Ship) -> str:
    """The sum of a ship's hull boxes ordered repaired, whatever the parts."""
    return f"boxes-{group.id}-{ship.name}"


def prize_kinds(state: State, player: Player) -> tuple[list[ItemKind], list[Limit]]:
    """§12.2: for each prize the player holds, each order for it the check accepts:
    sold for scrap at its price (§12.2.3), stripped for parts (§12.2.2), rebuilt
    (§12.2.1) into a real group of theirs where it lies or into a new group named for
    the prize (an id no split of the page takes). One order a prize."""
    kinds, limits = [], []
    for prize in prizes_of(player):
        design = state.design(prize.ship.design)
        assert design is not None
        options = []
        for action, group_id in _prize_orders(state, player, prize):
            order = PrizeOrder(action, group_id)
            if prize_rejections(state, player.id, {prize.id: order}):
                continue
            if action == "sell":
                price = sale_price(design, prize.ship.damage)
                options.append(Choice(f"sell for scrap for {price:,} (§12.2.3)",
                                      ("{action: sell}",)))
            elif action == "strip":
                options.append(Choice("strip for parts (§12.2.2)", ("{action: strip}",)))
            else:
                premium = rebuild_premium(state, player.id, prize)
                new = "" if any(g.id == group_id for g in state.groups.groups) else "a new group "
                options.append(Choice(
                    f"rebuild into {new}{group_id}" + (f", {premium:,} as no ship of her type "
                                                       "is in service" if premium else "")
                    + " (§12.2.1)", (f"{{action: rebuild, group: {group_id}}}",),
                    adds=((SPENT, premium),)))
        if not options:
            continue
        kinds.append(ItemKind(
            f"prize-{prize.id}", f"prize {prize.id}: {prize.ship.name}, a {design.name} with "
            f"{prize.ship.damage} of {design.hull_boxes} hull boxes lost (§12.2)", "prizes",
            (Field("action", "What is done with her", tuple(options)),),
            (f"    {prize.id}: ${{action}}",), (Amount(f"prize-{prize.id}", 1),)))
        limits.append(Limit(f"prize-{prize.id}", f"Orders for prize {prize.id}", most=1,
                            always=False, why="one order a prize (§12.2)"))
    return kinds, limits


def _prize_orders(state: State, player: Player, prize: Prize) -> list[tuple[Action, str | None]]:
    here = state.hex_of(prize.at)
    groups = [g.id for g in state.groups_of(player.id) if not g.dummy
              and state.hex_of(g.at) == here]
    return [("sell", None), ("strip", None), *(("rebuild", g) for g in groups),
            ("rebuild", f"{player.id}-{prize.id}")]


def parts_kind(state: State, player: Player) -> tuple[list[ItemKind], list[Limit]]:
    """§11.3.2, §11.3.3, §12.2.2: a damaged ship of the player's repaired with the parts
    of another of their ships at the same world, or of a prize already stripped there,
    each number of boxes the check accepts, at its price; the donor gives at most all
    but one of her intact boxes over the week's repairs, and the repaired ship's group
    holds (§11.4)."""
    options: list[Choice] = []
    limits: dict[str, Limit] = {}
    for group in state.groups_of(player.id):
        for ship in group.ships:
            for donor, intact in _donors(state, player, group, ship):
                for boxes in range(1, ship.damage + 1):
                    order = RepairOrder(group.id, ship.name, boxes, donor)
                    if repair_problem(state, player.id, order, None, False, {}, {}) is not None:
                        break
                    money = repair_cost(state, player.id, order)[0]
                    name, given = json.dumps(ship.name, ensure_ascii=False), f"parts-{donor}"
                    options.append(Choice(
                        f"{ship.name} of {group.id}: {boxes} of {ship.damage} boxes with "
                        f"parts from {donor}, {money:,}",
                        (f"group: {group.id}, ship: {name}, boxes: {boxes}, parts_from: "
                         f"{json.dumps(donor, ensure_ascii=False)}",),
                        adds=((SPENT, money), (boxes_sum(group, ship), boxes), (given, boxes)),
                        holds=(group.id,)))
                    limits[given] = Limit(given, f"Boxes given as parts by {donor}",
                                          most=intact - 1, always=False,
                                          why=f"she has {intact} intact and keeps one "
                                          "(§11.3.2, §11.3.3)")
    if not options:
        return [], []
    return [ItemKind("repair-parts", "a repair with another ship's parts (§11.3.2, §11.3.3)",
                     "repairs", (Field("ship", "Ship, boxes and donor", tuple(options)),),
                     ("    - {${ship}}",))], list(limits.values())


def _donors(state: State, player: Player, group: Group, ship: Ship) -> list[tuple[str, int]]:
    """The ships of the player's at the same world as ``group`` and the prizes stripped
    there (by id), each with her intact hull boxes."""
    if not ship.damage or not isinstance(group.at, str):
        return []
    here = state.hex_of(group.at)
    found: dict[str, int] = {}
    afloat = [s for g in state.groups_of(player.id) if isinstance(g.at, str)
              and state.hex_of(g.at) == here for s in g.ships if s is not ship]
    hulks = [p for p in prizes_of(player) if p.stripped and state.hex_of(p.at) == here]
    for donor, key in [*((s, s.name) for s in afloat), *((p.ship, p.id) for p in hulks)]:
        design = state.design(donor.design)
        if design is not None and key != ship.name:
            found.setdefault(key, design.hull_boxes - donor.damage)
    return list(found.items())
