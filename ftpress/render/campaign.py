"""The campaign's public pages: the powers (``/players/``, one page each) and
the table of star systems (``/systems/``).

The state they are made from is the viewer's known state
(:mod:`ftpress.secrecy.knowledge`), so only what the viewer may know is shown. Another
power's task group is a counter: where it is and whose, and what it holds only
once contact has revealed it; a dummy counter looks like any other. A neutral
world's income shows once it has been rolled, which happens when it is first
scouted or attacked. The views are built here from the state, and from the
campaign's ruleset's :class:`~ftpress.state.display.Display` for what the ruleset
keeps beside it; templates see nothing else. Where the viewer knows all of a
power's groups (the umpire, every power's; a player, their own), its page
shows every group's ships and says which counters are dummies.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ftpress.orders.load import orders_path
from ftpress.render.mapview import map_svg
from ftpress.render.pages import Renderer
from ftpress.render.views import Link
from ftpress.render.words import plural
from ftpress.secrecy.visibility import PUBLIC_VIEW, Viewer, holds_all_of
from ftpress.state.display import Display
from ftpress.state.hexes import Hex
from ftpress.state.model import Group, Point, State, System
from ftpress.state.turns import turn_id


@dataclass(frozen=True, slots=True)
class PowerView:
    id: str
    name: str
    colour: str
    #: A short label beside the colour, so colour is never the only cue: 'NAC'.
    abbr: str
    url: str
    capital: Link | None
    worlds: int
    income: int
    treasury: int
    #: Upkeep rate and level: '7.5%', 'standardised' (None: the rules charge none).
    upkeep: str | None
    maintenance: str | None
    counters: int


@dataclass(frozen=True, slots=True)
class SystemView:
    id: str
    name: str
    url: str
    hex: str
    owner: PowerView | None
    capital: bool
    #: None while unknown (a neutral world not yet scouted or attacked).
    income: int | None
    idp: int | None
    idp_full: int | None
    depot: bool
    base: bool
    shipyard: bool
    routes: tuple[str, ...]
    #: The powers the ruleset's power columns name, with how the notes say it:
    #: ('interdicted by', the power).
    powers: tuple[tuple[str, PowerView], ...] = ()
    #: More public facts for the notes, as the ruleset's display gives them.
    facts: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ShipView:
    name: str
    design: str
    size: str
    damage: int


@dataclass(frozen=True, slots=True)
class CounterView:
    """Counters of one power in one place; contents only if contacted."""

    place: str
    place_url: str
    count: int
    #: The ships there the viewer knows: contacted groups', as the enemy saw them (all,
    #: where the viewer knows all of the power's groups).
    known: tuple[ShipView, ...]
    #: How many of the counters are dummies: told only where the viewer knows all.
    dummies: int = 0
    #: The groups' ids: in a player's own view, for their own counters alone.
    ids: tuple[str, ...] = ()


def render_campaign(r: Renderer, state: State, display: Display, *,
                    viewer: Viewer = PUBLIC_VIEW,
                    forms: Mapping[str, str] | None = None) -> None:
    """Add ``/players/``, ``/players/<id>/`` and ``/systems/`` to the site, from ``state``
    as ``viewer`` knows it; ``forms``: each player's order form for the open turn, shown
    on their page."""
    urls = r.urls
    capitals = {p.capital for p in state.players.players}
    counters = Counter(g.owner for g in state.groups.groups
                       if viewer.umpire or display.counter(g))
    powers: dict[str, PowerView] = {}
    for p in state.players.players:
        worlds = state.worlds_of(p.id)
        capital = state.system(p.capital)
        upkeep, maintenance = display.upkeep(p) if display.upkeep else (None, None)
        powers[p.id] = PowerView(
            id=p.id, name=p.name, colour=p.colour, abbr=p.id.upper()[:5],
            url=urls.page(f"players/{p.id}/"),
            capital=Link(urls.page(f"systems/#{capital.id}"), capital.name) if capital else None,
            worlds=len(worlds), income=sum(w.income or 0 for w in worlds), treasury=p.treasury,
            upkeep=upkeep, maintenance=maintenance,
            counters=counters[p.id])
    routes: dict[str, list[str]] = {}
    for route in state.map.routes:
        for system_id in route.systems:
            routes.setdefault(system_id, []).append(route.id)
    systems = tuple(_system_view(s, powers, capitals, routes, urls.page("systems/"), display)
                    for s in sorted(state.map.systems, key=lambda s: s.name.casefold()))
    views = tuple(powers.values())
    name = state.campaign.name
    r.page("players/index.html", "players.html", "state/players.yaml", title="The powers",
           description=f"The {plural(len(views), 'power')} of {name}: their worlds, income, "
           "treasury and counters on the map.", section="players", heading="The powers",
           powers=views, turn=state.campaign.calendar.turn, display=display)
    for power in views:
        mine = tuple(s for s in systems if s.owner and s.owner.id == power.id)
        r.page(f"players/{power.id}/index.html", "player.html", "state/players.yaml",
               title=power.name, description=f"{power.name}: {plural(power.worlds, 'world')}, "
               f"income {power.income}, treasury {power.treasury}.", section="players",
               power=power, systems=mine,
               counters=_counters(state, power.id, urls.page, display,
                                  holds_all_of(state, power.id)),
               form=(forms or {}).get(power.id),
               form_path=orders_path(turn_id(state.campaign.calendar.turn), power.id),
               trail=(Link(urls.page("players/"), "The powers"),),
               turn=state.campaign.calendar.turn, display=display)
    r.page("systems/index.html", "systems.html", "state/map.yaml", title="Star systems",
           description=f"Every star system of {name}: owner, income, defences and routes.",
           section="systems", heading="Star systems", systems=systems, display=display,
           radius=state.map.radius, turn=state.campaign.calendar.turn,
           starmap=map_svg(state, f"The map at strategic turn {state.campaign.calendar.turn}",
                           display=display, viewer=viewer))


def _system_view(s: System, powers: dict[str, PowerView], capitals: set[str],
                 routes: dict[str, list[str]], base: str, display: Display) -> SystemView:
    return SystemView(
        id=s.id, name=s.name, url=f"{base}#{s.id}", hex=display.place(s),
        owner=powers.get(s.owner) if s.owner else None, capital=s.id in capitals,
        income=s.income, idp=s.idp, idp_full=s.full_idp, depot=s.depot, base=s.base,
        shipyard=s.shipyard,
        routes=tuple(routes.get(s.id, ())), facts=display.notes(s),
        powers=tuple((c.note, powers[p]) for c in display.columns
                     if (p := c.power(s)) is not None and p in powers))


def _counters(state: State, player_id: str, page: Callable[[str], str], display: Display,
              whole: bool = False) -> tuple[CounterView, ...]:
    """A power's counters by place, in map order of their hexes; ``whole``: the viewer
    knows all of the power's groups, so its page counts the dummies and the groups
    whose markers are off the map."""
    if state.map.geometry == "plane":
        return _plane_counters(state, player_id, page, whole)
    own = state.campaign.known_to is not None and state.campaign.known_to == player_id
    places: dict[Hex, list[Group]] = {}
    for group in state.groups_of(player_id):
        if not (whole or display.counter(group)):
            continue  # no counter of its own
        h = state.hex_of(group.at)
        if h is not None:
            places.setdefault(h, []).append(group)
    found = []
    for h in sorted(places):
        world = state.system_at(h)
        found.append(CounterView(
            place=world.name if world else f"open space at {h}",
            place_url=page(f"systems/#{world.id}") if world else "",
            count=len(places[h]), known=_ships(state, places[h]),
            dummies=sum(g.dummy for g in places[h]) if whole else 0,
            ids=tuple(g.id for g in places[h]) if own else ()))
    return tuple(found)


def _plane_counters(state: State, player_id: str, page: Callable[[str], str],
                    whole: bool) -> tuple[CounterView, ...]:
    """On a planar map a power's task forces by place: at a system, or at a
    point of open space; systems first by name, then points west to east."""
    places: dict[str | Point, list[Group]] = {}
    for group in state.groups_of(player_id):
        if isinstance(group.at, (str, Point)):
            places.setdefault(group.at, []).append(group)

    def order(place: str | Point) -> tuple[Any, ...]:
        if isinstance(place, Point):
            return (1, "", place.x, place.y)
        system = state.system(place)
        return (0, system.name if system else place, 0, 0)

    found = []
    for place in sorted(places, key=order):
        world = state.system(place) if isinstance(place, str) else None
        found.append(CounterView(
            place=world.name if world else f"open space at {place}",
            place_url=page(f"systems/#{world.id}") if world else "",
            count=len(places[place]), known=_ships(state, places[place]),
            dummies=sum(g.dummy for g in places[place]) if whole else 0))
    return tuple(found)


def _ships(state: State, groups: Iterable[Group]) -> tuple[ShipView, ...]:
    """The ships of ``groups`` that the (known) state holds: all of them where the viewer
    knows the power's groups, else those contact has revealed (§15.3)."""
    return tuple(ShipView(s.name, d.name if (d := state.design(s.design)) else s.design,
                          d.size if d else "", s.damage)
                 for g in groups for s in g.ships)
