"""What every ruleset's turn does with the order files before any rule is applied.

Each ruleset vets one player's file in its own way, into the one shape every
ruleset shares (:class:`Vetted`); what follows is the same in all of them: the
vetted orders are kept beside the files in a :class:`VettedPlan` made once per
turn, events name the rule they applied as ``'<ruleset> §<section>'`` and the
place in the file as ``path:line:col``; a player with no file, or who leaves
groups out, is told they hold, and orders sent by someone who is not a player of
the campaign are refused.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, Self, TypeVar

from ftpress.orders.load import LoadedOrders, OrderFile, OrdersT
from ftpress.state.events import PUBLIC, UMPIRE, Event
from ftpress.state.model import State
from ftpress.state.words import ended, noun_for, power, powers_own


class Refusal(Protocol):
    """One order a vetting refused: where it is in the file, and why."""

    @property
    def loc(self) -> tuple[Hashable, ...]: ...

    @property
    def message(self) -> str: ...


class Vetting(Protocol):
    """What every ruleset's vetting of one file says at least: the orders it refused."""

    @property
    def rejected(self) -> Sequence[Refusal]: ...


#: A ruleset's vetting of one player's file.
V = TypeVar("V", bound=Vetting)
#: What of one unit's order stands, in a ruleset's terms.
A = TypeVar("A")
#: One order refused, in a ruleset's terms.
R = TypeVar("R", bound=Refusal)
#: What else of the file stands, in a ruleset's terms.
X = TypeVar("X")


@dataclass(frozen=True, slots=True)
class Vetted(Generic[A, R, X]):
    """One player's orders sorted by the ruleset's vetting, made once and never
    changed: what of each unit's order stands, the orders refused, each with where
    it is in the file and why, and what else of the file stands.

    Every ruleset's vetting has this shape; the ruleset names the three kinds (sct:
    a task force's order, and beside them the economic orders paid for; ftcamp02: a
    group's order, and the journeys, attachments and detachments; ftc2007: a task
    group's order with its movement, and whether economic orders may be given).
    """

    player: str
    #: Unit id (a task group, a task force) → what of its order stands, in file order.
    accepted: Mapping[str, A]
    #: The orders refused, in the order they were found.
    rejected: tuple[R, ...]
    #: What else of the file stands (see above).
    rest: X


def section_namer(ruleset: str) -> Callable[[str], str]:
    """The ``rule`` function of a ruleset: ``section_namer('sct')('4.2')`` is 'sct §4.2'."""
    def rule(section: str) -> str:
        return f"{ruleset} §{section}"
    rule.__doc__ = f"'4.2' → '{ruleset} §4.2', as events name their rule."
    return rule


@dataclass(frozen=True, slots=True)
class VettedPlan(Generic[OrdersT, V]):
    """Every player's order file and what of it stands, made once per turn; the
    rule functions read this and never the files.

    A ruleset subclasses it for its own order format and names its own vetting
    as ``vet``.
    """

    orders: Mapping[str, LoadedOrders[OrdersT]]
    vetted: Mapping[str, V]

    @staticmethod
    @abstractmethod
    def vet(state: State, loaded: LoadedOrders[OrdersT]) -> V:
        """The ruleset's vetting of one player's file against the state."""

    @classmethod
    def make(cls, state: State, orders: Mapping[str, LoadedOrders[OrdersT]]) -> Self:
        """Vet every file, player by player in id order."""
        return cls(dict(orders), {player: cls.vet(state, loaded)
                                  for player, loaded in sorted(orders.items())})

    def where(self, player: str, *loc: Hashable, key: bool = False) -> str | None:
        """'orders/t004/nac.yaml:7:5' for a place in a player's file."""
        loaded = self.orders.get(player)
        return located(loaded, *loc, key=key) if loaded is not None else None

    def strangers_refused(self, state: State, rule: str) -> list[Event]:
        """The orders of everyone who is no player of the campaign refused, each
        with the first reason its vetting gave and the place in the file."""
        events = []
        for player_id in strangers(state, self.orders):
            r = self.vetted[player_id].rejected[0]
            events.append(stranger_refused(rule, player_id, r.message,
                                           self.where(player_id, *r.loc)))
        return events


def located(loaded: LoadedOrders[OrderFile], *loc: Hashable, key: bool = False) -> str:
    """'orders/t004/nac.yaml:7:5': where ``loc`` is in the file (``key``: its key), or
    the file alone where the place cannot be found."""
    path, line, col = loaded.where(*loc, key=key)
    return f"{path}:{line}:{col}" if line else path


def no_orders(rule: str, state: State, player_id: str, groups: Sequence[str], *,
              noun: str = "task group") -> Event:
    """A player sent no order file: every one of its groups (``noun``: what the
    ruleset calls one) holds. Public: who sent orders is no secret, only what they
    say; the counters are on the map, so how many is no secret either."""
    many = noun_for(len(groups), noun)
    held = (f"its {noun} holds" if len(groups) == 1 else f"both its {many} hold"
            if len(groups) == 2 else f"all {len(groups)} of its {many} hold")
    return Event("no-orders", rule, f"{power(state, player_id, start=True)} sent no orders; "
                 f"{held}.", audience=PUBLIC, player=player_id, groups=tuple(groups))


def unmentioned(rule: str, state: State, player_id: str, groups: tuple[str, ...], *,
                noun: str = "task group") -> Event:
    """Groups a player's file leaves out: they hold. Public: the counters are on the
    map for everyone, and holding is what they are seen to do; which counter is
    which group is the owner's to know, so the public is told how many."""
    left = (f"one of its {noun_for(2, noun)}, so it holds" if len(groups) == 1
            else f"{len(groups)} of its {noun_for(len(groups), noun)}, so they hold")
    return Event("unordered", rule, f"{powers_own(state, player_id, start=True)} orders give "
                 f"no order to {left}.", audience=PUBLIC, player=player_id, groups=groups)


def strangers(state: State, senders: Iterable[str]) -> list[str]:
    """Who sent orders without being a player of the campaign, by id."""
    return sorted(set(senders) - {p.id for p in state.players.players})


def stranger_refused(rule: str, player_id: str, message: str, order: str | None) -> Event:
    """The event refusing the orders of someone who is no player (their vetting says
    why in ``message``). Nobody of the campaign sent them, so only the umpire is told."""
    return Event("rejected", rule, f"Orders from {player_id!r} are refused: {ended(message)}",
                 audience=UMPIRE, order=order)
