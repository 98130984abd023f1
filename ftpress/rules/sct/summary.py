"""What a player's sct orders will do, in plain words, for ``ftpress check``.

Worked out by the same vetting the turn uses (:mod:`.orders`); where other
players' moves or the dice may change the outcome, the line says so.
"""

from __future__ import annotations

from ftpress.orders.load import LoadedOrders
from ftpress.rules.sct.orderfile import BuildOrder, RepairOrder, SctOrders
from ftpress.rules.sct.orders import paid_for, vet
from ftpress.state.model import State


def describe_orders(state: State, loaded: LoadedOrders[SctOrders]) -> list[str]:
    """One line per thing the orders will do; illegal orders are not described."""
    vetted = vet(state, loaded)
    lines: list[str] = []
    for spend in paid_for(vetted):
        order = spend.order
        if isinstance(order, BuildOrder):
            what = f"Begin {order.name} ({order.design}) at {order.at}"
        elif isinstance(order, RepairOrder):
            what = f"Repair {order.ship} of {order.force} at {spend.at}"
        else:
            what = f"Begin a {order.kind} at {order.at}"
        lines.append(f"{what} for {spend.cost} MUCr ({spend.from_income} from this turn's "
                     f"income there, {spend.from_treasury} from the treasury).")
    for force_id, force in vetted.accepted.items():
        if force.move is not None:
            aim = f", aiming at {force.toward} (within 15°)" if force.toward else ""
            lines.append(f"{force_id} moves {force.move}{aim}.")
        if force.secondary is not None:
            second = force.secondary
            how = f"toward {second.toward}" if second.toward else f"on {second.bearing:g}°"
            lines.append(f"{force_id} then moves up to {second.distance:g} MU {how} for an "
                         "endurance point.")
        if not force.engage:
            lines.append(f"{force_id} will not start a combat (the other side still may).")
        if not force.supplied:
            lines.append(f"{force_id} saves its endurance and fights out of supply.")
        if force.rounds is not None:
            lines.append(f"{force_id} breaks off after {force.rounds} round"
                         f"{'s' if force.rounds != 1 else ''} of combat.")
        for new_id, names in force.split.items():
            lines.append(f"{force_id} splits after combat: {', '.join(names)} form {new_id}.")
        if force.merge:
            lines.append(f"{', '.join(force.merge)} merge into {force_id} after combat, "
                         "if they stand together.")
    if not lines:
        lines.append("No orders: every task force stays where it is.")
    return lines
