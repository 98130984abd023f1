"""The keyed dice of a turn, and the umpire's secret that keeps them from being ground.

**Dice.** The turn's dice are a keyed stream (:mod:`ftpress.state.dice`) whose key
is made of ``ftpress-turn``, the campaign id, the turn id, the SHA-256 of
every player's orders in canonical form (re-spacing a file changes nothing; in a
sealed campaign, of the players' receipts of their sealed files,
:func:`ftpress.secrecy.sealing.receipts_digest`), and the umpire's secret for the
turn. The secret's SHA-256 is published in ``state/campaign.yaml``
(``calendar.secret_sha256``) when the turn opens and the secret itself is
revealed in the turn's record, so nobody can grind the dice by reshaping their
orders, and anybody can check the dice afterwards.

**Where the secret lives before it is revealed.** The umpire keeps one master
secret, never committed: in the environment variable ``FTPRESS_UMPIRE_SECRET``
(a repository secret of the publishing workflow) or in the git-ignored file
``.ftpress-secret`` at the campaign's root. Each turn's secret is
``HMAC-SHA256(master, "ftpress-turn-secret" | campaign id | turn id)`` in hex,
so revealing one turn's secret gives away nothing about the next. A sealed
campaign's turn is refused without the master secret
(:data:`ftpress.store.campaign_store.NO_MASTER`): its hidden rolls would come from
a stream anybody could compute. An open campaign may play without one: the next
turn opens without a secret, its dice depend only on public inputs, and ``ftpress
turn`` says so.

**Hidden rolls.** Once the turn secret is revealed anybody can compute the whole
stream, so a roll the rules keep from the public (``hidden=True``,
:mod:`ftpress.state.dice`) cannot come from it. In a sealed campaign each turn also
has a *hidden secret*, ``HMAC-SHA256(master, "ftpress-turn-hidden-secret" |
campaign id | turn id)`` in hex, committed the same way (its SHA-256 published
as ``calendar.hidden_secret_sha256`` when the turn opens) but revealed only in
the sealed twin of the turn's ``turn.yaml``. The hidden rolls are drawn, in
order, from a second stream keyed ``ftpress-turn-hidden`` | campaign id | turn id
| orders digest | hidden secret; the public stream holds only the public rolls.
A turn that opened without a hidden secret's hash (an open campaign, no master
secret, a turn recorded before hidden streams) draws every roll from the one
stream.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Mapping
from pathlib import Path

from ftpress.state.dice import Dice, KeyedStream, key_from

SECRET_ENV = "FTPRESS_UMPIRE_SECRET"
SECRET_FILE = ".ftpress-secret"
_SECRET_LABEL = "ftpress-turn-secret"
_HIDDEN_SECRET_LABEL = "ftpress-turn-hidden-secret"


def new_master_secret() -> bytes:
    """A new master secret for a campaign: 32 random bytes, in hex (``ftpress init`` and
    ``keys init`` make one where none is given)."""
    return secrets.token_hex(32).encode("ascii")


def master_secret(root: Path, environ: Mapping[str, str] | None = None) -> bytes | None:
    """The umpire's master secret: ``$FTPRESS_UMPIRE_SECRET``, else ``.ftpress-secret``."""
    environ = os.environ if environ is None else environ
    value = environ.get(SECRET_ENV, "").strip()
    if not value and (root / SECRET_FILE).is_file():
        value = (root / SECRET_FILE).read_text(encoding="utf-8").strip()
    return value.encode("utf-8") if value else None


def turn_secret(master: bytes, campaign_id: str, turn: str) -> str:
    """The secret for one turn, derived from the master secret (hex)."""
    return hmac.new(master, key_from(_SECRET_LABEL, campaign_id, turn),
                    hashlib.sha256).hexdigest()


def hidden_secret(master: bytes, campaign_id: str, turn: str) -> str:
    """The secret behind one turn's hidden rolls, derived from the master secret (hex);
    never revealed in plain."""
    return hmac.new(master, key_from(_HIDDEN_SECRET_LABEL, campaign_id, turn),
                    hashlib.sha256).hexdigest()


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def turn_key(campaign_id: str, turn: str, digest: str, secret: str | None) -> bytes:
    """The key of a turn's dice stream (see the module docstring)."""
    return key_from("ftpress-turn", campaign_id, turn, digest, secret or "")


def hidden_key(campaign_id: str, turn: str, digest: str, hidden: str) -> bytes:
    """The key of a turn's hidden stream (see the module docstring)."""
    return key_from("ftpress-turn-hidden", campaign_id, turn, digest, hidden)


def turn_dice(campaign_id: str, turn: str, digest: str, secret: str | None,
              hidden: str | None = None) -> Dice:
    """The keyed dice of a turn: with ``hidden`` (the turn's hidden secret), the hidden
    rolls from their own stream (see the module docstring)."""
    return Dice(KeyedStream(turn_key(campaign_id, turn, digest, secret)),
                KeyedStream(hidden_key(campaign_id, turn, digest, hidden))
                if hidden is not None else None)


def keyed_source(campaign_id: str, turn: str, digest: str) -> str:
    """How ``dice.yaml`` names the keyed stream a turn's dice came from."""
    return f"keyed stream: campaign {campaign_id}, turn {turn}, orders {digest[:16]}…"
