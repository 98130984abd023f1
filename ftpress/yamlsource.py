"""Safe YAML loading that remembers where every value came from.

PyYAML's ``CSafeLoader`` parses (fast, in C) and we construct the Python values
ourselves, so that each mapping and sequence keeps the line and column of its
keys and items. Later stages turn a location such as ``("edits", 0, "date")``
into ``path:line:col`` with :func:`locate`.

Things PyYAML lets through silently are refused here: duplicate keys (it keeps
the last), anchors and aliases (an "alias bomb" expands exponentially in any
code that walks the result), files too large to be hand-written, and bytes
that are not UTF-8.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

import yaml

from ftpress.errors import InputError, Problem

#: Campaign files are written by hand; anything bigger is a mistake or an attack.
MAX_BYTES = 4 * 1024 * 1024

_Base: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
#: How many distinct scalars' tags to remember (campaign files repeat a few thousand).
RESOLVED_LIMIT = 50_000
_RESOLVED: dict[tuple[str, tuple[bool, bool]], str] = {}


class _Loader(_Base):  # type: ignore[misc,valid-type]
    """The safe loader, remembering which tag each plain scalar resolves to: the same
    ids, numbers and names come back thousands of times, and each time PyYAML would
    try its regular expressions again."""

    def resolve(self, kind: type, value: Any, implicit: Any) -> str:
        if kind is not yaml.ScalarNode:
            return super().resolve(kind, value, implicit)
        key = (value, implicit)
        tag = _RESOLVED.get(key)
        if tag is None:
            if len(_RESOLVED) >= RESOLVED_LIMIT:
                _RESOLVED.clear()
            tag = _RESOLVED[key] = super().resolve(kind, value, implicit)
        return tag


class MarkedMap(dict):
    """A dict that knows the (line, col) of each key and of each value."""

    __slots__ = ("key_marks", "mark", "value_marks")

    def __init__(self, mark: tuple[int, int]) -> None:
        super().__init__()
        self.mark = mark
        self.key_marks: dict[Hashable, tuple[int, int]] = {}
        self.value_marks: dict[Hashable, tuple[int, int]] = {}


class MarkedList(list):
    """A list that knows the (line, col) of each item."""

    __slots__ = ("item_marks", "mark")

    def __init__(self, mark: tuple[int, int]) -> None:
        super().__init__()
        self.mark = mark
        self.item_marks: list[tuple[int, int]] = []


class _RefusedError(Exception):
    def __init__(self, line: int, col: int, message: str) -> None:
        super().__init__(message)
        self.line, self.col, self.message = line, col, message


_STR, _INT = "tag:yaml.org,2002:str", "tag:yaml.org,2002:int"
#: Integers PyYAML reads as plain decimals (no '0' prefix for octal, no '_', no '0x').
_DECIMAL = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")


def _mark(node: yaml.Node, line_offset: int) -> tuple[int, int]:
    return node.start_mark.line + 1 + line_offset, node.start_mark.column + 1


class _Builder:
    """Turns a composed node graph into plain values with marks."""

    def __init__(self, loader: yaml.SafeLoader, line_offset: int) -> None:
        self.loader = loader
        self.offset = line_offset
        self.seen: set[int] = set()

    def build(self, node: yaml.Node) -> Any:
        if id(node) in self.seen:
            # The composer hands back the anchored node itself for an alias.
            line, col = _mark(node, self.offset)
            raise _RefusedError(line, col, "YAML anchors and aliases are not allowed here; "
                           "write the value out in full")
        self.seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            # The commonest scalars, made as PyYAML's constructor makes them, without
            # its bookkeeping: strings as they are, plain decimal integers.
            if node.tag == _STR:
                return node.value
            if node.tag == _INT and _DECIMAL.fullmatch(node.value):
                return int(node.value)
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node)
        if isinstance(node, yaml.SequenceNode):
            result = MarkedList(_mark(node, self.offset))
            for item in node.value:
                result.item_marks.append(_mark(item, self.offset))
                result.append(self.build(item))
            return result
        try:
            return self.loader.construct_object(node, deep=True)
        except yaml.constructor.ConstructorError as exc:
            line, col = _mark(node, self.offset)
            raise _RefusedError(line, col, f"cannot read this value: {exc.problem}") from None
        except ValueError as exc:  # a well-formed timestamp that is no date: 2026-13-45
            line, col = _mark(node, self.offset)
            raise _RefusedError(line, col, f"cannot read {node.value!r}: {exc}") from None

    def _mapping(self, node: yaml.MappingNode) -> MarkedMap:
        result = MarkedMap(_mark(node, self.offset))
        for key_node, value_node in node.value:
            key_mark = _mark(key_node, self.offset)
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise _RefusedError(*key_mark, "YAML merge keys ('<<') are not allowed here")
            key = self.build(key_node)
            if not isinstance(key, Hashable) or isinstance(key, (MarkedMap, MarkedList)):
                raise _RefusedError(*key_mark, "a mapping key must be a plain value, "
                               "not a list or mapping")
            if key in result:
                first = result.key_marks[key][0]
                raise _RefusedError(*key_mark, f"duplicate key {key!r} (first given on line "
                               f"{first}); give each key once")
            result.key_marks[key] = key_mark
            result.value_marks[key] = _mark(value_node, self.offset)
            result[key] = self.build(value_node)
        return result


def read_text(file: Path, path: str) -> str:
    """The text of a hand-written file, refusing huge or non-UTF-8 files.

    ``path`` is the name to report problems under (relative to the campaign).
    """
    return decode(read_bytes(file, path), path)


def read_bytes(file: Path, path: str) -> bytes:
    """The bytes of a hand-written file, refusing huge files (see :func:`read_text`)."""
    try:
        with file.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise InputError([Problem(path, 0, 0, f"cannot read file: {exc.strerror}")]) from None
    if len(data) > MAX_BYTES:
        size = file.stat().st_size
        raise InputError([Problem(path, 0, 0, f"file is {size:,} bytes; expected at most "
                                  f"{MAX_BYTES:,} for a hand-written file")])
    return data


def decode(data: bytes, path: str) -> str:
    """Bytes of a hand-written file → text, or a located problem."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError([Problem(path, line, col, f"byte 0x{data[exc.start]:02x} is not "
                                  "valid UTF-8; save the file as UTF-8")]) from None
    return text.removeprefix("\ufeff")


def parse(text: str, path: str, line_offset: int = 0) -> Any:
    """Parse one YAML document; problems are reported at ``path:line:col``.

    ``line_offset`` is added to every line, for YAML embedded in a larger file
    (front matter starts on the second line of a post).
    """
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        return _Builder(loader, line_offset).build(node)
    except _RefusedError as exc:
        raise InputError([Problem(path, exc.line, exc.col, exc.message)]) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 + line_offset if mark else 0
        col = mark.column + 1 if mark else 0
        what = exc.problem or exc.context or "invalid YAML"
        hint = "; indent with spaces, not tabs" if _tab_at(text, mark) else ""
        raise InputError([Problem(path, line, col, f"YAML syntax error: {what}{hint}")]) from None
    except yaml.reader.ReaderError as exc:  # control characters and the like
        line = text.count("\n", 0, exc.position) + 1 + line_offset
        col = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        raise InputError([Problem(path, line, col, f"character U+{code:04X} is not "
                                  "allowed in YAML; remove it")]) from None
    except yaml.YAMLError as exc:
        raise InputError([Problem(path, 1 + line_offset, 0, f"YAML error: {exc}")]) from None
    finally:
        loader.dispose()


def _tab_at(text: str, mark: yaml.Mark | None) -> bool:
    if mark is None:
        return False
    lines = text.split("\n")
    return mark.line < len(lines) and "\t" in lines[mark.line][: mark.column + 1]


def locate(data: Any, loc: Sequence[Hashable], *, key: bool = False) -> tuple[int, int]:
    """The (line, col) of the value at ``loc`` in parsed data.

    Walks as deep as the location exists; a missing key points at its parent
    mapping. With ``key=True`` the last step points at the key, not its value
    (for "unknown key" messages).
    """
    mark = getattr(data, "mark", (0, 0))
    node = data
    for depth, step in enumerate(loc):
        last = depth == len(loc) - 1
        if isinstance(node, MarkedMap) and step in node:
            marks = node.key_marks if (key and last) else node.value_marks
            mark, node = marks[step], node[step]
        elif isinstance(node, MarkedList) and isinstance(step, int) and 0 <= step < len(node):
            mark, node = node.item_marks[step], node[step]
        else:
            break
    return mark
