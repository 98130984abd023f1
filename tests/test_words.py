"""Words a reader sees: counts in the right number, one style of date, the turns
numbered by turn."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest
import yaml
from demos import FTC2007, FTCAMP02, SCT, Demo

from ftpress.render.theme import long_date
from ftpress.render.words import plural
from ftpress.state import words
from ftpress.state.events import Audience
from ftpress.state.turns import TURNS_DIR
from ftpress.state.words import listed, may_know_id, moment, power_name

#: Counted nouns the site writes; "1 posts" and the like must never appear.
NOUNS = ("posts", "powers", "worlds", "players", "events", "counters", "task groups",
         "task-group counters", "words", "tags", "hull boxes", "dummies")
MONTH = ("January|February|March|April|May|June|July|August|September|October|November|"
         "December")


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory, demo_site: Path) -> dict[str, Path]:
    return {"demo": demo_site, "sct": SCT.build_once(tmp_path_factory, "sct"),
            "ftcamp02": FTCAMP02.build_once(tmp_path_factory, "ftcamp02")}


@pytest.mark.parametrize(("count", "noun", "expected"), [
    (1, "post", "1 post"), (0, "post", "0 posts"), (2, "world", "2 worlds"),
    (1, "dummy", "1 dummy"), (3, "dummy", "3 dummies"), (2, "hull box", "2 hull boxes"),
    (1200, "post", "1,200 posts"), (2, "entry", "2 entries")])
def test_plural(count, noun, expected):
    many = "entries" if noun == "entry" else None
    assert plural(count, noun, many) == expected


def test_one_thing_is_never_counted_as_many_on_any_page(sites):
    wrong = re.compile(r"(?<![\d.,+−-])1 (" + "|".join(NOUNS) + r")\b")
    found = [f"{name}/{page.relative_to(site)}: {m.group(0)}"
             for name, site in sites.items() for page in site.rglob("*.html")
             for m in wrong.finditer(page.read_text(encoding="utf-8"))]
    assert found == []


def test_every_date_shown_is_written_one_way(sites):
    """Each <time> reads '7 April 2026' (an edit adds its clock), whatever the page."""
    style = re.compile(rf"\d{{1,2}} ({MONTH}) \d{{4}}(, \d\d:\d\d)?")
    shown = {m for site in sites.values() for page in site.rglob("*.html")
             for m in re.findall(r"<time [^>]*>([^<]*)</time>", page.read_text("utf-8"))}
    assert shown and [d for d in shown if not style.fullmatch(d)] == []
    assert long_date(date(2026, 11, 29)) == "29 November 2026"


def test_the_turns_list_is_numbered_by_turn_with_the_setup_as_0(demo_site):
    html = (demo_site / "turns/index.html").read_text(encoding="utf-8")
    numbers = re.findall(r'<li value="(\d+)"><a href="/ftpress/turns/(t\d{3})/">', html)
    assert numbers[0] == ("9", "t009") and numbers[-1] == ("0", "t000")
    assert all(int(n) == int(t[1:]) for n, t in numbers)


def test_the_turns_summary_names_the_powers_as_sentences_do(demo_site):
    page = (demo_site / "turns/t002/index.html").read_text(encoding="utf-8")
    assert ("7 task groups moved: 1 of the Eastern Star Union, 1 of the Federated States of "
            "Europa, 2 of the New Anglian Confederation, 1 of the Neue Swabian League and 2 of "
            "Sa&#39;Vasku.") in page
    assert "Marrow passed from the Federated States of Europa to the Eastern Star Union." in page


def test_powers_that_sent_no_orders_are_one_or_many(demo_site):
    one = (demo_site / "turns/t001/index.html").read_text(encoding="utf-8")
    assert "No orders came from Sa&#39;Vasku; its groups held." in one
    two = (demo_site / "turns/t009/index.html").read_text(encoding="utf-8")
    assert "No orders came from the Eastern Star Union and Sa&#39;Vasku; their groups held." in two


# --- names, not ids ----------------------------------------------------------------------

#: A battle's or a prize's id, which no sentence should carry.
BATTLE_OR_PRIZE = re.compile(r"\bBattle [a-z0-9-]+ (at|near)\b|\bprize-t\d{3}-\d+\b")


def _word(ident: str) -> re.Pattern[str]:
    """``ident`` alone as a word: not part of a longer id ('nac' in 'nac-1')."""
    return re.compile(rf"(?<![\w-]){re.escape(ident)}(?![\w-])")


def _yaml(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def raw_ids(demo: Demo) -> list[str]:
    """Every id in a sentence of ``demo``'s recorded events (their text and their
    dice) that its readers may not know: a player's id alone, a world's where the
    world has a name, a battle's or a prize's, or a group's to anyone but its owner."""
    turns = sorted(p for p in (demo.root / TURNS_DIR).iterdir() if p.is_dir())
    players = {p["id"] for t in turns for p in _yaml(t / "players.yaml")["players"]}
    worlds = {s["id"] for t in turns for s in _yaml(t / "map.yaml").get("systems") or ()
              if s["name"] != s["id"]}
    owners = {g["id"]: g["owner"] for t in turns
              for g in (_yaml(t / "groups.yaml").get("groups") or ())}
    found = []
    for turn in (t for t in turns if (t / "events.yaml").exists()):
        for event in _yaml(turn / "events.yaml").get("events") or ():
            told = event["audience"]
            audience = (Audience(None) if told == "public" else
                        Audience(()) if told == "umpire" else Audience.told(*told))
            sentences = [event["text"], *(r["purpose"] for r in event.get("rolls") or ())]
            for text in sentences:
                bad = [m.group(0) for m in BATTLE_OR_PRIZE.finditer(text)]
                bad += [i for i in players | worlds if _word(i).search(text)]
                bad += [g for g, owner in owners.items()
                        if not may_know_id(audience, owner) and _word(g).search(text)]
                found += [f"{turn.name} {event['kind']}: {i!r} in {text!r}" for i in bad]
    return found


@pytest.mark.parametrize("demo", [FTC2007, SCT, FTCAMP02], ids=["demo", "sct", "ftcamp02"])
def test_no_sentence_of_a_recorded_turn_carries_an_id_its_reader_may_not_know(demo):
    assert raw_ids(demo) == []


def test_a_group_is_named_by_id_only_to_its_owner():
    assert may_know_id(Audience.told("nac"), "nac")
    assert not may_know_id(Audience.told("esu", "nac"), "nac")
    assert not may_know_id(Audience(None), "nac")


@pytest.mark.parametrize(("name", "in_a_sentence"), [
    ("New Anglian Confederation", "the New Anglian Confederation"),
    ("Federated States of Europa", "the Federated States of Europa"),
    ("Sa'Vasku", "Sa'Vasku"), ("NAC", "the NAC"), ("The Horde", "the Horde")])
def test_a_power_is_named_as_a_sentence_names_it(name, in_a_sentence):
    assert power_name(name) == in_a_sentence


def test_lists_and_moments_read_as_words():
    assert [listed([]), listed(["A"]), listed(["A", "B"]), listed(["A", "B", "C"])] == [
        "", "A", "A and B", "A, B and C"]
    later = datetime(2026, 5, 17, 22, 0, tzinfo=timezone(timedelta(hours=2)))
    assert moment(later) == "17 May 2026, 20:00 UTC"


@pytest.mark.parametrize(("text", "ended_as"), [
    ("there is no world 'skery'; did you mean 'skerry'?",
     "there is no world 'skery'; did you mean 'skerry'?"),
    ("g1 has no ship named 'x'", "g1 has no ship named 'x'."),
    ("it is done.", "it is done."),
    ("hold!", "hold!"),
])
def test_a_refusal_ends_as_one_sentence(text, ended_as):
    """A refused order's event quotes the message and ends it once: no '?.'."""
    assert words.ended(text) == ended_as
