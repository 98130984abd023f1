"""What a player's orders will do, in plain words, for ``ftpress check``.

The summary is worked out by the same vetting the turn uses (:mod:`.orders`),
so what it promises is what the turn does, unless other players' moves, an
interdiction or the dice intervene; where they may, it says so.
"""

from __future__ import annotations

from ftpress.orders.load import LoadedOrders
from ftpress.rules.ftc2007.economic_orders import NOT_RESOLVED, unresolved
from ftpress.rules.ftc2007.movement import ROUTE_INITIATIVE
from ftpress.rules.ftc2007.orders import place, vet
from ftpress.rules.ftc2007.plan import DEFAULT_POSTURE
from ftpress.state.model import State

_POSTURE = {"stand-off": "to stand off", "attack": "on attack orders",
            "withdraw-if-contested": "to withdraw if contested"}


def describe_orders(state: State, loaded: LoadedOrders) -> list[str]:
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
            blocked = [w for w in passed if (s := state.system(w)) and s.interdicted_by]
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
    if orders.economy is not None and vetted.economy_allowed:
        if orders.economy.maintenance:
            lines.append(f"Maintenance for economic turn "
                         f"{state.campaign.calendar.economic_turn}: "
                         f"{orders.economy.maintenance} (§7).")
        for what, text, _ in unresolved(orders.economy):
            lines.append(f"Not resolved by this version of ftpress: {text} ({what}, "
                         f"§{NOT_RESOLVED[what]}); the turn records it as not carried out.")
    return lines
