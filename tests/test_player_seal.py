"""A player of a sealed campaign, in their own clone, with their own key and not the
umpire's: ``ftpress keys new`` makes the key, the umpire records it with ``ftpress
roster key``, and ``ftpress seal --identity`` judges the orders against what the
player knows, the set-up turn's included. Every set-up order the resolution
refuses, the player's seal refuses first, with the same words; without the
player's key a sealed campaign's orders are not sealed at all.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from ftpress import rules
from ftpress.cli import main
from ftpress.orders.load import parse_orders
from ftpress.rules.ftc2007.setup_turn import play_setup
from ftpress.secrecy.twins import umpire_key
from ftpress.store.campaign import load_state

NOW = "2026-03-01T10:00:00+00:00"


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    """A sealed ftc2007 campaign fresh from init, nac's key recorded by the umpire; the
    umpire's key moved out of the campaign folder (``umpire.key`` beside it)."""
    base = tmp_path_factory.mktemp("player")
    root = base / "c"
    assert main(["init", str(root), "--players", "nac,esu", "--seed", "42", "--now", NOW,
                 "--secrecy", "sealed"]) == 0
    assert main(["keys", "new", "--out", str(base / "nac.key"), "--source", str(root)]) == 0
    recipient = next(line.split(": ", 1)[1] for line in (base / "nac.key").read_text()
                     .splitlines() if line.startswith("# public key: "))
    assert main(["roster", "key", "nac", recipient, "--source", str(root)]) == 0
    assert main(["check", "--source", str(root)]) == 0  # no plain file left behind its twin
    (root / ".ftpress-umpire-key").rename(base / "umpire.key")
    return base


@pytest.fixture
def clone(made, tmp_path) -> Path:
    """The player's clone: the campaign, nac's key, no umpire's key."""
    shutil.copytree(made / "c", tmp_path / "c")
    shutil.copy(made / "nac.key", tmp_path / "nac.key")
    return tmp_path / "c"


def _worlds(root: Path) -> dict[str, str | None]:
    return {s["id"]: s.get("owner") for s in
            yaml.safe_load((root / "state/map.yaml").read_text())["systems"]}


def _capital(root: Path) -> str:
    return next(p["capital"] for p in yaml.safe_load(
        (root / "state/players.yaml").read_text())["players"] if p["id"] == "nac")


def _clean_setup(clone: Path, tail: str = "groups: {}\n") -> Path:
    """nac's set-up, a battleship at its capital, written to its plain order file."""
    orders = clone / "orders/t001/nac.yaml"
    orders.parent.mkdir(parents=True, exist_ok=True)
    orders.write_text(f"turn: t001\nplayer: nac\nsetup:\n  groups:\n    nac-1:\n"
                      f"      at: {_capital(clone)}\n      ships: [{{design: nac-victoria, "
                      f"name: Victoria}}]\n{tail}")
    return orders


def _refused_at_resolution(root: Path, key: Path, text: str) -> list[str]:
    """What the set-up's resolution (the umpire's, on the whole state) refuses of nac's
    file ``text``: each refusal's reason."""
    loaded = load_state(root, umpire_key(root, key))
    assert loaded is not None
    ruleset = rules.find_ruleset("ftc2007")
    orders = parse_orders(text.encode(), "orders/t001/nac.yaml", ruleset.orders_adapter)
    _, events = play_setup(loaded.state, {"nac": orders})
    return [e.text.split("order is refused: ", 1)[1].rstrip(".") for e in events
            if e.kind == "rejected"]


#: One set-up file per kind of refusal the set-up's resolution makes (§6, §13.1,
#: §15.2): ``{capital}``, ``{other}`` (another of nac's worlds) and ``{theirs}`` (esu's
#: capital) filled in.
CASES = {
    "a world named as it is not written": "groups:\n    nac-1:\n      at: {Capital}\n"
    "      ships: [{{design: nac-victoria, name: Victoria}}]\n",
    "another power's world": "groups:\n    nac-1:\n      at: {theirs}\n"
    "      ships: [{{design: nac-victoria, name: Victoria}}]\n",
    "a design misspelt": "groups:\n    nac-1:\n      at: {capital}\n"
    "      ships: [{{design: nac-victorya, name: Victoria}}]\n",
    "another navy's design": "groups:\n    nac-1:\n      at: {capital}\n"
    "      ships: [{{design: esu-lenov, name: Lenov}}]\n",
    "a counter id not the player's": "groups:\n    esu-9:\n      at: {capital}\n"
    "      ships: [{{design: nac-victoria, name: Victoria}}]\n",
    "a dummy with no capital ship": "groups:\n    nac-1:\n      at: {capital}\n"
    "      ships: [{{design: nac-harrison, name: Scout}}]\n    nac-2: {{at: {other}, "
    "dummy: true}}\n",
    "more on ships than the cap": "groups:\n    nac-1:\n      at: {capital}\n      ships:\n"
    + "".join(f"        - {{{{design: nac-valley-forge, name: Forge {n}}}}}\n"
              for n in range(6)),
    "two ships of one name": "groups:\n    nac-1:\n      at: {capital}\n      ships:\n"
    "        - {{design: nac-harrison, name: Twin}}\n"
    "        - {{design: nac-harrison, name: Twin}}\n",
    "spares at another's world": "groups: {{}}\n  spares: [{{at: {theirs}, points: 200}}]\n",
    "defences at another's world": "groups: {{}}\n  defences: [{{system: {theirs}, "
    "points: 20}}]\n",
    "spending beyond the capital": "groups: {{}}\n  spares: [{{at: {capital}, "
    "points: 9000}}]\n",
}


@pytest.mark.parametrize("case", CASES)
def test_every_set_up_refusal_is_caught_at_seal(made, clone, run, case):
    worlds = _worlds(clone)
    capital = _capital(clone)
    other = next(w for w, owner in worlds.items() if owner == "nac" and w != capital)
    theirs = next(w for w, owner in worlds.items() if owner == "esu")
    setup = CASES[case].format(capital=capital, Capital=capital.capitalize(), other=other,
                               theirs=theirs)
    text = f"turn: t001\nplayer: nac\nsetup:\n  {setup}groups: {{}}\n"
    refused = _refused_at_resolution(clone, made / "umpire.key", text)
    orders = clone / "orders/t001/nac.yaml"
    orders.parent.mkdir(parents=True, exist_ok=True)
    orders.write_text(text)
    code, _, err = run("seal", orders, "--identity", clone.parent / "nac.key",
                       "--source", clone)
    assert code == 1, f"sealed what the resolution refuses: {refused}"
    assert not (clone / "orders/t001/nac.yaml.age").exists()
    # Every reason the resolution gives, the seal gave first (a file the form refuses
    # is refused whole, before the resolution could see it).
    for reason in refused:
        assert reason in err, err
    assert refused or "expected" in err


def test_clean_set_up_is_sealed_as_checked(clone, run):
    orders = _clean_setup(clone)
    code, out, err = run("check", orders, "--identity", clone.parent / "nac.key",
                         "--source", clone)
    assert (code, err) == (0, ""), err
    assert "The set-up spends 435 of" in out  # judged, not only read for its form
    code, out, err = run("seal", orders, "--identity", clone.parent / "nac.key",
                         "--source", clone)
    assert (code, err) == (0, ""), err
    assert out.startswith("orders/t001/nac.yaml.age: sealed, ")


def test_seal_without_the_players_key_refuses(clone, run):
    orders = clone / "orders/t001/nac.yaml"
    orders.parent.mkdir(parents=True, exist_ok=True)
    orders.write_text("turn: t001\nplayer: nac\ngroups: {}\n")
    code, _, err = run("seal", orders, "--source", clone)
    assert code == 1
    assert "give --identity FILE" in err and "nothing was written" in err
    assert not (clone / "orders/t001/nac.yaml.age").exists()


def test_the_set_up_turns_week_orders_are_judged_at_seal(clone, run):
    """The counters placed at set-up may be given the week's orders in the same file;
    a move out of range is refused at seal, as the week's resolution would refuse it."""
    far = next(w for w, owner in _worlds(clone).items() if owner == "esu")
    orders = _clean_setup(clone, f"groups:\n  nac-1:\n    move: {far}\n    posture: attack\n")
    code, _, err = run("seal", orders, "--identity", clone.parent / "nac.key",
                       "--source", clone)
    assert code == 1 and "hexes from" in err and "(§8.1)" in err, err


def test_the_turns_summary_lists_each_refused_order(tmp_path, run, monkeypatch):
    """The umpire who runs the turn reads each refused order and why; a public job log
    (a GitHub Actions runner) lists only those everyone is told.

    The turn refuses to start over what ``check`` reports, and check reports every order
    the set-up's resolution would refuse (the seal tests above): the refusals a turn
    lists are those no check foresees (an order to a group lost earlier in the same
    turn). One that check foresees stands in for them here, with the check set aside."""
    import ftpress.commands.turn

    monkeypatch.setattr(ftpress.commands.turn, "campaign_problems", lambda store: ())
    root = tmp_path / "c"
    assert run("init", root, "--players", "nac,esu", "--seed", "42", "--now", NOW,
               "--secrecy", "open")[0] == 0
    theirs = next(w for w, owner in _worlds(root).items() if owner == "esu")
    orders = root / "orders/t001/nac.yaml"
    orders.parent.mkdir(parents=True, exist_ok=True)
    orders.write_text(f"turn: t001\nplayer: nac\nsetup:\n  groups: {{}}\n  spares: "
                      f"[{{at: {theirs}, points: 200}}]\ngroups: {{}}\n")
    (tmp_path / "copy").mkdir()
    shutil.copytree(root, tmp_path / "copy/c")
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    code, out, err = run("turn", "--source", root, "--now", "2026-03-08T21:00:00+00:00")
    assert (code, err) == (0, ""), err
    assert "1 order refused:\n  nac, orders/t001/nac.yaml:5:17: The New Anglian " \
           "Confederation's set-up order is refused: Heron is held by esu; spares are placed " \
           "only at your own worlds (§6).\n" in out
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    code, out, err = run("turn", "--source", tmp_path / "copy/c", "--now",
                         "2026-03-08T21:00:00+00:00")
    assert (code, err) == (0, ""), err
    assert "Heron" not in out and "nac, orders" not in out
    assert "refusals told to their players alone are not listed in this public log" in out


def test_the_players_clone_verifies_with_its_left_over_plain_file(made, clone, run):
    """The plain file a player sealed stays in their clone (git ignores it); the turn
    verifies there all the same: what was sent is the sealed file."""
    orders = _clean_setup(clone, "groups: {}\n# my plan\n")
    assert run("seal", orders, "--identity", clone.parent / "nac.key", "--source", clone)[0] == 0
    comment = clone.parent / "views.md"
    code, _, err = run("turn", "--source", clone, "--now", "2026-03-08T21:00:00+00:00",
                       "--identity", made / "umpire.key", "--views-comment", comment)
    assert (code, err) == (0, ""), err
    assert "/you/" in comment.read_text()  # the bot's comment, for the workflow to post
    assert orders.is_file()
    code, out, err = run("turn", "--verify", "t001", "--source", clone)
    assert (code, err) == (0, ""), err
    assert out.startswith("verified t001 as anyone can")


def test_the_turns_comment_mentions_each_player_with_the_link(made, clone):
    from ftpress.github.publishing import views_markdown

    text = views_markdown(clone, "t001")
    assert text is not None
    assert "nac" in text and "esu" not in text  # esu has no key: nothing sealed to it
    assert "https://example.org/c/you/" in text


def test_build_view_shows_the_report_the_public_site_seals(made, clone, run):
    """``build --view nac`` lays out, without a script, the very report the public site
    publishes sealed to nac, which opens with nac's key alone; nothing else is sealed
    there, and its name says nothing of whose it is."""
    import json

    from ftpress.secrecy import agekeys

    orders = _clean_setup(clone)
    assert run("seal", orders, "--identity", clone.parent / "nac.key", "--source", clone)[0] == 0
    assert run("turn", "--source", clone, "--now", "2026-03-08T21:00:00+00:00",
               "--identity", made / "umpire.key")[0] == 0
    now = ("--now", "2026-03-09T10:00:00+00:00")
    assert run("build", "--source", clone, *now)[0] == 0
    sealed = sorted((clone / "_site/you").glob("*.age"))
    assert len(sealed) == 1 and "nac" not in sealed[0].name
    report = json.loads(agekeys.decrypt(sealed[0].read_bytes(),
                                        agekeys.read_identity(clone.parent / "nac.key")))
    assert report["player"] == "nac" and report["turn"] == "t001"
    assert len(sealed[0].read_bytes()) >= agekeys.MIN_BUCKET  # padded
    code, _, err = run("build", "--source", clone, "--view", "nac", "--identity",
                       clone.parent / "nac.key", *now)
    assert (code, err) == (0, ""), err
    page = (clone / "_site-nac/you/index.html").read_text()
    assert "Your view: New Anglian Confederation (nac), after t001." in page
    assert "<strong>Your view: New Anglian Confederation (nac).</strong>" in page  # banner
    for section in report["sections"]:
        assert f"<h2>{section['title']}</h2>" in page
    assert "<th scope=\"row\">nac-1</th>" in page and "Victoria (nac-victoria, BB)" in page
