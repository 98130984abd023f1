"""§13 Construction: keels built week by week, and ships bought on the open market.

What the rules allow is decided by the ``*_problem`` functions (read by
:mod:`.economy_vetting` when orders are checked); what happens, and what it
costs, by :func:`buy_ship`, :func:`lay_keel` and :func:`build_keels`.

A build is declared to the umpire (§13.2), and a new ship forms a group no enemy
has seen (§15.3), often with a dummy counter (§15.2): every event here is told
to the builder alone.
"""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction

from ftpress.rules.ftc2007.catalogue import catalogue
from ftpress.rules.ftc2007.orderfile import KeelChangeOrder, KeelOrder, PurchaseOrder
from ftpress.rules.ftc2007.sections import rule
from ftpress.rules.ftc2007.state_ext import ally_of, announced, approved_on
from ftpress.rules.ftc2007.state_legality import CAPITAL_SIZES
from ftpress.rules.ftc2007.technology import build_price, non_standard
from ftpress.rules.ftc2007.treasury import balance, charge, credit, unpaid
from ftpress.state.events import Audience, Event
from ftpress.state.model import (
    Design,
    Group,
    Keel,
    Player,
    Ship,
    State,
)
from ftpress.state.words import plural, power

#: §13.1: a keel grows by this many points of work each strategic turn (a week).
KEEL_WORK_PER_WEEK = 100

#: §13.1: an ally's designs are bought at this much off their list price.
ALLY_DISCOUNT = Fraction(1, 5)


def own_navy(player: Player) -> str:
    """The navy whose designs the player builds (reading ``own-navy-is-player-id-when-unset``)."""
    return player.navy or player.id


def find_design(state: State, design_id: str) -> Design | None:
    """A design of the campaign (``designs.yaml``) or of the published catalogue."""
    return state.design(design_id) or catalogue().design(design_id)


def purchase_price(player: Player, design: Design) -> int | None:
    """§13.1: list price for the player's own navy's designs, 20% off for the
    ally's; None for anyone else's."""
    if design.navy == own_navy(player):
        return design.points
    if ally_of(player) is not None and design.navy == ally_of(player):
        return charge(design.points, 1 - ALLY_DISCOUNT)
    return None


def names_in_use(state: State, player_id: str) -> set[str]:
    """Names of the player's ships afloat and on the slips.

    Reading ``ship-names-unique-in-a-navy`` (the ruleset's readings).
    """
    names = {s.name for g in state.groups_of(player_id) for s in g.ships}
    return names | {k.name for k in state.queues.keels if k.owner == player_id}


def _world_problem(state: State, player: Player, world_id: str) -> str | None:
    world = state.system(world_id)
    if world is None:
        return f"there is no world {world_id!r} on the map"
    if world.owner != player.id:
        holder = f"held by {world.owner}" if world.owner else "neutral"
        return f"{world.name} is {holder}; ships are built and delivered only at your own worlds"
    return None


def keel_problem(state: State, player: Player, order: KeelOrder,
                 names: set[str]) -> str | None:
    """§13.1: a keel at a world you hold (reading ``keel-at-any-held-world``), to a
    design of your own navy (reading ``keel-designs-of-own-navy``) that may be used
    (§16.2), with a new name."""
    return (_keel_design_problem(state, player, order.design)
            or _world_problem(state, player, order.at) or _name_problem(order.name, names))


def _keel_design_problem(state: State, player: Player, design_id: str) -> str | None:
    design = find_design(state, design_id)
    if design is None:
        return (f"there is no design {design_id!r} in the campaign's designs or the "
                "published catalogue")
    if design.navy != own_navy(player):
        return (f"{design.name} ({design.id}) is a {design.navy} design; keels are laid to "
                f"your own navy's designs (§13.1), and an ally's ships are bought instead")
    return approval_problem(design)


#: §13.2 bills a change to a ship on the slips "under rule 16", whose appended
#: notes (rulebook 19.2) bill a refit with a system of another type or mass at 20%
#: more. Ruling: the state knows a keel's design and the points built, not its
#: systems, so the change is priced on the whole keel, as §16.3's surcharge is
#: (reading ``surcharge-on-the-whole-ship``): the work built so far counts toward
#: the new design (up to its price), and a new design of another size class or mass
#: costs 20% of that work more, paid when the change is made; one of the same
#: class and mass is a like-for-like refit, billed as the building it is.
CHANGE_SURCHARGE = Fraction(1, 5)

#: §13.2 has the design mass declared when the keel is laid, and §19.3 lets
#: nothing take a ship past its design weight: a change may not be to a design of
#: greater mass.
CHANGE_WITHIN_THE_DESIGN_MASS = True


def change_problem(state: State, player: Player, order: KeelChangeOrder,
                   changed: set[str]) -> str | None:
    """§13.2: a keel of yours on the slips, changed once a week to another design of
    your navy that may be used (§16.2), no heavier than its design mass (§19.3)."""
    keel = next((k for k in state.queues.keels
                 if k.owner == player.id and k.name == order.keel), None)
    if keel is None:
        mine = ", ".join(k.name for k in state.queues.keels if k.owner == player.id)
        return (f"you have no keel of {order.keel!r} on the slips; your keels are "
                f"{mine or 'none'}")
    if order.keel in changed:
        return f"{order.keel} is already changed above; one change to a keel a week"
    if order.design == keel.design:
        return f"{order.keel} is already being built to {order.design}"
    problem = _keel_design_problem(state, player, order.design)
    if problem:
        return problem
    old, new = state.design(keel.design), find_design(state, order.design)
    assert old is not None and new is not None
    if CHANGE_WITHIN_THE_DESIGN_MASS and new.mass > old.mass:
        return (f"{new.name} ({new.id}) is of {new.mass} mass, more than the {old.mass} "
                f"declared for {order.keel} when her keel was laid; no change takes a ship "
                "past her design weight (§13.2, §19.3)")
    return None


def change_price(old: Design, new: Design, built: int) -> int:
    """§13.2 (:data:`CHANGE_SURCHARGE`): what a change of a keel with ``built`` points of work
    from ``old`` to ``new`` costs on top of building it."""
    if (old.size, old.mass) == (new.size, new.mass):
        return 0
    return charge(built, CHANGE_SURCHARGE)


def change_keel(state: State, player_id: str, order: KeelChangeOrder,
                where: str | None) -> tuple[State, list[Event]]:
    """§13.2: the keel is built to its new design from now on, the surcharge paid
    first (no credit, §6.3)."""
    keel = next(k for k in state.queues.keels
                if k.owner == player_id and k.name == order.keel)
    old, new = state.design(keel.design), find_design(state, order.design)
    assert old is not None and new is not None
    price = change_price(old, new, keel.built)
    if balance(state, player_id) < price:
        return state, [unpaid(player_id, f"changing {keel.name} to {new.name}", price,
                              "construction", "13.2", order=where, at=keel.at)]
    state = credit(state, player_id, -price) if price else state
    state = _with_design(state, new)
    total = build_price(new)
    changed = dataclasses.replace(keel, design=new.id, built=min(keel.built, total))
    q = state.queues
    state = dataclasses.replace(state, queues=dataclasses.replace(q, keels=tuple(
        changed if k.id == keel.id else k for k in q.keels)))
    bill = (f"{price} (20% of the {keel.built} points built, for the structural changes of "
            "another class or mass, §19.2)" if price else
            "nothing more: the same class and mass, a like-for-like refit (§19.2)")
    return state, [Event(
        "keel-changed", rule("13.2"),
        f"{power(state, player_id, start=True)} changes {keel.name} from {old.name} to "
        f"{new.name} ({new.size}, {new.mass} mass, {total} points): {changed.built} of "
        f"{total} built so far; the change costs {bill}.", audience=Audience.told(player_id),
        player=player_id, at=keel.at, order=where, note=order.note,
        amount=-price, account="construction")]


def approval_problem(design: Design) -> str | None:
    """§16.2: a design that is not standard is used only once the umpires have approved
    it (``approved`` in ``designs.yaml``) and every player has been told
    (:func:`.approvals.announce_approvals`, the turn after)."""
    if not non_standard(design):
        return None
    if approved_on(design) is None:
        return (f"{design.name} ({design.id}) is non-standard technology, used only with "
                "the umpires' approval, told to every player (§16.2); the umpire records it "
                "as 'approved: <date>' on the design")
    if not announced(design):
        return (f"{design.name} ({design.id}) was approved on {approved_on(design)}, but "
                "every player is told of it when this turn resolves, and it may be used from "
                "the next (§16.2)")
    return None


def purchase_problem(state: State, player: Player, order: PurchaseOrder,
                     names: set[str]) -> str | None:
    """§13.1: a published design (one of the catalogue, ftpress's stand-in for the
    Fleet Books) of your navy or your ally's, delivered at a world
    you hold (reading ``purchase-delivered-at-a-held-world``), with a new name."""
    design = find_design(state, order.design)
    if design is None:
        return (f"there is no design {order.design!r} in the campaign's designs or the "
                "published catalogue")
    if catalogue().design(design.id) is None:
        return (f"{design.name} ({design.id}) is not a published design; the open market "
                "sells only the designs of the catalogue (the Fleet Books), and a design of "
                "your own is built on a keel instead (§13.1)")
    if purchase_price(player, design) is None:
        ally = f" or your ally's ({ally_of(player)})" if ally_of(player) else ""
        return (f"{design.name} ({design.id}) is a {design.navy} design; you buy the designs "
                f"of your own navy ({own_navy(player)}){ally} (§13.1)")
    return _world_problem(state, player, order.at) or _name_problem(order.name, names)


def _name_problem(name: str, names: set[str]) -> str | None:
    if name in names:
        return (f"your navy already has a ship named {name!r}; give the new ship a name of "
                "her own")
    return None


def buy_ship(state: State, player_id: str, order: PurchaseOrder, where: str | None,
             fresh: dict[tuple[str, str], str]) -> tuple[State, list[Event]]:
    """§13.1: pay the price (no credit, §6.3) and the ship is delivered at once."""
    player = state.player(player_id)
    design = find_design(state, order.design)
    assert player is not None and design is not None
    price = purchase_price(player, design)
    assert price is not None
    world = state.system(order.at)
    assert world is not None
    what = f"{order.name} ({design.name}, {design.size})"
    if balance(state, player_id) < price:
        return state, [unpaid(player_id, f"buying {what}", price, "purchases", "13.1",
                              order=where, at=order.at)]
    ally_id = ally_of(player)
    ally = power(state, ally_id) if ally_id and state.player(ally_id) else ally_id
    discount = (f", 20% off as a design of its ally {ally}"
                if design.navy != own_navy(player) else "")
    state = credit(state, player_id, -price)
    state = _with_design(state, design)
    state, group_id, joins = deliver(state, player_id, order.at, Ship(order.name, design.id),
                                     fresh)
    return state, [
        Event("purchase", rule("13.1"),
              f"{power(state, player_id, start=True)} buys {what} on the open market for "
              f"{price}{discount}.", audience=Audience.told(player_id), player=player_id,
              at=order.at, order=where,
              note=order.note, amount=-price, account="purchases"),
        Event("ship-built", rule("13.1"), f"{order.name} is delivered at {world.name} and "
              f"{joins}.", audience=Audience.told(player_id), player=player_id, group=group_id,
              at=order.at)]


def lay_keel(state: State, player_id: str, order: KeelOrder, keel_id: str,
             where: str | None) -> tuple[State, list[Event]]:
    """§13.1, §13.2: the keel is laid; it is paid for week by week as it is built."""
    design = find_design(state, order.design)
    world = state.system(order.at)
    assert design is not None and world is not None
    state = _with_design(state, design)
    keel = Keel(keel_id, player_id, order.at, design.id, order.name)
    q = state.queues
    state = dataclasses.replace(state, queues=dataclasses.replace(q, keels=(*q.keels, keel)))
    price = build_price(design)
    weeks = -(-price // KEEL_WORK_PER_WEEK)
    surcharge = (f", {price} with the 20% on non-indigenous technology (§16.3)"
                 if price != design.points else "")
    return state, [Event(
        "keel-laid", rule("13.2"), f"{power(state, player_id, start=True)} lays down the keel of "
        f"{order.name} "
        f"({design.name}: {design.size}, {design.mass} mass, {design.points} points"
        f"{surcharge}) at {world.name}: {plural(weeks, 'week')} of work at "
        f"{KEEL_WORK_PER_WEEK} a week, paid as it is built.", audience=Audience.told(player_id),
        player=player_id, at=order.at, order=where, note=order.note)]


def build_keels(state: State, fresh: dict[tuple[str, str], str]) -> tuple[State, list[Event]]:
    """§13.1: every keel gets a week's work, up to 100 points, paid as it is
    done; what the treasury cannot pay is not built this week (§6.3). A keel
    complete is launched into a new group at its world."""
    events: list[Event] = []
    for keel in state.queues.keels:
        design = state.design(keel.design)
        world = state.system(keel.at)
        assert design is not None and world is not None
        price = build_price(design)
        planned = min(KEEL_WORK_PER_WEEK, price - keel.built)
        work = min(planned, balance(state, keel.owner))
        if work:
            state = credit(state, keel.owner, -work)
            events.append(Event(
                "construction", rule("13.1"), f"{work} points of work go into {keel.name} at "
                f"{world.name}: {keel.built + work} of {price} built.",
                audience=Audience.told(keel.owner), player=keel.owner, at=keel.at,
                amount=-work, account="construction"))
        if work < planned:
            events.append(unpaid(keel.owner, f"{planned - work} points of work on {keel.name}",
                                 planned - work, "construction", "13.1", at=keel.at))
        built = dataclasses.replace(keel, built=keel.built + work)
        q = state.queues
        if built.built < price:
            keels = tuple(built if k.id == keel.id else k for k in q.keels)
            state = dataclasses.replace(state, queues=dataclasses.replace(q, keels=keels))
            continue
        keels = tuple(k for k in q.keels if k.id != keel.id)
        state = dataclasses.replace(state, queues=dataclasses.replace(q, keels=keels))
        state, group_id, joins = deliver(state, keel.owner, keel.at,
                                         Ship(keel.name, design.id), fresh)
        events.append(Event("ship-built", rule("13.1"), f"{keel.name} ({design.name}) is "
                            f"completed at {world.name} and {joins}.",
                            audience=Audience.told(keel.owner), player=keel.owner,
                            group=group_id, at=keel.at))
    return state, events


def deliver(state: State, player_id: str, at: str, ship: Ship,
            fresh: dict[tuple[str, str], str]) -> tuple[State, str, str]:
    """reading ``new-ships-form-a-new-group``: the ship joins the group of new ships
    formed at ``at`` this turn (``fresh``), or forms it; a capital ship brings
    her dummy counter (§15.2, reading ``new-capital-ship-brings-a-dummy``). Returns the
    group, and how the event names where she went."""
    groups = list(state.groups.groups)
    group_id = fresh.get((player_id, at))
    if group_id is None:
        group_id = _next_group_id(state, player_id)
        fresh[player_id, at] = group_id
        groups.append(Group(group_id, player_id, at, (ship,)))
    else:
        groups = [dataclasses.replace(g, ships=(*g.ships, ship)) if g.id == group_id else g
                  for g in groups]
    state = dataclasses.replace(state, groups=dataclasses.replace(state.groups,
                                                                  groups=tuple(groups)))
    joins = f"joins {group_id}"
    design = state.design(ship.design)
    if design is not None and design.size in CAPITAL_SIZES:
        dummy = Group(_next_group_id(state, player_id), player_id, at, dummy=True)
        state = dataclasses.replace(state, groups=dataclasses.replace(
            state.groups, groups=(*state.groups.groups, dummy)))
        joins += f", with her dummy counter {dummy.id} (§15.2)"
    return state, group_id, joins


def _next_group_id(state: State, player_id: str) -> str:
    taken = {g.id for g in state.groups.groups}
    numbers = [int(m.group(1)) for g in taken
               if (m := re.fullmatch(re.escape(player_id) + r"-(\d+)", g))]
    n = max(numbers, default=0) + 1
    while f"{player_id}-{n}" in taken:
        n += 1
    return f"{player_id}-{n}"


def _with_design(state: State, design: Design) -> State:
    """A catalogue design enters the campaign's ``designs.yaml`` when first used."""
    if state.design(design.id) is not None:
        return state
    designs = dataclasses.replace(state.designs, designs=(*state.designs.designs, design))
    return dataclasses.replace(state, designs=designs)
