"""CPU time of one turn map and one PNG card, drawn from a campaign's own turns.

    python bench/drawing.py CAMPAIGN [--now ISO] [--cards 10] [--repeat 3] [--compare OUT]

Loads the campaign as ``ftpress build`` does (the public view), makes each recorded
turn's map as the turn report does (``turn_map`` over the events the public reads,
titled as the report titles it), then, in this one process:

- **maps**: draws every turn's map once with ``render_map``, oldest turn first, and
  times each (CPU, ``time.process_time``). The first map pays for what a process
  works out once for all its maps (a world's label items, the marks), as the build's
  first map in each worker does.
- **cards**: for ``--cards`` turns spread evenly over the campaign (the first and the
  last among them), draws the turn's PNG card (``card_png`` over that map's SVG, with
  the report's words) ``--repeat`` times and keeps each card's median.

CPU, not wall: on a shared machine the load stretches wall time. Nothing is cached:
the build cache is not opened. ``--compare OUT`` counts the maps and cards drawn that
are byte for byte those of the campaign's build in ``OUT`` (built with the same
``--now``). Prints one line per figure, or with ``--json`` one JSON object
(``bench/run.py`` reads it).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from ftpress import rules
from ftpress.files.clock import build_now
from ftpress.render.mapview import render_map, turn_map
from ftpress.render.preview import Card, card_png
from ftpress.render.turns import title_of, turn_day
from ftpress.secrecy.visibility import visible
from ftpress.site.loading import BuildOptions, load
from ftpress.state.words import long_date
from ftpress.store import open_with
from ftpress.store.campaign import display_of


def spread(count: int, wanted: int) -> list[int]:
    """``wanted`` indices of ``range(count)`` spread evenly, the first and the last
    among them (all of them when there are no more)."""
    if wanted >= count:
        return list(range(count))
    if wanted <= 1:
        return [count - 1][:wanted]
    return sorted({round(i * (count - 1) / (wanted - 1)) for i in range(wanted)})


def measure(root: Path, now: str | None, cards: int, repeat: int, built: Path | None = None
            ) -> dict[str, object]:
    """The figures; with ``built`` (the campaign's build output), also how many of the
    maps and cards drawn are byte for byte the build's ``turns/<id>/map.svg`` and
    ``preview.png``: what is timed is what the build draws."""
    site = load(open_with(root), BuildOptions(build_now(now)))
    if site.state is None or not site.turns:
        raise SystemExit(f"{root}: a campaign without recorded turns has no maps to draw")
    display = display_of(site.state)
    report = rules.find_ruleset(site.state.campaign.ruleset).report
    viewer, turns, nets = site.view, site.turns, site.nets
    maps = [turn_map(turn.state, visible(turn.events, viewer, nets[i] if nets else None),
                     f"The map after {title_of(turn).lower()}", report.marker_of, report.moves,
                     display=display, viewer=viewer)
            for i, turn in enumerate(turns)]
    map_seconds, svgs = [], []
    for turn, view in zip(turns, maps, strict=True):
        started = time.process_time()
        svgs.append(render_map(view, f"map-{turn.id}"))
        map_seconds.append(time.process_time() - started)
    card_seconds, pngs = [], {}
    for i in spread(len(turns), cards):
        before = turns[i - 1].state if i else None
        card = Card(site.state.campaign.name, title_of(turns[i]),
                    long_date(turn_day(turns[i], before)))
        times = []
        for _ in range(repeat):
            started = time.process_time()
            pngs[turns[i].id] = card_png(svgs[i], card)
            times.append(time.process_time() - started)
        card_seconds.append(statistics.median(times))
    found: dict[str, object] = {"maps": map_seconds, "cards": card_seconds,
                                "turns": len(turns), "repeat": repeat}
    if built is not None:
        found["maps_same"] = sum(_same(built / "turns" / t.id / "map.svg", svg.encode())
                                 for t, svg in zip(turns, svgs, strict=True))
        found["cards_same"] = sum(_same(built / "turns" / turn / "preview.png", png)
                                  for turn, png in pngs.items())
    return found


def _same(path: Path, data: bytes) -> bool:
    try:
        return path.read_bytes() == data
    except OSError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("campaign", type=Path)
    parser.add_argument("--now", help="the build's --now (the posts published by then)")
    parser.add_argument("--cards", type=int, default=10, help="turns whose card is drawn")
    parser.add_argument("--repeat", type=int, default=3, help="draws of each card")
    parser.add_argument("--compare", type=Path, metavar="OUT",
                        help="the campaign's build output: count the maps and cards drawn "
                        "that are byte for byte the build's")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    found = measure(args.campaign, args.now, args.cards, max(1, args.repeat), args.compare)
    if args.json:
        print(json.dumps(found))
        return
    for what in ("maps", "cards"):
        values = found[what]
        assert isinstance(values, list)
        print(f"{len(values)} {what}: median {statistics.median(values):.3f} s, "
              f"best {min(values):.3f} s, worst {max(values):.3f} s CPU"
              + (f", {found[what + '_same']} the build's bytes" if args.compare else ""))


if __name__ == "__main__":
    main()
