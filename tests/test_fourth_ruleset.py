"""The seam, proved: a fourth ruleset living only in ``tests/fourth_ruleset/`` is
registered, resolves a turn and gets its own turn report (its kinds, sections,
headings and folded lines), with nothing outside its folder changed."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from fourth_ruleset import RULESET

from ftpress.rules import RULESETS, find_ruleset, register

from conftest import SITE_YAML, write_files
from statefiles import STATE, sub

NOW = "2026-03-16T09:00:00+00:00"


@pytest.fixture
def lighthouse():
    """The fourth ruleset registered for one test, and gone again after it."""
    register(RULESET)
    yield RULESET
    del RULESETS[RULESET.name]


@pytest.fixture
def played(tmp_path, lighthouse, run) -> Path:
    """A campaign under the fourth ruleset with turn 1 resolved: nac lights Home's
    beacon, esu sends nothing."""
    state = {**STATE, "state/campaign.yaml": sub(STATE["state/campaign.yaml"],
                                                 "ruleset: ftc2007", "ruleset: lighthouse")}
    setup = {path.replace("state/", "state/turns/t000/"): text for path, text in state.items()}
    root = write_files(tmp_path / "camp", {
        **state, **setup, "site.yaml": SITE_YAML,
        "orders/t001/nac.yaml": "turn: t001\nplayer: nac\nlight: [home]\n",
    })
    code, out, err = run("turn", "--early", "--now", NOW, "--source", root)
    assert (code, err) == (0, ""), out
    return root


def test_a_registered_ruleset_is_found_by_name_and_a_name_is_taken_once(lighthouse):
    assert find_ruleset("lighthouse") is RULESET
    assert register(RULESET) is RULESET  # the same ruleset again: nothing changes
    with pytest.raises(ValueError, match="'lighthouse' is registered already"):
        register(dataclasses.replace(RULESET, title="Another"))


def test_the_fourth_ruleset_resolves_a_turn_into_its_own_kinds(played):
    text = (played / "state/turns/t001/events.yaml").read_text(encoding="utf-8")
    kinds = [line.split(":", 1)[1].strip() for line in text.splitlines()
             if line.strip().startswith("- kind:")]
    assert kinds == ["beacon-lit", "patrol", "no-orders", "calendar"]
    assert "The beacon of Home is lit by New Anglian Confederation." in text


def test_its_report_has_its_sections_headings_and_folded_watch(played, run, tmp_path):
    out = tmp_path / "site"
    code, _, err = run("build", "--source", played, "--out", out, "--now", NOW)
    assert (code, err) == (0, "")
    page = (out / "turns/t001/index.html").read_text(encoding="utf-8")
    headings = [h.split(">", 1)[1].split("<", 1)[0]
                for h in page.split('<h3 id="events-')[1:]]
    assert headings == ["Beacons", "The watch", "Log"]
    assert 'class="event-group event-group-beacons"' in page
    assert "The beacon of Home is lit by New Anglian Confederation." in page
    assert "<summary>1 group kept watch</summary>" in page  # the watch, folded away
    assert "Beacons lit at Home." in page  # the turn's summary
    svg = (out / "turns/t001/map.svg").read_text(encoding="utf-8")
    assert '<g class="marker siege">' in svg  # its section's marker, at the beacon


def test_a_kind_its_ruleset_does_not_declare_is_a_located_error(played, run, tmp_path):
    events = played / "state/turns/t001/events.yaml"
    text = events.read_text(encoding="utf-8")
    events.write_text(text.replace("kind: beacon-lit", "kind: beacon-lt"), encoding="utf-8")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "kind: beacon-lit" in t)
    code, _, err = run("build", "--source", played, "--out", tmp_path / "site", "--now", NOW)
    assert code == 1
    assert err.splitlines()[0] == (f"state/turns/t001/events.yaml:{line}:11: events[0].kind: "
                                   "'beacon-lt' is not an event kind of the lighthouse "
                                   "ruleset; did you mean 'beacon-lit'?")
    assert not (tmp_path / "site").exists()


def test_a_ruleset_without_an_order_form_says_so(played, run):
    code, out, err = run("orders", "new", "nac", "--source", played)
    assert (code, out) == (1, "")
    assert err == ("ftpress: the lighthouse ruleset has no order form; write "
                   "orders/t002/nac.yaml by its schema and check it with 'ftpress check'\n")
    assert not (played / "orders/t002/nac.yaml").exists()
