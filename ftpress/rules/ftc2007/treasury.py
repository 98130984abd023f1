"""§6.3 There is no credit: money moves in and out of a treasury that never
goes below zero, and every movement is an event with its ``amount``.

The rule functions of the economy (:mod:`.income`, :mod:`.upkeep`,
:mod:`.construction`, :mod:`.repairs`, :mod:`.spares`, :mod:`.rebuilding`)
move money only through :func:`credit`, so a turn's events for a player add up
to the change in that player's treasury.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from ftpress.rules.ftc2007.sections import rule
from ftpress.rules.ftc2007.state_ext import Ftc2007Player, stated_treasury
from ftpress.state.events import Account, Audience, Event
from ftpress.state.extension import extended
from ftpress.state.model import State


def charge(points: int | Fraction, rate: Fraction) -> int:
    """``points × rate`` in whole points (reading ``fractions-round-up``)."""
    value = Fraction(points) * rate
    return -((-value.numerator) // value.denominator)


def balance(state: State, player_id: str) -> int:
    player = state.player(player_id)
    assert player is not None
    return player.treasury


def state_treasuries(state: State, first: bool = False) -> State:
    """§5.4: every power's treasury as it stands now stated to everyone, the figure
    others know of its money until the next economic turn begins. ``first``: only
    where none has been stated yet (the campaign's first economic turn, whose
    statement is the starting capital, before the set-up spends any)."""
    players = tuple(p if first and stated_treasury(p) is not None else
                    extended(p, Ftc2007Player, stated_treasury=p.treasury)
                    for p in state.players.players)
    return dataclasses.replace(state, players=dataclasses.replace(state.players,
                                                                  players=players))


def credit(state: State, player_id: str, amount: int) -> State:
    """The state with ``amount`` added to the player's treasury (negative: paid out).

    Callers check :func:`balance` first; a payment the treasury cannot cover
    is a bug, never a debt (§6.3).
    """
    players = []
    for p in state.players.players:
        if p.id == player_id:
            assert p.treasury + amount >= 0, "no credit (§6.3)"
            p = dataclasses.replace(p, treasury=p.treasury + amount)
        players.append(p)
    file = dataclasses.replace(state.players, players=tuple(players))
    return dataclasses.replace(state, players=file)


def unpaid(player_id: str, what: str, due: int, account: Account, section: str,
           order: str | None = None, at: str | None = None,
           group: str | None = None) -> Event:
    """§6.3: something the treasury could not pay, and so did not happen; told to the
    payer alone, since ``what`` may name a keel or a ship under repair (§13.2, §15.3)."""
    return Event("unpaid", rule("6.3"), f"The treasury cannot pay {due} for {what}, and there "
                 f"is no credit, so it is not done (§{section}).",
                 audience=Audience.told(player_id), player=player_id,
                 at=at, group=group, order=order, amount=0, account=account)
