"""What the "Your view" page needs, read at load (:mod:`ftpress.yourview`).

On the public site of a sealed campaign: every player's sealed report of the latest
recorded turn, published as it is (the page opens the reader's with their key). In a
player's own view (``build --view PLAYER``): their report, made from what they know,
for the page to show it without a key or a script. Both: the open turn, who has sent
orders for it (public: the open-turn panel says so too), and the repository whose
web editor takes a sealed file.
"""

from __future__ import annotations

from ftpress.files.config import repository_of
from ftpress.secrecy.visibility import Viewer
from ftpress.state.model import State
from ftpress.state.records import RecordedTurn
from ftpress.state.turns import turn_id
from ftpress.store import CampaignStore
from ftpress.yourview.view import YourView


def your_view(store: CampaignStore, state: State, turns: tuple[RecordedTurn, ...],
              viewer: Viewer, base_url: str) -> YourView | None:
    """The page's inputs, or None where there is no such page: an open campaign (its
    players read the whole site: the store publishes no sealed reports), and the
    umpire's view."""
    if viewer.umpire:
        return None
    published = store.published_views(turns[-1].id if turns else None)
    if published is None:
        return None
    open_turn = turn_id(state.campaign.calendar.turn)
    sent = store.senders(open_turn, [p.id for p in state.players.players])
    repository = repository_of(base_url)
    if viewer.player is not None:
        from ftpress.yourview.report import player_report

        latest = turns[-1] if turns else None
        report = player_report(latest.state, latest.events, latest.id, viewer.player) \
            if latest is not None and latest.state.campaign.known_to == viewer.player else None
        return YourView((), report, open_turn, sent, repository)
    return YourView(published, None, open_turn, sent, repository)
