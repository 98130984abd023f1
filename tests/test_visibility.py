"""Who sees what: an event's audience as data, and the views that filter on it."""

from __future__ import annotations

import pytest
import yaml
from pydantic import TypeAdapter

from ftpress.errors import InputError
from ftpress.files import validation
from ftpress.files.yamlsource import parse
from ftpress.secrecy.visibility import PUBLIC_VIEW, UMPIRE_VIEW, Viewer, published_order, visible
from ftpress.state.events import PUBLIC, UMPIRE, Audience, Event, EventsFile
from ftpress.state.save import dump

EVENTS: TypeAdapter[EventsFile] = TypeAdapter(EventsFile)


def event(text: str, audience: Audience, order: str | None = None) -> Event:
    return Event("hold", "ftc2007 §17.2", text, audience=audience, order=order)


# --- the audience as data ---------------------------------------------------------------

@pytest.mark.parametrize(("audience", "written"), [
    (PUBLIC, "audience: public"),
    (UMPIRE, "audience: umpire"),
    (Audience.told("nac", "esu", "nac"), "audience: [esu, nac]"),
    (Audience.told(None), "audience: umpire"),  # nobody named: the umpire alone
])
def test_an_audience_is_written_as_a_word_or_the_players_told(audience, written):
    text = dump(EventsFile("t001", (event("nac-1 holds.", audience),)))
    assert text == ("turn: t001\nevents:\n  - kind: hold\n    rule: ftc2007 §17.2\n"
                    f"    text: nac-1 holds.\n    {written}\n")
    assert EVENTS.validate_python(yaml.safe_load(text)).events[0].audience == audience


def test_an_audience_pastes_back_into_a_test():
    assert [repr(a) for a in (PUBLIC, UMPIRE, Audience.told("nac"))] == [
        "PUBLIC", "UMPIRE", "Audience.told('nac')"]
    assert Audience.told("nac").tells("nac") and not Audience.told("nac").tells("esu")
    assert PUBLIC.tells("esu") and not UMPIRE.tells("esu")


@pytest.mark.parametrize(("value", "message"), [
    ("everyone", "events[0].audience: expected 'public', 'umpire' or a list of the players "
                 "told, such as [esu, nac], got 'everyone'"),
    ("[]", "events[0].audience: expected 'public', 'umpire' or a list of the players told, "
           "such as [esu, nac], got []"),
    ("[nac, nac]", "events[0].audience: ['nac', 'nac'] names a player twice; expected each "
                   "once"),
    ("[NAC]", "events[0].audience: 'NAC' is not an id; expected lowercase letters, digits "
              "and hyphens, such as 'kessel-drift'; did you mean 'nac'?"),
])
def test_a_bad_audience_is_reported_where_it_stands(value, message):
    path = "state/turns/t001/events.yaml"
    text = ("turn: t001\nevents:\n  - kind: hold\n    rule: ftc2007 §17.2\n"
            f"    text: nac-1 holds.\n    audience: {value}\n")
    with pytest.raises(InputError) as raised:
        validation.validate(EVENTS, parse(text, path), path)
    assert [str(p) for p in raised.value.problems] == [f"{path}:6:15: {message}"]


def test_an_event_without_an_audience_is_refused():
    path = "state/turns/t001/events.yaml"
    text = "turn: t001\nevents:\n  - kind: hold\n    rule: ftc2007 §17.2\n    text: x\n"
    with pytest.raises(InputError) as raised:
        validation.validate(EVENTS, parse(text, path), path)
    assert [str(p) for p in raised.value.problems] == [
        f"{path}:3:5: missing required key 'events[0].audience'"]
    with pytest.raises(TypeError):
        Event("hold", "ftc2007 §17.2", "x")  # type: ignore[call-arg]  # every rule says it


# --- the views ---------------------------------------------------------------------------

EVENTS_OF_A_TURN = (
    event("nac-1 holds.", PUBLIC),
    event("nac-1's lost roll: on course.", Audience.told("nac")),
    event("esu scans nac-1: 2 DD.", Audience.told("esu", "nac")),
    event("The umpire rules on it.", UMPIRE),
)


@pytest.mark.parametrize(("viewer", "shown"), [
    (PUBLIC_VIEW, ["nac-1 holds."]),
    (Viewer.of("nac"), ["nac-1 holds.", "nac-1's lost roll: on course.",
                        "esu scans nac-1: 2 DD."]),
    (Viewer.of("esu"), ["nac-1 holds.", "esu scans nac-1: 2 DD."]),
    (Viewer.of("fse"), ["nac-1 holds."]),
    (UMPIRE_VIEW, [e.text for e in EVENTS_OF_A_TURN]),
])
def test_each_view_shows_the_events_its_reader_is_told(viewer, shown):
    assert [e.text for e in visible(EVENTS_OF_A_TURN, viewer)] == shown


ORDERS = """\
# yaml-language-server: $schema=https://example.org/schemas/orders.json
turn: t002
player: nac
attach: {nac-3: nac-1}      # the courier rides along
groups:
  nac-1:
    move: heron
    posture: stand-off
    split: {nac-9: [Lancer]}
  nac-2:
    hold: reorganise
    merge: [nac-5]
economy:
  maintenance: full
"""
PATH = "orders/t002/nac.yaml"
MOVE = event("nac-1 arrives at Heron.", PUBLIC, f"{PATH}:7:5")
SPLIT = event("nac-1 split: Lancer formed nac-9.", Audience.told("nac"), f"{PATH}:9:13")
ATTACH = event("nac-3 is attached to nac-1.", Audience.told("nac"), f"{PATH}:4:10")
MERGE = event("nac-2 reorganises.", Audience.told("nac"), f"{PATH}:10:3")
UPKEEP = event("nac sets maintenance to full.", PUBLIC, f"{PATH}:14:3")


def test_a_published_order_file_holds_only_the_orders_of_events_shown():
    """The entry of a public event is shown, less the lines of events kept from the
    reader; an entry with no event the reader sees goes whole; nothing marks the gaps."""
    assert published_order(ORDERS, PATH, (MOVE, SPLIT, ATTACH, MERGE, UPKEEP),
                           PUBLIC_VIEW) == """\
# yaml-language-server: $schema=https://example.org/schemas/orders.json
turn: t002
player: nac
groups:
  nac-1:
    move: heron
    posture: stand-off
economy:
  maintenance: full
"""


def test_a_mapping_left_empty_goes_too():
    assert published_order(ORDERS, PATH, (SPLIT, ATTACH, MERGE), PUBLIC_VIEW) == (
        "# yaml-language-server: $schema=https://example.org/schemas/orders.json\n"
        "turn: t002\nplayer: nac\n")


def test_the_umpire_and_the_author_read_the_file_whole():
    events = (MOVE, SPLIT, ATTACH, MERGE)
    assert published_order(ORDERS, PATH, events, UMPIRE_VIEW) == ORDERS
    assert published_order(ORDERS, PATH, events, Viewer.of("nac")) == ORDERS
    assert "attach" not in published_order(ORDERS, PATH, events, Viewer.of("esu"))


def test_a_players_comments_stay_theirs_and_the_umpires():
    """A sealed file's comments may say what its orders keep back: the published copy
    leaves them out (the editor's schema line is kept), for the public and for other
    players; the player and the umpire read the file whole."""
    text = ("# yaml-language-server: $schema=https://example.org/orders.json\n"
            "# nac-5 is the dummy; the real fleet is nac-2\n"
            "turn: t001\nplayer: nac\ngroups:\n  nac-2:\n    # straight for their capital\n"
            "    hold: true\n")
    held = Event("hold", "ftc2007 §17.2", "It holds.", audience=PUBLIC, group="nac-2",
                 order="orders/t001/nac.yaml:6:3")
    path = "orders/t001/nac.yaml"
    public = ("# yaml-language-server: $schema=https://example.org/orders.json\n"
              "turn: t001\nplayer: nac\ngroups:\n  nac-2:\n    hold: true\n")
    assert published_order(text, path, [held], PUBLIC_VIEW) == public
    assert published_order(text, path, [held], Viewer.of("esu")) == public
    assert published_order(text, path, [held], Viewer.of("nac")) == text
    assert published_order(text, path, [held], UMPIRE_VIEW) == text
