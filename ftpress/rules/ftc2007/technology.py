"""§16: standard and non-standard technology, and the surcharge on technology
foreign to the navy that fits it (§16.3), for construction and repair alike."""

from __future__ import annotations

from fractions import Fraction

from ftpress.rules.ftc2007.state_ext import tech_of
from ftpress.rules.ftc2007.treasury import charge
from ftpress.state.model import Design

#: §16.3: technology not native to the rest of the navy costs this much more to
#: install, and so to repair.
NON_INDIGENOUS_SURCHARGE = Fraction(1, 5)


def non_standard(design: Design) -> bool:
    """§16.2–16.3: repaired only from spares or at the capital. Non-indigenous
    technology is non-standard too."""
    return tech_of(design) != "standard"


def non_indigenous(design: Design) -> bool:
    return tech_of(design) == "non-indigenous"


def with_surcharge(design: Design, points: int) -> int:
    """§16.3: ``points`` of installing or repairing on ``design``, 20% more when it
    carries non-indigenous technology (reading ``surcharge-on-the-whole-ship``), rounded up."""
    return charge(points, 1 + NON_INDIGENOUS_SURCHARGE) if non_indigenous(design) else points


def build_price(design: Design) -> int:
    """What a keel of ``design`` costs in all, 100 points of it a week (§13.1)."""
    return with_surcharge(design, design.points)
