"""How ftc2007's state shows on the site: who has interdicted a world (§10.6), in
the systems tables and as a ring on the map."""

from __future__ import annotations

from ftpress.rules.ftc2007.state_ext import interdictor
from ftpress.state.display import Display, PowerColumn
from ftpress.state.model import System


def interdicted(system: System) -> bool:
    return interdictor(system) is not None


DISPLAY = Display(columns=(PowerColumn("Interdicted by", "interdicted by", interdictor),),
                  interdicted=interdicted)
