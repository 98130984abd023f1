"""The JSON Schemas published for editors refuse exactly what ``ftpress check``
refuses: every field of the demo's files (its state files, its last turn's record,
an order file, the front matter of posts, pages and rules, and site.yaml; both
examples' too) mutated one way at a time, and the schema and the model agree on
accept or refuse."""

from __future__ import annotations

import copy
import tempfile
from collections.abc import Hashable, Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from demos import FTC2007, FTCAMP02, SCT, Demo
from pydantic import TypeAdapter

from ftpress.content.pages import PAGE_META
from ftpress.content.posts import POST_META
from ftpress.content.rulebook import RULE_META
from ftpress.errors import InputError
from ftpress.files import validation, yamlsource
from ftpress.files.config import CONFIG_FILE, load_config
from ftpress.orders.load import InvalidOrder, parse_orders
from ftpress.rules import RULESETS, STATE_EXTENSIONS
from ftpress.site.schema_export import all_schemas
from ftpress.state.events import EventsFile, TurnRecord, kinds_context
from ftpress.state.files import DICE, KINDS, STATE_DIR
from ftpress.state.load import validate_file
from ftpress.state.turns import TURNS_DIR

#: A key no campaign file has, and that is no id either.
UNKNOWN = "Not A Key"
_EVENTS: TypeAdapter[EventsFile] = TypeAdapter(EventsFile)
_RECORD: TypeAdapter[TurnRecord] = TypeAdapter(TurnRecord)
Loc = tuple[Hashable, ...]


def plain(value: Any) -> Any:
    """Parsed YAML as an editor's schema check sees it: a timestamp is its text."""
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def other_type(value: Any) -> Any:
    """A value of another type than ``value``'s, as a slip would make it."""
    if isinstance(value, (date, datetime)):
        return 5
    if isinstance(value, (bool, int, float)):
        return "seven"
    if isinstance(value, str):
        return 7
    return "seven"


def mutations(data: Any) -> Iterator[tuple[str, Any]]:
    """``(what, mutated copy)``: each key dropped, an unknown key added to each mapping,
    each value's type changed. A list's items are alike, so a field is mutated at its
    first occurrence only (``groups[*].at`` once, not once a group)."""
    seen: set[tuple[str, ...]] = set()

    def walk(node: Any, loc: Loc, shape: tuple[str, ...]) -> Iterator[tuple[str, Loc, Any]]:
        if isinstance(node, dict):
            if (*shape, UNKNOWN) not in seen:
                seen.add((*shape, UNKNOWN))
                yield "add an unknown key at", loc, ("add", UNKNOWN)
            for key, value in node.items():
                step = (*shape, str(key))
                if step in seen:
                    continue
                seen.add(step)
                yield "drop", (*loc, key), ("drop",)
                yield "change the type of", (*loc, key), ("set", other_type(value))
                yield from walk(value, (*loc, key), step)
        elif isinstance(node, list):
            for i, item in enumerate(node):
                if i == 0:
                    yield "change the type of", (*loc, i), ("set", other_type(item))
                yield from walk(item, (*loc, i), (*shape, "*"))  # later items: new keys only

    for what, loc, change in list(walk(data, (), ())):
        mutated = copy.deepcopy(plain(data))
        node = mutated
        for step in loc[:-1] if change[0] != "add" else loc:
            node = node[step]
        if change[0] == "add":
            node[UNKNOWN] = 1
        elif change[0] == "drop":
            del node[loc[-1]]
        else:
            node[loc[-1]] = change[1]
        yield f"{what} {'.'.join(map(str, loc)) or 'the top'}", mutated


def schema_accepts(schema: dict[str, Any], data: Any) -> bool:
    return jsonschema.Draft202012Validator(schema).is_valid(data)


def demo_files(demo: Demo) -> Iterator[tuple[str, str]]:
    """``(schema name, path)`` of every state file, the last turn's record (events,
    dice, turn.yaml) and the last order file (``orders``: the ruleset's format)."""
    for kind in KINDS.values():
        if (demo.root / STATE_DIR / kind.file).is_file():
            yield kind.name, f"{STATE_DIR}/{kind.file}"
    for name in ("events", "dice", "turn"):
        yield name, f"{TURNS_DIR}/{demo.turns[-1]}/{name}.yaml"
    # A sealed demo sends no plain order files: its records keep their public copies.
    last = (sorted((demo.root / "orders").glob("t*/*.yaml")) or
            sorted((demo.root / TURNS_DIR).glob("t*/orders/*.yaml")))[-1]
    yield "orders", last.relative_to(demo.root).as_posix()
    # Front matter: the first post, the first that amends the rulebook, a page, a rule.
    posts = sorted((demo.root / "content/posts").rglob("*.md"))
    amending = [p for p in posts if "\namends:" in p.read_text()]
    for kind, files in (("post", posts[:1] + amending[:1]),
                        ("page", sorted((demo.root / "content/pages").glob("*.md"))[:1]),
                        ("rule", sorted((demo.root / "content/rules").glob("*.md"))[:1])):
        for file in files:
            yield kind, file.relative_to(demo.root).as_posix()
    yield "site", "site.yaml"


#: The model of each kind of front matter.
FRONT_MATTER = {"post": POST_META, "page": PAGE_META, "rule": RULE_META}


def read_data(demo: Demo, kind: str, rel: str) -> Any:
    """The file's YAML parsed (for a Markdown file, its front matter)."""
    text = yamlsource.read_text(demo.root / rel, rel)
    if kind in FRONT_MATTER:
        text = text.split("---\n")[1]
    return yamlsource.parse(text, rel)


def model_accepts(ruleset: str, kind: str, rel: str, data: Any) -> bool:
    """Whether ``ftpress check`` accepts the file's form, written as YAML: its model
    (with the keys the campaign's ruleset adds), for an order file the syntax rules too."""
    raw = yaml.safe_dump(plain(data), sort_keys=False, allow_unicode=True).encode()
    try:
        if kind == "orders":  # named as sent, orders/<turn>/<player>.yaml, wherever kept
            turn, player = rel.split("/")[-3], rel.split("/")[-1]
            sent = rel if rel.startswith("orders/") else f"orders/{turn}/{player}"
            parse_orders(raw, sent, RULESETS[ruleset].orders_adapter)
        elif kind == "events":
            validation.validate(_EVENTS, yamlsource.parse(raw.decode(), rel), rel,
                                kinds_context(RULESETS[ruleset].report.kind_names, ruleset))
        elif kind == "turn":
            validation.validate(_RECORD, yamlsource.parse(raw.decode(), rel), rel)
        elif kind in FRONT_MATTER:
            validation.validate(FRONT_MATTER[kind], yamlsource.parse(raw.decode(), rel), rel)
        elif kind == "site":
            with tempfile.TemporaryDirectory() as folder:
                (Path(folder) / CONFIG_FILE).write_bytes(raw)
                load_config(Path(folder))
        elif kind == "dice":
            validate_file(yamlsource.parse(raw.decode(), rel), rel, DICE, None)
        else:
            validate_file(yamlsource.parse(raw.decode(), rel), rel, KINDS[kind],
                          STATE_EXTENSIONS.get(ruleset))
    except (InvalidOrder, InputError):
        return False
    return True


RULESETS_OF = {FTC2007.root: "ftc2007", SCT.root: "sct", FTCAMP02.root: "ftcamp02"}
CASES = [(demo, kind, rel) for demo in (FTC2007, SCT, FTCAMP02)
         for kind, rel in demo_files(demo)]


@pytest.mark.parametrize(("demo", "kind", "rel"), CASES,
                         ids=[f"{RULESETS_OF[d.root]}:{r}" for d, _, r in CASES])
def test_schema_and_model_agree_on_every_mutation(demo, kind, rel):
    ruleset = demo.state().campaign.ruleset
    schemas = all_schemas(None, ruleset)
    schema = schemas[kind if kind != "orders" else RULESETS[ruleset].orders_schema]
    data = read_data(demo, kind, rel)
    assert schema_accepts(schema, plain(data)) and model_accepts(ruleset, kind, rel, data)
    disagree, tried = [], 0
    for what, mutated in mutations(data):
        tried += 1
        by_schema, by_model = schema_accepts(schema, mutated), model_accepts(
            ruleset, kind, rel, mutated)
        if by_schema != by_model:
            disagree.append(f"{what}: schema {'accepts' if by_schema else 'refuses'}, "
                            f"ftpress check {'accepts' if by_model else 'refuses'}")
    assert disagree == []
    assert tried >= 5  # the smallest, a dice file: each key dropped, retyped, one added


def test_every_mapping_keyed_by_id_is_closed_to_other_keys():
    """A ``dict[Id, …]`` is ``patternProperties`` in JSON Schema, which lets any key
    that does not match through unless ``additionalProperties`` says no."""
    def open_maps(node: Any, where: str) -> Iterator[str]:
        if isinstance(node, dict):
            if "patternProperties" in node and node.get("additionalProperties") is not False:
                yield where
            for key, value in node.items():
                yield from open_maps(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, item in enumerate(node):
                yield from open_maps(item, f"{where}/{i}")

    for ruleset in RULESETS:
        assert [(name, where) for name, schema in all_schemas(None, ruleset).items()
                for where in open_maps(schema, "")] == []


def test_a_deadline_written_as_a_number_is_refused_at_its_line(tmp_path, run):
    root = FTC2007.copy(tmp_path / "campaign")
    campaign = root / "state/campaign.yaml"
    text = campaign.read_text()
    assert "  deadline: 2026-05-17T20:00:00+00:00\n" in text
    campaign.write_text(text.replace("  deadline: 2026-05-17T20:00:00+00:00\n",
                                     "  deadline: 5\n"))
    line = text[:text.index("  deadline:")].count("\n") + 1
    code, _, stderr = run("check", "--source", root, campaign)
    assert code == 1
    assert stderr.splitlines()[0] == (
        f"state/campaign.yaml:{line}:13: calendar.deadline: expected a date and time with "
        "its zone, such as 2026-05-17T20:00:00+00:00, got 5")


@pytest.mark.parametrize(("path", "text", "expected"), [
    ("content/posts/2026/04/07-early.md", "---\ntitle: T\ndate: 5\nkind: guff\n---\nx\n",
     "content/posts/2026/04/07-early.md:3:7: date: expected a date such as 2026-04-07, or a "
     "date and time such as 2026-04-07T21:14:00+01:00, got 5"),
    ("content/rules/01-first.md", "---\nrule: 1\ntitle: First\ndate: 0\n---\n## 1.1 A\nx\n",
     "content/rules/01-first.md:4:7: date: expected a date such as 2026-03-09, got 0"),
])
def test_a_date_written_as_a_number_is_refused_in_front_matter(campaign, run, path, text,
                                                              expected):
    root = campaign({path: text})
    code, _, stderr = run("check", "--source", root)
    assert code == 1
    assert expected in stderr.splitlines()


def test_check_reads_every_turn_record(tmp_path, run):
    """A turn.yaml with its 'turn:' deleted, one naming another turn and one missing are
    each reported by check, as ``turn --verify`` would find them."""
    root = SCT.copy(tmp_path / "campaign")
    first, second, third = (root / TURNS_DIR / turn / "turn.yaml" for turn in SCT.turns)
    first.write_text(first.read_text().replace("turn: t001\n", ""))
    second.write_text(second.read_text().replace("turn: t002\n", "turn: t005\n"))
    third.unlink()
    code, _, stderr = run("check", "--source", root)
    assert code == 1
    assert stderr.splitlines()[:3] == [
        "state/turns/t001/turn.yaml:1:1: missing required key 'turn'",
        "state/turns/t002/turn.yaml:1:1: turn: the record of t002 says it is 't005'; "
        "expected 't002'",
        "state/turns/t003/turn.yaml: missing: every recorded turn keeps how its dice were "
        "seeded; restore the file from the repository's history"]


def test_a_tag_listed_twice_is_refused_by_the_schema_as_by_check(campaign, run):
    schema = all_schemas(None, "ftc2007")["post"]
    assert not schema_accepts(schema, {"title": "T", "date": "2026-03-01", "kind": "guff",
                                       "tags": ["fleet", "fleet"]})
    root = campaign({"content/posts/2026/03/01-twice.md":
                     "---\ntitle: T\ndate: 2026-03-01\nkind: guff\ntags: [fleet, fleet]\n"
                     "---\nx\n"})
    code, _, stderr = run("check", "--source", root)
    assert code == 1
    assert "content/posts/2026/03/01-twice.md:5:7: tags: a tag is listed twice; give each tag " \
        "once" in stderr
