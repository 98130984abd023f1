"""A week's economic orders composed in the "Your view" page (ftc2007 §5.2, §13.1): a
sealed campaign whose economic turn is one week long, so that the week after the
set-up opens economic turn 2, when reserve cash may be spent (§6.3). The player buys a
ship in the page from the designs and worlds ftpress offered (another navy's designs
and another power's worlds are not among them), sets the maintenance level, declares
the ordnance expended last economic turn (§7.1), sees the money added up, and seals; the file passes the pull request's check and is folded
into the turn exactly as the same file sealed by ``ftpress orders seal`` (the same
turn, file for file); the next
report lists the new ship. Screenshots at 390 and 1280 px go to test-artifacts/.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pyrage
import pytest
import yaml

from ftpress.secrecy import agekeys
from tests.e2e.conftest import ARTIFACTS, served
from tests.e2e.test_your_view import (
    AFTER_T001,
    AFTER_T002,
    NAC_ID,
    NOW,
    _build,
    _ftpress,
    _git,
    _plaintext,
    _resolve,
    _send,
)

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _campaign(tmp_path: Path) -> tuple[Path, Path, str]:
    """A sealed ftc2007 campaign of one-week economic turns, nac keyed, its set-up
    (a battleship at nac's capital) resolved; its site built."""
    root = tmp_path / "camp"
    _ftpress("init", root, "--player", f"nac:alice:{NAC_ID}", "--player", "esu:bob:102",
             "--repository", "owner/camp", "--secrecy", "sealed", "--seed", "42", "--now", NOW)
    _git(root, "config", "user.name", "Umpire")
    _git(root, "config", "user.email", "umpire@example.org")
    identity = pyrage.x25519.Identity.generate()
    key = tmp_path / "nac.key"
    key.write_text(f"{identity}\n")
    _ftpress("roster", "key", "nac", str(identity.to_public()), "--source", root)
    # The umpire makes every week an economic turn's first (the state, edited sealed).
    _ftpress("keys", "edit-state", "--source", root)
    campaign = root / ".ftpress-state/campaign.yaml"
    text = campaign.read_text()
    assert "turns_per_economic_turn: 6" in text
    campaign.write_text(text.replace("turns_per_economic_turn: 6", "turns_per_economic_turn: 1"))
    _ftpress("keys", "seal-state", "--source", root)
    capital = next(p["capital"] for p in yaml.safe_load(
        (root / "state/players.yaml").read_text())["players"] if p["id"] == "nac")
    plain = root / "orders/t001/nac.yaml"
    plain.parent.mkdir(parents=True, exist_ok=True)
    plain.write_text(f"turn: t001\nplayer: nac\nsetup:\n  groups:\n    nac-1:\n      at: {capital}\n"
                     "      ships:\n        - {design: nac-victoria, name: Victoria}\n"
                     "groups: {}\n")
    _ftpress("orders", "seal", plain, "--identity", key, "--source", root)
    plain.unlink(missing_ok=True)
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "The campaign, and nac's set-up")
    _resolve(root, AFTER_T001, "t001")
    _build(root, AFTER_T001)
    return root, key, str(identity)


def test_a_purchase_composed_in_the_page(tmp_path, watched):
    page, width = watched.page, watched.width
    root, key, secret = _campaign(tmp_path)
    players = {p["id"]: p for p in yaml.safe_load(
        (root / "state/players.yaml").read_text())["players"]}
    capital = players["nac"]["capital"]
    theirs = {s["id"] for s in yaml.safe_load((root / "state/map.yaml").read_text())["systems"]
              if s.get("owner") == "esu"}
    with served(tmp_path / "site", "/camp/") as url:
        page.goto(f"{url}you/")
        page.fill("#yv-identity", secret)
        page.click("#yv-unlock button[type=submit]")
        page.wait_for_selector("#yv-banner:not([hidden])")
        assert "after t001." in page.inner_text("#yv-banner")
        assert page.locator("#yv-economy").is_visible()
        page.click("#yv-economy button[data-kind=purchase]")
        designs = page.locator("#yv-item-0-design option").all_inner_texts()
        worlds = page.locator("#yv-item-0-world option").all_inner_texts()
        # Only nac's published designs, only nac's worlds.
        assert designs and all("(nac-" in d for d in designs), designs
        assert not [w for w in worlds if any(f"({t}" in w for t in theirs)], worlds
        design = next(d for d in designs if "(nac-victoria," in d)
        price = int(design.rsplit(", ", 1)[1].rstrip(")").replace(",", ""))
        page.select_option("#yv-item-0-design", label=design)
        page.select_option("#yv-item-0-world", label=next(w for w in worlds
                                                          if f"({capital}," in w))
        page.fill("#yv-item-0-name", "Lexington")
        page.click("#yv-economy button[data-kind=maintenance]")
        page.select_option("#yv-item-1-level", label="reduced")
        written = page.input_value("#yv-order-text")
        assert written.endswith(
            "economy:\n  maintenance: reduced\n  purchases:\n"
            f'    - {{design: nac-victoria, at: {capital}, name: "Lexington"}}\n'), written
        sums = page.inner_text("#yv-sums")
        assert "Spent this week" in sums and f"{price:,}" in sums, sums
        # A second maintenance level the page will not seal: one a turn.
        page.click("#yv-economy button[data-kind=maintenance]")
        assert "Maintenance levels given" in page.inner_text("#yv-over")
        page.click("#yv-compose button[type=submit]")
        assert page.locator("#yv-sealed").is_hidden()
        page.locator("#yv-item-2-level").locator("xpath=..").locator(
            "xpath=following-sibling::button").click()
        assert page.inner_text("#yv-over") == ""
        assert page.input_value("#yv-order-text") == written
        # §7.1: the ordnance expended in economic turn 1, paid at half its build price.
        page.click("#yv-economy button[data-kind=ordnance]")
        page.fill("#yv-item-2-points", "40")
        page.press("#yv-item-2-points", "Tab")
        written = page.input_value("#yv-order-text")
        assert "economy:\n  maintenance: reduced\n  ordnance: 40\n  purchases:\n" in written
        assert f"{price + 20:,}" in page.inner_text("#yv-sums")
        # A prize, a keel to change, damage owed: nac has none, so none is offered.
        offered = page.locator("#yv-economy button[data-kind]").evaluate_all(
            "buttons => buttons.map(b => b.dataset.kind)")
        assert not [k for k in offered if k.startswith("prize-") or k in ("change", "owed")]
        assert "refits" in page.inner_text("#yv-not-offered")
        page.locator("#yv-economy").screenshot(
            path=str(ARTIFACTS / "screenshots" / f"your-view-economy-items-{width}.png"))
        watched.shot(f"your-view-economy-1-composed-{width}")
        page.click("#yv-compose button[type=submit]")
        page.wait_for_selector("#yv-sealed:not([hidden])")
        armored = page.input_value("#yv-sealed-text")
        watched.shot(f"your-view-economy-2-sealed-{width}")
        mine = agekeys.parse_identities(key.read_text(), str(key))
        from_page = agekeys.decrypt(armored.encode(), mine)
        assert from_page == written.encode()
        # The same file sealed with the CLI, in a twin of the campaign.
        twin = tmp_path / "camp-cli"
        shutil.copytree(root, twin)
        (twin / "orders/t002/nac.yaml").parent.mkdir(parents=True, exist_ok=True)
        (twin / "orders/t002/nac.yaml").write_bytes(from_page)
        _ftpress("orders", "seal", twin / "orders/t002/nac.yaml", "--identity", key,
                 "--source", twin)
        (twin / "orders/t002/nac.yaml").unlink(missing_ok=True)
        _git(twin, "add", "-A")
        _git(twin, "commit", "-q", "-m", "orders sealed with the CLI")
        _send(root, "orders/t002/nac.yaml.age", armored, AFTER_T001)
        _resolve(root, AFTER_T002, "t002")
        _resolve(twin, AFTER_T002, "t002")
        # The same turn, file for file once opened (this week rolls no dice, which are
        # keyed by the sealed bytes).
        assert _plaintext(root) == _plaintext(twin)
        told = yaml.safe_load(_plaintext(root)["state/turns/t002/events.yaml.age"])["events"]
        bought = [e for e in told if "Lexington" in e.get("text", "")]
        assert any(e.get("amount") == -price for e in bought), bought
        assert any("ordnance worth 40" in e.get("text", "") for e in told), told
        _build(root, AFTER_T002)
        page.reload()
        page.fill("#yv-identity", secret)
        page.click("#yv-unlock button[type=submit]")
        page.wait_for_selector("#yv-banner:not([hidden])")
        assert "after t002." in page.inner_text("#yv-banner")
        assert re.search(r"Lexington \(nac-victoria", page.inner_text("#yv-groups"))
        watched.shot(f"your-view-economy-3-t002-report-{width}")
    assert watched.problems == [], watched.problems
