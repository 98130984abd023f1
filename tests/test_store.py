"""The campaign store (:mod:`ftpress.store`): whether a campaign is sealed is decided
once, when it is opened; a turn is recorded all or nothing; and every public file of
a sealed campaign's turn is made from the public projection alone."""

from __future__ import annotations

import ast
import dataclasses
import os
import shutil
from datetime import datetime

import pytest
from demos import FTC2007

from ftpress.errors import RefusedCommand
from ftpress.rules import find_ruleset
from ftpress.secrecy.knowledge import PUBLIC
from ftpress.secrecy.twins import TWIN
from ftpress.state import writeout
from ftpress.state.events import Audience, Event
from ftpress.store import (
    MadeTurn,
    OpenStore,
    SealedStore,
    TurnFiles,
    open_store,
    open_with,
)
from ftpress.store import sealed as sealed_store
from ftpress.store.listing import LISTING, listing
from ftpress.store.projection import project
from ftpress.turn.resolve import resolve_in
from ftpress.turn.verify import remade

from conftest import DEMO_KEY, REPO, files_of, set_up_demo

NOW = datetime.fromisoformat("2026-03-16T09:00:00+00:00")


# --- chosen once ------------------------------------------------------------------------

def test_the_store_is_chosen_from_the_campaign_file_anyone_reads():
    assert isinstance(open_store(REPO / "examples/sct"), OpenStore)
    keyless = open_store(REPO, environ={})
    assert isinstance(keyless, SealedStore) and not keyless.reads_whole
    umpire = open_store(REPO, identity=DEMO_KEY, environ={})
    assert isinstance(umpire, SealedStore) and umpire.reads_whole
    with pytest.raises(RefusedCommand, match="this campaign is sealed: resolving a turn needs"):
        open_store(REPO, environ={}, why="resolving a turn", required=True)


def test_an_opened_store_never_asks_again(tmp_path):
    """Once opened, the store is what it was chosen to be: a campaign file changed under
    it does not turn an open store into a sealed one halfway through a command."""
    root = set_up_demo(tmp_path / "demo")
    store = open_store(root, environ={})
    assert isinstance(store, OpenStore)
    campaign = root / "state/campaign.yaml"
    campaign.write_text(campaign.read_text().replace("settings:\n",
                                                     "settings:\n  secrecy: sealed\n", 1))
    loaded = store.state()
    assert loaded is not None
    ruleset = find_ruleset(loaded.state.campaign.ruleset)
    given = store.turn_orders(loaded.state, "t001", ruleset.orders_adapter)
    assert sorted(given.orders) == sorted(p.stem for p in (root / "orders/t001").iterdir())
    assert isinstance(open_store(root, environ={}), SealedStore)  # opened anew, it is sealed


def test_each_store_answers_what_secrecy_means():
    """What the rest of ftpress asks instead of whether the campaign is sealed, answered
    by the open example (sct) and the sealed demo, read as anyone reads them."""
    open_, sealed = open_with(REPO / "examples/sct"), open_with(REPO)
    assert isinstance(open_, OpenStore) and isinstance(sealed, SealedStore)
    plain, sent = "orders/t010/nac.yaml", "orders/t010/nac.yaml.age"
    assert (open_.order_suffix, sealed.order_suffix) == (".yaml", ".yaml.age")
    assert open_.environment_secrets == ("FTPRESS_UMPIRE_SECRET",)
    assert sealed.environment_secrets == ("FTPRESS_UMPIRE_SECRET", "FTPRESS_UMPIRE_KEY")
    assert open_.sent_refusal(plain) is None and sealed.sent_refusal(sent) is None
    assert "this campaign's orders are sealed" in (sealed.sent_refusal(plain) or "")
    assert (open_.sent_for(sent), sealed.sent_for(sent)) == (sent, plain)
    state = sealed.state()
    assert state is not None
    assert open_.sent_problems(sent, b"junk", state.state) is None
    assert sealed.sent_problems(sent, b"junk", state.state)  # not an age file
    keyed = sealed.keyed_players(state.state)
    assert keyed and all(to[:-1] == state.state.campaign.umpire_recipients
                         for _, to in keyed)
    assert open_.keyed_players(state.state) == ()
    last = sorted(p.name for p in (REPO / "state/turns").iterdir())[-1]
    views = sealed.published_views(last)
    assert views and all(path.startswith("you/") and path.endswith(".age")
                         for path, _ in views)
    assert sealed.published_views(None) == () and open_.published_views(last) is None
    assert sealed.keeps_deputies(state.state) and not open_.keeps_deputies(state.state)
    assert (open_.kept_as("groups.yaml"), sealed.kept_as("groups.yaml")) == \
        (("groups.yaml",), ("groups.yaml", "groups.yaml.age"))


#: Where the campaign's secrecy may be asked, and why: the store's two implementations
#: and the module that chooses between them, and the commands that make a campaign
#: sealed (init: creating/campaign.py; keys seal-campaign: sealed_campaign.py, which
#: reads whether each recorded snapshot was sealed already to keep its keys). Everything
#: else asks the store what it means (how orders are sent and checked, what is sealed
#: to whom, which secrets the publishing run needs) and hands plain values on.
ASKS = {"ftpress/store/campaign_store.py", "ftpress/store/open.py", "ftpress/store/sealed.py",
        "ftpress/creating/campaign.py", "ftpress/store/sealed_campaign.py"}


def _asks(node: ast.AST) -> bool:
    """Does ``node`` ask whether the campaign is sealed: ``is_sealed(…)``,
    ``….campaign.sealed``, or the setting's name, ``"secrecy"``?"""
    if isinstance(node, ast.Call):
        func = node.func
        return (func.id if isinstance(func, ast.Name) else
                func.attr if isinstance(func, ast.Attribute) else None) == "is_sealed"
    if isinstance(node, ast.Attribute):
        return node.attr == "sealed" and isinstance(node.value, ast.Attribute) and \
            node.value.attr == "campaign"
    return isinstance(node, ast.Constant) and node.value == "secrecy"


def test_only_the_store_asks_whether_the_campaign_is_sealed():
    asking = [f"{file.relative_to(REPO).as_posix()}:{getattr(node, 'lineno', 0)}"
              for file in sorted((REPO / "ftpress").rglob("*.py"))
              if file.relative_to(REPO).as_posix() not in ASKS
              for node in ast.walk(ast.parse(file.read_text(encoding="utf-8")))
              if _asks(node)]
    assert asking == []


# --- all or nothing ---------------------------------------------------------------------

class _Kept(OpenStore):
    """An open store that keeps the turn it is handed instead of writing it."""

    made: MadeTurn | None = None

    def record_turn(self, made: MadeTurn) -> TurnFiles:
        _Kept.made = made
        return self.turn_files(made)


class _Failed(Exception):
    pass


def test_a_turn_is_recorded_all_or_nothing(tmp_path, monkeypatch):
    """The store's write of a turn fails at each of its syncs in turn: the record and
    state/ are then exactly as before, or (failed after the commit point, and finished
    by the next command) exactly as the turn writes them."""
    root = set_up_demo(tmp_path / "demo")
    resolve_in(_Kept(root, environ={}), now=NOW, early=True)
    made = _Kept.made
    assert made is not None
    before = files_of(root)
    reference = tmp_path / "reference"
    shutil.copytree(root, reference)
    written = OpenStore(reference).record_turn(made).written
    after = files_of(reference)
    assert after == before | written
    real = os.fsync
    calls = 0

    def counting(fd: int) -> None:
        nonlocal calls
        calls += 1
        real(fd)

    shutil.copytree(root, tmp_path / "counted")
    monkeypatch.setattr(os, "fsync", counting)
    OpenStore(tmp_path / "counted").record_turn(made)
    total = calls
    assert total > len(written)
    outcomes = set()
    for at in range(1, total + 1):
        work = tmp_path / f"at{at}"
        shutil.copytree(root, work)
        seen = 0

        def failing(fd: int, at: int = at) -> None:
            nonlocal seen
            seen += 1
            if seen == at:
                raise _Failed(f"sync {at}")
            real(fd)

        monkeypatch.setattr(os, "fsync", failing)
        with pytest.raises(_Failed):
            OpenStore(work).record_turn(made)
        monkeypatch.setattr(os, "fsync", real)
        writeout.recover(work)
        found = files_of(work)
        assert found in (before, after), at
        outcomes.add("old" if found == before else "new")
    assert outcomes == {"old", "new"}


# --- one public writer ------------------------------------------------------------------

@pytest.fixture(scope="module")
def demo_turn() -> tuple[SealedStore, MadeTurn]:
    """The demo's t002 (a battle), made again by its umpire, with the demo's key."""
    store = SealedStore(REPO, FTC2007.umpire)
    record = store.record_of("state/turns/t002")
    start = store.folder_state(store.start_of("t002", 2))
    return store, remade(store, "t002", start, False, record)[0]


def _public(files: dict[str, bytes]) -> dict[str, bytes]:
    """What anyone without a key reads of a turn's files: every plain file. The record's
    list of hashes (``SHA256SUMS``) hashes the sealed files too, whose bytes age draws
    at random: it is checked to be made from the files written alone, and left out."""
    folder = next(rel.rsplit("/", 1)[0] for rel in files if rel.endswith("/events.yaml"))
    listed = f"{folder}/{LISTING}"  # (none where the record was written before lists)
    if listed in files:
        assert files[listed] == listing(folder, {r: d for r, d in files.items()
                                                 if r != listed})
    return {rel: data for rel, data in files.items()
            if not rel.endswith(TWIN) and rel != listed}


def test_the_public_files_are_made_from_the_projection_alone(demo_turn, monkeypatch):
    """Two turns that differ in everything the public may not know (the whole state,
    the events, the rolls, the orders as sent, the hidden secret), given the same public
    projection, write the same plain files, byte for byte: the projection is the only
    writer of what the public reads."""
    store, made = demo_turn
    secret = Event("report", "test", "The dummy counter is nac-3.",
                   audience=Audience.told("nac"), player="nac")
    other = dataclasses.replace(
        made, state=made.start, events=(*made.events, secret),
        dice=dataclasses.replace(made.dice, rolls=made.dice.rolls[:1]),
        record=dataclasses.replace(made.record, hidden_secret="0" * 64),
        orders={player: raw + b"# the plan: feint at Lumen\n"
                for player, raw in made.orders.items()})
    public = project(made)
    monkeypatch.setattr(sealed_store, "project", lambda _made: public)
    first = _public(store.turn_files(made).written)
    second = _public(store.turn_files(other).written)
    assert first == second
    assert any(rel.endswith("/events.yaml") for rel in first)


def test_the_projection_holds_only_what_the_public_may_know(demo_turn):
    _, made = demo_turn
    public = project(made)
    assert public.state.campaign.known_to == PUBLIC
    assert all(e.audience.public for e in public.events)
    assert public.record.hidden_secret is None
    assert not any(roll.hidden for roll in public.dice.rolls)
