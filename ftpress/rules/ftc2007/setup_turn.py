"""The set-up turn played (§6): each power's starting capital spent as its order
file says, before anything else of turn 1, and the week then played as any other.

:func:`resolve`, :func:`problems` and :func:`describe` are the ruleset's
``resolve``, ``check_orders`` and ``describe_orders``: in the set-up turn they
play, check or describe a file's ``setup:`` block (:mod:`.setup_orders`) and then
hand the rest of the file to the week's own rules on the state the set-up leaves,
so that the counters placed may be given their week-1 orders in the same file.
In any other turn a ``setup:`` block is refused, and the week is as it always was.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from ftpress.errors import Problem
from ftpress.orders.load import LoadedOrders
from ftpress.rules.ftc2007 import orders as week_orders
from ftpress.rules.ftc2007 import summary, turn
from ftpress.rules.ftc2007.orderfile import OrdersFile
from ftpress.rules.ftc2007.orders import place
from ftpress.rules.ftc2007.rejection import Rejection
from ftpress.rules.ftc2007.sections import rule
from ftpress.rules.ftc2007.setup_orders import (
    SetupVetted,
    refused_outside_setup,
    setup_open,
    vet_setup,
)
from ftpress.rules.ftc2007.state_ext import Spares, spares_of, with_spares
from ftpress.rules.ftc2007.treasury import state_treasuries
from ftpress.rules.planning import located
from ftpress.state.battle_results import LoadedBattle
from ftpress.state.dice import Dice
from ftpress.state.events import PUBLIC, Audience, Event
from ftpress.state.model import Group, Ship, State
from ftpress.state.turns import turn_id
from ftpress.state.words import ended, group, power, powers_own


def resolve(state: State, orders: Mapping[str, LoadedOrders[OrdersFile]], dice: Dice,
            battles: Mapping[str, LoadedBattle],
            ) -> tuple[State, tuple[Event, ...]]:
    """The open turn: the set-up first when it is the set-up turn, then the week."""
    events: list[Event] = []
    if setup_open(state):
        state = state_treasuries(state, first=True)  # §5.4: before the set-up spends any
        state, events = play_setup(state, orders)
    else:
        for player_id, loaded in orders.items():
            refused = refused_outside_setup(state, loaded.orders)
            if refused is not None and state.player(player_id) is not None:
                events.append(_rejected(state, player_id, loaded, refused))
    state, week = turn.resolve(state, orders, dice, battles)
    return state, (*events, *week)


def problems(state: State, loaded: LoadedOrders[OrdersFile]) -> list[Problem]:
    """Every illegal order of one file (``ftpress check``), the set-up's first."""
    refused, state = _setup_checked(state, loaded)
    return [*(Problem(*loaded.where(*r.loc, key=r.key), r.message) for r in refused),
            *week_orders.problems(state, loaded)]


def describe(state: State, loaded: LoadedOrders[OrdersFile]) -> list[str]:
    """What one file will do: what the set-up buys, then the week's orders."""
    lines: list[str] = []
    if _playing_setup(state, loaded):
        vetted = vet_setup(state, loaded)
        lines = describe_setup(state, vetted, loaded.orders.setup is not None)
        state, _ = apply_setup(state, vetted, loaded)
    return lines + summary.describe_orders(state, loaded)


def _playing_setup(state: State, loaded: LoadedOrders[OrdersFile]) -> bool:
    """Does this file's set-up count: the set-up turn open, and the file one of its
    players' for it (anything else the week's own check refuses)?"""
    orders = loaded.orders
    return (setup_open(state) and state.player(orders.player) is not None
            and orders.turn == turn_id(state.campaign.calendar.turn))


def _setup_checked(state: State, loaded: LoadedOrders[OrdersFile],
                   ) -> tuple[list[Rejection], State]:
    """The set-up's refusals in one file, and the state its set-up leaves."""
    if not _playing_setup(state, loaded):
        refused = refused_outside_setup(state, loaded.orders)
        return ([refused] if refused is not None else []), state
    vetted = vet_setup(state, loaded)
    after, _ = apply_setup(state, vetted, loaded)
    return list(vetted.rejected), after


def play_setup(state: State, orders: Mapping[str, LoadedOrders[OrdersFile]],
               ) -> tuple[State, list[Event]]:
    """§6: every player's set-up, in the order of ``players.yaml``; a player with none
    keeps the capital (§6.2.3, reading ``no-setup-orders-keeps-the-capital``)."""
    events: list[Event] = []
    for player in state.players.players:
        loaded = orders.get(player.id)
        if loaded is None or not _playing_setup(state, loaded) or loaded.orders.setup is None:
            events.append(Event(
                "setup-reserve", rule("6.2.3"), f"{power(state, player.id, start=True)} "
                f"gives no set-up orders: all {player.treasury:,} of its starting capital is "
                "kept as reserve cash, to spend from economic turn 2 (§6.3).",
                audience=PUBLIC, player=player.id))
            continue
        vetted = vet_setup(state, loaded)
        events += [_rejected(state, player.id, loaded, r) for r in vetted.rejected]
        state, found = apply_setup(state, vetted, loaded)
        events += found
    return state, events


def apply_setup(state: State, vetted: SetupVetted, loaded: LoadedOrders[OrdersFile],
                ) -> tuple[State, list[Event]]:
    """What stands of one player's set-up, carried out: designs entered, counters
    placed with their ships (§6.1, §6.2) and dummies (§15.2), spares set at their
    level (§6.2.1), defences raised (§6.2.2), and the capital left kept in reserve
    (§6.2.3)."""
    player = vetted.player
    told = Audience.told(player)
    who = power(state, player, start=True)
    events: list[Event] = []
    designs = {d.id: d for d in state.designs.designs}
    for design in vetted.designs:
        designs[design.id] = design
        events.append(Event("setup-design", rule("16.1"), f"{who} enters its design "
                            f"{design.name} ({design.id}): {design.size}, {design.mass} mass, "
                            f"{design.points} points.", audience=told, player=player))
    groups = list(state.groups.groups)
    # Counters are placed world by world, not in the order of the file, nor of their
    # ids alone: the order of the public events (and of the state's groups) must follow
    # nothing but where they stand (§15.1), not how the player wrote the set-up, where a
    # dummy's entry may stand apart from the real ones (§15.2), nor the labels they gave.
    for placed in sorted(vetted.groups, key=lambda p: (str(p.order.at), p.id)):
        world = place(state, placed.order.at)
        for bought in placed.ships:
            designs.setdefault(bought.design.id, bought.design)
            events.append(Event(
                "setup-ship", rule("6.1"), f"{who} buys {bought.ship.name} "
                f"({bought.design.size}, {bought.design.id}) for {bought.price:,} from its "
                f"starting capital; she starts in {placed.id} at {world}.", audience=told,
                player=player, group=placed.id, at=placed.order.at,
                order=located(loaded, *bought.loc),
                note=bought.ship.note, amount=-bought.price, account="purchases"))
        groups.append(Group(placed.id, player, placed.order.at,
                            tuple(Ship(b.ship.name, b.design.id) for b in placed.ships),
                            dummy=placed.dummy))
        # Every counter shows on the map; which are dummies is the owner's secret (§15.2).
        counter = group(state, placed.id, PUBLIC, noun="counter", owner=player, start=True)
        events.append(Event("setup-group", rule("15.1"), f"{counter} starts at {world}.",
                            audience=PUBLIC, player=player,
                            group=placed.id, at=placed.order.at, note=placed.order.note,
                            order=located(loaded, "setup", "groups", placed.id, key=True)))
        if placed.dummy:
            # Its 'dummy' line is the owner's too: the published copy of the file leaves
            # it out, so a dummy's entry reads as a real counter's with its ships left out.
            events.append(Event("setup-dummy", rule("15.2"), f"{placed.id} is a dummy "
                                "counter, one of the one per capital ship its navy has.",
                                audience=told, player=player, group=placed.id,
                                at=placed.order.at,
                                order=located(loaded, "setup", "groups", placed.id, "dummy")))
    spares = list(spares_of(state))
    for k, spare, cost in vetted.spares:
        level = _spares_level(spares, player, spare.at) + spare.points
        spares = [s for s in spares if not (s.owner == player and s.at == spare.at)]
        spares.append(Spares(player, spare.at, level, level))
        events.append(Event(
            "spares", rule("6.2.1"), f"{who} pre-positions {spare.points} points of spares "
            f"at {place(state, spare.at)} for {cost:,} (75% of their installed price): in "
            f"stock at once, and topped up there to {level} at most from now on.",
            audience=told, player=player, at=spare.at, note=spare.note,
            order=located(loaded, "setup", "spares", k), amount=-cost, account="spares"))
    systems = list(state.map.systems)
    for k, raised in vetted.defences:
        i = next(n for n, s in enumerate(systems) if s.id == raised.system)
        target = systems[i]
        systems[i] = dataclasses.replace(
            target, idp=(target.idp or 0) + raised.points,
            idp_full=None if target.idp_full is None else target.idp_full + raised.points)
        events.append(Event(
            "setup-defences", rule("6.2.2"), f"{who} adds {raised.points} inherent defence "
            f"points to {target.name} for {raised.points:,}: {systems[i].full_idp} in all.",
            audience=PUBLIC, player=player, at=target.id, note=raised.note,
            order=located(loaded, "setup", "defences", k), amount=-raised.points,
            account="defences"))
    left = vetted.capital - vetted.spent
    events.append(Event(
        "setup-reserve", rule("6.2.3"), f"{who} keeps {left:,} of its {vetted.capital:,} "
        "starting capital as reserve cash, to spend from economic turn 2 (§6.3).",
        audience=told, player=player))
    if loaded.orders.setup is not None and loaded.orders.setup.note:
        events.append(Event("note", rule("6"), f"{powers_own(state, player, start=True)} note "
                            "on its set-up.", audience=told,
                            player=player, note=loaded.orders.setup.note,
                            order=located(loaded, "setup", "note")))
    players = tuple(dataclasses.replace(p, treasury=left) if p.id == player else p
                    for p in state.players.players)
    state = dataclasses.replace(
        state, players=dataclasses.replace(state.players, players=players),
        designs=dataclasses.replace(state.designs, designs=tuple(designs.values())),
        groups=dataclasses.replace(state.groups, groups=tuple(groups)),
        map=dataclasses.replace(state.map, systems=tuple(systems)))
    return with_spares(state, tuple(spares)), events


def describe_setup(state: State, vetted: SetupVetted, given: bool = True) -> list[str]:
    """What a set-up will buy, one line a counter, for ``ftpress check``; ``given``:
    the file has a ``setup:`` block at all."""
    if not given:
        return [f"No set-up orders: all {vetted.capital:,} of the starting capital is kept "
                "as reserve cash (§6.2.3)."]
    lines = [f"Design {d.name} ({d.id}) is entered: {d.size}, {d.points} points."
             for d in vetted.designs]
    for placed in vetted.groups:
        world = place(state, placed.order.at)
        if placed.dummy:
            lines.append(f"{placed.id} starts at {world} as a dummy counter (§15.2).")
        else:
            ships = ", ".join(f"{b.ship.name} ({b.design.name}, {b.price:,})"
                              for b in placed.ships)
            lines.append(f"{placed.id} starts at {world} with {ships} (§6.1).")
    for _, spare, cost in vetted.spares:
        lines.append(f"{spare.points} points of spares are placed at "
                     f"{place(state, spare.at)} for {cost:,} (§6.2.1).")
    for _, raised in vetted.defences:
        lines.append(f"{place(state, raised.system)} gains {raised.points} inherent defence "
                     f"points for {raised.points:,} (§6.2.2).")
    lines.append(f"The set-up spends {vetted.spent:,} of {vetted.capital:,}, "
                 f"{vetted.on_ships:,} of it on ships (at most 4,000, §6.1); "
                 f"{vetted.capital - vetted.spent:,} is kept as reserve cash (§6.2.3).")
    return lines


def _spares_level(spares: list[Spares], player: str, at: str) -> int:
    return next((s.level for s in spares if s.owner == player and s.at == at), 0)


def _rejected(state: State, player: str, loaded: LoadedOrders[OrdersFile],
              refused: Rejection) -> Event:
    """A set-up order refused: not carried out, told to its player alone (it may name
    ships, §15.3)."""
    return Event("rejected", rule("6"), f"{powers_own(state, player, start=True)} set-up "
                 "order is refused: "
                 f"{ended(refused.message)}", audience=Audience.told(player), player=player,
                 order=located(loaded, *refused.loc, key=refused.key))
