"""Write state files as canonical YAML, each one atomically.

Canonical means: keys in the order the model declares them; in list items,
fields holding their default left out (a file's own keys and its sections
such as ``calendar`` are always written, so a reader sees what there is);
short lists of plain values (hexes, links, hull rows) and small records (a
ship, a die roll) on one line; no anchors or aliases; nothing wrapped. The
same state always gives the same bytes, and load → save → load gives back the
same state. Comments are not kept, except
the first line pointing editors at the file's JSON Schema.

Every write goes through :mod:`ftpress.state.writeout`: a crash leaves the files
as they were or as written, never some of each.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import yaml

from ftpress.files.yamlsource import represent_text
from ftpress.state.dice import Roll
from ftpress.state.events import Audience
from ftpress.state.extension import PLACED_AFTER, Extension
from ftpress.state.files import DICE, KINDS, STATE_DIR, FileKind
from ftpress.state.hexes import Hex
from ftpress.state.model import Abstract, DiceFile, Point, Ship, State
from ftpress.state.writeout import write_out

#: Records written on one line each.
_ONE_LINE = (Ship, Roll, Abstract, Point)


class _Flow(list[Any]):
    """A list written inline: ``[2, -1]``."""


class _FlowMap(dict[str, Any]):
    """A mapping written inline: ``{name: Lis, design: esu-novgorod}``."""


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        # Indent list items under their key, as people write them by hand.
        return super().increase_indent(flow, False)


_Dumper.add_representer(_Flow, lambda d, v: d.represent_sequence(
    "tag:yaml.org,2002:seq", v, flow_style=True))
_Dumper.add_representer(_FlowMap, lambda d, v: d.represent_mapping(
    "tag:yaml.org,2002:map", v.items(), flow_style=True))
_Dumper.add_representer(datetime, lambda d, v: d.represent_scalar(
    "tag:yaml.org,2002:timestamp", v.isoformat()))
_Dumper.add_representer(str, represent_text)


def plain(value: Any, depth: int = 2) -> Any:
    """A model as plain YAML values, in canonical form.

    ``depth`` counts down through a file's own fields (2) and its sections (1);
    below that, fields holding their default are left out.
    """
    if isinstance(value, Hex):
        return _Flow([value.q, value.r])
    if isinstance(value, Audience):
        return plain(value.yaml(), depth)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {}
        for f, item in _fields(value):
            if (depth <= 0 or item is None) and _is_default(f, item):
                continue  # an unset optional field is left out at any depth
            out[f.name] = plain(item, depth - 1)
        return _FlowMap(out) if isinstance(value, _ONE_LINE) else out
    if isinstance(value, (tuple, list)):
        items = [plain(v, 0) for v in value]
        if all(_inline(v) for v in items):
            return _Flow(items)
        return items
    if isinstance(value, dict):
        return {k: plain(v, 0) for k, v in value.items()}
    return value


def _fields(record: Any) -> Iterator[tuple[dataclasses.Field[Any], Any]]:
    """A record's fields and values, its extension's (:mod:`ftpress.state.extension`)
    in place of ``ext``, or after the shared field each names (``placed_after``): in
    the file they stand beside the shared ones."""
    ext = next((getattr(record, f.name) for f in dataclasses.fields(record)
                if isinstance(getattr(record, f.name), Extension)), None)
    placed: dict[str, list[tuple[dataclasses.Field[Any], Any]]] = {}
    if ext is not None:
        for f, item in _fields(ext):
            placed.setdefault(f.metadata.get(PLACED_AFTER, "ext"), []).append((f, item))
    for f in dataclasses.fields(record):
        if f.name != "ext":
            yield f, getattr(record, f.name)
        yield from placed.get(f.name, ())


def _inline(value: Any) -> bool:
    if isinstance(value, _Flow):
        return all(not isinstance(v, (list, dict)) for v in value)
    return not isinstance(value, (list, dict))


def _is_default(f: dataclasses.Field[Any], value: Any) -> bool:
    if f.default is not dataclasses.MISSING:
        return bool(value == f.default)
    if f.default_factory is not dataclasses.MISSING:
        return bool(value == f.default_factory())
    return False


def dump(model: Any, schema_url: str | None = None) -> str:
    """One file's text; with ``schema_url``, a first line for YAML editors."""
    text = yaml.dump(plain(model), Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                     width=2**31 - 1, default_flow_style=False)
    if schema_url:
        text = f"# yaml-language-server: $schema={schema_url}\n{text}"
    return text


def schema_url(base_url: str | None, kind: FileKind) -> str | None:
    """Where the site publishes the JSON Schema of a file kind."""
    return f"{base_url}schemas/{kind.name}.json" if base_url else None


def save_state(root: Path, state: State, folder: str = STATE_DIR,
               base_url: str | None = None) -> list[str]:
    """Write every file of ``state`` into ``folder`` (``state/`` or a folder under it),
    all or nothing; returns the paths written."""
    files = {f"{folder}/{kind.file}": dump(getattr(state, kind.name),
                                           schema_url(base_url, kind)).encode("utf-8")
             for kind in KINDS.values()}
    write_out(root, f"{folder}/", files)
    return list(files)


def save_dice(root: Path, folder: str, dice: DiceFile, base_url: str | None = None) -> str:
    """Write the log of every die rolled into ``folder`` (under ``state/``)."""
    rel = f"{folder}/{DICE.file}"
    write_out(root, rel, {rel: dump(dice, schema_url(base_url, DICE)).encode("utf-8")})
    return rel
