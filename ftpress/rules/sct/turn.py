"""One sct turn as a fold: ``resolve(state, orders, dice)``.

Reads like the ten phases of §2.1; each step is one rule function:

0. vet every order (:mod:`.orders`); a refused one is dropped, with an event;
1. §3.1 collect system income (:mod:`.economy`);
2. §3.2, §3.3, §7 economic orders: builds, repairs, installations, paid now;
3. the task-force orders are the files themselves (nothing to do);
4. §2.2 roll initiative (:mod:`.initiative`);
5. §4.1–§4.3 move task forces, lowest initiative first, one at a time
   (:mod:`.movement`);
6. §4.4 secondary movement for an endurance point; then §5.3 forces at a
   depot are resupplied (:mod:`.supply`);
7. §6 task forces attack (:mod:`.combat`; on the tabletop, :mod:`.tabletop`);
8. §3.3, §7 builds, repairs and installations delivered (:mod:`.economy`);
9. task force reorganisation (:mod:`.reorganise`);
10. the turn ends and the next opens.

Pure: no files, no clock; the dice are the only source of chance.
"""

from __future__ import annotations

from collections.abc import Mapping

from ftpress.orders.load import LoadedOrders
from ftpress.rules.calendar import advanced, turn_opened
from ftpress.rules.planning import no_orders
from ftpress.rules.sct import initiative
from ftpress.rules.sct.combat import attacks
from ftpress.rules.sct.economy import collect_income, deliver, economic_orders
from ftpress.rules.sct.movement import primary_movement, secondary_movement
from ftpress.rules.sct.orderfile import SctOrders
from ftpress.rules.sct.plan import Plan, rule
from ftpress.rules.sct.reorganise import reorganise
from ftpress.rules.sct.supply import replenish, within_allowance
from ftpress.state.battle_results import LoadedBattle
from ftpress.state.dice import Dice
from ftpress.state.events import PUBLIC, Event
from ftpress.state.model import State
from ftpress.state.words import ended, group, powers_own


def resolve(state: State, orders: Mapping[str, LoadedOrders[SctOrders]], dice: Dice,
            battles: Mapping[str, LoadedBattle],
            ) -> tuple[State, tuple[Event, ...]]:
    """§2.1: the state after the open turn, and every event of it in order.

    ``orders`` maps player id → that player's order file; a player missing
    from it gave no orders, and all of its task forces stay where they are.
    ``battles``: battle id → the umpire's result of a battle fought on the
    tabletop; a tabletop battle without one is a ``battle-pending`` event, and
    the turn waits for it.
    """
    plan = Plan.make(state, orders)
    events = refusals(state, plan)
    income, found = collect_income(state)
    events += found
    state, found = economic_orders(state, plan, income)
    events += found
    ranking, found = initiative.roll(state, dice)
    events += found
    state, found = primary_movement(state, plan, ranking)
    events += found
    state, found = secondary_movement(state, plan, ranking)
    events += found
    state, found = replenish(state)
    events += found
    state, found = attacks(state, plan, ranking, dice, battles)
    events += found
    state, found = deliver(state)
    events += found
    state, found = reorganise(state, plan)
    events += found
    state, found = within_allowance(state)
    events += found
    state, found = next_turn(state)
    events += found
    return state, tuple(events)


def refusals(state: State, plan: Plan) -> list[Event]:
    """Missing and refused orders, and the players' notes, each with an event."""
    events: list[Event] = []
    for player in state.players.players:
        mine = [g.id for g in state.groups_of(player.id)]
        vetted = plan.vetted.get(player.id)
        if vetted is None:
            if mine:
                events.append(no_orders(rule("2.1"), state, player.id, mine, noun="task force"))
            continue
        for r in vetted.rejected:
            where = plan.where(player.id, *r.loc, key=r.key)
            if r.force is not None:
                text = (f"The orders of {group(state, r.force, PUBLIC, noun='task force')} are "
                        f"refused, and it stays where it is: {ended(r.message)}")
            else:
                text = f"{powers_own(state, player.id, start=True)} economic order is " \
                       f"refused: {ended(r.message)}"
            events.append(Event("rejected", rule("2.1"), text, player=player.id,
                                group=r.force, order=where, audience=PUBLIC))
        orders = plan.file(player.id)
        assert orders is not None
        for force_id, order in orders.forces.items():
            if order.note:
                events.append(Event("note", rule("2.1"),
                                    f"{powers_own(state, player.id, start=True)} note on the "
                                    "orders of one of its task forces.",
                                    player=player.id, group=force_id, note=order.note,
                                    order=plan.where(player.id, "forces", force_id, "note"),
                                    audience=PUBLIC))
        for note, loc in ((orders.economy.note, ("economy", "note")), (orders.note, ("note",))):
            if note:
                events.append(Event("note", rule("2.1"),
                                    f"{powers_own(state, player.id, start=True)} note on the "
                                    "turn.",
                                    player=player.id, note=note,
                                    order=plan.where(player.id, *loc), audience=PUBLIC))
    return events + plan.strangers_refused(state, rule("2.1"))


def next_turn(state: State) -> tuple[State, list[Event]]:
    """Phase 10: the turn ends and the next opens, ``turn_days`` later. Every sct
    turn is an economic turn."""
    cal = state.campaign.calendar
    state = advanced(state)
    new = state.campaign.calendar
    return state, [turn_opened(rule("2.1"), cal, new)]
