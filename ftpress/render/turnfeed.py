"""The turn reports as entries of the Atom feeds: each turn's state of play, its map
and a link to its report, dated when its orders were due."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, time, tzinfo

from markupsafe import escape

from ftpress.render.feeds import FeedEntry
from ftpress.render.turns import RecordedTurn, summary, title_of
from ftpress.render.views import Urls
from ftpress.render.visibility import PUBLIC_VIEW, UMPIRE_VIEW, HiddenFacts, visible
from ftpress.report_spec import ReportSpec


def turn_entries(turns: Sequence[RecordedTurn], urls: Urls, *, report: ReportSpec,
                 zone: tzinfo, umpire: bool = False) -> tuple[FeedEntry, ...]:
    """One entry per recorded turn, oldest first, from the events its view may see
    (``umpire``: all of them); ``report``: the campaign's ruleset's."""
    entries = []
    viewer = UMPIRE_VIEW if umpire else PUBLIC_VIEW
    for index, turn in enumerate(turns):
        before = turns[index - 1].state if index else None
        net = HiddenFacts.of_turn(before, turn.state, viewer)
        lines = summary(turn, before, visible(turn.events, viewer, net), report)
        title = title_of(turn)
        # A turn is resolved once its orders are due (the setup: the day turn 1 opened).
        when = (before.campaign.calendar.deadline if before is not None else
                datetime.combine(turn.state.campaign.calendar.start, time(0, 0), zone))
        map_url = urls.page(f"turns/{turn.id}/map.svg")
        page = urls.page(f"turns/{turn.id}/")
        html = "".join(f"<p>{escape(line)}</p>\n" for line in lines) + (
            f'<p><img src="{map_url}" alt="The map after {escape(title.lower())}"></p>\n'
            f'<p><a href="{page}">The turn report</a>: every event with the rule it '
            "applied, the dice and the money.</p>\n")
        entries.append(FeedEntry(title, f"turns/{turn.id}/", "", when, when,
                                 (("turn", "Turn report"),), " ".join(lines), html))
    return tuple(entries)
