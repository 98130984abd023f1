"""Read a state folder: every file parsed with its line marks, validated, and
cross-checked; every problem in every file reported at once.

The loaded :class:`LoadedState` keeps the parsed files, so that a later check
(the ruleset's, say) can point at the line of any value with :meth:`~LoadedState.where`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any, Protocol

from pydantic import ValidationError

from ftpress.errors import InputError, Problem, Problems
from ftpress.files import validation, yamlsource
from ftpress.secrecy.twins import UmpireKey, is_projection, read, twin
from ftpress.speed.executor import SERIAL, Executor
from ftpress.state import crossrefs
from ftpress.state.extension import (
    NO_EXTENSIONS,
    Extensions,
    StateExtension,
    for_campaign,
    keys_at,
    places,
    split,
)
from ftpress.state.files import DICE, KINDS, STATE_DIR, FileKind
from ftpress.state.model import DiceFile, State
from ftpress.state.turns import TURNS_DIR, turn_number


@dataclass(frozen=True, slots=True)
class LoadedState:
    """A state folder as loaded: the state, and each file as parsed (with marks)."""

    #: The folder, relative to the campaign: 'state' or 'state/turns/t003'.
    folder: str
    state: State
    sources: dict[str, Any]
    #: The kinds read from their sealed twin (:mod:`ftpress.secrecy.twins`): a problem in
    #: one is told at the twin's path.
    sealed: frozenset[str] = frozenset()

    def path(self, kind: str) -> str:
        rel = f"{self.folder}/{KINDS[kind].file}"
        return twin(rel) if kind in self.sealed else rel

    def where(self, kind: str, *loc: Hashable, key: bool = False) -> tuple[str, int, int]:
        """``(path, line, col)`` of the value at ``loc`` in the file of ``kind``."""
        line, col = yamlsource.locate(self.sources[kind], loc, key=key)
        return self.path(kind), line, col


def has_state(root: Path) -> bool:
    """Does the campaign keep a state (else it is a blog alone)?"""
    return (root / STATE_DIR).is_dir()


#: What a state file is known by: its kind's name (with the ruleset's, when the
#: ruleset's extension adds to that kind) and a digest of its bytes (:func:`_key`).
FileKey = tuple[str, str]
#: A state file parsed by the executor: its key, and what :func:`_prepared` made of it.
ParsedFile = tuple[FileKey, Any, str | None]
#: How many parsed files a store keeps in memory (the oldest used go first): every
#: distinct file of several hundred turns' snapshots.
PARSED_LIMIT = 4096


class Store(Protocol):
    """Where parsed files are kept: the build's cache (``ftpress.speed.buildcache.RenderCache``),
    or, without one, :class:`Scratch` for one load.

    ``parsed`` holds the models of files parsed and validated in this process, by
    :func:`_key`. A campaign's turn snapshots repeat most files unchanged from turn to
    turn (the map, the designs), and ``ftpress serve`` reloads the same files on every
    rebuild with the same store: bytes seen before are not parsed again. The models
    are never changed once made, so one copy serves every folder that holds the same
    bytes. Only files that loaded without a problem are kept, so every problem is
    found and reported afresh. ``get_many`` and ``put`` keep each file's parsed YAML,
    as JSON, between runs.
    """

    parsed: dict[FileKey, Any]

    def get_many(self, keys: Iterable[str]) -> dict[str, tuple[Any, ...]]: ...

    def put(self, key: str, value: tuple[Any, ...]) -> None: ...


class Scratch:
    """A store for one load, in memory: what it keeps goes with it."""

    def __init__(self) -> None:
        self.parsed: dict[FileKey, Any] = {}

    def get_many(self, keys: Iterable[str]) -> dict[str, tuple[Any, ...]]:
        return {}

    def put(self, key: str, value: tuple[Any, ...]) -> None:
        pass


def read_file(root: Path, rel: str, kind: FileKind,
              ext: StateExtension | None = None,
              umpire: UmpireKey | None = None) -> tuple[Any, Any]:
    """One file parsed and validated (with the keys ``ext`` adds): ``(parsed data,
    model)``; raises InputError. With ``umpire``, read from its twin if it has one."""
    data, model = _read(root, rel, kind, Scratch(), ext, umpire)
    if data is None:
        raw, shown = read(root, rel, umpire)
        data = _mapping(raw, shown, kind)
    return data, model


def _read(root: Path, rel: str, kind: FileKind, store: Store,
          ext: StateExtension | None = None,
          umpire: UmpireKey | None = None) -> tuple[Any, Any]:
    """Like :func:`read_file`, but the parsed data is None when it came from ``store``
    (without line marks): the file is parsed again only if a problem needs a line."""
    file = root / rel
    if not file.is_file():
        raise InputError([Problem(rel, 0, 0, f"missing; expected {kind.about}")])
    raw, shown = read(root, rel, umpire)
    # What a twin holds stays in memory: the store's copy on disk is not encrypted.
    kept = shown == rel
    key = _key(kind, raw, ext)
    model = store.parsed.pop(key, None)
    found: tuple[Any, Any] | None = (None, model) if model is not None else None
    if found is None and kept:
        found = _from_store(store, key[1], rel, kind, ext)
    if found is None:
        found = _parse(raw, shown, kind, ext)
        if kept:
            _to_store(store, key[1], found[0])
    _keep(store, key, found[1])
    return found


def _keep(store: Store, key: FileKey, model: Any) -> None:
    """Keep ``model`` in ``store``'s memory, (re)inserted last: the most recently used."""
    store.parsed[key] = model
    while len(store.parsed) > PARSED_LIMIT:
        del store.parsed[next(iter(store.parsed))]


# The parsed YAML is kept as JSON, dates tagged; the model is validated from it again
# (pydantic's own JSON of the models does not read back: a hex dumps as a mapping).
_DATE, _DATETIME = "$ftpress-date", "$ftpress-datetime"


def _tag(value: object) -> dict[str, str]:
    if isinstance(value, datetime):
        return {_DATETIME: value.isoformat()}
    if isinstance(value, date):
        return {_DATE: value.isoformat()}
    raise TypeError(f"{type(value).__name__} is not kept")


def _untag(value: dict[str, Any]) -> Any:
    if len(value) == 1:
        if _DATETIME in value:
            return datetime.fromisoformat(value[_DATETIME])
        if _DATE in value:
            return date.fromisoformat(value[_DATE])
    return value


def _to_store(store: Store, digest: str, data: Any) -> None:
    """Keep ``data`` if its JSON reads back exactly (keys all strings, and so on)."""
    text = yaml_text(data)
    if text is not None:
        keep_yaml(store, "state", digest, text)


def yaml_text(data: Any) -> str | None:
    """A file's parsed YAML as the store keeps it (:func:`keep_yaml`): ``data`` as JSON,
    if it reads back exactly; None if it cannot be."""
    timed: list[datetime] = []

    def tag(value: object) -> dict[str, str]:
        if isinstance(value, datetime):
            timed.append(value)
        return _tag(value)

    try:
        text = json.dumps(data, default=tag, ensure_ascii=False)
    except (TypeError, ValueError):
        return None
    back = json.loads(text, object_hook=_untag)
    # With a datetime, repr as well as ==: equal ones with other time zone objects
    # print otherwise. (The other values JSON keeps are equal only if the same.)
    return text if back == data and (not timed or repr(back) == repr(data)) else None


def _digest(raw: bytes) -> str:
    """What a file's bytes are known by, in this process and in the store."""
    return hashlib.blake2b(raw, digest_size=20).hexdigest()


def _key(kind: FileKind, raw: bytes, ext: StateExtension | None = None) -> FileKey:
    """What a state file of ``kind`` holding ``raw`` is known by in :attr:`Store.parsed`: the
    same bytes make another model under another ruleset's extension."""
    if ext is not None and any(record in ext.records for record, _ in places(kind.name)):
        return f"{kind.name}/{ext.name}", _digest(raw)
    return kind.name, _digest(raw)


def _store_key(digest: str, kind: str = "state") -> str:
    return f"{kind}-yaml\0{digest}"


def kept_yaml(store: Store, kind: str, digests: Iterable[str]) -> dict[str, Any]:
    """The parsed YAML (without marks) of the files of ``kind`` whose bytes have these
    ``digests``, by digest, as an earlier run kept them in ``store`` (:func:`keep_yaml`)."""
    keys = {_store_key(digest, kind): digest for digest in digests}
    return {keys[key]: json.loads(value[0], object_hook=_untag)
            for key, value in store.get_many(keys).items()}


def keep_yaml(store: Store, kind: str, digest: str, text: str) -> None:
    """Keep a file's parsed YAML (:func:`yaml_text`) in ``store`` for later runs. Only for
    a file that loaded without a problem, and never a twin's: what the store keeps on
    disk is not encrypted."""
    store.put(_store_key(digest, kind), (text,))


def _from_store(store: Store, digest: str, rel: str, kind: FileKind,
                ext: StateExtension | None) -> tuple[None, Any] | None:
    key = _store_key(digest)
    value = store.get_many([key]).get(key)
    model = _from_json(value[0], kind, ext) if value is not None else None
    return (None, model) if model is not None else None


def _from_json(text: str, kind: FileKind, ext: StateExtension | None = None) -> Any | None:
    """The model of a file kept as JSON (see :func:`yaml_text`); None if it has a
    problem: the file is then parsed, to say where."""
    data = json.loads(text, object_hook=_untag)
    if not isinstance(data, dict):
        return None
    data, problems = split(data, kind.name, "", ext)
    if problems:
        return None
    try:
        return kind.adapter.validate_python(data)
    except ValidationError:
        return None


class _Sources(dict[str, Any]):
    """Each file of a folder as parsed with line marks; a file that came from the
    store is parsed when a problem first needs one of its lines."""

    def __init__(self, root: Path, folder: str, umpire: UmpireKey | None = None) -> None:
        super().__init__()
        self.root, self.folder, self.umpire = root, folder, umpire

    def __missing__(self, name: str) -> Any:
        kind = KINDS[name]
        raw, shown = read(self.root, f"{self.folder}/{kind.file}", self.umpire)
        self[name] = _mapping(raw, shown, kind)
        return self[name]


def _parse(raw: bytes, rel: str, kind: FileKind,
           ext: StateExtension | None = None) -> tuple[Any, Any]:
    data = _mapping(raw, rel, kind)
    return data, validate_file(data, rel, kind, ext)


def validate_file(data: Any, rel: str, kind: FileKind, ext: StateExtension | None) -> Any:
    """The model of a file of ``kind`` parsed at ``rel``, the keys of ``ext`` in its
    records' extensions; raises with every problem of both."""
    shared, problems = split(data, kind.name, rel, ext)
    try:
        model = validation.validate(kind.adapter, shared, rel,
                                    more_keys=lambda loc: keys_at(ext, kind.name, loc))
    except InputError as exc:
        raise InputError([*problems, *exc.problems]) from None
    if problems:
        raise InputError(problems)
    return model


def _mapping(raw: bytes, rel: str, kind: FileKind) -> Any:
    """A state file's bytes parsed, with marks; raises unless they hold a mapping."""
    data = yamlsource.parse(yamlsource.decode(raw, rel), rel)
    if data is None:
        data = yamlsource.MarkedMap((1, 1))
    if not isinstance(data, dict):
        first = next(iter(kind.adapter.json_schema().get("properties", {})), "…")
        raise InputError([Problem(rel, 1, 1, f"expected a mapping such as '{first}: …' "
                                  f"holding {kind.about}")])
    return data


def load_state(root: Path, folder: str = STATE_DIR, store: Store | None = None, *,
               extensions: Extensions = NO_EXTENSIONS,
               umpire: UmpireKey | None = None) -> LoadedState:
    """Load and check one state folder; raise with every problem found.

    ``store`` keeps parsed files (see :class:`Store`): a file read before is not
    parsed again unless a problem in it needs a line. ``extensions``: every ruleset's
    additions to the state, by name; the files are read with those of the ruleset
    ``campaign.yaml`` names (without it, a key of a ruleset's is unknown).
    ``umpire``: the umpire's key, to read each file's sealed twin
    (:mod:`ftpress.secrecy.twins`); without it, the plain files.
    """
    store = store if store is not None else Scratch()
    problems = Problems()
    sources = _Sources(root, folder, umpire)
    models: dict[str, Any] = {}
    ext: StateExtension | None = None
    for kind in KINDS.values():
        rel = f"{folder}/{kind.file}"
        try:
            data, models[kind.name] = _read(root, rel, kind, store, ext, umpire)
        except InputError as exc:
            problems.extend(exc.problems)
        else:
            if data is not None:
                sources[kind.name] = data
        if kind.name == "campaign":  # the first: it names the ruleset
            ext = _extension(models.get("campaign"), sources, extensions)
    # Cross-references are checked among the files that did load, so one broken
    # file does not hide the problems of the others.
    problems.extend(crossrefs.cross_references(folder, models, sources))
    problems.raise_if_any()
    state = State(**models)
    sealed = frozenset(kind.name for kind in KINDS.values()
                       if umpire is not None and is_projection(root, f"{folder}/{kind.file}"))
    return LoadedState(folder, state, sources, sealed)


def _extension(campaign: Any, sources: _Sources, extensions: Extensions
               ) -> StateExtension | None:
    """The extension of the ruleset the folder's campaign names; when ``campaign.yaml``
    did not validate, the ruleset it names all the same, so that the other files'
    problems are still found."""
    if not extensions:
        return None
    if campaign is not None:
        return extensions.get(campaign.ruleset)
    try:
        return for_campaign(sources["campaign"], extensions)
    except (InputError, OSError):  # unreadable or missing: said already
        return None


def load_dice(root: Path, folder: str, store: Store | None = None,
              umpire: UmpireKey | None = None) -> DiceFile:
    """A snapshot's dice log (its twin's, with ``umpire``)."""
    dice: DiceFile = _read(root, f"{folder}/{DICE.file}", DICE,
                           store if store is not None else Scratch(), umpire=umpire)[1]
    return dice


def snapshot_folders(root: Path) -> tuple[str, ...]:
    """Every turn snapshot folder, in turn order."""
    base = root / TURNS_DIR
    if not base.is_dir():
        return ()
    found = []
    for entry in base.iterdir():
        if entry.is_dir() and not entry.name.startswith("."):
            found.append(entry.name)
    return tuple(f"{TURNS_DIR}/{name}" for name in sorted(found, key=_turn_order))


def _turn_order(name: str) -> tuple[int, str]:
    try:
        return turn_number(name), name
    except ValueError:
        return -1, name


def _prefetch(root: Path, folders: list[str], store: Store, executor: Executor,
              ext: StateExtension | None, umpire: UmpireKey | None = None) -> None:
    """Parse and validate, with ``executor``, the files of ``folders`` that ``store``
    has not seen (read with ``ext``, the extension of the campaign's ruleset): their
    models wait in it for the load that follows, which then parses nothing. Each
    distinct file is parsed once, however many folders hold it. A file with a problem
    is left to that load, to report."""
    todo: dict[FileKey, tuple[str, FileKind, bytes]] = {}
    for folder in folders:
        for kind in (*KINDS.values(), DICE):
            rel = f"{folder}/{kind.file}"
            if umpire is not None and is_projection(root, rel):
                continue  # its twin is opened by the load itself, and kept in memory only
            try:
                raw = yamlsource.read_bytes(root / rel, rel) if (root / rel).is_file() else None
            except InputError:
                continue
            if raw is not None:
                key = _key(kind, raw, ext)
                if key not in store.parsed:
                    todo.setdefault(key, (rel, kind, raw))
    if todo:
        kept = store.get_many(_store_key(digest) for _, digest in todo)
        todo = {k: v for k, v in todo.items() if _store_key(k[1]) not in kept}
    items = list(todo.items())
    made = executor.map(lambda item: _prepared(*item[1], ext), items)
    adopt(((key, *result) for (key, _), result in zip(items, made, strict=True)
           if result is not None), store, ext)


def adopt(parsed: Iterable[ParsedFile], store: Store, ext: StateExtension | None = None
          ) -> None:
    """Take files parsed elsewhere (:func:`_prepared`) as if parsed here: their models
    wait in ``store`` for the load, and their JSON goes to it too. A file whose model
    does not validate is left to the load, to say where."""
    for key, model, text in parsed:
        if model is None and text is not None:
            kind = KINDS.get(key[0].split("/")[0], DICE)  # the dice's is not in KINDS
            model = _from_json(text, kind, ext)
        if model is None:
            continue
        _keep(store, key, model)
        if text is not None:
            keep_yaml(store, "state", key[1], text)


def _campaign_extension(root: Path, store: Store, extensions: Extensions
                        ) -> StateExtension | None:
    """The extension of the ruleset ``state/campaign.yaml`` names (its keys are shared
    by every ruleset); None when it does not load: the load says why."""
    if not extensions:
        return None
    try:
        campaign = _read(root, f"{STATE_DIR}/{KINDS['campaign'].file}", KINDS["campaign"],
                         store)[1]
    except InputError:
        return None
    return extensions.get(campaign.ruleset)


def _prepared(rel: str, kind: FileKind, raw: bytes, ext: StateExtension | None = None
              ) -> tuple[Any, str | None] | None:
    """What the load is handed of a file the executor parsed: ``(None, its JSON)``,
    validated by :func:`adopt` (from a worker process, the JSON crosses and is validated
    in less time than the model takes to pickle and unpickle: a frozen dataclass is
    rebuilt field by field), or ``(its model, None)`` if the JSON would not read back
    the same; None if the file does not parse or validate (the load then says where)."""
    try:
        data = _mapping(raw, rel, kind)
        text = yaml_text(data)
        return (None, text) if text is not None else \
            (validate_file(data, rel, kind, ext), None)
    except InputError:
        return None


def load_tree(root: Path, store: Store | None = None, executor: Executor = SERIAL, *,
              extensions: Extensions = NO_EXTENSIONS, umpire: UmpireKey | None = None
              ) -> tuple[tuple[LoadedState, ...], list[Problem]]:
    """``state/`` and every turn snapshot under it, loaded and checked.

    Returns the folders that loaded, current state first, and every problem
    found in any of them (stray files and misnamed turn folders included).
    ``store``, ``extensions``, ``umpire``: see :func:`load_state`. ``executor`` parses
    the distinct files first.
    """
    store = store if store is not None else Scratch()
    problems: list[Problem] = []
    base = root / STATE_DIR
    known = {k.file for k in KINDS.values()}
    for entry in sorted(base.iterdir()):
        if entry.name.startswith(".") or entry.name == "turns":
            continue
        if entry.name not in known and entry.name.removesuffix(".age") not in known:
            problems.append(Problem(f"{STATE_DIR}/{entry.name}", 0, 0, "not a state file; "
                                    f"expected only {', '.join(sorted(known))} and turns/"))
    folders = [STATE_DIR]
    for folder in snapshot_folders(root):
        try:
            turn_number(folder.rsplit("/", 1)[1])
        except ValueError as exc:
            problems.append(Problem(folder, 0, 0, str(exc)))
            continue
        folders.append(folder)
    _prefetch(root, folders, store, executor, _campaign_extension(root, store, extensions),
              umpire)
    for folder in folders[1:]:
        if (root / folder / DICE.file).exists():
            try:
                load_dice(root, folder, store, umpire)
            except InputError as exc:
                problems.extend(exc.problems)
    loaded = []
    for folder in folders:
        try:
            loaded.append(load_state(root, folder, store, extensions=extensions, umpire=umpire))
        except InputError as exc:
            problems.extend(exc.problems)
    return tuple(loaded), problems
