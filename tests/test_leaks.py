"""Nothing the rules keep from the public reaches the public site, for the demo and
both examples: the hidden facts come from the umpire's structured data (see
:mod:`hiddenfacts`), and every file a reader can open is scanned for each, search
index decompressed. The umpire's site, built from the same data, shows them all."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from demos import FTC2007, FTCAMP02, SCT, Demo
from hiddenfacts import dummies, event_secrets, found, readable, whole

from ftpress.rules import STATE_EXTENSIONS
from ftpress.secrecy.visibility import PUBLIC_VIEW, HiddenFacts, Viewer, published_order, visible
from ftpress.state.records import load_turns

DEMOS = {"ftc2007": FTC2007, "sct": SCT, "ftcamp02": FTCAMP02}


@pytest.fixture(scope="module", params=sorted(DEMOS))
def demo(request: pytest.FixtureRequest) -> Demo:
    return DEMOS[request.param]


@pytest.fixture(scope="module")
def public(demo: Demo, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return readable(demo.build_once(tmp_path_factory, "public"))


@pytest.fixture(scope="module")
def umpire(demo: Demo, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return readable(demo.build(tmp_path_factory.mktemp("umpire") / "_site", "--view", "umpire"))


#: How many facts each campaign's events keep from the public, at the least: the
#: test is no test if the records stop holding secrets.
AT_LEAST = {"ftc2007": 25, "sct": 3, "ftcamp02": 35}


def test_no_event_kept_from_the_public_reaches_the_public_site(demo: Demo, public):
    """Each event whose audience is not public: its sentence and note nowhere, the lines
    of its order not in the published order files."""
    secrets = event_secrets(demo.root, demo.umpire)
    name = next(k for k, v in DEMOS.items() if v is demo)
    assert len(secrets) >= AT_LEAST[name]
    assert found(secrets, public) == []


def test_the_umpire_site_shows_every_event(demo: Demo, umpire):
    """The same facts, every one, in the umpire's view: its turn pages and orders."""
    secrets = event_secrets(demo.root, demo.umpire)
    text = "\n".join(umpire.values())
    assert [s.source for s in secrets if s.words not in text] == []


def test_no_turn_report_tells_which_counters_are_dummies(demo: Demo, public):
    """§15.2: what ftpress makes of the turns (reports, maps, published orders) never
    speaks of dummies; the umpire's own posts and the rulebook may, and the powers'
    pages say only that any counter may be one (test_campaign_pages)."""
    assert dummies(demo.root, demo.umpire) or demo is not FTC2007, "the ftc2007 demo has dummies"
    made = {p: t for p, t in public.items() if p.startswith("turns/")}
    assert [p for p, t in made.items() if "dummy" in t.lower() or "dummies" in t.lower()] == []


def test_published_order_files_leave_no_trace_of_what_they_withhold(demo: Demo, public):
    """A withheld order leaves no marker and no blank line behind (issue 20's
    ``# [hidden]``), and no name is blanked in place."""
    orders = {p: t for p, t in public.items() if p.startswith("turns/") and "/orders/" in p}
    assert orders
    for path, text in orders.items():
        assert "[hidden]" not in text, path
        assert "\n\n" not in text.strip(), path


def test_the_sources_are_read_as_written(demo: Demo):
    """The recorded events say their audience in the readable form."""
    for folder in sorted((demo.root / "state" / "turns").iterdir()):
        log = folder / "events.yaml"
        if log.is_file():
            text = whole(demo.root, f"state/turns/{folder.name}/events.yaml", demo.umpire)
            assert "private:" not in text
            assert text.count("\n  - kind: ") == text.count("\n    audience: "), log


def test_readable_decodes_the_search_index(tmp_path: Path):
    import gzip

    (tmp_path / "pagefind").mkdir()
    (tmp_path / "pagefind" / "x.pf_fragment").write_bytes(gzip.compress(b"lost roll"))
    (tmp_path / "a.html").write_text(html.escape("nac's <roll>"))
    assert readable(tmp_path) == {"a.html": "nac's <roll>", "pagefind/x.pf_fragment": "lost roll"}


def test_the_safety_net_behind_the_audiences_catches_nothing(demo: Demo):
    """The rules set every audience, so the last net (names the states hide, words of
    dummies) finds nothing left to withhold of what they write in any view of any
    recorded turn: no event stops the build, and no line of a published order file
    is withheld. All it may
    still take out is a player's own words (a note) that name what the viewer may not
    know, such as a player's note naming ships nobody else has seen (§15.3)."""
    turns = load_turns(demo.root, extensions=STATE_EXTENSIONS, umpire=demo.umpire)
    caught = []
    for i, turn in enumerate(turns):
        before = turns[i - 1].state if i else None
        for viewer in (PUBLIC_VIEW, *(Viewer.of(p.id) for p in turn.state.players.players)):
            net = HiddenFacts.of_turn(before, turn.state, viewer, turn.events)
            # An event the net would catch stops the build (HiddenFactLeak).
            visible(turn.events, viewer, net)
            for player, raw in turn.orders:
                path = f"orders/{turn.id}/{player}.yaml"
                text = raw.decode("utf-8")
                kept = set(published_order(text, path, turn.events, viewer, net).split("\n"))
                caught += [f"{turn.id} {viewer!r}: {path}: {line.strip()}" for line in
                           published_order(text, path, turn.events, viewer).split("\n")
                           if line not in kept and not line.strip().startswith(("note:", "#"))]
    assert caught == []
