"""Checks between the files of a state folder: every id unique, every reference
known, every hex on the map. What the rules allow is the ruleset's business.

Each check runs when the files it needs have loaded, so a problem in one file
does not hide the problems in the others. Every problem points at the line of
the value that is wrong, in whichever file it is.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

from ftpress.errors import Problem
from ftpress.files import yamlsource
from ftpress.state.files import KINDS
from ftpress.state.hexes import Hex, on_map
from ftpress.state.model import (
    PUBLIC_KNOWLEDGE,
    CampaignFile,
    Design,
    DesignsFile,
    GroupsFile,
    Location,
    MapFile,
    PlayersFile,
    Point,
    QueuesFile,
)


def cross_references(folder: str, models: dict[str, Any],
                     sources: dict[str, Any]) -> list[Problem]:
    """Every problem between the loaded files of one state folder."""
    checker = _Checker(folder, models, sources)
    checker.run()
    return checker.problems


class _Checker:
    def __init__(self, folder: str, models: dict[str, Any], sources: dict[str, Any]) -> None:
        self.folder, self.sources = folder, sources
        self.problems: list[Problem] = []
        self.campaign: CampaignFile | None = models.get("campaign")
        self.players: PlayersFile | None = models.get("players")
        self.map: MapFile | None = models.get("map")
        self.designs: DesignsFile | None = models.get("designs")
        self.groups: GroupsFile | None = models.get("groups")
        self.queues: QueuesFile | None = models.get("queues")
        self.player_ids = {p.id for p in self.players.players} if self.players else None
        self.systems = {s.id: s for s in self.map.systems} if self.map else None
        self.design_ids = {d.id: d for d in self.designs.designs} if self.designs else None

    def add(self, kind: str, loc: tuple[Hashable, ...], message: str, *,
            key: bool = False) -> None:
        line, col = yamlsource.locate(self.sources[kind], loc, key=key)
        self.problems.append(Problem(f"{self.folder}/{KINDS[kind].file}", line, col, message))

    def run(self) -> None:
        if self.campaign:
            self.calendar()
            self.known_to()
        if self.players:
            self.unique("players", "players", [p.id for p in self.players.players], "player")
            self.player_refs()
            self.github_ids()
        if self.map:
            self.unique("map", "systems", [s.id for s in self.map.systems], "system")
            self.unique("map", "routes", [r.id for r in self.map.routes], "route")
            self.systems_on_map()
            self.routes()
        if self.designs:
            self.unique("designs", "designs", [d.id for d in self.designs.designs], "design")
            self.design_values()
        if self.groups:
            self.unique("groups", "groups", [g.id for g in self.groups.groups], "group")
            self.group_refs()
        if self.queues:
            self.queue_refs()

    # -- helpers ---------------------------------------------------------------------

    def unique(self, kind: str, key: str, ids: Iterable[str], what: str) -> None:
        first: dict[str, int] = {}
        for index, item in enumerate(ids):
            if item in first:
                line = yamlsource.locate(self.sources[kind], (key, first[item], "id"))[0]
                self.add(kind, (key, index, "id"), f"duplicate {what} id {item!r} (first "
                         f"given on line {line}); give each {what} its own id")
            else:
                first[item] = index

    def github_ids(self) -> None:
        """A GitHub account plays one power: an order pull request must name one player."""
        assert self.players is not None
        first: dict[int, int] = {}
        for index, player in enumerate(self.players.players):
            if player.github_id is None:
                continue
            if player.github_id in first:
                other = self.players.players[first[player.github_id]].id
                self.add("players", ("players", index, "github_id"),
                         f"GitHub id {player.github_id} is {other}'s too; expected each "
                         "player's own numeric GitHub user id")
            else:
                first[player.github_id] = index

    def player(self, kind: str, loc: tuple[Hashable, ...], player_id: str | None,
               what: str = "player") -> None:
        if player_id is not None and self.player_ids is not None \
                and player_id not in self.player_ids:
            self.add(kind, loc, f"unknown {what} {player_id!r}; expected one of the players "
                     f"in players.yaml: {_listing(self.player_ids)}")

    def system(self, kind: str, loc: tuple[Hashable, ...], system_id: str) -> bool:
        """Is ``system_id`` a known system? Reports it if not (and the map loaded)."""
        if self.systems is None:
            return False
        if system_id not in self.systems:
            self.add(kind, loc, f"unknown system {system_id!r}; expected a system id from "
                     "map.yaml")
            return False
        return True

    def design(self, kind: str, loc: tuple[Hashable, ...], design_id: str) -> Design | None:
        """The design called ``design_id``; reports it if unknown (and the designs loaded)."""
        if self.design_ids is None:
            return None
        found = self.design_ids.get(design_id)
        if found is None:
            self.add(kind, loc, f"unknown design {design_id!r}; expected a design id from "
                     "designs.yaml")
        return found

    # -- campaign.yaml ---------------------------------------------------------------

    def known_to(self) -> None:
        """A known state is the public's or one player's."""
        assert self.campaign is not None
        viewer = self.campaign.known_to
        if viewer is not None and viewer != PUBLIC_KNOWLEDGE and self.player_ids is not None \
                and viewer not in self.player_ids:
            self.add("campaign", ("known_to",), f"known_to {viewer!r} is no player; expected "
                     f"'public' or one of {_listing(self.player_ids)}")

    def calendar(self) -> None:
        assert self.campaign is not None
        cal = self.campaign.calendar
        expected = (cal.turn - 1) // cal.turns_per_economic_turn + 1
        if cal.economic_turn != expected:
            self.add("campaign", ("calendar", "economic_turn"), f"strategic turn {cal.turn} "
                     f"is in economic turn {expected} ({cal.turns_per_economic_turn} strategic "
                     f"turns to an economic turn), not {cal.economic_turn}")

    # -- players.yaml ----------------------------------------------------------------

    def player_refs(self) -> None:
        assert self.players is not None
        for i, p in enumerate(self.players.players):
            if self.systems is not None and self.system("players", ("players", i, "capital"),
                                                        p.capital):
                owner = self.systems[p.capital].owner
                # A player with no world left keeps the capital it lost on record.
                if owner != p.id and any(s.owner == p.id for s in self.systems.values()):
                    self.add("players", ("players", i, "capital"), f"capital {p.capital!r} "
                             f"is {'held by ' + repr(owner) if owner else 'neutral'}; a "
                             "player's capital is one of their own worlds")

    # -- map.yaml --------------------------------------------------------------------

    def systems_on_map(self) -> None:
        assert self.map is not None
        taken: dict[Hex, int] = {}
        for i, s in enumerate(self.map.systems):
            if s.hex is None:
                if self.map.geometry is None:
                    self.add("map", ("systems", i), f"{s.id!r} has no hex; on a hex map every "
                             "system has one: give 'hex: [q, r]'")
            elif not on_map(s.hex, self.map.radius):
                self.add("map", ("systems", i, "hex"), f"hex {s.hex} is off the map; a "
                         f"radius-{self.map.radius} map holds hexes at most {self.map.radius} "
                         "from (0, 0)")
            elif s.hex in taken:
                other = self.map.systems[taken[s.hex]]
                self.add("map", ("systems", i, "hex"), f"hex {s.hex} already holds "
                         f"{other.id!r}; one system to a hex")
            else:
                taken[s.hex] = i
            self.player("map", ("systems", i, "owner"), s.owner, "owner")
            self.worth(i, s)

    def worth(self, i: int, s: Any) -> None:
        known = [v is not None for v in (s.income, s.idp)]
        if s.owner is not None and s.income is None:
            self.add("map", ("systems", i), f"{s.id!r} is held by {s.owner!r} but has no "
                     "income; a held world's income is known")
        elif any(known) and not all(known):
            missing = "idp" if s.income is not None else "income"
            self.add("map", ("systems", i), f"{s.id!r} gives one of income and idp but not "
                     f"{missing!r}; give both once rolled, or neither while unknown")
        if s.idp_full is not None and s.idp is not None and s.idp > s.idp_full:
            self.add("map", ("systems", i, "idp"), f"idp {s.idp} is more than idp_full "
                     f"{s.idp_full}; defences cannot stand above full strength")
        if s.idp_full is not None and s.idp is None:
            self.add("map", ("systems", i, "idp_full"), "idp_full is given but idp is not")

    def routes(self) -> None:
        assert self.map is not None
        seen: dict[frozenset[str], str] = {}
        for i, route in enumerate(self.map.routes):
            for j, (a, b) in enumerate(route.links):
                for k, end in enumerate((a, b)):
                    self.system("map", ("routes", i, "links", j, k), end)
                if a == b:
                    self.add("map", ("routes", i, "links", j), f"link joins {a!r} to itself; "
                             "a link joins two worlds")
                    continue
                pair = frozenset((a, b))
                if pair in seen:
                    self.add("map", ("routes", i, "links", j), f"{a!r} and {b!r} are already "
                             f"linked by route {seen[pair]!r}; give each link once")
                seen.setdefault(pair, route.id)

    # -- designs.yaml ----------------------------------------------------------------

    def design_values(self) -> None:
        assert self.designs is not None
        for i, d in enumerate(self.designs.designs):
            if d.hull_boxes > d.mass:
                self.add("designs", ("designs", i, "hull"), f"{d.hull_boxes} hull boxes "
                         f"on a mass-{d.mass} hull; a hull box takes one mass")
            full = (d.abstract.offence, d.abstract.defence)
            for name in ("half", "quarter"):
                value = getattr(d.abstract, name)
                if value[0] > full[0] or value[1] > full[1]:
                    self.add("designs", ("designs", i, "abstract", name), f"{name} values "
                             f"{list(value)} are more than the full values {list(full)}")

    # -- groups.yaml -----------------------------------------------------------------

    def group_refs(self) -> None:
        assert self.groups is not None
        names: dict[tuple[str, str], str] = {}
        # A viewer's known state (campaign.known_to) holds others' counters that no
        # contact has revealed: what they are is unknown, so no ships and no dummy flag.
        viewer = self.campaign.known_to if self.campaign else None
        for i, g in enumerate(self.groups.groups):
            self.player("groups", ("groups", i, "owner"), g.owner, "owner")
            self.location(i, g.at)
            unknown = viewer is not None and not g.shown_to(viewer)
            if g.dummy and g.ships:
                self.add("groups", ("groups", i, "ships"), "a dummy counter has no ships; "
                         "remove the ships or 'dummy: true'")
            if unknown and (g.dummy or g.ships):
                what = "is a dummy counter" if g.dummy else "holds"
                self.add("groups", ("groups", i, "dummy" if g.dummy else "ships"),
                         f"this state is what {viewer!r} knows, and no contact has shown "
                         f"{viewer!r} what {g.owner!r}'s {g.id!r} {what}; leave it out")
            if not g.dummy and not g.ships and not unknown:
                self.add("groups", ("groups", i), f"group {g.id!r} has no ships; every "
                         "counter but a dummy holds at least one ship")
            for j, ship in enumerate(g.ships):
                where = ("groups", i, "ships", j)
                if (g.owner, ship.name) in names:
                    self.add("groups", (*where, "name"), f"{g.owner!r} already has a ship "
                             f"named {ship.name!r} (in group {names[g.owner, ship.name]!r}); "
                             "a player's ships have different names")
                names.setdefault((g.owner, ship.name), g.id)
                design = self.design("groups", (*where, "design"), ship.design)
                if design is not None:
                    boxes = design.hull_boxes
                    if ship.damage >= boxes:
                        self.add("groups", (*where, "damage"), f"damage {ship.damage} "
                                 f"destroys a ship of {boxes} hull boxes; remove the ship "
                                 "instead")

    def location(self, i: int, at: Location) -> None:
        if self.map is None:
            return
        loc = ("groups", i, "at")
        if isinstance(at, str):
            self.system("groups", loc, at)
        elif isinstance(at, Point):
            return  # a point on a planar map: the ruleset that plays on one checks it
        elif not on_map(at, self.map.radius):
            self.add("groups", loc, f"hex {at} is off the map; a radius-{self.map.radius} map "
                     f"holds hexes at most {self.map.radius} from (0, 0)")
        else:
            world = next((s for s in self.map.systems if s.hex == at), None)
            if world is not None:
                self.add("groups", loc, f"hex {at} is {world.name}; write 'at: {world.id}'")

    # -- queues.yaml -----------------------------------------------------------------

    def queue_refs(self) -> None:
        assert self.queues is not None
        q = self.queues
        self.unique("queues", "keels", [k.id for k in q.keels], "keel")
        self.unique("queues", "repairs", [r.id for r in q.repairs], "repair")
        for i, keel in enumerate(q.keels):
            self.player("queues", ("keels", i, "owner"), keel.owner, "owner")
            self.held("keels", i, keel.at, keel.owner)
            design = self.design("queues", ("keels", i, "design"), keel.design)
            if design is not None:
                points = design.points
                if keel.built >= points:
                    self.add("queues", ("keels", i, "built"), f"built {keel.built} of a "
                             f"{points}-point design; a finished ship belongs in groups.yaml")
        groups = {g.id: g for g in self.groups.groups} if self.groups else None
        for i, repair in enumerate(q.repairs):
            self.player("queues", ("repairs", i, "owner"), repair.owner, "owner")
            self.held("repairs", i, repair.at, repair.owner)
            if groups is None:
                continue
            group = groups.get(repair.group)
            if group is None:
                self.add("queues", ("repairs", i, "group"), f"unknown group {repair.group!r}; "
                         "expected a group id from groups.yaml")
            elif group.owner != repair.owner:
                self.add("queues", ("repairs", i, "group"), f"group {repair.group!r} belongs "
                         f"to {group.owner!r}, not {repair.owner!r}")
            elif repair.ship not in {s.name for s in group.ships}:
                self.add("queues", ("repairs", i, "ship"), f"no ship {repair.ship!r} in group "
                         f"{repair.group!r}")

    def held(self, key: str, i: int, system_id: str, owner: str) -> None:
        if self.system("queues", (key, i, "at"), system_id):
            self.owned(key, i, "at", system_id, owner)

    def owned(self, key: str, i: int, field: str, system_id: str, owner: str) -> None:
        assert self.systems is not None
        holder = self.systems[system_id].owner
        if holder != owner:
            self.add("queues", (key, i, field), f"{system_id!r} is "
                     f"{'held by ' + repr(holder) if holder else 'neutral'}; expected a world "
                     f"held by {owner!r}")


def _listing(ids: Iterable[str]) -> str:
    return ", ".join(sorted(ids)) or "(none)"
