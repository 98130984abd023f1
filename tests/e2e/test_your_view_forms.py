"""The "Your view" order form of the rulesets beside ftc2007's set-up and moves, in
Chromium: sct's task forces and ftcamp02's groups, each with several ships split off
together and a merge (§2.1 phase 9; §4.2.2), and an sct ship screening another
(§6.6). The page offers a ship's leaving only with the orders ftpress's check accepted
it with and never lets the last ship leave, offers a screened ship nothing else,
leaves a group another takes in out of the file, seals what it wrote (padded, to the
umpires and the player), and the player's own check of the sealed file finds no
problem. Screenshots at 390 and 1280 px go to test-artifacts/.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pyrage
import pytest

from ftpress.cli import main
from ftpress.secrecy import agekeys
from tests.e2e.conftest import served

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

NOW = "2026-03-01T10:00:00+00:00"


def _ftpress(*args: str | Path) -> None:
    assert main([str(a) for a in args]) == 0, args


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def _campaign(tmp_path: Path, ruleset: str) -> tuple[Path, Path, str]:
    """A sealed campaign of ``ruleset`` whose player nac has a key; its site built."""
    root = tmp_path / "camp"
    _ftpress("init", root, "--ruleset", ruleset, "--player", "nac:alice:101", "--player",
             "esu:bob:102", "--repository", "owner/camp", "--secrecy", "sealed", "--seed",
             "7", "--now", NOW)
    identity = pyrage.x25519.Identity.generate()
    key = tmp_path / "nac.key"
    key.write_text(f"{identity}\n")
    _ftpress("roster", "key", "nac", str(identity.to_public()), "--source", root)
    _git(root, "add", "-A")
    _git(root, "-c", "user.name=Umpire", "-c", "user.email=u@example.org", "commit", "-q",
         "-m", "The campaign")
    _ftpress("build", "--source", root, "--now", NOW, "--out", tmp_path / "site")
    return root, key, str(identity)


def _options(page, select: str) -> list[tuple[str, bool]]:
    return page.eval_on_selector_all(f"{select} option",
                                     "os => os.map(o => [o.textContent, o.disabled])")


@pytest.mark.parametrize("ruleset", ["sct", "ftcamp02"])
def test_a_split_and_a_merge_composed_in_the_page(tmp_path, watched, ruleset):
    page, width = watched.page, watched.width
    root, key, secret = _campaign(tmp_path, ruleset)
    with served(tmp_path / "site", "/camp/") as url:
        page.goto(f"{url}you/")
        page.fill("#yv-identity", secret)
        page.click("#yv-unlock button[type=submit]")
        page.wait_for_selector("#yv-banner:not([hidden])")
        assert page.locator("#yv-choices").is_visible()
        groups = page.locator("#yv-choice-groups fieldset.yv-group").count()
        assert groups
        # The first group whose ships may split off: a table of them, a ship's leaving
        # offered only with the orders the check accepted it with (ftcamp02: a
        # reorganising hold); all but one leave together, and the last may not.
        tables = page.eval_on_selector_all(
            "#yv-choice-groups fieldset.yv-table",
            "fs => fs.map(f => [f.querySelector('legend').textContent,"
            " Array.from(f.querySelectorAll('select'), s => s.id)])")
        legend, ids = next((legend, ids) for legend, ids in tables
                           if legend.startswith("Split off as "))
        index = int(ids[0].split("-")[2])
        new_id = legend.split()[3]
        orders = [t for t, _ in _options(page, f"#yv-order-{index}")]
        if ruleset == "ftcamp02":
            assert _options(page, f"#{ids[0]}")[1][1]  # not with Hold-Nothing
            page.select_option(f"#yv-order-{index}", label=next(
                t for t in orders if t.startswith("hold: reorganise")))
        assert not _options(page, f"#{ids[0]}")[1][1]
        for select in ids[:-1]:
            page.select_option(f"#{select}", value="1")
        assert _options(page, f"#{ids[-1]}")[1][1]  # one ship stays
        written = page.input_value("#yv-order-text")
        line = next(x for x in written.splitlines() if x.startswith("    split: "))
        assert line.startswith(f"    split: {{{new_id}: [") and line.count('"') == 2 * (
            len(ids) - 1), written
        said = page.inner_text("#yv-words")
        assert new_id in said, said
        if ruleset == "sct":
            # §6.6: a ship screens another of its force; the one screened may screen a
            # third in turn, never back (no screen loops back), and no ship may join the
            # attack of one that screens (§6.7).
            legend, battle = next((legend, ids) for legend, ids in tables
                                  if legend.startswith("In battle"))
            page.select_option(f"#{battle[0]}", index=1)
            first, second = (dict(_options(page, f"#{b}")) for b in battle[:2])
            (ship,) = {t for t in second if t.startswith("screens ")} - set(first)
            ship = ship.removeprefix("screens ")
            assert second[f"screens {ship}"] and second[f"joins {ship}'s attack"], second
            if len(battle) > 2:  # a third ship: the one screened may screen it
                assert not all(off for t, off in second.items()
                               if t.startswith("screens ")), second
            written = page.input_value("#yv-order-text")
            assert "    screen: {" in written, written
            # §4.1: a whole move on a clock facing, into open space
            page.select_option(f"#yv-order-{index}", label="move 3 MU at 9 o'clock")
            written = page.input_value("#yv-order-text")
            assert "    move: 9/3\n    screen: {" in written and "    split: {" in written, \
                written
        # A merge, where a group stands beside another: the one taken in leaves the file.
        merges = [(i, t) for i in range(groups) if page.locator(f"#yv-extra-{i}").count()
                  for t, off in _options(page, f"#yv-extra-{i}") if t.startswith("merge ")
                  and not off and i != index]
        if merges:
            i, merge = merges[0]
            taken = merge.split()[1]
            page.select_option(f"#yv-extra-{i}", label=merge)
            written = page.input_value("#yv-order-text")
            assert f"    merge: [{taken}]" in written and f"\n  {taken}:" not in written
        watched.shot(f"your-view-{ruleset}-composed-{width}")
        page.click("#yv-compose button[type=submit]")
        page.wait_for_selector("#yv-sealed:not([hidden])")
        armored = page.input_value("#yv-sealed-text")
        watched.shot(f"your-view-{ruleset}-sealed-{width}")
    mine = agekeys.parse_identities(key.read_text(), str(key))
    assert agekeys.decrypt(armored.encode(), mine) == written.encode()
    name = page.inner_text("#yv-sealed-name")
    sealed = root / name
    sealed.parent.mkdir(parents=True, exist_ok=True)
    sealed.write_text(armored)
    # The player's own check of the sealed file, with their key: no problem.
    _ftpress("check", sealed, "--identity", key, "--source", root)
    assert watched.problems == [], watched.problems
