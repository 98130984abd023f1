"""A sealed campaign's repository is public: nothing the rules hide stands in any file
git tracks, in the public site, or in what its workflows print (issue 20).

For the ftc2007 demo and the ftcamp02 example (both sealed; sct's rules hide
nothing and it stays open), the hidden facts are taken from the umpire's
structured data, opened with the demo's committed umpire key: every event not
told to the public (its sentence, its note, the lines of its order), the ships
and designs of groups no enemy has seen into, and which counters are dummies.
Then every file git tracks under the campaign, the public site (search index
decompressed), the orders check's log and job summary for a sealed pull request,
and the publishing run's log and summary as it resolves a sealed turn are
scanned: no hit, and enough facts that the scan means something.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from demos import FTC2007, FTCAMP02, SCT, Demo
from hiddenfacts import (
    Secret,
    event_secrets,
    found,
    leaks,
    readable,
    secrets_of,
    seen_words,
    stands_in,
)

from ftpress.rules import STATE_EXTENSIONS
from ftpress.secrecy import agekeys
from ftpress.state.records import load_turns

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

SEALED = {"ftc2007": FTC2007, "ftcamp02": FTCAMP02}
#: The campaign's own folders (the root demo shares its repository with the tool).
CAMPAIGN = ("site.yaml", "content", "state", "orders", "battles", "themes", "static")
#: How many hidden facts each campaign holds, at the least: a scan of nothing passes.
AT_LEAST = {"ftc2007": 70, "ftcamp02": 50}


@pytest.fixture(scope="module", params=sorted(SEALED))
def demo(request: pytest.FixtureRequest) -> Demo:
    return SEALED[request.param]


def _name(demo: Demo) -> str:
    return next(k for k, v in SEALED.items() if v is demo)


def hidden_facts(demo: Demo) -> list[Secret]:
    """What the umpire's data hides: every event kept from the public, and the name of
    every ship of a group no enemy has seen into (or on the slips) in any snapshot,
    less the names seen in any, or told by a public event (a ship taken as a prize).
    A design's name is no such fact: the rulebook's prose says 'destroyer' too."""
    umpire = demo.umpire
    assert umpire is not None, f"{demo.root} is sealed with its demo key"
    turns = load_turns(demo.root, extensions=STATE_EXTENSIONS, umpire=umpire)
    states = [t.state for t in turns] + [demo.state()]
    seen = set().union(*(seen_words(s, ids=True) for s in states))
    told = " ".join(e.text for t in turns for e in t.events if e.audience.public)
    ships = {s.name for state in states for g in state.groups.groups for s in g.ships} | \
        {k.name for state in states for k in state.queues.keels}
    names = {n for n in set().union(*(secrets_of(s) for s in states)) - seen
             if n in ships and not leaks(told, [n])}
    return [*event_secrets(demo.root, umpire),
            *(Secret("a ship of a group no enemy has seen into", n) for n in sorted(names))]


def hidden_dummies(demo: Demo) -> dict[str, set[str]]:
    """For each groups file, the counters that are dummies no contact has shown to be
    (§15.2, §15.3), from its twin."""
    assert demo.umpire is not None
    found_ids: dict[str, set[str]] = {}
    for twin in sorted((demo.root / "state").rglob("groups.yaml.age")):
        text = agekeys.decrypt(twin.read_bytes(), demo.umpire.identities)
        rel = twin.relative_to(demo.root).as_posix().removesuffix(".age")
        found_ids[rel] = {g["id"] for g in yaml.safe_load(text)["groups"]
                          if g.get("dummy") and not g.get("revealed")}
    return found_ids


def tracked(root: Path) -> dict[str, str]:
    """Every file git tracks in the campaign's own folders, as text (sealed files, which
    are ciphertext, left out: they are what keeps the facts)."""
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "--", *CAMPAIGN],
                            check=True, capture_output=True, text=True).stdout.splitlines()
    return {rel: (root / rel).read_text("utf-8") for rel in listed
            if not rel.endswith(".age") and (root / rel).is_file()}


def in_tracked(secrets: list[Secret], texts: dict[str, str]) -> list[str]:
    """:func:`hiddenfacts.found` for the repository's paths: an order's lines are
    sought in the public copies the turn's record keeps."""
    problems = []
    for secret in secrets:
        where = {p: t for p, t in texts.items() if secret.orders_of is None
                 or p.startswith(f"state/turns/{secret.orders_of}/orders/")}
        problems += [f"{path}: {secret.words!r} ({secret.source})"
                     for path, text in where.items() if stands_in(secret.words, text)]
    return problems


def test_the_example_campaigns_are_sealed_but_sct():
    for demo in SEALED.values():
        assert "secrecy: sealed" in (demo.root / "state/campaign.yaml").read_text()
    assert "secrecy: sealed" not in (SCT.root / "state/campaign.yaml").read_text()


def test_no_tracked_file_holds_a_hidden_fact(demo: Demo):
    facts = hidden_facts(demo)
    assert len(facts) >= AT_LEAST[_name(demo)]
    texts = tracked(demo.root)
    assert any(p.startswith("state/turns/") for p in texts)
    assert in_tracked(facts, texts) == []


def test_no_tracked_file_tells_a_dummy_counter(demo: Demo):
    """§15.2: no plain groups file marks as a dummy a counter no contact has shown to be
    one; its twin does."""
    hidden = hidden_dummies(demo)
    assert any(hidden.values()) or demo is not FTC2007, "the ftc2007 demo has dummies"
    texts = tracked(demo.root)
    told = [f"{rel}: {g['id']}" for rel, ids in hidden.items()
            for g in yaml.safe_load(texts[rel])["groups"] if g.get("dummy") and g["id"] in ids]
    assert told == []


def test_the_public_site_holds_no_hidden_fact(demo: Demo, tmp_path_factory):
    site = readable(demo.build(tmp_path_factory.mktemp("public") / "_site"))
    assert found(hidden_facts(demo), site) == []


# --- the orders check and the publishing run, on a sealed campaign ------------------------

def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def _repository(root: Path) -> Path:
    """The campaign at ``root`` made a fresh repository, committed on main."""
    _git(root, "init", "-q", "-b", "main")
    _git(root, "config", "user.name", "Umpire")
    _git(root, "config", "user.email", "umpire@example.org")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "The campaign")
    return root


def _sealed_orders(root: Path, player: str, run) -> str:
    """The player's order form for the open turn, sealed with the orders command (the
    umpire's key at hand, so checked against the whole state); its sealed path."""
    code, out, err = run("orders", "new", player, "--source", root)
    assert code == 0, err
    rel = out.split()[1].rstrip(":")
    code, out, err = run("orders", "seal", root / rel, "--source", root)
    assert code == 0, err
    return rel + ".age"


def test_the_orders_check_prints_no_hidden_fact(demo: Demo, tmp_path, run, monkeypatch):
    from ftpress.github.check_pr import check_pull_request

    root = demo.sealed_copy(tmp_path / "camp")
    players = root / "state/players.yaml"  # who nac is on GitHub (the roster is public)
    players.write_text(players.read_text().replace("  - id: nac\n",
                                                   "  - id: nac\n    github_id: 1001\n"))
    root = _repository(root)
    monkeypatch.setenv(agekeys.UMPIRE_KEY_ENV, (root / "demo-keys/umpire.key").read_text())
    base = _git(root, "rev-parse", "HEAD")
    _git(root, "checkout", "-q", "-b", "orders")
    sealed = _sealed_orders(root, "nac", run)
    _git(root, "add", sealed)
    _git(root, "commit", "-q", "-m", "Orders")
    head = _git(root, "rev-parse", "HEAD")
    _git(root, "checkout", "-q", "main")
    report = check_pull_request(root, base, head, 1001)
    logs = {"check log": report.text(), "job summary": report.markdown()}
    assert "SHA-256" in logs["check log"]
    assert found(hidden_facts(demo), logs) == []


def test_the_publishing_run_prints_no_hidden_fact(tmp_path, run, monkeypatch):
    """The turn job of publish.yml resolves ftcamp02's open turn from a sealed order
    file, with the umpire's key as the workflow's secret: its log and job summary say
    only public facts, as does every file the run commits."""
    from test_publish_run import checkout, log, publish_to, run_turn_step

    demo = FTCAMP02
    root = demo.sealed_copy(tmp_path / "umpire")
    key = (root / "demo-keys/umpire.key").read_text()
    monkeypatch.setenv(agekeys.UMPIRE_KEY_ENV, key)
    sealed = _sealed_orders(root, "nac", run)
    (root / sealed.removesuffix(".age")).unlink()
    subprocess.run(["git", "-C", str(root), "init", "-q", "-b", "main"], check=True)
    _git(root, "config", "user.name", "Umpire")
    _git(root, "config", "user.email", "umpire@example.org")
    bare = publish_to(tmp_path / "github", root)
    runner = checkout(bare, tmp_path / "runner")
    turn = yaml.safe_load((root / "state/campaign.yaml").read_text())["calendar"]
    done, _outputs, summary = run_turn_step(runner, tmp_path, "2026-12-01T12:00:00+00:00", {
        **_environment(tmp_path), agekeys.UMPIRE_KEY_ENV: key})
    assert done.returncode == 0, done.stderr
    assert len(log(bare)) == 2, done.stdout
    resolved = Demo(checkout(bare, tmp_path / "after"), demo.now)
    assert (resolved.root / f"state/turns/t{turn['turn']:03d}/events.yaml.age").is_file()
    facts = hidden_facts(resolved)
    assert len(facts) >= AT_LEAST["ftcamp02"]
    assert found(facts, {"log": done.stdout + done.stderr, "job summary": summary}) == []
    assert in_tracked(facts, tracked(resolved.root)) == []


def _environment(tmp_path: Path) -> dict[str, str]:
    from test_publish_run import ftpress_here

    return ftpress_here(tmp_path)
