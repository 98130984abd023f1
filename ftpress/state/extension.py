"""What a ruleset adds to the shared state: one extension record per kind of record.

The shared models (:mod:`ftpress.state.model`) hold what every ruleset keeps. A
ruleset that keeps more about a system, a player or the map declares a frozen
dataclass for it (a subclass of :class:`Extension`) in its own package, and
hands the loader a :class:`StateExtension` naming them. In the file, the
extension's keys stand beside the shared ones, as the person who writes the file
sees one system, not two records::

    - id: willet          # shared
      owner: nsl          # shared
      position: {x: 7, y: -4}   # sct's (its SctSystem)

The loader takes the extension's keys out of each record, validates them with the
extension's own model (errors at their lines, as any other), and hands the rest to
the shared model with the extension record in its ``ext`` field; the saver writes
the record's keys back in place. A key that is neither the shared model's nor the
ruleset's is refused at its line, like any unknown key.

The state never imports a ruleset: the caller (:mod:`ftpress.store.campaign`) hands the
loader every ruleset's extension by name, and the loader picks the one the
campaign's ``ruleset`` names. So ``campaign.yaml``, which names it, holds shared
keys only (a ruleset's own options go in its ``setup.options``).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

from ftpress.errors import Problem
from ftpress.files import validation, yamlsource


@dataclass(frozen=True, slots=True)
class Extension:
    """The base of a ruleset's extension records. Every field has a default: a
    record whose extension holds only defaults has none (``ext`` is None), so the
    same record compares equal however it was made."""


E = TypeVar("E", bound=Extension)


def placed_after(key: str) -> dict[str, str]:
    """The metadata of an extension field written in the file right after the shared
    record's ``key`` (where it stood before the ruleset took it over), not at the end."""
    return {PLACED_AFTER: key}


#: The metadata key of :func:`placed_after`.
PLACED_AFTER = "placed_after"


def extension_of(record: Any, kind: type[E]) -> E:
    """``record``'s extension of ``kind``, or one holding the defaults."""
    found = record.ext
    return found if isinstance(found, kind) else kind()


def extended(record: Any, kind: type[E], **changes: Any) -> Any:
    """A copy of ``record`` whose extension of ``kind`` has ``changes`` made."""
    return dataclasses.replace(record, ext=dataclasses.replace(extension_of(record, kind),
                                                               **changes))


def normalised(ext: Extension | None) -> Extension | None:
    """``ext``, or None if it holds only its defaults (see :class:`Extension`)."""
    if ext is None or ext == type(ext)():
        return None
    return ext


def check_extension(value: Any) -> Extension | None:
    """The validator of a shared record's ``ext`` field: only the loader fills it, with
    a record it validated; a file that names ``ext`` itself is refused."""
    if value is None or isinstance(value, Extension):
        return value
    raise ValueError("'ext' is not a key of a state file; write the ruleset's keys beside "
                     "the others")


#: The records a ruleset may extend: record kind → where they are, each place the
#: file kind that holds them and the keys leading to them (at a list, every item
#: is followed; ``()``: the file's own top-level mapping).
RECORDS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "player": (("players", ("players",)),),
    "map": (("map", ()),),
    "system": (("map", ("systems",)),),
    "design": (("designs", ("designs",)),),
    "group": (("groups", ("groups",)),),
    "ship": (("groups", ("groups", "ships")),),
    "queues": (("queues", ()),),
}

#: The record kinds that are a whole file holding entries of every player (each
#: entry naming its ``owner``): no one owns the record, each viewer knows their own
#: part of it (:attr:`Knowledge.part`).
SHARED_RECORDS = frozenset({"queues"})


def places(file_kind: str) -> Iterator[tuple[str, tuple[str, ...]]]:
    """Each record kind found in files of ``file_kind``, with the keys leading to it."""
    for record, found in RECORDS.items():
        for kind, steps in found:
            if kind == file_kind:
                yield record, steps


def kept(ext: Extension) -> Extension:
    """An outsider knows all of this extension record (it holds public facts only)."""
    return ext


def withheld(ext: Extension) -> Extension | None:
    """An outsider knows nothing of this extension record."""
    return None


def always_seen(record: Any) -> bool:
    """An outsider sees the record (a group on the map, say) where it is."""
    return True


def treasury_told(player: Any) -> int:
    """An outsider knows a power's treasury as it stands (the rules keep no money
    from anyone)."""
    return int(player.treasury)


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What someone who does not own a record may know of what the ruleset keeps
    about it: how :func:`ftpress.secrecy.knowledge.known_state` projects the ruleset's
    extension records for a viewer. The shared fields are the shared model's to
    project (a group's ships unless contacted, its endurance, its dummy flag); the
    ruleset declares only its own.

    The viewer's own records (their player, their groups and ships, the systems
    they hold) are theirs whole; every other record's extension goes through
    ``outsider``. A file every player holds entries in (``queues``) is nobody's
    record: each viewer knows their ``part`` of its extension. A record kind not
    named is withheld from outsiders: a ruleset that declares nothing tells nothing
    of its own keys.
    """

    #: The rules hide nothing from anyone: every viewer knows the whole state.
    hides_nothing: bool = False
    #: Record kind (a key of :data:`RECORDS`) → the extension as an outsider knows it
    #: (:func:`kept`, :func:`withheld`, or the ruleset's own function).
    outsider: Mapping[str, Callable[[Any], Extension | None]] = field(default_factory=dict)
    #: Record kind of :data:`SHARED_RECORDS` → the extension as a viewer knows it, given
    #: the viewer's player id (None: the public): their own entries, say. A kind not
    #: named is withheld from everyone but the umpire.
    part: Mapping[str, Callable[[Any, str | None], Extension | None]] = field(
        default_factory=dict)
    #: Does an outsider see the group at all (False: its counter is off the map, or it
    #: went where they cannot follow), given the group as the full state holds it.
    group_seen: Callable[[Any], bool] = always_seen
    #: What an outsider knows of a power's treasury, given the player as the full state
    #: holds it: the figure the rules make public (each ruleset's rulebook says which).
    treasury: Callable[[Any], int] = treasury_told


#: What a ruleset that declares nothing lets outsiders know of its keys: nothing.
HIDES_ITS_OWN = Knowledge()


@dataclass(frozen=True, slots=True)
class StateExtension:
    """One ruleset's additions to the state: record kind (a key of :data:`RECORDS`) →
    the ruleset's extension record for it, and what others may know of them."""

    #: The ruleset's name, as ``state/campaign.yaml`` gives it.
    name: str
    records: Mapping[str, type[Extension]]
    knowledge: Knowledge = HIDES_ITS_OWN
    _adapters: dict[str, TypeAdapter[Any]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        unknown = sorted((set(self.records) | set(self.knowledge.outsider)) - set(RECORDS))
        if unknown:
            raise TypeError(f"{self.name}: no shared record kind {unknown[0]!r}; expected "
                            f"one of {', '.join(RECORDS)}")
        misplaced = sorted((set(self.knowledge.outsider) & SHARED_RECORDS)
                           | (set(self.knowledge.part) - SHARED_RECORDS))
        if misplaced:
            raise TypeError(f"{self.name}: {misplaced[0]!r} is projected by the wrong hook; "
                            f"'part' projects {', '.join(sorted(SHARED_RECORDS))} (a file "
                            "every player holds entries in), 'outsider' every other kind")
        for kind, record in self.records.items():
            required = [f.name for f in dataclasses.fields(record)
                        if f.default is dataclasses.MISSING
                        and f.default_factory is dataclasses.MISSING]
            if not issubclass(record, Extension) or required:
                raise TypeError(f"{self.name}: the {kind} record {record.__name__} must be an "
                                f"Extension whose every field has a default (not {required})")
        object.__setattr__(self, "_adapters", {k: TypeAdapter(t)
                                               for k, t in self.records.items()})

    def keys(self, record: str) -> tuple[str, ...]:
        """The keys the extension adds to records of kind ``record``."""
        found = self.records.get(record)
        return tuple(f.name for f in dataclasses.fields(found)) if found else ()

    def adapter(self, record: str) -> TypeAdapter[Any] | None:
        return self._adapters.get(record)


#: Every ruleset's extension, by ruleset name: what the loader is handed.
Extensions = Mapping[str, StateExtension]
NO_EXTENSIONS: Extensions = {}


def for_campaign(campaign: Any, extensions: Extensions) -> StateExtension | None:
    """The extension of the ruleset a parsed ``campaign.yaml`` names (None: it names
    none, or one without an extension; the ruleset's check says which)."""
    name = campaign.get("ruleset") if isinstance(campaign, dict) else None
    return extensions.get(name) if isinstance(name, str) else None


def keys_at(ext: StateExtension | None, file_kind: str, loc: tuple[Hashable, ...]
            ) -> tuple[str, ...]:
    """The keys ``ext`` adds to the record at ``loc`` in a file of ``file_kind``."""
    if ext is None:
        return ()
    steps = tuple(step for step in loc if not isinstance(step, int))
    return next((ext.keys(record) for record, path in places(file_kind)
                 if path == steps and record in ext.records), ())


def split(data: Any, file_kind: str, path: str, ext: StateExtension | None
          ) -> tuple[Any, list[Problem]]:
    """A parsed state file with each record's extension keys taken out and validated
    into its ``ext`` record: ``(the data for the shared model, the problems)``.

    ``data`` is not changed (it keeps the file's marks for later messages): the
    records with an extension, and the lists and mappings above them, are copies
    carrying the same marks."""
    problems: list[Problem] = []
    for record, steps in places(file_kind):
        data = _rebuild(data, steps, (), functools.partial(_extended, kind=record, ext=ext,
                                                           path=path, problems=problems))
    return data, problems


def _extended(record: Any, at: tuple[Hashable, ...], *, kind: str, ext: StateExtension | None,
              path: str, problems: list[Problem]) -> Any:
    """One record's mapping with its extension keys replaced by ``ext: <record>``."""
    if not isinstance(record, dict):
        return record  # the shared model says what is wrong with it
    if "ext" in record:
        line, col = yamlsource.locate(record, ("ext",), key=True)
        problems.append(Problem(path, line, col, "unknown key 'ext'; a ruleset's keys stand "
                                "beside the others"))
        record = _copy(record, drop={"ext"})
    adapter = ext.adapter(kind) if ext else None
    keys = set(ext.keys(kind)) & set(record) if ext else set()
    if adapter is None or not keys:
        return record
    mine, slipped = validation.strict_types(adapter, _copy(record, keep=keys), path, within=at)
    rest = _copy(record, drop=keys)
    try:
        rest["ext"] = normalised(adapter.validate_python(mine))
    except ValidationError as exc:
        slipped = validation.merged(validation.problems(exc, mine, path, adapter, within=at),
                                    slipped)
    problems.extend(slipped)
    return rest


def _rebuild(node: Any, steps: tuple[str, ...], at: tuple[Hashable, ...],
             change: Callable[[Any, tuple[Hashable, ...]], Any]) -> Any:
    """``node`` (at ``at`` in the file) with ``change`` applied to every record ``steps``
    lead to; copied only where something changed."""
    if isinstance(node, list):
        items = [_rebuild(item, steps, (*at, i), change) for i, item in enumerate(node)]
        if all(a is b for a, b in zip(items, node, strict=True)):
            return node
        items_copy = yamlsource.MarkedList(getattr(node, "mark", (0, 0)))
        items_copy.extend(items)
        items_copy.item_marks = list(getattr(node, "item_marks", ()))
        return items_copy
    if not steps:
        return change(node, at)
    if not isinstance(node, dict) or steps[0] not in node:
        return node
    inner = _rebuild(node[steps[0]], steps[1:], (*at, steps[0]), change)
    if inner is node[steps[0]]:
        return node
    copy = _copy(node)
    copy[steps[0]] = inner
    return copy


def _copy(node: dict[Hashable, Any], *, keep: set[str] | None = None,
          drop: set[str] | frozenset[str] = frozenset()) -> yamlsource.MarkedMap:
    """A copy of a parsed mapping (with its marks) holding ``keep`` (default: all)
    of its keys but ``drop``."""
    copy = yamlsource.MarkedMap(getattr(node, "mark", (0, 0)))
    keys = [k for k in node if (keep is None or k in keep) and k not in drop]
    key_marks = getattr(node, "key_marks", {})
    value_marks = getattr(node, "value_marks", {})
    for k in keys:
        copy[k] = node[k]
        if k in key_marks:
            copy.key_marks[k] = key_marks[k]
        if k in value_marks:
            copy.value_marks[k] = value_marks[k]
    return copy


def schema(base: dict[str, Any], file_kind: str, ext: StateExtension | None
           ) -> dict[str, Any]:
    """The JSON Schema of a file kind with ``ext``'s keys beside the shared ones, and
    no ``ext`` key (the file never holds one). ``base`` is the shared model's schema."""
    out = dict(base)
    defs = dict(out.get("$defs", {}))
    for record, steps in places(file_kind):
        name = _definition(out, defs, steps)
        where = dict(out if name is None else defs[name])
        props = dict(where.get("properties", {}))
        props.pop("ext", None)
        adapter = ext.adapter(record) if ext else None
        if ext is not None and adapter is not None:
            added = adapter.json_schema()
            defs.update(added.get("$defs", {}))
            props = _placed(props, added.get("properties", {}), ext.records[record])
        where["properties"] = props
        if name is None:
            out = {**where, **({"$defs": defs} if defs else {})}
        else:
            defs[name] = where
    for name, found in defs.items():  # a shared record inside an extension's, too
        if "ext" in found.get("properties", {}):
            defs[name] = {**found, "properties": {k: v for k, v in found["properties"].items()
                                                  if k != "ext"}}
    if defs:
        out["$defs"] = defs
    return out


def _placed(shared: dict[str, Any], added: dict[str, Any], record: type[Extension]
            ) -> dict[str, Any]:
    """The properties of a record's schema: the shared ones, each of the extension's
    after the shared one it is placed after (:func:`placed_after`), the rest last."""
    after = {f.name: f.metadata[PLACED_AFTER] for f in dataclasses.fields(record)
             if PLACED_AFTER in f.metadata}
    out: dict[str, Any] = {}
    for key, value in shared.items():
        out[key] = value
        out.update((k, v) for k, v in added.items() if after.get(k) == key)
    out.update((k, v) for k, v in added.items() if k not in out)
    return out


def _definition(top: dict[str, Any], defs: dict[str, Any], steps: tuple[str, ...]
                ) -> str | None:
    """The name in ``$defs`` of the records ``steps`` lead to (None: ``top`` itself)."""
    name = None
    node = top
    for step in steps:
        node = node["properties"][step]
        while "$ref" not in node:  # through a list's items, an optional's anyOf
            node = node["items"] if "items" in node else next(
                n for n in node["anyOf"] if n.get("type") != "null")
        name = node["$ref"].rsplit("/", 1)[-1]
        node = defs[name]
    return name
