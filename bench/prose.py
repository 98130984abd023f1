"""Campaign-flavoured Markdown prose for the benchmark corpus.

The text is nonsense, but it is the kind of nonsense a Markdown renderer has to
work for: paragraphs with emphasis, links and rule citations, headings, lists,
block quotes, the occasional table and footnote. Every choice comes from the
``random.Random`` it is given, so the same seed writes the same bytes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

WORLDS = (
    "Vesper", "Marrow", "Tethys", "Clairvaux", "Savasku", "New Carthage", "Ashfall", "Sable",
    "Orison", "Halcyon", "Brannoc", "Kestrel", "Umbra", "Thule", "Caldera", "Meridian",
    "Obelisk", "Penumbra", "Solace", "Tarn", "Varga", "Winterhold", "Yselt", "Zenith",
)
POWERS = ("the NAC", "the NSL", "the FSE", "the ESU", "the Sa'Vasku", "the umpire")
SUBJECTS = (
    "The task group at {world}", "{power}", "A lone scout", "The garrison of {world}",
    "Every player", "The battle line", "A freighter convoy", "The admiral commanding {power}",
    "Nobody at {world}", "The shipyard at {world}", "A pair of escorts", "The reserve fleet",
)
VERBS = (
    "holds", "jumps toward", "besieges", "shadows", "reinforces", "abandons", "interdicts",
    "surveys", "blockades", "resupplies", "pays for", "argues about", "forgets",
    "quietly watches", "writes home about", "underestimates", "refits near",
)
OBJECTS = (
    "the charted route to {world}", "the depot at {world}", "three light cruisers",
    "the income of {world}", "a badly drawn map", "the maintenance bill", "the dice",
    "every empty hex between here and {world}", "the orders filed at one minute to eight",
    "a battered battleship", "the rule on interdiction", "{power}", "the treasury",
)
CLAUSES = (
    "because the income is too good to leave", "while the dice are kind",
    "without asking anyone", "as the rules plainly allow", "which nobody expected",
    "for the third turn running", "at a cost of 120 points", "before the deadline",
    "although the umpire has doubts", "and the newspapers noticed", "in perfect silence",
    "after a long argument on the forum", "to general astonishment",
)
HEADINGS = (
    "What happened", "The arithmetic", "Why it matters", "Orders of note", "The map",
    "Money", "A word on dice", "Questions answered", "Looking ahead", "In other news",
    "The siege", "Movement", "Battles", "Construction", "Repairs", "Diplomacy",
)
WEIGHTED_BLOCKS = ("paragraph",) * 11 + ("heading",) * 3 + ("bullets",) * 2 + (
    "numbered", "quote")


@dataclass
class Body:
    """A post body under construction, counting its words as it grows."""

    blocks: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    words: int = 0

    def add(self, block: str) -> None:
        self.blocks.append(block)
        self.words += len(block.split())

    def text(self) -> str:
        return "\n\n".join(self.blocks + self.notes) + "\n"


class Prose:
    """A source of sentences, paragraphs and whole Markdown bodies from one seeded stream."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def _fill(self, template: str) -> str:
        return template.format(world=self.rng.choice(WORLDS), power=self.rng.choice(POWERS))

    def sentence(self, *, markup: bool = True) -> str:
        """One sentence; now and then a word is emphasised, as people do."""
        r = self.rng
        words = [self._fill(r.choice(SUBJECTS)), r.choice(VERBS), self._fill(r.choice(OBJECTS))]
        if r.random() < 0.45:
            words[-1] += ","
            words.append(r.choice(CLAUSES))
        if markup and r.random() < 0.3:
            i = r.randrange(1, len(words))
            mark = r.choice(("*", "**"))
            words[i] = f"{mark}{words[i].rstrip(',')}{mark}" + ("," if words[i][-1] == "," else "")
        text = " ".join(words)
        return text[0].upper() + text[1:] + "."

    def paragraph(self, low: int = 3, high: int = 6, *, markup: bool = True) -> str:
        return " ".join(self.sentence(markup=markup) for _ in range(self.rng.randint(low, high)))

    def title_words(self) -> str:
        return self.rng.choice(HEADINGS)

    def _list(self, numbered: bool) -> str:
        items = [self.sentence() for _ in range(self.rng.randint(3, 6))]
        return "\n".join(f"{i}. {s}" if numbered else f"- {s}" for i, s in enumerate(items, 1))

    def _quote(self) -> str:
        return "\n".join("> " + line for line in self.paragraph(2, 3).split(". "))

    def table(self) -> str:
        """A small pipe table of worlds, owners and incomes."""
        rows = ["| World | Owner | Income | Defences |", "|---|---|--:|--:|"]
        for world in self.rng.sample(WORLDS, self.rng.randint(4, 7)):
            owner = self.rng.choice(POWERS[:5])
            income = self.rng.randrange(30, 160, 10)
            rows.append(f"| {world} | {owner} | {income} | {income * 10:,} |")
        return "\n".join(rows)

    def body(self, target_words: int, *, citations: Sequence[str] = (),
             links: Sequence[str] = (), table: bool = False, footnote: bool = False,
             opening: str = "") -> str:
        """A Markdown body of about ``target_words`` words.

        ``citations`` are rulebook section numbers the body may cite with
        ``[[rule:N]]`` (the caller knows which exist on the post's date);
        ``links`` are root-relative URLs of earlier posts.
        """
        body = Body()
        body.add(opening or self.paragraph(2, 4))
        pending = [*(self._citation(n) for n in citations), *(self._link(u) for u in links)]
        while body.words < target_words:
            kind = self.rng.choice(WEIGHTED_BLOCKS)
            if kind == "heading":
                body.add(f"## {self.title_words()}")
                continue
            if kind in ("bullets", "numbered"):
                body.add(self._list(kind == "numbered"))
                continue
            if kind == "quote":
                body.add(self._quote())
                continue
            text = self.paragraph()
            if pending:
                text += " " + pending.pop()
            if footnote and not body.notes:
                text += "[^1]"
                body.notes.append(f"[^1]: {self.sentence(markup=False)}")
            body.add(text)
            if table:
                body.add(self.table())
                table = False
        for extra in pending:  # a short body still cites and links what it was given
            body.add(extra)
        return body.text()

    def _citation(self, number: str) -> str:
        if self.rng.random() < 0.5:
            return f"See [[rule:{number}]]."
        sentence = self.sentence(markup=False)
        return f"As [[rule:{number}|the rule on this]] says, {sentence[0].lower()}{sentence[1:]}"

    def _link(self, url: str) -> str:
        return f"I said as much [in an earlier post]({url})."
