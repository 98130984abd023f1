"""Located, safe YAML: marks, and everything PyYAML would let through silently."""

from __future__ import annotations

import datetime
import math

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from ftpress.errors import InputError
from ftpress.files import yamlsource
from ftpress.text.logsafe import shown


def problem(text: str, offset: int = 0) -> str:
    with pytest.raises(InputError) as caught:
        yamlsource.parse(text, "f.yaml", offset)
    assert len(caught.value.problems) == 1
    return str(caught.value.problems[0])


def test_values_keep_their_line_and_column():
    data = yamlsource.parse("a: 1\nb:\n  - x\n  - {c: 2}\n", "f.yaml", line_offset=1)
    assert data == {"a": 1, "b": ["x", {"c": 2}]}
    assert yamlsource.locate(data, ("a",)) == (2, 4)
    assert yamlsource.locate(data, ("b", 1, "c")) == (5, 9)
    assert yamlsource.locate(data, ("b",), key=True) == (3, 1)
    assert yamlsource.locate(data, ("missing", "deeper")) == (2, 1)


@pytest.mark.parametrize(("text", "message"), [
    ("a: 1\na: 2\n", "f.yaml:2:1: duplicate key 'a' (first given on line 1); give each key once"),
    ("a: &x [1, 2]\nb: *x\n", "f.yaml:1:4: YAML anchors and aliases are not allowed here"),
    ("a: 1\n<<: {b: 2}\n", "f.yaml:2:1: YAML merge keys ('<<') are not allowed here"),
    ("a:\n\tb: 1\n", "f.yaml:2:1: YAML syntax error: found character that cannot start any token; "
                     "indent with spaces, not tabs"),
    ("[x]: 1\n", "f.yaml:1:1: a mapping key must be a plain value, not a list or mapping"),
    ("a: !!python/object:os.system x\n", "f.yaml:1:4: cannot read this value"),
    ("a: 1\nb: x\x7f\n", "f.yaml:2:5: character U+007F is not allowed in YAML; remove it"),
    ("d: 2026-02-30\n", "f.yaml:1:4: cannot read '2026-02-30': day is out of range for month"),
    ("d: !!timestamp soon\n", "f.yaml:1:4: cannot read 'soon' as !!timestamp; remove the tag"),
    ("ok: !!bool maybe\n", "f.yaml:1:5: cannot read 'maybe' as !!bool; remove the tag"),
    ("n: !!int\n", "f.yaml:1:4: cannot read '' as !!int; remove the tag"),
    ("s: !!set {a, b}\n", "f.yaml:1:4: the tag !!set is not allowed on a mapping; remove it"),
    ("o: !!omap [a: 1]\n", "f.yaml:1:4: the tag !!omap is not allowed on a list; remove it"),
    ("!fleet\nname: x\n", "f.yaml:1:1: the tag !fleet is not allowed on a mapping"),
    ("a: !!python/object:os.system {}\n", "f.yaml:1:4: the tag !!python/object:os.system"),
])
def test_refused(text, message):
    assert problem(text).startswith(message)


def test_billion_laughs_is_refused_quickly():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(20))
    assert "anchors and aliases are not allowed" in problem(bomb)


def test_non_utf8_names_the_byte_line_and_column():
    with pytest.raises(InputError) as caught:
        yamlsource.decode(b"a: 1\nb: caf\xe9\n", "f.yaml")
    assert str(caught.value.problems[0]) == "f.yaml:2:7: byte 0xe9 is not valid UTF-8; save the file as UTF-8"


def test_byte_order_mark_is_ignored():
    assert yamlsource.decode("\ufeffa: 1".encode(), "f.yaml") == "a: 1"


#: The integers a campaign file may hold (longer ones are refused: see test_huge_integers).
ints = st.integers(-(10**yamlsource.MAX_DIGITS) + 1, 10**yamlsource.MAX_DIGITS - 1)
scalars = st.one_of(ints, st.booleans(), st.none(),
                    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")),
                            max_size=20))
documents = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.text(alphabet="abcdefgh_", min_size=1, max_size=6), inner, max_size=4),
    max_leaves=20)


@given(documents)
def test_parses_what_pyyaml_dumps(value):
    text = yaml.safe_dump({"v": value}, allow_unicode=True)
    assert yamlsource.parse(text, "f.yaml") == {"v": value}


def same_as_pyyaml(got, expected):
    """Equal values of the same types (MarkedMap and MarkedList for dict and list)."""
    if isinstance(expected, dict):
        assert type(got) is yamlsource.MarkedMap and list(got) == list(expected)
        for key in expected:
            assert type(next(k for k in got if k == key)) is type(key)
            same_as_pyyaml(got[key], expected[key])
    elif isinstance(expected, list):
        assert type(got) is yamlsource.MarkedList and len(got) == len(expected)
        for item, want in zip(got, expected, strict=True):
            same_as_pyyaml(item, want)
    else:
        assert type(got) is type(expected)
        assert got == expected or (math.isnan(got) and math.isnan(expected))


def same_marks(got, node, offset):
    """The marks of parsed data against the start marks of PyYAML's composed nodes."""
    def mark(child):
        return child.start_mark.line + 1 + offset, child.start_mark.column + 1

    if isinstance(got, yamlsource.MarkedMap):
        assert got.mark == mark(node)
        assert list(got.key_marks.values()) == [mark(k) for k, _ in node.value]
        assert list(got.value_marks.values()) == [mark(v) for _, v in node.value]
        for value, (_, child) in zip(got.values(), node.value, strict=True):
            same_marks(value, child, offset)
    elif isinstance(got, yamlsource.MarkedList):
        assert got.mark == mark(node)
        assert got.item_marks == [mark(item) for item in node.value]
        for value, child in zip(got, node.value, strict=True):
            same_marks(value, child, offset)


@pytest.mark.parametrize("text", [
    "a: [! 12, ! \"12\", !!str 12, !!int \"12\", \"12\", '1_0', 007, 0x1F, 1_000]\n",
    "a: [.inf, -.Inf, .nan, 1.5, 1.0e+3, !!bool yes, !!int 1:20, ~, null, '', !!null '']\n",
    "a: [2026-01-05, 2026-01-05 10:20:30, 2026-01-05T10:20:30.5+02:00, =x, <<x]\n",
    "0: a\ntrue: b\n~: c\n2026-01-01: d\n.5: e\n\"2\": f\n",
    "a: \"*\"\nb: [1, true, {c: 2026-01-01, 0x10: x}]\n",  # a '*' takes the alias-checking path
    "a: !!map {b: !!seq [1], c: ! [2]}\nd: ! {e: 3}\n",  # tags a collection has anyway
])
def test_scalars_resolve_as_in_pyyaml(text):
    for _ in range(2):  # the second time, from the remembered values
        same_as_pyyaml(yamlsource.parse(text, "f.yaml"), yaml.load(text, Loader=yaml.SafeLoader))


@pytest.mark.parametrize("plain", ["yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON",
                                   "off", "Off", "OFF", "1:20", "-1:20:30",
                                   "1:20.5"])
def test_a_plain_scalar_yaml_1_2_reads_as_text_is_text(plain):
    """YAML 1.1 reads these as true or false, a number or a date; YAML 1.2, as editors
    read files, as text: ftpress reads them as written, so a note 'NO' stays 'NO'."""
    assert yaml.load(f"a: {plain}", Loader=yaml.SafeLoader)["a"] != plain
    for _ in range(2):  # the second time, from the remembered values
        assert yamlsource.parse(f"a: {plain}\nb: [{plain}]\n{plain}: c\n", "f.yaml") == {
            "a": plain, "b": [plain], plain: "c"}


@pytest.mark.parametrize(("plain", "message"), [
    ("0755", "0755 is read as the number 493 by YAML 1.1 (ftpress) but as the number 755 by "
             "YAML 1.2 (editors); write 755 or 493 for the number you mean, or '0755' in "
             "quotes for text"),
    ("0o17", "0o17 is read as text by YAML 1.1 (ftpress) but as the number 15 by YAML 1.2 "
             "(editors); write 15 for the number you mean, or '0o17' in quotes for text"),
    ("1e3", "1e3 is read as text by YAML 1.1 (ftpress) but as the number 1000.0 by YAML 1.2 "
            "(editors); write 1000.0 for the number you mean, or '1e3' in quotes for text"),
    ("-2E-2", "-2E-2 is read as text by YAML 1.1 (ftpress) but as the number -0.02 by "
              "YAML 1.2 (editors); write -0.02 for the number you mean, or '-2E-2' in quotes "
              "for text"),
])
def test_a_plain_number_yaml_1_1_and_1_2_read_apart_is_refused(plain, message):
    with pytest.raises(InputError) as caught:
        yamlsource.parse(f"note: x\nturns: [1, {plain}]\n", "f.yaml")
    assert [str(p) for p in caught.value.problems] == [f"f.yaml:2:12: {message}"]


@pytest.mark.parametrize("plain", ["007", "00", "-0", "0x1F", "1_000", "+5", "1.0e+3", ".5",
                                   "1.", "12"])
def test_a_plain_number_both_read_alike_is_read(plain):
    assert yamlsource.parse(f"a: {plain}", "f.yaml")["a"] == yaml.load(
        f"a: {plain}", Loader=yaml.SafeLoader)["a"]


class _Quoting(yaml.SafeDumper):
    """PyYAML's dumper quoting text YAML 1.2 reads as a number, as ftpress's does."""


_Quoting.add_representer(str, yamlsource.represent_text)


@pytest.mark.parametrize("text", ["0o17", "1e3", "-2E-2", "0755", "1:20", "yes", "NO", "7"])
def test_text_is_dumped_so_that_it_reads_back_as_text(text):
    from ftpress.state.save import dump

    assert yamlsource.parse(dump({"note": text}), "f.yaml") == {"note": text}


keys = st.one_of(st.text(max_size=8), ints, st.booleans(), st.none(), st.dates())
leaves = st.one_of(
    ints, st.floats(allow_nan=False), st.booleans(), st.none(), st.dates(),
    st.datetimes(timezones=st.sampled_from([None, datetime.UTC])),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")),
            max_size=12),
    st.sampled_from(["yes", "no", "on", "~", "null", "0o17", "017", "0x1F", "1_000", "1:20",
                     ".inf", ".nan", "2026-13-45", "<<", "=", "*", "&", "!", "*x", "a: b"]))
nested = st.recursive(leaves, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(keys, inner, max_size=4), max_leaves=25)


@settings(deadline=None, max_examples=150)
@given(nested, st.sampled_from([None, False, True]), st.integers(0, 3))
def test_values_types_and_marks_agree_with_pyyaml(value, flow, offset):
    text = yaml.dump({"v": value}, Dumper=_Quoting, default_flow_style=flow,
                     sort_keys=False, allow_unicode=True)
    got = yamlsource.parse(text, "f.yaml", offset)
    same_as_pyyaml(got, yaml.load(text, Loader=yaml.SafeLoader))
    same_marks(got, yaml.compose(text, Loader=yaml.SafeLoader), offset)


@pytest.mark.parametrize(("text", "message"), [
    ("a: " + "[" * 999 + "]" * 999 + "\n",
     "f.yaml:1:67: lists and mappings nested more than 64 levels deep; expected at most 64"),
    ("a: " + "[" * 2_000_000 + "\n",  # past the C parser's stack, were it composed
     "f.yaml:1:67: lists and mappings nested more than 64 levels deep; expected at most 64"),
    ("a: " + "['x', " * 200 + "]" * 200 + "\n",
     "f.yaml:1:382: lists and mappings nested more than 64 levels deep"),
    ("- " * 600 + "x\n",
     "f.yaml:1:129: lists and mappings nested more than 64 levels deep"),
    ("".join(f"{'  ' * i}k{i}:\n" for i in range(100)) + "  " * 100 + "x: 1\n",
     "f.yaml:65:129: lists and mappings nested more than 64 levels deep"),
])
def test_deep_nesting_is_refused_where_it_passes_the_limit(text, message):
    assert problem(text).startswith(message)


def test_nesting_up_to_the_limit_is_read():
    depth = yamlsource.MAX_DEPTH
    data = yamlsource.parse("[" * depth + "]" * depth, "f.yaml")
    for _ in range(depth - 1):
        data = data[0]
    assert data == []


@pytest.mark.parametrize(("text", "message"), [
    ("n: " + "9" * 5000 + "\n", "f.yaml:1:4: an integer of 5,000 digits is out of range; "
     "expected at most 18 digits"),
    ("n: -0x" + "f" * 5000 + "\n", "f.yaml:1:4: an integer of 5,000 digits is out of range"),
    ("n: [1, 1_" + "0" * 30 + "]\n", "f.yaml:1:8: an integer of 31 digits is out of range"),
])
def test_huge_integers_are_refused_at_their_line_and_never_echoed(text, message):
    found = problem(text)
    assert found == message or found.startswith(message)
    assert len(found) < 120


def test_sizes_are_told_as_people_say_them():
    assert [yamlsource.size_text(n) for n in (100 << 20, 4 << 20, 1536, 512)] == [
        "100 MB", "4 MB", "1.5 KB", "512 bytes"]
    assert str(yamlsource.too_large("f.yaml", 100 << 20)) == (
        "f.yaml: file is 100 MB; expected at most 4 MB for a hand-written file")


def test_long_values_are_cut_in_messages():
    assert shown("x" * 70_000) == "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxx…xxxxxxxxxxxxxx' (70,000 characters)"
    assert shown("short") == "'short'"
