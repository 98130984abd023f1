"""The files of a state folder: what each is called and which model it holds.

A state folder is ``state/`` (the current state) or a turn's snapshot
``state/turns/<turn-id>/``. Each file is one kind, so a pull request that
moves a fleet touches ``groups.yaml`` and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter

from ftpress.state import model

STATE_DIR = "state"


@dataclass(frozen=True, slots=True)
class FileKind:
    name: str  # also the name of its JSON Schema: schemas/<name>.json
    file: str
    adapter: TypeAdapter[Any]
    #: What the file holds, for messages and schema titles.
    about: str


KINDS: dict[str, FileKind] = {k.name: k for k in (
    FileKind("campaign", "campaign.yaml", TypeAdapter(model.CampaignFile),
             "the campaign: id, name, ruleset, calendar, setup and settings"),
    FileKind("players", "players.yaml", TypeAdapter(model.PlayersFile),
             "the players: names, colours, treasuries, capitals, upkeep levels"),
    FileKind("map", "map.yaml", TypeAdapter(model.MapFile),
             "the star map: its radius, star systems and charted routes"),
    FileKind("designs", "designs.yaml", TypeAdapter(model.DesignsFile),
             "the ship designs in use"),
    FileKind("groups", "groups.yaml", TypeAdapter(model.GroupsFile),
             "the task groups: who owns them, where they are, their ships"),
    FileKind("queues", "queues.yaml", TypeAdapter(model.QueuesFile),
             "work under way: keels, repairs, and what the ruleset queues beside them"),
)}

#: The log of every die rolled; found in each turn's snapshot, not in ``state/``.
DICE = FileKind("dice", "dice.yaml", TypeAdapter(model.DiceFile),
                "every die rolled to make a turn or the starting map, in order")

