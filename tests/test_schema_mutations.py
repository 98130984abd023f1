"""The published JSON Schemas and ``ftpress check`` judge 2,000 mutations of real files
alike: the demo's and both examples' state files, last turn records, order files,
front matter and site.yaml, each mutated at random (seeded, so every run tries the
same 2,000), then judged twice:

- as an editor judges it: the text read as YAML 1.2 (ruamel.yaml, as
  check-jsonschema reads it), a date as its text, against the file's published
  schema (:func:`ftpress.site.schema_export.all_schemas`);
- as ``ftpress check`` judges the file on its own (its model, with the keys its
  campaign's ruleset adds, the order format's syntax rules).

They must agree, except where a schema cannot say what check says: those kinds are
listed in :data:`INEXPRESSIBLE`, each with the reason, and each disagreement found
must be of one of them. Checks that need other files (an id defined elsewhere, a
group's owner, money) are not part of either judgement here: ``check`` makes them
after a file's form is right, and a schema never can.

The mutations: a key dropped; an unknown key added; a key of a sibling record added
(keys that need each other); a list's item repeated; a value replaced by one of
:data:`VALUES` (other types, numbers as text, control characters, over-long
numbers, ids that are no ids, relative URLs) or written as one of :data:`PLAIN`,
plain scalars that YAML 1.1 (PyYAML, ftpress) and 1.2 (editors) may read apart.
"""

from __future__ import annotations

import copy
import io
import random
import tempfile
from collections import Counter
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import jsonschema
import yaml
from demos import FTC2007, FTCAMP02, SCT, Demo
from pydantic import TypeAdapter
from ruamel.yaml import YAML, YAMLError
from test_schema_agrees import FRONT_MATTER, demo_files, plain, read_data

from ftpress.errors import InputError
from ftpress.files import validation, yamlsource
from ftpress.files.config import CONFIG_FILE, load_config
from ftpress.orders.load import InvalidOrder, parse_orders
from ftpress.rules import RULESETS, STATE_EXTENSIONS
from ftpress.site.schema_export import all_schemas
from ftpress.state.events import EventsFile, TurnRecord, kinds_context
from ftpress.state.files import DICE, KINDS
from ftpress.state.load import validate_file

MUTATIONS = 2000
SEED = 32
#: Values a slip, a paste or a hostile file puts where another belongs.
VALUES: tuple[Any, ...] = (
    None, True, False, 0, 1, -1, 7, 2.0, 1.5, 10 ** 20, -(10 ** 19), "", "x", "1", "4",
    "false", "true", "1.5", "Not An Id!", "nac", "t001", "bell\x07", "tab\there",
    "line\nbreak", "relative/path/", "https://example.org/camp/", "2026-03-01",
    "2026-03-01T20:00:00+00:00", date(2026, 3, 1), [], {}, [1, 2], ["nac"], {"a": 1},
    [0, 0],
)
#: Plain scalars as written in the text (not quoted).
PLAIN = ("yes", "no", "NO", "on", "Off", "y", "n", "0755", "0o17", "1:30", "1_000",
         "1e3", "0x1F", "2026-3-1", "~", "null", ".inf", "+5")
_RAW = "RAW-SCALAR-{}-"


def bare(value: Any) -> Any:
    """Parsed YAML as plain dicts and lists (for yaml.safe_dump)."""
    if isinstance(value, dict):
        return {k: bare(v) for k, v in value.items()}
    if isinstance(value, list):
        return [bare(v) for v in value]
    return value


def places(data: Any) -> list[tuple[Any, ...]]:
    """The path of every node below the top."""
    found: list[tuple[Any, ...]] = []

    def walk(node: Any, loc: tuple[Any, ...]) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                found.append((*loc, key))
                walk(value, (*loc, key))
        elif isinstance(node, list):
            for i, item in enumerate(node):
                found.append((*loc, i))
                walk(item, (*loc, i))

    walk(data, ())
    return found


def sibling_keys(data: Any, loc: tuple[Any, ...]) -> list[str]:
    """Keys the mappings of the file have that the mapping at ``loc`` has not."""
    here = at(data, loc)
    keys: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            keys.update(str(k) for k in node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(data)
    return sorted(keys - {str(k) for k in here})


def at(data: Any, loc: tuple[Any, ...]) -> Any:
    for step in loc:
        data = data[step]
    return data


def mutate(data: Any, rng: random.Random) -> tuple[str, str]:
    """One mutation of ``data``: what was done, and the file's text after it."""
    data = copy.deepcopy(bare(data))
    spots = places(data)
    raw: list[str] = []
    if not spots:
        return "replace the whole file", "7\n"
    loc = rng.choice(spots)
    parent, last = at(data, loc[:-1]), loc[-1]
    where = ".".join(map(str, loc))
    choice = rng.random()
    if choice < 0.12 and isinstance(parent, dict):
        del parent[last]
        what = f"drop {where}"
    elif choice < 0.2 and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))
        what = f"repeat the item {where}"
    elif choice < 0.3 and isinstance(at(data, loc), dict):
        keys = sibling_keys(data, loc)
        key = rng.choice(keys) if keys and rng.random() < 0.8 else "Not A Key"
        at(data, loc)[key] = copy.deepcopy(rng.choice(VALUES[:20]))
        what = f"add the key {key!r} at {where}"
    elif choice < 0.45:
        token = rng.choice(PLAIN)
        raw.append(token)
        parent[last] = _RAW.format(0)
        what = f"write {token} at {where}"
    else:
        value = copy.deepcopy(rng.choice(VALUES))
        parent[last] = value
        what = f"set {where} to {value!r}"
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000)
    for i, token in enumerate(raw):
        text = text.replace(f"'{_RAW.format(i)}'", token).replace(_RAW.format(i), token)
    return what, text


_YAML12 = YAML(typ="safe", pure=True)


def editor_reads(text: str) -> Any:
    """The text as an editor's YAML 1.2 reader makes it, dates as their text."""
    return plain(_YAML12.load(io.StringIO(text)))


def check_accepts(ruleset: str, kind: str, rel: str, text: str) -> tuple[bool, str]:
    """Whether ``ftpress check`` accepts the file's form (and its first message)."""
    try:
        if kind == "orders":
            turn, player = rel.split("/")[-3], rel.split("/")[-1]
            sent = rel if rel.startswith("orders/") else f"orders/{turn}/{player}"
            parse_orders(text.encode(), sent, RULESETS[ruleset].orders_adapter)
        elif kind == "site":
            with tempfile.TemporaryDirectory() as folder:
                (Path(folder) / CONFIG_FILE).write_text(text)
                load_config(Path(folder))
        else:
            data = yamlsource.parse(text, rel)
            if kind == "events":
                validation.validate(_EVENTS, data, rel,
                                    kinds_context(RULESETS[ruleset].report.kind_names, ruleset))
            elif kind == "turn":
                validation.validate(_RECORD, data, rel)
            elif kind in FRONT_MATTER:
                validation.validate(FRONT_MATTER[kind], data, rel)
            elif kind == "dice":
                validate_file(data, rel, DICE, None)
            else:
                validate_file(data, rel, KINDS[kind], STATE_EXTENSIONS.get(ruleset))
    except (InvalidOrder, InputError) as exc:
        return False, str(exc.problems[0]) if exc.problems else ""
    return True, ""


_EVENTS: TypeAdapter[EventsFile] = TypeAdapter(EventsFile)
_RECORD: TypeAdapter[TurnRecord] = TypeAdapter(TurnRecord)


#: The disagreements a JSON Schema cannot avoid, by kind: each is ``ftpress check``
#: refusing what the schema accepts, told by check's message, and why no schema can.
INEXPRESSIBLE: dict[str, tuple[str, str]] = {
    "number text": (
        "by YAML 1.2 (editors)",
        "a plain number YAML 1.1 and 1.2 read apart (0755: 493 or 755; 0o17 and 1e3: text "
        "or a number) is refused by check; the schema sees only the number an editor read, "
        "not how it was written"),
    "time zone": (
        "unknown time zone",
        "which time zone names exist is the tz database's (and changes with it), not a "
        "pattern's"),
    "age key": (
        "not a public key age can encrypt to",
        "the schema checks how a key starts; whether it decodes (age's bech32, an SSH key's "
        "base64) is arithmetic"),
    "file name": (
        "but the file is",
        "an order file's header must name the turn and the player of its path, which is no "
        "part of the file a schema is given"),
}


def inexpressible(message: str) -> str | None:
    """The kind of a disagreement no schema can avoid, from check's message."""
    return next((kind for kind, (words, _) in INEXPRESSIBLE.items() if words in message), None)


def files() -> Iterator[tuple[Demo, str, str, str]]:
    for demo in (FTC2007, SCT, FTCAMP02):
        ruleset = demo.state().campaign.ruleset
        for kind, rel in demo_files(demo):
            yield demo, ruleset, kind, rel


def test_schemas_and_check_agree_on_2000_mutations_of_real_files():
    rng = random.Random(SEED)
    cases = []
    for demo, ruleset, kind, rel in files():
        schema = all_schemas(None, ruleset)[
            kind if kind != "orders" else RULESETS[ruleset].orders_schema]
        cases.append((ruleset, kind, rel, read_data(demo, kind, rel),
                      jsonschema.Draft202012Validator(schema)))
    disagree: list[str] = []
    kinds: Counter[str] = Counter()
    for _ in range(MUTATIONS):
        ruleset, kind, rel, data, validator = rng.choice(cases)
        what, text = mutate(data, rng)
        try:
            by_schema = validator.is_valid(editor_reads(text))
        except YAMLError:  # YAML 1.2 cannot read it: an editor flags the file
            by_schema = False
        by_check, message = check_accepts(ruleset, kind, rel, text)
        if "datetime." in message or "<class" in message:  # never Python's repr
            disagree.append(f"{ruleset}:{rel}: {what}: check says {message}")
        if by_schema == by_check:
            kinds["agree"] += 1
            continue
        found = inexpressible(message) if by_schema else None
        if found is not None:
            kinds[found] += 1
        else:
            disagree.append(f"{ruleset}:{rel}: {what}: schema "
                            f"{'accepts' if by_schema else 'refuses'}, check "
                            f"{'accepts' if by_check else 'refuses'} {message}")
    assert disagree == []
    assert sum(kinds.values()) == MUTATIONS
    # Most mutations are judged alike, and each kind left is one a schema cannot say.
    assert kinds["agree"] > MUTATIONS * 0.95
    assert set(kinds) - {"agree"} <= set(INEXPRESSIBLE)
