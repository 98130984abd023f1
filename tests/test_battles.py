"""ftpress turn and tabletop battles: the turn pauses with a battle-result file to fill
in, records nothing, and resumes with the umpire's result (checked, located errors)."""

from __future__ import annotations

import pytest
import yaml
from battlefixture import NOW, ORDERS, STATE, fight, fill
from battlefixture import campaign as campaign  # the fixture, shared with test_redo
from hypothesis import given, settings
from hypothesis import strategies as st
from turnfixture import build_orders, build_state

from ftpress.errors import InputError
from ftpress.rules.ftc2007.turn import resolve
from ftpress.state.battle_results import ADAPTER, parse_battle
from ftpress.state.dice import Dice
from ftpress.state.save import save_state

from conftest import files_of

TEMPLATE = """\
# yaml-language-server: $schema=https://example.org/schemas/battle.json
# The battle at Home between the ESU and the NAC (a task group of the ESU (1 ship, enters by the south-east edge); a task group of the NAC (1 ship)) is to be fought on the tabletop; the turn waits for its result.
# Fill in, then set 'fought: true' and run `ftpress turn` again:
#   ships     each ship's 'damage' (hull boxes lost in this battle, at most its
#             'hull') and 'fate': afloat, destroyed, or drifting (a hulk, taken
#             as a prize by whoever holds the field, §12)
#   withdrew  each power that jumped out and where to: [{player: nac, to: corvid}]
#   held_by   the power left holding the field (empty: nobody)
turn: t002
battle: home
at: "home"
players: [esu, nac]
ships:
  - {player: nac, group: g1, ship: "g1-1", design: dd, hull: 10, damage: 0, fate: afloat}
  - {player: esu, group: e1, ship: "e1-1", design: dd, hull: 10, damage: 0, fate: afloat}
withdrew: []
held_by:
fought: false
"""


def test_a_tabletop_battle_pauses_the_turn_and_writes_the_result_file(campaign, run):
    before = files_of(campaign)
    code, out, err = run("turn", "--source", campaign, "--now", NOW)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "note: t002 opened without an umpire secret: its dice depend only on public inputs",
        "t002 waits for 1 battle fought on the tabletop; nothing was recorded. Fill in for "
        "each: the hull boxes each ship lost ('damage'), its 'fate' (afloat, destroyed or "
        "drifting), who withdrew and where to ('withdrew'), who holds the field ('held_by'), "
        "then set 'fought: true' and run ftpress turn again:",
        "  battles/t002/home.yaml"]
    assert (campaign / "battles/t002/home.yaml").read_text() == TEMPLATE
    after = files_of(campaign)
    assert {p for p in after if after.get(p) != before.get(p)} == {"battles/t002/home.yaml"}
    assert not (campaign / "state/turns/t002").exists()


def test_the_result_file_says_which_powers_check_damage_one_level_worse(tmp_path, run):
    """ftc2007 §7.4: the umpire is told, at the head of the file, that nac's ships
    make their damage checks one level worse."""
    root = tmp_path / "reduced"
    save_state(root, build_state({**STATE, "players": {"nac": {"maintenance": "reduced"}}}))
    (root / "site.yaml").write_text("title: Case\nbase_url: https://example.org/\n"
                                    "timezone: UTC\n")  # the turn refuses what check does
    (root / "orders/t002").mkdir(parents=True)
    (root / "orders/t002/esu.yaml").write_text(ORDERS)
    code, _, err = run("turn", "--source", root, "--now", NOW)
    assert (code, err) == (0, "")
    lines = (root / "battles/t002/home.yaml").read_text().splitlines()
    assert lines[0].startswith("# yaml-language-server: $schema=")  # the schema, for editors
    assert lines[1] == (
        "# The battle at Home between the ESU and the NAC (a task group of the ESU (1 ship, "
        "enters by the south-east edge); a task group of the NAC (1 ship)) is to be fought on "
        "the tabletop; the turn waits for its result. The NAC is on reduced maintenance: every "
        "damage check of its ships is made one level worse (§7.4).")


def test_the_template_is_a_valid_unfought_result(campaign, run):
    run("turn", "--source", campaign, "--now", NOW)
    loaded = parse_battle((campaign / "battles/t002/home.yaml").read_bytes(),
                          "battles/t002/home.yaml")
    assert not loaded.result.fought and loaded.result.held_by is None
    assert [s.ship for s in loaded.result.ships] == ["g1-1", "e1-1"]
    assert ADAPTER.json_schema()["additionalProperties"] is False


def test_running_again_keeps_the_umpires_unfinished_file(campaign, run):
    run("turn", "--source", campaign, "--now", NOW)
    fill(campaign, **{"held_by:": "held_by: nac"})
    kept = (campaign / "battles/t002/home.yaml").read_bytes()
    code, out, _ = run("turn", "--source", campaign, "--now", NOW)
    assert code == 0 and "waits for 1 battle" in out
    assert (campaign / "battles/t002/home.yaml").read_bytes() == kept


def test_the_filled_result_is_folded_in_recorded_and_verified(campaign, run):
    fight(campaign, run)
    code, out, err = run("turn", "--source", campaign, "--now", NOW)
    assert (code, err) == (0, "")
    assert out.splitlines()[-1].startswith("resolved t002: ")
    record = campaign / "state/turns/t002"
    assert (record / "battles/home.yaml").read_bytes() == \
        (campaign / "battles/t002/home.yaml").read_bytes()
    events = yaml.safe_load((record / "events.yaml").read_text())["events"]
    battle = next(e for e in events if e["kind"] == "battle")
    assert battle["text"] == ("The battle at Home, fought on the tabletop: the NAC holds the "
                              "field.")
    assert battle["order"] == "battles/t002/home.yaml"
    groups = yaml.safe_load((campaign / "state/groups.yaml").read_text())["groups"]
    assert [(g["id"], [s.get("damage", 0) for s in g["ships"]]) for g in groups] == \
        [("g1", [3])]
    assert run("turn", "--source", campaign, "--verify", "t002")[0] == 0


def test_a_wrong_result_is_reported_at_its_line_and_nothing_is_written(campaign, run):
    run("turn", "--source", campaign, "--now", NOW)
    fill(campaign, **{'"g1-1", design: dd, hull: 10, damage: 0':
                      '"g1-1", design: dd, hull: 10, damage: 12',
                      "fought: false": "fought: true"})
    before = files_of(campaign)
    code, _, err = run("turn", "--source", campaign, "--now", NOW)
    assert code == 1
    assert err.splitlines() == [
        "battles/t002/home.yaml:14:74: g1-1 had 10 hull boxes left, so it cannot lose 12; "
        "expected 0 to 10 (a ship that loses them all is destroyed)",
        "ftpress: 1 problem found; nothing was written"]
    assert files_of(campaign) == before


def test_a_result_file_that_is_not_yaml_of_a_battle_is_located(campaign, run):
    (campaign / "battles/t002").mkdir(parents=True)
    (campaign / "battles/t002/home.yaml").write_text(
        "turn: t002\nbattle: home\nat: home\nplayers: [esu, nac]\nheld_by: nac\n"
        "fought: true\nwinner: nac\n")
    code, _, err = run("turn", "--source", campaign, "--now", NOW)
    assert code == 1
    assert err.splitlines()[0].startswith("battles/t002/home.yaml:7:1: ")
    assert not (campaign / "state/turns/t002").exists()


def test_a_file_named_for_another_battle_is_refused(campaign):
    from ftpress.store.inputs import load_battles

    (campaign / "battles/t002").mkdir(parents=True)
    (campaign / "battles/t002/east.yaml").write_text(
        "turn: t002\nbattle: home\nat: home\nplayers: [esu, nac]\nfought: true\n")
    with pytest.raises(InputError) as raised:
        load_battles(campaign, "t002")
    assert [str(p) for p in raised.value.problems] == [
        "battles/t002/east.yaml:2:9: this file is named for battle 'east' but says 'home'; "
        "expected the file name and 'battle:' to agree"]


_FLEET = st.lists(st.sampled_from(["dd", "sc", "bb", "ch", "ff"]), min_size=1, max_size=4)


@settings(max_examples=40, deadline=None)
@given(_FLEET, _FLEET, st.binary(min_size=1, max_size=8), st.booleans())
def test_an_abstract_battle_accounts_for_every_ship(nac, esu, key, defender_attacks):
    """Every ship that went into an abstract battle is afterwards in a group (never
    less damaged) or named as lost; none is doubled; every die is in the log."""
    spec = {"battles": "abstract", "turn": 2,
            "systems": [{"id": "home", "hex": [0, 0], "owner": "nac"}],
            "groups": [{"id": "g1", "owner": "nac", "at": "home", "ships": nac},
                       {"id": "e1", "owner": "esu", "at": [1, 0], "ships": esu}]}
    state = build_state(spec)
    posture = "attack" if defender_attacks else "stand-off"
    orders = build_orders(state, {"esu": "groups:\n  e1: {move: home, posture: attack}\n",
                                  "nac": f"groups:\n  g1: {{hold: true, posture: {posture}}}\n"})
    dice = Dice.seeded(key)
    after, events = resolve(state, orders, dice, {})
    before = {(g.id, s.name): s.damage for g in state.groups.groups for s in g.ships}
    now = [(g.id, s.name, s.damage) for g in after.groups.groups for s in g.ships]
    assert len({(g, n) for g, n, _ in now}) == len(now)
    lost = {(e.group, e.text.split("'s ", 1)[1].removesuffix(" is destroyed."))
            for e in events if e.kind == "ship-lost"}
    for (group, name), damage in before.items():
        kept = [d for g, n, d in now if (g, n) == (group, name)]
        assert kept or (group, name) in lost, name
        assert not kept or kept[0] >= damage
    battle = [e for e in events if e.kind == "battle"]
    assert len(battle) == 1
    assert all(roll in dice.log for roll in battle[0].rolls)


def test_three_powers_go_to_the_table_even_in_an_abstract_campaign():
    """THREE_POWERS_GO_TO_THE_TABLE: the abstract combat has two sides."""
    import dataclasses

    from ftpress.rules.ftc2007.battles import Site, how_fought
    from ftpress.rules.ftc2007.plan import Plan
    from ftpress.state.hexes import Hex

    state = build_state({**STATE, "battles": "abstract"})
    plan = Plan.make(state, {})
    groups = tuple(state.groups.groups)
    third = dataclasses.replace(groups[0], id="f1", owner="fsr")
    assert how_fought(state, plan, Site("home", Hex(0, 0), "home", groups,
                                        ("esu", "nac"))) == "abstract"
    assert how_fought(state, plan, Site("home", Hex(0, 0), "home", (*groups, third),
                                        ("esu", "fsr", "nac"))) == "tabletop"


@pytest.mark.parametrize(("at", "battle"), [("vesper", "vesper"), ((2, -1), "hex-2-m1"),
                                            ((-3, 0), "hex-m3-0")])
def test_a_battle_is_named_for_its_world_or_its_hex(at, battle):
    from ftpress.state.battle_results import battle_id
    from ftpress.state.hexes import Hex

    assert battle_id(Hex(*at) if isinstance(at, tuple) else at) == battle


def test_ftpress_check_describes_battle_requests_and_prize_orders():
    from battlefixture import with_prizes

    from ftpress.rules.ftc2007.summary import describe_orders

    state = with_prizes(build_state({"systems": STATE["systems"],
                                     "groups": STATE["groups"][:1]}), {"nac": [
        {"id": "prize-t000-1", "name": "Lis", "at": "home", "design": "ch", "damage": 5,
         "taken_from": "esu"},
        {"id": "prize-t000-2", "name": "Kit", "at": "home", "design": "dd", "damage": 4,
         "taken_from": "esu"},
        {"id": "prize-t000-3", "name": "Wren", "at": "home", "design": "dd",
         "taken_from": "esu"}]})
    orders = build_orders(state, {"nac": (
        "groups:\n  g1: {hold: true, battle: abstract}\neconomy:\n  prizes:\n"
        "    prize-t000-1: {action: rebuild, group: g2}\n"
        "    prize-t000-2: {action: sell}\n    prize-t000-3: {action: strip}\n")})
    assert describe_orders(state, orders["nac"]) == [
        "g1 (1 ship) holds at Home, to stand off; in a battle it asks for the abstract "
        "combat (§14.1).",
        "Prize prize-t000-1 (Lis, a Tverdost) is rebuilt into g2, paying 3 now because no "
        "ship of its type is in service (§12.2.1).",
        "Prize prize-t000-2 (Kit, a Ticonderoga) is sold for scrap for 21 (§12.2.3).",
        "Prize prize-t000-3 (Wren, a Ticonderoga) is stripped for parts; what is left cannot "
        "be sold (§12.2.2)."]


def test_ftpress_check_reads_battle_result_files(campaign, run):
    run("turn", "--source", campaign, "--now", NOW)
    assert run("check", "--source", campaign)[0] == 0
    fill(campaign, **{"fate: afloat}": "fate: sunk}"})
    code, _, err = run("check", "--source", campaign, campaign / "battles/t002/home.yaml")
    assert code == 1
    assert err.splitlines()[:2] == [
        "battles/t002/home.yaml:14:83: ships[0].fate: input should be 'afloat', 'destroyed', "
        "'drifting' or 'crippled', got 'sunk'",
        "battles/t002/home.yaml:15:83: ships[1].fate: input should be 'afloat', 'destroyed', "
        "'drifting' or 'crippled', got 'sunk'"]


_FATE = st.tuples(st.integers(0, 10), st.sampled_from(["afloat", "destroyed", "drifting"]))


@settings(max_examples=40, deadline=None)
@given(st.lists(_FATE, min_size=1, max_size=3), st.lists(_FATE, min_size=1, max_size=3))
def test_a_tabletop_result_accounts_for_every_ship(nac, esu):
    """Folding in any consistent result: a ship destroyed is gone, a drifting one is the
    holder's prize (or stays with its own side), the rest keep their place with the
    damage added; no money moves."""
    from battlefixture import build_battles, prize_list

    spec = {**STATE, "groups": [
        {"id": "g1", "owner": "nac", "at": "home", "ships": ["dd"] * len(nac)},
        {"id": "e1", "owner": "esu", "at": [1, 0], "ships": ["dd"] * len(esu)}]}
    state = build_state(spec)
    fates = {("nac", f"g1-{i + 1}"): f for i, f in enumerate(nac)}
    fates.update({("esu", f"e1-{i + 1}"): f for i, f in enumerate(esu)})
    gone = {p for p in ("nac", "esu")
            if all(f != "afloat" and d < 10 for (q, _), (d, f) in fates.items() if q == p)}
    holder = next(iter({"nac", "esu"} - gone)) if len(gone) == 1 else None
    ships = "".join(f"  - {{player: {p}, group: {n[:2]}, ship: {n}, design: dd, hull: 10, "
                    f"damage: {d}, fate: {f}}}\n" for (p, n), (d, f) in fates.items())
    text = (f"turn: t002\nbattle: home\nat: home\nplayers: [esu, nac]\nships:\n{ships}"
            f"held_by: {holder or ''}\nfought: true\n")
    orders = build_orders(state, {"esu": "groups:\n  e1: {move: home, posture: attack}\n"})
    after, _ = resolve(state, orders, Dice.seeded("t"), battles=build_battles(
        {"home": text}, "t002"))
    kept = {s.name: s.damage for g in after.groups.groups for s in g.ships}
    prizes = {name for p in ("nac", "esu") for _, name, _ in prize_list(after, p)}
    for (power, name), (damage, fate) in fates.items():
        lost = fate == "destroyed" or damage >= 10
        captured = fate == "drifting" and not lost and holder not in (None, power)
        assert (name in prizes) == captured, name
        assert (name in kept) == (not lost and not captured), name
        if name in kept:
            assert kept[name] == damage
    assert [p.treasury for p in after.players.players] == \
        [p.treasury for p in state.players.players]
