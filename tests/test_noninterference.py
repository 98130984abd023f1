"""Noninterference: nothing public depends on a hidden fact.

For each ruleset, Hypothesis draws two turns of one sealed campaign that differ only
in what the public may not know, plays both through every step a rival watches
(tests/noninterference.py: sealing and the pull-request check, the publishing run's
turn, battles, remind and build jobs, ``check``, a keyless ``turn --verify``) and
asserts that everything public is byte-identical: each file a clone holds (sizes
only for sealed files), every file name, commit messages, the site, the build
cache, logs, job summaries, issue and comment texts.

What the rules make public stays equal in a pair, and each draw says by which rule:
where a counter stands (ftc2007 §15.1, ftcamp02 §3, sct's task forces are open),
how many counters there are, what a player's money is at the points the rulebook
names (ftc2007 §5.4: the treasury as each economic turn begins), and whether a
player sent orders (the reminder says so).

Hidden rolls differ by the hidden secret: the stream of the turn's hidden rolls is
keyed differently in the second campaign (a stand-in for another umpire's master
secret whose public commitments are the same).
"""

from __future__ import annotations

import contextlib
import fnmatch
import io
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from demos import FTC2007 as DEMO
from hypothesis import given, settings
from hypothesis import strategies as st
from noninterference import (
    LINK,
    SETTINGS,
    Cli,
    IdealCipher,
    Keys,
    Surface,
    Turn,
    assert_same,
    differing,
    other_hidden_secret,
    play,
    template,
)

from ftpress import rules
from ftpress.orders.load import orders_path, parse_orders
from ftpress.state.battle_results import parse_battle
from ftpress.state.dice import Dice, KeyedStream
from ftpress.state.events import EventsFile
from ftpress.state.files import KINDS
from ftpress.state.model import DiceFile
from ftpress.state.records import read_recorded_orders
from ftpress.state.save import dump
from ftpress.state.turns import TURNS_DIR
from ftpress.store import open_with
from ftpress.store.campaign import load_folder
from ftpress.store.campaign_store import MadeTurn
from ftpress.store.projection import PublicTurn, project
from ftpress.store.record import read_record
from ftpress.turn.resolve import fold

from conftest import REPO

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

@dataclass(frozen=True)
class Hidden:
    """One campaign's hidden choices, drawn by a ruleset's strategy."""

    orders: dict[str, str | None]
    other_secret: bool

    def turn(self) -> Turn:
        return Turn(self.orders, other_hidden_secret if self.other_secret else
                    contextlib.nullcontext)


@pytest.fixture(scope="module")
def keys() -> Keys:
    return Keys.new()


@pytest.fixture(scope="module")
def templates(tmp_path_factory, keys) -> Callable[[str], Path]:
    """Each ruleset's template campaign, made once for the module."""
    made: dict[str, Path] = {}

    def get(ruleset: str) -> Path:
        if ruleset not in made:
            made[ruleset] = template(tmp_path_factory.mktemp(f"template-{ruleset}"),
                                     ruleset, keys)
        return made[ruleset]

    return get


def pair(tmp_path_factory, root: Path, a: Hidden, b: Hidden) -> tuple[Surface, Surface]:
    where = tmp_path_factory.mktemp("pair")
    return (play(root, where, a.turn()), play(root, where, b.turn()))


# --- ftc2007: a set-up turn (§6) -------------------------------------------------------

#: Counters stand at these worlds of each player's, whatever is hidden (§15.1: the
#: counters, and where they stand, are what an enemy sees).
NAC_CAPITAL, NAC_OTHER = "tamarisk", "osprey"
ESU_CAPITAL = "heron"
#: ESU designs at three list prices (163, 204, 245): which was bought is the owner's
#: (§13.2), and so is what it cost: the public is told a power's treasury as each
#: economic turn begins (§5.4), the starting capital here, before the set-up spends.
ESU_DESIGNS = ("esu-tibet", "esu-beijing-b", "esu-voroshilev")
#: Notes and comments a player writes: never public.
NOTES = ("", "# plan: next week we strike Heron with nac-3\n",
         "# a word for the umpire: the Victoria is the bait\n")


#: The ids a player gives their groups: their own labels, never public (the public
#: knows a counter by where it stands and what it has shown, §15.1).
NAC_IDS = (("nac-1", "nac-2", "nac-3", "nac-4"), ("nac-4", "nac-3", "nac-2", "nac-1"))
ESU_IDS = ("esu-1", "esu-2")


def ftc2007_nac(dummy: int, split: int, note: str,
                ids: tuple[str, ...] = NAC_IDS[0]) -> str:
    """nac's set-up: a battleship (one dummy allowed, §15.2) and three destroyers in two
    counters at the capital, a destroyer in one of two counters at another world, the
    other the dummy. Which counter is the dummy, which ships are in which counter at
    the capital and the ids nac gives them are hidden; the counters and their places
    are not (§15.1)."""
    ships = ["{design: nac-victoria, name: Victoria}",
             "{design: nac-ticonderoga, name: Halberd}",
             "{design: nac-ticonderoga, name: Pike}"]
    first, second = ships[:split], ships[split:]
    real, dummy_id = (ids[2], ids[3]) if dummy == 0 else (ids[3], ids[2])
    lines = "\n".join
    return f"""\
turn: t001
player: nac
{note}setup:
  groups:
    {ids[0]}:
      at: {NAC_CAPITAL}
      ships:
{lines(f"        - {s}" for s in first)}
    {ids[1]}:
      at: {NAC_CAPITAL}
      ships:
{lines(f"        - {s}" for s in second)}
    {real}:
      at: {NAC_OTHER}
      ships:
        - {{design: nac-ticonderoga, name: Lance}}  {note.strip()}
    {dummy_id}: {{at: {NAC_OTHER}, dummy: true}}
economy: {{maintenance: full}}
"""


def ftc2007_esu(design: str, note: str, group: str = ESU_IDS[0]) -> str:
    return f"""\
turn: t001
player: esu
setup:
  groups:
    {group}:
      at: {ESU_CAPITAL}
      ships:
        - {{design: {design}, name: Kirov}}
{note}economy: {{maintenance: full}}
"""


@st.composite
def ftc2007_pair(draw: st.DrawFn) -> tuple[Hidden, Hidden]:
    """Which counter at a world is the dummy (§15.2), which ships are in which counter
    (§15.1: the counters are seen, not what they hold), which design was bought and at
    what price (§13.2, §5.4), the ids the players give their groups, the players' notes,
    the hidden secret. Public in both: the counters and where they stand (§15.1), each
    power's treasury as the economic turn began (§5.4: the starting capital)."""
    dummy, split = draw(differing((0, 1))), draw(differing((1, 2)))
    design, note = draw(differing(ESU_DESIGNS)), draw(differing(NOTES))
    ids, group = draw(differing(NAC_IDS)), draw(differing(ESU_IDS))
    secret = draw(differing((False, True)))
    return tuple(Hidden({"nac": ftc2007_nac(dummy[i], split[i], note[i], ids[i]),  # type: ignore[arg-type]
                         "esu": ftc2007_esu(design[i], note[i], group[i])},  # type: ignore[arg-type]
                        secret[i])  # type: ignore[arg-type]
                 for i in (0, 1))  # type: ignore[return-value]


@settings(SETTINGS, max_examples=2)
@given(hidden=ftc2007_pair())
def test_ftc2007_set_up_tells_the_public_nothing_hidden(tmp_path_factory, templates, hidden):
    assert_same(*pair(tmp_path_factory, templates("ftc2007"), *hidden), "ftc2007 set-up")


# --- sct: an ordinary first turn ---------------------------------------------------------

def sct_orders(player: str, force: str, note: str) -> str:
    """Every task force holds (sct's forces and where they are are open: its rulebook
    reveals them); the note is the player's own."""
    return f"turn: t001\nplayer: {player}\n{note}forces:\n  {force}: {{}}  {note.strip()}\n"


@st.composite
def sct_pair(draw: st.DrawFn) -> tuple[Hidden, Hidden]:
    """The players' notes and comments, the hidden secret."""
    note, secret = draw(differing(NOTES)), draw(differing((False, True)))
    return tuple(Hidden({"nac": sct_orders("nac", "nac-tf1", note[i]),  # type: ignore[arg-type]
                         "esu": sct_orders("esu", "esu-tf1", note[i])}, secret[i])  # type: ignore[arg-type]
                 for i in (0, 1))  # type: ignore[return-value]


@SETTINGS
@given(hidden=sct_pair())
def test_sct_turn_tells_the_public_nothing_hidden(tmp_path_factory, templates, hidden):
    assert_same(*pair(tmp_path_factory, templates("sct"), *hidden), "sct t001")


# --- ftcamp02: an ordinary first turn ----------------------------------------------------

#: §4.2: a holding group's sub-order is told to its owner alone; that it holds is public.
HOLD_SUBS = ("nothing", "maintain", "reorganise")


def ftcamp02_orders(player: str, sub: str, note: str) -> str:
    return (f"turn: t001\nplayer: {player}\n{note}groups:\n"
            f"  {player}-1:\n    hold: {sub}  {note.strip()}\n"
            f"  {player}-2:\n    hold: nothing\n")


@st.composite
def ftcamp02_pair(draw: st.DrawFn) -> tuple[Hidden, Hidden]:
    """The hold sub-orders (§4.2), the players' notes, the hidden secret; public in
    both: every group holds."""
    sub, note = draw(differing(HOLD_SUBS)), draw(differing(NOTES))
    secret = draw(differing((False, True)))
    return tuple(Hidden({p: ftcamp02_orders(p, sub[i], note[i])  # type: ignore[arg-type]
                         for p in ("nac", "esu")}, secret[i])  # type: ignore[index]
                 for i in (0, 1))  # type: ignore[return-value]


@SETTINGS
@given(hidden=ftcamp02_pair())
def test_ftcamp02_turn_tells_the_public_nothing_hidden(tmp_path_factory, templates, hidden):
    assert_same(*pair(tmp_path_factory, templates("ftcamp02"), *hidden), "ftcamp02 t001")


def test_two_campaigns_playing_the_same_turn_look_the_same(tmp_path_factory, templates):
    """The harness itself: the same hidden choices twice give equal surfaces (so a
    difference the tests above find comes from a hidden fact, not from the harness)."""
    same = Hidden({p: ftcamp02_orders(p, "nothing", "") for p in ("nac", "esu")}, False)
    assert_same(*pair(tmp_path_factory, templates("ftcamp02"), same, same), "the same turn")


# --- the demo as a starting point: a purchase, a jump-out --------------------------------
#
# A turn of the demo resolved again from the state its record started from, with every
# player's recorded orders and the umpire's tabletop results, but for one hidden fact:
# the turn's public projection (the one value every plain file, page, log and message
# of a sealed turn is made from, store/projection.py) compared whole. Both draw the same
# dice (public rolls are keyed on the sealed files, which the pairs above show stay
# equal in size); what differs is only the hidden fact.

#: What nac buys at its capital in the demo's t007, the first week of economic turn 2
#: (its record: an FSE Milan at the allies' price). Which design, and what it cost, are
#: nac's and the umpire's (§13.2); the public is told nac's treasury as the economic
#: turn began, before any purchase (§5.4), and sees a counter of nac's where the ship is
#: delivered (§15.1).
DEMO_PURCHASES = ("fse-milan", "nac-ticonderoga", "nac-victoria")
#: Where Sa'Vasku's fleet jumped out to from the battle at Lumen in the demo's t002 (its
#: record: Hollow Crown, the capital). Where it went is told to its owner alone (§18.4);
#: that it jumped out of the battle is public (the battle report says so). Both are in
#: reach (§18.4: the next move, one hex here).
DEMO_JUMPS = ("hollow-crown", "[2, -1]")


def demo_turn(turn: str, orders_edit: tuple[str, bytes, bytes] | None = None,
              battle_edit: tuple[str, bytes, bytes] | None = None) -> PublicTurn:
    """The demo's ``turn`` resolved again, one player's orders or one battle result
    edited (``(name, old, new)``), and its public projection."""
    umpire = DEMO.umpire
    folder = f"{TURNS_DIR}/{turn}"
    start = load_folder(REPO, f"{TURNS_DIR}/t{int(turn[1:]) - 1:03d}", umpire=umpire).state
    record = read_record(REPO, folder, umpire)
    raw = dict(read_recorded_orders(REPO, folder, umpire))
    battles = open_with(REPO, umpire).battles(turn, f"{folder}/battles")
    if orders_edit is not None:
        player, old, new = orders_edit
        assert old in raw[player]
        raw[player] = raw[player].replace(old, new)
    if battle_edit is not None:
        name, old, new = battle_edit
        assert old in battles[name].raw
        battles[name] = parse_battle(battles[name].raw.replace(old, new), battles[name].path)
    ruleset = rules.find_ruleset(start.campaign.ruleset)
    orders = {p: parse_orders(text, orders_path(turn, p), ruleset.orders_adapter)
              for p, text in raw.items()}
    key = b"the same dice for both"
    dice = Dice(KeyedStream(key), KeyedStream(b"and the same hidden ones"))
    state, events = fold(ruleset, start, orders, dice, battles)
    return project(MadeTurn(turn, None, start, state, events, DiceFile("a pair", dice.log),
                            key, record, raw, {}, battles))


def public_text(public: PublicTurn) -> dict[str, bytes]:
    """Every plain file the store writes of a turn's public projection, by name."""
    files = {f"state/{kind.file}": dump(getattr(public.state, kind.name)).encode()
             for kind in KINDS.values()}
    files["events.yaml"] = dump(EventsFile(public.turn, public.events)).encode()
    files["dice.yaml"] = dump(public.dice).encode()
    files["turn.yaml"] = dump(public.record).encode()
    files |= {f"orders/{p}.yaml": text for p, text in public.orders.items()}
    return files


def assert_projections_same(a: PublicTurn, b: PublicTurn, what: str) -> None:
    left, right = public_text(a), public_text(b)
    differ = {name: next((f"{x!r} / {y!r}" for x, y in zip(
        left[name].splitlines(), right.get(name, b"").splitlines(), strict=False) if x != y),
        "") for name in sorted(set(left) | set(right)) if left.get(name) != right.get(name)}
    assert not differ, f"{what}: the public can tell the two apart: {differ}"


@settings(SETTINGS, max_examples=1)
@given(design=differing(DEMO_PURCHASES))
def test_a_mid_game_purchase_in_the_demo_tells_the_public_nothing(design):
    made = [demo_turn("t007", ("nac", b"design: fse-milan,", f"design: {d},".encode()))
            for d in design]  # type: ignore[attr-defined]
    assert_projections_same(*made, f"nac buying {design[0]} or {design[1]}")


@settings(SETTINGS, max_examples=1)
@given(to=differing(DEMO_JUMPS))
def test_where_a_fleet_jumped_out_to_in_the_demo_tells_the_public_nothing(to):
    made = [demo_turn("t002", battle_edit=("lumen", b"to: hollow-crown", f"to: {t}".encode()))
            for t in to]  # type: ignore[attr-defined]
    assert_projections_same(*made, f"Sa'Vasku jumping out to {to[0]} or {to[1]}")


# --- the demo paused for its battle at Lumen (t002) ---------------------------------------
#
# The demo rewound to the start of t002 (its t001 record as the state, every player's
# t002 orders sealed again as sent), one hidden fact changed in the sealed state, and the
# turn run as the publishing run runs it: it pauses for the battle at Lumen, fought on
# the tabletop. The forces there (every ship, real ids) go to the umpires' sealed
# template alone; the commit, the files, the logs, the job summary and the text
# are compared whole.

#: Sa'Vasku's fleet at Hollow Crown, which jumps to Lumen and meets the FSE there: which
#: ships it holds is Sa'Vasku's and the umpire's (§15.1: the counter is seen, not what it
#: holds); how many is what contact tells those in it (§15.3), so the count stays equal.
DEMO_FLEETS = ((b"", b""),
               (b"{name: Keen, design: sav-lancer}", b"{name: Quill, design: sav-lancer}"),
               (b"{name: Keen, design: sav-lancer}", b"{name: Keen, design: sav-weaver}"))
PAUSE_NOW = "2026-06-01T00:00:00+00:00"


def rewound_demo(root: Path, fleet: tuple[bytes, bytes]) -> None:
    """The demo as t002 opened, in ``root``, with ``fleet``'s edit of its sealed groups
    (``(old, new)``); run under :class:`~noninterference.IdealCipher`."""
    from ftpress.cli import main
    from ftpress.secrecy import agekeys

    DEMO.sealed_copy(root)
    state = root / "state"
    recorded = dict(read_recorded_orders(root, f"{TURNS_DIR}/t002", DEMO.umpire))
    for file in state.glob("*.yaml*"):
        file.unlink()
    for file in (state / TURNS_DIR.removeprefix("state/") / "t001").glob("*.yaml*"):
        if file.name.split(".")[0] in {kind.file.removesuffix(".yaml") for kind in KINDS.values()}:
            shutil.copy2(file, state / file.name)
    for folder in (root / TURNS_DIR).iterdir():
        if folder.is_dir() and folder.name > "t001":
            shutil.rmtree(folder)
    shutil.rmtree(root / "battles")
    groups = state / "groups.yaml.age"
    umpire = DEMO.umpire
    assert umpire is not None
    whole = agekeys.decrypt(groups.read_bytes(), umpire.identities)
    assert fleet[0] in whole
    recipients = load_folder(REPO, f"{TURNS_DIR}/t001", umpire=umpire).state.campaign.umpire_recipients
    groups.write_bytes(agekeys.encrypt(whole.replace(*fleet), agekeys.recipients(
        tuple(recipients or ()))))
    (root / "orders" / "t002").mkdir(parents=True)
    for player, raw in sorted(recorded.items()):
        plain = root / "orders" / "t002" / f"{player}.yaml"
        plain.write_bytes(raw)
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["seal", str(plain), "--source", str(root)]) == 0
        plain.unlink()


def paused_demo(where: Path, fleet: tuple[bytes, bytes]) -> tuple[Surface, bytes]:
    """What the public reads of the demo's t002 paused for its battle (``fleet``: see
    :func:`rewound_demo`), and the umpire's template of the battle."""
    shutil.rmtree(where, ignore_errors=True)
    root = where / "camp"
    surface = Surface()
    cli = Cli(root, surface)
    work = where / "runner"
    with IdealCipher().standing_in():
        rewound_demo(root, fleet)
        work.mkdir()
        message, battles = work / "commit-message", work / "battles.md"
        cli("turn", "turn", "--commit-message", message, "--battles-report", battles,
            "--link", LINK, "--now", PAUSE_NOW, "--early")
        surface.add("commits", "turn", message.read_text())
        surface.add("summaries", "turn job", battles.read_text())
        surface.add("issues", "battles paused",
                    cli("battles report", "battles", "report", "t002", "--link", LINK)[1])
        cli("check", "check", ok=False)
    ignored = [line.lstrip("/") for line in (root / ".gitignore").read_text().splitlines()]
    for file in sorted(p for p in root.rglob("*") if p.is_file()):
        name = file.relative_to(root).as_posix()
        if any(fnmatch.fnmatch(name, pattern) for pattern in ignored) or \
                name.startswith(("demo-keys/", ".ftpress")):
            continue
        if name.endswith(".age"):
            surface.add("sealed sizes", name, str(file.stat().st_size))
        else:
            surface.add("files", name, file.read_bytes())
    return surface, (root / "battles" / "t002" / "lumen.yaml").read_bytes()


@settings(SETTINGS, max_examples=1)
@given(fleet=differing(DEMO_FLEETS))
def test_a_turn_paused_for_the_tabletop_tells_the_public_nothing_of_the_ships_there(
        tmp_path_factory, fleet):
    where = tmp_path_factory.mktemp("paused")
    (a, template_a), (b, template_b) = (paused_demo(where, f) for f in fleet)  # type: ignore[attr-defined]
    assert "battles/t002/lumen.yaml.age" in a.channels["sealed sizes"]
    assert template_a != template_b, "the umpire's template should hold the ships there"
    assert_same(a, b, "the demo's t002 paused for the battle at Lumen")
