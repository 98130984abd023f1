"""What a player checks of a sealed campaign's record with their own key (``ftpress
turn --verify`` read with a player's key: :attr:`ftpress.store.CampaignStore.reading_player`):
the files sealed to them open, are theirs, and agree with what the public was told."""

from __future__ import annotations

from pathlib import Path

from ftpress.errors import InputError
from ftpress.files import yamlsource
from ftpress.secrecy import agekeys, sealing
from ftpress.secrecy.intelligence import FOLDER as INTELLIGENCE
from ftpress.state.events import TurnRecord
from ftpress.state.records import read_events


def players_differences(root: Path, folder: str, record: TurnRecord, player: str,
                        identity: Path) -> list[str]:
    """What a player can check with their own key: their intelligence opens, is theirs
    and the turn's, and holds every public event of the record (the same kind, under
    the same rule, in order: the public's wording may name counters otherwise); their
    sealed orders in the record open with their key and answer to their receipt."""
    identities = agekeys.read_identity(identity)
    rel = f"{folder}/{INTELLIGENCE}/{player}{sealing.SEALED}"
    found = []
    if not (root / rel).is_file():
        found.append(f"{rel}: the record has no intelligence of {player}; expected one for "
                     "each player with a recipient")
    else:
        try:
            text = agekeys.decrypt((root / rel).read_bytes(), identities).decode("utf-8")
            told = yamlsource.parse(text, rel)
        except (agekeys.Unreadable, UnicodeDecodeError, InputError) as exc:
            told = None
            found.append(f"{rel}: does not open with {identity} as the YAML a turn seals "
                         f"({exc})")
        if isinstance(told, dict):
            if (told.get("turn"), told.get("player")) != (record.turn, player):
                found.append(f"{rel}: is not {player}'s intelligence of {record.turn}")
            public = [(e.kind, e.rule) for e in read_events(root, folder, None)]
            theirs = [(e.get("kind"), e.get("rule")) for e in told.get("events") or ()
                      if isinstance(e, dict) and e.get("audience") == "public"]
            if public != theirs:
                found.append(f"{folder}/events.yaml: its public events are not those {player} "
                             f"was told in {rel} (kind and rule, in order)")
    if record.receipts is not None and player in record.receipts:
        sent = f"{folder}/orders/{player}{sealing.SEALED}"
        try:
            agekeys.decrypt((root / sent).read_bytes(), identities)
        except (OSError, agekeys.Unreadable) as exc:
            found.append(f"{sent}: does not open with {identity}: {exc}")
    return found
