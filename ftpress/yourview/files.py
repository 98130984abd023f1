"""Each player's report sealed for the public site, and where it is published.

A turn's record keeps ``views/<name>.age`` for each player with a recipient: the
report (:func:`ftpress.yourview.report.player_report`) as JSON, sealed to the
umpires and that player like every sealed file. The public build copies the latest
turn's into the site, ``you/<name>.age``, where the "Your view" page fetches it.

What the file tells someone without the key, and why it tells nothing more:

- its name is a hash of the player's recipient (:func:`view_name`), not their id:
  the page finds it from the key the player holds (the recipient follows from the
  identity); a player's recipient is public in the roster, so the name says no more
  than the roster, and nothing of what the report holds;
- its size: it is padded to a fixed bucket like every sealed file
  (:func:`ftpress.secrecy.agekeys.pad`; the page takes the padding off after the
  mark the site hands it), and every report of a campaign is sealed to as many
  recipients (the umpires and one player) of one kind, so a long report and a
  short one are the same size unless one outgrows the bucket;
- every player with a recipient has one each turn, whatever happened to them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable

from ftpress.secrecy import agekeys
from ftpress.secrecy.intelligence import keyed_players
from ftpress.state.events import Event
from ftpress.state.model import State
from ftpress.yourview.report import player_report
from ftpress.yourview.view import FOLDER, NAME_PREFIX


def view_name(recipient: str) -> str:
    """The file name of the report sealed to ``recipient``."""
    digest = hashlib.sha256((NAME_PREFIX + recipient.strip()).encode("utf-8")).hexdigest()
    return f"{digest[:32]}.age"


def report_bytes(state: State, events: Iterable[Event], turn: str, player: str) -> bytes:
    """The report as the sealed file holds it, before sealing (which pads it, as every
    sealed file: :func:`ftpress.secrecy.agekeys.pad`): canonical JSON."""
    report = player_report(state, events, turn, player)
    return json.dumps(report, ensure_ascii=False, sort_keys=True,
                      separators=(",", ":")).encode("utf-8")


def view_files(folder: str, state: State, events: tuple[Event, ...], turn: str
               ) -> dict[str, bytes]:
    """Each player's sealed report of ``turn``, by path in the record ``folder``, as a
    sealed campaign's turn writes them (an open campaign's players read the whole
    site)."""
    files: dict[str, bytes] = {}
    for player, to in keyed_players(state):
        files[f"{folder}/{FOLDER}/{view_name(to[-1])}"] = agekeys.encrypt(
            report_bytes(state, events, turn, player), agekeys.recipients(to))
    return files
