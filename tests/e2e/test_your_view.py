"""A player with only a browser plays a sealed ftc2007 campaign's set-up turn and the
week after it, through the site's "Your view" page: makes a key in the page, sends the
recipient to the umpire, opens their report, writes and seals their orders in the page.
The sealed file the page makes (ASCII-armored age) passes the pull-request check and is
folded into the turn as one sealed by ``ftpress orders seal``: both hold the same
plain file, and the turns they resolve are the same file for file (the sealed bytes
differ by age's randomness, so the files are compared opened). The page adds up a
set-up's sums and will not seal one over budget. The next report shows what came of
it. Screenshots of each step at 390 and 1280 px go to test-artifacts/.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml

from ftpress.cli import main
from ftpress.secrecy import agekeys
from tests.e2e.conftest import served

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

NOW = "2026-03-01T10:00:00+00:00"
AFTER_T001 = "2026-03-08T21:00:00+00:00"
AFTER_T002 = "2026-03-15T21:00:00+00:00"
NAC_ID = 101


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                          text=True).stdout


def _ftpress(*args: str | Path) -> None:
    assert main([str(a) for a in args]) == 0, args


def _state(root: Path, kind: str) -> dict:
    return yaml.safe_load((root / f"state/{kind}.yaml").read_text())


def _build(root: Path, now: str) -> None:
    _ftpress("build", "--source", root, "--now", now, "--out", root.parent / "site")


def _send(root: Path, rel: str, armored: str, now: str) -> None:
    """The player's pull request, as GitHub's web editor makes it: the one file, on a
    branch; checked by check-pr, then merged."""
    base = _git(root, "rev-parse", "HEAD").strip()
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text(armored)
    _git(root, "add", rel)
    _git(root, "commit", "-q", "-m", f"orders: {rel}")
    head = _git(root, "rev-parse", "HEAD").strip()
    _ftpress("check-pr", "--source", root, "--base", base, "--head", head, "--author-id",
             str(NAC_ID), "--now", now)


def _plaintext(root: Path) -> dict[str, bytes]:
    """Every file of the campaign's state and orders as the umpire reads it: each
    sealed file opened (age's randomness makes sealed bytes differ; what they hold
    must not), each plain one as it is; but what a sealed turn records of the sealed
    files' bytes, which differ by that randomness alone: the players' receipts (the
    digests of their sealed order files), the orders' digest made of them and the
    dice stream's name that begins with it, and the list of the record's sealed
    files' digests (``SHA256SUMS``). (A sealed turn's dice are keyed by the
    receipts, so two sealings of one file draw different dice: the set-up turn
    compared here rolls none.)"""
    identities = agekeys.umpire_identity(root)
    assert identities is not None
    found = {}
    for path in sorted((*root.glob("state/**/*"), *root.glob("orders/**/*"))):
        if not path.is_file() or path.name == "SHA256SUMS":
            continue
        rel = path.relative_to(root).as_posix()
        data = agekeys.decrypt(path.read_bytes(), identities[0]) \
            if rel.endswith(".age") else path.read_bytes()
        if rel.startswith("state/turns/") and "/turn.yaml" in rel:
            data = re.sub(rb"\norders_sha256: [0-9a-f]{64}\n", b"\n", data)
            data = re.sub(rb"\nreceipts:\n(  [a-z0-9-]+: [0-9a-f]{64}\n)+", b"\n", data)
        if b"source: 'keyed stream:" in data:
            assert b"\nrolls: []\n" in data
            data = re.sub(rb", orders [0-9a-f]{16}", b"", data)
        found[rel] = data
    return found


def _resolve(root: Path, now: str, turn: str) -> None:
    _ftpress("turn", "--source", root, "--now", now)
    _ftpress("turn", "--verify", turn, "--source", root)
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", f"resolve {turn}")


def test_a_player_with_only_a_browser(tmp_path, watched):
    page, width = watched.page, watched.width
    root = tmp_path / "camp"
    _ftpress("init", root, "--player", f"nac:alice:{NAC_ID}", "--player", "esu:bob:102",
             "--repository", "owner/camp", "--secrecy", "sealed", "--seed", "42", "--now", NOW)
    _git(root, "config", "user.name", "Umpire")
    _git(root, "config", "user.email", "umpire@example.org")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "The campaign")
    _build(root, NOW)
    site = tmp_path / "site"
    with served(site, "/camp/") as url:
        # 1. No key yet: the page makes one, and shows the recipient to send.
        page.goto(f"{url}you/")
        assert page.locator("#yv-banner").is_hidden()
        page.click("summary")
        page.click("#yv-make")
        recipient = page.input_value("#yv-made-recipient")
        assert recipient.startswith("age1")
        assert page.input_value("#yv-made-secret").startswith("AGE-SECRET-KEY-1")
        watched.shot(f"your-view-1-key-made-{width}")
        # The umpire records it; the site is built again with nac's report sealed to it.
        _ftpress("roster", "key", "nac", recipient, "--source", root)
        _git(root, "add", "-A")
        _git(root, "commit", "-q", "-m", "nac's key")
        _build(root, NOW)
        # 2. The key, kept on the device as asked, opens the report of the set-up.
        page.check("#yv-remember")
        page.click("#yv-unlock button[type=submit]")
        page.wait_for_selector("#yv-banner:not([hidden])")
        banner = page.inner_text("#yv-banner")
        assert "Your view: New Anglian Confederation (nac), after t000." in banner
        assert page.inner_text("#yv-refused") .startswith("Refused orders")
        assert "not in yet" in page.inner_text("#yv-sent")
        assert page.locator("button[data-kind=counter]").is_visible()
        watched.shot(f"your-view-2-setup-opened-{width}")
        # 3. The set-up composed from the choices ftpress computed: a counter with a
        # battleship at the capital, a dummy at another world. Another power's world is
        # not offered. The page writes the file from them, and seals it.
        players = {p["id"]: p for p in _state(root, "players")["players"]}
        capital, theirs = players["nac"]["capital"], players["esu"]["capital"]
        other = next(s["id"] for s in _state(root, "map")["systems"]
                     if s.get("owner") == "nac" and s["id"] != capital)
        page.click("button[data-kind=counter]")
        worlds = page.locator("#yv-item-0-world option").all_inner_texts()
        assert not [w for w in worlds if f"({theirs}" in w], worlds
        page.select_option("#yv-item-0-world", label=next(w for w in worlds
                                                        if f"({capital}," in w))
        page.select_option("#yv-item-0-design", label=next(
            d for d in page.locator("#yv-item-0-design option").all_inner_texts()
            if "(nac-victoria," in d))
        page.fill("#yv-item-0-name", "Victoria")
        page.click("button[data-kind=dummy]")
        page.select_option("#yv-item-1-world", label=next(
            w for w in worlds if f"({other}" in w))
        written = page.input_value("#yv-order-text")
        assert ("setup:\n  groups:\n    nac-1:\n      at: " + capital + "\n      ships:\n"
                '        - {design: nac-victoria, name: "Victoria"}\n'
                f"    nac-2: {{at: {other}, dummy: true}}\n  spares: []\n") in written
        assert page.inner_text("#yv-over") == ""
        sums = page.inner_text("#yv-sums")
        assert "Spent of the starting capital" in sums and "within" in sums, sums
        watched.shot(f"your-view-3-setup-composed-{width}")
        # One the form must not allow: spares past the starting capital. The page adds
        # up the prices ftpress gave it, says so, and does not seal.
        page.click("button[data-kind=spares]")
        page.fill("#yv-item-2-points", "99999")
        over = page.inner_text("#yv-over")
        assert "Over a limit" in over and "Spent of the starting capital" in over, over
        page.click("#yv-compose button[type=submit]")
        assert page.locator("#yv-sealed").is_hidden()
        watched.shot(f"your-view-3-setup-over-{width}")
        page.locator("#yv-item-2-points").locator("xpath=..").locator(
            "xpath=following-sibling::button").click()
        assert page.inner_text("#yv-over") == ""
        assert page.input_value("#yv-order-text") == written
        page.click("#yv-compose button[type=submit]")
        page.wait_for_selector("#yv-sealed:not([hidden])")
        armored = page.input_value("#yv-sealed-text")
        assert armored.startswith("-----BEGIN AGE ENCRYPTED FILE-----")
        link = urlsplit(page.get_attribute("#yv-github", "href"))
        assert (link.netloc, link.path) == ("github.com", "/owner/camp/new/main")
        query = parse_qs(link.query)
        assert query["filename"] == ["orders/t001/nac.yaml.age"]
        assert query["value"] == [armored]
        watched.shot(f"your-view-3-setup-sealed-{width}")
        # The page's sealed file holds, byte for byte, the file the page wrote, and
        # what 'ftpress orders seal' seals from that file.
        key = tmp_path / "nac.key"
        key.write_text(page.input_value("#yv-made-secret") + "\n")
        mine = agekeys.parse_identities(key.read_text(), str(key))
        from_page = agekeys.decrypt(armored.encode(), mine)
        assert from_page == written.encode()
        # Padded as every sealed file is: its size says nothing of its orders.
        whole = agekeys.age_decrypt(agekeys.dearmored(armored.encode()), mine)
        assert whole == agekeys.pad(from_page)
        twin = tmp_path / "camp-cli"
        shutil.copytree(root, twin)
        (twin / "orders/t001").mkdir(parents=True, exist_ok=True)
        (twin / "orders/t001/nac.yaml").write_bytes(from_page)
        _ftpress("orders", "seal", twin / "orders/t001/nac.yaml", "--identity", key,
                 "--source", twin)
        (twin / "orders/t001/nac.yaml").unlink(missing_ok=True)
        by_cli = (twin / "orders/t001/nac.yaml.age").read_bytes()
        assert agekeys.decrypt(by_cli, mine) == from_page
        # 4. The pull request: checked with no key, merged; the turn folds it in, as
        # it folds in the file the CLI sealed: the same turn, file for file.
        _send(root, "orders/t001/nac.yaml.age", armored, NOW)
        _git(twin, "add", "-A")
        _git(twin, "commit", "-q", "-m", "orders sealed with the CLI")
        _resolve(root, AFTER_T001, "t001")
        _resolve(twin, AFTER_T001, "t001")
        assert _plaintext(root) == _plaintext(twin)
        events = yaml.safe_load((root / "state/turns/t001/events.yaml").read_text())["events"]
        assert any(e["kind"] == "setup-group" for e in events)  # the public learns a counter
        _build(root, AFTER_T001)
        # 5. The next report: nac-1 with its battleship, by id.
        page.reload()
        page.click("#yv-unlock button[type=submit]")
        page.wait_for_selector("#yv-banner:not([hidden])")
        assert "after t001." in page.inner_text("#yv-banner")
        groups = page.inner_text("#yv-groups")
        assert "nac-1" in groups and "Victoria (nac-victoria, BB)" in groups
        watched.shot(f"your-view-4-t001-report-{width}")
        # 6. The week's orders from the form of legal choices: a world out of reach is
        # not offered; a jump is, with its posture. Sealed, sent, and resolved.
        assert "  nac-1:\n    hold: true" in page.input_value("#yv-order-text")
        # The form's boxes come in the order of the player's groups; nac-1's is the one
        # its legend names.
        box = page.locator("#yv-choices fieldset").filter(
            has=page.locator("legend", has_text=re.compile(r"^nac-1$")))
        n = (box.locator("select[id^='yv-order-']").get_attribute("id") or "").split("-")[-1]
        labels = page.locator(f"#yv-order-{n} option").all_inner_texts()
        theirs = next(p["capital"] for p in _state(root, "players")["players"]
                      if p["id"] == "esu")
        assert not [label for label in labels if f"({theirs})" in label], labels
        jump = next(label for label in labels if label.endswith("by a jump"))
        world = jump.split("(")[1].split(")")[0]
        page.select_option(f"#yv-order-{n}", label=jump)
        page.select_option(f"#yv-posture-{n}", label="stand-off")
        written = page.input_value("#yv-order-text")
        assert f"  nac-1:\n    move: {world}\n    posture: stand-off\n" in written
        said = page.inner_text("#yv-words")  # in ftpress check's words, for that posture
        assert "nac-1 (1 ship) jumps from" in said and "arriving to stand off" in said, said
        watched.shot(f"your-view-5-t002-composed-{width}")
        page.click("#yv-compose button[type=submit]")
        page.wait_for_selector("#yv-sealed:not([hidden])")
        _send(root, "orders/t002/nac.yaml.age", page.input_value("#yv-sealed-text"), AFTER_T001)
        _build(root, AFTER_T001)
        page.reload()
        page.click("#yv-unlock button[type=submit]")
        page.wait_for_selector("#yv-banner:not([hidden])")
        assert "are in" in page.inner_text("#yv-sent")
        watched.shot(f"your-view-6-t002-sent-{width}")
        _resolve(root, AFTER_T002, "t002")
        _build(root, AFTER_T002)
        page.reload()
        page.click("#yv-unlock button[type=submit]")
        page.wait_for_selector("#yv-banner:not([hidden])")
        assert "after t002." in page.inner_text("#yv-banner")
        rows = page.locator("#yv-groups tbody tr").all_inner_texts()
        row = next(r for r in rows if r.startswith("nac-1"))
        assert world.capitalize() in row, row
        watched.shot(f"your-view-7-t002-report-{width}")
    assert watched.problems == [], watched.problems
