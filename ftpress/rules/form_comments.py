"""What every ruleset's order form (``Ruleset.order_form``) starts with, and its
comments wrapped to be read in an editor: a long list of worlds or ships goes on
over indented comment lines."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from dataclasses import dataclass

from ftpress.state.model import Group, Player, State
from ftpress.state.turns import turn_id

#: Characters a comment line may run to, its indentation in the file included.
WIDTH = 92


@dataclass(frozen=True, slots=True)
class FormFor:
    """Whose form it is: the open turn, the player, and the groups they hold."""

    turn: str
    player: Player
    groups: tuple[Group, ...]
    #: The form's first line: whose orders, for which turn, due when.
    heading: str


def form_for(state: State, player_id: str) -> FormFor:
    """The open turn's form of ``player_id``, a player of the campaign."""
    turn = turn_id(state.campaign.calendar.turn)
    player = state.player(player_id)
    assert player is not None  # the command names only players of the campaign
    mine = tuple(g for g in state.groups.groups if g.owner == player_id)
    return FormFor(turn, player, mine, f"# Orders of {player.name} for {turn}, due "
                                       f"{state.campaign.calendar.deadline.isoformat()}.")


def wrapped(lines: Iterable[str], indent: int = 0) -> list[str]:
    """``lines`` of a form with each long ``# `` comment wrapped for a place ``indent``
    spaces in (the caller indents); YAML, and comments that show YAML (``#   …``),
    are left as they are."""
    out: list[str] = []
    for line in lines:
        if line.startswith("# ") and not line.startswith("#  ") and len(line) + indent > WIDTH:
            out.extend(textwrap.wrap(line[2:], WIDTH - indent, initial_indent="# ",
                                     subsequent_indent="#   ", break_long_words=False,
                                     break_on_hyphens=False))
        else:
            out.append(line)
    return out
