"""§5.1 Types of craft: the class a craft's mass gives it, and what kind of craft it is.

Nothing here changes a state; these are the facts about one craft that the
other rule functions ask for.
"""

from __future__ import annotations

import math
from typing import Literal

from ftpress.rules.ftcamp02.state_ext import of_design, of_ship
from ftpress.state.model import Design, Ship

#: §5.1.0 class codes with their mass ranges, lightest first, as the table gives them.
CLASSES: tuple[tuple[str, str, int, int], ...] = (
    ("SC", "scout or courier", 4, 10),
    ("CT", "corvette", 8, 16),
    ("FF", "frigate", 14, 26),
    ("DD", "destroyer", 24, 36),
    ("DH", "heavy destroyer", 30, 50),
    ("CL", "light cruiser", 40, 60),
    ("CE", "escort cruiser", 50, 70),
    ("CH", "heavy cruiser", 60, 90),
    ("BC", "battlecruiser", 80, 110),
    ("BB", "battleship", 100, 140),
    ("BDN", "heavy battleship", 120, 160),
    ("DN", "dreadnought", 140, 180),
)

#: Ruling: the table's mass ranges overlap (a mass-30 craft fits DD and DH). A craft
#: takes the LIGHTEST class whose range holds its mass, so a mass-30 craft is a DD.
OVERLAP_TAKES = "lightest"

#: Ruling: the table starts at mass 4; anything lighter is still classed a scout (SC).
BELOW_SMALLEST = "SC"

#: The usual optimal FTL move of a craft, in hexes (§4.1.1).
OPTIMAL_MOVE = 7

Kind = Literal["standard", "civilian", "military"]


def craft_class(mass: int) -> str:
    """§5.1.0: the class code of a craft of ``mass``; superdreadnoughts are 'SDN x'.

    A superdreadnought of type x covers masses from 100 + 50x to 150 + 50x (type 1
    is 150–200), so above the dreadnought's 180 the type is the lightest x whose
    range holds the mass.
    """
    if mass < CLASSES[0][2]:
        return BELOW_SMALLEST
    for code, _name, low, high in CLASSES:
        if low <= mass <= high:
            return code
    x = max(1, math.ceil((mass - 150) / 50))
    return f"SDN {x}"


def is_static(design: Design) -> bool:
    """§5.1.1: a static craft has neither an FTL drive nor a main drive."""
    ext = of_design(design)
    return not ext.ftl and not ext.main_drive


def is_independent(design: Design) -> bool:
    """§5.1.1, §5.1.2: civilian and military independents (every other design is a
    standard military craft, §5.1.3)."""
    return of_design(design).craft != "standard"


def is_military(design: Design) -> bool:
    """Standard military craft and military independents (§5.1.2, §5.1.3)."""
    return of_design(design).craft in ("standard", "military")


def sensor_grade(design: Design) -> str:
    """§7.3, §4.2.8: a craft's sensors. A design that does not say has basic sensors,
    unless it is a civilian craft, which carries none unless fitted with them."""
    ext = of_design(design)
    if ext.sensors is not None:
        return ext.sensors
    return "none" if ext.craft == "civilian" else "basic"


def crew_factors(design: Design) -> int:
    """§2.3: the crew factors a craft starts with.

    Ruling: a design that does not give its crew factors has one per hull row.
    """
    crew = of_design(design).crew
    return crew if crew is not None else len(design.hull)


def drifting(ship: Ship, design: Design) -> bool:
    """§2.3: a craft that has lost its last crew factor drifts."""
    return of_ship(ship).crew_lost >= crew_factors(design)


def optimal_move(ship: Ship) -> int:
    """§4.1.1: the craft's optimal move (7 unless a fled battle cut it)."""
    optimal = of_ship(ship).optimal
    return optimal if optimal is not None else OPTIMAL_MOVE
