"""What ``ftpress check`` says the ftc2007 orders of §13.2 (a keel changed) and
§10.8 (owed repulse damage repaired) will do and cost."""

from __future__ import annotations

from turnfixture import build_orders, build_state

from ftpress.rules import RULESETS

KEEL = {"turn": 9, "systems": [{"id": "home", "hex": [0, 0], "owner": "nac"}],
        "keels": [{"id": "k1", "owner": "nac", "at": "home", "design": "cl",
                   "name": "Valiant", "built": 100}]}
OWED = {"turn": 7, "systems": [{"id": "home", "hex": [0, 0], "owner": "nac"},
                               {"id": "east", "hex": [1, 0], "owner": "esu", "income": 20}],
        "players": {"nac": {"owed": [{"world": "east", "boxes": 6, "cost": 20,
                                      "ships": ["g1-1"], "economic_turn": 1}]}},
        "groups": [{"id": "g1", "owner": "nac", "at": "home", "ships": ["dd"]}]}


def _described(spec: dict, text: str) -> list[str]:
    state = build_state(spec)
    ruleset = RULESETS["ftc2007"]
    assert ruleset.describe_orders is not None
    loaded = build_orders(state, {"nac": text}, ruleset.orders_adapter)["nac"]
    return ruleset.describe_orders(state, loaded)


def test_a_keel_change_is_described_with_its_price():
    assert _described(KEEL, "economy:\n  changes: [{keel: Valiant, design: dd}]\n")[:1] == [
        "Changes Valiant on the slips from Huron to Ticonderoga: 100 of 108 built so far, "
        "the change costing 20 more (§13.2)."]


def test_a_repair_of_owed_damage_is_described_with_its_price():
    assert "Repairs the damage its fleet owes from East for 20, before it is put on the " \
        "ships (§10.8)." in _described(OWED, "economy:\n  owed: [east]\n")
