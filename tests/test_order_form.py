"""``ftpress orders new <player>``: an order form for the open turn, from each
ruleset, that ``ftpress check`` passes as written, with every group of the player."""

from __future__ import annotations

import pytest
import yaml
from demos import FTC2007, FTCAMP02, SCT

from conftest import set_up_demo

FORMS = {"ftc2007": (FTC2007, "groups"), "sct": (SCT, "forces"),
         "ftcamp02": (FTCAMP02, "groups")}


@pytest.mark.parametrize("ruleset", sorted(FORMS))
def test_the_form_passes_check_as_written_with_every_group(tmp_path, run, ruleset):
    demo, key = FORMS[ruleset]
    root = demo.copy(tmp_path / ruleset)
    state = demo.state()
    rel = f"orders/t{state.campaign.calendar.turn:03d}/nac.yaml"
    code, out, err = run("orders", "new", "nac", "--source", root)
    assert (code, err) == (0, "")
    assert out == f"wrote {rel}: every group holds; edit it, then 'ftpress check {rel}'\n"
    text = (root / rel).read_text()
    schema = "orders.json" if ruleset == "ftc2007" else f"orders-{ruleset}.json"
    assert text.startswith(f"# yaml-language-server: $schema={demo.base_url}schemas/{schema}\n")
    written = yaml.safe_load(text)
    groups = [g.id for g in state.groups.groups if g.owner == "nac"]
    attached = [g for g in groups if f"# {g} is attached to " in text]
    assert sorted(written[key]) == sorted(g for g in groups if g not in attached)
    for group in groups:
        assert f"# {group} at " in text  # where it is and what it holds
    code, out, err = run("check", "--source", root, root / rel)
    assert (code, err) == (0, ""), err
    assert out.endswith("checked 1 file: no problems\n")


def test_every_player_of_each_example_gets_a_form_that_checks(tmp_path, run):
    for ruleset in ("sct", "ftcamp02"):
        demo, _ = FORMS[ruleset]
        root = demo.copy(tmp_path / ruleset)
        for player in demo.state().players.players:
            assert run("orders", "new", player.id, "--source", root)[0] == 0
        code, _, err = run("check", "--source", root)
        assert (code, err) == (0, ""), err


def test_the_ftc2007_form_says_where_a_group_can_go_and_what_applies(tmp_path, run):
    root = FTC2007.copy(tmp_path / "demo")
    run("orders", "new", "nac", "--source", root)
    text = (root / "orders/t010/nac.yaml").read_text()
    assert ("  # nac-4 at Kessel Drift (kessel-drift): Outrider (Harrison, SC)\n"
            "  # move by a jump (§8.1): Avalon Deep (avalon-deep), Bellwether (bellwether), "
            "Dusk (dusk),\n"
            "  #   Northgate (northgate), Pennant (pennant), Wayfarer (wayfarer), Wyrdmoor "
            "(wyrdmoor), an\n"
            "  #   open hex next to it\n"
            "  # move along route-5 (route: route-5, §8.2): dusk, northgate, quarry\n"
            "  nac-4:\n    hold: true\n") in text
    assert "  # nac-5 at Arcturus Gate (arcturus-gate): a dummy counter, no ships (§15.2)\n" \
        in text
    assert "# reorganise (§15.1): split: {new-id: [ship, …]}; merge: [nac-6]\n" in text
    assert "economy" not in text  # week 4 of economic turn 2
    assert max(len(line) for line in text.splitlines()[1:]) <= 92


def test_an_economic_week_lists_the_economic_orders(tmp_path, run):
    root = set_up_demo(tmp_path / "campaign")  # turn 1: the first week of economic turn 1
    code, _, err = run("orders", "new", "nac", "--source", root, "--force")
    assert (code, err) == (0, "")
    text = (root / "orders/t001/nac.yaml").read_text()
    assert "# This is an economic week (§5.2): economic orders go under 'economy:'.\n" in text
    assert "#   maintenance: full        # full, standardised or reduced (§7)\n" in text
    code, _, err = run("check", "--source", root, root / "orders/t001/nac.yaml")
    assert (code, err) == (0, "")
    assert run("orders", "new", "fse", "--source", root, "--force")[0] == 0
    assert "# scout (one light ship on its own, §2.3): northgate\n" in (
        root / "orders/t001/fse.yaml").read_text()


def test_an_order_file_is_replaced_only_with_force(tmp_path, run):
    root = set_up_demo(tmp_path / "campaign")
    mine = root / "orders/t001/nac.yaml"
    before = mine.read_bytes()
    code, out, err = run("orders", "new", "nac", "--source", root)
    assert (code, out) == (1, "")
    assert err == ("ftpress: orders/t001/nac.yaml exists already; edit it, or run again "
                   "with --force to replace it with a new form\n")
    assert mine.read_bytes() == before
    assert run("orders", "new", "nac", "--source", root, "--force")[0] == 0
    assert mine.read_bytes() != before


def test_a_player_not_in_the_campaign_gets_a_suggestion(tmp_path, run):
    root = set_up_demo(tmp_path / "campaign")
    code, out, err = run("orders", "new", "New Anglian Confederation", "--source", root)
    assert (code, out) == (1, "")
    assert err == ("ftpress: 'New Anglian Confederation' is not a player of this campaign "
                   "(did you mean 'nac'?); expected one of nac, nsl, fse, esu, sav\n")


def test_the_umpires_view_shows_each_players_form_and_the_public_site_does_not(
        tmp_path, demo_site):
    import html

    from markupsafe import escape

    from ftpress.store.campaign import order_forms

    umpire = FTC2007.build(tmp_path / "_site-umpire", "--view", "umpire")
    forms = order_forms(FTC2007.state())
    for player in FTC2007.state().players.players:
        page = (umpire / f"players/{player.id}/index.html").read_text()
        # Focusable, and named: the form scrolls sideways on a phone, by keyboard too.
        opening = (f'<pre class="order-form" tabindex="0" role="region" '
                   f'aria-label="Order form of {escape(player.name)}"><code>')
        shown = page[page.index(opening) + len(opening):page.index("</code></pre>")]
        assert html.unescape(shown) == forms[player.id]
        assert f"<code>orders/t010/{player.id}.yaml</code>" in page
        assert "order-form" not in (demo_site / f"players/{player.id}/index.html").read_text()


def test_a_group_that_jumped_out_last_week_holds_on_its_form(tmp_path, run):
    root = FTC2007.copy(tmp_path / "demo")
    groups = root / "state/groups.yaml"
    text = groups.read_text()
    anchor = "  - id: nac-4\n    owner: nac\n    at: kessel-drift\n"
    assert anchor in text
    groups.write_text(text.replace(anchor, anchor + "    jumped_out: true\n"))
    assert run("orders", "new", "nac", "--source", root)[0] == 0
    form = (root / "orders/t010/nac.yaml").read_text()
    assert ("  # nac-4 jumped out of a system last week: that was this week's move (§18.4), "
            "so it holds\n  nac-4:\n") in form
    code, _, err = run("check", "--source", root, root / "orders/t010/nac.yaml")
    assert (code, err) == (0, "")
