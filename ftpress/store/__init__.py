"""The campaign store: the one way a command reads a campaign and writes a turn.

A campaign is kept open (every file whole, in plain: everything in it is
public) or sealed (each file the rules may hide part of kept as its public
projection, the whole sealed to the umpires beside it: :mod:`ftpress.secrecy.twins`).
That is decided once, when the campaign is opened (:func:`open_store`), and the
rest of ftpress is handed a :class:`CampaignStore` and never asks again: the
turn, its verification and redo, the order check, ``check``, ``build`` and
``keys seal-campaign`` read the whole state, the order files, battle results and
dice secrets through it, and a turn's record is written by its one recipe,
:meth:`CampaignStore.record_turn`. What the public may read of a turn is made
in one place, :func:`ftpress.store.projection.project`.

Besides the interface (:mod:`.campaign_store`) and its two implementations
(:mod:`.open`, :mod:`.sealed`): what a turn reads besides the state
(:mod:`.inputs`), the umpire's secrets behind its dice (:mod:`.secret`), a
record read back (:mod:`.record`), the names it keeps files under and what a
player checks of a record with their own key (:mod:`.kept_names`,
:mod:`.players_check`: ``turn/`` reaches secrecy only through the store), and
the loads and edits of the state (:mod:`.campaign`, :mod:`.state_edits`,
:mod:`.calendar_edits`).
"""

from ftpress.store.campaign_store import (
    CampaignStore,
    DiceSecrets,
    MadeTurn,
    TurnFiles,
    TurnOrders,
    open_at_hand,
    open_store,
    open_with,
)
from ftpress.store.open import OpenStore
from ftpress.store.sealed import SealedStore

__all__ = ["CampaignStore", "DiceSecrets", "MadeTurn", "OpenStore", "SealedStore",
           "TurnFiles", "TurnOrders", "open_at_hand", "open_store",
           "open_with"]
