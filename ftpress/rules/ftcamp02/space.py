"""The campaign map as ftcamp02 reads it: hex types and contents (§4.1.1),
friendly systems (§2.1), and distances to the nearest system or beacon (§4.2.8)."""

from __future__ import annotations

from ftpress.rules.ftcamp02.state_ext import of_map, of_player, of_system
from ftpress.state.hexes import Hex
from ftpress.state.model import Group, State, System

#: §4.1.1, §4.2.8: the modifier for the type of hex, dust cloud or deep space.
HEX_TYPE_MODIFIER = {"dust cloud": -2, "deep space": -1}
#: §4.1.1: the bonus for a system hex, and for an outer system hex (one of the six
#: hexes touching a system hex).
SYSTEM_BONUS = 2
OUTER_SYSTEM_BONUS = 1
#: §4.1.1: no hex gives more than this from beacons.
BEACON_CAP = 3

#: Ruling: a hex that is a system hex and touches another system, or touches two
#: systems, gets only the best single system bonus (+2, else +1), not a sum.
SYSTEM_BONUSES_ADD_UP = False


def hex_type(state: State, h: Hex) -> str:
    """'dust cloud' or 'deep space' (every hex is one of the two)."""
    return "dust cloud" if h in (of_map(state.map).dust or ()) else "deep space"


def place_hex(state: State, group: Group) -> Hex:
    """The hex a group is on (ftcamp02 maps are hex maps)."""
    h = state.hex_of(group.at)
    if not isinstance(h, Hex):
        raise ValueError(f"{group.id} is at {group.at!r}, which is not on the hex map")
    return h


def location(state: State, h: Hex) -> str | Hex:
    """How a group on ``h`` records where it is: the system's id, else the hex."""
    world = state.system_at(h)
    return world.id if world is not None else h


def beacon_bonus(state: State, h: Hex) -> int:
    """§4.1.1: the active beacons' bonus on a hex, at most +3."""
    return min(BEACON_CAP, sum(b.bonus for b in of_map(state.map).beacons or () if b.active
                               and b.hex == h))


def contents_modifier(state: State, h: Hex) -> int:
    """§4.1.1: what a target hex's contents add to the lost roll."""
    bonuses = [SYSTEM_BONUS] if state.system_at(h) is not None else []
    bonuses += [OUTER_SYSTEM_BONUS for n in h.neighbours() if state.system_at(n) is not None]
    if SYSTEM_BONUSES_ADD_UP:
        bonus = sum(bonuses)
    else:
        bonus = max(bonuses, default=0)
    return bonus + beacon_bonus(state, h)


def distance_modifier(distance: int, optimal: int) -> int:
    """§4.1.1: +n for each hex short of the optimal move, −n for each hex beyond it."""
    return optimal - distance


def nearest_fix(state: State, h: Hex) -> int | None:
    """§4.2.8: hexes to the nearest system or active beacon (None: there is none)."""
    fixes = [s.hex for s in state.map.systems if s.hex is not None]
    fixes += [b.hex for b in of_map(state.map).beacons or () if b.active]
    return min((h.distance(f) for f in fixes), default=None)


def friendly(state: State, system: System | None, player: str) -> bool:
    """§2.1: a system with positive loyalty towards the player, or held by a player
    who supplies the player's fleets."""
    if system is None or system.owner is None or of_system(system).loyalty <= 0:
        return False
    if system.owner == player:
        return True
    me = state.player(player)
    return me is not None and system.owner in of_player(me).supplied_by
