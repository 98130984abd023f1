"""``/orders/``: how to send orders, for the campaign's ruleset.

Built from the order schema the site publishes (every record of the order file,
its keys and what each takes, as ``ftpress check`` reads them) and the rulebook
(every section a record cites links to it as it stands), so it cannot fall out of
step with either.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup, escape

from ftpress.content.rulebook import Rulebook, anchor
from ftpress.render.pages import Renderer
from ftpress.state.model import ID_PATTERN, State
from ftpress.state.turns import PATTERN as TURN_PATTERN
from ftpress.state.turns import turn_id

#: A citation in a record's description: §8.1, §15, §4.2.2.
_CITATION = re.compile(r"§(\d+(?:\.\d+)*)")
#: A literal in a docstring: ``group``.
_LITERAL = re.compile(r"``([^`]+)``")


@dataclass(frozen=True, slots=True)
class KeyView:
    key: str
    #: What it takes, in words, with links to the records it holds.
    takes: Markup
    required: bool


@dataclass(frozen=True, slots=True)
class RecordView:
    #: The record's anchor on the page: 'order-grouporder'.
    id: str
    name: str
    about: Markup
    keys: tuple[KeyView, ...]


def render_order_guide(r: Renderer, schemas: Mapping[str, bytes], rulebook: Rulebook,
                       state: State, order_suffix: str = ".yaml") -> None:
    """Add ``/orders/`` for the campaign's ruleset (its own order schema, or the shared);
    ``order_suffix``: how the name of the file a player sends ends, as the campaign's
    store says (any other than ``.yaml``: the file is sealed, and the guide says how)."""
    ruleset = state.campaign.ruleset
    name = next(n for n in (f"schemas/orders-{ruleset}.json", "schemas/orders.json")
                if n in schemas)
    schema = json.loads(schemas[name])
    current = rulebook.current
    numbers = {s.number for s in current.sections} if current is not None else set()
    rules = r.urls.page("rules/")

    def cited(text: str) -> Markup:
        def link(found: re.Match[str]) -> str:
            number = found.group(1)
            if number not in numbers:
                return found.group(0)
            return f'<a href="{rules}#{anchor(number)}">§{number}</a>'
        if not text:
            return Markup("")
        coded = _LITERAL.sub(r"<code>\1</code>", str(escape(text)))
        return Markup(_CITATION.sub(link, coded))

    records = [_record("OrdersFile", schema, cited)]
    records += [_record(key, value, cited) for key, value in sorted(schema.get("$defs", {})
                                                                    .items())]
    cal = state.campaign.calendar
    r.page("orders/index.html", "order_guide.html", "state/campaign.yaml",
           title="How to send orders",
           description=f"How a player of {state.campaign.name} writes, checks and sends "
           "the orders of a turn: every key of the order file and the rules behind it.",
           section="orders", heading="How to send orders", records=tuple(records),
           turn=turn_id(cal.turn), deadline=cal.deadline, schema=r.urls.page(name),
           players=tuple(p.id for p in state.players.players),
           order_suffix=order_suffix, your_view=r.urls.page("you/"))


def _record(name: str, node: dict[str, Any], cited: Any) -> RecordView:
    required = set(node.get("required", ()))
    keys = tuple(KeyView(key, _takes(value), key in required)
                 for key, value in node.get("properties", {}).items())
    return RecordView(_anchor(name), _title(name), cited(node.get("description", "")), keys)


def _anchor(name: str) -> str:
    return f"order-{name.lower()}"


def _title(name: str) -> str:
    """'GroupOrder' → 'Group order'; the file itself is 'The order file'."""
    if name == "OrdersFile":
        return "The order file"
    words = re.findall(r"[A-Z][a-z0-9]*", name) or [name]
    return " ".join([words[0], *(w.lower() for w in words[1:])])


def _takes(node: dict[str, Any]) -> Markup:
    """What a schema node takes, in words."""
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        return Markup(f'<a href="#{_anchor(name)}">{escape(_title(name).lower())}</a>')
    for either in ("anyOf", "oneOf"):
        if either in node:
            kinds = [n for n in node[either] if n.get("type") != "null"]
            return Markup(" or ").join(_takes(n) for n in kinds)
    if "const" in node:
        return Markup(f"<code>{escape(json.dumps(node['const']))}</code>")
    if "enum" in node:
        return Markup("one of ") + Markup(", ").join(
            Markup(f"<code>{escape(v)}</code>") for v in node["enum"])
    kind = node.get("type")
    if kind == "string":
        if node.get("pattern") == ID_PATTERN:
            return Markup("an id")
        if node.get("pattern") == TURN_PATTERN:
            return Markup("a turn id such as <code>t004</code>")
        return escape(node.get("description") or "text")
    if kind == "integer":
        low = node.get("minimum", node.get("exclusiveMinimum"))
        return Markup("a whole number" + (f" from {low}" if "minimum" in node else
                                          f" above {low}" if low is not None else ""))
    if kind == "number":
        return Markup("a number")
    if kind == "boolean":
        return Markup("<code>true</code> or <code>false</code>")
    if kind == "array":
        items = node.get("items")
        if isinstance(items, dict):
            return Markup("a list, each ") + _takes(items)
        return Markup("a list")
    if kind == "object":
        values = list(node.get("patternProperties", {}).values()) or [
            v for v in [node.get("additionalProperties")] if isinstance(v, dict)]
        if values:
            return Markup("ids, each with ") + _takes(values[0])
        return Markup("a mapping")
    return Markup("a value")
