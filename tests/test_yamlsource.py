"""Located, safe YAML: marks, and everything PyYAML would let through silently."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ftpress import yamlsource
from ftpress.errors import InputError


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


scalars = st.one_of(st.integers(), st.booleans(), st.none(),
                    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")),
                            max_size=20))
documents = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.text(alphabet="abcdefgh_", min_size=1, max_size=6), inner, max_size=4),
    max_leaves=20)


@given(documents)
def test_parses_what_pyyaml_dumps(value):
    import yaml

    text = yaml.safe_dump({"v": value}, allow_unicode=True)
    assert yamlsource.parse(text, "f.yaml") == {"v": value}
