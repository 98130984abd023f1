"""A deterministic synthetic campaign for the build benchmark.

    python bench/corpus.py --posts 1000 --turns 100 --radius 10 --out /tmp/corpus

writes three projects with the same posts, so that the benchmark compares the
tools on the same work:

- ``OUT/ftpress-campaign/``: a campaign ftpress builds (``site.yaml``, posts in all five
  kinds over several years, the rulebook in ``content/rules/`` and ruling posts
  whose ``amends:`` change it) and, with ``--turns T``, its ``state/`` and ``orders/``:
  T turns each really resolved by ftpress's ftc2007 engine from generated orders
  (``turns.py``);
- ``OUT/pelican-site/`` and ``OUT/hugo-site/``: the same posts as a Pelican and a Hugo
  project (see ``mirrors.py``);
- ``OUT/corpus.json``: the arguments, the build's ``--now`` and what was written (with
  how many events of each kind the turns produced).

Everything comes from one ``random.Random(seed)``: the same arguments give a
byte-identical corpus, so numbers measured on two machines are comparable (the
turns' dice are keyed by their orders and a fixed umpire secret).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import mirrors
from prose import WORLDS, Prose

#: Bump whenever the generator's output changes, so that cached corpora are remade.
VERSION = 5
ZONE = ZoneInfo("Europe/London")
START = date(2019, 1, 7)
KINDS = ("rules", "rulings", "cogitation", "status", "guff")
KIND_WEIGHTS = (5, 20, 20, 30, 25)
#: The first posts publish the rulebook, five rules each, as a real campaign starts.
RULE_POSTS = 4
#: Each tool's project folder in the corpus. Not importable names: ``python -m ftpress``
#: run inside a corpus must never take a folder of it for the package.
PROJECTS = {"ftpress": "ftpress-campaign", "pelican": "pelican-site", "hugo": "hugo-site"}
RULE_TITLES = (
    "Strategic space", "Player worlds", "Income", "Neutral worlds", "Turns", "Starting forces",
    "Maintenance", "Movement", "Conquest", "Defences", "Sieges", "Supply", "Interdiction",
    "Construction", "Repairs", "Scouting", "Battles", "Diplomacy", "Freighters", "Victory",
)
SECTION_TITLES = (
    "Who may act", "When it happens", "What it costs", "Exceptions", "Dice", "Timing",
    "Limits", "Reporting", "Ownership", "Damage", "Order of play", "Umpire's discretion",
)
TOPIC_TAGS = (
    "interdiction", "sieges", "supply", "depots", "scouting", "movement", "economy",
    "maintenance", "freighters", "shipyards", "battle", "battle-report", "dice", "orders",
    "map", "diplomacy", "propaganda", "verse", "newspaper", "small-ads", "meta", "balance",
    "nac", "nsl", "fse", "esu", "repair", "construction", "damage", "defences", "task-groups",
    "postures", "logistics", "vesper", "marrow", "tethys", "clairvaux", "savasku", "ashfall",
    "sable",
)
TOPICS = (
    "interdiction", "supply depots", "siege arithmetic", "dummy counters", "charted routes",
    "maintenance", "freighters", "scouting", "jump distances", "shipyards", "repairs",
    "neutral worlds", "the defence roll", "late orders", "task group postures", "ransom",
)
SITE_YAML = """\
# Site settings of the benchmark corpus (bench/corpus.py); the shape of the demo's site.yaml.
title: The Benchmark Reach
description: A synthetic Full Thrust campaign, generated for the build benchmark.
author: the Umpire
base_url: https://bench.example.org/campaign/
language: en-GB
timezone: Europe/London
paginate: 10
feed_limit: 20
"""


@dataclass(frozen=True, slots=True)
class Amend:
    """One item of a ruling's ``amends:`` list."""

    action: str  # "amend", "add" or "repeal"
    number: str
    title: str | None = None
    text: str | None = None


@dataclass(frozen=True, slots=True)
class Post:
    slug: str
    title: str
    when: datetime  # aware, in the campaign's zone
    kind: str
    tags: tuple[str, ...]
    summary: str
    body: str
    amends: tuple[Amend, ...] = ()

    @property
    def file(self) -> str:
        """Where the post lives, relative to a project's ``content/``."""
        d = self.when
        return f"posts/{d.year:04d}/{d.month:02d}/{d.day:02d}-{self.slug}.md"

    @property
    def url(self) -> str:
        """Root-relative URL of the post's page, the same in all three projects."""
        d = self.when
        return f"/posts/{d.year:04d}/{d.month:02d}/{d.day:02d}/{self.slug}/"


@dataclass(frozen=True, slots=True)
class Section:
    number: str
    title: str
    text: str


@dataclass(frozen=True, slots=True)
class RuleFile:
    rule: int
    title: str
    day: date
    source: str | None
    intro: str
    sections: tuple[Section, ...]

    @property
    def file(self) -> str:
        return f"rules/{self.rule:02d}-{slugify(self.title)}.md"


@dataclass(frozen=True, slots=True)
class Campaign:
    posts: tuple[Post, ...]  # oldest first
    rules: tuple[RuleFile, ...]
    #: A moment after the last post, so that no post is scheduled.
    now: datetime


@dataclass
class RulebookState:
    """Which sections exist as the generator walks forward in time.

    Amendments must be legal for ftpress (no amending a missing section, no two
    changes of one section on one day), so the generator keeps the rulebook's
    state itself. Only sections added by rulings are ever repealed; the rule
    files' own sections stay, so citations of them are always valid.
    """

    original: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    next_free: dict[int, int] = field(default_factory=dict)
    touched: dict[date, set[str]] = field(default_factory=dict)

    def free_today(self, day: date, numbers: list[str]) -> list[str]:
        used = self.touched.get(day, set())
        return [n for n in numbers if n not in used]

    def touch(self, day: date, number: str) -> None:
        self.touched.setdefault(day, set()).add(number)


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _timeline(rng: random.Random, count: int) -> list[datetime]:
    """``count`` moments over three to eight years, oldest first, 08:00–21:59 London time.

    Day-time hours keep every post on the same calendar day in any zone the
    site could use, so the file name's date always matches.
    """
    span = min(max(round(count * 1.6), 3 * 365), 8 * 365)
    moments = sorted((i * span // max(count, 1), rng.randrange(8 * 60, 22 * 60))
                     for i in range(count))
    return [datetime.combine(START + timedelta(days=d), time(m // 60, m % 60), ZONE)
            for d, m in moments]


def _rule_files(prose: Prose, rng: random.Random, sources: list[tuple[str, date]]
                ) -> tuple[RuleFile, ...]:
    """Twenty rules, published in equal shares by the first rules posts."""
    files = []
    for index, title in enumerate(RULE_TITLES):
        rule = index + 1
        slug, day = sources[index * len(sources) // len(RULE_TITLES)] if sources \
            else (None, START)
        sections: list[Section] = []
        for n in range(1, rng.randint(3, 6) + 1):
            cite = f" See [[rule:{rule}.1]]." if n > 1 and rng.random() < 0.3 else ""
            sections.append(Section(f"{rule}.{n}", rng.choice(SECTION_TITLES),
                                    prose.paragraph(3, 6) + cite))
            for sub in range(1, rng.choice((0, 0, 1, 2)) + 1):
                sections.append(Section(f"{rule}.{n}.{sub}", rng.choice(SECTION_TITLES),
                                        prose.paragraph(2, 4)))
        files.append(RuleFile(rule, title, day, slug, prose.paragraph(1, 2), tuple(sections)))
    return tuple(files)


def _amendments(rng: random.Random, prose: Prose, book: RulebookState,
                day: date) -> tuple[Amend, ...]:
    """One to three legal changes to the rulebook, effective on ``day``."""
    changes: list[Amend] = []
    for _ in range(rng.randint(1, 3)):
        roll = rng.random()
        repealable = book.free_today(day, book.added)
        if roll < 0.1 and repealable:
            number = rng.choice(repealable)
            book.added.remove(number)
            changes.append(Amend("repeal", number))
        elif roll < 0.4:
            rule = rng.randint(1, len(RULE_TITLES))
            number = f"{rule}.{book.next_free[rule]}"
            book.next_free[rule] += 1
            book.added.append(number)
            changes.append(Amend("add", number, rng.choice(SECTION_TITLES),
                                 prose.paragraph(2, 4, markup=False)))
        else:
            candidates = book.free_today(day, book.original + book.added)
            if not candidates:
                continue
            number = rng.choice(candidates)
            title = rng.choice(SECTION_TITLES) if rng.random() < 0.2 else None
            changes.append(Amend("amend", number, title, prose.paragraph(2, 4, markup=False)))
        book.touch(day, changes[-1].number)
    return tuple(changes)


def _title(rng: random.Random, kind: str, index: int, turn: int) -> str:
    topic, world = rng.choice(TOPICS), rng.choice(WORLDS)
    if kind == "rules":
        return f"Campaign rules, part {index + 1}" if index < RULE_POSTS \
            else rng.choice((f"Optional rule: {topic}", f"Errata on {topic}"))
    if kind == "rulings":
        return rng.choice((f"Ruling: {topic}", f"On {topic}, a ruling", f"Clarifying {topic}"))
    if kind == "cogitation":
        return rng.choice((f"Thinking about {topic}", f"Why {topic} matters",
                           f"Is {topic} too swingy?"))
    if kind == "status":
        return f"State of play, turn {turn}"
    return rng.choice((f"The {world} Intelligencer", f"Small ads from {world}",
                       f"Limericks of {world}", f"Communiqués regarding {world}"))


def _unique(slug: str, taken: set[str]) -> str:
    candidate, n = slug, 2
    while candidate in taken:
        candidate, n = f"{slug}-{n}", n + 1
    taken.add(candidate)
    return candidate


def _posts(rng: random.Random, prose: Prose, moments: list[datetime], book: RulebookState,
           rules: list[RuleFile]) -> Iterator[Post]:
    """The posts, oldest first; rulings amend ``book`` as they go."""
    taken: set[str] = set()
    published: list[Post] = []
    status_count = 0
    for index, when in enumerate(moments):
        kind = "rules" if index < RULE_POSTS else rng.choices(KINDS, KIND_WEIGHTS)[0]
        status_count += kind == "status"
        title = _title(rng, kind, index, status_count)
        slug = _unique(slugify(title), taken)
        tags = list(rng.sample(TOPIC_TAGS, rng.randint(1, 3)))
        amends: tuple[Amend, ...] = ()
        citations: list[str] = []
        if index < RULE_POSTS:
            citations = [s.number for r in rules if r.source == slug for s in r.sections[:1]]
        elif book.original:
            citations = rng.sample(book.original, rng.choice((0, 0, 1, 2)))
        if kind == "rulings" and index >= RULE_POSTS and rng.random() < 0.5:
            amends = _amendments(rng, prose, book, when.date())
            citations += [a.number for a in amends if a.action != "repeal"]
        if kind in ("rules", "rulings"):
            numbers = {int(n.split(".")[0]) for n in citations} or {rng.randint(1, 20)}
            tags += [f"rule-{n}" for n in sorted(numbers)]
        if kind == "status":
            tags.append(f"turn-{(status_count + 1) // 2}")
        links = [published[rng.randrange(len(published))].url] \
            if published and rng.random() < 0.3 else []
        body = prose.body(rng.randint(655, 750), citations=citations, links=links,
                          table=rng.random() < 0.15, footnote=rng.random() < 0.2)
        post = Post(slug, title, when, kind, tuple(dict.fromkeys(tags)),
                    prose.sentence(markup=False), body, amends)
        published.append(post)
        yield post


def generate(posts: int, seed: int) -> Campaign:
    """The whole campaign, from one seeded random stream."""
    moments = _timeline(random.Random(seed), posts)
    rng = random.Random(seed + 1)
    prose = Prose(rng)
    sources = [(slugify(f"Campaign rules, part {i + 1}"), moments[i].date())
               for i in range(min(RULE_POSTS, posts))]
    rules = list(_rule_files(prose, rng, sources))
    book = RulebookState(
        original=[s.number for r in rules for s in r.sections],
        next_free={r.rule: sum(1 for s in r.sections if s.number.count(".") == 1) + 1
                   for r in rules})
    made = tuple(_posts(rng, prose, moments, book, rules))
    end = made[-1].when.date() if made else START
    now = datetime.combine(end + timedelta(days=1), time(0, 0), ZONE)
    return Campaign(made, tuple(rules), now)


def yaml_string(text: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is a subset of YAML's)."""
    return json.dumps(text)


def yaml_block(text: str, indent: int) -> str:
    """A YAML literal block scalar, for multi-line text in front matter."""
    pad = " " * indent
    return "|\n" + "".join(f"{pad}{line}\n" if line else "\n" for line in text.split("\n"))


def amends_yaml(amends: tuple[Amend, ...]) -> str:
    lines = ["amends:\n"]
    for a in amends:
        lines.append(f'  - {a.action}: "{a.number}"\n')
        if a.title is not None:
            lines.append(f"    title: {yaml_string(a.title)}\n")
        if a.text is not None:
            lines.append(f"    text: {yaml_block(a.text, 6)}")
    return "".join(lines)


def ftpress_post(post: Post) -> str:
    """The post file as ftpress reads it: YAML front matter, then Markdown."""
    head = (f"---\ntitle: {yaml_string(post.title)}\ndate: {post.when.isoformat()}\n"
            f"kind: {post.kind}\ntags: [{', '.join(post.tags)}]\n"
            f"summary: {yaml_string(post.summary)}\n")
    if post.amends:
        head += amends_yaml(post.amends)
    return head + "---\n" + post.body


def rule_file(rule: RuleFile) -> str:
    """A rule file: front matter, an introduction, then ``## N.M Title`` sections."""
    head = f"---\nrule: {rule.rule}\ntitle: {rule.title}\ndate: {rule.day.isoformat()}\n"
    if rule.source:
        head += f"source: {rule.source}\n"
    parts = [head + "---\n" + rule.intro]
    for section in rule.sections:
        hashes = "#" * (section.number.count(".") + 1)
        parts.append(f"{hashes} {section.number} {section.title}\n{section.text}")
    return "\n\n".join(parts) + "\n"


def write_file(root: Path, rel: str, text: str) -> None:
    target = root / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8", newline="\n")


def write_ftpress(campaign: Campaign, root: Path) -> None:
    write_file(root, "site.yaml", SITE_YAML)
    for post in campaign.posts:
        write_file(root, "content/" + post.file, ftpress_post(post))
    for rule in campaign.rules:
        write_file(root, "content/" + rule.file, rule_file(rule))


def write_state(root: Path, turns: int, radius: int, seed: int
                ) -> tuple[int, dict[str, int], str]:
    """The campaign state and ``turns`` turns resolved by ftpress (``turns.py``);
    returns (turns written, events of each kind, a note).

    An ftpress without a state format gets a blog-only corpus and a note saying so.
    """
    if not turns:
        return 0, {}, ""
    try:
        import turns as state_writer
    except ImportError as exc:
        return 0, {}, f"no campaign state written: this ftpress has no state format ({exc})"
    base_url = re.search(r"^base_url: (\S+)$", SITE_YAML, re.M).group(1)
    written, events = state_writer.write_turns(root, turns, radius, seed, START, base_url)
    note = (f"{written} turns resolved by the ftc2007 engine from generated orders, "
            f"battles abstract, dice keyed by a fixed umpire secret")
    return written, dict(sorted(events.items())), note


def write_corpus(out: Path, posts: int, turns: int, radius: int, seed: int) -> dict[str, object]:
    """Generate and write the three projects and ``corpus.json``; returns the manifest."""
    if out.exists():
        if not (out / "corpus.json").is_file():
            raise SystemExit(f"{out} exists and is not a corpus; refusing to overwrite it")
        shutil.rmtree(out)
    campaign = generate(posts, seed)
    write_ftpress(campaign, out / PROJECTS["ftpress"])
    written, events, note = write_state(out / PROJECTS["ftpress"], turns, radius, seed)
    mirrors.write_pelican(campaign, out / PROJECTS["pelican"])
    mirrors.write_hugo(campaign, out / PROJECTS["hugo"])
    manifest: dict[str, object] = {
        "version": VERSION, "posts": posts, "turns_requested": turns, "turns_written": written,
        "radius": radius, "seed": seed, "now": campaign.now.isoformat(),
        "kinds": {k: sum(p.kind == k for p in campaign.posts) for k in KINDS},
        "rules": len(campaign.rules), "amending_posts": sum(bool(p.amends)
                                                            for p in campaign.posts),
        "note": note, "turn_events": events,
    }
    write_file(out, "corpus.json", json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=int, default=1000)
    parser.add_argument("--turns", type=int, default=100,
                        help="turns to resolve, recorded in state/turns/ (0: a blog without state)")
    parser.add_argument("--radius", type=int, default=10, help="radius of the hex map, in hexes")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--out", type=Path, required=True,
                        help="corpus folder (replaced if it holds an earlier corpus)")
    args = parser.parse_args(argv)
    manifest = write_corpus(args.out, args.posts, args.turns, args.radius, args.seed)
    print(json.dumps(manifest, sort_keys=True))
    if manifest["note"]:
        print(f"note: {manifest['note']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
