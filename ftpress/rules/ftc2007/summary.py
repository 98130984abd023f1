"""What a player's orders will do, in plain words, for ``ftpress check``.

The summary is worked out by the same vetting the turn uses (:mod:`.orders`),
so what it promises is what the turn does, unless other players' moves, an
interdiction or the dice intervene; where they may, it says so.
"""

from __future__ import annotations

from typing import Any

from ftpress.orders.load import LoadedOrders
from ftpress.rules.ftc2007.capture import describe_prize_order
from ftpress.rules.ftc2007.construction import (
    KEEL_WORK_PER_WEEK,
    change_price,
    find_design,
    own_navy,
    purchase_price,
)
from ftpress.rules.ftc2007.economic_orders import SPENDING_KINDS, open_economic_turn, works
from ftpress.rules.ftc2007.income import collect_income
from ftpress.rules.ftc2007.movement import ROUTE_INITIATIVE
from ftpress.rules.ftc2007.orderfile import EconomyOrders, OrdersFile
from ftpress.rules.ftc2007.orders import (
    Vetted,
    economic_week,
    economy_allowed,
    economy_refused,
    place,
    vet,
)
from ftpress.rules.ftc2007.plan import DEFAULT_POSTURE, Plan
from ftpress.rules.ftc2007.rebuilding import DEFENCE_POINT_COST, rebuild_time
from ftpress.rules.ftc2007.repairs import repair_cost
from ftpress.rules.ftc2007.spares import SPARES_PRICE
from ftpress.rules.ftc2007.state_ext import interdictor, owed_of
from ftpress.rules.ftc2007.technology import build_price
from ftpress.rules.ftc2007.treasury import charge
from ftpress.rules.ftc2007.upkeep import EXPENDED_BIOMASS_BOX_COST, ORDNANCE_RATE, charge_upkeep
from ftpress.state.model import Player, State

_POSTURE = {"stand-off": "to stand off", "attack": "on attack orders",
            "withdraw-if-contested": "to withdraw if contested"}


def describe_orders(state: State, loaded: LoadedOrders[OrdersFile]) -> list[str]:
    """One line per thing the orders will do; illegal orders are not described."""
    vetted = vet(state, loaded)
    orders = loaded.orders
    lines: list[str] = []
    ships = {g.id: len(g.ships) for g in state.groups.groups}
    dummies = {g.id for g in state.groups.groups if g.dummy}
    where = {g.id: g.at for g in state.groups.groups}
    for group_id, (order, _) in vetted.accepted.items():
        for new_id, names in order.split.items():
            lines.append(f"{group_id} splits: {', '.join(names)} form {new_id}.")
            ships[new_id], where[new_id] = len(names), where[group_id]
            ships[group_id] -= len(names)
    for group_id, (order, _) in vetted.accepted.items():
        if order.merge:
            lines.append(f"{', '.join(order.merge)} merge into {group_id}.")
            ships[group_id] += sum(ships[g] for g in order.merge)
    for group_id, (order, movement) in vetted.accepted.items():
        size = "dummy counter" if group_id in dummies else \
            f"{ships[group_id]} ship{'s' if ships[group_id] != 1 else ''}"
        posture = _POSTURE[order.posture or DEFAULT_POSTURE]
        here = place(state, where[group_id])
        if movement is None or movement.start == state.hex_of(movement.to):
            line = f"{group_id} ({size}) holds at {here}, {posture}"
        elif movement.by_route:
            passed = movement.path[1:-1]
            via = f" by way of {', '.join(place(state, w) for w in passed)}" if passed else ""
            blocked = [w for w in passed if (s := state.system(w)) and interdictor(s)]
            line = (f"{group_id} ({size}) travels charted route {order.route} from {here} to "
                    f"{place(state, movement.to)}{via}, arriving {posture}, "
                    f"+{ROUTE_INITIATIVE} initiative (§8.2)")
            if blocked:
                line += (f"; {place(state, blocked[0])} is interdicted now, and unless that "
                         "ends first the group stops at the last world of yours before it")
        else:
            end = state.hex_of(movement.to)
            assert end is not None
            hexes = movement.start.distance(end)
            line = (f"{group_id} ({size}) jumps from {here} to {place(state, movement.to)} "
                    f"({hexes} hex{'es' if hexes != 1 else ''}), arriving {posture} (§8.1)")
        if order.scout:
            line += f", and scouts {place(state, order.scout)}; what it finds is public (§2.3)"
        if order.battle:
            line += (f"; in a battle it asks for the "
                     f"{'abstract combat' if order.battle == 'abstract' else 'tabletop'} "
                     "(§14.1)")
        end = state.hex_of(movement.to if movement is not None else where[group_id])
        target = state.system_at(end) if end is not None else None
        if (order.posture == "attack" and target is not None and target.owner != orders.player
                and group_id not in dummies):
            line += (f"; unless a fleet opposes it there, it attacks the defences of "
                     f"{target.name} (§10)")
        lines.append(line + ".")
    given = set(orders.groups) | {g for o in orders.groups.values() for g in o.merge}
    silent = [g.id for g in state.groups_of(orders.player) if g.id not in given]
    if silent:
        lines.append(f"Not mentioned, so holding {_POSTURE[DEFAULT_POSTURE]}: "
                     f"{', '.join(silent)}.")
    if orders.economy is not None and economy_allowed(vetted):
        lines += _economy(state, loaded, vetted)
    return lines


def _economy(state: State, loaded: LoadedOrders[OrdersFile], vetted: Vetted) -> list[str]:
    """The economic orders in words, spending in the order it is paid."""
    economy = loaded.orders.economy
    player = state.player(loaded.orders.player)
    assert economy is not None and player is not None
    cal = state.campaign.calendar
    lines = []
    if economy.maintenance and not economy_refused(vetted, "maintenance"):
        lines.append(f"Maintenance for economic turn {cal.economic_turn}: "
                     f"{economy.maintenance} (§7).")
    ordnance = 0
    if economy.ordnance and not economy_refused(vetted, "ordnance"):
        ordnance = charge(economy.ordnance, ORDNANCE_RATE)
        lines.append(f"Ordnance worth {economy.ordnance} expended in economic turn "
                     f"{cal.economic_turn - 1}: billed {ordnance} when its books close (§7.1).")
    if economy.biomass and not economy_refused(vetted, "biomass"):
        regrown = economy.biomass * EXPENDED_BIOMASS_BOX_COST
        ordnance += regrown
        lines.append(f"Biomass expended in economic turn {cal.economic_turn - 1}: "
                     f"{economy.biomass} boxes, billed {regrown} when its books close (§11.5).")
    # Midweek: keels and repairs alone (§13.1, §11.1).
    books = economic_week(state) and cal.economic_turn > 1
    if books:
        lines.append(_books(state, player.id, cal.economic_turn - 1, ordnance))
    spending = [ki for ki in _in_file_order(loaded, economy)
                if not economy_refused(vetted, *ki)]
    for kind, i in spending:
        lines.append(_spending(state, player, kind, getattr(economy, kind)[i]))
    if spending:
        lines.append(f"Paid in the order written{', after the books close' if books else ''}; "
                     "what the treasury cannot pay then is not done (§6.3).")
        lines += _shortfalls(state, loaded)
    for prize_id, order in economy.prizes.items():
        if not any(r.loc[:3] == ("economy", "prizes", prize_id) for r in vetted.rejected):
            lines.append(describe_prize_order(state, player.id, prize_id, order))
    return lines


def _shortfalls(state: State, loaded: LoadedOrders[OrdersFile]) -> list[str]:
    """The player's spending this week worked out as the turn will (other players
    cannot touch this treasury): what would go unpaid, and what is left."""
    player_id = loaded.orders.player
    after, events = open_economic_turn(state, Plan.make(state, {player_id: loaded}))
    after, weekly = works(after)
    short = [e.text for e in (*events, *weekly) if e.kind == "unpaid" and e.player == player_id]
    found = after.player(player_id)
    left = f"the treasury would hold {found.treasury} at the end of the week" if found else ""
    if not short:
        return [f"Everything written can be paid: {left}."]
    return [f"Not enough money: {text[:1].lower()}{text[1:]}" for text in short] + [
        f"After that, {left}."]


def _books(state: State, player_id: str, ended: int, ordnance: int) -> str:
    """What the books of the economic turn just ended will pay and bill, worked
    out as the turn will (the state they close on is the one open now)."""
    after, events = collect_income(state, ended)
    after, upkeep = charge_upkeep(after, player_id, ended)
    mine = [e for e in events if e.player == player_id]
    paid = sum(e.amount or 0 for e in mine)
    lost = [e for e in mine if e.kind == "income-lost"]
    text = (f"As this turn opens, the books of economic turn {ended} close: income {paid} "
            f"from {len(mine) - len(lost)} world{'s' if len(mine) - len(lost) != 1 else ''}")
    if lost:
        worlds = [state.system(e.at) for e in lost if isinstance(e.at, str)]
        gone = sum(w.income or 0 for w in worlds if w is not None)
        text += (f", {gone} lost to interdiction at "
                 f"{', '.join(w.name for w in worlds if w is not None)} (§10.6)")
    bill = -sum(e.amount or 0 for e in upkeep if e.kind == "upkeep")
    treasury = max(0, (p.treasury if (p := after.player(player_id)) else 0) - ordnance)
    return f"{text}; upkeep {bill} (§7); the treasury then holds {treasury}."


def _in_file_order(loaded: LoadedOrders[OrdersFile], economy: EconomyOrders,
                   ) -> list[tuple[str, int]]:
    found = [(kind, i) for kind in SPENDING_KINDS for i in range(len(getattr(economy, kind)))]
    return sorted(found, key=lambda ki: loaded.where("economy", *ki)[1:])


def _spending(state: State, player: Player, kind: str, order: Any) -> str:
    cal = state.campaign.calendar
    if kind in ("purchases", "keels"):
        design = find_design(state, order.design)
        assert design is not None
        what = f"{order.name} ({design.name}: {design.size}, {design.points} points)"
        if kind == "keels":
            price = build_price(design)
            weeks = -(-price // KEEL_WORK_PER_WEEK)
            if price != design.points:
                what = what[:-1] + f", {price} with the 20% on non-indigenous technology, §16.3)"
            return (f"Lays down the keel of {what} at {place(state, order.at)}: "
                    f"{KEEL_WORK_PER_WEEK} points of work a week, paid as it is built, "
                    f"completed after {weeks} week{'s' if weeks != 1 else ''} in a new group "
                    "there (§13.1).")
        cost = purchase_price(player, design)
        assert cost is not None  # vetted: a design of the player's navy or its ally's
        ally = " (20% off, an ally's design)" if design.navy != own_navy(player) else ""
        return (f"Buys {what} for {cost}{ally}, delivered at {place(state, order.at)} as the "
                "economic turn opens, in a new group there (§13.1).")
    if kind == "changes":
        keel = next(k for k in state.queues.keels
                    if k.owner == player.id and k.name == order.keel)
        old, new = state.design(keel.design), find_design(state, order.design)
        assert old is not None and new is not None
        extra = change_price(old, new, keel.built)
        return (f"Changes {keel.name} on the slips from {old.name} to {new.name}: "
                f"{min(keel.built, build_price(new))} of {build_price(new)} built so far, "
                f"the change costing {extra} more (§13.2).")
    if kind == "owed":
        debt = next(d for d in owed_of(state, player.id) if d.world == order)
        return (f"Repairs the damage its fleet owes from {place(state, order)} for "
                f"{debt.cost}, before it is put on the ships (§10.8).")
    if kind == "repairs":
        money, _, how = repair_cost(state, player.id, order)
        return (f"Repairs {order.boxes} hull boxes of {order.ship} ({order.group}) for {money} "
                f"{how}; {order.group} holds while she is in the yard, and the boxes are back "
                "at the end of the week (§11.4).")
    if kind == "spares":
        return (f"Tops up the spares at {place(state, order.at)} by {order.points} points for "
                f"{charge(order.points, SPARES_PRICE)} (75%), in stock from economic turn "
                f"{cal.economic_turn + 1} (§6.2.1).")
    world = state.system(order.system)
    assert world is not None and world.full_idp
    ready = cal.economic_turn + rebuild_time(order.points, world.full_idp)
    return (f"Rebuilds {order.points} defence points at {world.name} for "
            f"{DEFENCE_POINT_COST * order.points}, standing again from economic turn {ready} "
            "(§10.5).")
