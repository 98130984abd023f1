"""The last of ftc2007's economic orders the "Your view" form offers: prizes (§12.2),
repairs with another ship's parts (§11.3.2, §11.3.3), keels changed (§13.2), repulse
damage owed repaired (§10.8), ordnance and biomass paid (§7.1, §11.5). Each option
offered passes the check alone; what the check refuses is not offered, or is past a
limit the page will not seal over."""

from __future__ import annotations

import dataclasses

import pytest
from demos import FTC2007

from ftpress import rules
from ftpress.orders.every_problem import judge
from ftpress.orders.load import orders_path
from ftpress.rules.choices import ItemChoices, ItemKind, OrderChoices
from ftpress.rules.ftc2007.catalogue import catalogue
from ftpress.rules.ftc2007.state_ext import Ftc2007Player, OwedDamage, Prize, with_owed
from ftpress.state.extension import extended
from ftpress.state.model import Keel, Ship, State
from ftpress.state.turns import turn_id
from ftpress.yourview.compose import Item, legal_choices, sums_over, written


def _problems(state: State, player: str, text: str) -> tuple[object, ...]:
    ruleset = rules.find_ruleset(state.campaign.ruleset)
    path = orders_path(turn_id(state.campaign.calendar.turn), player)
    return judge(text.encode(), path, ruleset, state).problems


def _week(state: State, turn: int) -> State:
    cal = dataclasses.replace(state.campaign.calendar, turn=turn)
    return dataclasses.replace(state, campaign=dataclasses.replace(state.campaign,
                                                                   calendar=cal))


def _economy(state: State, player: str) -> tuple[OrderChoices, ItemChoices]:
    choices = legal_choices(state, player)
    assert isinstance(choices, OrderChoices) and choices.economy is not None
    return choices, choices.economy


def _kind(economy: ItemChoices, kind_id: str) -> ItemKind:
    return next(kind for kind in economy.kinds if kind.id == kind_id)


def _every_option_passes(state: State, player: str, kind_id: str) -> list[str]:
    """Each option of the kind's one field, alone, passes the check: their lines."""
    choices, economy = _economy(state, player)
    kind = _kind(economy, kind_id)
    (field,) = [f for f in kind.fields if f.options]
    extra = {f.key: 1 for f in kind.fields if f.number}
    for j in range(len(field.options)):
        text = written(choices, {}, None, [(kind_id, {field.key: j, **extra})])
        assert _problems(state, player, text) == (), text
    return [o.lines[0] for o in field.options]


@pytest.fixture(scope="module")
def harbour() -> tuple[State, str, str]:
    """Week 13 (economic turn 2's first) of the demo, nac holding two prizes where its
    first real group lies at one of its worlds (one stripped already), and owing the
    damage of a repulse from economic turn 1 on that group's ships."""
    state = _week(FTC2007.state(), 13)
    group = next(g for g in state.groups_of("nac") if g.ships and not g.dummy
                 and isinstance(g.at, str) and (w := state.system(g.at)) is not None
                 and w.owner == "nac")
    design = next(d for d in catalogue().designs if d.navy == "nsl" and d.hull_boxes >= 6)
    hulk = Ship("Seydlitz", design.id, damage=1)
    wreck = Ship("Moltke", design.id, damage=design.hull_boxes - 1)
    parts = Ship("Goeben", design.id, damage=design.hull_boxes - 4)
    prizes = (Prize("prize-t009-1", group.at, hulk, "nsl"),
              Prize("prize-t009-2", group.at, wreck, "nsl"),
              Prize("prize-t009-3", group.at, parts, "nsl", stripped=True))
    players = tuple(extended(p, Ftc2007Player, prizes=prizes) if p.id == "nac" else p
                    for p in state.players.players)
    state = dataclasses.replace(state, players=dataclasses.replace(state.players,
                                                                  players=players))
    other = next(w for w in state.map.systems if w.owner not in (None, "nac"))
    state = with_owed(state, "nac", (
        OwedDamage(other.id, 2, 7, (group.ships[0].name,), 1),
        OwedDamage(group.at, 1, 3, (group.ships[0].name,), 2)))
    return state, "nac", group.id


def test_prizes_offered_pass_and_a_wreck_is_not_rebuilt(harbour):
    """§12.2: a prize may be sold, stripped or rebuilt into a group of yours where it
    lies or a new one; a hulk with fewer than two intact rows is not offered a rebuild
    (§12.2.1); a prize stripped already is offered nothing (§12.2.2); one order a
    prize: two the page will not seal, and the file cannot hold."""
    state, player, group = harbour
    lines = _every_option_passes(state, player, "prize-prize-t009-1")
    assert "{action: sell}" in lines and "{action: strip}" in lines
    assert f"{{action: rebuild, group: {group}}}" in lines
    assert "{action: rebuild, group: nac-prize-t009-1}" in lines
    wreck = _every_option_passes(state, player, "prize-prize-t009-2")
    assert not any("rebuild" in line for line in wreck)
    _, economy = _economy(state, player)
    assert "prize-prize-t009-3" not in {kind.id for kind in economy.kinds}
    twice: list[Item] = [("prize-prize-t009-1", {"action": 0})] * 2
    assert sums_over(economy, twice) == ["prize-prize-t009-1"]


def test_prizes_only_in_an_economic_week(harbour):
    """§5.2: prize orders are economic orders of an economic turn's first week."""
    state, player, _ = harbour
    choices = legal_choices(_week(state, 14), player)
    assert isinstance(choices, OrderChoices)
    kinds = {kind.id for kind in choices.economy.kinds} if choices.economy else set()
    assert not any(kind.startswith("prize-") for kind in kinds)


def test_parts_from_a_ship_or_a_stripped_prize(harbour):
    """§11.3.2, §11.3.3, §12.2.2: a damaged ship is offered parts from the ships of
    yours at the same world and from a prize stripped there, never her own, each
    alone passing; the donor keeps one intact box: past that the page will not seal,
    and the check refuses."""
    state, player, group_id = harbour
    group = next(g for g in state.groups_of(player) if g.id == group_id)
    ship = group.ships[0]
    hurt = dataclasses.replace(state, groups=dataclasses.replace(state.groups, groups=tuple(
        dataclasses.replace(g, ships=(dataclasses.replace(ship, damage=5), *g.ships[1:]))
        if g.id == group_id else g for g in state.groups.groups)))
    choices, economy = _economy(hurt, player)
    if "repair-parts" not in {kind.id for kind in economy.kinds}:
        pytest.skip(f"{group_id}'s world paid no income this economic turn")
    lines = _every_option_passes(hurt, player, "repair-parts")
    assert any('parts_from: "prize-t009-3"' in line for line in lines)
    assert not any(f"parts_from: {ship.name!r}".replace("'", '"') in line for line in lines)
    options = _kind(economy, "repair-parts").fields[0].options
    # The stripped prize has 4 hull boxes intact: she gives 3 at most.
    prize = [j for j, o in enumerate(options) if '"prize-t009-3"' in o.lines[0]]
    three = next(j for j in prize if options[j].lines[0].split("boxes: ")[1].startswith("3"))
    one = next(j for j in prize if options[j].lines[0].split("boxes: ")[1].startswith("1"))
    within: list[Item] = [("repair-parts", {"ship": three})]
    past: list[Item] = [*within, ("repair-parts", {"ship": one})]
    assert sums_over(economy, within) == []
    assert _problems(hurt, player, written(choices, {}, None, within)) == ()
    assert "parts-prize-t009-3" in sums_over(economy, past)
    assert _problems(hurt, player, written(choices, {}, None, past)) != ()


def test_owed_damage_of_a_past_economic_turn_alone(harbour):
    """§10.8: the damage owed from a repulse of an economic turn past may be repaired
    at its price, once; the damage of this economic turn's is not offered."""
    state, player, _ = harbour
    lines = _every_option_passes(state, player, "owed")
    assert len(lines) == 1
    choices, economy = _economy(state, player)
    twice: list[Item] = [("owed", {"world": 0})] * 2
    assert sums_over(economy, twice) == [f"owed-{lines[0]}"]
    assert _problems(state, player, written(choices, {}, None, twice)) != ()


def test_keel_changes_offered_pass_and_no_heavier_design(harbour):
    """§13.2, §19.3: a keel of yours on the slips may be changed to another design of
    your navy no heavier than hers, once a week; a heavier one is not offered."""
    state, player, _ = harbour
    navy = sorted((d for d in catalogue().designs if d.navy == "nac"), key=lambda d: d.mass)
    middle = navy[len(navy) // 2]
    world = next(w for w in state.map.systems if w.owner == player)
    keel = Keel("keel-1", player, world.id, middle.id, "Resolute", built=100)
    state = dataclasses.replace(state, queues=dataclasses.replace(state.queues,
                                                                  keels=(keel,)))
    lines = _every_option_passes(state, player, "change")
    offered = {line.split("design: ")[1] for line in lines}
    assert offered and all(next(d for d in navy if d.id == o).mass <= middle.mass
                           for o in offered)
    assert middle.id not in offered
    assert {d.id for d in navy if d.mass > middle.mass}.isdisjoint(offered)
    choices, economy = _economy(state, player)
    twice: list[Item] = [("change", {"keel": 0})] * 2
    assert sums_over(economy, twice) == ["change-Resolute"]
    assert _problems(state, player, written(choices, {}, None, twice)) != ()


def test_ordnance_for_all_biomass_for_the_sa_vasku_alone():
    """§7.1, §11.5: from economic turn 2, ordnance expended is declared and paid by
    any navy, biomass by a Sa'Vasku one alone; each passes the check; in economic turn
    1 neither is offered."""
    state = _week(FTC2007.state(), 13)
    for player in state.players.players:
        choices, economy = _economy(state, player.id)
        kinds = {kind.id for kind in economy.kinds}
        assert "ordnance" in kinds
        sa_vasku = catalogue().navy(player.navy or "")
        assert ("biomass" in kinds) == (sa_vasku is not None and sa_vasku.species == "sa-vasku")
        for kind in kinds & {"ordnance", "biomass"}:
            text = written(choices, {}, None, [(kind, {"points": 40})])
            assert f"  {kind}: 40" in text
            assert _problems(state, player.id, text) == (), text
    first = _week(FTC2007.state(), 1)
    first = dataclasses.replace(first, campaign=dataclasses.replace(
        first.campaign, calendar=dataclasses.replace(first.campaign.calendar, economic_turn=1)))
    for player in first.players.players:
        choices = legal_choices(first, player.id)
        assert isinstance(choices, OrderChoices)
        kinds = {kind.id for kind in choices.economy.kinds} if choices.economy else set()
        assert kinds.isdisjoint({"ordnance", "biomass", "owed"})
