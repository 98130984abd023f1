"""Battle results and prizes for turn cases (tests/turns/ftc2007/battle-*, capture-*).

A case may give ``state: {prizes: {nac: [{id, at, design, damage, taken_from}]}}``
(prizes a player holds when the turn opens), ``battles: {vesper: <the battle-result
file as YAML text>}`` (the umpire's results), ``battle_problems`` (every problem
the results must raise, as ``path:line:col: message``), and ``after: {prizes:
{nac: [[id, ship, at], …]}}``.

It also keeps the campaign folder ``ftpress turn`` is tried on with a battle
fought on the tabletop (tests/test_battles.py, tests/test_redo.py): at turn
t002, esu's ``e1`` attacks nac's ``g1`` at home, and the turn waits for the
result ``battles/t002/home.yaml``; :data:`FOUGHT` fills it in.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from turnfixture import build_state

from ftpress.rules.ftc2007.state_ext import Ftc2007Player, Prize, prizes_of
from ftpress.state.battle_results import LoadedBattle, battle_path, parse_battle
from ftpress.state.extension import extended
from ftpress.state.hexes import Hex
from ftpress.state.model import Ship, State
from ftpress.state.save import save_state

#: When the tabletop campaign's turns are run.
NOW = "2026-03-23T09:00:00+00:00"
STATE = {
    "systems": [{"id": "home", "hex": [0, 0], "owner": "nac"},
                {"id": "esu-cap", "hex": [-2, 3], "owner": "esu"}],
    "groups": [{"id": "g1", "owner": "nac", "at": "home", "ships": ["dd"]},
               {"id": "e1", "owner": "esu", "at": [1, 0], "ships": ["dd"]}],
    "turn": 2,
}
ORDERS = "turn: t002\nplayer: esu\ngroups:\n  e1: {move: home, posture: attack}\n"
#: The battle at home as fought: e1-1 destroyed, g1-1 three boxes down, nac holds the field.
FOUGHT = {
    '"e1-1", design: dd, hull: 10, damage: 0, fate: afloat':
        '"e1-1", design: dd, hull: 10, damage: 0, fate: destroyed',
    '"g1-1", design: dd, hull: 10, damage: 0': '"g1-1", design: dd, hull: 10, damage: 3',
    "held_by:": "held_by: nac", "fought: false": "fought: true"}


def with_prizes(state: State, spec: dict[str, list[dict[str, Any]]]) -> State:
    players = []
    for player in state.players.players:
        prizes = tuple(Prize(p["id"], Hex(*p["at"]) if isinstance(p["at"], list) else p["at"],
                             Ship(p.get("name", p["id"]), p["design"], p.get("damage", 0)),
                             p["taken_from"], p.get("stripped", False))
                       for p in spec.get(player.id, ()))
        players.append(extended(player, Ftc2007Player, prizes=prizes))
    return dataclasses.replace(state, players=dataclasses.replace(state.players,
                                                                  players=tuple(players)))


def build_battles(spec: dict[str, str], turn: str = "t001") -> dict[str, LoadedBattle]:
    return {battle: parse_battle(text.encode("utf-8"), battle_path(turn, battle))
            for battle, text in spec.items()}


def prize_list(state: State, player_id: str) -> list[list[Any]]:
    player = state.player(player_id)
    assert player is not None
    return [[p.id, p.ship.name, [p.at.q, p.at.r] if isinstance(p.at, Hex) else p.at]
            for p in prizes_of(player)]


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    """The tabletop campaign: t002 open, esu's attack ordered."""
    root = tmp_path / "campaign"
    save_state(root, build_state(STATE))
    (root / "site.yaml").write_text("title: Case\nbase_url: https://example.org/\n"
                                    "timezone: UTC\n")
    (root / "orders/t002").mkdir(parents=True)
    (root / "orders/t002/esu.yaml").write_text(ORDERS)
    return root


def fill(root: Path, **changes: str) -> None:
    """The umpire's edits to the result file of the battle at home (each text must be there)."""
    path = root / "battles/t002/home.yaml"
    text = path.read_text()
    for old, new in changes.items():
        assert old in text, old
        text = text.replace(old, new)
    path.write_text(text)


def fight(root: Path, run) -> None:
    """Run t002 until it waits for the battle, then fill the result in as :data:`FOUGHT`."""
    run("turn", "--source", root, "--now", NOW)
    fill(root, **FOUGHT)
