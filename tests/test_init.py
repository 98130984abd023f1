"""`ftpress init`: a complete campaign that builds and checks clean at once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from ftpress.rules import ftc2007

from conftest import REPO

NOW = "2026-03-01T10:00:00+00:00"


def init(run, target: Path, *extra: str) -> tuple[int, str, str]:
    return run("init", target, "--players", "nac,nsl,fse,esu", "--seed", "42", "--now", NOW,
               "--secrecy", "open",
               *extra)


def test_init_makes_a_campaign_that_checks_and_builds(tmp_path, run):
    target = tmp_path / "outer-marches"
    code, out, err = init(run, target, "--name", "The Outer Marches")
    assert (code, err) == (0, "")
    assert out.startswith(f"created {target}: 4 players, ")
    files = sorted(p.relative_to(target).as_posix() for p in target.rglob("*")
                   if p.is_file() and ".git" not in p.relative_to(target).parts)
    rules = sorted(f for f in files if f.startswith("content/rules/"))
    assert len(rules) == 20  # the ftc2007 rulebook: rules 1-18, the appended notes, the later rulings
    assert "date: 2026-03-01" in (target / rules[0]).read_text()  # in force from day one
    files = [f for f in files if f not in rules]
    kinds = ("campaign", "designs", "groups", "map", "players", "queues")
    assert files == sorted([
        ".ftpress-secret", ".github/CODEOWNERS", ".github/dependabot.yml",
        ".github/workflows/merge.yml", ".github/workflows/orders.yml",
        ".github/workflows/publish.yml", ".gitignore",
        "content/posts/2026/03/01-the-outer-marches-the-map-is-rolled.md",
        "orders/README.md", "requirements.txt", "site.yaml",
        *(f"state/{k}.yaml" for k in kinds), *(f"state/turns/t000/{k}.yaml" for k in kinds),
        "state/turns/t000/dice.yaml"])
    assert run("check", "--source", target) == (0, "checked the campaign: no problems\n", "")
    code, out, err = run("build", "--source", target, "--out", tmp_path / "site", "--now",
                         "2026-03-02")
    assert (code, err) == (0, "")
    site = tmp_path / "site"
    for page in ("index.html", "rules/index.html", "players/index.html", "players/nac/index.html",
                 "systems/index.html", "schemas/players.json",
                 "posts/2026/03/01/the-outer-marches-the-map-is-rolled/index.html"):
        assert (site / page).is_file(), page
    campaign = yaml.safe_load((target / "state/campaign.yaml").read_text())
    assert campaign["setup"] == {"seed": 42, "options": {"radius": 5, "world_on": 3,
                                                         "extra_worlds": 4},
                                 "forces": "orders"}  # bought in the set-up turn, t001
    assert campaign["id"] == "outer-marches" and campaign["name"] == "The Outer Marches"
    first = (target / "state/players.yaml").read_text().splitlines()[0]
    assert first == ("# yaml-language-server: $schema=https://example.org/outer-marches/"
                     "schemas/players.json")


def test_init_keeps_the_campaigns_supply_chain_current(tmp_path, run):
    """Dependabot watches the new campaign's pinned actions and its requirements.txt."""
    target = tmp_path / "outer-marches"
    assert init(run, target)[0] == 0
    config = yaml.safe_load((target / ".github/dependabot.yml").read_text())
    watched = {(u["package-ecosystem"], u["directory"], u["schedule"]["interval"])
               for u in config["updates"]}
    assert watched == {("github-actions", "/", "weekly"), ("pip", "/", "weekly")}
    assert (target / "requirements.txt").is_file()  # what pip's updates read at /


def test_the_setup_snapshot_is_the_starting_state(tmp_path, run):
    target = tmp_path / "c"
    init(run, target)
    for kind in ("campaign", "players", "map", "groups"):
        assert (target / f"state/{kind}.yaml").read_bytes() == \
            (target / f"state/turns/t000/{kind}.yaml").read_bytes()
    dice = yaml.safe_load((target / "state/turns/t000/dice.yaml").read_text())
    assert dice["source"] == "seed 42"
    assert dice["rolls"][0] == {"sides": 6, "value": dice["rolls"][0]["value"],
                                "purpose": "world in hex (-5, 0)", "rule": "ftc2007 §1.2"}


def test_same_seed_same_campaign_byte_for_byte(tmp_path, run, monkeypatch):
    # The umpire's master secret from the environment: nothing random is left.
    monkeypatch.setenv("FTPRESS_UMPIRE_SECRET", "the umpire's own")
    init(run, tmp_path / "a/reach")
    init(run, tmp_path / "b/reach")
    a, b = ({p.relative_to(tmp_path / x): p.read_bytes() for p in (tmp_path / x).rglob("*")
             if p.is_file() and ".git" not in p.parts} for x in "ab")
    assert a == b
    assert not (tmp_path / "a/reach/.ftpress-secret").exists()


def test_the_log_post_tells_every_die(tmp_path, run):
    target = tmp_path / "c"
    init(run, target)
    post = next((target / "content/posts").rglob("*.md")).read_text()
    dice = yaml.safe_load((target / "state/turns/t000/dice.yaml").read_text())["rolls"]
    assert "kind: status" in post
    assert f"{len(dice)} dice in all" in post
    listed = [int(v) for line in post.split("## Every die")[1].splitlines()
              if line.startswith("- ") for v in line.split(": ", 1)[1].split()]
    assert listed == [r["value"] for r in dice]


@pytest.mark.parametrize(("args", "message"), [
    (("--players", "nac,nac"), "--players: a player is named twice; give each once"),
    (("--players", "n a c"), "--players: 'n a c' is not an id; expected lowercase letters"),
    (("--players", "nac", "--ruleset", "chess"), "--ruleset: unknown ruleset 'chess'; "
     "expected one of ftc2007"),
    (("--players", "nac", "--option", "worlds=3"), "--option: unknown option 'worlds'; "
     "expected one of radius, world_on, extra_worlds"),
    (("--players", "nac", "--option", "world_on"), "--option: 'world_on': expected "
     "NAME=NUMBER, such as world_on=1"),
    (("--players", "nac", "--option", "world_on=9"), "--seed: seed 1: option world_on is 9; "
     "expected 1 to 6"),
    (("--players", ",".join(f"p{i}" for i in range(10)), "--option", "radius=1"),
     "too few for 10 players"),
])
def test_bad_init_arguments(tmp_path, run, args, message):
    code, out, err = run("init", tmp_path / "c", "--seed", "1", *args)
    assert code == 1 and out == ""
    assert message in err
    assert not (tmp_path / "c").exists()


def test_refuses_a_folder_that_is_not_empty(tmp_path, run):
    (tmp_path / "c").mkdir()
    (tmp_path / "c/notes.txt").write_text("mine")
    code, _, err = init(run, tmp_path / "c")
    assert code == 1
    assert err.startswith(f"{tmp_path / 'c'}: folder is not empty; expected a new or empty "
                          "folder for the campaign\n")
    assert [p.name for p in (tmp_path / "c").iterdir()] == ["notes.txt"]


def test_house_rules_are_options(tmp_path, run):
    code, _, _ = init(run, tmp_path / "c", "--option", "world_on=1", "--option",
                        "extra_worlds=0")
    assert code == 0
    campaign = yaml.safe_load((tmp_path / "c/state/campaign.yaml").read_text())
    assert campaign["setup"]["options"] == {"radius": 5, "world_on": 1, "extra_worlds": 0}
    assert run("check", "--source", tmp_path / "c")[0] == 0


def test_the_rulesets_rulebook_is_copied_when_it_has_one(tmp_path, run, monkeypatch):
    book = tmp_path / "rules"
    shutil.copytree(REPO / "content/rules", book / "ftc2007/rulebook")
    monkeypatch.setattr("ftpress.rules.ruleset.RULES_ROOT", book)
    assert ftc2007.RULESET.rulebook == book / "ftc2007/rulebook"
    target = tmp_path / "c"
    assert init(run, target)[0] == 0
    assert sorted(p.name for p in (target / "content/rules").iterdir()) == \
        sorted(p.name for p in (REPO / "content/rules").iterdir())
    code, _, err = run("build", "--source", target, "--out", tmp_path / "site", "--now",
                       "2026-03-02")
    assert (code, err) == (0, "")
    assert (tmp_path / "site/rules/index.html").is_file()
