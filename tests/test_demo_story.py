"""The demo campaigns tell one story: what their posts say happened matches what their
recorded turns say happened.

Checked mechanically where a claim has a shape a test can read: every turn a post names
exists (recorded, or the open turn); every battle a post names was fought where it says
in a recorded turn; a world a post says surrendered was taken in a recorded turn; a
move "from X to Y" between two worlds was made; a status post tells only recorded turns,
and in the ftc2007 demo every recorded turn is told by one; an open turn whose deadline
has passed is told as such by a post dated after it. Records are read as plain YAML,
as a reader of the repository would, so the check does not lean on ftpress's loaders.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest
import yaml
from demos import FTC2007, FTCAMP02, SCT, Demo

DEMOS = {"ftc2007": FTC2007, "sct": SCT, "ftcamp02": FTCAMP02}


@dataclass(frozen=True, slots=True)
class Post:
    path: str
    front: dict
    body: str

    @property
    def published(self) -> bool:
        return not self.front.get("draft")

    @property
    def turn_tags(self) -> set[int]:
        return {int(t.removeprefix("turn-")) for t in self.front.get("tags", [])
                if re.fullmatch(r"turn-\d+", t)}

    def where(self, text: str) -> str:
        """The post and line where ``text`` is first found, for a failure message."""
        line = self.body[:self.body.index(text)].count("\n") + 1 if text in self.body else 0
        return f"{self.path} (body line {line}): {text!r}"


@dataclass(frozen=True, slots=True)
class Records:
    """What the recorded turns of a campaign say, by world name."""

    recorded: frozenset[int]
    open_turn: int
    deadline: datetime
    paused: bool
    worlds: frozenset[str]
    battles: frozenset[str]
    taken: frozenset[str]
    moves: frozenset[tuple[str, str]]


def posts_of(demo: Demo) -> list[Post]:
    found = []
    for file in sorted((demo.root / "content/posts").rglob("*.md")):
        text = file.read_text(encoding="utf-8")
        front, body = text.removeprefix("---\n").split("\n---\n", 1)
        found.append(Post(str(file.relative_to(demo.root)), yaml.safe_load(front), body))
    return found


def records_of(demo: Demo) -> Records:
    root = demo.root / "state"
    turns = sorted(p for p in (root / "turns").iterdir() if p.is_dir())
    names: dict[str, str] = {}
    for folder in [root, *turns]:
        for system in yaml.safe_load((folder / "map.yaml").read_text())["systems"]:
            names[system["id"]] = system["name"]
    battles, taken, moves = set(), set(), set()
    for folder in turns:
        events = folder / "events.yaml"
        for event in yaml.safe_load(events.read_text())["events"] if events.is_file() else []:
            at = names.get(event.get("at")) if isinstance(event.get("at"), str) else None
            if event["kind"] in ("battle", "encounter") and at:
                battles.add(at)
            if event["kind"] == "conquest" and at:
                taken.add(at)
            origin = event.get("origin")
            if at and isinstance(origin, str) and origin in names:
                moves.add((names[origin], at))
    calendar = yaml.safe_load((root / "campaign.yaml").read_text())["calendar"]
    deadline = calendar["deadline"]
    if isinstance(deadline, str):
        deadline = datetime.fromisoformat(deadline)
    return Records(frozenset(int(p.name[1:]) for p in turns), calendar["turn"], deadline,
                   bool(calendar.get("paused")), frozenset(names.values()),
                   frozenset(battles), frozenset(taken), frozenset(moves))


#: "turn 3", "turns 4 and 5", "turns 7 to 9", "Turn 10" (not "economic turn 2").
TURNS = re.compile(r"(?<!economic )\b[Tt]urns? (\d+(?:(?:, | and | to | or )\d+)*)\b")
WORLD = r"[A-Z][\w']+(?: [A-Z][\w']+)?"


def turns_named(text: str) -> set[int]:
    named: set[int] = set()
    for match in TURNS.finditer(text):
        numbers = [int(n) for n in re.findall(r"\d+", match.group(1))]
        named.update(range(numbers[0], numbers[-1] + 1) if " to " in match.group(1)
                     else numbers)
    return named


def battles_named(text: str, worlds: frozenset[str]) -> set[str]:
    """Worlds a text says a battle was fought at: "the battle of X", "battle at X",
    "fought at X" ("the Battle of Wherever" names no world)."""
    said = re.findall(rf"\b(?:[Bb]attle (?:of|at)|fought at) ({WORLD})", text)
    return {w for w in said if w in worlds}


def worlds_taken(text: str, worlds: frozenset[str]) -> set[str]:
    """Worlds a text says changed hands: "X surrendered", "X falls", "took X"."""
    said = set(re.findall(rf"\b({WORLD})\*?\*? (?:surrender(?:s|ed)|falls|fell)\b", text))
    said |= set(re.findall(rf"\b(?:took|taken|liberated)\*?\*? ({WORLD})", text))
    return {w for w in said if w in worlds}


def moves_named(text: str, worlds: frozenset[str]) -> set[tuple[str, str]]:
    """Moves "from X to Y" between two worlds that a text tells of."""
    pairs = re.findall(rf"\bfrom ({WORLD}) to ({WORLD})", text)
    return {(a, b) for a, b in pairs if a in worlds and b in worlds}


@pytest.fixture(scope="module", params=sorted(DEMOS))
def story(request) -> tuple[Demo, list[Post], Records]:
    demo = DEMOS[request.param]
    return demo, [p for p in posts_of(demo) if p.published], records_of(demo)


def test_the_demos_posts_are_read(story):
    _, posts, records = story
    assert posts and records.recorded and records.worlds


def test_every_turn_a_post_names_exists(story):
    _, posts, records = story
    known = records.recorded | {records.open_turn}
    wrong = [f"{p.path}: turn {n}" for p in posts
             for n in sorted(turns_named(p.front["title"] + "\n" + p.body) | p.turn_tags)
             if n not in known]
    assert wrong == []


def test_a_status_post_tells_only_recorded_turns(story):
    _, posts, records = story
    wrong = [f"{p.path}: turn {n}" for p in posts if p.front["kind"] == "status"
             for n in sorted(turns_named(p.front["title"]) | p.turn_tags)
             if n not in records.recorded]
    assert wrong == []


def test_every_battle_a_post_names_was_fought_there(story):
    _, posts, records = story
    wrong = [p.where(place) for p in posts
             for place in sorted(battles_named(p.front["title"] + "\n" + p.body, records.worlds))
             if place not in records.battles]
    assert wrong == []


def test_every_world_a_post_says_was_taken_was_taken(story):
    _, posts, records = story
    wrong = [p.where(world) for p in posts
             for world in sorted(worlds_taken(p.body, records.worlds))
             if world not in records.taken]
    assert wrong == []


def test_every_move_a_post_tells_of_was_made(story):
    _, posts, records = story
    wrong = [p.where(f"from {a} to {b}") for p in posts
             for a, b in sorted(moves_named(p.body, records.worlds))
             if (a, b) not in records.moves]
    assert wrong == []


def test_an_open_turn_past_its_deadline_is_told(story):
    """As the demo is built ("now" in tests/demos.py): a deadline that has passed with
    the turn neither resolved nor paused is said so by a post dated after it."""
    demo, posts, records = story
    now = datetime.fromisoformat(demo.now)
    if records.paused or now < records.deadline:
        return
    told = [p.path for p in posts if _when(p.front["date"]) > records.deadline
            and records.open_turn in turns_named(p.body)]
    assert told, f"turn {records.open_turn} was due {records.deadline}; no post says so"


def test_every_recorded_turn_of_the_ftc2007_demo_has_its_status_post():
    told = set().union(*(p.turn_tags for p in posts_of(FTC2007)
                         if p.published and p.front["kind"] == "status"))
    assert records_of(FTC2007).recorded - {0} <= told


def test_the_checks_catch_the_contradictions_they_are_for():
    worlds = frozenset({"Vesper", "Marrow", "Corvid", "Arcturus Gate", "Bellwether", "Lumen"})
    assert turns_named("Turn 9, and turns 11 to 13; economic turn 2") == {9, 11, 12, 13}
    assert turns_named("turns 4 and 5, turn 10") == {4, 5, 10}
    assert battles_named("The battle of Vesper, fought at Lumen; the Battle of Wherever",
                         worlds) == {"Vesper", "Lumen"}
    assert worlds_taken("**Vesper surrenders.** The Union took Marrow.", worlds) == {
        "Vesper", "Marrow"}
    assert moves_named("from Corvid to Marrow, from Arcturus Gate to Bellwether, "
                       "from Halcyon to the north", worlds) == {
        ("Corvid", "Marrow"), ("Arcturus Gate", "Bellwether")}


def _when(value: object) -> datetime:
    """A post's date as a moment (a bare day is taken at midnight UTC)."""
    moment = value if isinstance(value, datetime) else datetime.fromisoformat(f"{value}T00:00")
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
