"""What the "Your view" page needs, read at load (:mod:`ftpress.yourview`).

On the public site of a sealed campaign: every player's sealed report of the latest
recorded turn, published as it is (the page opens the reader's with their key). In a
player's own view (``build --view PLAYER``): their report, made from what they know,
for the page to show it without a key or a script. Both: the open turn, who has sent
orders for it (public: the open-turn panel says so too), and the repository whose
web editor takes a sealed file.
"""

from __future__ import annotations

from pathlib import Path

from ftpress.files.config import repository_of
from ftpress.secrecy.visibility import Viewer
from ftpress.state.model import State
from ftpress.state.records import RecordedTurn
from ftpress.state.turns import TURNS_DIR, turn_id
from ftpress.store import open_at_hand
from ftpress.yourview.view import FOLDER, SITE_FOLDER, YourView


def your_view(root: Path, state: State, turns: tuple[RecordedTurn, ...], viewer: Viewer,
              base_url: str) -> YourView | None:
    """The page's inputs, or None where there is no such page: an open campaign (its
    players read the whole site), and the umpire's view."""
    if viewer.umpire or not state.campaign.sealed:
        return None
    open_turn = turn_id(state.campaign.calendar.turn)
    sent = open_at_hand(root).senders(open_turn, [p.id for p in state.players.players])
    repository = repository_of(base_url)
    if viewer.player is not None:
        from ftpress.yourview.report import player_report

        latest = turns[-1] if turns else None
        report = player_report(latest.state, latest.events, latest.id, viewer.player) \
            if latest is not None and latest.state.campaign.known_to == viewer.player else None
        return YourView((), report, open_turn, sent, repository)
    sealed: list[tuple[str, bytes]] = []
    if turns:
        folder = root / TURNS_DIR / turns[-1].id / FOLDER
        for file in sorted(folder.glob("*.age")) if folder.is_dir() else ():
            if file.is_file() and not file.is_symlink():
                sealed.append((f"{SITE_FOLDER}/{file.name}", file.read_bytes()))
    return YourView(tuple(sealed), None, open_turn, sent, repository)
