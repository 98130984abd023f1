"""Legality of economic orders (§5.2, §6.3, §7, §10.5, §11, §13, §6.2.1): each
order the rules forbid now, located in the file, with the reason.

:func:`.orders.vet` adds these to a player's rejections, so ``ftpress check``
reports them at ``path:line:col`` and the turn leaves them undone with an
event. Whether the treasury can pay is not a question of legality: the money
arrives during the turn, and what it cannot pay is left undone then (§6.3).
"""

from __future__ import annotations

from ftpress.rules.ftc2007.catalogue import catalogue
from ftpress.rules.ftc2007.construction import (
    change_problem,
    keel_problem,
    names_in_use,
    purchase_problem,
)
from ftpress.rules.ftc2007.orderfile import OrdersFile
from ftpress.rules.ftc2007.owed_repairs import owed_repair_problem
from ftpress.rules.ftc2007.rebuilding import defence_problem
from ftpress.rules.ftc2007.refits import refit_rejections
from ftpress.rules.ftc2007.rejection import Rejection
from ftpress.rules.ftc2007.repairs import repair_problem
from ftpress.rules.ftc2007.spares import spares_problem
from ftpress.rules.ftc2007.upkeep import standardised_problem
from ftpress.state.model import State

#: §6.3: reserve cash may be spent from this economic turn on. Economic turn 1
#: is paid for by the starting capital at setup (§6.1, §6.2), so its only
#: economic order is the upkeep level.
LOOSE_CASH_FROM_ECONOMIC_TURN = 2

#: What each kind of spending order is, for the §6.3 refusal.
_SPENDING = {"keels": "a keel", "changes": "a change to a keel", "purchases": "a purchase",
             "repairs": "a repair", "owed": "a repair of repulse damage", "spares": "spares",
             "defences": "rebuilding defences"}


def economy_rejections(state: State, orders: OrdersFile,
                       merged_into: dict[str, str]) -> list[Rejection]:
    """Every economic order of one file that the rules forbid now; none is paid
    from reserve cash before economic turn 2 (§6.3)."""
    economy = orders.economy
    player = state.player(orders.player)
    if economy is None or player is None:
        return []
    cal = state.campaign.calendar
    found: list[Rejection] = []
    if economy.maintenance == "standardised" and (
            problem := standardised_problem(state, player.id)):
        found.append(Rejection(("economy", "maintenance"), f"your navy does not qualify for "
                               f"standardised upkeep: {problem}"))
    if economy.ordnance is not None and cal.economic_turn < 2:
        found.append(Rejection(("economy", "ordnance"), "no economic turn has ended yet, so "
                               "there is no expended ordnance to pay for (§7.1)"))
    if economy.biomass is not None:
        navy = catalogue().navy(player.navy) if player.navy else None
        if navy is None or navy.species != "sa-vasku":
            found.append(Rejection(("economy", "biomass"), "only Sa'Vasku ships are grown of "
                                   "biomass, so only they expend it (§11.5); declare spent "
                                   "munitions as 'ordnance' (§7.1)"))
        elif cal.economic_turn < 2:
            found.append(Rejection(("economy", "biomass"), "no economic turn has ended yet, so "
                                   "there is no expended biomass to pay for (§11.5)"))
    if cal.economic_turn < LOOSE_CASH_FROM_ECONOMIC_TURN:
        for kind, what in _SPENDING.items():
            for i in range(len(getattr(economy, kind))):
                found.append(Rejection(("economy", kind, i), f"{what} is paid from reserve "
                                       "cash, which may be spent only from economic turn "
                                       f"{LOOSE_CASH_FROM_ECONOMIC_TURN} (§6.3); economic "
                                       "turn 1 is the starting capital's"))
        return found
    names = names_in_use(state, player.id)

    def named(kind: str, i: int, name: str, problem: str | None) -> None:
        """A ship ordered by name: refused, or its name taken for the orders after it."""
        if problem:
            found.append(Rejection(("economy", kind, i), problem))
        else:
            names.add(name)

    for i, purchase in enumerate(economy.purchases):
        named("purchases", i, purchase.name, purchase_problem(state, player, purchase, names))
    for i, keel in enumerate(economy.keels):
        named("keels", i, keel.name, keel_problem(state, player, keel, names))
    changed: set[str] = set()
    for i, change in enumerate(economy.changes):
        problem = change_problem(state, player, change, changed)
        if problem:
            found.append(Rejection(("economy", "changes", i), problem))
        else:
            changed.add(change.keel)
    repulses: list[str] = []
    for i, world in enumerate(economy.owed):
        problem = owed_repair_problem(state, player.id, world, repulses)
        if problem:
            found.append(Rejection(("economy", "owed", i), problem))
        else:
            repulses.append(world)
    repaired: dict[str, int] = {}
    given: dict[str, int] = {}
    stripping = frozenset(pid for pid, o in economy.prizes.items() if o.action == "strip")
    for i, r in enumerate(economy.repairs):
        problem = repair_problem(state, player.id, r, orders.groups.get(r.group),
                                 r.group in merged_into, repaired, given, stripping)
        if problem:
            found.append(Rejection(("economy", "repairs", i), problem))
            continue
        repaired[r.ship] = repaired.get(r.ship, 0) + r.boxes
        if r.parts_from is not None:
            given[r.parts_from] = given.get(r.parts_from, 0) + r.boxes
    ordered: dict[str, int] = {}
    for i, s in enumerate(economy.spares):
        problem = spares_problem(state, player.id, s, ordered.get(s.at, 0))
        if problem:
            found.append(Rejection(("economy", "spares", i), problem))
        else:
            ordered[s.at] = ordered.get(s.at, 0) + s.points
    found += refit_rejections(economy)
    rebuilding: set[str] = set()
    for i, d in enumerate(economy.defences):
        problem = defence_problem(state, player.id, d)
        if problem is None and d.system in rebuilding:
            problem = (f"the defences of {d.system} are already ordered rebuilt above; one "
                       "rebuilding at a time")
        if problem:
            found.append(Rejection(("economy", "defences", i), problem))
        else:
            rebuilding.add(d.system)
    return found
