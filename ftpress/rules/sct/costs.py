"""What things cost and how fast shipyards work (§3.3, §7.2–§7.4).

Pure arithmetic over the state; the phases that spend and deliver are in
:mod:`.economy`, the checks of economic orders in :mod:`.orders`.
"""

from __future__ import annotations

from typing import Literal

from ftpress.state.model import Design, State, System

Work = Literal["depot", "base", "shipyard"]

#: Ruling: the seed prices ships by "their value" but gives no costs; a ship costs
#: its design's points in MUCr, this many MUCr a point.
SHIP_COST_PER_POINT = 1

#: §7.2–§7.4: an installation's cost as a multiple of the system's EV, and the turns
#: it takes to complete.
WORKS: dict[Work, tuple[int, int]] = {"depot": (5, 5), "base": (10, 10),
                                      "shipyard": (10, 10)}

#: §7.4: a yard builds and repairs one tenth of its system's EV a turn. Ruling: each
#: project in hand advances at that rate (whole MUCr, rounded down, at least 1).
YARD_RATE_DIVISOR = 10

#: §7.4: "combined projects equal to one half that value". Ruling: "that value" is
#: the system's EV (half of the yard's rate would be less than one project): the
#: projects a yard has in hand at once may cost at most half its system's EV together.
YARD_COMBINED_DIVISOR = 2

#: §3.3: repairing a crippled ship costs half its value. Ruling: rounded up.
REPAIR_ROUNDS_UP = True


def ship_cost(design: Design) -> int:
    """§3.3: the full cost of a new ship, paid when construction begins."""
    return design.points * SHIP_COST_PER_POINT


def repair_cost(design: Design) -> int:
    """§3.3: half the ship's value, paid when the repair begins."""
    cost = ship_cost(design)
    return (cost + 1) // 2 if REPAIR_ROUNDS_UP else cost // 2


def works_cost(kind: Work, system: System) -> tuple[int, int]:
    """§7.2–§7.4: (cost in MUCr, turns to complete) of an installation here."""
    times, turns = WORKS[kind]
    return times * (system.income or 0), turns


def yard_rate(system: System) -> int:
    """§7.4: MUCr of work a shipyard puts into each project a turn."""
    return max(1, (system.income or 0) // YARD_RATE_DIVISOR)


def yard_limit(system: System) -> int:
    """§7.4: the most the projects in hand at one yard may cost together."""
    return (system.income or 0) // YARD_COMBINED_DIVISOR


def in_hand(state: State, system_id: str) -> int:
    """The cost of the projects a yard has in hand now (builds and repairs)."""
    total = 0
    for keel in state.queues.keels:
        design = state.design(keel.design)
        if keel.at == system_id and design is not None:
            total += ship_cost(design)
    for repair in state.queues.repairs:
        if repair.at == system_id:
            total += repair.cost
    return total
