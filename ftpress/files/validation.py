"""Validate parsed YAML into typed, frozen models with pydantic.

The models themselves are plain frozen dataclasses; pydantic's ``TypeAdapter``
checks and converts parsed YAML into them and exports their JSON Schema.
Every validation error becomes a :class:`~ftpress.errors.Problem` at the line
and column of the offending value, worded for the person who wrote the file.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import types
import typing
from collections.abc import Callable, Hashable, Sequence
from datetime import date, time
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

from ftpress.errors import InputError, Problem
from ftpress.files.yamlsource import MarkedList, MarkedMap, locate
from ftpress.text.logsafe import shown

T = TypeVar("T")

_EXTRA = {"unexpected_keyword_argument", "extra_forbidden"}


#: The keys a record at a place in a file may hold beyond its model's own (a
#: ruleset's, :mod:`ftpress.state.extension`), for "unknown key" messages.
MoreKeys = Callable[[tuple[Hashable, ...]], tuple[str, ...]]


def validate(adapter: TypeAdapter[T], data: Any, path: str,
             context: dict[str, Any] | None = None, more_keys: MoreKeys | None = None) -> T:
    """``data`` as a model of the adapter's type, or every problem with it;
    ``context`` goes to the models' validators (the kinds of event a ruleset allows).

    A value of another JSON type than the published schema allows is refused, as an
    editor refuses it, though pydantic would convert it (``'4'`` to 4, ``1`` or
    ``'false'`` to a boolean); a date where the schema wants text is the text."""
    data, slipped = strict_types(adapter, data, path)
    try:
        model = adapter.validate_python(data, context=context)
    except ValidationError as exc:
        # Where both find a problem, the model's own message says it better.
        raise InputError(merged(problems(exc, data, path, adapter, more_keys), slipped)) \
            from None
    if slipped:
        raise InputError(slipped)
    return model


def merged(first: list[Problem], then: list[Problem]) -> list[Problem]:
    """Both lists, one problem per place (``first``'s where both have one)."""
    places = {(p.line, p.col) for p in first}
    return [*first, *(p for p in then if (p.line, p.col) not in places)]


#: Each adapter's JSON Schema (by id, with the adapter kept so the id stays its own).
_SCHEMAS: dict[int, tuple[TypeAdapter[Any], dict[str, Any]]] = {}
#: What each JSON type is called in a message.
_TYPE_WORDS = {"boolean": "true or false", "integer": "a whole number", "number": "a number",
               "string": "text", "null": "nothing", "object": "keys indented under it",
               "array": "a list", "date": "a date such as 2026-03-09",
               "date-time": "a date and time such as 2026-05-17T20:00:00+00:00"}
#: Plain scalars YAML 1.1 read as true or false and YAML 1.2 (and ftpress) as text.
_YAML11_BOOLEANS = frozenset(("yes", "no", "on", "off"))


def _schema_of(adapter: TypeAdapter[Any]) -> dict[str, Any]:
    found = _SCHEMAS.get(id(adapter))
    if found is None or found[0] is not adapter:
        found = (adapter, published(adapter.json_schema()))
        _SCHEMAS[id(adapter)] = found
    return found[1]


#: The most digits a whole number may have (the YAML reader refuses more).
_LARGEST = 10 ** 18 - 1
#: Dates and times as ``ftpress check`` reads them from text, for editors.
_DATE = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}(?![\s\S])"
_DATE_TIME = (r"^[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[Tt ][0-9]{2}:[0-9]{2}(?::[0-9]{2}"
              r"(?:\.[0-9]+)?)?(?:[Zz]|[+-][0-9]{2}(?::?[0-9]{2})?)?)?(?![\s\S])")


_DATED = {"date": _DATE, "date-time": _DATE_TIME}


def published(node: Any) -> Any:
    """A model's JSON Schema said as ``ftpress check`` reads files: a key whose value
    may be null only because it may be left out takes no null (``hold: null`` is no
    order); a whole number has at most 18 digits; a date or a date and time is
    written as such."""
    if isinstance(node, list):
        return [published(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: published(value) for key, value in node.items()}
    if isinstance(out.get("properties"), dict):
        out["properties"] = {key: _not_null(value) for key, value in out["properties"].items()}
    kinds = out.get("type")
    if kinds == "integer" or (isinstance(kinds, list) and "integer" in kinds):
        out.setdefault("maximum", _LARGEST)
        out.setdefault("minimum", -_LARGEST)
    if out.get("type") == "string" and out.get("format") in ("date", "date-time"):
        out.setdefault("pattern", _DATE if out["format"] == "date" else _DATE_TIME)
    return out


def _not_null(prop: Any) -> Any:
    """A property's schema without its null branch, where null is its default."""
    if not isinstance(prop, dict) or prop.get("default", 0) is not None or "anyOf" not in prop:
        return prop
    kept = [b for b in prop["anyOf"] if b != {"type": "null"}]
    if len(kept) == len(prop["anyOf"]) or not kept:
        return prop
    rest = {k: v for k, v in prop.items() if k not in ("anyOf", "default")}
    return {**rest, **kept[0]} if len(kept) == 1 and not set(kept[0]) & set(rest) else {
        **rest, "anyOf": kept}


def strict_types(adapter: TypeAdapter[Any], data: Any, path: str,
                 within: tuple[Hashable, ...] = ()) -> tuple[Any, list[Problem]]:
    """``data`` with each date or time the schema wants as text made its text, and a
    problem for each value of a JSON type the adapter's schema does not allow there."""
    schema = _schema_of(adapter)
    walk = _TypeWalk(schema.get("$defs", {}))
    walk.value(schema, data, ())
    for loc, text in walk.as_text:
        data = _replaced(data, loc, text)
    found = []
    for loc, allowed in walk.slips:
        got = _at(data, loc)
        line, col = locate(data, loc)
        words = " or ".join(dict.fromkeys(_TYPE_WORDS.get(t, t) for t in allowed))
        message = f"{_dotted((*within, *loc)) or 'the file'}: expected {words}, got {shown(got)}"
        if got is None:
            message = (f"{_dotted((*within, *loc)) or 'the file'}: nothing is given; give "
                       f"{words} or leave the key out")
        elif "boolean" in allowed and isinstance(got, str) and got.lower() in _YAML11_BOOLEANS:
            message += (f"; write true or false ({got} is text in YAML 1.2, as editors "
                        "read it, and to ftpress)")
        elif isinstance(got, str) and ("integer" in allowed or "number" in allowed):
            message += "; write the number without quotes"
        found.append(Problem(path, line, col, message))
    return data, found


class _TypeWalk:
    """Walks parsed data beside its JSON Schema, noting each scalar of a JSON type no
    branch of the schema there allows, and each date or time where only text is."""

    def __init__(self, defs: dict[str, Any]) -> None:
        self.defs = defs
        self.slips: list[tuple[tuple[Hashable, ...], tuple[str, ...]]] = []
        self.as_text: list[tuple[tuple[Hashable, ...], str | int]] = []

    def branches(self, node: dict[str, Any]) -> list[dict[str, Any]]:
        """The alternatives a schema node allows, references followed."""
        if "$ref" in node:
            return self.branches(self.defs[node["$ref"].rsplit("/", 1)[-1]])
        if "type" in node or "properties" in node:
            return [node]  # its anyOf or oneOf, if any, constrains keys, not types
        for union in ("anyOf", "oneOf"):
            if union in node:
                return [b for each in node[union] for b in self.branches(each)]
        if "allOf" in node and len(node["allOf"]) == 1:
            return self.branches(node["allOf"][0])
        return [node]

    @staticmethod
    def types(branch: dict[str, Any]) -> tuple[str, ...] | None:
        """The JSON types a branch allows, or None for any."""
        if "type" in branch:
            kind = branch["type"]
            return (kind,) if isinstance(kind, str) else tuple(kind)
        values = [branch["const"]] if "const" in branch else branch.get("enum")
        if values is not None:
            return tuple(dict.fromkeys(_json_type(v) for v in values))
        if {"properties", "additionalProperties", "patternProperties"} & set(branch):
            return ("object",)
        if {"items", "prefixItems"} & set(branch):
            return ("array",)
        return None

    def value(self, node: dict[str, Any], value: Any, loc: tuple[Hashable, ...]) -> None:
        branches = self.branches(node)
        kinds = [self.types(b) for b in branches]
        if any(k is None for k in kinds):
            return
        allowed = tuple(dict.fromkeys(t for k in kinds if k for t in k))
        kind = _json_type(value)
        if kind in ("object", "array"):
            fits = [b for b, k in zip(branches, kinds, strict=True) if k and kind in k]
            self._container(fits, value, loc)
            return
        if not _allows(allowed, value):
            self.slips.append((loc, allowed))
        elif isinstance(value, str) and not self._dated(branches, kinds, value):
            self.slips.append((loc, tuple(b["format"] for b in branches if "format" in b)))
        elif isinstance(value, float) and "integer" in allowed and "number" not in allowed:
            self.as_text.append((loc, int(value)))  # 2.0, a whole number in JSON
        elif isinstance(value, (date, time)) and not any(
                "format" in b for b, k in zip(branches, kinds, strict=True)
                if k and "string" in k):
            self.as_text.append((loc, value.isoformat()))

    @staticmethod
    def _dated(branches: list[dict[str, Any]], kinds: list[tuple[str, ...] | None],
               text: str) -> bool:
        """Whether ``text`` is written as a date or date and time where only one is
        allowed (pydantic would read '1.5' as seconds after 1970, and no editor)."""
        texts = [b for b, k in zip(branches, kinds, strict=True) if k and "string" in k]
        if not texts or not all(b.get("format") in _DATED for b in texts):
            return True
        return any(re.search(_DATED[b["format"]], text) for b in texts)

    def _container(self, fits: list[dict[str, Any]], value: Any,
                   loc: tuple[Hashable, ...]) -> None:
        """Into the one branch that fits, or the one with the fewest slips of several."""
        best: tuple[list[Any], list[Any]] | None = None
        for branch in fits:
            trial = _TypeWalk(self.defs)
            trial._children(branch, value, loc)
            if best is None or len(trial.slips) < len(best[0]):
                best = (trial.slips, trial.as_text)
            if not trial.slips:
                break
        if best is not None:
            self.slips += best[0]
            self.as_text += best[1]

    def _children(self, branch: dict[str, Any], value: Any, loc: tuple[Hashable, ...]) -> None:
        if isinstance(value, dict):
            properties = branch.get("properties", {})
            patterns = branch.get("patternProperties", {})
            extra = branch.get("additionalProperties")
            for key, item in value.items():
                sub = properties.get(key) if isinstance(key, str) else None
                if sub is None and isinstance(key, str):
                    sub = next((s for p, s in patterns.items() if re.search(p, key)), None)
                if sub is None and isinstance(extra, dict):
                    sub = extra
                if sub is not None:
                    self.value(sub, item, (*loc, key))
        else:
            prefix = branch.get("prefixItems", [])
            items = branch.get("items")
            for index, item in enumerate(value):
                sub = prefix[index] if index < len(prefix) else items
                if isinstance(sub, dict):
                    self.value(sub, item, (*loc, index))


def _json_type(value: Any) -> str:
    """A parsed value's JSON type (a date or time is text in JSON)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    return "string"


def _allows(allowed: tuple[str, ...], value: Any) -> bool:
    kind = _json_type(value)
    if kind in allowed:
        return True
    if kind == "integer" and "number" in allowed:
        return True
    # JSON counts 2.0 a whole number: so do its schemas.
    return kind == "number" and "integer" in allowed and float(value).is_integer()


def _at(data: Any, loc: tuple[Hashable, ...]) -> Any:
    for step in loc:
        data = data[step]
    return data


def _replaced(data: Any, loc: tuple[Hashable, ...], new: Any) -> Any:
    """``data`` with the value at ``loc`` replaced, copied along the way (marks kept)."""
    if not loc:
        return new
    head, rest = loc[0], loc[1:]
    copy: Any
    if isinstance(data, MarkedMap):
        copy = MarkedMap(data.mark)
        copy.update(data)
        copy.key_marks, copy.value_marks = data.key_marks, data.value_marks
    elif isinstance(data, MarkedList):
        copy = MarkedList(data.mark)
        copy.extend(data)
        copy.item_marks = data.item_marks
    else:
        copy = type(data)(data)
    copy[head] = _replaced(data[head], rest, new)
    return copy


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
        # A mapping's key that is wrong (an id written as a key): pydantic places it at
        # the key's name then "[key]"; it stands on the key's own line, not its value's.
        bad_key = "[key]" in loc
        if bad_key:
            loc = loc[:loc.index("[key]")]
        if error["type"] != "missing" and not extra:
            loc = _existing(data, loc)  # drop union-branch names such as 'datetime'
        line, col = locate(data, loc, key=extra or bad_key)
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
    quoted = repr(got) in msg
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
