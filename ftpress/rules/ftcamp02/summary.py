"""What one player's ftcamp02 orders will do, in plain sentences (``ftpress check``)."""

from __future__ import annotations

from ftpress.orders.load import LoadedOrders
from ftpress.rules.ftcamp02.orderfile import OrdersFile
from ftpress.rules.ftcamp02.orders import vet
from ftpress.rules.ftcamp02.state_ext import of_group
from ftpress.state.model import State


def describe_orders(state: State, loaded: LoadedOrders[OrdersFile]) -> list[str]:
    """One sentence per order that stands; refused orders are reported as problems."""
    orders = loaded.orders
    vetted = vet(state, orders)
    lines = [f"{g} is detached from its group (§3)." for g in vetted.rest.detach]
    lines += [f"{g} is attached to {t} (§3)." for g, t in sorted(vetted.rest.attach.items())]
    for group_id, order in orders.groups.items():
        if group_id not in vetted.accepted:
            continue
        if order.action == "move":
            j = vetted.rest.journeys[group_id]
            via = f" through wormhole {j.wormhole}" if j.wormhole else ""
            roll = ("it cannot get lost" if j.modifier >= 0 else
                    f"the lost roll needs {1 - j.modifier}+ on a d6")
            lines.append(f"{group_id} moves {j.distance} hexes to {order.move}{via}; {roll} "
                         "(§4.1.1).")
        elif order.action == "support":
            lines.append(f"{group_id} supports {order.support}, following its order (§4.4).")
        elif order.action == "maintain_orbit":
            lines.append(f"{group_id} maintains orbit where it is (§4.3).")
        else:
            extra = f"; craft: {', '.join(f'{n} {s}' for n, s in order.crafts.items())}" \
                if order.crafts else ""
            lines.append(f"{group_id} holds ({order.sub}{extra}) (§4.2).")
        lines += [f"{group_id} splits: {', '.join(crafts)} "
                  f"{'leaves' if len(crafts) == 1 else 'leave'} to form {new_id} (§4.2.2)."
                  for new_id, crafts in order.split.items()]
        if order.merge:
            lines.append(f"{', '.join(order.merge)} join {group_id} (§4.2.2).")
    mine = {g.id for g in state.groups_of(orders.player) if of_group(g).attached_to is None}
    merged = {other for order in orders.groups.values() for other in order.merge}
    silent = sorted(mine - set(orders.groups) - set(vetted.rest.attach) - merged)
    if silent:
        lines.append(f"Not mentioned, so holding: {', '.join(silent)} (§4.0).")
    return lines
