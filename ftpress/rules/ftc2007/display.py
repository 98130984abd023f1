"""How ftc2007's state shows on the site: who has interdicted a world (§10.6), in
the systems tables and as a ring on the map."""

from __future__ import annotations

from ftpress.rules.ftc2007.state_ext import interdictor, prizes_of
from ftpress.state import words
from ftpress.state.display import Display, PowerColumn
from ftpress.state.model import State, System


def interdicted(system: System) -> bool:
    return interdictor(system) is not None


def prizes(state: State, player_id: str) -> tuple[tuple[str, str, str], ...]:
    """The prizes ``player_id`` holds (§12): each hulk by its id, where it lies, the
    ship it was and whose, and whether it is stripped (§12.2.2)."""
    player = state.player(player_id)
    if player is None:
        return ()
    return tuple((f"prize {p.id}", words.place(state, p.at),
                  f"{words.ship(state, p.ship.name, p.ship.design)}, taken from "
                  f"{words.power(state, p.taken_from)}"
                  + (", stripped for parts (§12.2.2)" if p.stripped else
                     "; rebuild, strip or sell it (§12.2)"))
                 for p in prizes_of(player))


DISPLAY = Display(columns=(PowerColumn("Interdicted by", "interdicted by", interdictor),),
                  interdicted=interdicted, holdings=prizes)
