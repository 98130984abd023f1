"""The tables of the "Your view" form (ships split off together, sct's screens and
combined attacks, ftcamp02's independents attached and detached) and ftc2007's
economic orders: every option offered is one the ruleset's own check accepts, every
combination the page lets stand (:func:`table_allows`, the sums' limits) is one it
accepts too, and what the check refuses is not offered or not let stand."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from demos import FTC2007, FTCAMP02, SCT

from ftpress import rules
from ftpress.orders.every_problem import judge
from ftpress.orders.load import orders_path
from ftpress.rules.choices import ItemChoices, OrderChoices
from ftpress.state.model import State
from ftpress.state.turns import turn_id
from ftpress.yourview.compose import Item, legal_choices, sums_over, table_allows, written

DEMOS = [FTC2007, FTCAMP02, SCT]
IDS = ["ftc2007", "ftcamp02", "sct"]


def _problems(state: State, player: str, text: str) -> tuple[object, ...]:
    ruleset = rules.find_ruleset(state.campaign.ruleset)
    path = orders_path(turn_id(state.campaign.calendar.turn), player)
    return judge(text.encode(), path, ruleset, state).problems


def _choices(state: State, player: str) -> OrderChoices:
    choices = legal_choices(state, player)
    assert isinstance(choices, OrderChoices)
    return choices


@pytest.mark.parametrize("demo", DEMOS, ids=IDS)
def test_every_table_option_is_legal_with_its_orders(demo):
    """Each option of each table, alone, with each order it is offered with."""
    state = demo.state()
    offered = 0
    for player in state.players.players:
        choices = _choices(state, player.id)
        for t, table in enumerate(choices.assignments):
            for i, item in enumerate(table.items):
                for j in range(1, len(item.options)):
                    text = written(choices, {}, {"": {t: (*[0] * i, j)}})
                    assert _problems(state, player.id, text) == (), text
                    offered += 1
        for group in choices.groups:
            for t, table in enumerate(group.assignments):
                for i, item in enumerate(table.items):
                    for j, option in enumerate(item.options[1:], 1):
                        assert option.with_orders, option
                        for order in option.with_orders:
                            text = written(choices, {group.id: (order, 0, 0)},
                                           {group.id: {t: (*[0] * i, j)}})
                            assert _problems(state, player.id, text) == (), text
                            offered += 1
    assert offered


def _group_of_three(state: State):
    """The first group of three ships or more that a player may split, with its player,
    that player's choices and the index of its split table."""
    for player in state.players.players:
        choices = _choices(state, player.id)
        for group in choices.groups:
            split = next((t for t, table in enumerate(group.assignments)
                          if table.forms == (("split", "grouped"),)), None)
            if split is not None and len(group.assignments[split].items) >= 3:
                return player, choices, group, split
    pytest.fail("no group of three ships or more")


def _random_picks(rng: random.Random, choices: OrderChoices):
    picked, tables = {}, {}
    for group in choices.groups:
        order = rng.randrange(len(group.orders))
        posture = rng.randrange(len(choices.postures)) if group.orders[order].needs_posture \
            else 0
        extras = [i for i, x in enumerate(group.extras)
                  if not i or x.with_orders is None or order in x.with_orders]
        picked[group.id] = (order, posture, rng.choice(extras) if extras else 0)
        tables[group.id] = {t: _table_picks(rng, table, order)
                            for t, table in enumerate(group.assignments)}
    tables[""] = {t: _table_picks(rng, table, None) for t, table in enumerate(choices.assignments)}
    return picked, tables


def _table_picks(rng: random.Random, table, order):
    """Picks the page lets stand: drawn until :func:`table_allows` agrees (nothing
    picked always does)."""
    for _ in range(50):
        picks = tuple(rng.randrange(len(item.options)) if rng.random() < 0.5 else 0
                      for item in table.items)
        if table_allows(table, picks, order):
            return picks
    return (0,) * len(table.items)


@pytest.mark.parametrize("demo", DEMOS, ids=IDS)
def test_combinations_the_page_lets_stand_are_legal(demo):
    """Random orders, extras and table picks for every group at once, as the page lets
    them stand together: the check finds no problem in the file written."""
    state = demo.state()
    rng = random.Random(31)
    combined = 0
    for player in state.players.players:
        choices = _choices(state, player.id)
        for _ in range(12):
            picked, tables = _random_picks(rng, choices)
            text = written(choices, picked, tables)
            assert _problems(state, player.id, text) == (), text
            combined += text.count("split:") + text.count("screen:") + text.count("combine:") \
                + text.count("attach:") + text.count("detach:")
    assert combined


@pytest.mark.parametrize("demo", DEMOS, ids=IDS)
def test_several_ships_split_off_at_once_but_never_all(demo):
    """§15.1 (ftc2007), §2.1 (sct), §4.2.2 (ftcamp02): every ship but one leaves in
    one split, which the check accepts; every ship leaving the page does not let
    stand, and the check refuses it."""
    state = demo.state()
    player, choices, group, split = _group_of_three(state)
    table = group.assignments[split]
    order = table.items[0].options[1].with_orders[0]
    some = (0, *[1] * (len(table.items) - 1))
    assert table_allows(table, some, order)
    text = written(choices, {group.id: (order, 0, 0)}, {group.id: {split: some}})
    assert f"split: {{{table.items[1].options[1].lines[1]}: [" in text
    assert _problems(state, player.id, text) == ()
    every = (1,) * len(table.items)
    assert not table_allows(table, every, order)
    text = written(choices, {group.id: (order, 0, 0)}, {group.id: {split: every}})
    assert _problems(state, player.id, text) != ()


@pytest.mark.parametrize("demo", DEMOS, ids=IDS)
def test_a_split_into_two_new_groups_at_once(demo):
    """§15.1 (ftc2007), §2.1 (sct), §4.2.2 (ftcamp02): ships of one group leave into two
    new groups at once, one ship staying: the file writes both, and the check accepts
    it; each new group is offered the same orders as the first."""
    state = demo.state()
    player, choices, group, split = _group_of_three(state)
    table = group.assignments[split]
    first, second = table.items[0].options[1], table.items[0].options[2]
    assert first.lines[1] != second.lines[1]
    assert first.with_orders == second.with_orders
    order = first.with_orders[0]
    picks = (1, 2, *[0] * (len(table.items) - 2))
    assert table_allows(table, picks, order)
    text = written(choices, {group.id: (order, 0, 0)}, {group.id: {split: picks}})
    assert (f"split: {{{first.lines[1]}: [{table.items[0].key}], {second.lines[1]}: "
            f"[{table.items[1].key}]}}") in text, text
    assert _problems(state, player.id, text) == (), text


def test_sct_screens_and_combined_attacks():
    """§6.6, §6.7: a ship may screen another of its force, or join its attack; a ship
    screened may screen a third or join its attack in turn, but the page lets no
    screen loop back and no attack join a ship that does not attack: both the check
    refuses."""
    state = SCT.state()
    player, choices, group, t = next(
        (p.id, c, g, t) for p in state.players.players for c in [_choices(state, p.id)]
        for g in c.groups for t, table in enumerate(g.assignments)
        if table.forms == (("screen", "map"), ("combine", "map")))
    table = group.assignments[t]
    a, b = table.items[0], table.items[1]

    def option(item, label):
        return next(j for j, o in enumerate(item.options) if o.label == label)

    screens = (option(a, f"screens {b.label}"), 0)
    text = written(choices, {}, {group.id: {t: screens}})
    assert f"screen: {{{a.key}: {b.key}}}" in text
    assert _problems(state, player, text) == ()
    joins = (option(a, f"joins {b.label}'s attack"), 0)
    assert _problems(state, player, written(choices, {}, {group.id: {t: joins}})) == ()
    loop = (option(a, f"screens {b.label}"), option(b, f"screens {a.label}"))
    assert not table_allows(table, loop, 0)
    assert _problems(state, player, written(choices, {}, {group.id: {t: loop}})) != ()
    chain = (option(a, f"joins {b.label}'s attack"), option(b, f"screens {a.label}"))
    assert not table_allows(table, chain, 0)
    assert _problems(state, player, written(choices, {}, {group.id: {t: chain}})) != ()
    if len(table.items) > 2:
        # A screen of a ship that screens a third in turn: a line, not a loop.
        c = table.items[2]
        line = (option(a, f"screens {b.label}"), option(b, f"screens {c.label}"))
        assert table_allows(table, line, 0)
        assert _problems(state, player, written(choices, {}, {group.id: {t: line}})) == ()
        loop = (*line, option(c, f"screens {a.label}"))
        assert not table_allows(table, loop, 0)
        assert _problems(state, player, written(choices, {}, {group.id: {t: loop}})) != ()
        joins = (option(a, f"screens {b.label}"), option(b, f"joins {c.label}'s attack"))
        assert table_allows(table, joins, 0)
        assert _problems(state, player, written(choices, {}, {group.id: {t: joins}})) == ()


def test_ftcamp02_independents_attach_and_detach():
    """§3.1: an attached independent may detach; a free one may attach to a standard
    group in its hex, one a round to each group; the check accepts both."""
    state = FTCAMP02.state()
    choices = _choices(state, "nac")
    table = choices.assignments[0]
    rider = next(item for item in table.items if item.options[1].lines == ("detach",))
    text = written(choices, {}, {"": {0: tuple(1 if i is rider else 0 for i in table.items)}})
    assert f"detach: [{rider.key}]" in text
    assert _problems(state, "nac", text) == ()
    # The same independent free in its hex: it is offered its group to attach to.
    ext = state.groups.groups
    freed = dataclasses.replace(state, groups=dataclasses.replace(state.groups, groups=tuple(
        dataclasses.replace(g, ext=dataclasses.replace(g.ext, attached_to=None))
        if g.id == rider.key else g for g in ext)))
    choices = _choices(freed, "nac")
    table = choices.assignments[0]
    item = next(i for i in table.items if i.key == rider.key)
    attach = next(j for j, o in enumerate(item.options) if o.lines[:1] == ("attach",))
    picks = tuple(attach if i is item else 0 for i in table.items)
    text = written(choices, {}, {"": {0: picks}})
    assert f"attach: {{{rider.key}: " in text
    assert _problems(freed, "nac", text) == ()
    # A group not in its hex is not offered.
    here = freed.hex_of(next(g for g in freed.groups.groups if g.id == rider.key).at)
    offered = {o.lines[1] for o in item.options[1:]}
    assert all(freed.hex_of(g.at) == here for g in freed.groups.groups if g.id in offered)
    assert {g.id for g in freed.groups_of("nac") if freed.hex_of(g.at) != here}.isdisjoint(
        offered)


def _economic_week(state: State, turn: int) -> State:
    cal = dataclasses.replace(state.campaign.calendar, turn=turn)
    return dataclasses.replace(state, campaign=dataclasses.replace(state.campaign,
                                                                   calendar=cal))


def _items(economy: ItemChoices, rng: random.Random | None = None) -> list[Item]:
    """One item of each kind, each field its first option (or, with ``rng``, one at
    random), a new name, a point."""
    found: list[Item] = []
    for n, kind in enumerate(economy.kinds):
        values: dict[str, int | str] = {}
        for field in kind.fields:
            if field.options:
                values[field.key] = rng.randrange(len(field.options)) if rng else 0
            else:
                values[field.key] = 1 if field.number else f"Newname {n}"
        found.append((kind.id, values))
    return found


def test_ftc2007_economic_orders_offered_are_legal():
    """§5.2, §6.3, §13.1: in the first week of economic turn 2 and after, each design
    offered for purchase, at each world offered, and each other item kind's every
    option, alone, passes the check; a design of another navy and another power's
    world are not offered."""
    state = _economic_week(FTC2007.state(), 13)
    for player in state.players.players:
        choices = _choices(state, player.id)
        economy = choices.economy
        assert economy is not None
        kinds = {kind.id: kind for kind in economy.kinds}
        assert {"maintenance", "purchase", "keel"} <= set(kinds)
        for kind in economy.kinds:
            for field in kind.fields:
                for j in range(len(field.options)):
                    (only,) = [item for item in _items(economy) if item[0] == kind.id]
                    added = [(only[0], {**only[1], field.key: j})]
                    text = written(choices, {}, None, added)
                    assert _problems(state, player.id, text) == (), text
        designs = [o.lines[0] for o in kinds["purchase"].fields[0].options]
        navy = player.navy or player.id
        assert all(d.startswith(f"{navy}-") or d.split("-")[0] != navy for d in designs)
        others = {s.id for s in state.map.systems if s.owner not in (None, player.id)}
        worlds = {o.lines[0] for o in kinds["purchase"].fields[1].options}
        assert worlds and worlds.isdisjoint(others)


def test_ftc2007_economic_orders_together_within_their_sums():
    """Random items of every kind together, as the page lets them stand (each sum
    within its blocking limit, :func:`sums_over`): the check finds no problem."""
    state = _economic_week(FTC2007.state(), 13)
    rng = random.Random(5)
    for player in state.players.players:
        choices = _choices(state, player.id)
        assert choices.economy is not None
        for _ in range(4):
            added: list[Item] = []
            for item in [item for item in _items(choices.economy, rng)
                         if item[0] != "maintenance"] + _items(choices.economy)[:1]:
                if not sums_over(choices.economy, [*added, item]):
                    added.append(item)
            text = written(choices, {}, None, added)
            assert "economy:\n  maintenance: " in text
            assert _problems(state, player.id, text) == (), text


def test_ftc2007_midweek_offers_keels_and_repairs_alone():
    """§13.1, §13.2, §11.1: away from an economic turn's first week only keels (laid or
    changed) and repairs may be ordered, so only they are offered; a repair is of a ship that lost hull
    boxes, no more than she lost, and her group must hold (§11.4)."""
    state = FTC2007.state()
    assert (state.campaign.calendar.turn - 1) % state.campaign.calendar \
        .turns_per_economic_turn  # the demo's open week is not an economic turn's first
    group = next(g for g in state.groups_of("nac") if g.ships and isinstance(g.at, str))
    ship = group.ships[0]
    hurt = dataclasses.replace(state, groups=dataclasses.replace(state.groups, groups=tuple(
        dataclasses.replace(g, ships=(dataclasses.replace(ship, damage=2), *g.ships[1:]))
        if g.id == group.id else g for g in state.groups.groups)))
    choices = _choices(hurt, "nac")
    assert choices.economy is not None
    kinds = {kind.id: kind for kind in choices.economy.kinds}
    assert set(kinds) <= {"keel", "change", "repair", "repair-parts"} and "keel" in kinds
    if "repair" not in kinds:
        pytest.skip(f"{group.id} is not at a world that paid income")
    options = kinds["repair"].fields[0].options
    mine = [o for o in options if f'ship: {json.dumps(ship.name)}' in o.lines[0]]
    assert [o.lines[0].rsplit(" ", 1)[1] for o in mine] == ["1", "2"]
    assert all(o.holds == (group.id,) for o in mine)
    j = options.index(mine[-1])
    text = written(choices, {}, None, [("repair", {"ship": j})])
    assert _problems(hurt, "nac", text) == ()
    # Three boxes of two lost: over the ship's limit, and refused by the check.
    limit = next(lim for lim in choices.economy.limits if lim.sum == f"boxes-{group.id}-"
                 f"{ship.name}")
    assert limit.most == 2 and limit.blocks
    both = [("repair", {"ship": j}), ("repair", {"ship": options.index(mine[0])})]
    assert _problems(hurt, "nac", written(choices, {}, None, both)) != ()


def test_ftc2007_defences_and_spares_within_their_limits():
    """§10.5: a world of yours that lost defence points may have them rebuilt, up to
    what it lost, one rebuilding at a time; §6.2.1: spares are topped up where they
    were placed, up to their level. Within the limits the page sets the check accepts
    the items; past them it refuses them."""
    state = _economic_week(FTC2007.state(), 13)
    world = next(w for w in state.map.systems if w.owner == "fse" and w.full_idp)
    harmed = dataclasses.replace(state, map=dataclasses.replace(state.map, systems=tuple(
        dataclasses.replace(w, idp=w.full_idp - 3, idp_full=w.full_idp) if w.id == world.id else w
        for w in state.map.systems)))
    choices = _choices(harmed, "fse")
    assert choices.economy is not None
    kinds = {kind.id: kind for kind in choices.economy.kinds}
    limits = {limit.sum: limit for limit in choices.economy.limits}
    at = [o.lines[0] for o in kinds["defences"].fields[0].options].index(world.id)
    assert limits[f"defence-points-{world.id}"].most == 3
    assert limits[f"defences-{world.id}"].most == 1
    three = [("defences", {"world": at, "points": 3})]
    assert _problems(harmed, "fse", written(choices, {}, None, three)) == ()
    four = [("defences", {"world": at, "points": 4})]
    assert _problems(harmed, "fse", written(choices, {}, None, four)) != ()
    twice = [("defences", {"world": at, "points": 1})] * 2
    assert _problems(harmed, "fse", written(choices, {}, None, twice)) != ()
    spares = kinds["spares"]
    place = spares.fields[0].options[0].lines[0]
    room = limits[f"spares-{place}"].most
    assert room > 0
    assert _problems(harmed, "fse", written(choices, {}, None, [
        ("spares", {"world": 0, "points": room})])) == ()
    assert _problems(harmed, "fse", written(choices, {}, None, [
        ("spares", {"world": 0, "points": room}), ("spares", {"world": 0, "points": 1})])) != ()
