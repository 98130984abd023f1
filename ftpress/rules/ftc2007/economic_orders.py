"""§5.2 The economic turn: its books closed, and the economic orders carried out.

In the first strategic turn of every economic turn but the first, before any
group moves, the books of the economic turn just ended close
(reading ``books-close-as-the-next-economic-turn-opens``): every world's income
(§5.2; nothing from a world interdicted now, §10.6), each navy's upkeep at the
level it declared for that economic turn (§7) and the ordnance it expended
(§7.1); defences rebuilt and spares bought stand ready (§10.5, §6.2.1). Then
each player's spending orders are carried out, paid in the order they are
written in the file (reading ``spending-in-file-order``), none of it on credit (§6.3);
last, repulse damage owed from the economic turn just ended and not repaired by
those orders is allocated to the ships (§10.8, :mod:`.owed_damage`).

That is :func:`open_economic_turn`. The upkeep level declared for the new
economic turn is set by :func:`economic_orders` later in the week (it is billed
when that economic turn's books close), and the weekly work (keels built,
repairs finished) is :func:`works`, at the end of every strategic turn.
"""

from __future__ import annotations

import dataclasses

from ftpress.rules.ftc2007.construction import build_keels, buy_ship, change_keel, lay_keel
from ftpress.rules.ftc2007.income import collect_income
from ftpress.rules.ftc2007.orderfile import EconomyOrders
from ftpress.rules.ftc2007.orders import economic_week, economy_allowed, economy_refused
from ftpress.rules.ftc2007.owed_damage import call_in_at_economic_turn
from ftpress.rules.ftc2007.owed_repairs import repair_owed
from ftpress.rules.ftc2007.plan import Plan
from ftpress.rules.ftc2007.rebuilding import defences_ready, order_rebuilding
from ftpress.rules.ftc2007.repairs import finish_repairs, start_repair
from ftpress.rules.ftc2007.sections import rule
from ftpress.rules.ftc2007.spares import buy_spares, spares_arrive
from ftpress.rules.ftc2007.state_ext import Ftc2007Player, Maintenance
from ftpress.rules.ftc2007.treasury import state_treasuries
from ftpress.rules.ftc2007.upkeep import charge_biomass, charge_ordnance, charge_upkeep
from ftpress.state.events import PUBLIC, Event
from ftpress.state.extension import extended
from ftpress.state.model import State
from ftpress.state.words import power, powers_own


def open_economic_turn(state: State, plan: Plan) -> tuple[State, list[Event]]:
    """Before any group moves. In the first strategic turn of an economic turn:
    the books of the one just ended, then each player's spending (see the module
    docstring). In any other week, the keels laid that week (§13.1: keels are laid
    at any time; vetting has refused every other economic order)."""
    cal = state.campaign.calendar
    events: list[Event] = []
    if economic_week(state) and cal.economic_turn > 1:
        state, events = close_books(state, plan, cal.economic_turn - 1)
    if economic_week(state):  # §5.4: the books closed, before any new spending
        state = state_treasuries(state, first=cal.economic_turn == 1)
    fresh: dict[tuple[str, str], str] = {}
    for player in state.players.players:
        vetted = plan.vetted.get(player.id)
        loaded = plan.orders.get(player.id)
        if vetted is None or loaded is None or loaded.orders.economy is None:
            continue
        economy = loaded.orders.economy
        for kind, i in spending_in_order(plan, player.id, economy):
            if not economy_refused(vetted, kind, i):
                state, found = _spend(state, plan, player.id, economy, kind, i, fresh)
                events += found
    if economic_week(state) and cal.economic_turn > 1:
        state, found = call_in_at_economic_turn(state)
        events += found
    return state, events


def economic_orders(state: State, plan: Plan) -> tuple[State, list[Event]]:
    """§7, §7.2: the upkeep level each player declares for the new economic turn
    (billed when its books close), and the player's note on the economy."""
    events: list[Event] = []
    cal = state.campaign.calendar
    for player in state.players.players:
        vetted = plan.vetted.get(player.id)
        loaded = plan.orders.get(player.id)
        if vetted is None or loaded is None or loaded.orders.economy is None \
                or not economy_allowed(vetted):
            continue
        economy = loaded.orders.economy
        if economy.maintenance is not None and not economy_refused(vetted, "maintenance"):
            state = _set_maintenance(state, player.id, economy.maintenance)
            events.append(Event(
                "maintenance", rule("7"),
                f"{power(state, player.id, start=True)} sets maintenance to "
                f"{economy.maintenance} for economic turn {cal.economic_turn}.",
                audience=PUBLIC, player=player.id,
                order=plan.where(player.id, "economy", "maintenance")))
        if economy.note:
            events.append(Event("note", rule("5.2"),
                                f"{powers_own(state, player.id, start=True)} note on its "
                                "economic orders.",
                                audience=PUBLIC, player=player.id, note=economy.note,
                                order=plan.where(player.id, "economy", "note")))
    return state, events


def close_books(state: State, plan: Plan, ended: int) -> tuple[State, list[Event]]:
    """§5.2 (reading ``books-close-as-the-next-economic-turn-opens``): income, then
    each player's upkeep and ordnance, then works that stand ready as the
    economic turn opens."""
    state, events = collect_income(state, ended)
    for player in state.players.players:
        state, found = charge_upkeep(state, player.id, ended)
        events += found
        loaded = plan.orders.get(player.id)
        vetted = plan.vetted.get(player.id)
        economy = loaded.orders.economy if loaded is not None else None
        if (economy is not None and economy.ordnance is not None and vetted is not None
                and not economy_refused(vetted, "ordnance")):
            state, found = charge_ordnance(state, player.id, economy.ordnance, ended,
                                           plan.where(player.id, "economy", "ordnance"))
            events += found
        if (economy is not None and economy.biomass is not None and vetted is not None
                and not economy_refused(vetted, "biomass")):
            state, found = charge_biomass(state, player.id, economy.biomass, ended,
                                          plan.where(player.id, "economy", "biomass"))
            events += found
    state, found = defences_ready(state)
    events += found
    state, found = spares_arrive(state)
    return state, events + found


#: The economic orders that spend money, each kind a field of ``EconomyOrders``.
SPENDING_KINDS = ("purchases", "keels", "changes", "repairs", "owed", "spares", "defences")


def spending_in_order(plan: Plan, player_id: str,
                      economy: EconomyOrders) -> list[tuple[str, int]]:
    """(kind, index) of every spending order, in the order written
    (reading ``spending-in-file-order``)."""
    loaded = plan.orders[player_id]
    found = [(kind, i) for kind in SPENDING_KINDS for i in range(len(getattr(economy, kind)))]
    return sorted(found, key=lambda ki: loaded.where("economy", *ki)[1:])


def _spend(state: State, plan: Plan, player_id: str, economy: EconomyOrders, kind: str,
           i: int, fresh: dict[tuple[str, str], str]) -> tuple[State, list[Event]]:
    where = plan.where(player_id, "economy", kind, i)
    turn = state.campaign.calendar.turn
    if kind == "purchases":
        return buy_ship(state, player_id, economy.purchases[i], where, fresh)
    if kind == "keels":
        return lay_keel(state, player_id, economy.keels[i], f"{player_id}-keel-{turn}-{i + 1}",
                        where)
    if kind == "repairs":
        return start_repair(state, player_id, economy.repairs[i],
                            f"{player_id}-repair-{turn}-{i + 1}", where)
    if kind == "owed":
        return repair_owed(state, player_id, economy.owed[i], where)
    if kind == "changes":
        return change_keel(state, player_id, economy.changes[i], where)
    if kind == "spares":
        return buy_spares(state, player_id, economy.spares[i], where)
    return order_rebuilding(state, player_id, economy.defences[i], where)


def works(state: State) -> tuple[State, list[Event]]:
    """The end of every strategic turn: a week's work on every keel, paid as it
    is done (§13.1), and the repairs due are finished (§11.4)."""
    state, events = build_keels(state, {})
    state, found = finish_repairs(state)
    return state, events + found


def _set_maintenance(state: State, player_id: str, level: Maintenance) -> State:
    players = tuple(extended(p, Ftc2007Player, maintenance=level) if p.id == player_id else p
                    for p in state.players.players)
    return dataclasses.replace(state, players=dataclasses.replace(state.players, players=players))
