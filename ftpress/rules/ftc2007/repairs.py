"""§11 Repair: where hull damage may be mended, what it costs, how long it takes.

The state records damage as hull boxes lost (``Ship.damage``), so a repair
order restores hull boxes; what the rules price by system is priced here by
the box (:data:`HULL_BOX_COST`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from fractions import Fraction

from ftpress.rules.ftc2007.catalogue import catalogue
from ftpress.rules.ftc2007.income import paid_income
from ftpress.rules.ftc2007.orderfile import GroupOrder, RepairOrder
from ftpress.rules.ftc2007.recce import who_knows
from ftpress.rules.ftc2007.sections import rule
from ftpress.rules.ftc2007.spares import spares_at
from ftpress.rules.ftc2007.state_ext import (
    Ftc2007Player,
    Ftc2007Ship,
    Prize,
    interdictor,
    prizes_of,
    spares_of,
    with_spares,
)
from ftpress.rules.ftc2007.technology import non_indigenous, non_standard, with_surcharge
from ftpress.rules.ftc2007.treasury import balance, charge, credit, unpaid
from ftpress.state import words
from ftpress.state.events import Audience, Event
from ftpress.state.extension import extended
from ftpress.state.model import Design, Group, Repair, Ship, State
from ftpress.state.words import plural, power, powers_own

#: Ruling: §11.2 prices a repair as the system cost to build, and the state
#: knows only hull boxes. §10.7 and §10.8 put a rate on them: a repulse does
#: damage "equal to the world's income" and, when it must be allocated, that is
#: a third of the IDP (equal to the income, §10.2) in hull boxes. So a hull box
#: is repaired for 3 points.
HULL_BOX_COST = 3

#: §11.5: Sa'Vasku biomass destroyed by fire costs 2 points a box, as it cost to
#: grow; their hull is biomass.
BIOMASS_BOX_COST = 2

#: §11.3.2: parts from an identical ship of the same task group are fitted for 10%.
IDENTICAL_PARTS = Fraction(1, 10)
#: §11.3.3: parts from any other ship are fitted for 20%.
OTHER_PARTS = Fraction(1, 5)

#: §11.4: hull boxes are none of the major repairs (weapons and drives above 3,
#: core systems, FTL, hangar bays, level-2 shields), so they take a week: the
#: boxes are back at the end of the strategic turn the repair is ordered in.
#: Halving a week (§11.4, at twice the cost) gains nothing in weekly turns.
REPAIR_WEEKS = 1


def species(design: Design) -> str:
    navy = catalogue().navy(design.navy)
    return navy.species if navy else design.navy


def box_cost(design: Design) -> int:
    """§11.2, §11.5: what one hull box costs to repair with new parts."""
    return BIOMASS_BOX_COST if species(design) == "sa-vasku" else HULL_BOX_COST


def place_problem(state: State, player_id: str, world_id: str,
                  design: Design) -> str | None:
    """§11.1: a world you hold that paid you income as this economic turn opened;
    §16.1: a standard ship anywhere, §16.3: a non-standard ship only at your
    capital or where your spares are."""
    world = state.system(world_id)
    assert world is not None
    if not paid_income(state, player_id, world_id):
        if world.owner != player_id:
            why = "you do not hold it"
        elif interdictor(world):
            why = f"it is interdicted by {interdictor(world)} and paid you nothing"
        elif not world.income:
            why = "it has no income"
        else:
            why = "no income has been drawn from it yet this economic turn"
        return (f"repairs are made only at a world you hold that paid you income this "
                f"economic turn (§11.1), and at {world.name} {why}")
    player = state.player(player_id)
    if (non_standard(design) and player is not None and world_id != player.capital
            and spares_at(state, player_id, world_id) is None):
        return (f"{design.name} is non-standard: she is repaired only at your capital or where "
                "your spares are (§16.3)")
    return None


def repair_problem(state: State, player_id: str, order: RepairOrder,
                   group_order: GroupOrder | None, merged: bool,
                   repaired: Mapping[str, int], given: Mapping[str, int],
                   stripping: frozenset[str] = frozenset()) -> str | None:
    """Why the rules forbid this repair now, or None. ``repaired`` and ``given``
    count, per ship, the boxes ordered repaired and given as parts earlier in the file;
    ``stripping`` names the prizes the same file orders stripped (§12.2.2).

    Reading ``repaired-ship-stays`` (the ruleset's readings).
    """
    group = next((g for g in state.groups_of(player_id) if g.id == order.group), None)
    if group is None:
        mine = ", ".join(g.id for g in state.groups_of(player_id)) or "none"
        return f"you have no group {order.group!r}; your groups are {mine}"
    ship = next((s for s in group.ships if s.name == order.ship), None)
    if ship is None:
        return (f"{order.group!r} has no ship named {order.ship!r}; its ships are "
                f"{', '.join(s.name for s in group.ships) or 'none'}")
    if not isinstance(group.at, str):
        return f"{order.group!r} is in open space; repairs are made at a world (§11.1)"
    design = state.design(ship.design)
    assert design is not None
    left = ship.damage - repaired.get(order.ship, 0)
    if order.boxes > left:
        return (f"{order.boxes} hull boxes is more than {order.ship} has lost; expected at "
                f"most {max(left, 0)}")
    problem = place_problem(state, player_id, str(group.at), design)
    if problem:
        return problem
    if merged or (group_order is not None and (
            group_order.action != "hold"
            or any(order.ship in names for names in group_order.split.values()))):
        return (f"{order.ship} stays in the yard while she is repaired, so {order.group!r} "
                "must hold this week with her (§11.4)")
    if order.parts_from is not None:
        return _donor_problem(state, player_id, group, ship, order, given, stripping)
    return None


def _donor_problem(state: State, player_id: str, group: Group, ship: Ship, order: RepairOrder,
                   given: Mapping[str, int], stripping: frozenset[str]) -> str | None:
    """§11.3.2, §11.3.3: why ``order.parts_from`` cannot give the parts, or None; a
    prize gives them once stripped (§12.2.2).

    Reading ``donor-keeps-a-box`` (the ruleset's readings).
    """
    found = _find_ship(state, player_id, group.at, order.parts_from)
    prize = _find_prize(state, player_id, group.at, order.parts_from)
    if found is None and prize is None:
        return (f"you have no ship or prize named {order.parts_from!r} at the same world as "
                f"{order.ship}; parts come from a ship that is there (§11.3.2, §11.3.3) "
                "or a prize stripped there (§12.2.2)")
    if found is None:
        assert prize is not None
        if not (prize.stripped or prize.id in stripping):
            return (f"prize {prize.id} has not been stripped for parts; order "
                    f"'prizes: {{{prize.id}: {{action: strip}}}}' first (§12.2.2)")
        donor = prize.ship
    else:
        donor = found[1]
    if donor.name == ship.name and found is not None:
        return f"{order.ship} cannot give parts to herself; name another ship"
    mine, theirs = state.design(ship.design), state.design(donor.design)
    assert mine is not None and theirs is not None
    if species(mine) != species(theirs):
        return (f"{donor.name} is a {theirs.navy} ship of another species: parts are fitted "
                "only where they do exactly the same job, never alien parts (§11.3.3)")
    intact = theirs.hull_boxes - donor.damage - given.get(order.parts_from or "", 0)
    if order.boxes >= intact:
        return (f"{donor.name} has {max(intact, 0)} hull boxes intact; she can give at most "
                f"{max(intact - 1, 0)} and keep one")
    return None


def identical_parts(state: State, player_id: str, order: RepairOrder) -> bool:
    """§11.3.2: are the parts of ``order.parts_from`` those of an identical ship of the
    same task group (an organic ship has none, :data:`ORGANIC_PARTS_ALWAYS_FOREIGN`)?
    Any other donor, a prize among them, gives another ship's parts (§11.3.3)."""
    group = next(g for g in state.groups_of(player_id) if g.id == order.group)
    ship = next(s for s in group.ships if s.name == order.ship)
    design = state.design(ship.design)
    assert design is not None
    found = _find_ship(state, player_id, group.at, order.parts_from)
    if found is None:
        return False
    donor_group, donor = found
    return (donor.design == ship.design and donor_group.id == group.id
            and species(design) != "sa-vasku")


def repair_cost(state: State, player_id: str, order: RepairOrder) -> tuple[int, int, str]:
    """(money, spares used, how) for a repair the rules allow (§11.2–§11.3): spares
    fitted free (§11.3.1), parts from an identical ship at 10% (§11.3.2) or from
    another at 20% (§11.3.3).

    Reading ``organic-parts-always-foreign`` (the ruleset's readings).
    """
    group = next(g for g in state.groups_of(player_id) if g.id == order.group)
    ship = next(s for s in group.ships if s.name == order.ship)
    design = state.design(ship.design)
    assert design is not None
    full = with_surcharge(design, box_cost(design) * order.boxes)
    extra = " with the 20% on non-indigenous technology (§16.3)" if non_indigenous(design) \
        else ""
    if order.parts_from is not None:
        found = _find_ship(state, player_id, group.at, order.parts_from)
        prize = _find_prize(state, player_id, group.at, order.parts_from)
        identical = identical_parts(state, player_id, order)
        if found is None:
            assert prize is not None
            kind = f"from the prize {words.ship(state, prize.ship.name, prize.ship.design)}"
        else:
            kind = ("from the identical ship" if identical else "from") + f" {found[1].name}"
        rate = IDENTICAL_PARTS if identical else OTHER_PARTS
        cost = charge(full, rate)
        section = "11.3.2" if identical else "11.3.3" if found else "11.3.3, §12.2.2"
        worse = "" if identical else "; they check for damage one level worse"
        return cost, 0, (f"with parts {kind} at {int(rate * 100)}% of {full}{extra} "
                         f"(§{section}){worse}")
    stock = spares_at(state, player_id, str(group.at))
    used = min(stock.stock, full) if stock else 0
    how = f"at {box_cost(design)} a box (§11.2){extra}"
    if used:
        how += f", {used} of it from the spares there (§11.3.1)"
    return full - used, used, how


def start_repair(state: State, player_id: str, order: RepairOrder, repair_id: str,
                 where: str | None) -> tuple[State, list[Event]]:
    """§11: pay (no credit, §6.3), take spares or a donor's parts, and put the
    repair in the yard; :func:`finish_repairs` gives the boxes back."""
    money, used, how = repair_cost(state, player_id, order)
    group = next(g for g in state.groups_of(player_id) if g.id == order.group)
    at = str(group.at)
    what = f"repairing {order.boxes} hull boxes of {order.ship}"
    if balance(state, player_id) < money:
        return state, [unpaid(player_id, what, money, "repairs", "11.2", order=where, at=at,
                              group=group.id)]
    state = credit(state, player_id, -money)
    if used:
        spares = tuple(dataclasses.replace(s, stock=s.stock - used)
                       if s.owner == player_id and s.at == at else s
                       for s in spares_of(state))
        state = with_spares(state, spares)
    if order.parts_from is not None:
        foreign = not identical_parts(state, player_id, order)
        if _find_ship(state, player_id, at, order.parts_from) is not None:
            state = _damage(state, player_id, at, order.parts_from, order.boxes)
        else:
            state = _strip_prize(state, player_id, order.parts_from, order.boxes)
        if foreign:
            state = _graft(state, player_id, at, order.ship, group.id)
    cal = state.campaign.calendar
    repair = Repair(repair_id, player_id, group.id, order.ship, at, order.boxes, money,
                    cal.turn + REPAIR_WEEKS - 1)
    q = state.queues
    state = dataclasses.replace(state, queues=dataclasses.replace(q, repairs=(*q.repairs,
                                                                              repair)))
    world = state.system(at)
    return state, [Event(
        "repair", rule("11.2"), f"{power(state, player_id, start=True)} pays {money} for {what} at "
        f"{world.name if world else at} {how}; she is ready at the end of this week (§11.4).",
        # It names the ship: who may know what the group holds (§15.3).
        audience=who_knows(state, group.id, player_id), player=player_id, group=group.id,
        at=at, order=where, note=order.note, amount=-money,
        account="repairs")]


def finish_repairs(state: State) -> tuple[State, list[Event]]:
    """§11.4: repairs due by the end of this strategic turn give their hull boxes
    back; a ship no longer at the yard (lost, or moved by a battle) is not repaired."""
    turn = state.campaign.calendar.turn
    events: list[Event] = []
    done = [r for r in state.queues.repairs if r.ready <= turn]
    for r in done:
        found = _find_ship(state, r.owner, r.at, r.ship, prefer=r.group)
        world = state.system(r.at)
        name = world.name if world else r.at
        if found is None:
            events.append(Event("works-lost", rule("11.4"), f"The repair of {r.ship} at {name} "
                                "comes to nothing: she is no longer there.",
                                audience=Audience.told(r.owner), player=r.owner,
                                at=r.at))
            continue
        group, ship = found
        boxes = min(r.boxes, ship.damage)
        state = _damage(state, r.owner, r.at, r.ship, -boxes, prefer=group.id)
        events.append(Event("repaired", rule("11.4"), f"{powers_own(state, r.owner, start=True)} "
                            f"{r.ship} is repaired at {name}: {plural(boxes, 'hull box')} "
                            "restored.",
                            audience=who_knows(state, group.id, r.owner), player=r.owner,
                            group=group.id, at=r.at))
    if done:
        queues = dataclasses.replace(state.queues, repairs=tuple(
            r for r in state.queues.repairs if r not in done))
        state = dataclasses.replace(state, queues=queues)
    return state, events


def _find_ship(state: State, player_id: str, at: object, name: str | None,
               prefer: str | None = None) -> tuple[Group, Ship] | None:
    hex_ = state.hex_of(at) if isinstance(at, str) else None
    found = [(g, s) for g in state.groups_of(player_id)
             if hex_ is not None and state.hex_of(g.at) == hex_ and isinstance(g.at, str)
             for s in g.ships if s.name == name]
    found.sort(key=lambda gs: gs[0].id != prefer)
    return found[0] if found else None


def _find_prize(state: State, player_id: str, at: object, prize_id: str | None) -> Prize | None:
    """The player's prize ``prize_id`` lying at the same world as ``at``, if any.

    Reading ``stripped-prizes-give-parts`` (the ruleset's readings).
    """
    player = state.player(player_id)
    hex_ = state.hex_of(at) if isinstance(at, str) else None
    return next((p for p in (prizes_of(player) if player else ())
                 if p.id == prize_id and hex_ is not None and state.hex_of(p.at) == hex_),
                None)


def _strip_prize(state: State, player_id: str, prize_id: str, boxes: int) -> State:
    """The prize ``prize_id`` with ``boxes`` more hull boxes gone into the repair."""
    def change(prize: Prize) -> Prize:
        if prize.id != prize_id:
            return prize
        return dataclasses.replace(prize, ship=dataclasses.replace(
            prize.ship, damage=prize.ship.damage + boxes))
    players = tuple(extended(p, Ftc2007Player, prizes=tuple(map(change, prizes_of(p))))
                    if p.id == player_id else p for p in state.players.players)
    return dataclasses.replace(state, players=dataclasses.replace(state.players,
                                                                  players=players))




def _graft(state: State, player_id: str, at: str, name: str, prefer: str) -> State:
    """§11.3.3: ``name`` now carries another ship's parts, for good. Reading
    ``grafted-parts-stay`` (the ruleset's readings)."""
    found = _find_ship(state, player_id, at, name, prefer)
    assert found is not None
    group, ship = found
    ship = extended(ship, Ftc2007Ship, grafted=True)
    new = dataclasses.replace(group, ships=tuple(ship if s.name == name else s
                                                 for s in group.ships))
    return dataclasses.replace(state, groups=dataclasses.replace(state.groups, groups=tuple(
        new if g.id == group.id else g for g in state.groups.groups)))


def _damage(state: State, player_id: str, at: str, name: str, boxes: int,
            prefer: str | None = None) -> State:
    found = _find_ship(state, player_id, at, name, prefer)
    assert found is not None
    group, ship = found
    ship = dataclasses.replace(ship, damage=ship.damage + boxes)
    new = dataclasses.replace(group, ships=tuple(ship if s.name == name else s
                                                 for s in group.ships))
    return dataclasses.replace(state, groups=dataclasses.replace(state.groups, groups=tuple(
        new if g.id == group.id else g for g in state.groups.groups)))
