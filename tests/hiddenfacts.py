"""What the public site must not tell, taken from the umpire's structured data.

The facts come from what the rules recorded, never from ftpress's own view code:

- every event whose ``audience`` in ``events.yaml`` is not ``public``: its
  sentence, the player's note on it, and the lines of the order it comes from;
- the ships and designs of every group no enemy has seen into (§15.3) and of
  every keel on the slips (§13.2), from the state files; a word that also names
  a ship or design that has been seen tells a reader nothing, so it is no secret;
- which counters are dummies (§15.2), from ``groups.yaml``.

The tests scan the built public site for each: pages, feeds, maps, published
order files and the decompressed search index. In a sealed campaign the plain
files hold only what the public knows: given the umpire's key, each fact is read
from the sealed twins (:mod:`ftpress.secrecy.twins`).
"""

from __future__ import annotations

import gzip
import html
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path

import yaml

from ftpress.secrecy.twins import UmpireKey, read
from ftpress.state.model import Ship, State
from ftpress.state.turns import TURNS_DIR


@dataclass(frozen=True, slots=True)
class Secret:
    """One hidden fact: words that must not stand in what the public reads."""

    #: Where the fact comes from, for the message of a failing test.
    source: str
    words: str
    #: Only in this turn's published order files (an order's line), or anywhere.
    orders_of: str | None = None


def ship_words(state: State, ship: Ship, ids: bool = False) -> set[str]:
    """The ship's name and its design's name (and the design's id, with ``ids``)."""
    return {ship.name, state.design(ship.design).name} | ({ship.design} if ids else set())


def seen_words(state: State, known: Collection[str] = (), ids: bool = False) -> set[str]:
    """The words of every ship of a group an enemy has seen into (or named in ``known``)."""
    return {w for g in state.groups.groups if g.revealed or g.id in known
            for ship in g.ships for w in ship_words(state, ship, ids)}


def hidden_words(state: State, known: Collection[str] = (),
                 ids: bool = False) -> dict[str, set[str]]:
    """Each group no enemy has seen into, and the words of its ships that are secret."""
    seen = seen_words(state, known, ids)
    return {g.id: {w for ship in g.ships for w in ship_words(state, ship, ids)} - seen
            for g in state.groups.groups if not (g.revealed or g.id in known)}


def secrets_of(state: State, known: Collection[str] = ()) -> set[str]:
    """Every secret word of the state: the names, design names and design ids of the
    ships of hidden groups and of keels, less the words that name something seen."""
    keels = {w for k in state.queues.keels
             for w in (k.name, k.design, state.design(k.design).name)}
    hidden = set().union(*hidden_words(state, known, ids=True).values())
    return hidden | (keels - seen_words(state, known, ids=True))


def leaks(text: str, secrets: Collection[str]) -> list[str]:
    """The secrets that stand in ``text`` as whole words, sorted."""
    return sorted(s for s in secrets if re.search(rf"(?<!\w){re.escape(s)}(?!\w)", text))


# --- the events the rules told to some players or to the umpire alone ------------------

def whole(root: Path, rel: str, umpire: UmpireKey | None) -> str:
    """The text of ``rel`` as the umpire knows it (its twin, with ``umpire``)."""
    return read(root, rel, umpire)[0].decode("utf-8")


def recorded_events(root: Path, umpire: UmpireKey | None = None
                    ) -> Iterator[tuple[str, dict]]:
    """(turn, event) for every event recorded under ``state/turns/``, as written."""
    for folder in sorted((root / TURNS_DIR).iterdir()):
        log = folder / "events.yaml"
        if log.is_file():
            text = whole(root, f"{TURNS_DIR}/{folder.name}/events.yaml", umpire)
            for event in yaml.safe_load(text)["events"]:
                yield folder.name, event


def event_secrets(root: Path, umpire: UmpireKey | None = None) -> list[Secret]:
    """What every event not told to the public gives away: its sentence, the note on
    it, and each line of the order it comes from (key and value, comment dropped)."""
    events = list(recorded_events(root, umpire))
    public = {e["text"] for _, e in events if e["audience"] == "public"}
    found: list[Secret] = []
    for turn, event in events:
        if event["audience"] == "public":
            continue
        source = f"{turn} {event['kind']} event told to {event['audience']}: {event['text']!r}"
        if event["text"] not in public:  # a sentence some public event also says is no secret
            found.append(Secret(source, event["text"]))
        if event.get("note"):
            found.append(Secret(source, event["note"]))
        order = event.get("order")
        if order and order.count(":") == 2:
            path, line, _col = order.split(":")
            copy = f"{TURNS_DIR}/{turn}/orders/{Path(path).name}"
            found += [Secret(source, words, turn)
                      for words in order_lines(whole(root, copy, umpire), int(line))]
    return found


def order_lines(text: str, number: int) -> list[str]:
    """The lines of the order at line ``number`` of ``file`` that say something (not a
    bare key such as ``nac-2:``), stripped of indentation and comments; of a line
    listing several things, also its start up to the first comma, which gives the
    order away even when a copy blanks the rest (``- {design: esu-gorshkov``)."""
    lines = text.split("\n")
    depth = len(lines[number - 1]) - len(lines[number - 1].lstrip())
    block = [lines[number - 1]]
    for line in lines[number:]:
        if line.strip() and len(line) - len(line.lstrip()) <= depth:
            break
        block.append(line)
    said = [re.sub(r"\s+#.*$", "", line).strip() for line in block]
    said = [s for s in said if s and not s.endswith(":") and not s.startswith("#")]
    return said + [s.split(",")[0] for s in said if "," in s]


def dummies(root: Path, umpire: UmpireKey | None = None) -> set[str]:
    """Every counter that has been a dummy in a recorded turn (§15.2)."""
    return {g["id"] for folder in (root / TURNS_DIR).iterdir()
            if (folder / "groups.yaml").is_file()
            for g in yaml.safe_load(whole(root, f"{TURNS_DIR}/{folder.name}/groups.yaml",
                                          umpire))["groups"]
            if g.get("dummy")}


# --- what the public reads -------------------------------------------------------------

#: The files of a built site a reader can open: pages, feeds, maps, schemas, the
#: published order files, and the search index (decompressed).
READABLE = (".html", ".xml", ".txt", ".json", ".svg", ".yaml", ".pf_fragment", ".pf_meta")


def readable(site: Path) -> dict[str, str]:
    """Every readable file of a built site by its path, HTML entities decoded."""
    texts = {}
    for file in sorted(site.rglob("*")):
        if file.is_file() and file.suffix in READABLE:
            data = file.read_bytes()
            if file.suffix in (".pf_fragment", ".pf_meta"):
                data = gzip.decompress(data)
            texts[str(file.relative_to(site))] = html.unescape(
                data.decode("utf-8", errors="replace"))
    return texts


def found(secrets: Collection[Secret], texts: dict[str, str]) -> list[str]:
    """Each secret that stands in the files where it must not, with where."""
    problems = []
    for secret in secrets:
        where = {p: t for p, t in texts.items()
                 if secret.orders_of is None or p.startswith(f"turns/{secret.orders_of}/orders/")}
        problems += [f"{path}: {secret.words!r} ({secret.source})"
                     for path, text in where.items() if stands_in(secret.words, text)]
    return problems


def stands_in(words: str, text: str) -> bool:
    """Do ``words`` stand in ``text`` as words (a ship called Lis is not in "List")?"""
    return re.search(rf"(?<!\w){re.escape(words)}(?!\w)", text) is not None
