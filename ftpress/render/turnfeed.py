"""The turn reports as entries of the Atom feeds: each turn's state of play, its map
and a link to its report, dated when its orders were due."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, time, tzinfo

from markupsafe import escape

from ftpress.render.feeds import FeedEntry
from ftpress.render.turns import summary, title_of
from ftpress.render.views import Urls
from ftpress.secrecy.visibility import PUBLIC_VIEW, HiddenFacts, Viewer, visible
from ftpress.state.records import RecordedTurn
from ftpress.state.report_spec import ReportSpec


def turn_entries(turns: Sequence[RecordedTurn], urls: Urls, *, report: ReportSpec,
                 zone: tzinfo, viewer: Viewer = PUBLIC_VIEW,
                 nets: Sequence[HiddenFacts | None] = ()) -> tuple[FeedEntry, ...]:
    """One entry per recorded turn, oldest first, from its state as ``viewer`` knows it
    and the events ``viewer`` may read (``nets``: each turn's safety net, see
    :func:`ftpress.render.turns.render_turns`); ``report``: the campaign's ruleset's."""
    entries = []
    for index, turn in enumerate(turns):
        before = turns[index - 1].state if index else None
        net = nets[index] if nets else None
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
