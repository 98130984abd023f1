"""The "Your view" form offers what the ruleset computed, and what it offers the
ruleset accepts: every choice of every group, written into the file as the page writes
it (the lines the choice names, under the group's key), passes the ruleset's own check
against the same state. No rule is written twice: the page only assembles lines; a
move out of reach is not among them."""

from __future__ import annotations

import pytest
from demos import FTC2007, FTCAMP02

from ftpress import rules
from ftpress.orders.every_problem import judge
from ftpress.orders.load import orders_path
from ftpress.rules.choices import OrderChoices
from ftpress.state.turns import turn_id
from ftpress.yourview.report import legal_choices, written


@pytest.mark.parametrize("demo", [FTC2007, FTCAMP02], ids=["ftc2007", "ftcamp02"])
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
                text = written(choices, {group.id: index})
                judged = judge(text.encode(), path, ruleset, state)
                assert judged.problems == (), (choice.label, judged.problems)
                offered += 1
        assert offered >= len(choices.groups)


def test_a_move_out_of_reach_is_not_offered():
    state = FTC2007.state()
    player = state.players.players[0].id
    choices = legal_choices(state, player)
    assert isinstance(choices, OrderChoices) and choices.groups
    for group in choices.groups:
        reach = {line.removeprefix("move: ") for c in group.orders for line in c.lines
                 if line.startswith("move: ")}
        far = [s.id for s in state.map.systems if s.id not in reach]
        assert far  # the map is larger than a week's jump
