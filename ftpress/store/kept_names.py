"""The names under which the store keeps a campaign's files, for the stages that read a
record or an order folder by name (``turn/``'s verification and redo, the order check):
a sealed twin's name, what a record folder holds, and what the
order check says of a sealed file it has no key to open. They are the store's to name:
the stages above it reach secrecy only through the store.
"""

from __future__ import annotations

from ftpress.secrecy.intelligence import FOLDER as INTELLIGENCE
from ftpress.secrecy.sealing import NEEDS_KEY
from ftpress.secrecy.twins import RECORD_TWINS, TWIN, twin
from ftpress.state.battle_results import BATTLES_DIR
from ftpress.state.files import KINDS
from ftpress.store.listing import LISTING
from ftpress.yourview.view import FOLDER as VIEWS

#: What a record folder holds that a turn's recipe writes (a redo writes it afresh);
#: anything else in it is another tool's.
RECORD_NAMES = frozenset({*(name for k in KINDS.values() for name in (k.file, twin(k.file))),
                          *(name for log in RECORD_TWINS for name in (log, twin(log))),
                          "turn.yaml", twin("turn.yaml"), "orders", "before", BATTLES_DIR,
                          INTELLIGENCE, VIEWS, LISTING})

__all__ = ["NEEDS_KEY", "RECORD_NAMES", "TWIN", "twin"]
