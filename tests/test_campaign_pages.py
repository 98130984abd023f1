"""The powers and systems pages: public facts only, escaped, and only when
the campaign keeps a state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hiddenfacts import hidden_words

from ftpress.store.campaign import load_folder

from conftest import REPO
from statefiles import GROUPS, STATE, sub


@pytest.fixture(scope="module")
def demo_state() -> dict:
    return {k: yaml.safe_load((REPO / f"state/{k}.yaml").read_text())
            for k in ("players", "map", "designs", "groups")}


def campaign_pages(site: Path) -> dict[str, str]:
    pages = {p.relative_to(site).as_posix(): p.read_text()
             for p in [*(site / "players").rglob("*.html"), site / "systems/index.html"]}
    assert pages
    return pages


def test_every_power_has_a_page_and_every_world_a_row(demo_site, demo_state):
    systems = (demo_site / "systems/index.html").read_text()
    for world in demo_state["map"]["systems"]:
        assert f'<tr id="{world["id"]}">' in systems
    for player in demo_state["players"]["players"]:
        page = (demo_site / f"players/{player['id']}/index.html").read_text()
        assert player["name"].replace("'", "&#39;") in page
        held = [s for s in demo_state["map"]["systems"] if s.get("owner") == player["id"]]
        assert page.count('<th scope="row">') == len(held)
    home = (demo_site / "index.html").read_text()
    assert ">Powers</a>" in home and ">Systems</a>" in home


def test_what_a_group_holds_stays_hidden_until_contacted(demo_site, demo_state):
    hidden = hidden_words(load_folder(REPO).state)
    assert hidden
    pages = campaign_pages(demo_site)
    for group_id, secrets in hidden.items():
        for secret in secrets:
            leaks = [p for p, text in pages.items() if secret in text]
            assert leaks == [], f"{secret!r} from group {group_id} shows on {leaks}"
        assert group_id not in "".join(pages.values())
    # Dummy counters look like any other: only counts per place are shown.
    nac = pages["players/nac/index.html"]
    count = sum(1 for g in demo_state["groups"]["groups"]
                if g["owner"] == "nac" and g["at"] == "arcturus-gate")
    assert f"{count} counters at" in nac
    assert "dummy" not in nac.split("<main")[1].split("What a counter holds")[0].lower()


def test_neutral_worth_is_unknown_until_rolled(demo_site, demo_state):
    systems = (demo_site / "systems/index.html").read_text()
    neutral = [s for s in demo_state["map"]["systems"] if "income" not in s]
    assert neutral
    for world in neutral:
        row = systems.split(f'<tr id="{world["id"]}">')[1].split("</tr>")[0]
        assert row.count("unknown") == 2


def test_a_contacted_group_shows_its_ships(campaign, run):
    root = campaign({**STATE, "state/groups.yaml": sub(GROUPS, "    at: home\n",
                                                       "    at: home\n    revealed: true\n")})
    assert run("build", "--source", root, "--out", root.parent / "out", "--now",
               "2026-04-01")[0] == 0
    page = (root.parent / "out/players/nac/index.html").read_text()
    assert "<em>Lis</em>, Ticonderoga DD" in page


def test_names_are_escaped(campaign, run):
    players = STATE["state/players.yaml"].replace("New Anglian Confederation",
                                                  '"<script>alert(1)</script>"')
    map_ = STATE["state/map.yaml"].replace("name: Home", "name: <b>Home</b>")
    root = campaign({**STATE, "state/players.yaml": players, "state/map.yaml": map_})
    code, _, err = run("build", "--source", root, "--out", root.parent / "out", "--now",
                       "2026-04-01")
    assert (code, err) == (0, "")
    for page in campaign_pages(root.parent / "out").values():
        assert "<script>alert" not in page and "<b>Home" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in \
        (root.parent / "out/players/nac/index.html").read_text()


def test_a_blog_without_state_has_no_campaign_pages(campaign, run):
    root = campaign({})
    assert run("build", "--source", root, "--out", root.parent / "out", "--now",
               "2026-04-01")[0] == 0
    out = root.parent / "out"
    assert not (out / "players").exists() and not (out / "systems").exists()
    assert ">Powers</a>" not in (out / "index.html").read_text()
    assert (out / "schemas/post.json").is_file()  # front matter schemas serve any campaign


def test_schemas_are_published_with_their_urls(demo_site):
    base = yaml.safe_load((REPO / "site.yaml").read_text())["base_url"]
    names = sorted(p.stem for p in (demo_site / "schemas").glob("*.json"))
    assert names == ["battle", "campaign", "designs", "dice", "events", "groups", "map", "orders",
                     "orders-ftcamp02", "orders-sct", "page", "players", "post", "queues", "rule",
                     "site", "turn"]
    for name in names:
        schema = json.loads((demo_site / f"schemas/{name}.json").read_text())
        assert schema["$id"] == f"{base}schemas/{name}.json"
    for kind in ("campaign", "players", "map", "designs", "groups", "queues"):
        first = (REPO / f"state/{kind}.yaml").read_text().splitlines()[0]
        assert first == f"# yaml-language-server: $schema={base}schemas/{kind}.json"


def test_the_demo_state_files_satisfy_their_published_schemas(demo_site):
    jsonschema = pytest.importorskip("jsonschema")
    for kind in ("campaign", "players", "map", "designs", "groups", "queues"):
        schema = json.loads((demo_site / f"schemas/{kind}.json").read_text())
        data = json.loads(json.dumps(yaml.safe_load((REPO / f"state/{kind}.yaml").read_text()),
                                     default=str))
        jsonschema.validate(data, schema)
    dice = yaml.safe_load((REPO / "state/turns/t000/dice.yaml").read_text())
    jsonschema.validate(dice, json.loads((demo_site / "schemas/dice.json").read_text()))


def test_schemas_command_writes_every_schema(tmp_path, run):
    code, out, err = run("schemas", "--source", REPO, "--out", tmp_path / "s")
    assert (code, err) == (0, "")
    assert len(out.splitlines()) == 17  # with orders-ftcamp02 and orders-sct
    groups = json.loads((tmp_path / "s/groups.json").read_text())
    assert groups["$id"].endswith("/schemas/groups.json")
    assert groups["properties"]["groups"]["items"]["$ref"] == "#/$defs/Group"


def test_check_reports_on_a_named_post_and_always_on_site_yaml(campaign, run):
    bad = "---\ntitle: T\ndate: 2026-04-08\nkind: gossip\n---\nx\n"
    root = campaign({**STATE, "content/posts/2026/04/08-bad.md": bad})
    code, _, err = run("check", "--source", root, root / "content/posts/2026/04/08-bad.md")
    assert code == 1
    assert err.startswith("content/posts/2026/04/08-bad.md:4:7: kind: input should be")
    assert run("check", "--source", root, root / "state/map.yaml")[0] == 0
    (root / "site.yaml").write_text("title: T\n")
    code, _, err = run("check", "--source", root, root / "state/map.yaml")
    assert code == 1 and err.startswith("site.yaml:1:1: missing required key 'base_url'")
