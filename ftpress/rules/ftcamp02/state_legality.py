"""What ftcamp02 requires of any state, beyond what the state model checks: a
hex map, loyalty and ownership in step (§8), attachments (§3), the group
structure (§5.3), EP stores (§5.2) and crew (§2.3)."""

from __future__ import annotations

from collections.abc import Hashable

from ftpress.errors import Problem
from ftpress.rules.ftcamp02.crafts import crew_factors
from ftpress.rules.ftcamp02.groups import (
    designs_of,
    kind_of,
    points,
    store_limit,
    structure_problems,
)
from ftpress.rules.ftcamp02.state_ext import of_group, of_map, of_ship, of_system
from ftpress.rules.hex_map import hex_map_problems
from ftpress.state.hexes import Hex, on_map
from ftpress.state.load import LoadedState


def check_state(loaded: LoadedState) -> list[Problem]:
    """Every ftcamp02 problem with a loaded state, located."""
    return [*hex_map(loaded), *loyalty(loaded), *attachments(loaded), *structure(loaded),
            *stores(loaded), *crews(loaded)]


def hex_map(loaded: LoadedState) -> list[Problem]:
    """ftcamp02 is played on a hex map: systems, dust, wormholes and beacons on it."""
    m = loaded.state.map
    found = hex_map_problems(loaded, "ftcamp02")
    places: list[tuple[tuple[Hashable, ...], Hex]] = [
        (("dust", i), h) for i, h in enumerate(of_map(m).dust or ())]
    places += [(("wormholes", i, "ends", j), h) for i, w in enumerate(of_map(m).wormholes or ())
               for j, h in enumerate(w.ends)]
    places += [(("beacons", i, "hex"), b.hex) for i, b in enumerate(of_map(m).beacons or ())]
    for loc, h in places:
        if not on_map(h, m.radius):
            found.append(Problem(*loaded.where("map", *loc), f"hex {h} is off the map; a "
                                 f"radius-{m.radius} map holds hexes at most {m.radius} "
                                 "from (0, 0)"))
    return found


def loyalty(loaded: LoadedState) -> list[Problem]:
    """§8: a system is its owner's exactly when its loyalty rating is positive; a claim
    in name is on a neutral system."""
    found = []
    for i, s in enumerate(loaded.state.map.systems):
        ext = of_system(s)
        if s.owner is not None and ext.loyalty <= 0:
            found.append(Problem(*loaded.where("map", "systems", i, "owner"), f"{s.id!r} is "
                                 f"held by {s.owner!r} with loyalty 0; a system is under a "
                                 "power's control only with positive loyalty (§8), so give "
                                 "'loyalty:' or leave out the owner"))
        if s.owner is None and ext.loyalty > 0:
            found.append(Problem(*loaded.where("map", "systems", i, "loyalty"), f"{s.id!r} "
                                 f"has loyalty {ext.loyalty} but no owner; give the 'owner:' it "
                                 "is loyal to (§8)"))
        if ext.claimed_by is not None and s.owner is not None:
            found.append(Problem(*loaded.where("map", "systems", i, "claimed_by"), f"{s.id!r}"
                                 " is held, so it cannot be claimed in name; only a neutral "
                                 "system is (§8.1)"))
    return found


def attachments(loaded: LoadedState) -> list[Problem]:
    """§3, §3.1: an attached independent is a lone independent with a standard group of its
    own power in its own hex."""
    state = loaded.state
    groups = {g.id: g for g in state.groups.groups}
    found = []
    for i, g in enumerate(state.groups.groups):
        to = of_group(g).attached_to
        if to is None:
            continue
        parent = groups.get(to)
        if kind_of(state, g) != "independent":
            wrong = (f"{g.id} is not a single independent craft; only independents can be "
                     "attached (§3)")
        elif parent is None or parent.owner != g.owner:
            wrong = f"no group {to!r} of {g.owner}'s to be attached to"
        elif kind_of(state, parent) != "standard" or of_group(parent).attached_to is not None:
            wrong = (f"{to} is not a standard fleet group; independents attach "
                     "only to those (§5.2.1)")
        elif state.hex_of(parent.at) != state.hex_of(g.at):
            wrong = (f"{g.id} is at {g.at} but {to} at {parent.at}; an attached "
                     "independent is with its group")
        else:
            continue
        # Located only for a problem: a file kept from an earlier load is parsed again.
        found.append(Problem(*loaded.where("groups", "groups", i, "attached_to"), wrong))
    return found


def structure(loaded: LoadedState) -> list[Problem]:
    """§5.3: the group structure."""
    index = {g.id: i for i, g in enumerate(loaded.state.groups.groups)}
    return [Problem(*loaded.where("groups", "groups", index[gid], "id"), message + " (§5.3)")
            for gid, message in structure_problems(loaded.state)]


def stores(loaded: LoadedState) -> list[Problem]:
    """§5.2: no group keeps more EPs than its store holds."""
    state = loaded.state
    found = []
    for i, g in enumerate(state.groups.groups):
        limit = store_limit(kind_of(state, g), points(designs_of(state, g)))
        if (g.endurance or 0) > limit:
            found.append(Problem(*loaded.where("groups", "groups", i, "endurance"),
                                 f"{g.id} has {g.endurance} EP in store, more than the "
                                 f"{limit} its kind and size may keep (§5.2)"))
    return found


def crews(loaded: LoadedState) -> list[Problem]:
    """§2.3: a craft cannot lose more crew factors than it has."""
    state = loaded.state
    found = []
    for i, g in enumerate(state.groups.groups):
        for j, s in enumerate(g.ships):
            d = state.design(s.design)
            lost = of_ship(s).crew_lost
            if d is not None and lost > crew_factors(d):
                found.append(Problem(*loaded.where("groups", "groups", i, "ships", j,
                                                   "crew_lost"),
                                     f"{s.name} has lost {lost} crew factors but has "
                                     f"only {crew_factors(d)} (§2.3)"))
    return found
