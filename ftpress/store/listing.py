"""The list of a sealed turn's record: every file the turn wrote into its record folder
with its SHA-256, in ``SHA256SUMS`` beside them, in the format ``sha256sum`` writes.

Nobody without the umpire's key can make a sealed turn again, but anybody can check
that its files are the ones it wrote together: a public event forged in
``events.yaml``, a counter moved in a plain state file, a hidden event rewritten in
``events.yaml.age`` or a player's intelligence sealed again with other words each
change a hash the list holds. The list also holds the hashes of the current state's
files as the turn wrote them (``../../groups.yaml``, beside ``state/turns/<turn>/``):
a plain state file changed while its sealed twin was not is a change by hand, for an
edit of the state between turns (``keys seal-state``, ``roster``) writes both.

The list is made by the store's one recipe, so a command that rewrites a record on
purpose (``keys rotate`` seals every twin again) lists it again, keeping the current
state's lines as the turn wrote them (an edit since writes a twin they do not list,
and ``--verify`` says it cannot check it); what it cannot show,
a whole record rewritten together, the git history shows (``git log --
state/turns/<turn>/``). A turn recorded before records were listed has no list, and
keeps none.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

#: The list's name in the record folder.
LISTING = "SHA256SUMS"
#: How the list names the files of the current state the turn wrote beside its record
#: (``state/``, two folders up from ``state/turns/<turn>/``).
STATE = "../../"
_LINE = re.compile(r"^([0-9a-f]{64})  (\S(?:.*\S)?)$")


def listing(folder: str, files: Mapping[str, bytes]) -> bytes:
    """The list of the files of ``files`` in the record ``folder``, by their path in it,
    then of those of the current state beside it (``../../groups.yaml``)."""
    state = folder.rsplit("/", 2)[0] + "/"
    lines = [f"{hashlib.sha256(data).hexdigest()}  {rel.removeprefix(folder + '/')}\n"
             for rel, data in sorted(files.items())
             if rel.startswith(folder + "/") and rel != f"{folder}/{LISTING}"]
    lines += [f"{hashlib.sha256(data).hexdigest()}  {STATE}{rel.removeprefix(state)}\n"
              for rel, data in sorted(files.items())
              if rel.startswith(state) and "/" not in rel.removeprefix(state)]
    return "".join(lines).encode("utf-8")


def record_lines(data: bytes) -> bytes:
    """A list's lines of the record's own files (those of the current state left out:
    a turn made again, or a twin sealed again, holds other random bytes)."""
    return b"".join(line for line in data.splitlines(keepends=True)
                    if not line.split(b"  ", 1)[-1].startswith(STATE.encode()))


def state_lines(data: bytes) -> bytes:
    """A list's lines of the current state's files."""
    return b"".join(line for line in data.splitlines(keepends=True)
                    if line.split(b"  ", 1)[-1].startswith(STATE.encode()))


@dataclass(frozen=True, slots=True)
class Listed:
    """A record's list, read."""

    #: The SHA-256 of each file of the record, by its path in the record folder.
    record: dict[str, str]
    #: The SHA-256 of each file of the current state the turn wrote, by its name.
    state: dict[str, str]
    #: The lines that are not a file and its hash.
    problems: tuple[str, ...]


def read_listing(root: Path, folder: str) -> Listed | None:
    """The list of the record ``folder``; None where it has none (recorded before
    records were listed)."""
    file = root / folder / LISTING
    if not file.is_file() or file.is_symlink():
        return None
    record: dict[str, str] = {}
    state: dict[str, str] = {}
    problems = []
    for number, line in enumerate(file.read_text("utf-8", "replace").splitlines(), 1):
        match = _LINE.match(line)
        name = match[2].removeprefix(STATE) if match else ""
        if match is None or ".." in name.split("/"):
            problems.append(f"{folder}/{LISTING}:{number}:1: expected '<SHA-256>  <file>', as "
                            "sha256sum writes it")
            continue
        (state if match[2].startswith(STATE) else record)[name] = match[1]
    return Listed(record, state, tuple(problems))


def listing_differences(root: Path, folder: str, listed: Listed) -> list[str]:
    """Every file of the record ``folder`` that is not as its list says (changed,
    missing, or not listed), and every line of the list that is not one."""
    base = root / folder
    shown = f"{folder}/{LISTING}"
    found = list(listed.problems)
    present = {p.relative_to(base).as_posix() for p in base.rglob("*")
               if p.is_file() and not p.is_symlink()} - {LISTING}
    for rel, digest in sorted(listed.record.items()):
        if rel not in present:
            found.append(f"{folder}/{rel}: listed in {shown}, but the record has no such file")
        elif sha256_file(base / rel) != digest:
            found.append(f"{folder}/{rel}: is not the file the turn wrote (its SHA-256 is not "
                         f"the one {shown} lists)")
    found += [f"{folder}/{rel}: the turn did not write this file ({shown} does not list it)"
              for rel in sorted(present - set(listed.record))]
    return found


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
