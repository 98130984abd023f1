"""Read order files: YAML with line marks, the schema, and the syntax rules the
schema cannot say.

Each ruleset has its own order format: :func:`parse_orders` takes that ruleset's
``TypeAdapter`` (``Ruleset.orders_adapter``) and gives ``LoadedOrders`` of that
format's model. Every format has the header ``turn`` and ``player``, checked
here against the file's path. A format whose syntax has rules its schema cannot
say states them in its model (:class:`StatesItsSyntax`), and they are applied
here, a group that breaks one holding while the rest of the file is checked.

Every mistake is an *invalid order* reported at ``path:line:col``, all of them
at once. Legality against the campaign (``IllegalOrder``) is the ruleset's.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import typing
from collections.abc import Callable, Collection, Hashable, Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Annotated, Any, Generic, Protocol, TypeVar, runtime_checkable

from pydantic import TypeAdapter, ValidationError

from ftpress.errors import InputError, Problem
from ftpress.files import validation, yamlsource
from ftpress.files.yamlsource import MarkedMap
from ftpress.state.hexes import Hex
from ftpress.state.turns import TURNS_DIR, turn_number

ORDERS_DIR = "orders"
ABOUT = "one player's orders for one strategic turn"


class InvalidOrder(InputError):
    """An order file is not what the format says (syntax); every mistake located.

    ``partial`` is the file with every group (or task force) whose form is wrong
    holding instead, and its header as its path says, when that much of it can be
    read: so legality can still be checked on the rest, and one mistake does not
    hide another.
    """

    def __init__(self, problems: list[Problem] | tuple[Problem, ...],
                 partial: LoadedOrders[Any] | None = None) -> None:
        super().__init__(problems)
        self.partial = partial


class OrderFile(Protocol):
    """What every order format has: the header checked against the file's path."""

    @property
    def turn(self) -> str: ...

    @property
    def player(self) -> str: ...


@runtime_checkable
class StatesItsSyntax(Protocol):
    """An order format with syntax rules its schema cannot say, stated by its model:
    each problem comes with the entry (``("groups", <id>)``) that holds for it;
    ``held`` are the entries already wrong in form, to be left out."""

    def syntax(self, where: Callable[..., tuple[str, int, int]],
               held: set[tuple[str, Hashable]],
               ) -> Iterable[tuple[tuple[str, Hashable], Problem]]: ...


#: The model of one ruleset's order file.
OrdersT = TypeVar("OrdersT", bound=OrderFile)
#: The same, for :class:`LoadedOrders`: read-only, so a file of any format is a
#: ``LoadedOrders[OrderFile]`` to code that reads only the header.
OrdersT_co = TypeVar("OrdersT_co", bound=OrderFile, covariant=True)


@dataclass(frozen=True, slots=True)
class LoadedOrders(Generic[OrdersT_co]):
    """One order file as read: its path, the orders, and the parsed YAML (marks).

    Generic over the order format: a ruleset's functions take
    ``LoadedOrders[<its own model>]``, and only the ruleset knows which that is.
    """

    #: Relative to the campaign: 'orders/t004/nac.yaml'.
    path: str
    #: The parsed file, in the model of the campaign's ruleset's format (it has
    #: ``turn`` and ``player``).
    orders: OrdersT_co
    #: The parsed YAML, whose marks place every value at a line and column.
    source: MarkedMap
    #: The file's bytes, kept verbatim in the turn's record.
    raw: bytes

    def where(self, *loc: Hashable, key: bool = False) -> tuple[str, int, int]:
        """``(path, line, col)`` of the value at ``loc`` (``key``: of its key)."""
        line, col = yamlsource.locate(self.source, loc, key=key)
        return self.path, line, col


def orders_path(turn_id: str, player_id: str) -> str:
    return f"{ORDERS_DIR}/{turn_id}/{player_id}.yaml"


def parse_orders(raw: bytes, path: str, adapter: TypeAdapter[OrdersT]) -> LoadedOrders[OrdersT]:
    """Order file bytes → :class:`LoadedOrders`; raises :class:`InvalidOrder`.

    ``path`` must be ``orders/<turn-id>/<player-id>.yaml``: the file's
    ``turn`` and ``player`` must agree with it. ``adapter`` is the format of
    the campaign's ruleset (``Ruleset.orders_adapter``); a format that states
    syntax rules of its own (:class:`StatesItsSyntax`) is held to them too.
    """
    if len(raw) > yamlsource.MAX_BYTES:
        raise InvalidOrder([yamlsource.too_large(path, len(raw))])
    try:
        data = yamlsource.parse(yamlsource.decode(raw, path), path)
    except InputError as exc:
        raise InvalidOrder(exc.problems) from None
    if not isinstance(data, MarkedMap):
        raise InvalidOrder([Problem(path, 1, 1, "expected a mapping starting 'turn: t001', "
                                    "'player: …' and 'groups:' holding " + ABOUT)])
    format_ = adapter
    header = _path_header(path)
    try:
        orders = validation.validate(format_, data, path)
        problems: list[Problem] = []
        held: set[tuple[str, Hashable]] = set()
        dropped: set[tuple[Hashable, ...]] = set()
    except InputError as exc:
        problems = list(exc.problems)
        read = _readable_part(format_, data, header)
        if read is None:
            raise InvalidOrder(problems) from None
        orders, held, dropped = read
    loaded = LoadedOrders(path, orders, data, raw)
    mismatched = list(_header(loaded))
    problems.extend(mismatched)
    if isinstance(orders, StatesItsSyntax):
        for entry, problem in list(orders.syntax(loaded.where, held)):
            problems.append(problem)
            held.add(entry)
    if not problems:
        return loaded
    if mismatched or held:
        # Legality is checked on what is left: the file's own player and turn are
        # the path's, and every group whose form is wrong holds.
        # What was left out to read it (a wrong economy block) stays out.
        fixed = _pruned(data, held, header, dropped={(k,) for k in header} | dropped)
        try:
            loaded = LoadedOrders(path, validation.validate(format_, fixed, path), data, raw)
        except InputError:
            raise InvalidOrder(problems) from None
    raise InvalidOrder(problems, loaded)


def _path_header(path: str) -> dict[str, str]:
    """The ``turn`` and ``player`` the path ``orders/<turn>/<player>.yaml`` names."""
    parts = PurePosixPath(path).parts
    if len(parts) < 2:
        return {}
    return {"turn": parts[-2], "player": PurePosixPath(parts[-1]).stem}


#: Rounds of pruning before a file is given up as unreadable: each round drops the
#: places the last one found wrong (an entry emptied, then dropped, then its key).
_ROUNDS = 4


def _readable_part(format_: TypeAdapter[Any], data: dict[Any, Any], header: dict[str, str],
                   ) -> tuple[Any, set[tuple[str, Hashable]], set[tuple[Hashable, ...]]] | None:
    """The orders with every entry of ``groups`` (``forces``) whose form is wrong
    holding, any other wrong key left out, and a wrong header taken from the path;
    the entries so held, and the places left out. None if even that is not valid."""
    records = _record_maps(format_)
    held: set[tuple[str, Hashable]] = set()
    dropped: set[tuple[Hashable, ...]] = set()
    for _ in range(_ROUNDS):
        try:
            return format_.validate_python(_pruned(data, held, header, dropped)), held, \
                {d for d in dropped if len(d) == 1 and d[0] not in header}
        except ValidationError as exc:
            for error in exc.errors(include_url=False):
                loc = tuple(error["loc"])
                if not loc:
                    return None
                top = loc[0]
                entries = data.get(top)
                if (top in records and len(loc) >= 2 and isinstance(entries, dict)
                        and loc[1] in entries):
                    entry = (str(top), loc[1])
                    if entry in held or loc[2:] == ("[key]",):
                        dropped.add(entry)  # an entry holding is still wrong: its id
                    held.add(entry)
                elif top in header and (top,) in dropped:
                    return None  # the path's own turn or player is no id
                else:
                    dropped.add((top,))
    return None


def _pruned(data: dict[Any, Any], held: set[tuple[str, Hashable]], header: dict[str, str],
            dropped: Collection[tuple[Hashable, ...]] = ()) -> dict[Any, Any]:
    """``data`` with the ``held`` entries empty (a hold) and the ``dropped`` places
    left out, a dropped ``turn`` or ``player`` the path's (``header``)."""
    out = {k: v for k, v in data.items() if (k,) not in dropped}
    out.update((k, v) for k, v in header.items() if (k,) in dropped)
    for top, key in held:
        entries = {k: v for k, v in out.get(top, {}).items() if (top, k) not in dropped}
        if (top, key) not in dropped:
            entries[key] = {}
        out[top] = entries
    return out


def _record_maps(format_: TypeAdapter[Any]) -> frozenset[str]:
    """The top-level fields of the format that map ids to records (``groups``,
    ``forces``): an entry of one can be held on its own."""
    model = format_._type
    if not dataclasses.is_dataclass(model):
        return frozenset()
    found = set()
    for name, tp in typing.get_type_hints(model).items():
        if typing.get_origin(tp) is dict:
            value = typing.get_args(tp)[1]
            value = typing.get_args(value)[0] if typing.get_origin(value) is Annotated else value
            if dataclasses.is_dataclass(value):
                found.add(name)
    return frozenset(found)


def folded_problem(root: Path, loaded: LoadedOrders[OrderFile]) -> Problem | None:
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


def read_orders(root: Path, path: str, adapter: TypeAdapter[OrdersT]) -> LoadedOrders[OrdersT]:
    """Read and parse ``root/path``; raises :class:`InvalidOrder`."""
    try:
        raw = yamlsource.read_bytes(root / path, path)
    except InputError as exc:
        raise InvalidOrder(exc.problems) from None
    return parse_orders(raw, path, adapter)


def _header(loaded: LoadedOrders[OrderFile]) -> Iterable[Problem]:
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


def canonical(orders: object) -> bytes:
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


def orders_digest(all_orders: Iterable[OrderFile]) -> str:
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
