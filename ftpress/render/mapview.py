"""The public star map of a campaign state: what any reader may see, as a map view.

Only public facts go in (ftc2007 §4.2, §15.2–15.3): an unscouted neutral's
income stays unknown, and a task group is a counter with an owner and a
number, never its ships. Dummy counters are drawn exactly like real ones.
"""

from __future__ import annotations

from collections import defaultdict

from markupsafe import Markup

from ftpress.hexes import Hex
from ftpress.maps.starmap import CounterMark, Power, Route, StarMap, WorldMark, render_svg
from ftpress.state.model import State


def public_map(state: State, title: str) -> StarMap:
    """The state as the public map shows it."""
    players = state.players.players
    powers = tuple(Power(p.id, p.name, p.colour.upper(), p.id[:3].upper()) for p in players)
    capitals = {p.capital for p in players}
    systems = {s.id: s for s in state.map.systems}
    worlds = tuple(WorldMark(s.hex, s.name, s.income, s.owner, capital=s.id in capitals,
                             depot=s.depot, base=s.base, shipyard=s.shipyard,
                             interdicted=s.interdicted_by is not None)
                   for s in state.map.systems)
    routes = tuple(Route(tuple(systems[a].hex for a in link)) for route in state.map.routes
                   for link in route.links)
    # Counters are numbered per owner and place, so the number says nothing of contents.
    seen: dict[tuple[str, Hex], int] = defaultdict(int)
    counters = []
    for group in sorted(state.groups.groups, key=lambda g: (g.owner, g.id)):
        where = group.at if isinstance(group.at, Hex) else systems[group.at].hex
        seen[group.owner, where] += 1
        counters.append(CounterMark(where, group.owner, str(seen[group.owner, where])))
    neutral = sum(1 for s in state.map.systems if s.owner is None)
    description = (f"A hex map {state.map.radius + 1} hexes to a side with "
                   f"{len(worlds)} worlds ({neutral} neutral), {len(state.map.routes)} charted "
                   f"routes and {len(counters)} task-group counters. Each world shows its "
                   "owner's initials, its income above and its name below.")
    return StarMap(state.map.radius, title, description, powers, worlds, routes,
                   tuple(counters))


def map_svg(state: State, title: str) -> Markup:
    """The public map as inline SVG (svgwrite escapes every name in it)."""
    svg = render_svg(public_map(state, title))
    return Markup(svg.split("?>", 1)[-1] if svg.startswith("<?xml") else svg)
