"""An order file judged in one pass: its form and, as far as it is well formed,
its legality, so a player sees every problem of the file after one push.

:func:`ftpress.orders.load.parse_orders` reports every problem of the file's form,
and hands back what is left of it (:attr:`~ftpress.orders.load.InvalidOrder.partial`:
each group or task force whose form is wrong holding, the header as the path says);
the ruleset's legality check runs on that, and its problems are added to the
form's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ftpress.errors import Problem
from ftpress.orders.load import InvalidOrder, LoadedOrders, parse_orders
from ftpress.state.model import State

if TYPE_CHECKING:  # orders/ never imports a ruleset; it is only handed one
    from ftpress.rules.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class Judged:
    """Every problem of one order file, or, for a clean one, what it will do."""

    problems: tuple[Problem, ...] = ()
    #: The orders in plain words (None: the file has problems, or the ruleset says
    #: nothing of orders).
    described: tuple[str, ...] | None = None


def judge(raw: bytes, path: str, ruleset: Ruleset[Any], state: State) -> Judged:
    """``raw``, the order file at ``path``, against ``state`` by ``ruleset``."""
    try:
        parsed = parse_orders(raw, path, ruleset.orders_adapter)
    except InvalidOrder as exc:
        if exc.partial is None:
            return Judged(tuple(sorted(exc.problems)))
        return judge_parsed(exc.partial, ruleset, state, form=exc.problems)
    return judge_parsed(parsed, ruleset, state)


def judge_parsed(loaded: LoadedOrders[Any], ruleset: Ruleset[Any], state: State,
                 form: Iterable[Problem] = ()) -> Judged:
    """Orders already parsed (``form``: the problems of their form, when what is
    left of a file is judged), against ``state`` by ``ruleset``: their legality
    added to their form's problems, and their plain words when both are clean."""
    illegal = ruleset.check_orders(state, loaded) if ruleset.check_orders is not None else []
    problems = tuple(sorted({*form, *illegal}))
    if problems or ruleset.describe_orders is None:
        return Judged(problems)
    return Judged(described=tuple(ruleset.describe_orders(state, loaded)))
