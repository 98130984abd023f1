"""The generation log, written up as the campaign's first status post.

It says what every die did, rule by rule, with the world names the map ended
up with, and lists every roll so that anyone can check it against
``state/turns/t000/dice.yaml`` or roll the seed again.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

from ftpress.rules.ftc2007.mapgen import (
    STUB_REACH,
    ClaimRolled,
    ClaimsExhausted,
    ExtraRolled,
    GeneratedMap,
    IncomeRolled,
    StartRolled,
    StubAbandoned,
    StubRolled,
)
from ftpress.rules.ftc2007.setup import starting_capital
from ftpress.state.dice import Roll
from ftpress.state.hexes import DIRECTION_NAMES, Hex, hexagon
from ftpress.state.model import State
from ftpress.state.turns import SETUP, TURNS_DIR


def setup_post(generated: GeneratedMap, state: State,
               rolls: Sequence[Roll]) -> tuple[str, str, str]:
    """``(title, summary, Markdown body)`` of the post that logs the map's making."""
    names = _Names(state)
    opts = generated.options
    seed = state.campaign.setup.seed
    hexes = len(hexagon(opts.radius))
    world_on = "a 1" if opts.world_on == 1 else f"1–{opts.world_on}"
    neutral = [w for w in generated.worlds if w not in generated.owners]
    out: list[str] = []
    add = out.append
    add(f"The map of **{_md(state.campaign.name)}** was rolled by ftpress from seed "
        f"**{seed}** under rules 1–3 and 6 of the ftc2007 campaign rules. Every die is "
        f"listed at the end of this post and kept in `{TURNS_DIR}/{SETUP}/dice.yaml`: roll "
        "the same seed again and you get the same map, die for die.")
    add("")
    add("## The map (§1.1–1.2)")
    add("")
    add(f"A hexagon of {opts.radius + 1} hexes on a side, {hexes} hexes. A d6 was rolled for "
        "each hex, column by column from west to east and each column from north to south; "
        f"a world on {world_on}. **{len(generated.worlds)} worlds.** Hexes are given as "
        "(q, r): q counts columns west to east, r runs north to south, and (0, 0) is the "
        "centre.")
    add("")
    add("| World | Hex | Held by | Income |")
    add("|---|---|---|---|")
    for world in generated.worlds:
        owner = generated.owners.get(world)
        income = generated.incomes.get(world)
        add(f"| {names.world(world)} | {world} | {names.player(owner) if owner else 'neutral'}"
            f" | {income if income is not None else 'not yet rolled'} |")
    add("")
    add("## Charted routes (§1.3)")
    add("")
    stub_events = [e for e in generated.events if isinstance(e, (StubRolled, StubAbandoned))]
    add(f"A world whose hex came up 1 is on a charted route: {len(stub_routes(generated))} "
        "of them. Once every world was placed, each rolled a d6 for the side its route stub "
        f"leaves by, to the nearest world that way within {STUB_REACH} hexes (a hex on the line "
        "between two directions counts for both; of two equally near, the one nearer the "
        "middle of the direction, then the one clockwise); a stub that would leave the map or "
        "found nothing was rolled again.")
    add("")
    for stub in stub_events:
        if isinstance(stub, StubAbandoned):
            add(f"- {names.world(stub.world)}: on a route, but no side of it has a world "
                f"within {STUB_REACH} hexes without leaving the map, so it has no stub.")
        elif stub.target is None:
            add(f"- {names.world(stub.world)}: stub rolled {_direction(stub.direction)}: "
                f"{stub.why}; rolled again.")
        else:
            add(f"- {names.world(stub.world)}: stub rolled {_direction(stub.direction)}, to "
                f"{names.world(stub.target)}.")
    if generated.routes:
        add("")
        add("Linked up, every stub joins its world to the world it points at, and links that "
            "share a world make one route:")
        add("")
        for route, links in zip(state.map.routes, generated.routes, strict=True):
            joined = ", ".join(f"{names.world(a)} – {names.world(b)}" for a, b in links)
            add(f"- **{_md(route.id)}**: {joined}.")
    add("")
    add("## Player worlds (§2)")
    add("")
    for event in generated.events:
        if isinstance(event, StartRolled):
            add(f"- {names.player(event.player)} rolled {event.roll} on a d{event.sides} over "
                f"the unclaimed worlds, in map order: **{names.world(event.world)}** "
                f"{event.world}, the capital.")
    add("")
    for event in generated.events:
        if isinstance(event, ExtraRolled):
            add(f"- {names.player(event.player)} rolled {event.roll} on the d3: "
                f"{event.worlds} more worlds.")
    add("")
    add("Then, in turn, each player rolled a direction from their capital and took the "
        "nearest unclaimed world that way:")
    add("")
    misses: list[str] = []
    number = 0
    for event in generated.events:
        if isinstance(event, ClaimRolled):
            if event.world is None:
                misses.append(f"{_direction(event.direction)}, where nothing is unclaimed, ")
                continue
            number += 1
            add(f"{number}. {names.player(event.player)} rolled {''.join(misses)}"
                f"{'then ' if misses else ''}{_direction(event.direction)}: "
                f"**{names.world(event.world)}**.")
            misses = []
        elif isinstance(event, ClaimsExhausted):
            add("")
            add(f"{names.player(event.player)} was owed {event.short} more, but no unclaimed "
                "world was left.")
    add("")
    if neutral:
        add(f"Left neutral: {', '.join(names.world(w) for w in neutral)}. A neutral world's "
            "income is rolled only when someone scouts or attacks it (§4.2).")
    else:
        add("No world is left neutral.")
    add("")
    add("## Income and starting capital (§3, §6)")
    add("")
    add("Each player world's income is 3d5 × 10, and its inherent defence points equal its "
        "income (§10.2). Starting capital is ten times the total (§6.1), of which at most "
        "4,000 may go on ships."
        + (" Each power spends it in the set-up turn, t001, by its order file (§6); what it "
           "does not spend is kept as reserve cash." if state.campaign.setup.forces == "orders"
           else ""))
    add("")
    add("| Power | World | Dice | Income |")
    add("|---|---|---|---|")
    for event in generated.events:
        if isinstance(event, IncomeRolled):
            owner = generated.owners[event.world]
            add(f"| {names.player(owner)} | {names.world(event.world)} | "
                f"{' + '.join(str(d) for d in event.dice)} | {event.income} |")
    add("")
    add("| Power | Worlds | Income | Starting capital |")
    add("|---|---|---|---|")
    for player, held in generated.holdings.items():
        income = sum(generated.incomes[w] for w in held)
        add(f"| {names.player(player)} | {len(held)} | {income} | "
            f"{starting_capital(income):,} |")
    add("")
    add("## Every die")
    add("")
    add(f"{len(rolls)} dice in all, in the order they were rolled:")
    add("")
    for (rule, sides), run in groupby(rolls, key=lambda r: (r.rule, r.sides)):
        values = [r.value for r in run]
        add(f"- {rule}, {len(values)} × d{sides}: {' '.join(str(v) for v in values)}")
    add("")
    title = f"{state.campaign.name}: the map is rolled"
    summary = (f"{len(generated.worlds)} worlds, {len(generated.routes)} charted "
               f"route{'s' if len(generated.routes) != 1 else ''}, "
               f"{len(generated.holdings)} powers and their starting capital, from seed {seed}.")
    return title, summary, "\n".join(out)


def stub_routes(generated: GeneratedMap) -> tuple[Hex, ...]:
    """The worlds that rolled a charted route, in map order."""
    return tuple(dict.fromkeys(e.world for e in generated.events
                               if isinstance(e, (StubRolled, StubAbandoned))))


class _Names:
    """World and player names for the log, Markdown-safe."""

    def __init__(self, state: State) -> None:
        self.worlds = {s.hex: s.name for s in state.map.systems}
        self.players = {p.id: p.name for p in state.players.players}

    def world(self, h: Hex) -> str:
        return _md(self.worlds.get(h, str(h)))

    def player(self, player_id: str) -> str:
        return _md(self.players.get(player_id, player_id))


def _direction(d: int) -> str:
    return f"{d} ({DIRECTION_NAMES[d]})"


def _md(text: str) -> str:
    """Plain text safe inside Markdown: its punctuation cannot start formatting."""
    return "".join("\\" + c if c in "\\`*_[]{}<>()#+-.!|~" else c for c in text)
