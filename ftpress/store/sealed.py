"""A sealed campaign's store: each file the rules may hide part of is kept as its
public projection, the whole sealed to the umpires beside it (its twin).

Read with the umpire's key, every file is read whole (from its twin); without
it, the public projections alone. A turn's orders are the sealed files the
players committed, opened with the key (:mod:`ftpress.secrecy.sealing`); its hidden
rolls come from a stream of their own (:mod:`ftpress.store.secret`). A turn
writes, for each of its files, the plain file made from the public's part of
the turn (:func:`ftpress.store.projection.project`) and the whole file sealed
beside it; and each player's intelligence, sealed to them
(:mod:`ftpress.secrecy.intelligence`). Age encryption is randomised, so a twin that
says what is there already keeps its bytes (:class:`ftpress.secrecy.hidden_state.Sealer`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path, PurePosixPath
from typing import Any

from pydantic import TypeAdapter

from ftpress.errors import InputError, Problem, RefusedCommand
from ftpress.files.gitignore import ensure_ignored
from ftpress.files.wanted import asked_about
from ftpress.files.write import write_file
from ftpress.orders.load import ORDERS_DIR
from ftpress.orders.sent import SEALED as SENT_SEALED
from ftpress.orders.sent import senders
from ftpress.secrecy import agekeys, sealing
from ftpress.secrecy.hidden_state import Sealer, state_pairs
from ftpress.secrecy.intelligence import intelligence_files, keyed_players
from ftpress.secrecy.knowledge import public_state
from ftpress.secrecy.twins import TWIN, UmpireKey, marked, open_twin, twin
from ftpress.state.battle_results import BATTLES_DIR, BATTLES_IGNORED, LoadedBattle
from ftpress.state.events import EventsFile
from ftpress.state.files import DICE, KINDS, STATE_DIR
from ftpress.state.load import LoadedState
from ftpress.state.model import State
from ftpress.state.save import dump, schema_url
from ftpress.state.turns import TURNS_DIR
from ftpress.store.campaign import load_state
from ftpress.store.campaign_store import CampaignStore, MadeTurn, TurnOrders
from ftpress.store.inputs import load_battles
from ftpress.store.listing import LISTING, listing
from ftpress.store.projection import project
from ftpress.store.secret import SECRET_ENV
from ftpress.yourview.view import FOLDER as VIEWS
from ftpress.yourview.view import SITE_FOLDER as SITE_VIEWS


class SealedStore(CampaignStore):
    """See the module docstring. ``fresh``: seal every twin anew (a rotation: the
    recipients changed, which an x25519 stanza does not show)."""

    _hides_rolls = True

    def __init__(self, root: Path, key: UmpireKey | None = None,
                 environ: Mapping[str, str] | None = None, *, fresh: bool = False,
                 player: tuple[str, Path] | None = None) -> None:
        super().__init__(root, key, environ)
        self.fresh = fresh
        #: A player reading with their own key (its file): they know what their sealed
        #: intelligence tells them besides the public files.
        self.player = player

    @property
    def reads_whole(self) -> bool:
        return self.key is not None

    @property
    def reading_player(self) -> tuple[str, Path] | None:
        return self.player

    def senders(self, turn: str, players: Iterable[str]) -> tuple[str, ...]:
        """Only a sealed file counts: the plain one is the player's working copy."""
        return senders(self.root, turn, players, tails=(SENT_SEALED,))

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
        return TurnOrders(opened.orders, opened.digest, "receipts", opened.events,
                          opened.sealed, opened.receipts)

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
        rel = f"{folder}/turn.yaml"
        # A turn whose hidden rolls had a secret of their own (its hash is public) keeps
        # that secret in the twin alone.
        if public.record.hidden_secret_sha256 is not None:
            out |= sealer.pair(rel, whole[rel], dump(public.record).encode("utf-8"))
        else:
            out[rel] = dump(public.record).encode("utf-8")
        # A battle result fought on the tabletop is the umpire's: its twin alone (what
        # the public learns of the battle is in the public events).
        for rel in [rel for rel in whole if rel.startswith(f"{folder}/{BATTLES_DIR}/")]:
            del out[rel]
            out[twin(rel)] = sealer.sealed(rel, whole[rel])
        for player, shown in sorted(public.orders.items()):
            rel = f"{folder}/orders/{player}.yaml"
            # The player's sealed file, where the dice were keyed on it, is the twin.
            committed = made.sealed.get(player)
            out |= {rel: marked(rel.rsplit("/", 1)[1], shown),
                    twin(rel): committed if committed is not None else
                    sealer.sealed(rel, whole[rel])}
        for rel, data in intelligence_files(folder, made.state, made.events, made.turn,
                                            made.start).items():
            out[rel] = sealer.kept(rel, data)
        # Last: the list of every file of the record with its hash, for anyone to check;
        # none for a record written before records were listed (made again: redo).
        if not (self.root / folder).is_dir() or (self.root / folder / LISTING).is_file():
            out[f"{folder}/{LISTING}"] = listing(folder, out)
        return out

    def battles(self, turn: str, folder: str | None = None) -> dict[str, LoadedBattle]:
        """The sealed battle results (``<battle-id>.yaml.age``), opened with the umpire's
        key; the plain files beside them are the umpire's working copies, git-ignored,
        and count once sealed (``ftpress battles seal``). Refused without the key."""
        key = self.key
        if key is None:
            raise RefusedCommand(f"this campaign's battle results are sealed; set "
                                 f"${agekeys.UMPIRE_KEY_ENV} to the umpire's key (or keep it in "
                                 f"{agekeys.UMPIRE_KEY_FILE}) to read them; nothing was done")
        return load_battles(self.root, turn, folder,
                            opened=lambda rel: open_twin(self.root, rel, key))

    def battle_kept_as(self, path: str) -> str:
        """Its twin: the forces that meet (real ids, every ship) are the umpires'."""
        return twin(path)

    def write_battle_template(self, state: State, path: str, text: bytes) -> None:
        """The template sealed to the umpires (committed), and in plain beside it for the
        umpire at hand (git-ignored)."""
        ensure_ignored(self.root, BATTLES_IGNORED)
        sealed = agekeys.encrypt(text, agekeys.recipients(
            tuple(state.campaign.umpire_recipients or ())))
        write_file(self.root / path, text)
        write_file(self.root / twin(path), sealed)

    def public_battle(self, path: str) -> bytes | None:
        return None

    def waiting_battles(self, turn: str) -> list[str]:
        """Every sealed battle-result file of the paused ``turn``: whether one is filled
        in is sealed too."""
        folder = self.root / BATTLES_DIR / turn
        return [f"{BATTLES_DIR}/{turn}/{file.name}" for file in
                (sorted(folder.glob("*.yaml" + TWIN)) if folder.is_dir() else ())]

    def sealed_battles(self, turn: str) -> dict[str, bytes]:
        """Each plain battle-result file of ``turn`` that reads (every problem of every
        one refused at once), sealed to the umpires' recipients the plain
        ``state/campaign.yaml`` lists; a twin that says the same keeps its bytes."""
        folder = self.root / BATTLES_DIR / turn
        plain = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
        if not plain:
            raise RefusedCommand(f"{BATTLES_DIR}/{turn}/ holds no plain battle-result file "
                                 "to seal; expected the files the umpire filled in "
                                 f"('ftpress battles open {turn}' writes them from the sealed "
                                 "ones)")
        load_battles(self.root, turn)  # raises with every problem of every file
        ensure_ignored(self.root, BATTLES_IGNORED)
        loaded = load_state(self.root)
        assert loaded is not None  # a sealed campaign has its plain state
        sealer = Sealer.of(self.root, loaded.state, self.key)
        out = {}
        for file in plain:
            rel = file.relative_to(self.root).as_posix()
            out[twin(rel)] = sealer.sealed(rel, file.read_bytes())
        return out

    def opened_battles(self, turn: str) -> dict[str, bytes]:
        """Each sealed battle-result file of ``turn`` opened, for the umpire to fill in;
        refused without the umpire's key."""
        if self.key is None:
            raise RefusedCommand("this campaign's battle results are sealed; opening them "
                                 "needs the umpire's key; nothing was done")
        key = self.key
        return {rel.removesuffix(TWIN): open_twin(self.root, rel, key)
                for rel in self.waiting_battles(turn)}

    def kept_as(self, name: str) -> tuple[str, ...]:
        """The public projection, and the whole sealed beside it."""
        return (name, twin(name))

    def known(self) -> LoadedState | None:
        """The whole state, with the umpire's key; what the player knows, with theirs
        (the public files and their intelligence); else None (the public's plain files,
        against which the orders' form alone is checked)."""
        if self.key is None and self.player is None:
            return None
        try:
            loaded = load_state(self.root, self.key)
            if self.player is not None and loaded is not None:
                return players_view(self.root, loaded, *self.player)
        except InputError:
            return None  # reported by the load of the campaign
        return loaded

    def known_by(self, player: str, identity: Path | None) -> LoadedState | None:
        """The whole state, with the umpire's key; else what ``player`` knows, opened
        with their key ``identity``; else None (the orders' form alone is checked)."""
        if self.key is not None:
            return load_state(self.root, self.key)
        if identity is None:
            return None
        loaded = load_state(self.root)
        return players_view(self.root, loaded, player, identity) if loaded else None

    def order_recipients(self, state: State, player: str) -> list[str]:
        return sealing.seal_recipients(state, player)

    def sealed_order_problems(self, rel: str, state: State) -> list[Problem] | None:
        if not sealing.sealed_name(rel):
            return None
        return sealing.sealed_problems(rel, (self.root / rel).read_bytes(), state)

    def stored_problems(self, wanted: set[str] | None = None,
                        ) -> tuple[list[Problem], str | None]:
        """With the umpire's key: the plain files load as everyone reads them, none
        holds more than the public may know, and each is the projection of its twin.
        Without it, what can be checked with no key; the twins are not."""
        from ftpress.store.campaign import load_states
        from ftpress.store.sealed_campaign import plain_problems, stale_projections, twinned

        if self.key is not None:
            try:  # the plain files, as everyone reads them, must load too
                load_states(self.root)
            except InputError as exc:
                return list(exc.problems), None
            return [*plain_problems(self.root), *stale_projections(self.root, self.key)], None
        sealed_here = [rel for rel in twinned(self.root) if asked_about(rel, wanted)]
        battles = [rel for rel in (p.relative_to(self.root).as_posix() for p in sorted(
                       (self.root / BATTLES_DIR).glob(f"*/*.yaml{TWIN}")))
                   if asked_about(rel, wanted)]
        held = [f"the {len(sealed_here)} sealed twins (state/**/*.age)"] if sealed_here else []
        if battles:
            held.append(f"the {len(battles)} sealed battle result"
                        f"{'' if len(battles) == 1 else 's'} ({BATTLES_DIR}/*/*.yaml{TWIN})")
        unchecked = (f"{' and '.join(held)} hold the whole files; checking them needs the "
                     f"umpire's key (--identity FILE or ${agekeys.UMPIRE_KEY_ENV})"
                     ) if held else None
        return plain_problems(self.root), unchecked

    def current_files(self, state: State, kinds: Iterable[str] | None = None,
                      ) -> dict[str, bytes]:
        """Each file's public projection, and its twin."""
        sealer = Sealer.of(self.root, state, self.key, fresh=self.fresh)
        if kinds is None:
            return state_pairs(sealer, (STATE_DIR,), state, self.base_url)
        public = public_state(state)
        out: dict[str, bytes] = {}
        for name in kinds:
            kind = KINDS[name]
            url = schema_url(self.base_url, kind)
            out |= sealer.pair(f"{STATE_DIR}/{kind.file}",
                               dump(getattr(state, kind.name), url).encode("utf-8"),
                               dump(getattr(public, kind.name), url).encode("utf-8"))
        return out


    def rekeyed(self, state: State, recipients: tuple[str, ...]) -> dict[str, bytes]:
        """Every twin sealed anew to ``recipients``, and the recipients in every snapshot
        (:func:`ftpress.store.sealed_campaign.sealed_files`); refused without the key."""
        from ftpress.store.sealed_campaign import sealed_files

        if self.key is None:
            raise RefusedCommand("this campaign is sealed: re-encrypting it needs the "
                                 "umpire's key; nothing was done")
        return sealed_files(self.root, self.key, recipients=recipients).files


    def intelligence_for(self, player: str) -> dict[str, bytes]:
        """Their intelligence of the latest recorded turn, sealed to their key
        (:func:`ftpress.store.sealed_campaign.latest_intelligence`); refused without the
        umpire's key, which opens the whole state it is made from."""
        from ftpress.store.sealed_campaign import latest_intelligence

        if self.key is None:
            raise RefusedCommand(f"this campaign is sealed: sealing {player}'s intelligence "
                                 "needs the umpire's key; nothing was done")
        return latest_intelligence(self.root, self.key, player)

    def how_to_send(self, turn: str, player: str = "<your-id>") -> str:
        return sealing.how_to_send(turn, player, sealed=True)

    @property
    def order_suffix(self) -> str:
        return sealing.SEALED

    @property
    def environment_secrets(self) -> tuple[str, ...]:
        """The umpire's secret behind the dice, and the umpire's key that opens the
        sealed orders and twins."""
        return (SECRET_ENV, agekeys.UMPIRE_KEY_ENV)

    def sent_refusal(self, path: str) -> str | None:
        """A plain order file: the open repository would show every player its orders."""
        if path.endswith(".yaml") and PurePosixPath(path).parts[:1] == (ORDERS_DIR,):
            return ("is a plain order file, and this campaign's orders are sealed; run "
                    f"'ftpress seal {path} --identity <your key file>' and commit "
                    f"{path}.age instead (the plain file is git-ignored)")
        return None

    def sent_for(self, path: str) -> str:
        """A sealed file stands for the plain file of its name (its turn, its player)."""
        return sealing.plain_of(path) if sealing.sealed_name(path) else path

    def sent_problems(self, path: str, data: bytes, state: State) -> list[Problem] | None:
        """Its form, recipients and size: nothing of its content is read."""
        return sealing.sealed_problems(path, data, state)

    def keyed_players(self, state: State) -> tuple[tuple[str, tuple[str, ...]], ...]:
        return keyed_players(state)

    def published_views(self, turn: str | None) -> tuple[tuple[str, bytes], ...] | None:
        """Every player's sealed report of ``turn``, as it is recorded (the page opens the
        reader's with their key)."""
        if turn is None:
            return ()
        folder = self.root / TURNS_DIR / turn / VIEWS
        return tuple((f"{SITE_VIEWS}/{file.name}", file.read_bytes())
                     for file in (sorted(folder.glob("*.age")) if folder.is_dir() else ())
                     if file.is_file() and not file.is_symlink())

    def keeps_deputies(self, state: State) -> bool:
        """Once it is sealed to umpires, only one of them can seal it to another."""
        return bool(state.campaign.umpire_recipients)

def player_answering(root: Path, identity: Path) -> str | None:
    """The player whose recipient ``identity`` answers to (a player checking their own
    orders against what they know), or None (the umpire's key, or no key of the roster)."""
    try:
        loaded = load_state(root)
    except InputError:
        return None  # the check says why
    identities = agekeys.read_identity(identity)
    return next((p.id for p in loaded.state.players.players if p.recipient is not None
                 and agekeys.answers(identities, p.recipient)), None) if loaded else None


def players_view(root: Path, loaded: LoadedState, player: str, identity: Path
                 ) -> LoadedState | None:
    """The state as ``player`` knows it, from the public files and their intelligence
    (None where the state files are whole: an open campaign's, or the umpire's)."""
    if loaded.state.campaign.known_to is None:
        return None
    from ftpress.rules import STATE_EXTENSIONS
    from ftpress.secrecy.viewing import from_intelligence
    from ftpress.state.records import load_turns

    turns = load_turns(root, extensions=STATE_EXTENSIONS)
    known = from_intelligence(root, loaded.state, turns, player, identity).state
    return LoadedState(loaded.folder, known, {})

