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
import dataclasses
import io
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from demos import FTC2007 as DEMO
from demos import FTCAMP02, SCT, Demo
from hypothesis import given
from hypothesis import strategies as st
from noninterference import (
    SETTINGS,
    Cli,
    Clock,
    Surface,
    Turn,
    adopt,
    assert_same,
    differing,
    git,
    hidden_secret,
    play,
)
from pyrage import x25519

from ftpress.cli import main
from ftpress.secrecy import agekeys
from ftpress.secrecy.intelligence import known_to, text_of
from ftpress.state.events import Event
from ftpress.state.model import State
from ftpress.state.records import read_events
from ftpress.state.turns import TURNS_DIR
from ftpress.store.campaign import load_folder
from ftpress.yourview.files import report_bytes

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

@dataclass(frozen=True)
class Example:
    """A campaign of this repository as a pair's starting point: its open turn, when
    that turn is played (:class:`Clock`), and its players' keys."""

    demo: Demo
    turn: str
    clock: Clock
    #: When the campaign's own open turn is resolved first, nobody sending orders (None:
    #: the pair plays the open turn itself). A turn opened before the campaign had a
    #: master secret has no hidden secret; the next one has.
    first: str | None = None

    def keys(self, where: Path) -> Mapping[str, Path]:
        """Each player's key: the example's, or (an open example) one made for the test."""
        folder = self.demo.root / "demo-keys"
        if self.demo.key_file is None:
            folder = where / "keys"
            folder.mkdir(exist_ok=True)
            for player in self.clock.players:
                (folder / f"{player}.key").write_text(f"{x25519.Identity.generate()}\n")
        return {p: folder / f"{p}.key" for p in self.clock.players}

    def template(self, where: Path) -> Path:
        root = where / "camp"
        where.mkdir(parents=True, exist_ok=True)
        self.demo.sealed_copy(root)
        keys = self.keys(where)
        if self.demo.key_file is None:
            sealed(root, keys)
        adopt(root, self.clock, keys)
        if self.first is not None:
            with contextlib.redirect_stdout(io.StringIO()):
                assert main(["turn", "--now", self.first, "--source", str(root)]) == 0
            git(root, "add", "--all", "state")
            git(root, "commit", "-q", "-m", "The open turn, resolved")
        return root

    def pair(self, template: Path, where: Path, a: Turn, b: Turn) -> tuple[Surface, Surface]:
        return (play(template, where, a, self.turn, self.clock),
                play(template, where, b, self.turn, self.clock))


def sealed(root: Path, keys: Mapping[str, Path]) -> None:
    """An open campaign at ``root`` stored sealed, as its umpire would make it so: ``keys
    init`` (the umpire's key and master secret), each player's recipient recorded
    (``roster key``), ``keys seal-campaign``."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["keys", "init", "--source", str(root)]) == 0
        for player, key in keys.items():
            recipient = str(agekeys.read_identity(key)[0].to_public())
            assert main(["roster", "key", player, recipient, "--source", str(root)]) == 0
        assert main(["keys", "seal-campaign", "--source", str(root)]) == 0


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


#: nac's two counters at Arcturus Gate besides nac-2: one holds the scout Pathfinder,
#: the other is a dummy (§15.2); which is which is nac's and the umpire's.
NAC_3_REAL = """\
  - id: nac-3
    owner: nac
    at: arcturus-gate
    ships:
      - {name: Pathfinder, design: nac-harrison}
"""
NAC_5_DUMMY = """\
  - id: nac-5
    owner: nac
    at: arcturus-gate
    dummy: true
"""


#: Two of nac-2's destroyers, in the order the state lists them.
NAC_2_ORDER = ("      - {name: Falchion, design: nac-ticonderoga}\n"
               "      - {name: Rapier, design: nac-ticonderoga}\n")


def umpire_edits(swap_dummy: bool) -> Callable[[Cli], None]:
    """The umpire opens the whole state and seals it back (``keys edit-state``, ``keys
    seal-state``), having made nac-3 the dummy and nac-5 the Pathfinder's counter, or
    only listed two of nac-2's ships the other way round: both campaigns' sealed
    ``groups.yaml`` change (that the umpire edited the state is public; what, is not)."""

    def edit(cli: Cli) -> None:
        cli("edit-state", "keys", "edit-state", public=False)
        groups = cli.root / ".ftpress-state/groups.yaml"
        text = groups.read_text()
        assert NAC_3_REAL in text and NAC_5_DUMMY in text and NAC_2_ORDER in text
        if swap_dummy:
            text = (text.replace(NAC_3_REAL, "@3").replace(NAC_5_DUMMY, "@5")
                    .replace("@3", NAC_5_DUMMY.replace("nac-5", "nac-3"))
                    .replace("@5", NAC_3_REAL.replace("nac-3", "nac-5")))
        else:
            first, second = NAC_2_ORDER.splitlines(keepends=True)
            text = text.replace(NAC_2_ORDER, second + first)
        groups.write_text(text)
        cli("seal-state", "keys", "seal-state", public=False)

    return edit


@st.composite
def demo_pair(draw: st.DrawFn) -> tuple[Turn, Turn]:
    """Which of nac's counters at Arcturus Gate is the dummy (§15.2), which ships are in
    nac's new hidden group and what nac calls it (§15.1), the design of a keel laid in
    secret at the same public cost (§13, §5.4), nac's notes. Public in both: nac's
    counters and where they stand, the new one among them (§15.1), the treasury stated
    as economic turn 2 began (§5.4). Not varied: the hidden secret (t010 opened before
    the demo had a master secret, so it has none: see ftcamp02's pair)."""
    note, split = draw(differing(NOTES)), draw(differing(DEMO_SPLITS))
    new_id, keel = draw(differing(DEMO_IDS)), draw(differing(DEMO_KEELS))
    swap = draw(differing((False, True)))
    return tuple(Turn({"nac": demo_nac(note[i], split[i], new_id[i], keel[i])},  # type: ignore[arg-type]
                      edits=umpire_edits(swap[i]))  # type: ignore[arg-type]
                 for i in (0, 1))  # type: ignore[return-value]


@SETTINGS
@given(turns=demo_pair())
def test_the_demos_open_turn_tells_the_public_nothing_hidden(tmp_path_factory, templates,
                                                             turns):
    where = tmp_path_factory.mktemp("pair")
    assert_same(*DEMO_T010.pair(templates(DEMO_T010), where, *turns), "demo t010")


# --- examples/ftcamp02 (sealed): t005 resolved, then t006 -------------------------------

#: ftcamp02's open turn t005 (deadline 6 July 2026) is resolved in the template with no
#: orders, so that t006 (deadline 13 July) opens with a hidden secret; the pair plays t006.
FTCAMP02_T006 = Example(FTCAMP02, "t006", Clock(
    "2026-07-08T10:00:00+00:00", "2026-07-12T20:30:00+00:00", "2026-07-13T21:00:00+00:00",
    accounts("nac", "esu", "fsr")), first="2026-07-06T21:00:00+00:00")

#: §4.2: a holding group's sub-order is its owner's and the umpire's; that it holds is
#: public (its counter stays).
HOLD_SUBS = ("nothing", "maintain", "reorganise")


def ftcamp02_nac(sub: str, note: str) -> str:
    """nac's orders: nac-1 holds with a sub-order; nac-4 flies out of the dust at (2, 4)
    to Rook (§4.1.1: a lost roll, made in secret and told to nac alone; the counter
    moves whether the group is lost or on course)."""
    return f"""\
turn: t006
player: nac
{note}groups:
  nac-1:
    hold: {sub}{"  " + note.strip() if note else ""}
  nac-4:
    move: rook
"""


def ftcamp02_esu(sub: str, note: str) -> str:
    return f"turn: t006\nplayer: esu\n{note}groups:\n  esu-2:\n    hold: {sub}\n"


@st.composite
def ftcamp02_pair(draw: st.DrawFn) -> tuple[Turn, Turn]:
    """The hold sub-orders (§4.2), the players' notes and comments, the hidden secret
    (and so nac-4's lost roll, §4.1.1). Public in both: every group holds where it
    is (§4.2), and that nac and esu sent orders and fsr did not."""
    sub, note = draw(differing(HOLD_SUBS)), draw(differing(NOTES))
    secret = draw(differing((False, True)))
    return tuple(Turn({"nac": ftcamp02_nac(sub[i], note[i]),  # type: ignore[arg-type]
                       "esu": ftcamp02_esu(sub[1 - i], note[1 - i])},  # type: ignore[arg-type]
                      hidden_secret(secret[i]))  # type: ignore[arg-type]
                 for i in (0, 1))  # type: ignore[return-value]


@SETTINGS
@given(turns=ftcamp02_pair())
def test_ftcamp02s_next_turn_tells_the_public_nothing_hidden(tmp_path_factory, templates,
                                                             turns):
    where = tmp_path_factory.mktemp("pair")
    assert_same(*FTCAMP02_T006.pair(templates(FTCAMP02_T006), where, *turns), "ftcamp02 t006")


# --- examples/sct, stored sealed: its open turn t004 ------------------------------------

#: sct's open turn t004 (deadline 29 March 2026). The example is open (every file plain);
#: its umpire stores it sealed first (``keys init``, ``roster key``, ``keys
#: seal-campaign``), as an umpire who wants the players' words kept would.
SCT_T004 = Example(SCT, "t004", Clock(
    "2026-03-24T10:00:00+00:00", "2026-03-28T20:30:00+00:00", "2026-03-29T21:00:00+00:00",
    accounts("nac", "esu", "nsl")))


def sct_orders(player: str, force: str, note: str) -> str:
    """A task force holds. What it does is public (sct's rulebook, "the campaign in
    brief": nothing in its rules is hidden, a task force's moves and what it holds
    included), so both campaigns give the same orders; the note and comments are the
    player's, never public."""
    return (f"turn: t004\nplayer: {player}\n{note}forces:\n  {force}: {{}}"
            f"{'  ' + note.strip() if note else ''}\n")


@st.composite
def sct_pair(draw: st.DrawFn) -> tuple[Turn, Turn]:
    """The players' notes and comments. Public in both: every order (sct's rules hide
    nothing); that nac and esu sent orders and nsl did not. Not varied: the hidden
    secret (sct's rules make no roll in secret, and t004 opened before the campaign had
    a master secret)."""
    note = draw(differing(NOTES))
    return tuple(Turn({"nac": sct_orders("nac", "nac-tf1", note[i]),  # type: ignore[arg-type]
                       "esu": sct_orders("esu", "esu-tf1", note[1 - i])})  # type: ignore[arg-type]
                 for i in (0, 1))  # type: ignore[return-value]


@SETTINGS
@given(turns=sct_pair())
def test_scts_open_turn_sealed_tells_the_public_nothing_hidden(tmp_path_factory, templates,
                                                               turns):
    where = tmp_path_factory.mktemp("pair")
    assert_same(*SCT_T004.pair(templates(SCT_T004), where, *turns), "sct t004")


# --- a player's own view: what they are told of a rival -----------------------------------
#
# Each sealed turn seals every player their intelligence (their known state, the events
# told to them) and their report for the "Your view" page. What they were told about a
# rival names the rival's counters as they know them, never by the rival's real ids (its
# own labels, hidden from everyone else): two campaigns that differ only in a rival's
# hidden fact give the other player the same plaintext, byte for byte.

#: The id nac gave the group that jumped to Bellwether in the demo's t009 (public: that a
#: counter of nac's did, §15.1; nac's label for it is nac's).
RIVAL_IDS = ("nac-6", "nac-16", "nac-9")


def renamed(state: State, events: tuple[Event, ...], old: str, new: str
            ) -> tuple[State, tuple[Event, ...]]:
    """``state`` and ``events`` with the group ``old`` called ``new`` by its owner."""
    def name(group: str | None) -> str | None:
        return new if group == old else group

    groups = tuple(dataclasses.replace(g, id=new) if g.id == old else g
                   for g in state.groups.groups)
    return (dataclasses.replace(state, groups=dataclasses.replace(state.groups, groups=groups)),
            tuple(dataclasses.replace(e, group=name(e.group),
                                      groups=tuple(g for g in map(name, e.groups) if g))
                  for e in events))


def told(player: str, rival_id: str) -> tuple[bytes, bytes]:
    """``player``'s intelligence and report of the demo's t009, nac's group called
    ``rival_id``: the plaintext the turn seals to them."""
    umpire = DEMO.umpire
    start = load_folder(DEMO.root, f"{TURNS_DIR}/t008", umpire=umpire).state
    after = load_folder(DEMO.root, f"{TURNS_DIR}/t009", umpire=umpire).state
    events = read_events(DEMO.root, f"{TURNS_DIR}/t009", umpire)
    assert any(e.group == "nac-6" and e.audience.public for e in events)
    start, _ = renamed(start, (), "nac-6", rival_id)
    after, events = renamed(after, events, "nac-6", rival_id)
    return (text_of(known_to(after, events, "t009", player, start)).encode(),
            report_bytes(after, events, "t009", player))


@SETTINGS
@given(ids=differing(RIVAL_IDS), player=st.sampled_from(("sav", "fse", "esu")))
def test_what_a_player_is_told_of_a_rival_names_no_real_id(ids, player):
    """sav, fse (nac's ally: allies share no orders, §15.1 still holds) or esu, told of
    nac's group that jumped to Bellwether: the same words whatever nac calls it."""
    a, b = (told(player, i) for i in ids)  # type: ignore[attr-defined]
    assert a[0] == b[0], f"{player}'s intelligence names nac's group by its id"
    assert a[1] == b[1], f"{player}'s report names nac's group by its id"
    assert ids[0].encode() not in a[0] + a[1]  # type: ignore[index]


def test_a_player_keeps_their_own_ids():
    """nac's own intelligence names its groups by their ids, the gone ones too."""
    text = told("nac", "nac-6")[0].decode()
    assert "group: nac-6" in text
