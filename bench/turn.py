"""Benchmark: resolve one ftc2007 strategic turn for 8 players with 500 task
groups on a radius-20 map (issue 4), and print how long it took.

    python bench/turn.py [--players 8] [--groups 500] [--radius 20] [--repeat 5]

The state and orders are made deterministically (no dice in the making): a
world on every fourth hex, charted routes along rows of worlds, each player's
groups spread over its worlds, and orders mixing jumps, route moves, holds,
splits and merges. Parsing the order files is timed apart from resolving, in CPU
time (the best of the runs; the wall time too, which a busy machine inflates).

Two weeks are timed: the campaign's first (moves only), and the first week of
economic turn 2 with battles fought in the abstract: the books closing for
every world, upkeep, and each player laying a keel (of the campaign's own design),
buying a ship (of the catalogue: the players all sail the NAC's navy) and repairing a
damaged one, on top of the same moves. ``tests/test_bench_turn.py`` runs it at a tiny
size, and checks that the engine accepts every order it writes.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime
from itertools import pairwise
from pathlib import Path

# This checkout's ftpress, unless PYTHONPATH names another (bench/run.py measures the
# ftpress it names there): the checkout goes just after PYTHONPATH's folders.
sys.path.insert(1 + sum(1 for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p),
                str(Path(__file__).resolve().parent.parent))

from ftpress.orders.load import parse_orders
from ftpress.rules import find_ruleset
from ftpress.rules.ftc2007.state_ext import Ftc2007System
from ftpress.rules.ftc2007.turn import resolve
from ftpress.state.dice import Dice, KeyedStream
from ftpress.state.extension import extended
from ftpress.state.hexes import hexagon
from ftpress.state.model import (
    Abstract,
    Calendar,
    CampaignFile,
    Design,
    DesignsFile,
    Group,
    GroupsFile,
    MapFile,
    Player,
    PlayersFile,
    QueuesFile,
    Route,
    Settings,
    Setup,
    Ship,
    State,
    System,
)
from ftpress.state.turns import turn_id


def make_state(players: int, groups: int, radius: int, economic: bool = False) -> State:
    ids = [f"p{i}" for i in range(players)]
    cells = hexagon(radius)
    worlds = [h for i, h in enumerate(cells) if i % 4 == 0]
    # Two worlds in three are owned, dealt round the players in turn (so each has some).
    systems = tuple(System(f"w{i}", f"World {i}", h,
                           owner=ids[(i - 1 - i // 3) % players] if i % 3 else None,
                           income=50 if i % 3 else None, idp=50 if i % 3 else None)
                    for i, h in enumerate(worlds))
    # ftc2007 keeps a world's interdiction in its own part of the state.
    systems = tuple(extended(s, Ftc2007System, interdicted_by=ids[(i + 1) % players])
                    if i % 97 == 5 else s for i, s in enumerate(systems))
    rows: dict[int, list[str]] = {}
    for s, h in zip(systems, worlds, strict=True):
        rows.setdefault(h.q, []).append(s.id)
    routes = tuple(Route(f"r{q + radius}", tuple(pairwise(col)))
                   for q, col in sorted(rows.items()) if len(col) > 1)
    design = Design("dd", "Destroyer", "nac", "DD", 32, 108, (3, 3, 2, 2),
                    Abstract(5, 5, (3, 3), (1, 1)))
    owned = {p: [s for s in systems if s.owner == p] for p in ids}
    made = tuple(Group(f"g{n}", ids[n % players], owned[ids[n % players]][
        (n // players) % len(owned[ids[n % players]])].id,
        tuple(Ship(f"S{n}-{k}", "dd", damage=2 if k == 0 and n < players else 0)
              for k in range(1 + n % 4)))
        for n in range(groups))
    calendar = Calendar(date(2026, 3, 9), 7 if economic else 1, 2 if economic else 1,
                        datetime(2026, 4, 26 if economic else 15, 20, tzinfo=UTC))
    settings = Settings(battles="abstract" if economic else "tabletop")
    return State(CampaignFile("bench", "Bench", "ftc2007", calendar, Setup(1), settings),
                 PlayersFile(tuple(Player(p, p.upper(), "#000000", 1000, owned[p][0].id, navy="nac")
                                   for p in ids)),
                 MapFile(radius, systems, routes), DesignsFile((design,)),
                 GroupsFile(made), QueuesFile())


def make_orders(state: State) -> dict[str, bytes]:
    turn = turn_id(state.campaign.calendar.turn)
    texts: dict[str, list[str]] = {}
    routes = {s: r for r in state.map.routes for s in r.systems}
    for n, g in enumerate(state.groups.groups):
        lines = texts.setdefault(g.owner, [f"turn: {turn}", f"player: {g.owner}", "groups:"])
        here = state.system(g.at)  # type: ignore[arg-type]
        assert here is not None
        lines.append(f"  {g.id}:")
        kind = n % 5
        if g.ships[0].damage and state.campaign.calendar.economic_turn > 1:
            kind = 4  # her repair keeps the group in the yard (§11.4): it holds
        route = routes.get(here.id)
        if kind == 0 and route is not None and route.systems[-1] != here.id:
            lines += [f"    move: {route.systems[-1]}", f"    route: {route.id}",
                      "    posture: attack"]
        elif kind in (1, 2):
            assert here.hex is not None
            step = here.hex.neighbours()[n % 6]
            lines += [f"    move: [{step.q}, {step.r}]", "    posture: stand-off"]
        elif kind == 3 and len(g.ships) > 1 and not g.ships[0].damage:
            lines += ["    hold: true", f"    split: {{{g.id}-b: ['{g.ships[-1].name}']}}"]
        else:
            lines += ["    hold: true", "    posture: attack"]
    if state.campaign.calendar.economic_turn > 1:
        for g in state.groups.groups:
            if g.ships[0].damage:  # the first group of each player, at its first world
                texts[g.owner] += [
                    "economy:", "  maintenance: full",
                    f"  keels: [{{design: dd, at: {g.at}, name: Keel {g.owner}}}]",
                    f"  purchases: [{{design: nac-harrison, at: {g.at}, name: Bought {g.owner}}}]",
                    f"  repairs: [{{group: {g.id}, ship: {g.ships[0].name}, boxes: 2}}]"]
    return {p: ("\n".join(lines) + "\n").encode() for p, lines in texts.items()}


@dataclass(frozen=True, slots=True)
class Week:
    """One timed week: what it held and how long it took (milliseconds)."""

    turn: str
    week: str
    players: int
    groups: int
    worlds: int
    radius: int
    events: int
    battles: int
    incomes: int
    repairs: int
    #: CPU time to parse the order files, once.
    parse_ms: float
    #: The best CPU time and the best wall time of the resolutions.
    resolve_ms: float
    wall_ms: float
    repeat: int

    def line(self) -> str:
        return (f"{self.turn} ({self.week}): {self.players} players, {self.groups} groups, "
                f"{self.worlds} worlds on a radius-{self.radius} map, "
                f"{self.events} events ({self.battles} battles, {self.incomes} incomes, "
                f"{self.repairs} repairs): parse orders {self.parse_ms:.0f} ms CPU, "
                f"resolve {self.resolve_ms:.0f} ms CPU, {self.wall_ms:.0f} ms wall "
                f"(best of {self.repeat})")


def measure(players: int, groups: int, radius: int, repeat: int) -> list[Week]:
    """Both weeks made, parsed and resolved ``repeat`` times each."""
    weeks = []
    for economic in (False, True):
        state = make_state(players, groups, radius, economic)
        raw = make_orders(state)
        turn = turn_id(state.campaign.calendar.turn)
        start = time.process_time()
        adapter = find_ruleset(state.campaign.ruleset).orders_adapter
        orders = {p: parse_orders(data, f"orders/{turn}/{p}.yaml", adapter)
                  for p, data in raw.items()}
        parsed = time.process_time() - start
        best = wall = float("inf")
        for _ in range(repeat):
            start, started = time.process_time(), time.perf_counter()
            _, events = resolve(state, orders, Dice(KeyedStream(b"bench")), {})
            best = min(best, time.process_time() - start)
            wall = min(wall, time.perf_counter() - started)
        kinds = Counter(e.kind for e in events)
        weeks.append(Week(turn, "economic week, abstract battles" if economic else "first week",
                          players, len(state.groups.groups), len(state.map.systems), radius,
                          len(events), kinds["battle"], kinds["income"], kinds["repair"],
                          parsed * 1000, best * 1000, wall * 1000, repeat))
    return weeks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--groups", type=int, default=500)
    parser.add_argument("--radius", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true",
                        help="print the weeks as one JSON list (for bench/run.py)")
    args = parser.parse_args()
    weeks = measure(args.players, args.groups, args.radius, args.repeat)
    if args.json:
        print(json.dumps([asdict(week) for week in weeks]))
    else:
        for week in weeks:
            print(week.line())

if __name__ == "__main__":
    main()
