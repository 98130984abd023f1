"""Benchmark: render a radius-20 star map with 1,000 task-group counters to SVG.

    python bench/map.py [--radius 20] [--counters 1000] [--runs 5]

Prints the best and median CPU time of ``ftpress.maps.starmap.render_svg`` over the
runs (CPU, not wall: on a shared machine the load stretches wall time), and the SVG's
size. The map is deterministic: a world in every third hex,
routes between neighbouring worlds along a row, counters spread round the map.
"""

from __future__ import annotations

import argparse
import statistics
import time

from ftpress.maps.starmap import (
    CounterMark,
    Move,
    Route,
    StarMap,
    WorldMark,
    colour_powers,
    render_svg,
)
from ftpress.state.hexes import hexagon


def sample(radius: int, counters: int) -> StarMap:
    hexes = list(hexagon(radius))
    powers = colour_powers([(f"p{i}", f"Power {i}") for i in range(8)])
    worlds = tuple(WorldMark(h, f"World {n}", 10 * (3 + n % 13),
                             powers[n % 8].id if n % 5 else None, depot=n % 7 == 0,
                             base=n % 11 == 0, shipyard=n % 13 == 0, interdicted=n % 17 == 0)
                   for n, h in enumerate(hexes[::3]))
    routes = tuple(Route((a.hex, b.hex)) for a, b in zip(worlds[::9], worlds[1::9], strict=False))
    marks = tuple(CounterMark(hexes[(i * 37) % len(hexes)], powers[i % 8].id, str(i))
                  for i in range(counters))
    moves = tuple(Move(hexes[i], hexes[i].step(1 + i % 6), powers[i % 8].id)
                  for i in range(0, len(hexes), 10) if abs(hexes[i].step(1 + i % 6).q) <= radius)
    return StarMap(radius, "Benchmark map", "A large synthetic map.", powers, worlds, routes,
                   marks, moves)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--radius", type=int, default=20)
    parser.add_argument("--counters", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    view = sample(args.radius, args.counters)
    times, size = [], 0
    for _ in range(args.runs):
        started = time.process_time()
        size = len(render_svg(view))
        times.append(time.process_time() - started)
    print(f"radius {args.radius}, {len(view.worlds)} worlds, {args.counters} counters: "
          f"best {min(times):.3f} s, median {statistics.median(times):.3f} s CPU, "
          f"{size / 1024:.0f} KiB of SVG")


if __name__ == "__main__":
    main()
