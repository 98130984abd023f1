"""Safe YAML loading that remembers where every value came from.

PyYAML's ``CSafeLoader`` parses (fast, in C) and we construct the Python values
ourselves, so that each mapping and sequence keeps the line and column of its
keys and items. Later stages turn a location such as ``("edits", 0, "date")``
into ``path:line:col`` with :func:`locate`.

Things PyYAML lets through silently are refused here: duplicate keys (it keeps
the last), anchors and aliases (an "alias bomb" expands exponentially in any
code that walks the result), tags on mappings and lists other than the plain
``!!map`` and ``!!seq`` (``!!set``, ``!!omap`` or an application's own tag would
be read as a plain mapping or list, not as what the writer meant), files too
large to be hand-written, nesting deeper than any hand-written file needs
(:data:`MAX_DEPTH`; a thousand ``[`` would otherwise exhaust Python's recursion
limit, and a few million the C parser's stack), and bytes that are not UTF-8.
"""

from __future__ import annotations

import gc
import operator
import re
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

import yaml

from ftpress.errors import InputError, Problem
from ftpress.files.nolinks import link_problem
from ftpress.text.logsafe import shown

#: Campaign files are written by hand; anything bigger is a mistake or an attack.
MAX_BYTES = 4 * 1024 * 1024
#: Lists and mappings inside one another: campaign files need six or so levels.
MAX_DEPTH = 64
#: Plain decimal integers with more digits than this are refused: no campaign value
#: comes near, and Python refuses to convert more than 4,300 digits at all.
MAX_DIGITS = 18

_Base: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
#: How many distinct plain scalars' values to remember (campaign files repeat a few thousand).
RESOLVED_LIMIT = 50_000
#: Plain scalar text → its value, for the scalars that may be more than a string.
_RESOLVED: dict[str, Any] = {}
#: First characters of the plain scalars SafeLoader may read as something other than a
#: string (numbers, booleans, null, dates, '<<', ...); every other plain scalar is a string.
_TYPED_FIRSTS = frozenset(_Base.yaml_implicit_resolvers)


# The base is picked when the module loads (libyaml's, where PyYAML was built with it),
# which a type checker cannot take as a class.
class _Loader(_Base):  # type: ignore[misc,valid-type]
    """The safe loader, without the Python calls its composer makes for every node.

    The C composer asks ``resolve`` for the tag of every untagged node; a ``slice``
    keeps the arguments without running Python code, so such a node's tag is
    ``slice(kind, value, (plain, quoted))`` (``plain`` is also true for a scalar tagged
    ``!``), and :class:`_Builder` resolves scalars itself, remembering the values of the
    same ids, numbers and names that come back thousands of times. ``descend_resolver``
    and ``ascend_resolver`` serve path resolvers, which the safe loader has none of.
    """

    resolve = staticmethod(slice)
    descend_resolver = staticmethod(operator.is_)
    ascend_resolver = staticmethod(bool)


class MarkedMap(dict[Hashable, Any]):
    """A dict that knows the (line, col) of each key and of each value."""

    __slots__ = ("key_marks", "mark", "value_marks")

    def __init__(self, mark: tuple[int, int]) -> None:
        super().__init__()
        self.mark = mark
        self.key_marks: dict[Hashable, tuple[int, int]] = {}
        self.value_marks: dict[Hashable, tuple[int, int]] = {}


class MarkedList(list[Any]):
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
#: The only tags a mapping or a list may carry: those it has without one.
_COLLECTION_TAGS = frozenset(("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"))
_MERGE = "tag:yaml.org,2002:merge"
#: Integers PyYAML reads as plain decimals (no '0' prefix for octal, no '_', no '0x').
_DECIMAL = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
_ScalarNode = yaml.ScalarNode
_MappingNode = yaml.MappingNode
_SequenceNode = yaml.SequenceNode


class _Builder:
    """Turns a composed node graph into plain values with marks.

    Scalars are made as PyYAML's constructor makes them, without its bookkeeping.
    A node's mark is ``(start line + 1 + line_offset, column + 1)``.
    """

    def __init__(self, loader: yaml.SafeLoader, line_offset: int, aliases: bool) -> None:
        self.loader = loader
        self.line1 = 1 + line_offset
        # The composer hands back the anchored node itself for an alias, so a node seen
        # twice is an alias; without a '*' in the text there is none to look for.
        self.seen: set[int] | None = set() if aliases else None
        self.depth = 0

    def build(self, node: yaml.Node) -> Any:
        if self.seen is not None:
            if id(node) in self.seen:
                raise self._refused(node, "YAML anchors and aliases are not allowed here; "
                                    "write the value out in full")
            self.seen.add(id(node))
        if type(node) is _ScalarNode:
            return self._scalar(node)
        # A slice where PyYAML's types say str: an untagged node's (see _Loader).
        tag: object = node.tag
        if type(tag) is not slice and tag not in _COLLECTION_TAGS:
            shown = node.tag.replace("tag:yaml.org,2002:", "!!")
            raise self._refused(node, f"the tag {shown} is not allowed on a "
                                f"{'mapping' if type(node) is _MappingNode else 'list'}; "
                                "remove it")
        if type(node) is _MappingNode:
            return self._mapping(node)
        assert type(node) is _SequenceNode  # the composer makes no other kind of node
        return self._sequence(node)

    def _refused(self, node: yaml.Node, message: str) -> _RefusedError:
        return _RefusedError(node.start_mark.line + self.line1, node.start_mark.column + 1,
                             message)

    def _tag(self, node: yaml.ScalarNode) -> str:
        """The scalar's tag, resolved as SafeLoader resolves it if the text gives none."""
        tag: object = node.tag  # a slice if untagged (see _Loader)
        if type(tag) is slice:
            resolved: str = _Base.resolve(  # type: ignore[no-untyped-call]  # PyYAML's stubs leave it untyped
                self.loader, _ScalarNode, node.value, tag.step)
            return resolved
        return node.tag

    def _scalar(self, node: yaml.ScalarNode) -> Any:
        value = node.value
        tag: object = node.tag  # a slice if untagged (see _Loader)
        if type(tag) is slice and tag.step[0]:  # plain
            if value in _RESOLVED:
                return _RESOLVED[value]
            node.tag = self._tag(node)
            result = value if _text_in_yaml12(value, node.tag) else self._construct(node)
            if value[:1] in _NUMBER_FIRSTS:
                apart = _read_apart(value, result)
                if apart:
                    raise self._refused(node, apart)
            # Plain scalars are immutable values, safe to share; not NaN, which would
            # make two NaNs read from separate places compare equal in a container.
            if result == result:
                if len(_RESOLVED) >= RESOLVED_LIMIT:
                    _RESOLVED.clear()
                _RESOLVED[value] = result
            return result
        node.tag = self._tag(node)
        return self._construct(node)

    def _construct(self, node: yaml.ScalarNode) -> Any:
        if node.tag == _STR:
            return node.value
        if node.tag == _INT:
            body = node.value.lstrip("+-").replace("_", "").lower()
            digits = len(body[2:] if body[:2] in ("0x", "0o", "0b") else body)
            if digits > MAX_DIGITS:
                raise self._refused(node, f"an integer of {digits:,} digits is out of range; "
                                    f"expected at most {MAX_DIGITS} digits")
            if _DECIMAL.fullmatch(node.value):
                return int(node.value)
        try:
            return self.loader.construct_object(node, deep=True)
        except yaml.constructor.ConstructorError as exc:
            raise self._refused(node, f"cannot read this value: {exc.problem}") from None
        except ValueError as exc:  # a well-formed timestamp that is no date: 2026-13-45
            raise self._refused(node, f"cannot read {shown(node.value)}: {exc}") from None
        except (AttributeError, KeyError, IndexError, TypeError):
            # PyYAML's constructors assume the text fits the tag: '!!bool x' fails inside.
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            raise self._refused(node, f"cannot read {shown(node.value)} as {tag}; "
                                "remove the tag or fix the value") from None

    # _mapping and _sequence make the commonest scalars inline, without a call: those with
    # no tag in the text that are quoted (strings), or plain and known to be a string by
    # their first character, or plain and seen before; _scalar (or _key) makes the others.

    def _deeper(self, node: yaml.Node) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self._refused(node, too_deep())

    def _mapping(self, node: yaml.MappingNode) -> MarkedMap:
        self._deeper(node)
        line1, fast, resolved = self.line1, self.seen is None, _RESOLVED
        mark = node.start_mark
        result = MarkedMap((mark.line + line1, mark.column + 1))
        key_marks, value_marks = result.key_marks, result.value_marks
        for key_node, value_node in node.value:
            mark = key_node.start_mark
            key_mark = (mark.line + line1, mark.column + 1)
            tag = key_node.tag
            if fast and type(tag) is slice and type(key_node) is _ScalarNode:
                key = key_node.value
                if tag.step[0] and key[:1] in _TYPED_FIRSTS:
                    key = resolved[key] if key in resolved else self._key(key_node, key_mark)
            else:
                key = self._key(key_node, key_mark)
            if key in result:
                first = key_marks[key][0]
                raise _RefusedError(*key_mark, f"duplicate key {key!r} (first given on line "
                                    f"{first}); give each key once")
            key_marks[key] = key_mark
            mark = value_node.start_mark
            value_marks[key] = (mark.line + line1, mark.column + 1)
            tag = value_node.tag
            if fast and type(tag) is slice and type(value_node) is _ScalarNode:
                value = value_node.value
                if tag.step[0] and value[:1] in _TYPED_FIRSTS:
                    value = resolved[value] if value in resolved else self._scalar(value_node)
                result[key] = value
            else:
                result[key] = self.build(value_node)
        self.depth -= 1
        return result

    def _key(self, node: yaml.Node, mark: tuple[int, int]) -> Hashable:
        if type(node) is _ScalarNode and self._tag(node) == _MERGE:
            raise _RefusedError(*mark, "YAML merge keys ('<<') are not allowed here")
        key = self.build(node)
        if not isinstance(key, Hashable) or isinstance(key, (MarkedMap, MarkedList)):
            raise _RefusedError(*mark, "a mapping key must be a plain value, "
                                "not a list or mapping")
        return key

    def _sequence(self, node: yaml.SequenceNode) -> MarkedList:
        self._deeper(node)
        line1, fast, resolved = self.line1, self.seen is None, _RESOLVED
        mark = node.start_mark
        result = MarkedList((mark.line + line1, mark.column + 1))
        marks = result.item_marks
        for item in node.value:
            mark = item.start_mark
            marks.append((mark.line + line1, mark.column + 1))
            tag = item.tag
            if fast and type(tag) is slice and type(item) is _ScalarNode:
                value = item.value
                if tag.step[0] and value[:1] in _TYPED_FIRSTS:
                    value = resolved[value] if value in resolved else self._scalar(item)
                result.append(value)
            else:
                result.append(self.build(item))
        self.depth -= 1
        return result


#: Plain scalars YAML 1.1 (PyYAML, and so ftpress) reads as something other than text
#: but YAML 1.2 (the editors, check-jsonschema) reads as text: the 1.1 booleans
#: beyond true and false, and numbers in base 60 (1:30). ftpress reads them as text
#: too, as written: a free-text field
#: keeps them (a note 'NO' stays 'NO'), and a field that wants true or false, a number
#: or a date refuses the text, saying what to write.
_YAML11_ONLY = re.compile(
    r"yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF"
    r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?")
_BOOL, _FLOAT = "tag:yaml.org,2002:bool", "tag:yaml.org,2002:float"
#: The numbers of YAML 1.2's core schema (its ints in base 10, 8 and 16, its floats).
_NUMBER_FIRSTS = frozenset("0123456789+-.")
_CORE_INT = re.compile(r"[-+]?[0-9]+")
_CORE_OCTAL = re.compile(r"0o[0-7]+")
_CORE_HEX = re.compile(r"0x[0-9a-fA-F]+")
_CORE_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")


def _text_in_yaml12(value: str, tag: str) -> bool:
    """Whether a plain scalar 1.1 reads as ``tag`` is text in YAML 1.2."""
    return tag in (_BOOL, _INT, _FLOAT) and _YAML11_ONLY.fullmatch(value) is not None


def _yaml12_number(value: str) -> int | float | None:
    """The number YAML 1.2's core schema reads a plain scalar as, if any."""
    if _CORE_INT.fullmatch(value):
        return int(value, 10) if len(value.lstrip("+-")) <= MAX_DIGITS else None
    if _CORE_OCTAL.fullmatch(value):
        return int(value[2:], 8)
    if _CORE_HEX.fullmatch(value):
        return int(value[2:], 16)
    if _CORE_FLOAT.fullmatch(value):
        return float(value)
    return None


def represent_text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    """A string as a YAML dumper should write it to be read back by :func:`parse`:
    quoted where YAML 1.2 would read it as a number (``'0o17'``, ``'1e3'``), which
    PyYAML's dumper, knowing only YAML 1.1, writes plain."""
    if text[:1] in _NUMBER_FIRSTS and _yaml12_number(text) is not None:
        return dumper.represent_scalar(_STR, text, style="'")
    return dumper.represent_str(text)


def _read_apart(value: str, read: Any) -> str | None:
    """What to write instead of a plain scalar that YAML 1.1 reads as ``read`` and
    YAML 1.2 reads as another number (``0755``: 493 and 755; ``0o17``: text and 15;
    ``1e3``: text and 1000.0), or None if both read it alike: an editor would show
    one value and ftpress use another, so neither is taken."""
    number = _yaml12_number(value)
    if number is None or (type(read) is type(number) and read == number):
        return None
    as_11 = "text" if isinstance(read, str) else f"the number {read!r}"
    choices = f"{number!r}" if isinstance(read, str) else f"{number!r} or {read!r}"
    return (f"{value} is read as {as_11} by YAML 1.1 (ftpress) but as the number "
            f"{number!r} by YAML 1.2 (editors); write {choices} for the number you mean, "
            f"or '{value}' in quotes for text")


def read_text(file: Path, path: str) -> str:
    """The text of a hand-written file, refusing huge or non-UTF-8 files.

    ``path`` is the name to report problems under (relative to the campaign).
    """
    return decode(read_bytes(file, path), path)


def read_bytes(file: Path, path: str) -> bytes:
    """The bytes of a hand-written file, refusing huge files (see :func:`read_text`) and
    symbolic links on the way to it (:mod:`ftpress.files.nolinks`)."""
    link = link_problem(file, path)
    if link is not None:
        raise InputError([link])
    try:
        with file.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise InputError([Problem(path, 0, 0, f"cannot read file: {exc.strerror}")]) from None
    if len(data) > MAX_BYTES:
        raise InputError([too_large(path, file.stat().st_size)])
    return data


def too_large(path: str, size: int) -> Problem:
    """The problem of a file of ``size`` bytes, more than :data:`MAX_BYTES`."""
    return Problem(path, 0, 0, f"file is {size_text(size)}; expected at most "
                   f"{size_text(MAX_BYTES)} for a hand-written file")


def size_text(size: int) -> str:
    """A file size as people say it: '100 MB', '4 MB', '4.2 MB', '512 bytes' (MiB as MB)."""
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if size >= scale:
            amount = size / scale
            return f"{amount:.0f} {unit}" if amount >= 10 or amount.is_integer() else (
                f"{amount:.1f} {unit}")
    return f"{size:,} bytes"


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
    _check_depth(text, path, line_offset)
    loader = _Loader(text)
    # A document makes up to hundreds of thousands of objects (nodes, marks, values) and no
    # reference cycles: the cyclic collector, run again and again meanwhile, would free
    # nothing (it took a fifth of the time).
    collecting = gc.isenabled()
    gc.disable()
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        return _Builder(loader, line_offset, "*" in text).build(node)
    except _RefusedError as exc:
        raise InputError([Problem(path, exc.line, exc.col, exc.message)]) from None
    except yaml.MarkedYAMLError as exc:
        if exc.problem and "nesting depth" in exc.problem:
            # libyaml's own limit (1000 levels, in the PyYAML wheels since 6.0.3's
            # successors) struck before the builder counted to ours: say where ours is.
            _count_levels(text, path, line_offset)
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 + line_offset if mark else 0
        col = mark.column + 1 if mark else 0
        what = exc.problem or exc.context or "invalid YAML"
        if _tab_at(text, mark):
            what += "; indent with spaces, not tabs"
        else:
            what = _indentation(text, exc, line_offset) or what
        raise InputError([Problem(path, line, col, f"YAML syntax error: {what}")]) from None
    except yaml.reader.ReaderError as exc:  # control characters and the like
        line = text.count("\n", 0, exc.position) + 1 + line_offset
        col = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        raise InputError([Problem(path, line, col, f"character U+{code:04X} is not "
                                  "allowed in YAML; remove it")]) from None
    except yaml.YAMLError as exc:
        raise InputError([Problem(path, 1 + line_offset, 0, f"YAML error: {exc}")]) from None
    finally:
        if collecting:
            gc.enable()
        loader.dispose()


def too_deep() -> str:
    return (f"lists and mappings nested more than {MAX_DEPTH} levels deep; expected at "
            f"most {MAX_DEPTH}")


#: Depth the C composer is safe to reach before :class:`_Builder` counts levels: the
#: composer recurses in C, so a few million levels would overflow its stack.
_COMPOSER_SAFE = 2_000


def _check_depth(text: str, path: str, line_offset: int) -> None:
    """Refuse nesting the composer could not survive, before it runs.

    Nesting needs a ``[`` or ``{`` per flow level, and a block level needs its
    node one column further in at least every second level (the items of an
    indentless list are indented past its parent's key); a block list or mapping
    starts after nothing but indentation and the indicators ``-``, ``?`` and
    ``:`` on its line. So the brackets and twice the longest such start of a
    line bound the depth: cheap to take, and only a file over it (a hand-written
    one never is) pays for counting the levels from the parser's events, which
    also finds where the limit is passed.
    """
    room = (_COMPOSER_SAFE - 2 - text.count("[") - text.count("{")) // 2
    if room > 0 and re.search(f"^[ ?:-]{{{room + 1},}}", text, re.MULTILINE) is None:
        return  # the builder counts the levels as it goes
    _count_levels(text, path, line_offset)


def _count_levels(text: str, path: str, line_offset: int) -> None:
    """Count the levels from the parser's events and refuse the first past the limit,
    where it is; a syntax error before it is left to the parse proper to report.

    PyYAML's own Python parser does the counting: it keeps its states on a list, not
    the stack, and has no nesting limit of its own, where libyaml's scanner (in the
    newer wheels) looks ahead through a run of brackets and fails at its limit before
    handing over the first event."""
    loader = yaml.SafeLoader(text)
    try:
        depth = 0
        # PyYAML's stubs leave get_event untyped.
        while (event := loader.get_event()) is not None and not isinstance(  # type: ignore[no-untyped-call]
                event, yaml.StreamEndEvent):
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    mark = event.start_mark  # the parser marks every event
                    assert mark is not None
                    raise InputError([Problem(path, mark.line + 1 + line_offset,
                                              mark.column + 1, too_deep())])
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        return  # a syntax error before the limit: the parse proper reports it
    finally:
        loader.dispose()


def _indentation(text: str, exc: yaml.MarkedYAMLError, line_offset: int) -> str | None:
    """What to put right, for the syntax errors a slip of indentation makes, in place
    of PyYAML's words for what its parser missed ("did not find expected key")."""
    mark, context = exc.problem_mark, exc.context_mark
    if mark is None:
        return None
    lines = text.split("\n")
    here = lines[mark.line] if mark.line < len(lines) else ""
    indent = len(here) - len(here.lstrip(" "))
    if exc.problem == "did not find expected key" and context is not None:
        start = context.line + 1 + line_offset
        if here.lstrip().startswith("- ") and indent == context.column:
            return (f"a list item where the mapping from line {start} expects a key: give "
                    "it a key, or indent it under the key whose list it is")
        above = _line_above(lines, mark.line)
        above_indent = len(above) - len(above.lstrip(" "))
        if context.column < indent < above_indent:
            return (f"this line is indented {_spaces(indent)}: more than the keys of the "
                    f"mapping from line {start} ({_spaces(context.column)}), less than the "
                    f"line above ({_spaces(above_indent)}); line it up with the keys it "
                    "belongs with")
        if indent != context.column:
            return (f"this line is indented {_spaces(indent)}, but the keys of the "
                    f"mapping from line {start} are indented {_spaces(context.column)}: "
                    "line it up with the keys it belongs with")
    if exc.problem == "did not find expected '-' indicator" and context is not None:
        return (f"the list from line {context.line + 1 + line_offset} goes on here "
                f"without a '-': indent this line under the key it belongs to, or line "
                f"its '-' up with the items above")
    if exc.problem == "mapping values are not allowed in this context":
        if ": " in here[: mark.column] or here[: mark.column].rstrip().endswith(":"):
            return ("a ': ' inside a value reads as another key: put the value in quotes")
        above = _line_above(lines, mark.line)
        if ":" not in above:
            return (f"the line above ({above.strip()!r}) has no ':' and runs on into this "
                    "one: write it as 'key: value'")
        above_indent = len(above) - len(above.lstrip(" "))
        if indent > above_indent:
            return (f"this key is indented {_spaces(indent)}, further than the line above, "
                    "which already has its value: line it up with the keys above "
                    f"({_spaces(above_indent)}), or give the line above no value to put "
                    "this under it")
    return None


def _line_above(lines: list[str], index: int) -> str:
    """The nearest line above ``lines[index]`` with something on it but a comment."""
    return next((lines[n] for n in range(index - 1, -1, -1)
                 if lines[n].strip() and not lines[n].lstrip().startswith("#")), "")


def _spaces(count: int) -> str:
    return f"{count} space{'s' if count != 1 else ''}"


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
            # A mapping rebuilt from data kept without marks (a state file's JSON in
            # the build's store) has none: its nearest marked parent is the place.
            mark, node = marks.get(step, mark), node[step]
        elif isinstance(node, MarkedList) and isinstance(step, int) and 0 <= step < len(node):
            mark, node = node.item_marks[step], node[step]
        else:
            break
    return mark
