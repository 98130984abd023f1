"""The money: each power's accounts for a turn, and for every economic turn.

A ruleset says what money moved with the ``amount`` and ``account`` of its
events (:class:`ftpress.state.events.Event`); here they are only added up. A power's
accounts open with its treasury before the turn, list its income world by world
and its spending line by line, and close with the treasury the recorded state
holds. If the lines do not add up to that, the difference is shown rather than
hidden: in a view that may not read every event, as the money it is not told;
where every event is read, as "unexplained", which the tests see to it never is.

Accounts are built from the events they are handed (a view's: those it may
read, :mod:`ftpress.render.turns`; every one in the umpire's), and show only
sums per line and the names of worlds (which are public), never a ship or a
design: a purchase of a ship nobody has seen is "purchases", not its name.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from ftpress.state.events import Event
from ftpress.state.model import State

P = TypeVar("P")

#: The lines of the accounts, in the order a ledger lists them, with their labels.
ACCOUNTS: tuple[tuple[str, str], ...] = (
    ("income", "Income"), ("interdicted", "Interdicted income"),
    ("maintenance", "Maintenance"), ("ordnance", "Ordnance"),
    ("construction", "Construction"), ("purchases", "Purchases"), ("repairs", "Repairs"),
    ("spares", "Spares"), ("defences", "Defence rebuilding"), ("sale", "Sales of prizes"),
    ("capture", "Prizes"))
_ORDER = {key: i for i, (key, _) in enumerate(ACCOUNTS)}
_LABEL = dict(ACCOUNTS)
#: Accounts listed world by world, since worlds are public.
_BY_WORLD = frozenset({"income", "interdicted"})


@dataclass(frozen=True, slots=True)
class Line:
    account: str
    label: str
    amount: int
    #: Income that was due and not paid (an interdicted world's), else 0.
    lost: int = 0


@dataclass(frozen=True, slots=True)
class Ledger(Generic[P]):
    """One power's accounts for one turn (or one economic turn)."""

    power: P
    opening: int | None
    lines: tuple[Line, ...]
    closing: int

    @property
    def moved(self) -> int:
        return sum(line.amount for line in self.lines)

    @property
    def unexplained(self) -> int:
        """Treasury change the events do not account for (0 when the books balance)."""
        if self.opening is None:
            return 0
        return self.closing - self.opening - self.moved

    def total(self, account: str) -> int:
        return sum(line.amount for line in self.lines if line.account == account)

    def lost(self) -> int:
        return sum(line.lost for line in self.lines)


def _world_name(state: State, at: object) -> str:
    if isinstance(at, str):
        world = state.system(at)
        return world.name if world else at
    return "open space"


def lines_of(events: Iterable[Event], player: str, before: State | None,
             after: State) -> tuple[Line, ...]:
    """``player``'s money events as ledger lines, world by world where public."""
    raw = []
    for e in events:
        if e.player != player or e.amount is None or e.account is None:
            continue
        account = e.account if e.account in _ORDER else "capture"
        if account in _BY_WORLD and e.at is not None:
            world = _world_name(after, e.at)
            label = f"Income from {world}" if account == "income" else f"{world}, interdicted"
        else:
            label = _LABEL[account]
        lost = 0
        if account == "interdicted" and isinstance(e.at, str):  # what the world would have paid
            lost_world = (before or after).system(e.at)
            lost = (lost_world.income or 0) if lost_world else 0
        raw.append(Line(account, label, e.amount, lost))
    return _merged(raw)


def _merged(lines: Iterable[Line]) -> tuple[Line, ...]:
    """Lines of one account and label added up, in ledger order (accounts as
    :data:`ACCOUNTS` lists them, then labels alphabetically)."""
    found: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for line in lines:
        entry = found[line.account, line.label]
        entry[0] += line.amount
        entry[1] += line.lost
    ordered = sorted(found.items(), key=lambda item: (_ORDER[item[0][0]], item[0][1].casefold()))
    return tuple(Line(account, label, amount, lost)
                 for (account, label), (amount, lost) in ordered)


def turn_ledgers(events: Sequence[Event], before: State | None, after: State,
                 powers: Mapping[str, P]) -> tuple[Ledger[P], ...]:
    """Every power's accounts for one turn, in the order of the players file."""
    opening = {p.id: p.treasury for p in before.players.players} if before else {}
    return tuple(Ledger(powers[p.id], opening.get(p.id), lines_of(events, p.id, before, after),
                        p.treasury)
                 for p in after.players.players if p.id in powers)


@dataclass(frozen=True, slots=True)
class EconomicRow(Generic[P]):
    """One power's accounts over one economic turn: a row of the campaign's table."""

    economic_turn: int
    #: The strategic turns it spans, as recorded: 't001'–'t006'.
    span: str
    ledger: Ledger[P]

    def column(self, account: str) -> int:
        return self.ledger.total(account)


def economic_rows(turns: Sequence[tuple[str, State | None, State, Sequence[Event]]],
                  powers: Mapping[str, P]) -> tuple[EconomicRow[P], ...]:
    """Each power's accounts for each economic turn, from the turns recorded in it.

    ``turns`` are ``(turn id, state before, state after, events)`` in order; the
    setup (no state before) opens nothing. A turn belongs to the economic turn
    it was played in, the one its opening state's calendar names.
    """
    spans: dict[int, list[tuple[str, State, State, Sequence[Event]]]] = defaultdict(list)
    for turn, before, after, events in turns:
        if before is not None:
            spans[before.campaign.calendar.economic_turn].append((turn, before, after, events))
    rows: list[EconomicRow[P]] = []
    for number in sorted(spans):
        played = spans[number]
        first, last = played[0], played[-1]
        span = first[0] if first is last else f"{first[0]}–{last[0]}"
        for p in last[2].players.players:
            if p.id not in powers:
                continue
            opening = next((q.treasury for q in first[1].players.players if q.id == p.id), None)
            lines = _merged(line for _, before, after, events in played
                            for line in lines_of(events, p.id, before, after))
            rows.append(EconomicRow(number, span, Ledger(powers[p.id], opening, lines,
                                                         p.treasury)))
    return tuple(rows)
