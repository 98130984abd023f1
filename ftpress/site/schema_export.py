"""JSON Schemas of every file a campaign is made of, exported from the models.

They are published with the site under ``/schemas/<kind>.json`` so that an
editor that reads ``# yaml-language-server: $schema=…`` lines (VS Code's YAML
extension and others) can complete keys and underline mistakes as players
type. ``ftpress check`` applies the same models, with better messages.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from ftpress.content.pages import PAGE_META
from ftpress.content.posts import POST_META
from ftpress.content.rulebook import RULE_META
from ftpress.errors import InputError
from ftpress.files.config import CONFIG_FILE, config_schema, load_config
from ftpress.files.validation import published
from ftpress.files.write import write_file
from ftpress.rules import RULESETS, STATE_EXTENSIONS
from ftpress.state.battle_results import ADAPTER as BATTLE_ADAPTER
from ftpress.state.events import EventsFile, TurnRecord
from ftpress.state.extension import schema as with_extension
from ftpress.state.files import DICE, KINDS, STATE_DIR
from ftpress.state.load import read_file

SCHEMAS_DIR = "schemas"
_DRAFT = "https://json-schema.org/draft/2020-12/schema"


def all_schemas(base_url: str | None, ruleset: str | None = None) -> dict[str, dict[str, Any]]:
    """Schema name → JSON Schema, each with its ``$id`` under ``base_url``; the state
    files' with the keys the campaign's ``ruleset`` adds (:mod:`ftpress.state.extension`)."""
    found: dict[str, tuple[dict[str, Any], str]] = {
        "site": (config_schema(), f"{CONFIG_FILE}: the site's settings"),
        "post": (POST_META.json_schema(), "the front matter of a post, "
                 "content/posts/YYYY/MM/DD-slug.md"),
        "page": (PAGE_META.json_schema(), "the front matter of a page, content/pages/slug.md"),
        "rule": (RULE_META.json_schema(), "the front matter of a rule file, "
                 "content/rules/NN-title.md"),
    }
    for name, each in sorted(RULESETS.items()):
        # Each ruleset's order format (orders-<ruleset>.json, or the name it keeps). A
        # design a set-up file adds is written as designs.yaml writes one: no 'ext' key.
        about = (": one player's orders for one strategic turn" if each.orders_schema == "orders"
                 else f" under the {name} ruleset: one player's orders for one turn")
        found[each.orders_schema] = (
            with_extension(each.orders_adapter.json_schema(), "orders", None),
            f"orders/<turn-id>/<player-id>.yaml{about}")
    found["battle"] = (BATTLE_ADAPTER.json_schema(), "battles/<turn-id>/<battle-id>.yaml: "
                       "the result of a battle fought on the tabletop, filled in by the umpire")
    found["events"] = (_events_schema(), "state/turns/<turn-id>/"
                       "events.yaml: what happened in a turn, in order")
    found["turn"] = (TypeAdapter(TurnRecord).json_schema(), "state/turns/<turn-id>/turn.yaml: "
                     "how a turn's dice were seeded, the umpire's secret revealed")
    extension = STATE_EXTENSIONS.get(ruleset) if ruleset else None
    for kind in (*KINDS.values(), DICE):
        where = "state/turns/<turn-id>/" if kind is DICE else "state/"
        found[kind.name] = (with_extension(kind.adapter.json_schema(), kind.name, extension),
                            f"{where}{kind.file}: {kind.about}")
    schemas = {}
    for name, (schema, about) in found.items():
        head = {"$schema": _DRAFT}
        if base_url:
            head["$id"] = f"{base_url}{SCHEMAS_DIR}/{name}.json"
        schemas[name] = {**head, **published(_closed(schema)), "description": about}
    return schemas


def _closed(node: Any) -> Any:
    """``node`` with every mapping keyed by id (``patternProperties``, pydantic's
    schema of ``dict[Id, …]``) closed to other keys: the model refuses a key that is
    no id, so an editor must underline it too."""
    if isinstance(node, list):
        return [_closed(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _closed(value) for key, value in node.items()}
    if "patternProperties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


def _events_schema() -> dict[str, Any]:
    """The event log's schema, its kinds those of every registered ruleset (which of
    them a campaign may record, its own ruleset says: ``ftpress check`` tells)."""
    schema = TypeAdapter(EventsFile).json_schema()
    kinds = sorted({k for ruleset in RULESETS.values() for k in ruleset.report.kind_names})
    schema["$defs"]["Event"]["properties"]["kind"] = {
        "title": "Kind", "type": "string", "enum": kinds,
        "description": "what kind of event this is: the shared kinds and those the "
                       "campaign's ruleset declares"}
    return schema


def schema_files(base_url: str | None, ruleset: str | None = None) -> dict[str, bytes]:
    """Output path → bytes of every schema, byte-identical from build to build."""
    return {f"{SCHEMAS_DIR}/{name}.json": (json.dumps(found, indent=2, sort_keys=True,
                                                      ensure_ascii=False) + "\n").encode()
            for name, found in sorted(all_schemas(base_url, ruleset).items())}


def write_schemas(root: Path, out: Path) -> list[Path]:
    """Write every schema into ``out`` (ids under the campaign's base URL if it has one)."""
    base_url = load_config(root).base_url if (root / CONFIG_FILE).is_file() else None
    written = []
    for rel, data in schema_files(base_url, _ruleset(root)).items():
        target = out / rel.removeprefix(f"{SCHEMAS_DIR}/")
        write_file(target, data)
        written.append(target)
    return written


def _ruleset(root: Path) -> str | None:
    """The ruleset the campaign at ``root`` names, if it has a readable state."""
    try:
        campaign = read_file(root, f"{STATE_DIR}/{KINDS['campaign'].file}", KINDS["campaign"])
    except InputError:
        return None
    ruleset: str = campaign[1].ruleset
    return ruleset
