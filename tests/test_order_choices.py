"""The "Your view" form offers what the ruleset computed, and what it offers the
ruleset accepts: every choice of every group, written into the file as the page writes
it (the lines the choice names, under the group's key), passes the ruleset's own check
against the same state. No rule is written twice: the page only assembles lines; a
move out of reach is not among them."""

from __future__ import annotations

import dataclasses

import pytest
from demos import FTC2007, FTCAMP02, SCT

from ftpress import rules
from ftpress.orders.every_problem import judge
from ftpress.orders.load import orders_path
from ftpress.rules.choices import Choice, GroupChoices, OrderChoices
from ftpress.state.turns import turn_id
from ftpress.yourview.report import legal_choices, written


@pytest.mark.parametrize("demo", [FTC2007, FTCAMP02, SCT], ids=["ftc2007", "ftcamp02", "sct"])
def test_every_choice_offered_is_legal(demo):
    state = demo.state()
    ruleset = rules.find_ruleset(state.campaign.ruleset)
    for player in state.players.players:
        choices = legal_choices(state, player.id)
        assert isinstance(choices, OrderChoices)
        path = orders_path(turn_id(state.campaign.calendar.turn), player.id)
        offered = 0
        for group in choices.groups:
            for index, choice in enumerate(group.orders):
                for posture in range(len(choices.postures) if choice.needs_posture else 1):
                    text = written(choices, {group.id: (index, posture, 0)})
                    judged = judge(text.encode(), path, ruleset, state)
                    assert judged.problems == (), (choice.label, judged.problems)
                offered += 1
            # A split or merge, with each order it is offered with.
            for extra_index, extra in enumerate(group.extras[1:], 1):
                assert extra.with_orders, extra
                for index in extra.with_orders:
                    text = written(choices, {group.id: (index, 0, extra_index)})
                    judged = judge(text.encode(), path, ruleset, state)
                    assert judged.problems == (), (extra.label, judged.problems)
                    offered += 1
        assert offered >= len(choices.groups)


@pytest.mark.parametrize("demo", [FTC2007, FTCAMP02, SCT], ids=["ftc2007", "ftcamp02", "sct"])
def test_splits_and_merges_are_offered(demo):
    """§15.1 (ftc2007), §4.2.2 (ftcamp02), §2.1 phase 9 (sct): some group of the demo
    may split ships off (its table of them), and some may take in another beside it;
    a merge leaves the group it takes in out of the file (it has no orders of its own)."""
    state = demo.state()
    labels, merged = [], []
    for player in state.players.players:
        choices = legal_choices(state, player.id)
        assert isinstance(choices, OrderChoices)
        for group in choices.groups:
            for index, extra in enumerate(group.extras):
                labels.append(extra.label)
                if extra.absorbs:
                    text = written(choices, {group.id: (extra.with_orders[0], 0, index)})
                    assert f"  {extra.absorbs[0]}:" not in text
                    merged.append(extra.label)
            labels += [table.label for table in group.assignments]
    assert any(label.startswith("Split off as ") for label in labels), labels
    if demo is not FTCAMP02 or merged:
        assert merged, labels


def test_a_lone_escort_is_offered_scouting():
    """§2.3: a group of one light ship may scout a neutral, unscouted world in reach;
    the choice takes a posture, and the check accepts it. Each group of the demo is
    made, in turn, a lone escort: one light ship of its power's."""
    state = FTC2007.state()
    ruleset = rules.find_ruleset(state.campaign.ruleset)
    offered = []
    for group in state.groups.groups:
        light = [s for g in state.groups_of(group.owner) for s in g.ships
                 if (d := state.design(s.design)) and d.mass <= 30]
        if not light:
            continue
        lone = dataclasses.replace(group, ships=(light[0],))
        alone = dataclasses.replace(state, groups=dataclasses.replace(state.groups, groups=tuple(
            lone if g.id == group.id else g for g in state.groups.groups)))
        choices = legal_choices(alone, group.owner)
        assert isinstance(choices, OrderChoices)
        mine = next(g for g in choices.groups if g.id == group.id)
        path = orders_path(turn_id(state.campaign.calendar.turn), group.owner)
        for index, choice in enumerate(mine.orders):
            if choice.lines[0].startswith("scout: "):
                assert choice.needs_posture
                text = written(choices, {group.id: (index, 2, 0)})
                assert judge(text.encode(), path, ruleset, alone).problems == ()
                offered.append(choice.lines[0])
    assert offered, "no lone escort of the demo could scout"


def test_two_groups_that_would_take_each_other_in():
    """The file the page writes when two groups each pick a merge of the other: in the
    file's order, the first takes the second in, and the second, taken in, takes in
    none (its pick waits until it is free): never a file with neither."""
    hold = Choice("hold", ("hold: true",))
    a = GroupChoices("nac-1", "nac-1", (hold,), (Choice("none", ()), Choice(
        "merge nac-2", ("merge: [nac-2]",), absorbs=("nac-2",), with_orders=(0,))))
    b = GroupChoices("nac-2", "nac-2", (hold,), (Choice("none", ()), Choice(
        "merge nac-1", ("merge: [nac-1]",), absorbs=("nac-1",), with_orders=(0,))))
    choices = OrderChoices(("turn: t002", "player: nac"), "groups", (a, b))
    assert written(choices, {"nac-1": (0, 0, 1), "nac-2": (0, 0, 1)}) == (
        "turn: t002\nplayer: nac\ngroups:\n  nac-1:\n    hold: true\n    merge: [nac-2]\n")
    assert written(choices, {"nac-2": (0, 0, 1)}) == (
        "turn: t002\nplayer: nac\ngroups:\n  nac-2:\n    hold: true\n    merge: [nac-1]\n")
