"""A sealed campaign's store: each file the rules may hide part of is kept as its
public projection, the whole sealed to the umpires beside it (its twin).

Read with the umpire's key, every file is read whole (from its twin); without
it, the public projections alone. A turn's orders are the sealed files the
players committed, opened with the key (:mod:`ftpress.sealing`); its hidden
rolls come from a stream of their own (:mod:`ftpress.turn.secret`). A turn
writes, for each of its files, the plain file made from the public's part of
the turn (:func:`ftpress.store.projection.project`) and the whole file sealed
beside it; and each player's intelligence, sealed to them
(:mod:`ftpress.intelligence`). Age encryption is randomised, so a twin that
says what is there already keeps its bytes (:class:`ftpress.hidden_state.Sealer`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from ftpress import agekeys, sealing
from ftpress.errors import RefusedCommand
from ftpress.events import EventsFile
from ftpress.hidden_state import Sealer, state_pairs
from ftpress.intelligence import intelligence_files
from ftpress.state.files import DICE, STATE_DIR
from ftpress.state.model import State
from ftpress.state.save import dump
from ftpress.state.twins import UmpireKey, marked, twin
from ftpress.store.campaign_store import CampaignStore, MadeTurn, TurnOrders
from ftpress.store.projection import project


class SealedStore(CampaignStore):
    """See the module docstring. ``fresh``: seal every twin anew (a rotation: the
    recipients changed, which an x25519 stanza does not show)."""

    _hides_rolls = True

    def __init__(self, root: Path, key: UmpireKey | None = None,
                 environ: Mapping[str, str] | None = None, *, fresh: bool = False) -> None:
        super().__init__(root, key, environ)
        self.fresh = fresh

    @property
    def reads_whole(self) -> bool:
        return self.key is not None

    def turn_orders(self, state: State, turn: str, adapter: TypeAdapter[Any],
                    ) -> TurnOrders:
        """The sealed files of ``turn`` opened with the umpire's key; refused without
        it: no turn resolves half blind."""
        if self.key is None:
            raise RefusedCommand(f"this campaign's orders are sealed; set "
                                 f"${agekeys.UMPIRE_KEY_ENV} to the umpire's key (or keep it in "
                                 f"{agekeys.UMPIRE_KEY_FILE}) to resolve the turn; nothing was "
                                 "done")
        opened = sealing.open_turn_orders(self.root, turn, self.key.identities, adapter,
                                          state=state)
        return TurnOrders(opened.orders, opened.digest, "sealed", opened.events,
                          opened.sealed)

    def projected(self, made: MadeTurn, whole: Mapping[str, bytes]) -> dict[str, bytes]:
        """Each file's public projection (made from :func:`project` alone) and its twin;
        each player's intelligence."""
        folder = made.folder
        sealer = Sealer.of(self.root, made.state, self.key, fresh=self.fresh)
        public = project(made)
        url = self.base_url
        out = dict(whole)
        out |= state_pairs(sealer, (folder, STATE_DIR), made.state, url, public.state)
        if made.before is not None and public.before is not None:
            out |= state_pairs(sealer, (f"{folder}/before",), made.before, url, public.before)
        rel = f"{folder}/events.yaml"
        out |= sealer.pair(rel, whole[rel],
                           dump(EventsFile(made.turn, public.events)).encode("utf-8"))
        rel = f"{folder}/{DICE.file}"
        out |= sealer.pair(rel, whole[rel], dump(public.dice).encode("utf-8"))
        if public.record != made.record:  # the hidden secret, sealed in the twin alone
            rel = f"{folder}/turn.yaml"
            out |= sealer.pair(rel, whole[rel], dump(public.record).encode("utf-8"))
        for player, shown in sorted(public.orders.items()):
            rel = f"{folder}/orders/{player}.yaml"
            # The player's sealed file, where the dice were keyed on it, is the twin.
            committed = made.sealed.get(player)
            out |= {rel: marked(rel.rsplit("/", 1)[1], shown),
                    twin(rel): committed if committed is not None else
                    sealer.sealed(rel, whole[rel])}
        for rel, data in intelligence_files(folder, made.state, made.events, made.turn).items():
            out[rel] = sealer.kept(rel, data)
        return out
