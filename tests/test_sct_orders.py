"""The sct order file: what it accepts, and every mistake located and explained."""

from __future__ import annotations

import re

import pytest
from test_sct_cases import build_orders, build_state

from ftpress.errors import InputError
from ftpress.orders.load import canonical, parse_orders
from ftpress.rules import find_ruleset
from ftpress.rules.ftc2007.orderfile import ADAPTER as FTC2007_ADAPTER
from ftpress.rules.sct.orderfile import ADAPTER, Move, SctOrders, Secondary
from ftpress.rules.sct.summary import describe_orders
from ftpress.site.schema_export import all_schemas

PATH = "orders/t001/nac.yaml"


def parse(body: str):
    return parse_orders(f"turn: t001\nplayer: nac\n{body}".encode(), PATH, ADAPTER)


def messages(body: str) -> list[str]:
    with pytest.raises(InputError) as caught:
        parse(body)
    return [str(p) for p in caught.value.problems]


def test_a_full_file_parses():
    loaded = parse("forces:\n  tf12:\n    move: 9/3\n    toward: kessel\n"
                   "    secondary: {bearing: 90, distance: 1.5}\n    rounds: 2\n"
                   "economy:\n  builds:\n    - {design: nac-huron, at: home, name: Hood}\n")
    orders = loaded.orders
    assert isinstance(orders, SctOrders)
    assert orders.forces["tf12"].move == Move(9, 3)
    assert orders.forces["tf12"].secondary == Secondary(bearing=90, distance=1.5)
    assert str(orders.forces["tf12"].move) == "9/3"


def test_the_ruleset_names_its_order_format():
    assert find_ruleset("sct").orders_adapter is ADAPTER
    assert find_ruleset("ftc2007").orders_adapter is FTC2007_ADAPTER
    assert (find_ruleset("sct").orders_schema, find_ruleset("ftc2007").orders_schema) == (
        "orders-sct", "orders")


@pytest.mark.parametrize(("move", "wanted"), [
    ("13/2", "direction 13 is not a clock facing; expected 1 to 12"),
    ("0/2", "direction 0 is not a clock facing; expected 1 to 12"),
    ("9/4", "distance 4 MU is more than a move allows; expected 0 to 3"),
    ("north", "expected a move as direction/distance such as 9/3"),
])
def test_a_bad_move_is_located(move, wanted):
    found = messages(f"forces:\n  tf1: {{move: '{move}'}}\n")
    assert len(found) == 1
    assert found[0].startswith(f"{PATH}:4:")
    assert wanted in found[0]


def test_a_secondary_move_needs_one_way():
    found = messages("forces:\n  tf1:\n    secondary: {toward: home, bearing: 40}\n")
    assert "exactly one of 'toward'" in found[0]
    found = messages("forces:\n  tf1:\n    secondary: {bearing: 40, distance: 4}\n")
    assert "distance" in found[0]


def test_toward_needs_a_move():
    found = messages("forces:\n  tf1: {toward: home}\n")
    assert "'toward' aims a move; give 'move:'" in found[0]


def test_an_ftc2007_key_is_not_an_sct_order():
    found = messages("groups:\n  tf1: {hold: true}\n")
    assert found[0].startswith(f"{PATH}:3:1:")


def test_the_header_must_match_the_path():
    with pytest.raises(InputError) as caught:
        parse_orders(b"turn: t002\nplayer: esu\n", PATH, ADAPTER)
    found = [str(p) for p in caught.value.problems]
    assert any("these orders are for t002" in m for m in found)
    assert any("these orders are by 'esu'" in m for m in found)


def test_canonical_form_ignores_spacing():
    a = parse("forces:\n  tf1: {move: 9/3}\n")
    b = parse("# mine\nforces:\n  tf1:\n    move: ' 9 / 3 '\n")
    assert canonical(a.orders) == canonical(b.orders)


def test_its_json_schema_is_published():
    schemas = all_schemas("https://example.org/")
    sct = schemas["orders-sct"]
    assert sct["$id"] == "https://example.org/schemas/orders-sct.json"
    assert "forces" in sct["properties"]


def test_check_describes_clean_orders_in_plain_words():
    state = build_state({"systems": [{"id": "home", "at": [0, 0], "owner": "nac", "ev": 300,
                                      "shipyard": True}],
                         "forces": [{"id": "tf1", "owner": "nac", "at": "home",
                                     "ships": ["dd", "ff"]}],
                         "treasury": {"nac": 50}})
    orders = build_orders(state, {"nac": (
        "forces:\n  tf1:\n    move: 3/2\n    secondary: {bearing: 45, distance: 1.5}\n"
        "    engage: false\n    split: {tf2: [tf1-2]}\n"
        "economy:\n  builds:\n    - {design: dd, at: home, name: Hood}\n")})
    assert describe_orders(state, orders["nac"]) == [
        "Begin Hood (dd) at home for 109 MUCr (109 from this turn's income there, 0 from the "
        "treasury).",
        "tf1 moves 3/2.",
        "tf1 then moves up to 1.5 MU on 45° for an endurance point.",
        "tf1 will not start a combat (the other side still may).",
        "tf1 splits after combat: tf1-2 form tf2.",
    ]


def test_a_broken_state_still_reads_the_orders_in_its_rulesets_format(tmp_path, run):
    """A state with a mistake elsewhere names its ruleset all the same: the sct order
    files are not also reported as wrong in the ftc2007 format."""
    import shutil

    from conftest import REPO

    root = tmp_path / "sct"
    shutil.copytree(REPO / "examples/sct", root)
    campaign = root / "state/campaign.yaml"
    campaign.write_text(re.sub(r"(?m)^  seed: .*$", "  seed: -5", campaign.read_text()))
    code, _, err = run("check", "--source", root)
    assert code == 1
    assert err.splitlines() == [
        "state/campaign.yaml:13:9: setup.seed: input should be greater than or equal to 0, "
        "got -5", "ftpress: 1 problem in the campaign"]
