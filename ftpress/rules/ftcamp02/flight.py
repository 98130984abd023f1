"""§4.1 and §4.1.3: which craft can make a move between hexes: all must be FTL
capable, except statics, which go only if the group's tugs tow them all at once."""

from __future__ import annotations

from collections.abc import Sequence

from ftpress.rules.ftcamp02.crafts import drifting, is_static
from ftpress.rules.ftcamp02.state_ext import of_design, of_ship
from ftpress.state.model import Design, Ship

#: Ruling: statics are towed all at once (§4.1.3) when the group's ready tugs can
#: tow their total mass between them AND the largest tug can tow the largest static
#: (the seed states the second condition for moves inside a system; it is applied
#: to every move).
TOWING = "total mass and largest static"


def flight_problem(who: str, party: Sequence[tuple[Ship, Design]]) -> str | None:
    """Why ``who`` with these craft cannot move between hexes (None: it can).

    Drifting craft are left out: they are left behind (§2.3).
    """
    able = [(s, d) for s, d in party if not drifting(s, d)]
    if not able:
        return f"{who} has no craft able to move (every one drifts, §2.3)"
    grounded = [s.name for s, d in able if not of_design(d).ftl and not is_static(d)]
    if grounded:
        verb = "has" if len(grounded) == 1 else "have"
        return (f"{', '.join(grounded)} {verb} no FTL drive; a group moves only if all its "
                "craft are FTL capable (§4.1)")
    statics = [d for _s, d in able if is_static(d)]
    if not statics:
        return None
    tugs = [of_design(d).tug for s, d in able if of_design(d).tug > 0 and of_design(d).ftl
            and (of_design(d).tug_grade == "military" or of_ship(s).tug_ready)]
    mass, biggest = sum(d.mass for d in statics), max(d.mass for d in statics)
    if sum(tugs) >= mass and max(tugs, default=0) >= biggest:
        return None
    unready = [s.name for s, d in able if of_design(d).tug > 0
               and of_design(d).tug_grade == "civilian" and not of_ship(s).tug_ready]
    hint = (f"; civilian tug {', '.join(unready)} must first spend a round on 'tug' "
            "(§4.2.6)") if unready else ""
    return (f"{who}'s statics ({mass} mass, the largest {biggest}) must be towed all at "
            f"once, but its ready tugs tow {sum(tugs)} mass, the largest "
            f"{max(tugs, default=0)} (§4.1.3){hint}")
