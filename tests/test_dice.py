"""Dice: the same key gives the same rolls on any Python; every roll is logged;
dice rolled by hand can take the stream's place."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from pydantic import TypeAdapter

from ftpress.errors import InputError
from ftpress.state.dice import Dice, KeyedStream, Roll, SuppliedDice, key_from, stream_positions
from ftpress.state.model import DiceFile
from ftpress.state.save import dump


def test_same_key_same_rolls():
    a, b = Dice.seeded("campaign", "t001"), Dice.seeded("campaign", "t001")
    assert [a.d6("x", "r") for _ in range(50)] == [b.d6("x", "r") for _ in range(50)]
    assert Dice.seeded("campaign", "t002").log == ()


def test_golden_rolls_pin_the_stream():
    """The published algorithm, step by step, for anyone re-implementing it."""
    dice = Dice.seeded("ftpress", "golden")
    assert [dice.d6("x", "r") for _ in range(12)] == GOLDEN
    key = key_from("ftpress", "golden")
    first = int.from_bytes(hmac.new(key, b"ftpress-dice" + (0).to_bytes(8, "big"),
                                    hashlib.sha256).digest()[:8], "big")
    assert first % 6 + 1 == GOLDEN[0]


GOLDEN = [int(c) for c in "656132116133"]


def test_key_parts_are_length_prefixed():
    assert key_from("ab", "c") != key_from("a", "bc")


def test_every_roll_is_logged_with_its_purpose_and_rule():
    dice = Dice.seeded("k")
    total = dice.total(3, 5, "income of Marrow", "ftc2007 §3.2")
    dice.d3("extra worlds", "ftc2007 §2.2")
    assert len(dice.log) == 4
    assert sum(r.value for r in dice.log[:3]) == total
    assert dice.log[0] == Roll(5, dice.log[0].value, "income of Marrow (1 of 3)", "ftc2007 §3.2")
    assert dice.log[3].sides == 3 and dice.log[3].rule == "ftc2007 §2.2"


@given(st.integers(1, 1000), st.binary(min_size=1, max_size=8))
def test_rolls_stay_on_the_die(sides, key):
    dice = Dice(KeyedStream(key))
    assert all(1 <= dice.roll(sides, "p", "r") <= sides for _ in range(20))


def test_faces_come_up_evenly():
    dice = Dice.seeded("fairness")
    counts = Counter(dice.d6("p", "r") for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < n < 1150 for n in counts.values())


def test_rejection_sampling_skips_the_biased_tail():
    # For a die of 2**63 + 1 sides, every draw of 2**63 + 1 or more would favour
    # the low faces, so about half of all attempts are thrown away.
    stream = KeyedStream(b"k")
    dice = Dice(stream)
    for _ in range(20):
        dice.roll(2**63 + 1, "huge die", "r")
    assert stream._counter == 31


def test_supplied_dice_replace_the_stream():
    dice = Dice(SuppliedDice([4, 2, 6], "dice.yaml"))
    assert [dice.d6("a", "r"), dice.d3("b", "r"), dice.d6("c", "r")] == [4, 2, 6]
    assert [r.value for r in dice.log] == [4, 2, 6]


def test_a_supplied_die_that_does_not_fit_is_reported_where_it_was_written():
    dice = Dice(SuppliedDice([4, 5], "dice.yaml", lines=[3, 4]))
    dice.d6("first", "r")
    with pytest.raises(InputError) as caught:
        dice.d3("additional worlds for nac", "ftc2007 §2.2")
    assert str(caught.value) == ("dice.yaml:4: roll 2 is 5, but it is a d3 for additional "
                                 "worlds for nac; expected 1 to 3")


def test_running_out_of_supplied_dice_says_what_is_next():
    dice = Dice(SuppliedDice([], "turn.dice"))
    with pytest.raises(InputError) as caught:
        dice.d6("world in hex (0, 0)", "ftc2007 §1.2")
    assert str(caught.value) == ("turn.dice: ran out of dice after 0 rolls; roll 1 is a d6 "
                                 "for world in hex (0, 0)")


def test_a_die_needs_sides():
    with pytest.raises(ValueError, match="at least one side"):
        Dice.seeded("k").roll(0, "p", "r")


# --- hidden rolls ------------------------------------------------------------------------

def test_hidden_rolls_come_from_their_own_stream_and_leave_no_gap_in_the_public_one():
    public, hidden = key_from("public"), key_from("hidden")
    dice = Dice(KeyedStream(public), KeyedStream(hidden))
    for i in range(30):
        dice.d6(f"public {i}", "r")
        dice.total(2, 6, f"secret {i}", "r", hidden=True)
    shown = [r for r in dice.log if not r.hidden]
    kept = [r for r in dice.log if r.hidden]
    assert len(shown) == 30 and len(kept) == 60
    # The public stream drawn alone gives exactly the public rolls; the hidden stream
    # drawn alone gives exactly the hidden ones.
    again = Dice(KeyedStream(public))
    assert [again.d6("x", "r") for _ in shown] == [r.value for r in shown]
    secret = Dice(KeyedStream(hidden))
    assert [secret.d6("x", "r") for _ in kept] == [r.value for r in kept]
    # Only rejected attempts (a 1 in 2**61 chance for a d6) could stand between them.
    assert stream_positions(public, shown) == list(range(30))
    assert all(r.purpose.startswith("secret") for r in kept)


def test_without_a_hidden_source_a_hidden_roll_is_drawn_in_order_and_marked():
    """An open campaign, dice by hand, a turn recorded before hidden streams: one source."""
    one = Dice(KeyedStream(key_from("k")))
    mixed = [one.d6("a", "r"), one.d6("b", "r", hidden=True), one.d3("c", "r")]
    plain = Dice(KeyedStream(key_from("k")))
    assert mixed == [plain.d6("a", "r"), plain.d6("b", "r"), plain.d3("c", "r")]
    assert [r.hidden for r in one.log] == [False, True, False]
    hand = Dice(SuppliedDice([4, 2], "dice.yaml"))
    assert (hand.d6("a", "r", hidden=True), hand.d6("b", "r")) == (4, 2)


def test_a_hidden_roll_is_written_so_and_read_back():
    dice = Dice(SuppliedDice([3, 5], "x"))
    dice.d6("lost roll for g1 (-1)", "ftcamp02 §4.1.1", hidden=True)
    dice.d6("settlement", "ftc2007 §4.1")
    text = dump(DiceFile("by hand", dice.log))
    assert text == ("source: by hand\nrolls:\n"
                    "  - {sides: 6, value: 3, purpose: lost roll for g1 (-1), rule: ftcamp02 "
                    "§4.1.1, hidden: true}\n"
                    "  - {sides: 6, value: 5, purpose: settlement, rule: ftc2007 §4.1}\n")
    assert TypeAdapter(DiceFile).validate_python(yaml.safe_load(text)).rolls == dice.log
