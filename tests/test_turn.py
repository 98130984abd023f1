"""ftpress turn: recording, idempotence, verification, the umpire's secret, and
properties of resolution (no ship lost or doubled, same inputs same turn)."""

from __future__ import annotations

from pathlib import Path

import pytest
from damage import Damage, damage
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from turnfixture import build_orders, build_state

from ftpress.orders.load import canonical, orders_digest, parse_orders
from ftpress.rules.ftc2007.orderfile import ADAPTER
from ftpress.rules.ftc2007.turn import resolve
from ftpress.state.dice import Dice, KeyedStream
from ftpress.store.secret import SECRET_ENV, secret_hash, turn_secret

from conftest import REPO, files_of, set_up_demo

NOW = "2026-03-16T09:00:00+00:00"


@pytest.fixture
def demo(tmp_path):
    """The demo campaign as it was set up, with its turn 1 orders, in a folder of its own.

    The demo has played on since; its setup snapshot (t000) is the starting state.
    """
    return _set_up(tmp_path / "demo")


def _set_up(root: Path) -> Path:
    """The demo as set up, its whole files as an open campaign's (:func:`set_up_demo`)."""
    return set_up_demo(root)


#: The files of the set-up demo (:func:`_set_up`) that a turn reads.
SET_UP_FILES = sorted([f"orders/t001/{p.name}"
                       for p in (REPO / "state/turns/t001/orders").glob("*.yaml")]
                      + [f"state/{p.name}" for p in (REPO / "state/turns/t000").glob("*.yaml")
                         if p.name != "dice.yaml"]
                      + [f"state/turns/t000/{p.name}"
                         for p in (REPO / "state/turns/t000").glob("*.yaml")] + ["site.yaml"])


def test_turn_records_the_turn_and_advances_the_calendar(demo, run):
    code, out, err = run("turn", "--source", demo, "--now", NOW)
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == ("resolved t001: 17 events, 4 dice rolled; recorded in "
                                    "state/turns/t001/; t002 opens, orders due "
                                    "2026-03-22 20:00:00+00:00")
    record = demo / "state/turns/t001"
    assert sorted(p.name for p in record.iterdir()) == [
        "campaign.yaml", "designs.yaml", "dice.yaml", "events.yaml", "groups.yaml", "map.yaml",
        "orders", "players.yaml", "queues.yaml", "turn.yaml"]
    assert (record / "orders/nac.yaml").read_bytes() == (demo / "orders/t001/nac.yaml").read_bytes()
    assert "turn: 2\n" in (demo / "state/campaign.yaml").read_text()
    assert (demo / "state/groups.yaml").read_bytes() == (record / "groups.yaml").read_bytes()
    assert "  - id: esu-1\n    owner: esu\n    at: corvid\n" in (record / "groups.yaml").read_text()
    assert run("check", "--source", demo)[0] in (0, 1)  # the demo copy has no content/


def test_a_turn_writes_only_its_record_and_the_current_state(demo, run):
    before = files_of(demo)
    assert run("turn", "--source", demo, "--now", NOW)[0] == 0
    after = files_of(demo)
    changed = {p for p in set(before) | set(after) if before.get(p) != after.get(p)}
    assert changed
    assert all(p.startswith("state/turns/t001/") or (p.count("/") == 1 and p.startswith("state/"))
               for p in changed), changed


def test_running_a_recorded_turn_again_changes_nothing(demo, run):
    assert run("turn", "--source", demo, "--now", NOW)[0] == 0
    before = files_of(demo)
    code, out, _ = run("turn", "t001", "--source", demo, "--now", NOW)
    assert (code, out) == (0, "t001 is already recorded in state/turns/t001/; nothing changed\n")
    assert files_of(demo) == before


def test_a_turn_is_not_resolved_before_its_deadline(demo, run):
    code, _, err = run("turn", "--source", demo, "--now", "2026-03-15T19:59:00+00:00")
    assert code == 1
    assert err == ("ftpress: turn t001's orders are due 2026-03-15 20:00:00+00:00; nothing was "
                   "done (use --early to resolve it now)\n")
    assert not (demo / "state/turns/t001").exists()


def test_verify_confirms_a_turn_and_shows_a_diff_when_the_record_differs(demo, run):
    assert run("turn", "--source", demo, "--now", NOW)[0] == 0
    code, out, _ = run("turn", "--verify", "t001", "--source", demo)
    assert (code, out) == (0, "verified t001: re-resolving it gives the recorded result "
                              "exactly\n")
    events = demo / "state/turns/t001/events.yaml"
    events.write_text(events.read_text().replace("at: bellwether", "at: vesper"))
    code, _, err = run("turn", "--verify", "t001", "--source", demo)
    assert code == 1
    assert "-    at: vesper\n+    at: bellwether\n" in err
    assert err.endswith("ftpress: t001 does not re-resolve to its record (1 difference)\n")


def test_an_invalid_order_file_stops_the_turn_and_nothing_is_written(demo, run):
    (demo / "orders/t001/nac.yaml").write_text("turn: t001\nplayer: nac\ngroups:\n  nac-1:\n"
                                               "    move: bellwether\n")
    before = files_of(demo)
    code, _, err = run("turn", "--source", demo, "--now", NOW)
    assert code == 1
    assert err.splitlines()[0] == ("orders/t001/nac.yaml:5:5: the move of group 'nac-1' names "
                                   "no posture; add 'posture:' with stand-off, attack or "
                                   "withdraw-if-contested (§17.2)")
    assert files_of(demo) == before


def test_the_umpire_secret_is_committed_then_revealed(demo, run, monkeypatch):
    monkeypatch.setenv(SECRET_ENV, "correct horse battery staple")
    assert run("turn", "--source", demo, "--now", NOW)[0] == 0
    expected = secret_hash(turn_secret(b"correct horse battery staple", "tannhauser-reach",
                                       "t002"))
    assert f"  secret_sha256: {expected}\n" in (demo / "state/campaign.yaml").read_text()
    monkeypatch.setenv(SECRET_ENV, "wrong")
    code, _, err = run("turn", "--source", demo, "--now", "2026-03-23T09:00:00+00:00")
    assert code == 1 and "does not match the hash published when t002 opened" in err
    monkeypatch.setenv(SECRET_ENV, "correct horse battery staple")
    assert run("turn", "--source", demo, "--now", "2026-03-23T09:00:00+00:00")[0] == 0
    record = (demo / "state/turns/t002/turn.yaml").read_text()
    secret = turn_secret(b"correct horse battery staple", "tannhauser-reach", "t002")
    assert f"secret: {secret}\nsecret_sha256: {expected}\n" in record
    monkeypatch.delenv(SECRET_ENV)
    assert run("turn", "--verify", "t002", "--source", demo)[0] == 0


def test_supplied_dice_are_used_and_recorded(demo, run):
    (demo / "dice.yaml").write_text("dice: [6, 6, 6, 6, 1]\n")
    code, out, _ = run("turn", "--source", demo, "--now", NOW, "--dice", demo / "dice.yaml")
    assert code == 0
    assert "note: 1 of the dice in" in out
    events = (demo / "state/turns/t001/events.yaml").read_text()
    assert ("A task group of the Federated States of Europa scouted Northgate, which is "
            "settled: income 180") in events
    assert run("turn", "--verify", "t001", "--source", demo)[0] == 0


def test_check_summarises_orders_in_plain_words(demo, run):
    code, out, _ = run("check", "--source", demo, demo / "orders/t001/esu.yaml")
    assert code == 0
    assert out.splitlines() == [
        "orders/t001/esu.yaml:",
        "  esu-1 (7 ships) travels charted route eastmarch-route from Eastmarch to Corvid by "
        "way of Sable, arriving to stand off, +1 initiative (§8.2).",
        "  esu-2 (dummy counter) jumps from Eastmarch to Corvid (1 hex), arriving to stand off "
        "(§8.1).",
        "  Maintenance for economic turn 1: reduced (§7).",
        "checked 1 file: no problems"]


def test_check_of_a_folder_counts_the_files_it_reported(demo, run):
    """Named a folder, ``check`` summarises each order file in it, and its closing line
    counts those files, not the one path it was given."""
    code, out, _ = run("check", "--source", demo, demo / "orders/t001")
    assert code == 0
    files = sorted(p.name for p in (demo / "orders/t001").iterdir() if p.is_file())
    reported = [line for line in out.splitlines() if line.startswith("orders/t001/")]
    assert len(reported) == len(files) > 1
    assert out.splitlines()[-1] == f"checked {len(files)} files: no problems"


def test_respacing_an_order_file_does_not_change_its_digest():
    a = parse_orders(b"turn: t001\nplayer: nac\ngroups:\n  g1: {move: [2, -1], posture: attack}\n",
                     "orders/t001/nac.yaml", ADAPTER)
    b = parse_orders(b"# my orders\nplayer: nac\nturn: t001\ngroups:\n  g1:\n    posture: attack"
                     b"\n    move: (2,   -1)\n", "orders/t001/nac.yaml", ADAPTER)
    assert canonical(a.orders) == canonical(b.orders)
    assert orders_digest([a.orders]) == orders_digest([b.orders])
    c = parse_orders(b"turn: t001\nplayer: nac\ngroups:\n  g1: {move: [2, -1], posture: "
                     b"stand-off}\n", "orders/t001/nac.yaml", ADAPTER)
    assert orders_digest([a.orders]) != orders_digest([c.orders])


# --- properties -----------------------------------------------------------------------

SPEC = {
    "systems": [
        {"id": "a", "hex": [0, 0], "owner": "nac"}, {"id": "b", "hex": [2, -1], "owner": "nac"},
        {"id": "c", "hex": [1, 1]}, {"id": "d", "hex": [-2, 1], "owner": "esu"},
        {"id": "e", "hex": [0, -3], "owner": "esu", "interdicted_by": "nac"},
        {"id": "f", "hex": [3, -3]},
    ],
    "routes": {"r1": [["a", "e"], ["e", "f"]], "r2": [["d", "b"]]},
    "groups": [
        {"id": "n1", "owner": "nac", "at": "a", "ships": ["dd", "dd"]},
        {"id": "n2", "owner": "nac", "at": "a", "ships": ["sc"]},
        {"id": "n3", "owner": "nac", "at": [1, 0], "ships": ["dd"]},
        {"id": "e1", "owner": "esu", "at": "d", "ships": ["dd", "sc"]},
        {"id": "e2", "owner": "esu", "at": "e", "ships": ["bb"]},
        {"id": "e3", "owner": "esu", "at": "e", "dummy": True},
    ],
}
DESTINATIONS = ["a", "b", "c", "d", "e", "f", "(1, 0)", "(0, 1)", "(-1, 1)", "(5, 5)"]
POSTURES = ["stand-off", "attack", "withdraw-if-contested"]


@st.composite
def order_texts(draw):
    state = build_state(SPEC)
    texts = {}
    for player in ("nac", "esu"):
        if draw(st.booleans()) and draw(st.booleans()):
            continue  # sometimes no orders at all
        lines = ["groups:"]
        for g in state.groups_of(player):
            kind = draw(st.sampled_from(["move", "route", "hold", "skip", "split"]))
            if kind == "skip":
                continue
            lines.append(f"  {g.id}:")
            if kind == "hold":
                lines.append("    hold: true")
            else:
                worlds = DESTINATIONS[:6] if kind == "route" else DESTINATIONS
                lines.append(f"    move: '{draw(st.sampled_from(worlds))}'")
                lines.append(f"    posture: {draw(st.sampled_from(POSTURES))}")
                if kind == "route":
                    lines.append(f"    route: {draw(st.sampled_from(['r1', 'r2']))}")
            if kind == "split" and len(g.ships) > 1:
                lines.append(f"    split: {{{g.id}-x: ['{g.ships[0].name}']}}")
        texts[player] = "\n".join(lines) + "\n" if len(lines) > 1 else "groups: {}\n"
    return texts


def _ships(state):
    return sorted((g.owner, s.name) for g in state.groups.groups for s in g.ships)


@settings(max_examples=150, deadline=None)
@given(order_texts(), st.binary(min_size=1, max_size=8))
def test_no_ship_is_lost_or_doubled_and_the_same_inputs_give_the_same_turn(texts, key):
    state = build_state(SPEC)
    orders = build_orders(state, texts)
    after, events = resolve(state, orders, Dice(KeyedStream(key)), {})
    assert _ships(after) == _ships(state)
    ids = [g.id for g in after.groups.groups]
    assert len(ids) == len(set(ids))
    gone = {g.id for g in state.groups.groups} - set(ids)
    merged = {g for e in events if e.kind == "merge" for g in e.groups[1:]}
    found_out = {e.group for e in events if e.kind == "dummy-found"}  # §15.2
    # A counter leaves the map only by a merge, or as a dummy found out by contact.
    assert gone <= merged | found_out
    assert all(g.dummy for g in state.groups.groups if g.id in found_out)
    moved = {g.id for g in state.groups.groups} & {
        g.id for g in after.groups.groups
        if g.at != next((h.at for h in state.groups.groups if h.id == g.id), g.at)}
    # A group moves by its orders, or pulls out (§17.2.3: a garrison bugs out too).
    assert moved <= {e.group for e in events if e.kind in ("arrival", "withdrawal")}
    again = resolve(state, build_orders(state, texts), Dice(KeyedStream(key)), {})
    assert again == (after, events)


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(harm=damage(SET_UP_FILES))
def test_a_damaged_file_stops_the_turn_cleanly_or_the_turn_is_resolved(tmp_path_factory, run,
                                                                       harm: Damage):
    """Whatever a bad edit does to an order file or the state, resolving the turn either
    works or stops with exit 1 and every file as it was; never a traceback."""
    root = _set_up(tmp_path_factory.mktemp("damaged") / "demo")
    harm.apply(root)
    before = files_of(root)
    code, _, err = run("turn", "--source", root, "--now", NOW)
    assert code in (0, 1)
    if code == 1:
        assert err.startswith(tuple(SET_UP_FILES)), err
        assert files_of(root) == before
