"""One campaign round's Fleet Orders Phase under ftcamp02, as a fold:
``resolve(state, orders, dice)``.

It follows the order of the chapter; each step is one rule function that sees
the state the step before it left:

1. vet every order (:mod:`.orders`); a refused order holds, with an event;
2. §2 expend EPs (:mod:`.endurance`);
3. §3 attach and detach independents (:mod:`.independents`);
4. §4.2.2 re-organise (:mod:`.reorganise`);
5. §4.2.8 locator rolls for lost groups (:mod:`.locate`);
6. §4.1, §4.4 every move at once, with its supporters and lost roll (:mod:`.movement`);
7. §4.2 the other hold sub-orders: tugs made ready, Hold-Special (:mod:`.hold`);
8. §4.3, §8 Maintain Orbit and claims (:mod:`.claims`);
9. §7 long-range scans (:mod:`.scans`);
10. the round ends and the next opens.

Step 1 of the chapter (new groups from the Support Phase) and step 6 (markers
leaving patrols) need chapters that are not part of the rulebook. Pure: no
files, no clock; the dice are the only source of chance.
"""

from __future__ import annotations

from collections.abc import Mapping

from ftpress.orders.load import LoadedOrders
from ftpress.rules.calendar import advanced, turn_opened
from ftpress.rules.ftcamp02.claims import maintain_orbits
from ftpress.rules.ftcamp02.endurance import expend_endurance
from ftpress.rules.ftcamp02.hold import hold_orders
from ftpress.rules.ftcamp02.independents import attach_independents
from ftpress.rules.ftcamp02.locate import locate_groups
from ftpress.rules.ftcamp02.movement import move_groups
from ftpress.rules.ftcamp02.orderfile import GroupOrder, OrdersFile
from ftpress.rules.ftcamp02.orders import Vetted, vet
from ftpress.rules.ftcamp02.plan import rule
from ftpress.rules.ftcamp02.reorganise import (
    reorganise_event,
    reorganise_problem,
    settle_structure,
)
from ftpress.rules.ftcamp02.scans import long_range_scans
from ftpress.rules.ftcamp02.state_ext import of_group
from ftpress.rules.planning import (
    located,
    no_orders,
    stranger_refused,
    strangers,
    unmentioned,
)
from ftpress.state.battle_results import LoadedBattle
from ftpress.state.dice import Dice
from ftpress.state.events import PUBLIC, Audience, Event
from ftpress.state.model import State
from ftpress.state.words import ended, powers_own


def resolve(state: State, orders: Mapping[str, LoadedOrders[OrdersFile]], dice: Dice,
            battles: Mapping[str, LoadedBattle]) -> tuple[State, tuple[Event, ...]]:
    """The state after the open round, and every event of it in order.

    ``orders`` maps player id → that player's order file; a player missing from
    it gave no orders, and every one of their groups holds (Hold-Nothing, §4.0).
    ``battles`` is not read: the chapter of FTCamp0.2 these rules restate has no
    battle phase, so no battle waits for the umpire's result.
    """
    vetted = {player: vet(state, loaded.orders) for player, loaded in sorted(orders.items())}
    where = _locations(orders)
    events = refusals(state, orders, vetted)
    state, found = expend_endurance(state)
    events += found
    state, found = attach_independents(state, vetted, where)
    events += found
    state, found = reorganise_groups(state, orders, vetted, where)
    events += found
    state, found = locate_groups(state, vetted, dice, where)
    events += found
    state, found = move_groups(state, vetted, dice, where)
    events += found
    state, found = hold_orders(state, vetted, where)
    events += found
    state, found = maintain_orbits(state, vetted, where)
    events += found
    events += long_range_scans(state)
    state, found = next_round(state)
    events += found
    return state, tuple(events)


def _locations(orders: Mapping[str, LoadedOrders[OrdersFile]]) -> dict[tuple[str, str], str | None]:
    """(player, group id) → 'orders/t004/nac.yaml:7:5', where that group's order is."""
    found: dict[tuple[str, str], str | None] = {}
    for player, loaded in orders.items():
        for group_id, order in loaded.orders.groups.items():
            found[player, group_id] = located(loaded, "groups", group_id, key=True)
            # Hold sub-orders are told to nobody (§4.2): their events point at them, so
            # the published copy of the file can leave those lines out.
            for part in ("hold", "crafts"):
                if getattr(order, part):
                    path, line, col = loaded.where("groups", group_id, part)
                    found[player, f"{group_id}#{part}"] = f"{path}:{line}:{col}"
        for group_id in (*loaded.orders.attach, *loaded.orders.detach):
            loc = ("attach", group_id) if group_id in loaded.orders.attach else (
                "detach", loaded.orders.detach.index(group_id))
            found.setdefault((player, group_id),
                             located(loaded, *loc, key=group_id in loaded.orders.attach))
    return found


def refusals(state: State, orders: Mapping[str, LoadedOrders[OrdersFile]],
             vetted: Mapping[str, Vetted]) -> list[Event]:
    """§4.0: missing and refused orders; each group affected takes Hold-Nothing."""
    events: list[Event] = []
    for player in state.players.players:
        mine = [g.id for g in state.groups_of(player.id) if of_group(g).attached_to is None]
        if player.id not in orders:
            if mine:
                events.append(no_orders(rule("4.0"), state, player.id, mine, noun="group"))
            continue
        loaded = orders[player.id]
        for r in vetted[player.id].rejected:
            at = located(loaded, *r.loc, key=r.key)
            if r.group is not None:
                text = f"{r.group}'s order is refused and it holds: {ended(r.message)}"
            else:
                text = f"{powers_own(state, player.id, start=True)} orders are refused and " \
                       f"all its groups hold: {ended(r.message)}"
            # A refusal quotes the order: attachments and hold sub-orders are told to
            # nobody (§3, §4.2), and what a group holds to nobody unscanned (§7).
            events.append(Event("rejected", rule("4.0"), text, player=player.id,
                                group=r.group, order=at, audience=Audience.told(player.id)))
        given = set(loaded.orders.groups) | set(vetted[player.id].rest.attach)
        silent = tuple(g for g in mine if g not in given)
        if silent:
            events.append(unmentioned(rule("4.0"), state, player.id, silent, noun="group"))
        if loaded.orders.note:
            path, line, col = loaded.where("note")
            events.append(Event("note", rule("4.0"),
                                f"{powers_own(state, player.id, start=True)} note on the round.",
                                player=player.id, note=loaded.orders.note,
                                order=f"{path}:{line}:{col}", audience=PUBLIC))
    for player_id in strangers(state, orders):
        r = vetted[player_id].rejected[0]
        events.append(stranger_refused(rule("4.0"), player_id, r.message,
                                       orders[player_id].path))
    return events


def reorganise_groups(state: State, orders: Mapping[str, LoadedOrders[OrdersFile]],
                      vetted: Mapping[str, Vetted],
                      where: Mapping[tuple[str, str], str | None]) -> tuple[State, list[Event]]:
    """§4.2.2: each Hold-Reorganise, checked again against the state as it now is,
    then the player's changes together against the group structure (§5.3)."""
    events: list[Event] = []
    for player, v in sorted(vetted.items()):
        standing: dict[str, GroupOrder] = {}
        for group_id, order in sorted(v.accepted.items()):
            if order.action != "hold" or order.sub != "reorganise":
                continue
            if not any(g.id == group_id for g in state.groups.groups):
                continue
            attached = {g.id: of_group(g).attached_to for g in state.groups.groups}
            problem = reorganise_problem(state, orders[player].orders, group_id, order,
                                         attached.get)
            if problem is not None:
                events.append(_refused(player, group_id, problem[1], where))
            else:
                standing[group_id] = order
        marked = {g.id for g in state.groups.groups if of_group(g).reserve}
        state, refused = settle_structure(state, player, standing)
        for group_id, order in sorted(standing.items()):
            if group_id in refused:
                events.append(_refused(player, group_id, refused[group_id], where))
            else:
                events.append(reorganise_event(player, group_id, order,
                                               where.get((player, group_id)),
                                               restored=group_id in marked))
    return state, events


def _refused(player: str, group_id: str, message: str,
             where: Mapping[tuple[str, str], str | None]) -> Event:
    return Event("rejected", rule("4.2.2"), f"{group_id}'s reorganisation is refused and it "
                 f"holds: {ended(message)}", player=player, group=group_id,
                 order=where.get((player, group_id)), audience=Audience.told(player))


def next_round(state: State) -> tuple[State, list[Event]]:
    """The round is over; the next opens, a calendar turn later."""
    cal = state.campaign.calendar
    state = advanced(state)
    new = state.campaign.calendar
    return state, [turn_opened(rule("4"), cal, new, period="round")]
