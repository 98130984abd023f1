"""Turn reports: ``/turns/`` (every recorded turn), ``/turns/<turn-id>/`` (one
turn: summary, map, events, dice, orders, money) and ``/turns/latest/``.

Each report is made from a :class:`~ftpress.state.records.RecordedTurn`, read by
the load stage; nothing here reads a file.
How a report files its events in sections, folds the routine ones and marks
the map is the campaign's ruleset's to say (``Ruleset.report``, handed in as a
:class:`~ftpress.state.report_spec.ReportSpec`); nothing here knows a ruleset.

**Who sees what.** A report is made for a viewer (the public, one player, or
the umpire, who is shown everything): its tables and map from each turn's state
as that viewer knows it (:mod:`ftpress.secrecy.knowledge`), its events only those whose
audience the viewer is in (:mod:`ftpress.secrecy.visibility`): the map's arrows
and markers, the summary, the dice and the search index are all made from what
passed :func:`~ftpress.secrecy.visibility.visible`, and the published copies of
the order files hold only the orders those events come from.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

from markupsafe import Markup

from ftpress.content import markdown
from ftpress.content.rulebook import Rulebook
from ftpress.maps.chart import Chart, Series, render_chart
from ftpress.render.finances import economic_rows, turn_ledgers
from ftpress.render.mapview import inline, render_map, turn_map, unsearched
from ftpress.render.pages import Renderer
from ftpress.render.preview import PREVIEW, Preview, preview_pngs
from ftpress.render.rulebook import RulebookViews
from ftpress.render.views import Link, Urls
from ftpress.render.words import listed, place, plural, power_name
from ftpress.secrecy.visibility import (
    PUBLIC_VIEW,
    HiddenFacts,
    Viewer,
    holds_all_of,
    published_order,
    visible,
)
from ftpress.state.display import Display
from ftpress.state.events import Event
from ftpress.state.model import Player, State
from ftpress.state.records import RecordedTurn
from ftpress.state.report_spec import ReportSpec, cited_section
from ftpress.state.turns import SETUP, TURNS_DIR

#: How a power's treasury is headed in its accounts: where the view holds every fact,
#: the treasury itself; else the figure the rules make public (each rulebook says
#: which, such as the treasury stated as the economic turn began). What the view is
#: not told moved no line of its accounts, not even as a sum (a turn's sum of hidden
#: spending would price what was bought).
TREASURY_LABELS = {True: ("Treasury before the turn", "Treasury after the turn"),
                   False: ("Treasury as told before the turn",
                           "Treasury as told after the turn")}

#: The columns of the campaign's accounts by economic turn: (account, heading);
#: income and upkeep always, the rest when some power has money on that line.
ACCOUNT_COLUMNS = (("income", "Income"), ("interdicted", "Interdicted"),
                   ("maintenance", "Upkeep"), ("ordnance", "Ordnance"),
                   ("construction", "Building"), ("purchases", "Purchases"),
                   ("repairs", "Repairs"), ("spares", "Spares"), ("defences", "Defences"),
                   ("sale", "Sales"), ("capture", "Prizes"))


@dataclass(frozen=True, slots=True)
class ReplayMap:
    """One frame of the replay on /turns/: a turn's map as an SVG file."""

    url: str
    title: str
    alt: str


# --- views ----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class PowerRef:
    id: str
    name: str
    colour: str
    abbr: str
    url: str


@dataclass(frozen=True, slots=True)
class OrderLink:
    """A published copy of an order file folded into the turn."""

    url: str
    file: str
    power: str


@dataclass(frozen=True, slots=True)
class RollView:
    sides: int
    value: int
    purpose: str
    rule: str


@dataclass(frozen=True, slots=True)
class EventView:
    kind: str
    text: str
    #: The rule as the event names it, '<ruleset> §8.2', and its rulebook link ('' if none).
    rule: str
    rule_url: str
    power: PowerRef | None
    note: str | None
    #: 'orders/t001/nac.yaml:6:5' and the published copy it points into ('' if none).
    order: str
    order_url: str
    rolls: tuple[RollView, ...]


@dataclass(frozen=True, slots=True)
class EventGroup:
    key: str
    heading: str
    events: tuple[EventView, ...]
    #: Routine events of one kind folded under a summary (a world's income, each).
    folded: tuple[EventView, ...] = ()
    folded_summary: str = ""


@dataclass(frozen=True, slots=True)
class FinanceRow:
    power: PowerRef
    worlds: int
    income: int
    #: Treasury when the turn opened (None for the setup) and when it was done.
    opening: int | None
    closing: int
    #: The list price of the power's ships after the turn (see :func:`fleet_value`); None
    #: where the viewer does not know all of them.
    fleet: int | None = None

    @property
    def change(self) -> int | None:
        return None if self.opening is None else self.closing - self.opening


@dataclass(frozen=True, slots=True)
class SystemRow:
    id: str
    name: str
    hex: str
    owner: PowerRef | None
    income: int | None
    idp: int | None
    idp_full: int | None
    works: str
    #: The power each of the ruleset's power columns names (None: nobody).
    powers: tuple[PowerRef | None, ...] = ()


@dataclass(frozen=True, slots=True)
class TurnView:
    id: str
    number: int
    title: str
    url: str
    #: The day the turn was resolved (the setup: the day turn 1 opened).
    day: date
    summary: tuple[str, ...]
    previous: Link | None
    next: Link | None
    events: int
    #: Where the turn stands in the ruleset's time ('week 2 of economic turn 3';
    #: '' for the setup), :meth:`ReportSpec.when_of`.
    when: str = ""


def turn_day(turn: RecordedTurn, before: State | None) -> date:
    """The day ``turn`` was resolved, as its records have it: the date of the deadline
    it was due at, on the calendar recorded before it (``before``, the state the turn
    before it left; the umpire's changes to the deadline are on it), when the
    publishing run resolves a turn. The setup has no deadline: the day turn 1 opened."""
    if before is None:
        return turn.state.campaign.calendar.start
    return before.campaign.calendar.deadline.date()


def turn_when(before: State | None, report: ReportSpec) -> str:
    """Where the turn ``before`` left open stands in the ruleset's time ('' for the
    setup, which comes before any)."""
    return report.when_of(before.campaign.calendar) if before is not None else ""


def rule_url(rule: str, cite: markdown.Resolver) -> str:
    """The rulebook link of a rule cited as '<ruleset> §8.2' (or of §8 when 8.2 has
    no section of its own)."""
    section = cited_section(rule)
    if section is None:
        return ""
    parts = section.split(".")
    while parts:
        url = cite(".".join(parts))
        if url:
            return url
        parts.pop()
    return ""


def _powers(state: State, r: Renderer) -> dict[str, PowerRef]:
    return {p.id: PowerRef(p.id, p.name, p.colour, p.id.upper()[:5],
                           r.urls.page(f"players/{p.id}/")) for p in state.players.players}


def summary(turn: RecordedTurn, before: State | None, events: Sequence[Event],
            report: ReportSpec) -> tuple[str, ...]:
    """The state of play in a few sentences, from the public events and the state."""
    state = turn.state
    names = {p.id: power_name(p.name) for p in state.players.players}
    if before is None:
        held = sum(1 for s in state.map.systems if s.owner)
        neutral = len(state.map.systems) - held
        counters = len(state.groups.groups)
        noun = report.group_noun
        return (f"The campaign's starting position: {plural(len(names), 'power')} "
                f"{'holds' if len(names) == 1 else 'hold'} {plural(held, 'world')}; "
                f"{plural(neutral, 'world')} {'is' if neutral == 1 else 'are'} neutral, "
                f"{'its' if neutral == 1 else 'their'} worth unknown until scouted.",
                f"{plural(counters, noun.replace(' ', '-') + ' counter')} "
                f"{'stands' if counters == 1 else 'stand'} on the map, ready for the first "
                "orders.")
    out: list[str] = []
    # A group that moved twice (a second move in one turn) moved once; a move naming no
    # group (a counter the view cannot tell from those beside it) is one group's.
    movers: Counter[str] = Counter(p for p, _ in dict.fromkeys(
        (e.player, e.group if e.group is not None else f"#{i}")
        for i, e in enumerate(events) if e.kind in report.moves and e.player))
    if movers:
        parts = [f"{n} of {names.get(p, p)}" for p, n in sorted(movers.items())]
        total = sum(movers.values())
        out.append(f"{plural(total, report.group_noun)} moved: {listed(parts)}.")
    else:
        out.append(f"No {report.group_noun} moved.")
    silent = sorted({e.player for e in events if e.kind == "no-orders" and e.player})
    if silent:
        out.append(f"No orders came from {listed(names.get(p, p) for p in silent)}; "
                   f"{'its' if len(silent) == 1 else 'their'} groups held.")
    for places in report.places:
        where = sorted({place(state, e.at) for e in events if e.at is not None
                        and places.counts(e, report.section_of(e))})
        if where:
            out.append(f"{places.lead} {', '.join(where)}.")
        elif places.none:
            out.append(places.none)
    owners = {s.id: s.owner for s in before.map.systems}
    changes = [f"{s.name} passed from {names.get(owners[s.id] or '', 'neutral hands')} to "
               f"{names.get(s.owner or '', 'neutral hands')}"
               for s in state.map.systems if s.id in owners and owners[s.id] != s.owner]
    out.append("; ".join(changes) + "." if changes else "No world changed hands.")
    return tuple(out)


def _event_view(e: Event, powers: dict[str, PowerRef], cite: markdown.Resolver,
                order_urls: dict[str, str]) -> EventView:
    order_url = ""
    if e.order:
        file = e.order.split(":", 1)[0]
        order_url = order_urls.get(file, "")
    return EventView(
        kind=e.kind, text=e.text, rule=e.rule, rule_url=rule_url(e.rule, cite),
        power=powers.get(e.player) if e.player else None, note=e.note,
        order=e.order or "", order_url=order_url,
        rolls=tuple(RollView(r.sides, r.value, r.purpose, r.rule) for r in e.rolls))


def _finances(turns: Sequence[RecordedTurn], index: int,
              powers: dict[str, PowerRef]) -> tuple[FinanceRow, ...]:
    state = turns[index].state
    before = turns[index - 1].state if index > 0 else None
    opening = {p.id: p.treasury for p in before.players.players} if before else {}
    rows = []
    for p in state.players.players:
        worlds = state.worlds_of(p.id)
        rows.append(FinanceRow(powers[p.id], len(worlds), sum(w.income or 0 for w in worlds),
                               opening.get(p.id), p.treasury,
                               fleet_value(state, p) if holds_all_of(state, p.id)
                               else None))
    return tuple(rows)


def _money(turn: RecordedTurn, shown: tuple[Event, ...]) -> tuple[Event, ...]:
    """The events whose money a view's accounts list: every one where the view's state
    holds it all (the umpire's, or where the rules hide nothing), else those the view
    shows; what the others moved stays in the books, as a line the view is not told."""
    return turn.events if holds_all_of(turn.state, None) else shown


def _systems(state: State, powers: dict[str, PowerRef], display: Display
             ) -> tuple[SystemRow, ...]:
    rows = []
    for s in sorted(state.map.systems, key=lambda s: s.name.casefold()):
        works = ", ".join(w for w, on in (("supply depot", s.depot), ("base", s.base),
                                          ("shipyard", s.shipyard)) if on)
        rows.append(SystemRow(s.id, s.name, display.place(s),
                              powers.get(s.owner or ""), s.income,
                              s.idp, s.full_idp, works,
                              tuple(powers.get(c.power(s) or "") for c in display.columns)))
    return tuple(rows)


def treasury_chart(turns: Sequence[RecordedTurn], element_id: str) -> Markup:
    """Each power's treasury at the end of every recorded turn, as inline SVG."""
    return inline(render_chart(treasury_view(turns), element_id))


def treasury_view(turns: Sequence[RecordedTurn]) -> Chart:
    """The treasury chart's data: one series per power over the recorded turns."""
    return _by_turn(turns, "Treasury by turn", "Each power's treasury at the end of every "
                    "recorded turn", lambda state, player: player.treasury)


def fleet_view(turns: Sequence[RecordedTurn]) -> Chart:
    """Each power's fleet value (the list price of every ship it has, §13) by turn.

    Only a view that knows every power's ships shows it (the umpire's, or any where
    the rules hide nothing): set beside a power's counters, the total would tell
    how many of them are dummies (§15.2) and what contact has not revealed
    (§15.3), so no other known state holds enough to make it.
    """
    return _by_turn(turns, "Fleet value by turn", "Each power's fleet value (the list "
                    "price of all its ships) at the end of every recorded turn", fleet_value)


def fleet_value(state: State, player: Player) -> int:
    """What ``player``'s ships are worth at list price (a design's points)."""
    return sum(d.points for g in state.groups_of(player.id) for ship in g.ships
               if (d := state.design(ship.design)) is not None)


def _by_turn(turns: Sequence[RecordedTurn], title: str, about: str,
             value: Callable[[State, Player], int]) -> Chart:
    """A chart of one number per power per recorded turn (0 before a power played)."""
    last = turns[-1].state
    labels = tuple(t.id for t in turns)
    series = []
    for p in last.players.players:
        values = tuple(next((value(t.state, q) for q in t.state.players.players
                             if q.id == p.id), 0) for t in turns)
        series.append(Series(p.name, p.colour.upper(), p.id.upper()[:3], values))
    return Chart(title, f"{about}; " + "; ".join(
        f"{s.name}: " + ", ".join(f"{lab} {v:,}" for lab, v in zip(labels, s.values, strict=True))
        for s in series) + ".", labels, tuple(series))


@dataclass(frozen=True, slots=True)
class Headline:
    """The latest turn on the home page: its title, state of play and map."""

    title: str
    url: str
    day: date
    summary: tuple[str, ...]
    map_url: str
    map_alt: str
    turns_url: str
    #: The latest turn's card, the home page's ``og:image`` too.
    preview: Preview


def headline(turns: Sequence[RecordedTurn], urls: Urls, *, report: ReportSpec,
             viewer: Viewer = PUBLIC_VIEW, nets: Sequence[HiddenFacts | None] = ()
             ) -> Headline | None:
    """The latest recorded turn as the home page leads with it (from the events
    ``viewer`` reads; ``nets`` as for :func:`render_turns`); ``report``: the campaign's
    ruleset's (``Ruleset.report``)."""
    if not turns:
        return None
    turn = turns[-1]
    before = turns[-2].state if len(turns) > 1 else None
    net = nets[-1] if nets else None
    title = title_of(turn)
    return Headline(title, urls.page(f"turns/{turn.id}/"), turn_day(turn, before),
                    summary(turn, before, visible(turn.events, viewer, net), report),
                    urls.page(f"turns/{turn.id}/map.svg"), f"The map after {title.lower()}",
                    urls.page("turns/"), Preview(urls.absolute(f"turns/{turn.id}/{PREVIEW}")))


def title_of(turn: RecordedTurn) -> str:
    if turn.id == SETUP:
        return "Setup: the starting position"
    return f"Turn {turn.number}"


def render_turns(r: Renderer, state: State, turns: Sequence[RecordedTurn],
                 rulebook: Rulebook, display: Display, *, report: ReportSpec,
                 viewer: Viewer = PUBLIC_VIEW, nets: Sequence[HiddenFacts | None] = ()
                 ) -> None:
    """Queue ``/turns/``, every ``/turns/<turn-id>/`` and ``/turns/latest/`` on ``r``;
    each report files its events as ``report`` (the campaign's ruleset's) says, and
    shows its state as ``display`` does. ``state`` and each turn's state are as
    ``viewer`` knows them; ``nets``: each turn's last safety net (see
    :mod:`ftpress.secrecy.visibility`), made where the full states are at hand (none:
    the events pass on their audience alone)."""
    urls = r.urls
    if not turns:  # a campaign not yet set up: the menu's link still lands somewhere
        r.page("turns/index.html", "turns.html", TURNS_DIR, title="Turns",
               description=f"No turn of {state.campaign.name} is recorded yet.",
               section="turns", heading="Turns", turns=(), chart=None, fleet_chart=None,
               fleet_column=False,
               accounts=(), account_columns=(), lost_column=False,
               ranking=(),
               latest=None, replay=(), frames=[])
        return
    rules = RulebookViews(rulebook, urls, None, r.env)
    powers: dict[str, PowerRef] = {}
    for turn in turns:  # every power that ever played, as it is named now
        powers.update(_powers(turn.state, r))
    views: list[TurnView] = []
    shown: list[tuple[Event, ...]] = []
    for index, turn in enumerate(turns):
        before = turns[index - 1].state if index > 0 else None
        events = visible(turn.events, viewer, nets[index] if nets else None)
        shown.append(events)
        prev = turns[index - 1] if index > 0 else None
        nxt = turns[index + 1] if index + 1 < len(turns) else None
        views.append(TurnView(
            turn.id, turn.number, title_of(turn), urls.page(f"turns/{turn.id}/"),
            turn_day(turn, before), summary(turn, before, events, report),
            Link(urls.page(f"turns/{prev.id}/"), title_of(prev)) if prev else None,
            Link(urls.page(f"turns/{nxt.id}/"), title_of(nxt)) if nxt else None,
            len(events), turn_when(before, report)))
    name = state.campaign.name
    chart = treasury_chart(turns, "treasury-chart")
    whole = all(holds_all_of(t.state, None) for t in turns)  # the view knows every fact
    fleet = inline(render_chart(fleet_view(turns), "fleet-chart")) if whole else None
    money = [_money(t, events) for t, events in zip(turns, shown, strict=True)]
    accounts = economic_rows([(t.id, turns[i - 1].state if i else None, t.state, money[i])
                              for i, t in enumerate(turns)], powers)
    ranking = tuple(sorted(_finances(turns, len(turns) - 1, powers),
                           key=lambda row: (-row.income, -row.closing, row.power.name)))
    # The replay steps through every turn's map, each also written as its own SVG file.
    replay = tuple(ReplayMap(urls.page(f"turns/{v.id}/map.svg"), v.title,
                             f"The map after {v.title.lower()}") for v in views)
    r.page("turns/index.html", "turns.html", TURNS_DIR, title="Turns",
           description=f"Every recorded turn of {name}, each with its map, events and money.",
           section="turns", heading="Turns", turns=tuple(reversed(views)), chart=chart,
           fleet_chart=fleet, fleet_column=any(row.fleet is not None for row in ranking),
           accounts=accounts,
           account_columns=tuple((k, h) for k, h in ACCOUNT_COLUMNS
                                 if k in ("income", "maintenance")
                                 or any(row.column(k) for row in accounts)),
           lost_column=any(row.ledger.lost() for row in accounts),
           ranking=ranking, latest=views[-1], replay=replay,
           frames=[{"url": m.url, "title": m.title, "alt": m.alt} for m in replay])
    # Maps and charts are cached between builds (each is a pure function of its view),
    # and the charts drawn on every core.
    maps = [(turn_map(turn.state, events, f"The map after {view.title.lower()}",
                      report.marker_of, report.moves, display=display, viewer=viewer),
             f"map-{turn.id}") for turn, view, events in zip(turns, views, shown, strict=True)]
    # A map's labels take tens of milliseconds to place: the maps are drawn on every core.
    starmaps = r.memo_many([f"starmap {m!r} {eid}" for m, eid in maps],
                           lambda i: inline(render_map(*maps[i])))
    previews = preview_pngs(r, starmaps, [(state.campaign.name, v.title, v.day) for v in views])
    charts_in = [(treasury_view(turns[:i + 1]), f"treasury-{t.id}") for i, t in enumerate(turns)]
    charts = r.memo_many([f"chart {c!r} {eid}" for c, eid in charts_in],
                         lambda i: inline(render_chart(*charts_in[i])))
    for index, (turn, view, events) in enumerate(zip(turns, views, shown, strict=True)):
        net = nets[index] if nets else None
        knows_all = holds_all_of(turn.state, None)  # the view's accounts are the whole
        order_urls: dict[str, str] = {}
        order_links: list[OrderLink] = []
        for player, raw in turn.orders:
            path = f"turns/{turn.id}/orders/{player}.yaml"
            text = published_order(raw.decode("utf-8", errors="replace"),
                                   f"orders/{turn.id}/{player}.yaml", turn.events, viewer, net)
            r.out.add(path, text, f"{TURNS_DIR}/{turn.id}/orders/{player}.yaml")
            order_urls[f"orders/{turn.id}/{player}.yaml"] = urls.page(path)
            order_links.append(OrderLink(urls.page(path), f"{player}.yaml",
                                         powers[player].name if player in powers else player))
        cite = rules.resolver(view.day)
        grouped = []
        filed = [(e, report.section_of(e)) for e in events]
        for section in report.sections:
            mine = [e for e, key in filed if key == section.key]
            these = tuple(_event_view(e, powers, cite, order_urls)
                          for e in mine if report.fold_of(e.kind) is None)
            # Routine events fold away under one line a kind (a world's income, each).
            folded: list[EventView] = []
            lines: list[str] = []
            for fold in report.folds:
                routine = [e for e in mine if e.kind == fold.kind]
                folded.extend(_event_view(e, powers, cite, order_urls) for e in routine)
                lines.append(fold.summary(routine))
            if these or folded:
                grouped.append(EventGroup(section.key, section.heading, these,
                                          tuple(folded), "; ".join(x for x in lines if x)))
        starmap = unsearched(starmaps[index])
        r.out.add(f"turns/{turn.id}/map.svg", starmaps[index], f"{TURNS_DIR}/{turn.id}")
        r.out.add(f"turns/{turn.id}/{PREVIEW}", previews[index], f"{TURNS_DIR}/{turn.id}")
        rolls = tuple(RollView(r_.sides, r_.value, r_.purpose, r_.rule)
                      for e in events for r_ in e.rolls)
        r.page(f"turns/{turn.id}/index.html", "turn.html", f"{TURNS_DIR}/{turn.id}",
               title=view.title, description=" ".join(view.summary), section="turns",
               turn=view, groups=tuple(grouped), starmap=starmap, orders=tuple(order_links),
               preview=Preview(urls.absolute(f"turns/{turn.id}/{PREVIEW}")),
               rolls=rolls, finances=_finances(turns, index, powers),
               ledgers=tuple(ledger for ledger in turn_ledgers(
                   money[index], turns[index - 1].state if index else None, turn.state,
                   powers) if ledger.lines or (ledger.unexplained and knows_all)),
               unexplained="Not explained by any event" if knows_all else "",
               treasury_labels=TREASURY_LABELS[knows_all],
               systems=_systems(turn.state, powers, display),
               system_columns=tuple(c.heading for c in display.columns),
               chart=unsearched(charts[index]) if index else None,
               trail=(Link(urls.page("turns/"), "Turns"),))
    latest = views[-1]
    r.page("turns/latest/index.html", "alias.html", TURNS_DIR,
           title=f"Latest turn: {latest.title}",
           description=f"The latest turn report: {latest.title}.", noindex=True,
           target_title=latest.title, target_url=urls.absolute(f"turns/{latest.id}/"),
           target_path=latest.url, lead="The latest turn report is")
