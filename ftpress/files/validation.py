"""Validate parsed YAML into typed, frozen models with pydantic.

The models themselves are plain frozen dataclasses; pydantic's ``TypeAdapter``
checks and converts parsed YAML into them and exports their JSON Schema.
Every validation error becomes a :class:`~ftpress.errors.Problem` at the line
and column of the offending value, worded for the person who wrote the file.
"""

from __future__ import annotations

import dataclasses
import difflib
import types
import typing
from collections.abc import Callable, Hashable, Sequence
from datetime import date, time
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

from ftpress.errors import InputError, Problem
from ftpress.files.yamlsource import locate
from ftpress.text.logsafe import shown

T = TypeVar("T")

_EXTRA = {"unexpected_keyword_argument", "extra_forbidden"}


#: The keys a record at a place in a file may hold beyond its model's own (a
#: ruleset's, :mod:`ftpress.state.extension`), for "unknown key" messages.
MoreKeys = Callable[[tuple[Hashable, ...]], tuple[str, ...]]


def validate(adapter: TypeAdapter[T], data: Any, path: str,
             context: dict[str, Any] | None = None, more_keys: MoreKeys | None = None) -> T:
    """``data`` as a model of the adapter's type, or every problem with it;
    ``context`` goes to the models' validators (the kinds of event a ruleset allows)."""
    try:
        return adapter.validate_python(data, context=context)
    except ValidationError as exc:
        raise InputError(problems(exc, data, path, adapter, more_keys)) from None


def problems(exc: ValidationError, data: Any, path: str,
             adapter: TypeAdapter[Any] | None = None,
             more_keys: MoreKeys | None = None,
             within: tuple[Hashable, ...] = ()) -> list[Problem]:
    """One problem per place in the file, in the user's words. ``within``: where
    ``data`` is in the file, for messages that name the place (``data``'s own marks
    give the line)."""
    found: dict[tuple[int, int], Problem] = {}
    for error in exc.errors(include_url=False):
        loc: tuple[Hashable, ...] = tuple(error["loc"])
        extra = error["type"] in _EXTRA
        if error["type"] != "missing" and not extra:
            loc = _existing(data, loc)  # drop union-branch names such as 'datetime'
        line, col = locate(data, loc, key=extra)
        if (line, col) in found:
            continue  # a union reports each alternative; the first says enough
        found[(line, col)] = Problem(path, line, col, _message(error, loc, adapter, more_keys,
                                                               within))
    return list(found.values())


def _message(error: Any, loc: tuple[Hashable, ...], adapter: TypeAdapter[Any] | None,
             more_keys: MoreKeys | None, within: tuple[Hashable, ...] = ()) -> str:
    where = _dotted((*within, *loc))
    kind = error["type"]
    if kind in _EXTRA:
        known = _known_keys(adapter, loc[:-1]) if adapter else ()
        if more_keys is not None:
            known += more_keys(loc[:-1])
        close = difflib.get_close_matches(str(loc[-1]), known, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else (
            f"; expected one of: {', '.join(known)}" if known else "")
        return f"unknown key {loc[-1]!r}{hint}"
    if kind == "missing":
        return f"missing required key {where!r}"
    if kind in _MAPPING:
        return _not_a_mapping(error.get("input"), where, _known_keys(adapter, loc)
                              if adapter else ())
    msg = error["msg"]
    if msg.startswith("Value error, "):
        msg = msg.removeprefix("Value error, ")
    else:
        msg = msg[0].lower() + msg[1:]
    got = error.get("input")
    # A message that already quotes the value (a custom validator's) need not repeat it,
    # and quotes it cut short if it is long (a 70 KB note, a 5,000-digit number).
    quoted = not isinstance(got, (dict, list)) and repr(got) in msg
    if quoted:
        msg = msg.replace(repr(got), shown(got))
    if isinstance(got, (date, time)):
        got = got.isoformat()  # as the file wrote it, not as Python's repr
    value = "" if isinstance(got, (dict, list)) or quoted else f", got {shown(got)}"
    prefix = f"{where}: " if where else ""
    return f"{prefix}{msg}{value}"


#: Pydantic's errors for a value that should have been a mapping of keys.
_MAPPING = {"dataclass_type", "model_type", "dict_type"}


def _not_a_mapping(got: Any, where: str, keys: tuple[str, ...]) -> str:
    """A record or mapping given as nothing or as one value: most often its keys were
    not indented under it, or a value was written where keys belong."""
    prefix = f"{where}: " if where else ""
    such = f" such as {', '.join(repr(k) for k in keys[:3])}" if keys else ""
    if got is None:
        return f"{prefix}nothing is given here; expected keys{such} indented under it"
    return f"{prefix}expected keys{such} indented under it, got {shown(got)}"


def _existing(data: Any, loc: tuple[Hashable, ...]) -> tuple[Hashable, ...]:
    """The longest prefix of ``loc`` that names real keys and items in ``data``."""
    kept: list[Hashable] = []
    node = data
    for step in loc:
        in_dict = isinstance(node, dict) and step in node
        in_list = isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node)
        if in_dict or in_list:
            node = node[step]
        else:
            break
        kept.append(step)
    return tuple(kept)


def _dotted(loc: Sequence[Hashable]) -> str:
    out = ""
    for step in loc:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out


def _known_keys(adapter: TypeAdapter[Any], loc: Sequence[Hashable]) -> tuple[str, ...]:
    """The field names of the dataclass found at ``loc`` in the adapter's type."""
    tp: Any = adapter._type
    for step in loc:
        tp = _unwrap(tp)
        if dataclasses.is_dataclass(tp) and isinstance(step, str):
            tp = typing.get_type_hints(tp, include_extras=True).get(step)
        elif typing.get_origin(tp) in (tuple, list) and isinstance(step, int):
            tp = typing.get_args(tp)[0]
        elif typing.get_origin(tp) is dict:
            tp = typing.get_args(tp)[1]
        else:
            return ()
    tp = _unwrap(tp)
    if dataclasses.is_dataclass(tp):
        return tuple(f.name for f in dataclasses.fields(tp) if f.metadata.get("key", True))
    return ()


def _unwrap(tp: Any) -> Any:
    """Strip ``Annotated`` and ``X | None`` down to the one real type."""
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            tp = typing.get_args(tp)[0]
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            if len(args) != 1:
                return tp
            tp = args[0]
        else:
            return tp
