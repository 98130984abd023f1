"""The ftcamp02 example as a sealed campaign of its own, for the tests of secrets and
of what a player knows: an umpire key made afresh (none of the demo's keys), a key for
nac, and nac's plain orders for the open turn ready to seal."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from demos import FTCAMP02
from pyrage import x25519

#: nac's orders for the example's open turn.
ORDERS = "turn: t005\nplayer: nac\ngroups:\n  nac-1:\n    maintain_orbit: true\n"


def sealed_campaign(root: Path, run: Callable[..., Any]) -> tuple[Path, x25519.Identity]:
    """The ftcamp02 example at ``root``, sealed, with an umpire key (in the git-ignored
    key file) and a key for nac (``nac.key``); ``orders/t005/nac.yaml`` plain."""
    FTCAMP02.copy(root)
    for file in (root / "state").rglob("*.yaml"):  # none of the demo's keys
        file.write_text(re.sub(r"(?m)^(umpire_recipients: .*|    recipient: .*)\n", "",
                               file.read_text()))
    campaign = root / "state" / "campaign.yaml"
    campaign.write_text(campaign.read_text().replace(
        "  battles: tabletop\n", "  battles: tabletop\n  secrecy: sealed\n"))
    code, _out, err = run("keys", "init", "--source", root)
    assert (code, err) == (0, ""), err
    nac = x25519.Identity.generate()
    players = root / "state" / "players.yaml"
    players.write_text(players.read_text().replace(
        "    capital: rook\n", f"    capital: rook\n    recipient: {nac.to_public()}\n", 1))
    (root / "nac.key").write_text(f"{nac}\n")
    # A fixed master secret in place of the random one 'keys init' made, so that the
    # hidden rolls are the same every run.
    (root / ".ftpress-secret").write_text("the umpire's master secret of the tests\n")
    code, _out, err = run("keys", "seal-campaign", "--source", root)
    assert (code, err) == (0, ""), err
    (root / "orders" / "t005").mkdir()
    (root / "orders" / "t005" / "nac.yaml").write_text(ORDERS)
    return root, nac
