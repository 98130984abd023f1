"""§12 Capture: hulks left drifting after a battle, and what their captors do with them.

A ship a battle result marks *drifting* becomes a prize of the power holding
the field (§12.1); a prize lying where a later battle is won changes hands
again. In the first week of an economic turn (with the other economic orders)
a prize may be rebuilt into its captor's navy (§12.2.1), stripped for parts
(§12.2.2) or sold for scrap (§12.2.3). Prizes live in their captor's entry in
``state/players.yaml``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from fractions import Fraction

from ftpress.rules.ftc2007.orderfile import PrizeOrder
from ftpress.rules.ftc2007.orders import economy_allowed
from ftpress.rules.ftc2007.plan import Plan
from ftpress.rules.ftc2007.prizes import intact_rows, sale_price
from ftpress.rules.ftc2007.recce import who_knows
from ftpress.rules.ftc2007.repairs import box_cost
from ftpress.rules.ftc2007.sections import rule
from ftpress.rules.ftc2007.state_ext import Ftc2007Player, Prize, prizes_of
from ftpress.rules.ftc2007.treasury import balance, charge, credit, unpaid
from ftpress.state import words
from ftpress.state.events import PUBLIC, Event
from ftpress.state.extension import extended
from ftpress.state.hexes import Hex
from ftpress.state.model import (
    Design,
    Group,
    Location,
    Player,
    Ship,
    State,
)
from ftpress.state.turns import turn_id
from ftpress.state.words import plural, power, powers_own

#: §12.2.1: a type the navy does not have in service costs 20% more to repair. The
#: extra is paid when the prize is rebuilt, as 20% of repairing all its damage at
#: the §11.2 rate (rounded up, §6.3); its repairs are then ordered at the normal rate.
UNFAMILIAR_TYPE_PREMIUM = Fraction(1, 5)

#: §12.1: a drifting ship whose own side holds the field (or when nobody does) is
#: not captured; it stays in its group with its damage.
OWN_HULKS_RECOVERED = True


def prizes_at(state: State, h: Hex) -> list[tuple[Player, Prize]]:
    return [(p, prize) for p in state.players.players for prize in prizes_of(p)
            if state.hex_of(prize.at) == h]


def take_prize(state: State, captor: str, taken_from: str, ship: Ship,
               at: Location) -> tuple[State, Event]:
    """§12.1: a drifting ship becomes a prize of the power holding the field.

    Reading ``major-systems-judged-at-the-table`` (the ruleset's readings).
    """
    prefix = f"prize-{turn_id(state.campaign.calendar.turn)}-"
    taken = [x.id for p in state.players.players for x in prizes_of(p) if x.id.startswith(prefix)]
    prize = Prize(f"{prefix}{len(taken) + 1}", at, dataclasses.replace(ship, crippled=False),
                  taken_from)
    state = _with_player(state, captor, lambda p: extended(
        p, Ftc2007Player, prizes=(*prizes_of(p), prize)))
    return state, Event(
        "prize", rule("12.1"), f"{powers_own(state, taken_from, start=True)} "
        f"{words.ship(state, ship.name, ship.design)} is left drifting and taken by "
        f"{power(state, captor)} as a prize.", audience=PUBLIC, player=captor, at=at)


def seize_prizes(state: State, h: Hex, holder: str) -> tuple[State, list[Event]]:
    """§12.1: prizes lying where ``holder`` has won a battle change hands, still hulks."""
    events: list[Event] = []
    for owner, prize in prizes_at(state, h):
        if owner.id == holder:
            continue
        state = _with_player(state, owner.id, _without_prize(prize.id))
        state = _with_player(state, holder, _with_prize(prize))
        events.append(Event(
            "prize", rule("12.1"), f"{powers_own(state, owner.id, start=True)} prize "
            f"{words.ship(state, prize.ship.name, prize.ship.design)} is taken by "
            f"{power(state, holder)}, which now holds the field.", audience=PUBLIC, player=holder,
            at=prize.at))
    return state, events


def dispose_of_prizes(state: State, plan: Plan) -> tuple[State, list[Event]]:
    """§12.2: every prize order that stands (rebuild §12.2.1, strip §12.2.2, sell
    §12.2.3), player by player in file order (the ones the rules forbid were
    refused when the orders were vetted)."""
    events: list[Event] = []
    for player, loaded in sorted(plan.orders.items()):
        vetted = plan.vetted.get(player)
        economy = loaded.orders.economy
        if vetted is None or economy is None or not economy_allowed(vetted) \
                or state.player(player) is None:
            continue
        # Orders the rules forbid were refused when vetted, each with its event.
        refused = {r.loc[2] for r in vetted.rejected if r.loc[:2] == ("economy", "prizes")}
        for prize_id, order in economy.prizes.items():
            if prize_id in refused:
                continue
            where = plan.where(player, "economy", "prizes", prize_id)
            state, event = _dispose(state, player, prize_id, order, where)
            events.append(event)
    return state, events


def _held(state: State, player: str, prize_id: str) -> tuple[Player, Prize, Design]:
    """The player, one of its prizes (an order for it has been vetted) and its design."""
    owner = state.player(player)
    assert owner is not None
    prize = next(p for p in prizes_of(owner) if p.id == prize_id)
    design = state.design(prize.ship.design)
    assert design is not None
    return owner, prize, design


def _dispose(state: State, player: str, prize_id: str, order: PrizeOrder,
             where: str | None) -> tuple[State, Event]:
    owner, prize, design = _held(state, player, prize_id)
    others = tuple(p for p in prizes_of(owner) if p.id != prize_id)
    name = prize.ship.name
    who, called = power(state, player, start=True), words.ship(state, name, prize.ship.design)
    if order.action == "sell":
        price = sale_price(design, prize.ship.damage)
        rows = intact_rows(design, prize.ship.damage)
        state = _with_player(state, player, lambda p: extended(
            dataclasses.replace(p, treasury=p.treasury + price), Ftc2007Player, prizes=others))
        return state, Event(
            "prize-sold", rule("12.2.3"), f"{who} sells the prize {called} for "
            f"scrap: {plural(rows, 'intact row')} of hull boxes at 10% of its "
            f"{design.points} points each, {price}.", audience=PUBLIC, player=player, at=prize.at,
            order=where, note=order.note, amount=price, account="sale")
    if order.action == "strip":
        stripped = dataclasses.replace(prize, stripped=True)
        kept = tuple(stripped if x.id == prize_id else x for x in prizes_of(owner))
        state = _with_player(state, player, lambda p: extended(p, Ftc2007Player, prizes=kept))
        return state, Event(
            "prize-stripped", rule("12.2.2"), f"{who} strips the prize {called} "
            "for parts, to be fitted under §11.3.3; the rest cannot be sold.", audience=PUBLIC,
            player=player,
            at=prize.at, order=where, note=order.note)
    assert order.group is not None
    premium = rebuild_premium(state, player, prize)
    in_service = _in_service(state, player, design)
    if balance(state, player) < premium:
        return state, unpaid(player, f"rebuilding the prize {called} (20% more to repair a type "
                             "not in service)", premium, "repairs", "12.2.1", order=where,
                             at=str(prize.at) if isinstance(prize.at, str) else None)
    state = credit(state, player, -premium)
    state = _with_player(state, player, lambda p: extended(p, Ftc2007Player, prizes=others))
    ship = dataclasses.replace(prize.ship, name=_free_name(state, player, name))
    groups = list(state.groups.groups)
    joined = next((i for i, g in enumerate(groups) if g.id == order.group), None)
    if joined is None:
        groups.append(Group(order.group, player, prize.at, (ship,)))
    else:
        groups[joined] = dataclasses.replace(groups[joined],
                                             ships=(*groups[joined].ships, ship))
    state = dataclasses.replace(state, groups=dataclasses.replace(
        state.groups, groups=tuple(groups)))
    return state, Event(
        "prize-rebuilt", rule("12.2.1"), f"{who} rebuilds the prize {called} as "
        f"{ship.name}, joining "
        f"{words.group(state, order.group, who_knows(state, order.group, player))}; its "
        f"{plural(ship.damage, 'damaged hull box', 'damaged hull boxes')} are "
        "left for ordinary repairs (§11)" + (
            f"; no {design.name} is in its service, so it pays {premium} now, 20% of "
            f"repairing them at the normal rate" if not in_service else "") + ".",
        audience=who_knows(state, order.group, player), player=player, group=order.group,
        at=prize.at, order=where, note=order.note,
        amount=None if in_service else -premium, account=None if in_service else "repairs")


def describe_prize_order(state: State, player: str, prize_id: str, order: PrizeOrder) -> str:
    """A prize order the rules allow, in plain words (``ftpress check``).

    Reading ``rebuilt-prize-keeps-its-damage`` (the ruleset's readings).
    """
    _, prize, design = _held(state, player, prize_id)
    what = f"Prize {prize_id} ({prize.ship.name}, a {design.name})"
    if order.action == "sell":
        return (f"{what} is sold for scrap for {sale_price(design, prize.ship.damage)} "
                "(§12.2.3).")
    if order.action == "strip":
        return f"{what} is stripped for parts; what is left cannot be sold (§12.2.2)."
    extra = "" if _in_service(state, player, design) else (
        f", paying {rebuild_premium(state, player, prize)} now because no ship of its type "
        "is in service")
    return f"{what} is rebuilt into {order.group}{extra} (§12.2.1)."


def rebuild_premium(state: State, player: str, prize: Prize) -> int:
    """§12.2.1 (:data:`UNFAMILIAR_TYPE_PREMIUM`): what rebuilding ``prize`` costs now: 20%
    of repairing her lost boxes where no ship of her type is in the player's service."""
    design = state.design(prize.ship.design)
    assert design is not None
    return 0 if _in_service(state, player, design) else charge(
        box_cost(design) * prize.ship.damage, UNFAMILIAR_TYPE_PREMIUM)


def _in_service(state: State, player: str, design: Design) -> bool:
    return any(s.design == design.id for g in state.groups_of(player) for s in g.ships)


def _free_name(state: State, player: str, name: str) -> str:
    """The prize's name, or with a numeral if the captor already has a ship so named."""
    taken = {s.name for g in state.groups_of(player) for s in g.ships}
    if name not in taken:
        return name
    n = 2
    while f"{name} {n}" in taken:
        n += 1
    return f"{name} {n}"


def _without_prize(prize_id: str) -> Callable[[Player], Player]:
    return lambda p: extended(p, Ftc2007Player,
                              prizes=tuple(x for x in prizes_of(p) if x.id != prize_id))


def _with_prize(prize: Prize) -> Callable[[Player], Player]:
    return lambda p: extended(p, Ftc2007Player, prizes=(*prizes_of(p), prize))


def _with_player(state: State, player_id: str, change: Callable[[Player], Player]) -> State:
    players = tuple(change(p) if p.id == player_id else p for p in state.players.players)
    return dataclasses.replace(state, players=dataclasses.replace(state.players,
                                                                  players=players))

