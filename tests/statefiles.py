"""A small, valid campaign state as file texts, for tests to start from and break."""

from __future__ import annotations

CAMPAIGN = """\
id: test
name: Test
ruleset: ftc2007
calendar:
  start: 2026-03-09
  turn: 1
  economic_turn: 1
  deadline: 2026-03-15T20:00:00+00:00
setup:
  seed: 42
"""
PLAYERS = """\
players:
  - id: nac
    name: New Anglian Confederation
    colour: "#0072B2"
    treasury: 792
    capital: home
    navy: nac
  - id: esu
    name: Eastern Star Union
    colour: "#D55E00"
    treasury: 600
    capital: east
"""
MAP = """\
radius: 5
systems:
  - {id: home, name: Home, hex: [0, 0], owner: nac, income: 90, idp: 90}
  - {id: east, name: East, hex: [2, -1], owner: esu, income: 60, idp: 60}
  - {id: far, name: Far, hex: [1, 0]}
routes:
  - id: r1
    links: [[home, far]]
"""
DESIGNS = """\
designs:
  - id: dd
    name: Ticonderoga
    navy: nac
    size: DD
    mass: 32
    points: 108
    hull: [3, 3, 2, 2]
    abstract: {offence: 5, defence: 5, half: [3, 3], quarter: [1, 1]}
"""
GROUPS = """\
groups:
  - id: g1
    owner: nac
    at: home
    ships:
      - {name: Lis, design: dd}
"""
STATE = {"state/campaign.yaml": CAMPAIGN, "state/players.yaml": PLAYERS, "state/map.yaml": MAP,
         "state/designs.yaml": DESIGNS, "state/groups.yaml": GROUPS, "state/queues.yaml": ""}


def sub(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)
