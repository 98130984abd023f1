"""The battle-result file ``ftpress turn`` writes for the table tells the umpire what
the rules need done there (ftc2007 §10.8 system checks owed, rule 20's rulings for
the ships present), and the state keys behind them read and write as any other."""

from __future__ import annotations

from datetime import date

import yaml
from battlefixture import NOW, ORDERS, STATE
from battlefixture import campaign as campaign  # the fixture
from turnfixture import build_state

from ftpress.rules import RULESETS, STATE_EXTENSIONS
from ftpress.rules.ftc2007.state_ext import approved_on, owed_by, system_checks
from ftpress.state.load import load_state
from ftpress.state.save import save_state

#: g1-1 owes the repulse damage of East: 6 boxes, all hers (STATE's g1 has one ship).
OWING = {**STATE,
         "systems": [*STATE["systems"], {"id": "east", "hex": [3, 0], "owner": "esu",
                                        "income": 20}],
         "players": {"nac": {"owed": [{"world": "east", "boxes": 6, "cost": 20,
                                       "ships": ["g1-1"], "economic_turn": 1}]}},
         "groups": [{"id": "g1", "owner": "nac", "at": "home", "ships": ["nv"]},
                    {"id": "e1", "owner": "esu", "at": [1, 0], "ships": ["dd"]}]}


def test_the_battle_file_lists_the_system_checks_and_the_rulings(tmp_path, run):
    root = tmp_path / "owing"
    save_state(root, build_state(OWING))
    (root / "orders/t002").mkdir(parents=True)
    (root / "orders/t002/esu.yaml").write_text(ORDERS)
    (root / "site.yaml").write_text("title: Case\nbase_url: https://example.org/\n"
                                    "timezone: UTC\n")  # the turn refuses what check does
    code, _, err = run("turn", "--source", root, "--now", NOW)
    assert (code, err) == (0, "")
    lines = (root / "battles/t002/home.yaml").read_text().splitlines()
    assert lines[0].startswith("# yaml-language-server: $schema=")  # the schema, for editors
    assert lines[1] == (
        "# The battle at Home between the ESU and the NAC (a task group of the ESU (1 ship, "
        "enters by the south-east edge); a task group of the NAC (1 ship)) is to be fought on "
        "the tabletop; the turn waits for its result. As the battle begins, the NAC's g1-1 "
        "(hull row 1) makes the system checks for the hull rows that owed repulse damage "
        "stripped out (§10.8). g1-1 carries a cloaking field: no ship may have its cloak and "
        "its FTL drive on at once, and a cloaked ship has left only when it jumps (§20.2). "
        "g1-1 carries a nova cannon: a ship firing one does nothing else that turn, and the "
        "shot fires and moves on in the fire phase (§20.3).")
    # The owed damage was put on her before the battle: 6 of her 18 hull boxes.
    assert '  - {player: nac, group: g1, ship: "g1-1", design: nv, hull: 12, damage: 0, ' \
        'fate: afloat}' in lines


def test_a_plain_battle_has_no_notes(campaign, run):
    run("turn", "--source", campaign, "--now", NOW)
    first = (campaign / "battles/t002/home.yaml").read_text().splitlines()[1]
    assert first.endswith("the turn waits for its result.")


def test_the_new_state_keys_read_and_write_back(tmp_path):
    """§10.7 owed damage, §10.8 checks owed, §16.2 approval and rule 20's fits are keys
    of the state files beside the shared ones, and load back as they were saved."""
    root = tmp_path / "keys"
    state = build_state({**OWING, "approved": {"ux": date(2026, 3, 20)},
                                  "groups": [{"id": "g1", "owner": "nac", "at": "home",
                                              "ships": [{"design": "nv",
                                                         "system_checks": [1, 2]}]}]})
    save_state(root, state)
    players = yaml.safe_load((root / "state/players.yaml").read_text())["players"]
    assert players[0]["owed"] == [{"world": "east", "boxes": 6, "cost": 20,
                                   "ships": ["g1-1"], "economic_turn": 1}]
    groups = yaml.safe_load((root / "state/groups.yaml").read_text())["groups"]
    assert groups[0]["ships"][0]["system_checks"] == [1, 2]
    designs = {d["id"]: d for d in
               yaml.safe_load((root / "state/designs.yaml").read_text())["designs"]}
    assert designs["nv"]["fits"] == ["nova-cannon", "cloaking-field"]
    assert str(designs["ux"]["approved"]) == "2026-03-20"
    loaded = load_state(root, extensions=STATE_EXTENSIONS)
    back = loaded.state
    assert owed_by(back.player("nac")) == owed_by(state.player("nac"))
    assert system_checks(back.groups.groups[0].ships[0]) == (1, 2)
    assert approved_on(back.design("ux")) == date(2026, 3, 20)
    assert not [p for p in RULESETS["ftc2007"].check_state(loaded)
                if "owed" in str(p) or "system_checks" in str(p) or "approved" in str(p)]
