"""The battle-result file: what the umpire writes after a battle fought on the table.

When a turn's battle is to be fought on the tabletop, ``ftpress turn`` stops
before recording anything and writes ``battles/<turn-id>/<battle-id>.yaml``,
pre-filled with the forces that meet there::

    turn: t004
    battle: vesper             # the battle's id: the world's id, or hex-Q-R in open space
    at: vesper
    players: [esu, nac]
    ships:                     # every ship there, as it stood when the battle began
      - {player: nac, group: nac-1, ship: Lancer, design: dd, hull: 10, damage: 0, fate: afloat}
    withdrew: []               # fill in: [{player: esu, to: corvid}] for a power that left
    held_by:                   # fill in: the power holding the field (empty: nobody)
    fought: false              # set to true once the rest is filled in

``damage`` is the hull boxes a ship lost in this battle; ``fate`` is
``afloat``, ``destroyed``, or ``drifting`` (a hulk left in the system: a prize
of whoever holds the field, ftc2007 §12). Run ``ftpress turn`` again and the
results are folded into the turn. Nothing here knows a rule: the ruleset
checks the file against the forces that fought.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, Strict, TypeAdapter

from ftpress.errors import Problem
from ftpress.files import validation, yamlsource
from ftpress.state.hexes import Hex
from ftpress.state.model import Count, Id, Location, Point, Text

BATTLES_DIR = "battles"
#: In a sealed campaign, the plain battle-result files are the umpire's working copies
#: (``.gitignore``); what is committed is each one sealed beside it (``.yaml.age``).
BATTLES_IGNORED = f"/{BATTLES_DIR}/*/*.yaml"
_CONFIG = ConfigDict(extra="forbid")
#: A ship's fate: afloat, destroyed, drifting (a hulk, ftc2007 §12), or crippled (sct §6.4).
Fate = Literal["afloat", "destroyed", "drifting", "crippled"]
Note = Annotated[str, Strict(), Field(min_length=1, max_length=4000)]


@dataclass(frozen=True, slots=True)
class ShipResult:
    """One ship at the battle: pre-filled as it went in, ``damage`` and ``fate`` to fill in."""

    __pydantic_config__ = _CONFIG

    player: Id
    group: Id
    ship: Text
    design: Id
    #: Hull boxes it had left when the battle began (for reference).
    hull: Count
    #: Hull boxes lost in this battle.
    damage: Count = 0
    fate: Fate = "afloat"


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """A power that left the field, and where its ships jumped to (ftc2007 §18.4)."""

    __pydantic_config__ = _CONFIG

    player: Id
    to: Location


def _empty_is_nobody(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


@dataclass(frozen=True, slots=True)
class BattleFile:
    """``battles/<turn-id>/<battle-id>.yaml``: one battle's result."""

    __pydantic_config__ = _CONFIG

    turn: Annotated[str, Strict(), Field(pattern=r"^t(?:\d{3}|[1-9]\d{3,})$")]
    battle: Id
    at: Location
    players: tuple[Id, ...]
    ships: tuple[ShipResult, ...] = ()
    withdrew: tuple[Withdrawal, ...] = ()
    #: The power left holding the field; empty if nobody is. Empty is a value here, not
    #: a key left out (the template writes ``held_by:`` for the umpire to fill in), so
    #: the published schema takes null too: it gives no default, from which
    #: :func:`ftpress.files.validation.published` would read null as "left out".
    held_by: Annotated[Id | None, Field(json_schema_extra=_empty_is_nobody)] = None
    #: False until the umpire has filled the result in.
    fought: bool = False
    note: Note | None = None


ADAPTER: TypeAdapter[BattleFile] = TypeAdapter(BattleFile)


@dataclass(frozen=True, slots=True)
class LoadedBattle:
    """One battle-result file as read: its path, the result, and the parsed YAML (marks)."""

    path: str
    result: BattleFile
    source: Any
    #: The file's bytes, kept verbatim in the turn's record.
    raw: bytes

    def where(self, *loc: Hashable) -> tuple[int, int]:
        return yamlsource.locate(self.source, loc)

    def problem(self, message: str, *loc: Hashable) -> Problem:
        line, col = self.where(*loc)
        return Problem(self.path, line, col, message)


def battle_id(at: str | Hex | Point) -> str:
    """A battle's id from where it is fought: the world's id, or ``hex-Q-R`` in open
    space (``m`` for a minus: ``hex-2-m1``); on a planar map (sct) ``pt-X-Y`` with
    ``p`` for a decimal point (``pt-2p5-m1``)."""
    if isinstance(at, Hex):
        return "hex-" + "-".join(f"m{-n}" if n < 0 else str(n) for n in (at.q, at.r))
    if isinstance(at, Point):
        return "pt-" + "-".join((f"m{-n:g}" if n < 0 else f"{n:g}").replace(".", "p")
                                for n in (at.x, at.y))
    return at


def battle_path(turn: str, battle: str) -> str:
    return f"{BATTLES_DIR}/{turn}/{battle}.yaml"


def parse_battle(raw: bytes, path: str) -> LoadedBattle:
    """Battle file bytes → :class:`LoadedBattle`; raises ``InputError`` with every problem."""
    text = yamlsource.decode(raw, path)
    data = yamlsource.parse(text, path)
    return LoadedBattle(path, validation.validate(ADAPTER, data, path), data, raw)
