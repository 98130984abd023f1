"""The notes after rule 16 (rulebook 19.1, 19.2, 19.6): changing what a ship carries.

A weapon refit is priced by the systems it changes (as a repair, 20% more where
the new system differs in type or mass), a modular weapon fit is a module kept
in a designated place and swapped in over a week, and a freighter's cargo space
converted to hangars or racks costs 20% more than building them. The campaign
state knows a ship by its design and the hull boxes it has lost: it has no
systems, no store of unfitted modules and no cargo space, so none of these can
be priced or carried out by ftpress. Each is refused with its section and what
the umpire does instead (reading ``refits-are-the-umpires``).
"""

from __future__ import annotations

from ftpress.rules.ftc2007.orderfile import EconomyOrders, RefitOrder
from ftpress.rules.ftc2007.rejection import Rejection

_WHY = {
    "weapons": ("a weapon refit (§19.2) is priced by the systems it changes, as a repair "
                "and 20% more where the new system differs in type or mass"),
    "module": ("a modular weapon fit (§19.1) is a module kept at a designated place, "
               "paying no upkeep until it is swapped in, one a ship, over a week"),
    "cargo": ("converting cargo space to hangars or weapon racks (§19.6) costs 20% more "
              "than building them"),
}


def refit_problem(order: RefitOrder) -> str:
    """§19.1, §19.2, §19.6: why ftpress cannot carry out ``order``: always
    (reading ``refits-are-the-umpires``)."""
    return (f"{_WHY[order.kind]}, but the campaign state records a ship's design and lost "
            "hull boxes, not its systems, modules or cargo space, so ftpress cannot price "
            f"or make it; ask the umpire, who changes {order.ship}'s design in the state "
            "and charges the cost by hand")


def refit_rejections(economy: EconomyOrders) -> list[Rejection]:
    return [Rejection(("economy", "refits", i), refit_problem(order))
            for i, order in enumerate(economy.refits)]
