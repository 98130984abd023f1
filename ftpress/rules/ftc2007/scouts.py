"""§2.3: what counts as a scout, the one definition the order check, the
defence rules (§10.2's lone-scout exception) and the rulebook share."""

from __future__ import annotations

from collections.abc import Sequence

from ftpress.state.model import Group, State

#: §2.3 says neutral worlds are scouted "by single light elements" and gives no
#: size. ftpress reads a light element as one ship of 30 mass or less: every
#: scout, corvette, frigate and most destroyers of the Fleet Books, but no
#: heavy destroyer (40 mass) and nothing bigger. A rule by mass, not by class
#: name, so that a player cannot call a big ship a destroyer and scout with it.
SCOUT_MASS = 30


def is_scout(state: State, groups: Sequence[Group]) -> bool:
    """True when the groups hold one real ship (no dummy counters), of a design
    of SCOUT_MASS or less."""
    if any(g.dummy for g in groups):
        return False
    ships = [s for g in groups for s in g.ships]
    if len(ships) != 1:
        return False
    design = state.design(ships[0].design)
    return design is not None and design.mass <= SCOUT_MASS
