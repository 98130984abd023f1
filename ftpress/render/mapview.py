"""The star map of a campaign state as a viewer knows it, as a map view.

The state is the viewer's known state (:mod:`ftpress.secrecy.knowledge`): an unscouted
neutral's income stays unknown, and another power's task group is a counter with
an owner and a number, never its ships. Dummy counters are drawn exactly like
real ones. Where the viewer knows all of a power's groups (the umpire, every
power's; a player, their own) each counter names its group, ships and whether
it is a dummy. What the campaign's ruleset keeps beside the shared state (a hex
map's dust and wormholes, where a planar map's systems stand) comes from its
:class:`~ftpress.state.display.Display`.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Literal

from markupsafe import Markup

from ftpress.maps.planemap import (
    Burst,
    ForceMark,
    PlaneMap,
    SystemMark,
    Track,
    render_plane,
)
from ftpress.maps.starmap import (
    CounterMark,
    Marker,
    Move,
    Power,
    Route,
    StarMap,
    WorldMark,
    render_svg,
)
from ftpress.render.outputs import UNSEARCHED
from ftpress.render.words import plural
from ftpress.secrecy.visibility import PUBLIC_VIEW, Viewer, holds_all_of
from ftpress.state.display import Display
from ftpress.state.events import Event
from ftpress.state.hexes import Hex
from ftpress.state.model import Point, State


def public_map(state: State, title: str, *, display: Display, viewer: Viewer = PUBLIC_VIEW
               ) -> StarMap | PlaneMap:
    """The state as ``viewer`` knows it, as a map.

    A counter's tooltip names its group, ships and whether it is a dummy where the
    state holds all of its power's (see the module docstring); any other counter is
    numbered in its stack, for a group's id is its owner's label. A planar map
    (``geometry: plane``) is drawn by :mod:`ftpress.maps.planemap`.
    """
    if state.map.geometry == "plane":
        return plane_map(state, title, viewer=viewer, display=display)
    players = state.players.players
    powers = tuple(Power(p.id, p.name, p.colour.upper(), p.id[:3].upper()) for p in players)
    capitals = {p.capital for p in players}
    # A map that is not a plane is of hexes: the rulesets that use one refuse a system
    # without a hex (and a group at a point), so such a thing is nowhere on it.
    hexes = {s.id: s.hex for s in state.map.systems if s.hex is not None}
    worlds = tuple(WorldMark(s.hex, s.name, s.income, s.owner, capital=s.id in capitals,
                             depot=s.depot, base=s.base, shipyard=s.shipyard,
                             interdicted=display.interdicted(s))
                   for s in state.map.systems if s.hex is not None)
    routes = tuple(Route(tuple(hexes[a] for a in link)) for route in state.map.routes
                   for link in route.links)
    # Counters are numbered per owner and place, so the number says nothing of contents.
    seen: dict[tuple[str, Hex], int] = defaultdict(int)
    counters = []
    for group in sorted(state.groups.groups, key=lambda g: (g.owner, g.id)):
        if not (viewer.umpire or display.counter(group)):
            continue  # its marker is off the map
        where = state.hex_of(group.at)
        if where is None:
            continue
        seen[group.owner, where] += 1
        label = str(seen[group.owner, where])
        if holds_all_of(state, group.owner):
            ships = ", ".join(s.name for s in group.ships) or "no ships"
            label = f"{group.id}: " + ("a dummy" if group.dummy else ships)
        # A player's own view marks their own counters with their ids.
        own = state.campaign.known_to is not None and state.campaign.known_to == group.owner
        counters.append(CounterMark(where, group.owner, label, group.id if own else ""))
    neutral = sum(1 for s in state.map.systems if s.owner is None)
    description = (f"A hex map {state.map.radius + 1} hexes to a side with "
                   f"{len(worlds)} worlds ({neutral} neutral), {len(state.map.routes)} charted "
                   f"routes and {len(counters)} task-group counters. Each world shows its "
                   "owner's initials, its income above and its name below.")
    features = display.features(state.map)
    if features.dust or features.wormholes:
        holes = len(features.wormholes)
        description += (f" {len(features.dust)} hexes are dust cloud, shaded; "
                        f"{holes} wormhole{'s join' if holes != 1 else ' joins'} two ringed "
                        "ends.")
    return StarMap(state.map.radius, title, description, powers, worlds, routes,
                   tuple(counters), dust=features.dust, wormholes=features.wormholes)


def turn_map(state: State, events: Iterable[Event], title: str,
             marker: Callable[[Event], Literal["battle", "siege"] | None],
             move_kinds: frozenset[str], *, display: Display,
             viewer: Viewer = PUBLIC_VIEW) -> StarMap | PlaneMap:
    """The map after a turn, with the turn's moves and its battles and sieges.

    ``events`` must already be those ``viewer`` reads: every arrow and marker drawn
    here comes from an event the report shows. The ruleset's report says which events
    mark their place and how (``marker``), and which kinds move a group from its
    ``origin`` (``move_kinds``): an arrow.
    """
    if state.map.geometry == "plane":
        return plane_turn_map(state, events, title, marker, move_kinds, display=display,
                              viewer=viewer)
    events = list(events)
    base = public_map(state, title, viewer=viewer, display=display)
    assert isinstance(base, StarMap)
    moves: list[Move] = []
    markers: dict[tuple[Hex, Literal["battle", "siege"]], list[str]] = {}
    for event in events:
        at = state.hex_of(event.at) if event.at is not None else None
        if event.kind in move_kinds and event.origin is not None and at is not None:
            start = state.hex_of(event.origin)
            if start is not None and start != at and event.player is not None:
                moves.append(Move(start, at, event.player))
        kind = marker(event)
        if kind is not None and at is not None:
            markers.setdefault((at, kind), []).append(event.text)
    marks = tuple(Marker(h, kind, " ".join(texts))
                  for (h, kind), texts in sorted(markers.items(),
                                                 key=lambda i: (i[0][0].q, i[0][0].r, i[0][1])))
    unique = tuple(dict.fromkeys(moves))
    extra = (f" Arrows show {plural(len(unique), 'move')} made this turn." if unique else ""
             ) + (f" {plural(len(marks), 'battle or siege marker')}." if marks else "")
    return dataclasses.replace(base, moves=unique, markers=marks,
                               description=base.description + extra)


def inline(svg: str) -> Markup:
    """An SVG document as markup to put inside a page (no XML declaration)."""
    return Markup(svg.split("?>", 1)[-1] if svg.startswith("<?xml") else svg)


def unsearched(svg: str) -> Markup:
    """Inline SVG marked for the search index to skip. A turn report's map and chart
    say in pictures what its tables say in words, at several times their bytes, and
    Pagefind's time goes with the bytes it reads (:mod:`ftpress.site.search` strips such
    SVG from the copies it indexes)."""
    return Markup(svg.replace("<svg ", f"<svg {UNSEARCHED} ", 1))


def render_map(m: StarMap | PlaneMap, element_id: str = "starmap") -> str:
    """A hex map or a planar map as an SVG document string."""
    if isinstance(m, PlaneMap):
        return render_plane(m, element_id)
    return render_svg(m, element_id)


def map_svg(state: State, title: str, *, display: Display,
            viewer: Viewer = PUBLIC_VIEW) -> Markup:
    """The map as ``viewer`` knows it, as inline SVG (svgwrite escapes every name in it)."""
    return inline(render_map(public_map(state, title, viewer=viewer, display=display)))


# --- planar maps -----------------------------------------------------------------------

def _point(state: State, at: str | Hex | Point | None, display: Display) -> Point | None:
    if isinstance(at, Point):
        return at
    if isinstance(at, str):
        system = state.system(at)
        drawn = display.plane_system(system) if system is not None else None
        return drawn.at if drawn is not None else None
    return None


def plane_map(state: State, title: str, *, display: Display, viewer: Viewer = PUBLIC_VIEW
              ) -> PlaneMap:
    """A planar map's state as ``viewer`` knows it: systems as the ruleset's display
    places and colours them, and each task force a counter numbered per owner and
    place, or named with its ships where the state holds all of its power's."""
    players = state.players.players
    powers = tuple(Power(p.id, p.name, p.colour.upper(), p.id[:3].upper()) for p in players)
    capitals = {p.capital for p in players}
    systems = tuple(SystemMark(d.at.x, d.at.y, d.at.z, s.name, s.income, s.owner, d.nation,
                               d.spectral, s.depot, s.base, s.shipyard, s.id in capitals)
                    for s in state.map.systems if (d := display.plane_system(s)) is not None)
    seen: dict[tuple[str, float, float], int] = defaultdict(int)
    forces = []
    for group in sorted(state.groups.groups, key=lambda g: (g.owner, g.id)):
        point = _point(state, group.at, display)
        if point is None:
            continue
        seen[group.owner, point.x, point.y] += 1
        label = str(seen[group.owner, point.x, point.y])
        if holds_all_of(state, group.owner):
            label = f"{group.id}: " + (", ".join(s.name for s in group.ships) or "no ships")
        forces.append(ForceMark(point.x, point.y, group.owner, label))
    neutral = sum(1 for s in systems if s.owner is None)
    description = (f"A map {2 * state.map.radius} MU across with {len(systems)} systems "
                   f"({neutral} neutral) and {len(forces)} task-force counters. Each system "
                   "shows its EV above, its name below and its z-coordinate inside; the outer "
                   "ring is the star's spectral colour, the inner circle its first nation's.")
    return PlaneMap(state.map.radius, title, description, powers, systems, tuple(forces))


def plane_turn_map(state: State, events: Iterable[Event], title: str,
                   marker: Callable[[Event], Literal["battle", "siege"] | None],
                   move_kinds: frozenset[str], *, display: Display,
                   viewer: Viewer = PUBLIC_VIEW) -> PlaneMap:
    """The planar map after a turn, with its moves as tracks and its battles marked."""
    events = list(events)
    base = plane_map(state, title, viewer=viewer, display=display)
    tracks: list[Track] = []
    bursts: dict[tuple[float, float], list[str]] = {}
    for event in events:
        at = _point(state, event.at, display)
        if event.kind in move_kinds and at is not None and event.player is not None:
            start = _point(state, event.origin, display)
            if start is not None and (start.x, start.y) != (at.x, at.y):
                tracks.append(Track(start.x, start.y, at.x, at.y, event.player))
        if marker(event) is not None and at is not None:
            bursts.setdefault((at.x, at.y), []).append(event.text)
    unique = tuple(dict.fromkeys(tracks))
    marks = tuple(Burst(x, y, " ".join(texts)) for (x, y), texts in sorted(bursts.items()))
    extra = (f" Arrows show {plural(len(unique), 'move')} made this turn." if unique else ""
             ) + (f" {plural(len(marks), 'battle marker')}." if marks else "")
    return dataclasses.replace(base, tracks=unique, bursts=marks,
                               description=base.description + extra)
