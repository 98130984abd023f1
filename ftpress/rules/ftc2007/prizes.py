"""§12.2: what a prize is worth, and which orders for it the rules allow.

Below :mod:`.capture` (which carries the orders out during the turn) so that the
legality of a player's orders (:mod:`.orders`) can ask without reaching the
turn's plan.
"""

from __future__ import annotations

from collections.abc import Hashable

from ftpress.rules.ftc2007.orderfile import PrizeOrder
from ftpress.rules.ftc2007.state_ext import Prize, prizes_of
from ftpress.state.model import Design, State

#: §12.2.1 "at least two rows of hull boxes intact".
REBUILD_MIN_INTACT_ROWS = 2

#: §12.2.3: 10% of the construction cost (the design's points) for each intact row,
#: rounded down to whole points: the scrap dealers pay no fractions.
SALE_RATE_PER_ROW = (1, 10)


def intact_rows(design: Design, damage: int) -> int:
    """Rows of hull boxes with no box lost, damage taken from the first row on."""
    left = damage
    intact = 0
    for row in design.hull:
        if left <= 0:
            intact += 1
        left -= row
    return intact


def sale_price(design: Design, damage: int) -> int:
    """§12.2.3: what the scrap dealers pay (:data:`SALE_RATE_PER_ROW`)."""
    n, d = SALE_RATE_PER_ROW
    return design.points * n * intact_rows(design, damage) // d


def prize_rejections(state: State, player: str, orders: dict[str, PrizeOrder],
                     ) -> list[tuple[tuple[Hashable, ...], str]]:
    """Why the rules forbid each prize order (§12.2: rebuilding §12.2.1, stripping
    §12.2.2): ``(loc in the file, reason)``."""
    owner = state.player(player)
    mine = {p.id: p for p in prizes_of(owner)} if owner else {}
    found: list[tuple[tuple[Hashable, ...], str]] = []
    for prize_id, order in orders.items():
        loc: tuple[Hashable, ...] = ("economy", "prizes", prize_id)
        prize = mine.get(prize_id)
        if prize is None:
            listing = ", ".join(sorted(mine)) or "none"
            found.append((loc, f"you hold no prize {prize_id!r}; your prizes are {listing}"))
            continue
        design = state.design(prize.ship.design)
        assert design is not None
        if prize.stripped and order.action != "strip":
            found.append(((*loc, "action"), f"prize {prize_id!r} has been stripped; what is "
                          f"left cannot be {'sold' if order.action == 'sell' else 'rebuilt'} "
                          "(§12.2.2)"))
        elif prize.stripped:
            found.append(((*loc, "action"), f"prize {prize_id!r} has been stripped already"))
        elif order.action == "rebuild":
            rows = intact_rows(design, prize.ship.damage)
            if rows < REBUILD_MIN_INTACT_ROWS:
                found.append(((*loc, "action"), f"{prize.ship.name} has {rows} intact row"
                              f"{'' if rows == 1 else 's'} of hull boxes; a rebuild needs at "
                              f"least {REBUILD_MIN_INTACT_ROWS} (§12.2.1)"))
            elif order.group is None:
                found.append((loc, "a rebuild names the group the ship joins or forms where "
                              "it lies; add 'group:'"))
            else:
                problem = _group_problem(state, player, prize, order.group)
                if problem:
                    found.append(((*loc, "group"), problem))
        elif order.group is not None:
            found.append(((*loc, "group"), f"only a rebuild names a group, not a "
                          f"{order.action}"))
    return found


def _group_problem(state: State, player: str, prize: Prize, group_id: str) -> str | None:
    group = next((g for g in state.groups.groups if g.id == group_id), None)
    if group is None:
        return None  # a new group, formed where the prize lies
    if group.owner != player:
        return f"group {group_id!r} is {group.owner}'s; name a group of yours or a new id"
    if state.hex_of(group.at) != state.hex_of(prize.at):
        return (f"group {group_id!r} is not where prize {prize.id!r} lies; name a group there "
                "or a new id")
    if group.dummy:
        return f"{group_id!r} is a dummy counter (§15.2); name a real group or a new id"
    return None
