"""The order form of the set-up turn (§6), for ``ftpress orders new``: the player's
starting capital and what it may buy, their worlds (where counters, spares and
defences go), their navy's designs from the catalogue, and a ``setup:`` block
that buys nothing until edited. Written as is, it passes ``ftpress check``, and
sent as is it keeps the whole capital as reserve cash (§6.2.3).
"""

from __future__ import annotations

from ftpress.rules.choices import (
    Amount,
    Choice,
    Field,
    ItemChoices,
    ItemKind,
    Limit,
    OrderChoices,
    Section,
)
from ftpress.rules.form_comments import form_for, wrapped
from ftpress.rules.ftc2007 import order_form as week_form
from ftpress.rules.ftc2007.catalogue import catalogue
from ftpress.rules.ftc2007.construction import own_navy
from ftpress.rules.ftc2007.economy_form import world_choice
from ftpress.rules.ftc2007.setup import SHIP_CAP
from ftpress.rules.ftc2007.setup_orders import setup_open
from ftpress.rules.ftc2007.spares import SPARES_PRICE
from ftpress.rules.ftc2007.state_ext import ally_of
from ftpress.rules.ftc2007.state_legality import CAPITAL_SIZES
from ftpress.state.model import Design, State

#: What ``ftpress init`` tells the umpire to tell the players.
FIRST_ORDERS = (
    "Turn t001 is the set-up turn (§6): each player runs 'ftpress orders new PLAYER', "
    "spends the starting capital under 'setup:' in orders/t001/PLAYER.yaml (ships, the "
    "counters they start in at the player's own worlds, dummy counters, spares at 75%, "
    "defences), checks it with 'ftpress check PATH' and sends it by pull request; a player "
    "who sends none keeps the whole capital as reserve cash.")


def order_choices(state: State, player_id: str) -> OrderChoices | ItemChoices | None:
    """What the "Your view" form offers: in the set-up turn the purchases and
    placements of §6 (a counter with a ship of one of your navy's designs, a dummy
    counter (§15.2), spares (§6.2.1) and defences (§6.2.2), each at one of your own
    worlds), in any other the week's orders."""
    if not setup_open(state):
        return week_form.order_choices(state, player_id)
    form = form_for(state, player_id)
    player = form.player
    navy = own_navy(player)
    worlds = tuple(world_choice(w, player) for w in state.map.systems if w.owner == player_id)
    designs = tuple(Choice(f"{d.name} ({d.id}, {d.size}, {d.points:,})", (d.id,),
                           adds=_design_adds(d))
                    for d in (*catalogue().designs, *state.designs.designs)
                    if d.navy in (navy, ally_of(player)))
    at = Field("world", "At", worlds)
    kinds = (
        ItemKind("counter", "a counter with a ship", "groups",
                 (at, Field("design", "Design", designs), Field("name", "Her name")),
                 ("    ${id}:", "      at: ${world}", "      ships:",
                  "        - {design: ${design}, name: ${name}}")),
        ItemKind("dummy", "a dummy counter (§15.2)", "groups", (at,),
                 ("    ${id}: {at: ${world}, dummy: true}",), (Amount(DUMMIES, 1),)),
        ItemKind("spares", "spares (§6.2.1)", "spares",
                 (at, Field("points", "Points", number=True)),
                 ("    - {at: ${world}, points: ${points}}",),
                 (Amount(SPENT, field="points", rate=(SPARES_PRICE.numerator,
                                                      SPARES_PRICE.denominator)),)),
        ItemKind("defences", "defences (§6.2.2)", "defences",
                 (at, Field("points", "Points", number=True)),
                 ("    - {system: ${world}, points: ${points}}",),
                 (Amount(SPENT, field="points"),)),
    )
    sizes = ", ".join(sorted(CAPITAL_SIZES))
    limits = (
        Limit(SPENT, "Spent of the starting capital", most=player.treasury,
              why="there is no credit at set-up (§6.2, §6.3)"),
        Limit(ON_SHIPS, "On ships, freighters aside", most=SHIP_CAP,
              why="§6.1, §19.4"),
        Limit(DUMMIES, f"Dummy counters, one for each capital ship ({sizes})",
              most_of=CAPITAL, why="§15.2"),
    )
    return ItemChoices(
        (f"turn: {form.turn}", f"player: {player_id}", "setup:"),
        (Section("groups", "  groups:", "  groups: {}"),
         Section("spares", "  spares:", "  spares: []"),
         Section("defences", "  defences:", "  defences: []")),
        kinds, ("groups: {}",), f"{player_id}-",
        ("a counter of several ships, designs of your own (§16.1), the week's orders for "
         "the counters placed, and the maintenance level: write those by hand",
         "two ships of one name, and a name already in use: the check finds them, not "
         "this page"),
        limits)


#: The sums of a set-up the page adds up (§6): the money spent, the money spent on
#: ships (freighters aside), the capital ships bought and the dummy counters placed.
SPENT, ON_SHIPS, CAPITAL, DUMMIES = "spent", "on-ships", "capital-ships", "dummies"


def _design_adds(design: Design) -> tuple[tuple[str, int], ...]:
    """What a ship of ``design`` adds to the set-up's sums, at her list price."""
    return ((SPENT, design.points),
            *(((ON_SHIPS, design.points),) if not design.freighter else ()),
            *(((CAPITAL, 1),) if design.size in CAPITAL_SIZES else ()))


def order_form(state: State, player_id: str) -> str:
    """The set-up form in the set-up turn; the week's form in any other."""
    if not setup_open(state):
        return week_form.order_form(state, player_id)
    form = form_for(state, player_id)
    player = form.player
    navy = own_navy(player)
    worlds = [s for s in state.map.systems if s.owner == player_id]
    home = player.capital if any(w.id == player.capital for w in worlds) else (
        worlds[0].id if worlds else "<your world>")
    designs = [d for d in (*catalogue().designs, *state.designs.designs)
               if d.navy in (navy, ally_of(player))]
    first = next((d for d in designs if d.navy == navy), None)
    example = first.id if first else "<design>"
    lines = [
        form.heading,
        f"# The set-up turn (§6): spend your starting capital of {player.treasury:,}. Up to "
        f"{SHIP_CAP:,} may go on ships (freighters aside, §6.1, §19.4), each at her list "
        "price; spares placed at one of your worlds cost 75% of the points they stand for "
        "(§6.2.1); defence points added to a world cost one each (§6.2.2); what is left is "
        "reserve cash, spent from economic turn 2 (§6.2.3, §6.3). A counter's id begins "
        f"'{player_id}-'; it stands for at least one ship, or is a dummy counter: one "
        f"dummy for each capital ship ({', '.join(sorted(CAPITAL_SIZES))}) you buy "
        "(§15.2). Nothing is bought until you write it here; then check the file with "
        "'ftpress check'.",
        "# your worlds: " + ", ".join(
            f"{w.name} ({w.id}{', capital' if w.id == player.capital else ''}, income "
            f"{w.income or 0}, IDP {w.idp or 0})" for w in worlds),
        f"# designs you may buy ({navy}{f', ally {ally_of(player)}' if ally_of(player) else ''}): "
        + ", ".join(_design(d) for d in designs),
        f"turn: {form.turn}",
        f"player: {player_id}",
        "setup:",
        "  groups: {}",
        "  # groups:",
        f"  #   {player_id}-1:",
        f"  #     at: {home}",
        "  #     ships:",
        f"  #       - {{design: {example}, name: <ship name>}}",
        f"  #   {player_id}-2: {{at: {home}, dummy: true}}",
        "  spares: []",
        f"  #   - {{at: {home}, points: 200}}",
        "  defences: []",
        f"  #   - {{system: {home}, points: 20}}",
        "  # designs of your own, entered as designs.yaml writes them (§16.1):",
        "  # designs:",
        f"  #   - {{id: {player_id}-warden, name: Warden, navy: {navy}, size: CL, mass: 56,",
        "  #      points: 190, hull: [5, 4, 4, 4],",
        "  #      abstract: {offence: 6, defence: 6, half: [3, 3], quarter: [2, 2]}}",
        "# The counters placed above may be given their orders for this week too:",
        "groups: {}",
        "# economy:",
        "#   maintenance: full   # full, standardised or reduced, for economic turn 1 (§7)",
    ]
    return "\n".join(wrapped(lines)) + "\n"


def _design(design: Design) -> str:
    return f"{design.id} ({design.size}, {design.points} points)"
