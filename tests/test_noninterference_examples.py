"""Noninterference from the campaigns of this repository: the demo, ftcamp02, sct.

tests/test_noninterference.py plays pairs of campaigns made by ``ftpress init``; here
each pair starts from a campaign well into its play, copied as it is (its sealed files,
records, posts, battles), and its open turn played through the whole pipeline of
tests/noninterference.py: the umpire's own edits where a pair needs them (``keys
edit-state`` and ``keys seal-state`` on the umpire's machine), each player's orders
sealed and checked by ``check-pr``, the publishing run's turn, battles, remind and build
jobs, ``check`` and a keyless ``turn --verify``. Everything public must be
byte-identical.

Each pair keeps equal what the rules make public, and says which rule.
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from demos import FTC2007 as DEMO
from demos import FTCAMP02, SCT, Demo
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from noninterference import (
    Cli,
    Clock,
    Surface,
    Turn,
    adopt,
    differences,
    first_difference,
    play,
)

import ftpress.store.secret as turn_secret

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

#: One pair per test (each plays two whole campaigns; every hidden choice differs in
#: every pair drawn, so one pair covers them all); no shrinking.
SETTINGS = settings(max_examples=1, deadline=None, derandomize=True, database=None,
                    phases=[Phase.explicit, Phase.generate],
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


def differing(values: tuple[object, ...]) -> st.SearchStrategy[tuple[object, object]]:
    """Two different values of ``values``: every hidden choice differs in a pair."""
    return st.permutations(values).map(lambda p: (p[0], p[1]))


@contextlib.contextmanager
def other_hidden_secret() -> Iterator[None]:
    """The turn's hidden rolls keyed by another hidden secret (its public commitment, the
    hash published as the turn opened, equal: a stand-in for another umpire's master
    secret that no one without it can tell from this one)."""
    keyed = turn_secret.hidden_key

    def hidden_key(campaign_id: str, turn: str, digest: str, hidden: str) -> bytes:
        return keyed(campaign_id, turn, digest, "another umpire's " + hidden)

    turn_secret.hidden_key = hidden_key
    try:
        yield
    finally:
        turn_secret.hidden_key = keyed


def hidden_secret(other: bool) -> Callable[[], contextlib.AbstractContextManager[None]]:
    return other_hidden_secret if other else contextlib.nullcontext


def assert_same(a: Surface, b: Surface, what: str) -> None:
    found = differences(a, b)
    assert not found, f"{what}: the public can tell the two apart:\n" + "\n".join(
        f"  {channel}: {len(names)} differ ({', '.join(names[:6])}), e.g. {names[0]}: "
        f"{first_difference(a, b, channel, names[0])}"
        for channel, names in found.items())


@dataclass(frozen=True)
class Example:
    """A campaign of this repository as a pair's starting point: its open turn, when
    that turn is played (:class:`Clock`), and its players' keys."""

    demo: Demo
    turn: str
    clock: Clock

    def keys(self) -> Mapping[str, Path]:
        folder = self.demo.root / "demo-keys"
        return {p: folder / f"{p}.key" for p in self.clock.players}

    def template(self, where: Path) -> Path:
        root = where / "camp"
        where.mkdir(parents=True, exist_ok=True)
        self.demo.sealed_copy(root)
        return adopt(root, self.clock, self.keys())

    def pair(self, template: Path, where: Path, a: Turn, b: Turn) -> tuple[Surface, Surface]:
        return (play(template, where, a, self.turn, self.clock),
                play(template, where, b, self.turn, self.clock))


def accounts(*players: str) -> dict[str, int]:
    """Each player's numeric GitHub id, as ``roster add`` records it."""
    return {p: 3001 + i for i, p in enumerate(players)}


#: The demo's open turn, t010 (deadline 17 May 2026, 20:00 UTC): the pull requests
#: checked and merged on the 12th, the reminder the day before, the turn due after.
DEMO_T010 = Example(DEMO, "t010", Clock(
    "2026-05-12T10:00:00+00:00", "2026-05-16T20:30:00+00:00", "2026-05-17T21:00:00+00:00",
    accounts("nac", "nsl", "fse", "esu", "sav")))


@pytest.fixture(scope="module")
def templates(tmp_path_factory) -> Callable[[Example], Path]:
    """Each example's template (copied, its players' accounts recorded, committed)."""
    made: dict[str, Path] = {}

    def get(example: Example) -> Path:
        if str(example.demo.root) not in made:
            made[str(example.demo.root)] = example.template(
                tmp_path_factory.mktemp(f"template-{example.demo.root.name}"))
        return made[str(example.demo.root)]

    return get


# --- the demo (ftc2007, sealed), its open turn t010 --------------------------------------

#: Notes and comments a player writes: never public, whatever the rules.
NOTES = ("", "# plan: next week we strike Coldharbour with nac-3\n",
         "# for the umpire: the Sovereign Light is the bait\n")
#: The ships nac's new counter at Arcturus Gate takes from nac-2 (§15.1: a counter is
#: seen, not what it holds; how many ships it holds is nac's).
DEMO_SPLITS = (("Falchion",), ("Falchion", "Rapier"), ("Intrepid", "Resolute", "Rapier"))
#: The id nac gives its new group: nac's own label (the public names a counter by where
#: it stands and what it has shown).
DEMO_IDS = ("nac-7", "nac-12")
#: The keel nac lays at Arcturus Gate: its design is told to its builder and the umpire
#: (§13, "how ftpress applies this"); every keel costs the same 100 points a week (§13),
#: and the public is told a power's treasury only as an economic turn begins (§5.4).
DEMO_KEELS = ("nac-ticonderoga", "nac-victoria", "nac-huron")


def demo_nac(note: str, split: tuple[str, ...], new_id: str, keel: str) -> str:
    """nac's orders for t010: nac-2 holds at the capital and splits ships into a new
    group; a keel is laid there; the rest hold (a file leaves them out)."""
    return f"""\
turn: t010
player: nac
{note}groups:
  nac-2:
    hold: true
    posture: stand-off
    split:
      {new_id}: [{", ".join(split)}]{"  " + note.strip() if note else ""}
economy:
  keels:
    - {{design: {keel}, at: arcturus-gate, name: Adamant}}
"""


@st.composite
def demo_pair(draw: st.DrawFn) -> tuple[Turn, Turn]:
    """Which ships are in nac's new hidden group and what nac calls it (§15.1), the
    design of a keel laid in secret at the same public cost (§13, §5.4), nac's notes,
    the hidden secret. Public in both: that nac-2's counter stays and a new counter of
    nac's appears at Arcturus Gate (§15.1), the treasury stated as economic turn 2
    began (§5.4)."""
    note, split = draw(differing(NOTES)), draw(differing(DEMO_SPLITS))
    new_id, keel = draw(differing(DEMO_IDS)), draw(differing(DEMO_KEELS))
    secret = draw(differing((False, True)))
    return tuple(Turn({"nac": demo_nac(note[i], split[i], new_id[i], keel[i])},  # type: ignore[arg-type]
                      hidden_secret(secret[i]))  # type: ignore[arg-type]
                 for i in (0, 1))  # type: ignore[return-value]


@SETTINGS
@given(turns=demo_pair())
def test_the_demos_open_turn_tells_the_public_nothing_hidden(tmp_path_factory, templates,
                                                             turns):
    where = tmp_path_factory.mktemp("pair")
    assert_same(*DEMO_T010.pair(templates(DEMO_T010), where, *turns), "demo t010")
