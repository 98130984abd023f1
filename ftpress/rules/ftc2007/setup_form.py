"""The order form of the set-up turn (§6), for ``ftpress orders new``: the player's
starting capital and what it may buy, their worlds (where counters, spares and
defences go), their navy's designs from the catalogue, and a ``setup:`` block
that buys nothing until edited. Written as is, it passes ``ftpress check``, and
sent as is it keeps the whole capital as reserve cash (§6.2.3).
"""

from __future__ import annotations

from ftpress.rules.form_comments import form_for, wrapped
from ftpress.rules.ftc2007 import order_form as week_form
from ftpress.rules.ftc2007.catalogue import catalogue
from ftpress.rules.ftc2007.construction import own_navy
from ftpress.rules.ftc2007.setup import SHIP_CAP
from ftpress.rules.ftc2007.setup_orders import setup_open
from ftpress.rules.ftc2007.state_legality import CAPITAL_SIZES
from ftpress.state.model import Design, State

#: What ``ftpress init`` tells the umpire to tell the players.
FIRST_ORDERS = (
    "Turn t001 is the set-up turn (§6): each player runs 'ftpress orders new PLAYER', "
    "spends the starting capital under 'setup:' in orders/t001/PLAYER.yaml (ships, the "
    "counters they start in at the player's own worlds, dummy counters, spares at 75%, "
    "defences), checks it with 'ftpress check PATH' and sends it by pull request; a player "
    "who sends none keeps the whole capital as reserve cash.")


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
               if d.navy in (navy, player.ally)]
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
        f"# designs you may buy ({navy}{f', ally {player.ally}' if player.ally else ''}): "
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
