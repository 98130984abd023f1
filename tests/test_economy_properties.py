"""Properties of the ftc2007 economy over random campaigns, orders and dice.

Money is traceable: for every player, the treasury after a turn less the
treasury before is the sum of the ``amount`` of that turn's events for that
player, and a treasury never goes below zero (there is no credit, §6.3).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from turnfixture import build_orders, build_state

from ftpress.rules.ftc2007.orders import problems
from ftpress.rules.ftc2007.state_ext import interdictor, spares_of
from ftpress.rules.ftc2007.summary import describe_orders
from ftpress.rules.ftc2007.turn import resolve
from ftpress.state.dice import Dice, KeyedStream

WORLDS = [("home", [0, 0]), ("far", [2, -1]), ("east", [-2, 1]), ("west", [1, 1])]
DESIGNS = ["dd", "sc", "cl", "fr", "nx", "ff", "sv", "nac-harrison"]


@st.composite
def campaigns(draw):
    """A small state in some week of some economic turn, with money, damage and works."""
    systems = []
    for i, (world_id, hex_) in enumerate(WORLDS):
        owner = "nac" if i < 2 else draw(st.sampled_from(["esu", "nac", None]))
        income = draw(st.sampled_from([0, 30, 50, 50, 80])) if owner else None
        system = {"id": world_id, "hex": hex_, "owner": owner}
        if owner:
            full = draw(st.sampled_from([30, 60]))
            system |= {"income": income, "idp": draw(st.integers(0, full)), "idp_full": full}
            if draw(st.booleans()) and draw(st.booleans()):
                system["interdicted_by"] = "esu" if owner == "nac" else "nac"
        systems.append(system)
    owned = [s["id"] for s in systems if s["owner"] == "nac"]
    groups = []
    for n in range(draw(st.integers(0, 3))):
        ships = [{"design": draw(st.sampled_from(["dd", "sc", "cl", "fr", "nx", "sv"])),
                  "damage": draw(st.integers(0, 2))} for _ in range(draw(st.integers(1, 3)))]
        groups.append({"id": f"nac-{n + 1}", "owner": "nac",
                       "at": draw(st.sampled_from(owned)), "ships": ships})
    esu_worlds = [s["id"] for s in systems if s["owner"] == "esu"]
    if esu_worlds:
        groups.append({"id": "esu-1", "owner": "esu", "at": esu_worlds[0], "ships": ["ff"]})
    keels = [{"id": f"k{i}", "owner": "nac", "at": draw(st.sampled_from(owned)),
              "design": draw(st.sampled_from(["dd", "sc", "cl"])), "name": f"Keel {i}",
              "built": draw(st.sampled_from([0, 30, 100]))}
             for i in range(draw(st.integers(0, 2)))]
    spares = [{"owner": "nac", "at": "home", "level": 100,
               "stock": draw(st.integers(0, 50)), "arriving": draw(st.integers(0, 50))}]
    turn = draw(st.sampled_from([1, 2, 6, 7, 7, 8, 13, 13]))
    defences = []
    home = systems[0]
    if home["idp"] < home["idp_full"] and draw(st.booleans()):
        defences.append({"system": "home", "owner": "nac", "points": home["idp_full"] -
                         home["idp"], "cost": 5, "ready": (turn - 1) // 6 + 1})
    return {"turn": turn, "systems": systems, "groups": groups, "keels": keels,
            "spares": spares, "defences": defences,
            "players": {"nac": {"treasury": draw(st.integers(0, 400)),
                                "maintenance": draw(st.sampled_from(
                                    ["full", "standardised", "reduced"])),
                                "ally": draw(st.sampled_from([None, "esu"]))},
                        "esu": {"treasury": draw(st.integers(0, 100))}}}


@st.composite
def economy_orders(draw, spec):
    """An economy section for nac, legal or not: the vetting sorts them out."""
    owned = [s["id"] for s in spec["systems"] if s["owner"] == "nac"]
    lines = ["economy:"]
    if draw(st.booleans()):
        lines.append(f"  maintenance: {draw(st.sampled_from(['full', 'standardised', 'reduced']))}")
    if draw(st.booleans()):
        lines.append(f"  ordnance: {draw(st.integers(1, 90))}")
    kinds = draw(st.lists(st.sampled_from(["purchases", "keels", "repairs", "repairs",
                                           "spares", "defences"]), max_size=5))
    by_kind: dict[str, list[str]] = {}
    for i, kind in enumerate(kinds):
        if kind in ("purchases", "keels"):
            item = (f"{{design: {draw(st.sampled_from(DESIGNS))}, at: "
                    f"{draw(st.sampled_from([*owned, 'east']))}, name: New {i}}}")
        elif kind == "repairs" and spec["groups"]:
            group = draw(st.sampled_from([g for g in spec["groups"] if g["owner"] == "nac"]
                                         or spec["groups"]))
            n = draw(st.integers(1, len(group["ships"])))
            damage = group["ships"][n - 1].get("damage", 0) if isinstance(
                group["ships"][n - 1], dict) else 0
            donor = draw(st.sampled_from([None, None, f"{group['id']}-1", "nac-1-2"]))
            extra = f", parts_from: {donor}" if donor else ""
            item = (f"{{group: {group['id']}, ship: {group['id']}-{n}, boxes: "
                    f"{draw(st.integers(1, max(damage, 1)))}{extra}}}")
        elif kind == "spares":
            item = f"{{at: {draw(st.sampled_from(owned))}, points: {draw(st.integers(1, 60))}}}"
        elif kind == "defences":
            item = f"{{system: {draw(st.sampled_from(owned))}, points: {draw(st.integers(1, 40))}}}"
        else:
            continue
        by_kind.setdefault(kind, []).append(item)
    for kind, items in by_kind.items():
        lines.append(f"  {kind}:")
        lines += [f"    - {item}" for item in items]
    return "\n".join(lines) + "\n" if len(lines) > 1 else ""


@st.composite
def turns(draw):
    spec = draw(campaigns())
    text = draw(economy_orders(spec))
    moves = []
    for g in spec["groups"]:
        if g["owner"] == "nac" and draw(st.booleans()) and draw(st.booleans()):
            where = draw(st.sampled_from([s["id"] for s in spec["systems"]]))
            if where != g["at"]:
                moves.append(f"  {g['id']}: {{move: {where}, posture: attack}}")
    if moves:
        text = "groups:\n" + "\n".join(moves) + "\n" + text
    return spec, {"nac": text or "groups: {}\n"}


@settings(max_examples=200, deadline=None)
@given(turns(), st.binary(min_size=1, max_size=8))
def test_money_is_traceable_and_never_below_zero(turn, key):
    spec, texts = turn
    state = build_state(spec)
    orders = build_orders(state, texts)
    for loaded in orders.values():
        problems(state, loaded)  # checking never raises, whatever the orders
    after, events = resolve(state, orders, Dice(KeyedStream(key)), {})
    for player in state.players.players:
        mine = [e for e in events if e.player == player.id and e.amount is not None]
        assert after.player(player.id).treasury - player.treasury == sum(e.amount for e in mine)
        assert after.player(player.id).treasury >= 0
        assert all(e.account is not None for e in mine)
    assert all(e.amount == 0 for e in events if e.kind in ("unpaid", "income-lost"))
    for group in after.groups.groups:
        for ship in group.ships:
            design = after.design(ship.design)
            assert design is not None and 0 <= ship.damage < design.hull_boxes
    for keel in after.queues.keels:
        design = after.design(keel.design)
        assert design is not None and 0 <= keel.built < design.points
    for s in spares_of(after):
        assert s.stock >= 0 and s.stock + s.arriving <= s.level
    assert resolve(state, build_orders(state, texts), Dice(KeyedStream(key)), {}) == (after, events)


@settings(max_examples=100, deadline=None)
@given(campaigns(), st.binary(min_size=1, max_size=8))
def test_income_is_every_held_world_not_interdicted(spec, key):
    """§5.2, §10.6: as an economic turn opens each held world pays exactly its
    income, or nothing if interdicted, one event per world."""
    state = build_state(spec)
    _, events = resolve(state, {}, Dice(KeyedStream(key)), {})
    cal = state.campaign.calendar
    opening = cal.economic_turn > 1 and (cal.turn - 1) % cal.turns_per_economic_turn == 0
    paid = {e.at: e.amount for e in events if e.kind == "income"}
    lost = {e.at for e in events if e.kind == "income-lost"}
    held = {s.id: s for s in state.map.systems if s.owner is not None}
    if not opening:
        assert not paid and not lost
        return
    assert lost == {w for w, s in held.items() if interdictor(s)}
    assert paid == {w: s.income for w, s in held.items() if not interdictor(s)}


def test_check_describes_the_economic_orders_in_plain_words():
    """``ftpress check`` says what each economic order will cost and when it is done,
    spending in the order it is paid."""
    state = build_state({
        "turn": 7, "players": {"nac": {"ally": "esu", "treasury": 400}},
        "systems": [{"id": "home", "hex": [0, 0], "owner": "nac", "income": 60, "idp": 20,
                     "idp_full": 60},
                    {"id": "far", "hex": [2, -1], "owner": "nac", "income": 30,
                     "interdicted_by": "esu"}],
        "groups": [{"id": "g1", "owner": "nac", "at": "home",
                    "ships": [{"design": "dd", "damage": 4}]}],
        "spares": [{"owner": "nac", "at": "home", "level": 100, "stock": 6}]})
    orders = build_orders(state, {"nac": (
        "economy:\n"
        "  maintenance: reduced\n"
        "  ordnance: 45\n"
        "  spares: [{at: home, points: 40}]\n"
        "  purchases: [{design: esu-novgorod, at: home, name: Lisa}]\n"
        "  keels: [{design: dd, at: home, name: Halberd}]\n"
        "  repairs: [{group: g1, ship: g1-1, boxes: 4}]\n"
        "  defences: [{system: home, points: 40}]\n")})
    assert describe_orders(state, orders["nac"]) == [
        "Not mentioned, so holding to stand off: g1.",
        "Maintenance for economic turn 2: reduced (§7).",
        "Ordnance worth 45 expended in economic turn 1: billed 23 when its books close (§7.1).",
        "As this turn opens, the books of economic turn 1 close: income 60 from 1 world, 30 "
        "lost to interdiction at Far (§10.6); "
        "upkeep 11 (§7); the treasury then holds 426.",
        "Tops up the spares at Home by 40 points for 30 (75%), in stock from economic turn 3 "
        "(§6.2.1).",
        "Buys Lisa (Novgorod: FF, 68 points) for 55 (20% off, an ally's design), delivered at Home "
        "as the economic turn opens, in a new group there (§13.1).",
        "Lays down the keel of Halberd (Ticonderoga: DD, 108 points) at Home: 100 points of "
        "work a week, paid as it is built, completed after 2 weeks in a new group there "
        "(§13.1).",
        "Repairs 4 hull boxes of g1-1 (g1) for 6 at 3 a box (§11.2), 6 of it from the spares "
        "there (§11.3.1); g1 holds while she is in the yard, and the boxes are back at the end "
        "of the week (§11.4).",
        "Rebuilds 40 defence points at Home for 200, standing again from economic turn 4 "
        "(§10.5).",
        "Paid in the order written, after the books close; what the treasury cannot pay then "
        "is not done (§6.3).",
        "Everything written can be paid: the treasury would hold 35 at the end of the week."]


def test_check_describes_a_keel_laid_midweek_without_closing_books():
    """§13.1: a keel may be laid in any week; outside the first week of an economic
    turn no books close, so ``ftpress check`` says nothing of them."""
    state = build_state({"turn": 9, "players": {"nac": {"treasury": 150}},
                         "systems": [{"id": "home", "hex": [0, 0], "owner": "nac"}]})
    orders = build_orders(state, {"nac": (
        "economy:\n"
        "  keels: [{design: dd, at: home, name: Halberd}]\n")})
    assert describe_orders(state, orders["nac"]) == [
        "Lays down the keel of Halberd (Ticonderoga: DD, 108 points) at Home: 100 points of "
        "work a week, paid as it is built, completed after 2 weeks in a new group there "
        "(§13.1).",
        "Paid in the order written; what the treasury cannot pay then is not done (§6.3).",
        "Everything written can be paid: the treasury would hold 50 at the end of the week."]


def test_check_warns_of_what_the_treasury_cannot_pay():
    state = build_state({"turn": 7, "players": {"nac": {"treasury": 0}},
                         "systems": [{"id": "home", "hex": [0, 0], "owner": "nac"}]})
    orders = build_orders(state, {"nac": (
        "economy:\n"
        "  purchases: [{design: nac-ticonderoga, at: home, name: Halberd}, {design: "
        "nac-harrison, at: home, "
        "name: Wren}]\n")})
    assert describe_orders(state, orders["nac"])[-3:] == [
        "Paid in the order written, after the books close; what the treasury cannot pay then "
        "is not done (§6.3).",
        "Not enough money: the treasury cannot pay 109 for buying Halberd (Ticonderoga, DD), "
        "and there is no credit, so it is not done (§13.1).",
        "After that, the treasury would hold 16 at the end of the week."]
