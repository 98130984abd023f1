"""Battle results and prizes for turn cases (tests/turns/ftc2007/battle-*, capture-*).

A case may give ``state: {prizes: {nac: [{id, at, design, damage, taken_from}]}}``
(prizes a player holds when the turn opens), ``battles: {vesper: <the battle-result
file as YAML text>}`` (the umpire's results), ``battle_problems`` (every problem
the results must raise, as ``path:line:col: message``), and ``after: {prizes:
{nac: [[id, ship, at], …]}}``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ftpress.battles import LoadedBattle, battle_path, parse_battle
from ftpress.hexes import Hex
from ftpress.state.model import Prize, Ship, State


def with_prizes(state: State, spec: dict[str, list[dict[str, Any]]]) -> State:
    players = []
    for player in state.players.players:
        prizes = tuple(Prize(p["id"], Hex(*p["at"]) if isinstance(p["at"], list) else p["at"],
                             Ship(p.get("name", p["id"]), p["design"], p.get("damage", 0)),
                             p["taken_from"], p.get("stripped", False))
                       for p in spec.get(player.id, ()))
        players.append(dataclasses.replace(player, prizes=prizes))
    return dataclasses.replace(state, players=dataclasses.replace(state.players,
                                                                  players=tuple(players)))


def build_battles(spec: dict[str, str], turn: str = "t001") -> dict[str, LoadedBattle]:
    return {battle: parse_battle(text.encode("utf-8"), battle_path(turn, battle))
            for battle, text in spec.items()}


def prize_list(state: State, player_id: str) -> list[list[Any]]:
    player = state.player(player_id)
    assert player is not None
    return [[p.id, p.ship.name, [p.at.q, p.at.r] if isinstance(p.at, Hex) else p.at]
            for p in player.prizes]
