"""How sct's state shows on the site: systems placed by their position in MU and
drawn on the planar map by their star's class and first nation (§7.1)."""

from __future__ import annotations

from ftpress.rules.sct.state_ext import of_system
from ftpress.state.display import Display, PlaneSystem
from ftpress.state.model import System


def place(system: System) -> str:
    """The systems table's place: the position, as ``(x, y)`` in MU."""
    return str(of_system(system).position)


def plane_system(system: System) -> PlaneSystem | None:
    sct = of_system(system)
    if sct.position is None:
        return None
    return PlaneSystem(sct.position, sct.spectral, sct.nation)


#: sct's map is a plane measured in MU, with no charted routes; it bills no upkeep
#: rate (§3) and keeps nothing secret, dummy counters included.
DISPLAY = Display(place=place, place_heading="Position (MU)", routes=False,
                  dummies=False, plane_system=plane_system)
