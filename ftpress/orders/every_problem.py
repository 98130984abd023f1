"""An order file judged in one pass: its form and, as far as it is well formed,
its legality, so a player sees every problem of the file after one push.

:func:`ftpress.orders.load.parse_orders` stops at the file's form: an entry the
schema refuses leaves no orders to check against the rules. Here, when the form
is wrong, the entries the schema refused (each a key of a top-level mapping,
such as one group's orders) are set aside, the rest is validated again, and
the ruleset's legality check runs on that; its problems are added to the
form's. A file whose form is wrong elsewhere (a header, a top-level key) gets
its form's problems alone, as before.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from pydantic import ValidationError

from ftpress import yamlsource
from ftpress.errors import InputError, Problem
from ftpress.orders.load import ADAPTER, LoadedOrders, parse_orders
from ftpress.rules.ruleset import Ruleset
from ftpress.state.model import State


@dataclass(frozen=True, slots=True)
class Judged:
    """Every problem of one order file, or, for a clean one, what it will do."""

    problems: tuple[Problem, ...] = ()
    #: The orders in plain words (None: the file has problems, or the ruleset says
    #: nothing of orders).
    described: tuple[str, ...] | None = None


def judge(raw: bytes, path: str, ruleset: Ruleset, state: State) -> Judged:
    """``raw``, the order file at ``path``, against ``state`` by ``ruleset``."""
    try:
        parsed = parse_orders(raw, path, ruleset.orders_adapter)
    except InputError as exc:
        rest = _legality_of_the_rest(raw, path, ruleset, state)
        return Judged(tuple(sorted({*exc.problems, *rest})))
    if ruleset.check_orders is not None:
        problems = ruleset.check_orders(state, parsed)
        if problems:
            return Judged(tuple(sorted(problems)))
    if ruleset.describe_orders is None:
        return Judged()
    return Judged(described=tuple(ruleset.describe_orders(state, parsed)))


def _legality_of_the_rest(raw: bytes, path: str, ruleset: Ruleset,
                          state: State) -> list[Problem]:
    if ruleset.check_orders is None or len(raw) > yamlsource.MAX_BYTES:
        return []
    adapter = ADAPTER if ruleset.orders_adapter is None else ruleset.orders_adapter
    try:
        data = yamlsource.parse(yamlsource.decode(raw, path), path)
    except InputError:
        return []  # not YAML: there is nothing to set aside
    if not isinstance(data, yamlsource.MarkedMap):
        return []
    try:
        orders = adapter.validate_python(data)
    except ValidationError as exc:
        pruned = _without(data, [tuple(e["loc"]) for e in exc.errors(include_url=False)])
        if pruned is None:
            return []
        try:
            orders = adapter.validate_python(pruned)
        except ValidationError:
            return []
        data = pruned
    parts = PurePosixPath(path).parts
    if len(parts) < 2 or getattr(orders, "turn", None) != parts[-2] \
            or getattr(orders, "player", None) != PurePosixPath(parts[-1]).stem:
        return []  # orders for another turn or player: their legality means nothing here
    return ruleset.check_orders(state, LoadedOrders(path, orders, data, raw))


def _without(data: yamlsource.MarkedMap,
             locs: Sequence[tuple[Hashable, ...]]) -> yamlsource.MarkedMap | None:
    """``data`` without the entries (``loc[:2]``) the schema refused; None when a
    refused place is not an entry of a top-level mapping."""
    drop: dict[Hashable, set[Hashable]] = {}
    for loc in locs:
        if len(loc) < 2 or not isinstance(data.get(loc[0]), yamlsource.MarkedMap) \
                or loc[1] not in data[loc[0]]:
            return None
        drop.setdefault(loc[0], set()).add(loc[1])
    top = _copy(data)
    for key, entries in drop.items():
        top[key] = _copy(data[key], entries)
    return top


def _copy(source: yamlsource.MarkedMap,
          leave_out: set[Hashable] | frozenset[Hashable] = frozenset()) -> yamlsource.MarkedMap:
    copy = yamlsource.MarkedMap(source.mark)
    for key, value in source.items():
        if key in leave_out:
            continue
        copy[key] = value
        copy.key_marks[key] = source.key_marks[key]
        copy.value_marks[key] = source.value_marks[key]
    return copy
