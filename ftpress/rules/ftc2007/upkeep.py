"""§7 Maintenance: the upkeep of a navy in commission, and the ordnance it fired.

Both are charged when an economic turn's books close (see
reading ``books-close-as-the-next-economic-turn-opens``).
"""

from __future__ import annotations

from fractions import Fraction

from ftpress.rules.ftc2007.sections import rule
from ftpress.rules.ftc2007.state_ext import Maintenance, maintenance_of
from ftpress.rules.ftc2007.treasury import balance, charge, credit, unpaid
from ftpress.state.events import Audience, Event
from ftpress.state.model import State
from ftpress.state.words import plural, power

#: §7.1, §7.3, §7.4: the share of the full list price paid each economic turn.
RATES: dict[Maintenance, Fraction] = {
    "full": Fraction(10, 100), "standardised": Fraction(75, 1000), "reduced": Fraction(5, 100)}

#: §7.1: expended ordnance costs half its build price.
ORDNANCE_RATE = Fraction(1, 2)

#: §11.5: Sa'Vasku biomass expended (fired, like other navies' munitions) costs
#: 1 point a box to grow back. Like ordnance it is declared by the player, as
#: ``economy: biomass:`` boxes in the first week of the next economic turn, and
#: billed as the books close; the state keeps no store of biomass.
EXPENDED_BIOMASS_BOX_COST = 1

#: §7.3: a standardised navy has at most this many size classes.
STANDARD_CLASSES = 5


def standardised_problem(state: State, player_id: str) -> str | None:
    """§7.3: why the player's navy does not qualify for standardised upkeep, or
    None. Freighters (``Design.freighter``, armed within the logistics limit,
    §19.4) do not count."""
    classes: dict[str, set[str]] = {}
    for group in state.groups_of(player_id):
        for ship in group.ships:
            design = state.design(ship.design)
            if design is not None and not design.freighter:
                classes.setdefault(design.size, set()).add(design.id)
    for size, designs in sorted(classes.items()):
        if len(designs) > 1:
            return (f"its {size}s are of {len(designs)} designs ({', '.join(sorted(designs))}); "
                    "a standardised navy has one design in each size class (§7.3)")
    if len(classes) > STANDARD_CLASSES:
        return (f"it has {len(classes)} size classes ({', '.join(sorted(classes))}); a "
                f"standardised navy has at most {STANDARD_CLASSES} (§7.3)")
    return None


def checks_worse(state: State, player_id: str) -> bool:
    """§7.4: does the player's navy make its damage checks one level worse? It does
    in every battle of an economic turn whose upkeep it declared reduced (the
    player's ``maintenance``, billed when that economic turn's books close)."""
    player = state.player(player_id)
    return player is not None and maintenance_of(player) == "reduced"


def list_price(state: State, player_id: str) -> int:
    """§7.1: the full list price of every ship in commission, freighters included,
    whatever was paid for them."""
    return sum(d.points for g in state.groups_of(player_id) for s in g.ships
               if (d := state.design(s.design)) is not None)


def charge_upkeep(state: State, player_id: str, economic_turn: int) -> tuple[State, list[Event]]:
    """§7.1–7.4: the upkeep of ``economic_turn`` at the player's declared level.

    Readings ``standardised-lapses-to-full`` and ``unpaid-upkeep-is-written-off`` (the
    ruleset's readings).
    """
    player = state.player(player_id)
    assert player is not None
    level = maintenance_of(player)
    why = ""
    if level == "standardised" and (problem := standardised_problem(state, player_id)):
        level, why = "full", f"; standardised upkeep lapses because {problem}"
    price = list_price(state, player_id)
    if not price:
        return state, []  # no ship in commission, nothing to pay
    due = charge(price, RATES[level])
    paid = min(due, balance(state, player_id))
    state = credit(state, player_id, -paid)
    rate = f"{float(RATES[level] * 100):g}%"
    events = [Event("upkeep", rule("7.4" if level == "reduced" else
                                   "7.3" if level == "standardised" else "7.1"),
                    f"{power(state, player_id, start=True)} pays {paid} upkeep for economic "
                    f"turn {economic_turn}: {rate} ({level}) of its ships' full list price of "
                    f"{price}{why}.",
                    audience=Audience.told(player_id), player=player_id, amount=-paid,
                    account="maintenance")]
    if paid < due:
        events.append(unpaid(player_id, f"the rest of its upkeep ({due} due)", due - paid,
                             "maintenance", "7.1"))
    return state, events


def charge_biomass(state: State, player_id: str, boxes: int, economic_turn: int,
                   where: str | None) -> tuple[State, list[Event]]:
    """§11.5: biomass expended in ``economic_turn``, at 1 point a box."""
    due = boxes * EXPENDED_BIOMASS_BOX_COST
    paid = min(due, balance(state, player_id))
    state = credit(state, player_id, -paid)
    events = [Event("ordnance", rule("11.5"),
                    f"{power(state, player_id, start=True)} pays {paid} to regrow "
                    f"{plural(boxes, 'box', 'boxes')} of biomass expended in economic turn "
                    f"{economic_turn} ({EXPENDED_BIOMASS_BOX_COST} a box).",
                    audience=Audience.told(player_id),
                    player=player_id, order=where, amount=-paid, account="ordnance")]
    if paid < due:
        events.append(unpaid(player_id, f"the rest of its expended biomass ({due} due)",
                             due - paid, "ordnance", "11.5", order=where))
    return state, events


def charge_ordnance(state: State, player_id: str, points: int, economic_turn: int,
                    where: str | None) -> tuple[State, list[Event]]:
    """§7.1: ordnance expended in ``economic_turn``, at half its build price.

    Reading ``ordnance-declared-in-the-orders`` (the ruleset's readings).
    """
    due = charge(points, ORDNANCE_RATE)
    paid = min(due, balance(state, player_id))
    state = credit(state, player_id, -paid)
    events = [Event("ordnance", rule("7.1"),
                    f"{power(state, player_id, start=True)} pays {paid} for ordnance worth "
                    f"{points} expended in economic turn {economic_turn} (half its build "
                    "price).", audience=Audience.told(player_id), player=player_id, order=where,
                    amount=-paid,
                    account="ordnance")]
    if paid < due:
        events.append(unpaid(player_id, f"the rest of its ordnance bill ({due} due)",
                             due - paid, "ordnance", "7.1", order=where))
    return state, events
