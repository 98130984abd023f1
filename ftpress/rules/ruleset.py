"""What every ruleset provides, and what it is given and gives back.

A ruleset is a package under ``ftpress/rules/`` with one :class:`Ruleset`
value, listed in the registry (``ftpress.rules.RULESETS``). Every ruleset
resolves turns, with one signature: the battle results are handed to all.

A :class:`Ruleset` is generic over its order format: its ``orders_adapter``
makes ``LoadedOrders[<its model>]`` and its ``check_orders``, ``describe_orders``
and ``resolve`` take that, so only the ruleset's own package knows the model.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Generic

from pydantic import TypeAdapter

from ftpress.errors import Problem
from ftpress.orders.load import LoadedOrders, OrdersT
from ftpress.rules.choices import ItemChoices, OrderChoices
from ftpress.rules.section_index import Indexed, Reading
from ftpress.state.battle_results import LoadedBattle
from ftpress.state.dice import Dice, Roll
from ftpress.state.display import PLAIN, Display
from ftpress.state.events import Event
from ftpress.state.extension import StateExtension
from ftpress.state.load import LoadedState
from ftpress.state.model import State
from ftpress.state.report_spec import ReportSpec

RULES_ROOT = Path(__file__).resolve().parent


@dataclass(frozen=True, slots=True)
class CampaignRequest:
    """What ``ftpress init`` asks a ruleset for."""

    id: str
    name: str
    players: tuple[str, ...]
    seed: int
    #: The day strategic turn 1 opens, and when its orders are due.
    start: date
    deadline: datetime
    #: Generation options (house rules), by name; the ruleset checks them.
    options: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class NewCampaign:
    """A ruleset's answer: the starting state, every die rolled, and the
    generation log as the Markdown body of the campaign's first status post."""

    state: State
    rolls: tuple[Roll, ...]
    post_title: str
    post_summary: str
    post_body: str
    #: The first post's tags: the rules the map was made by.
    post_tags: tuple[str, ...] = ("setup", "map", "rule-1", "rule-2", "rule-3", "rule-6")
    #: How the players send their first orders (the set-up turn's, where the ruleset
    #: has one), a sentence for ``init``'s next steps and ``orders/README.md``.
    first_orders: str = ""


@dataclass(frozen=True, slots=True)
class Ruleset(Generic[OrdersT]):
    name: str
    title: str
    #: Legality of a whole state beyond what the state model checks; problems located.
    check_state: Callable[[LoadedState], list[Problem]]
    #: A new campaign's starting state; raises ``ftpress.errors.SetupError`` when the
    #: options or the dice cannot make one.
    new_campaign: Callable[[CampaignRequest], NewCampaign]
    #: The kinds of event it makes and how its turn report files and reads them.
    report: ReportSpec
    #: The ruleset's order-file format (a model with ``turn`` and ``player``, in its own
    #: package), passed to ``ftpress.orders.load.parse_orders``.
    orders_adapter: TypeAdapter[OrdersT]
    #: The open turn resolved: ``(new state, events)``; pure, dice the only chance.
    #: ``battles``: battle id → the umpire's filled-in result of a battle fought on the
    #: tabletop (:class:`ftpress.state.battle_results.LoadedBattle`); where the ruleset fights one
    #: with none, that is a ``battle-pending`` event and the turn waits for it. A
    #: ruleset that fights no battle on the tabletop is handed them all the same.
    resolve: Callable[[State, Mapping[str, LoadedOrders[OrdersT]], Dice,
                       Mapping[str, LoadedBattle]], tuple[State, tuple[Event, ...]]]
    #: What the ruleset keeps in the state beyond the shared model: its extension
    #: records, read and written with the shared files (:mod:`ftpress.state.extension`).
    state_extension: StateExtension | None = None
    #: How its state shows on the site beyond the shared columns and map
    #: (:mod:`ftpress.state.display`).
    display: Display = PLAIN
    #: Option names ``ftpress init`` accepts for this ruleset.
    options: Sequence[str] = ()
    #: Every numbered section of :attr:`rulebook`, in order, with the functions that
    #: apply it or why none does (:mod:`ftpress.rules.section_index`).
    section_index: Sequence[Indexed] = ()
    #: How it reads each clause of :attr:`rulebook` that could be read more than one
    #: way, in section order, each with its case (:class:`Reading`).
    readings: Sequence[Reading] = ()
    #: Illegal orders in one player's file against the state (``IllegalOrder``), located.
    check_orders: Callable[[State, LoadedOrders[OrdersT]], list[Problem]] | None = None
    #: What one player's orders will do, one plain sentence a line.
    describe_orders: Callable[[State, LoadedOrders[OrdersT]], list[str]] | None = None
    #: One player's order form for the open turn (``ftpress orders new``): YAML text
    #: with every group of theirs holding, and in comments what each holds, where it
    #: can go and which orders apply; it passes ``ftpress check`` as written.
    order_form: Callable[[State, str], str] | None = None
    #: The name its order format's JSON Schema is published under
    #: (``schemas/<name>.json``) if not ``orders-<ruleset>``.
    orders_schema_name: str | None = None

    @property
    def orders_schema(self) -> str:
        """The name of its order format's JSON Schema: ``schemas/<name>.json``."""
        return self.orders_schema_name or f"orders-{self.name}"

    #: One player's legal orders for the open turn, group by group, each with the lines
    #: it writes, or the items a set-up may add (:mod:`ftpress.rules.choices`), for the
    #: "Your view" page's form; None
    #: where the ruleset offers none this turn (the page offers the form's text).
    order_choices: Callable[[State, str], OrderChoices | ItemChoices | None] | None = None

    @property
    def rulebook(self) -> Path:
        """Where the ruleset's own rulebook lives (``content/rules`` files), if it has one."""
        return RULES_ROOT / self.name / "rulebook"
