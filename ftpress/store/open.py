"""An open campaign's store: every file whole, in plain, for anyone who clones it.

Its order files are plain YAML, its records hold every event and roll, and a
turn writes its files as they are made. Nothing in it needs a key.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import TypeAdapter

from ftpress.errors import Problem, RefusedCommand
from ftpress.orders.load import orders_digest
from ftpress.orders.sent import senders
from ftpress.secrecy.sealing import PLAIN_ORDERS
from ftpress.state.model import State
from ftpress.store.campaign_store import CampaignStore, MadeTurn, TurnOrders
from ftpress.store.inputs import load_orders
from ftpress.store.secret import SECRET_ENV


class OpenStore(CampaignStore):
    """See the module docstring."""

    @property
    def reads_whole(self) -> bool:
        return True

    def senders(self, turn: str, players: Iterable[str]) -> tuple[str, ...]:
        """A plain order file, or one sealed by a player all the same."""
        return senders(self.root, turn, players)

    def turn_orders(self, state: State, turn: str, adapter: TypeAdapter[Any],
                    ) -> TurnOrders:
        orders = load_orders(self.root, turn, adapter)
        return TurnOrders(orders, orders_digest(o.orders for o in orders.values()))

    def projected(self, made: MadeTurn, whole: Mapping[str, bytes]) -> dict[str, bytes]:
        return dict(whole)

    def kept_as(self, name: str) -> tuple[str, ...]:
        return (name,)

    def order_recipients(self, state: State, player: str) -> list[str]:
        raise RefusedCommand(PLAIN_ORDERS)

    # A player sends the plain file; the publishing run needs only the umpire's secret
    # behind the dice; nothing is sealed to anyone, and every page is every player's.

    @property
    def order_suffix(self) -> str:
        return ".yaml"

    @property
    def environment_secrets(self) -> tuple[str, ...]:
        return (SECRET_ENV,)

    def sent_refusal(self, path: str) -> str | None:
        return None

    def sent_for(self, path: str) -> str:
        return path

    def sent_problems(self, path: str, data: bytes, state: State) -> list[Problem] | None:
        return None

    def keyed_players(self, state: State) -> tuple[tuple[str, tuple[str, ...]], ...]:
        return ()

    def published_views(self, turn: str | None) -> tuple[tuple[str, bytes], ...] | None:
        return None

    def keeps_deputies(self, state: State) -> bool:
        return False
