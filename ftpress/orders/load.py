"""Read order files: YAML with line marks, the schema, and the syntax rules the
schema cannot say (exactly one of move/scout/hold; a move names its posture).

Each ruleset may have its own order format: :func:`parse_orders` takes that
ruleset's ``TypeAdapter`` (``Ruleset.orders_adapter``; ``None`` is the shared
format of :mod:`.model`). Every format has the header ``turn`` and ``player``,
checked here against the file's path; the body syntax rules below are the
shared format's, and a ruleset with its own format states its own in its model.

Every mistake is an *invalid order* reported at ``path:line:col``, all of them
at once. Legality against the campaign (``IllegalOrder``) is the ruleset's.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from pydantic import TypeAdapter

from ftpress import validation, yamlsource
from ftpress.errors import InputError, Problem
from ftpress.hexes import Hex
from ftpress.orders.model import OrdersFile
from ftpress.state.turns import TURNS_DIR, turn_number

ORDERS_DIR = "orders"
ADAPTER: TypeAdapter[OrdersFile] = TypeAdapter(OrdersFile)
ABOUT = "one player's orders for one strategic turn"


class InvalidOrder(InputError):
    """An order file is not what the format says (syntax); every mistake located."""


@dataclass(frozen=True, slots=True)
class LoadedOrders:
    """One order file as read: its path, the orders, and the parsed YAML (marks)."""

    #: Relative to the campaign: 'orders/t004/nac.yaml'.
    path: str
    #: The parsed file: an :class:`OrdersFile`, or the model of the campaign's
    #: ruleset's own format (it has ``turn`` and ``player`` too).
    orders: Any
    source: Any
    #: The file's bytes, kept verbatim in the turn's record.
    raw: bytes

    def where(self, *loc: Hashable, key: bool = False) -> tuple[str, int, int]:
        """``(path, line, col)`` of the value at ``loc`` (``key``: of its key)."""
        line, col = yamlsource.locate(self.source, loc, key=key)
        return self.path, line, col


def orders_path(turn_id: str, player_id: str) -> str:
    return f"{ORDERS_DIR}/{turn_id}/{player_id}.yaml"


def parse_orders(raw: bytes, path: str,
                 adapter: TypeAdapter[Any] | None = None) -> LoadedOrders:
    """Order file bytes → :class:`LoadedOrders`; raises :class:`InvalidOrder`.

    ``path`` must be ``orders/<turn-id>/<player-id>.yaml``: the file's
    ``turn`` and ``player`` must agree with it. ``adapter`` is the format of
    the campaign's ruleset (``Ruleset.orders_adapter``); ``None``, the shared one.
    """
    if len(raw) > yamlsource.MAX_BYTES:
        raise InvalidOrder([yamlsource.too_large(path, len(raw))])
    try:
        data = yamlsource.parse(yamlsource.decode(raw, path), path)
    except InputError as exc:
        raise InvalidOrder(exc.problems) from None
    if not isinstance(data, dict):
        raise InvalidOrder([Problem(path, 1, 1, "expected a mapping starting 'turn: t001', "
                                    "'player: …' and 'groups:' holding " + ABOUT)])
    try:
        orders = validation.validate(ADAPTER if adapter is None else adapter, data, path)
    except InputError as exc:
        raise InvalidOrder(exc.problems) from None
    loaded = LoadedOrders(path, orders, data, raw)
    problems = list(_header(loaded))
    if adapter is None:
        problems.extend(_syntax(loaded))
    if problems:
        raise InvalidOrder(problems)
    return loaded


def folded_problem(root: Path, loaded: LoadedOrders) -> Problem | None:
    """The problem with an order file of a resolved turn that is not, byte for byte,
    the copy folded into the turn's record (``state/turns/<turn>/orders/``): edited or
    added after the turn was resolved, it would pass for orders the turn never saw."""
    parts = PurePosixPath(loaded.path).parts
    kept = root / TURNS_DIR / parts[1] / "orders" / parts[2]
    recorded = f"{TURNS_DIR}/{parts[1]}/orders/{parts[2]}"
    if not kept.is_file() and not kept.is_symlink():
        why = f"was added after {parts[1]} was resolved ({recorded} has no copy of it)"
    else:
        try:
            if yamlsource.read_bytes(kept, recorded) == loaded.raw:
                return None
        except InputError as exc:  # the record's copy is itself unreadable
            return exc.problems[0]
        why = f"differs from the copy folded into the resolved turn, {recorded}"
    return Problem(loaded.path, 0, 0, f"{why}; orders of a resolved turn cannot change: "
                   f"restore the file as {parts[1]} was resolved with it, or remove it")


def read_orders(root: Path, path: str, adapter: TypeAdapter[Any] | None = None,
                ) -> LoadedOrders:
    """Read and parse ``root/path``; raises :class:`InvalidOrder`."""
    try:
        raw = yamlsource.read_bytes(root / path, path)
    except InputError as exc:
        raise InvalidOrder(exc.problems) from None
    return parse_orders(raw, path, adapter)


def _header(loaded: LoadedOrders) -> Iterable[Problem]:
    """The file's ``turn`` and ``player`` agree with its path (every format)."""
    orders, where = loaded.orders, loaded.where
    parts = PurePosixPath(loaded.path).parts
    if len(parts) >= 2:
        folder, stem = parts[-2], PurePosixPath(parts[-1]).stem
        if orders.turn != folder:
            yield Problem(*where("turn"), f"these orders are for {orders.turn} but the file is "
                          f"in {ORDERS_DIR}/{folder}/; move the file or correct the turn")
        if orders.player != stem:
            yield Problem(*where("player"), f"these orders are by {orders.player!r} but the "
                          f"file is {stem}.yaml; name the file {orders.player}.yaml or "
                          "correct the player")


def _syntax(loaded: LoadedOrders) -> Iterable[Problem]:
    """The shared format's rules the schema cannot say."""
    orders, where = loaded.orders, loaded.where
    for group_id, order in orders.groups.items():
        loc = ("groups", group_id)
        given = [k for k in ("move", "scout", "hold") if getattr(order, k) is not None]
        if not given:
            yield Problem(*where(*loc, key=True), f"group {group_id!r} has no order; give it "
                          "one of 'move', 'scout' or 'hold: true'")
        elif len(given) > 1:
            yield Problem(*where(*loc, given[1], key=True), f"group {group_id!r} is given both "
                          f"'{given[0]}' and '{given[1]}'; give exactly one of 'move', "
                          "'scout' or 'hold'")
        elif given[0] in ("move", "scout") and order.posture is None:
            yield Problem(*where(*loc, given[0], key=True), f"the {given[0]} of group "
                          f"{group_id!r} names no posture; add 'posture:' with stand-off, "
                          "attack or withdraw-if-contested (§17.2)")
        if order.route is not None and order.scout is None and not isinstance(order.move, str):
            yield Problem(*where(*loc, "route", key=True), f"group {group_id!r} has a route "
                          "but no world to travel to along it; add 'move:' with a world on "
                          f"{order.route!r}")
        if group_id in order.merge:
            yield Problem(*where(*loc, "merge"), f"group {group_id!r} cannot merge with "
                          "itself; list the other groups that join it")
        for new_id in order.split:
            if new_id == group_id:
                yield Problem(*where(*loc, "split", new_id, key=True), f"a split from "
                              f"{group_id!r} needs a new group id, not its own")


def canonical(orders: Any) -> bytes:
    """The orders as canonical JSON: what they say, not how they are spaced.

    Comments, spacing, key order and the spelling of a hex (``(2, -1)`` or
    ``[2, -1]``) do not change it; any change to an order does.
    """
    return json.dumps(_plain(orders), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def _plain(value: Any) -> Any:
    if isinstance(value, Hex):
        return [value.q, value.r]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        # A field at its default is left out: a field added to the format later
        # changes no digest of orders that do not use it.
        return {f.name: _plain(item) for f in dataclasses.fields(value)
                if not _at_default(f, item := getattr(value, f.name))}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _at_default(f: dataclasses.Field[Any], value: Any) -> bool:
    if f.default is not dataclasses.MISSING:
        return bool(value == f.default)
    if f.default_factory is not dataclasses.MISSING:
        return bool(value == f.default_factory())
    return False


def orders_digest(all_orders: Iterable[Any]) -> str:
    """SHA-256 (hex) of every player's canonical orders, in player order.

    Re-spacing a file leaves it unchanged, so nobody can re-roll the turn's
    dice by reformatting; any real change to anybody's orders changes it.
    """
    digest = hashlib.sha256()
    for orders in sorted(all_orders, key=lambda o: o.player):
        body = canonical(orders)
        digest.update(len(body).to_bytes(8, "big"))
        digest.update(body)
    return digest.hexdigest()


def turn_files(root: Path, turn_id: str) -> tuple[str, ...]:
    """The order files given for a turn, sorted: ``orders/<turn-id>/*.yaml``."""
    folder = root / ORDERS_DIR / turn_id
    if not folder.is_dir():
        return ()
    return tuple(f"{ORDERS_DIR}/{turn_id}/{p.name}" for p in sorted(folder.iterdir())
                 if p.is_file() and not p.name.startswith("."))


def stray_problem(path: str) -> Problem | None:
    """A problem if ``path`` under orders/ is not ``orders/<turn-id>/<id>.yaml``."""
    parts = PurePosixPath(path).parts
    if path.endswith(".md"):
        return None  # a README for the players
    if len(parts) != 3 or parts[0] != ORDERS_DIR or not parts[2].endswith(".yaml"):
        return Problem(path, 0, 0, "not an order file; expected "
                       "orders/<turn-id>/<player-id>.yaml, such as orders/t004/nac.yaml")
    try:
        turn_number(parts[1])
    except ValueError as exc:
        return Problem(path, 0, 0, f"{exc} (the folder names the turn)")
    return None
