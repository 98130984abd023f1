"""How ftcamp02's state shows on the site: a system's Biology rate, loyalty and
claim in the notes (§2.1, §8); no counter for an independent attached to a
group (its marker is off the map, §3); the map's dust clouds and wormholes
(§4.1.1, §4.1.2)."""

from __future__ import annotations

from ftpress.rules.ftcamp02.state_ext import of_group, of_map, of_system
from ftpress.state.display import Display, HexFeatures
from ftpress.state.model import Group, MapFile, System


def notes(system: System) -> tuple[str, ...]:
    ext = of_system(system)
    return tuple(f for f in (
        f"Biology {ext.bio}" if ext.bio is not None else "",
        f"loyalty {ext.loyalty}" if ext.loyalty else "",
        f"claimed by {ext.claimed_by}" if ext.claimed_by else "") if f)


def counter(group: Group) -> bool:
    """An attached independent has no counter of its own (§3)."""
    return of_group(group).attached_to is None


def features(map_file: MapFile) -> HexFeatures:
    ext = of_map(map_file)
    return HexFeatures(dust=tuple(ext.dust or ()),
                       wormholes=tuple(w.ends for w in ext.wormholes or ()))


#: The Fleet Orders chapter has no charted routes (its wormholes are drawn as map
#: features), no upkeep rate (groups spend EPs, §2) and no dummy counters.
DISPLAY = Display(notes=notes, counter=counter, features=features, routes=False,
                  dummies=False)
