"""Twins: in a sealed campaign, each file the rules may hide part of is kept twice.

The plain file (``state/groups.yaml``, ``state/turns/t004/events.yaml`` …) holds
what every player may know, its public projection; its *twin* beside it,
``<file>.age``, holds the whole file, encrypted (age, :mod:`ftpress.secrecy.agekeys`) to
the umpires' recipients in ``state/campaign.yaml``. Every file of these kinds
has its twin in a sealed campaign, so a plain file standing alone, where the
full one should be sealed, is found without a key (:func:`missing_twins`).

Each projection says so in its first lines (:data:`MARK`), so a file is told for
what it is by itself: a whole file written in plain since (by a tool of an open
campaign, or taken from another branch in a merge) is never mistaken for a
projection whose whole is in a twin left from before.

This module is the reading side, the one seam every loader goes through
(:func:`read`): given the umpire's key (:class:`UmpireKey`), a projection is read
from its twin, and a problem in it is told at the twin's path and the line of its
decrypted text (``state/groups.yaml.age:12:3``); without one, the plain file.
What is written, and how each kind of file is projected, is
:mod:`ftpress.secrecy.hidden_state`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ftpress.errors import InputError, InvalidArgument, Problem, RefusedCommand
from ftpress.files import yamlsource
from ftpress.secrecy import agekeys

#: What a twin's name adds to its plain file's.
TWIN = ".age"
#: How a projection's text begins (after the schema line, if any): a YAML comment.
MARK = b"# the public projection: the whole file is sealed to the umpires in "


def marked(name: str, text: bytes) -> bytes:
    """``text`` (a projection) with its mark, after its schema line if it has one."""
    mark = MARK + f"{name}{TWIN}\n".encode()
    if text.startswith(b"# yaml-language-server:"):
        first, _, rest = text.partition(b"\n")
        return first + b"\n" + mark + rest
    return mark + text


def is_projection(root: Path, rel: str) -> bool:
    """Does the plain file ``rel`` say it is a projection (:data:`MARK`)?"""
    try:
        with (root / rel).open("rb") as file:
            head = file.read(512)
    except OSError:
        return False
    return any(line.startswith(MARK) for line in head.split(b"\n")[:2])
#: The files of a record folder that have twins, besides the state files (each
#: state file of a record, and of its ``before/``, has one too).
RECORD_TWINS = ("dice.yaml", "events.yaml")


@dataclass(frozen=True, slots=True)
class UmpireKey:
    """The umpire's identities, and where they were found (for messages)."""

    identities: tuple[agekeys.Identity, ...]
    source: str


def twin(rel: str) -> str:
    """``state/groups.yaml`` → ``state/groups.yaml.age``."""
    return rel + TWIN


def read(root: Path, rel: str, key: UmpireKey | None) -> tuple[bytes, str]:
    """The bytes of ``rel`` as the reader may know them, and the path a problem in
    them is told at: with ``key``, a projection's twin, opened; else the plain file.
    Raises :class:`InputError` naming the twin if it is missing or will not open."""
    if key is not None and is_projection(root, rel):
        if not (root / twin(rel)).is_file():
            raise InputError(missing_twins(root, [rel]))
        return open_twin(root, twin(rel), key), twin(rel)
    return yamlsource.read_bytes(root / rel, rel), rel


def open_twin(root: Path, rel: str, key: UmpireKey) -> bytes:
    """The decrypted text of the twin ``rel``; raises naming it."""
    data = yamlsource.read_bytes(root / rel, rel)
    try:
        plain = agekeys.decrypt(data, key.identities)
    except agekeys.Unreadable as exc:
        raise InputError([Problem(rel, 0, 0, f"{exc} ({key.source}); expected the full file, "
                                  "sealed to the umpires' recipients in state/campaign.yaml "
                                  "('ftpress keys seal-campaign' writes it)")]) from None
    if len(plain) > yamlsource.MAX_BYTES:
        raise InputError([Problem(rel, 0, 0, f"opens to {len(plain):,} bytes; a state file "
                                  f"may be at most {yamlsource.MAX_BYTES:,}")])
    return plain


def plain_campaign(root: Path) -> dict[str, Any] | None:
    """``state/campaign.yaml`` as parsed, or None where it does not read (the load says
    why)."""
    rel = "state/campaign.yaml"
    if not (root / rel).is_file():
        return None
    try:
        data = yamlsource.parse(yamlsource.read_text(root / rel, rel), rel)
    except InputError:
        return None
    return data if isinstance(data, dict) else None


def umpire_key(root: Path, identity: Path | None = None,
               environ: Mapping[str, str] | None = None) -> UmpireKey | None:
    """The umpire's key: ``identity`` if given, else ``$FTPRESS_UMPIRE_KEY``, else the
    git-ignored key file; None when there is none."""
    found = agekeys.umpire_identity(root, environ, identity)
    return UmpireKey(tuple(found[0]), found[1]) if found is not None else None


def needed_key(root: Path, why: str, identity: Path | None = None,
               environ: Mapping[str, str] | None = None) -> UmpireKey:
    """The umpire's key, for a command that cannot do without it (``why``: what it is
    for); refused when there is none, or when it answers to none of the
    ``umpire_recipients`` the plain ``state/campaign.yaml`` lists."""
    key = umpire_key(root, identity, environ)
    listed = (plain_campaign(root) or {}).get("umpire_recipients")
    recipients = [r for r in listed if isinstance(r, str)] if isinstance(listed, list) else []
    usable = [r for r in recipients if agekeys.recipient_problem(r) is None]
    if key is None:
        raise RefusedCommand(f"this campaign is sealed: {why} needs the umpire's key; give "
                             f"--identity FILE, set ${agekeys.UMPIRE_KEY_ENV}, or keep it in "
                             f"{agekeys.UMPIRE_KEY_FILE}{_kept_key(root, usable)}; nothing was "
                             "done")
    if usable and not any(agekeys.answers(key.identities, r) for r in usable):
        raise RefusedCommand(f"{key.source}: this key answers to none of the umpire_recipients "
                             "in state/campaign.yaml, so it cannot open the sealed files; "
                             f"expected the umpire's key{_kept_key(root, usable)} (if it is "
                             "lost, see 'Rotating the umpire key' in the README); nothing was "
                             "done")
    return key


#: Where ``keys rotate`` keeps the keys it replaced.
OLD_KEY_FILE = f"{agekeys.UMPIRE_KEY_FILE}.old"


def _kept_key(root: Path, recipients: list[str]) -> str:
    """Where the key that opens the campaign is kept, if an interrupted rotation left
    it beside the key file: words to add to a refusal; empty where there is none."""
    path = root / OLD_KEY_FILE
    if not path.is_file() or path.is_symlink():
        return ""
    try:
        identities = agekeys.read_identity(path)
    except InvalidArgument:
        return ""
    if recipients and not any(agekeys.answers(identities, r) for r in recipients):
        return ""
    return (f"; {OLD_KEY_FILE} opens it (a 'keys rotate' cut short kept it there): give "
            f"--identity {OLD_KEY_FILE}, or run 'ftpress keys rotate --identity "
            f"{OLD_KEY_FILE}' to finish the rotation")


def missing_twins(root: Path, rels: list[str]) -> list[Problem]:
    """The plain files of ``rels`` that stand without their twin, in a sealed campaign:
    the full file must be sealed, not committed in plain."""
    return [Problem(rel, 0, 0, f"has no sealed twin {twin(rel)}; in a sealed campaign the "
                    "full file is kept only sealed to the umpires, and this one holds the "
                    "public part: run 'ftpress keys seal-campaign' with the umpire's key")
            for rel in rels if (root / rel).is_file() and not (root / twin(rel)).is_file()]
