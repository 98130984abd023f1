"""One strategic turn under ftc2007, as a fold: ``resolve(state, orders, dice)``.

Reads like the order of play. Each step is one rule function in its own
module and sees the state the step before it left:

1. vet every order (:mod:`.orders`); a refused order holds, with an event;
   the umpires' approvals of non-standard designs are told to every player
   (§16.2, :mod:`.approvals`);
   in the first week of an economic turn, before anything moves, the books of
   the one just ended close and the spending orders are paid
   (:func:`.economic_orders.open_economic_turn`: §5.2, §7, §13, §11, §6.2.1, §10.5);
2. §15.1 reorganise: splits, then merges (:mod:`.reorganise`);
3. §8, §15.4 move, all at once, from where everyone stood (:mod:`.movement`);
4. §2.3, §4 scout the worlds scouts reached (:mod:`.scouting`);
5. §17.2.3 groups on withdraw if contested that meet hostile forces pull out;
   §15.2, §15.3 a dummy counter an enemy ship contacts is found out and taken off
   the map (:mod:`.dummies`); every place where two powers still meet is reported
   (:mod:`.encounters`);
6. §14, §17 the battles: damage owed from a repulse by a ship about to fight is
   allocated first (§10.7, :mod:`.owed_damage`); then each is fought in the
   abstract, folded in from a tabletop result, or left awaiting the table
   (:mod:`.battles`); hulks are captured
   (§12.1), and prizes disposed of with the economic orders (§12.2, :mod:`.capture`);
7. §10, §9 attack the defences where no opposing fleet is left
   (:mod:`.defences`); every group of an encounter or a siege is now known to
   the enemy (§15.3, :mod:`.recce`);
8. §8.2 end the interdictions nobody keeps up (:mod:`.interdiction`);
9. §5.2, §7 the upkeep level declared, in the first week of an economic turn
   (:mod:`.economic_orders`);
10. §13.1, §11.4 the week's work: keels built and paid, repairs finished;
11. §5.1 the week ends and the next opens.

Pure: no files, no clock; the dice are the only source of chance.
"""

from __future__ import annotations

from collections.abc import Mapping

from ftpress.orders.load import LoadedOrders
from ftpress.rules.calendar import advanced, turn_opened
from ftpress.rules.ftc2007.approvals import announce_approvals
from ftpress.rules.ftc2007.battles import fight_battles, find_battles
from ftpress.rules.ftc2007.capture import dispose_of_prizes
from ftpress.rules.ftc2007.defences import attack_defences
from ftpress.rules.ftc2007.dummies import unmask_dummies
from ftpress.rules.ftc2007.economic_orders import economic_orders, open_economic_turn, works
from ftpress.rules.ftc2007.encounters import (
    contested,
    detect_encounters,
    withdraw_if_contested,
)
from ftpress.rules.ftc2007.interdiction import lift_interdictions
from ftpress.rules.ftc2007.movement import move_groups
from ftpress.rules.ftc2007.orderfile import OrdersFile
from ftpress.rules.ftc2007.orders import place, rejected_groups
from ftpress.rules.ftc2007.owed_damage import call_in_before_battles
from ftpress.rules.ftc2007.plan import Plan
from ftpress.rules.ftc2007.recce import make_contact
from ftpress.rules.ftc2007.reorganise import reorganise_groups
from ftpress.rules.ftc2007.scouting import scout_worlds
from ftpress.rules.ftc2007.sections import rule
from ftpress.rules.planning import no_orders, unmentioned
from ftpress.state.battle_results import LoadedBattle
from ftpress.state.dice import Dice
from ftpress.state.events import PUBLIC, Audience, Event
from ftpress.state.model import State
from ftpress.state.words import ended, powers_own


def resolve(state: State, orders: Mapping[str, LoadedOrders[OrdersFile]], dice: Dice,
            battles: Mapping[str, LoadedBattle],
            ) -> tuple[State, tuple[Event, ...]]:
    """The state after the open turn, and every event of it in order.

    ``orders`` maps player id → that player's order file; a player missing
    from it gave no orders, and every one of their groups holds. ``battles``
    maps battle id → the umpire's result of a battle fought on the tabletop.
    """
    plan = Plan.make(state, orders)
    events = refusals(state, plan)
    state, found = announce_approvals(state)
    events += found
    state, found = open_economic_turn(state, plan)
    events += found
    state, found = reorganise_groups(state, plan)
    events += found
    set_out = {g.id: g.at for g in state.groups.groups}
    state, found = move_groups(state, plan)
    events += found
    state, found = scout_worlds(state, plan, dice)
    events += found
    state, found, beaten = withdraw_if_contested(state, plan, set_out)
    events += found
    # §15.2: a dummy that an enemy ship meets is found out before anyone fights.
    state, found = unmask_dummies(state)
    events += found
    events += detect_encounters(state, plan)
    # §10.7: damage a fleet owes from a repulse is allocated before it fights again.
    state, found = call_in_before_battles(state, [(place(state, site.at), site.groups)
                                                  for site in find_battles(state, plan)])
    events += found
    # §14, §17: the battles come before any attack on the defences (§9.1, §10.1).
    bonus = {e.group: e.initiative for e in events if e.kind == "arrival" and e.group}
    state, found, won, unwon = fight_battles(state, plan, dice, set_out, bonus, battles)
    events += found
    beaten = {**beaten, **won}
    state, found = attack_defences(state, plan, dice, contested(state) | unwon, set_out,
                                   beaten)
    events += found
    state, found = make_contact(state, events)
    events += found
    state, found = lift_interdictions(state, plan)
    events += found
    state, found = economic_orders(state, plan)
    events += found
    state, found = dispose_of_prizes(state, plan)
    events += found
    state, found = works(state)
    events += found
    state, found = next_turn(state)
    events += found
    return state, tuple(events)


def refusals(state: State, plan: Plan) -> list[Event]:
    """Missing orders and refused orders: each group affected holds, with an event.

    A player with no order file holds everything; a group a file leaves out
    holds; an order the rules forbid now (it may have been legal when checked)
    becomes a hold, and the event says why.
    """
    events: list[Event] = []
    for player in state.players.players:
        mine = [g.id for g in state.groups_of(player.id)]
        vetted = plan.vetted.get(player.id)
        if vetted is None:
            if mine:
                events.append(no_orders(rule("15.4"), state, player.id, mine))
            continue
        loaded = plan.orders[player.id]
        for r in vetted.rejected:
            where = plan.where(player.id, *r.loc, key=r.key)
            if r.group is not None:
                text = f"{r.group}'s order is refused and it holds: {ended(r.message)}"
            elif r.loc == ("economy",):
                text = f"{powers_own(state, player.id, start=True)} economic orders are " \
                       f"refused: {ended(r.message)}"
            elif r.loc[:1] == ("economy",):
                text = f"{powers_own(state, player.id, start=True)} economic order is " \
                       f"refused: {ended(r.message)}"
            else:
                text = f"{powers_own(state, player.id, start=True)} orders are refused and " \
                       f"all its groups hold: {ended(r.message)}"
            # A refusal quotes the order, which may name ships and places: the
            # player's own business (§15.3); the public sees the group hold.
            events.append(Event("rejected", rule("15.4"), text,
                                audience=Audience.told(player.id), player=player.id,
                                group=r.group, order=where))
        given = set(loaded.orders.groups) | {g for o in loaded.orders.groups.values()
                                             for g in o.merge}
        silent = tuple(g for g in mine if g not in given)
        if silent and not any(r.group is None and r.loc[:1] != ("economy",)
                              for r in vetted.rejected):
            events.append(unmentioned(rule("15.4"), state, player.id, silent))
        for group_id, order in loaded.orders.groups.items():
            if group_id in rejected_groups(vetted) and order.note:
                events.append(Event("note", rule("15.4"),
                                    f"{powers_own(state, player.id, start=True)} note on "
                                    f"the refused order of {group_id}.",
                                    audience=Audience.told(player.id), player=player.id,
                                    group=group_id, note=order.note,
                                    order=plan.where(player.id, "groups", group_id, "note")))
        if loaded.orders.note:
            events.append(Event("note", rule("15.4"),
                                f"{powers_own(state, player.id, start=True)} note on the turn.",
                                audience=PUBLIC, player=player.id, note=loaded.orders.note,
                                order=plan.where(player.id, "note")))
    return events + plan.strangers_refused(state, rule("15.4"))


def next_turn(state: State) -> tuple[State, list[Event]]:
    """§5.1: the week is over; the next strategic turn opens, a week later.

    The next turn's umpire secret is not the rules' business: whoever records
    the turn commits its hash.
    """
    cal = state.campaign.calendar
    state = advanced(state)
    new = state.campaign.calendar
    economic = f"economic turn {new.economic_turn}" if \
        new.economic_turn != cal.economic_turn else ""
    return state, [turn_opened(rule("5.1"), cal, new, also=economic)]
