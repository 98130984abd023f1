"""What every ruleset's turn does with the order files before any rule is applied.

Each ruleset vets one player's file in its own way; what follows is the same in
all of them: the vetted orders are kept beside the files in a :class:`VettedPlan`
made once per turn, events name the rule they applied as ``'<ruleset> §<section>'``
and the place in the file as ``path:line:col``; a player with no file, or who
leaves groups out, is told they hold, and orders sent by someone who is not a
player of the campaign are refused.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar

from ftpress.events import PUBLIC, UMPIRE, Event
from ftpress.orders.load import LoadedOrders
from ftpress.state.model import State

V = TypeVar("V")


def section_namer(ruleset: str) -> Callable[[str], str]:
    """The ``rule`` function of a ruleset: ``section_namer('sct')('4.2')`` is 'sct §4.2'."""
    def rule(section: str) -> str:
        return f"{ruleset} §{section}"
    rule.__doc__ = f"'4.2' → '{ruleset} §4.2', as events name their rule."
    return rule


@dataclass(frozen=True, slots=True)
class VettedPlan(Generic[V]):
    """Every player's order file and what of it stands, made once per turn; the
    rule functions read this and never the files.

    A ruleset subclasses it and names its own vetting as ``vet``.
    """

    orders: Mapping[str, LoadedOrders]
    vetted: Mapping[str, V]

    #: The ruleset's vetting of one player's file against the state.
    vet: ClassVar[Callable[[State, LoadedOrders], Any]]

    @classmethod
    def make(cls, state: State, orders: Mapping[str, LoadedOrders]) -> Self:
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
            vetted: Any = self.vetted[player_id]
            r = vetted.rejected[0]
            events.append(stranger_refused(rule, player_id, r.message,
                                           self.where(player_id, *r.loc)))
        return events


def located(loaded: LoadedOrders, *loc: Hashable, key: bool = False) -> str:
    """'orders/t004/nac.yaml:7:5': where ``loc`` is in the file (``key``: its key), or
    the file alone where the place cannot be found."""
    path, line, col = loaded.where(*loc, key=key)
    return f"{path}:{line}:{col}" if line else path


def no_orders(rule: str, player_id: str, groups: Sequence[str]) -> Event:
    """A player sent no order file: every one of its groups holds. Public: who sent
    orders is no secret, only what they say."""
    return Event("no-orders", rule, f"{player_id} sent no orders; all {len(groups)} of its "
                 "groups hold.", audience=PUBLIC, player=player_id, groups=tuple(groups))


def unmentioned(rule: str, player_id: str, groups: tuple[str, ...]) -> Event:
    """Groups a player's file leaves out: they hold. Public: the counters are on the
    map for everyone, and holding is what they are seen to do."""
    return Event("unordered", rule, f"{player_id}'s orders do not mention "
                 f"{', '.join(groups)}, so {'they hold' if len(groups) > 1 else 'it holds'}.",
                 audience=PUBLIC, player=player_id, groups=groups)


def strangers(state: State, senders: Iterable[str]) -> list[str]:
    """Who sent orders without being a player of the campaign, by id."""
    return sorted(set(senders) - {p.id for p in state.players.players})


def stranger_refused(rule: str, player_id: str, message: str, order: str | None) -> Event:
    """The event refusing the orders of someone who is no player (their vetting says
    why in ``message``). Nobody of the campaign sent them, so only the umpire is told."""
    return Event("rejected", rule, f"Orders from {player_id!r} are refused: {message}.",
                 audience=UMPIRE, order=order)
