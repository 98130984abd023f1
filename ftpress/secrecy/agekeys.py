"""Keys and files in the age format (https://age-encryption.org/v1), through pyrage.

age is a small, standard file-encryption format: a file is encrypted to one or
more *recipients* (public keys) and read with any one matching *identity*
(secret key). pyrage is age's Rust implementation for Python, so a file
ftpress writes is read by the ``age`` command line tool as well, and a player
can use the SSH key GitHub already shows for them (``ssh-ed25519 …`` or
``ssh-rsa …``) instead of making an age key.

Three kinds of text reach this module, and each has its own check:

- a recipient (``age1…`` or an SSH public key line), in ``state/``:
  :func:`recipient_problem`;
- an identity: the umpire's, from ``$FTPRESS_UMPIRE_KEY`` or the git-ignored
  key file, or a player's ``--identity FILE`` (age secret keys, or an OpenSSH
  private key without a passphrase): :func:`read_identity`;
- a sealed file: :func:`header` reads its recipient stanzas without any key
  (what the pull-request check may know), :func:`decrypt` opens it. Either reads
  the binary format and the ASCII-armored one (``-----BEGIN AGE ENCRYPTED
  FILE-----``, what a browser seals and a web form can carry): :func:`dearmored`.

**Fixed sizes.** age hides a file's words but not its length: its payload is
exactly as long as the plaintext plus a fixed overhead. So every file ftpress
seals is padded first (:func:`pad`) to a size bucket: 4 KiB, or the next power
of two above it (8, 16, 32 KiB…), and a size tells no more than the bucket.
The padding is a YAML comment (a marker line, then a line of spaces), so a
player who opens a sealed file with the ``age`` tool reads the same YAML;
:func:`decrypt` takes it off again, and a file sealed before padding (none
there) opens as it is.
"""

from __future__ import annotations

import base64
import hashlib
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeAlias

import pyrage
from pyrage import ssh, x25519

from ftpress.errors import InvalidArgument

#: The environment variable holding the umpire's identity (a repository secret of
#: the workflows that resolve turns and build the umpire's view).
UMPIRE_KEY_ENV = "FTPRESS_UMPIRE_KEY"
#: Where ``ftpress keys init`` writes the umpire's identity: git-ignored, never committed.
UMPIRE_KEY_FILE = ".ftpress-umpire-key"
#: The first line of every age file.
MAGIC = b"age-encryption.org/v1\n"
#: The first and last lines of an ASCII-armored age file (age's spec, "ASCII armor":
#: strict PEM, base64 lines of 64 characters).
ARMOR_BEGIN = b"-----BEGIN AGE ENCRYPTED FILE-----"
ARMOR_END = b"-----END AGE ENCRYPTED FILE-----"
#: How long a stanza's header may be, in bytes, before we stop looking for its end:
#: an age header is a few hundred bytes per recipient.
_MAX_HEADER = 64 * 1024

Recipient: TypeAlias = "x25519.Recipient | ssh.Recipient"
Identity: TypeAlias = "x25519.Identity | ssh.Identity"
_SSH_TYPES = ("ssh-ed25519", "ssh-rsa")


def recipient_problem(text: str) -> str | None:
    """What is wrong with ``text`` as a recipient, or None when age can encrypt to it."""
    try:
        parse_recipient(text)
    except (pyrage.RecipientError, ValueError) as exc:
        return (f"not a public key age can encrypt to ({exc}); expected an age recipient "
                "('age1…', from 'ftpress keys init' or age-keygen) or an SSH public key "
                "('ssh-ed25519 AAAA…' or 'ssh-rsa AAAA…', as GitHub shows at "
                "https://github.com/<login>.keys)")
    return None


def parse_recipient(text: str) -> Recipient:
    """The recipient ``text`` names; raises pyrage's RecipientError (or ValueError)."""
    text = text.strip()
    if text.startswith(_SSH_TYPES):
        return ssh.Recipient.from_str(text)
    if text.startswith("age1"):
        return x25519.Recipient.from_str(text)
    raise ValueError("it starts with neither 'age1' nor 'ssh-ed25519'/'ssh-rsa'")


def recipients(texts: Sequence[str]) -> list[Recipient]:
    """Recipients already checked by the state's model (:func:`recipient_problem`)."""
    return [parse_recipient(text) for text in texts]


@dataclass(frozen=True, slots=True)
class NewIdentity:
    """A freshly made x25519 identity: its secret, and the recipient it answers to."""

    secret: str
    public: str

    def file_text(self, now: datetime) -> str:
        """The key file as age-keygen writes one, so ``age -d -i FILE`` reads it."""
        return (f"# created: {now.astimezone(UTC).isoformat(timespec='seconds')}\n"
                f"# public key: {self.public}\n{self.secret}\n")


def new_identity() -> NewIdentity:
    identity = x25519.Identity.generate()
    return NewIdentity(str(identity), str(identity.to_public()))


def parse_identities(text: str, source: str) -> list[Identity]:
    """The identities in ``text`` (age secret keys, one a line, ``#`` comments; or an
    OpenSSH private key); raises :class:`InvalidArgument` naming ``source``."""
    if "PRIVATE KEY-----" in text:
        try:
            return [ssh.Identity.from_buffer(text.encode("utf-8"))]
        except pyrage.IdentityError as exc:
            raise InvalidArgument(f"{source}: not an SSH private key age can use ({exc}); "
                                  "expected an OpenSSH ed25519 or RSA key without a "
                                  "passphrase") from None
    found: list[Identity] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            found.append(x25519.Identity.from_str(line))
        except pyrage.IdentityError:
            raise InvalidArgument(f"{source}:{number}: not an age secret key; expected a line "
                                  "'AGE-SECRET-KEY-1…' as 'ftpress keys init' or age-keygen "
                                  "writes it") from None
    if not found:
        raise InvalidArgument(f"{source}: holds no secret key; expected a line "
                              "'AGE-SECRET-KEY-1…' or an OpenSSH private key")
    return found


def read_identity(path: Path) -> list[Identity]:
    """``--identity FILE``: the identities in it; raises naming the file."""
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise InvalidArgument(f"{path}: no such identity file; expected the file holding "
                              "your age secret key or SSH private key") from None
    except (UnicodeDecodeError, IsADirectoryError, PermissionError) as exc:
        raise InvalidArgument(f"{path}: cannot be read as an identity file ({exc})") from None
    return parse_identities(text, str(path))


def umpire_identity(root: Path, environ: Mapping[str, str] | None = None,
                    path: Path | None = None) -> tuple[list[Identity], str] | None:
    """The umpire's identities and where they came from: ``path`` if given, else
    ``$FTPRESS_UMPIRE_KEY``, else the key file at the root; None when there is none."""
    env = os.environ if environ is None else environ
    if path is not None:
        return read_identity(path), str(path)
    if env.get(UMPIRE_KEY_ENV):
        return parse_identities(env[UMPIRE_KEY_ENV], f"${UMPIRE_KEY_ENV}"), f"${UMPIRE_KEY_ENV}"
    file = root / UMPIRE_KEY_FILE
    if file.is_file():
        return read_identity(file), UMPIRE_KEY_FILE
    return None


#: The smallest size a sealed plaintext is padded to; larger ones go to the next
#: power of two.
MIN_BUCKET = 4 * 1024
#: Where the padding starts: a YAML comment line, then a comment of spaces.
PAD_MARK = (b"\n# padding: ftpress seals every file at a fixed size "
            b"(README, Playing with secrets)\n#")


def bucket(size: int) -> int:
    """The padded size of a plaintext of ``size`` bytes (padding included)."""
    padded = MIN_BUCKET
    while padded < size:
        padded *= 2
    return padded


def pad(data: bytes) -> bytes:
    """``data`` padded to its bucket: ``data``, :data:`PAD_MARK`, spaces, a newline."""
    least = len(data) + len(PAD_MARK) + 1
    return data + PAD_MARK + b" " * (bucket(least) - least) + b"\n"


def unpad(data: bytes) -> bytes:
    """``data`` without the padding :func:`pad` added; as it is when it has none (a
    file sealed before padding, or by another tool)."""
    at = data.rfind(PAD_MARK)
    if at < 0 or not data.endswith(b"\n") or data[at + len(PAD_MARK):-1].strip(b" "):
        return data
    return data[:at]


def age_encrypt(data: bytes, to: Sequence[Recipient]) -> bytes:
    """age itself: ``data`` encrypted to ``to``, as it is."""
    sealed: bytes = pyrage.encrypt(data, list(to))
    return sealed


def age_decrypt(data: bytes, identities: Sequence[Identity]) -> bytes:
    """age itself: ``data`` (binary) decrypted; raises pyrage's DecryptError."""
    opened: bytes = pyrage.decrypt(data, list(identities))
    return opened


def encrypt(data: bytes, to: Sequence[Recipient]) -> bytes:
    """``data`` padded (:func:`pad`) and sealed to every one of ``to`` (binary age, no
    passphrase)."""
    return age_encrypt(pad(data), to)


class Unreadable(Exception):
    """A sealed file that cannot be opened; the message says why, for a person."""


def decrypt(data: bytes, identities: Sequence[Identity]) -> bytes:
    """``data`` opened with any of ``identities`` and its padding taken off; raises
    :class:`Unreadable`."""
    problem = header_problem(data)
    if problem is not None:
        raise Unreadable(problem)
    try:
        return unpad(age_decrypt(dearmored(data), identities))
    except pyrage.DecryptError as exc:
        if "No matching keys" in str(exc):
            raise Unreadable("is not sealed to this key (no recipient stanza matches it)"
                             ) from None
        # pyrage's words differ by where the damage is; the reader needs only this.
        raise Unreadable("is damaged or cut short (it does not decrypt whole)") from None


# --- what can be known without a key ------------------------------------------------

@dataclass(frozen=True, slots=True)
class Stanza:
    """One recipient stanza of an age header: its type and arguments (no body)."""

    type: str
    args: tuple[str, ...]


def dearmored(data: bytes) -> bytes:
    """The binary age file ``data`` holds: ``data`` itself, or an ASCII-armored file's
    bytes decoded; raises :class:`Unreadable` for armor that is not age's. Age's spec
    allows whitespace around the armor, and nothing else outside it."""
    text = data.strip()
    if not text.startswith(ARMOR_BEGIN):
        return data
    if not text.endswith(ARMOR_END):
        raise Unreadable("is not a whole ASCII-armored age file (it never ends "
                         "'-----END AGE ENCRYPTED FILE-----')")
    lines = text[len(ARMOR_BEGIN):-len(ARMOR_END)].replace(b"\r\n", b"\n").split(b"\n")
    body = [line for line in lines if line]
    if any(len(line) > 64 for line in body) or any(len(line) != 64 for line in body[:-1]):
        raise Unreadable("is not an ASCII-armored age file (its lines are not of 64 "
                         "characters, as age writes them)")
    try:
        return base64.b64decode(b"".join(body), validate=True)
    except ValueError:
        raise Unreadable("is not an ASCII-armored age file (its body is not base64)") from None


def header(data: bytes) -> tuple[Stanza, ...]:
    """The recipient stanzas of an age file, binary or armored; raises
    :class:`Unreadable` if ``data`` is not one (checked as far as can be without a
    key: the form of the header)."""
    data = dearmored(data)
    if not data.startswith(MAGIC):
        raise Unreadable("is not an age file (it does not start 'age-encryption.org/v1')")
    end = data.find(b"\n---", 0, _MAX_HEADER)
    if end < 0:
        raise Unreadable("is not a whole age file (its header never ends)")
    stanzas: list[Stanza] = []
    try:
        lines = data[len(MAGIC):end].decode("ascii").split("\n")
    except UnicodeDecodeError:
        raise Unreadable("is not an age file (its header is not text)") from None
    for line in lines:
        if line.startswith("-> "):
            words = line[3:].split(" ")
            stanzas.append(Stanza(words[0], tuple(words[1:])))
        elif not stanzas:
            raise Unreadable("is not an age file (a header line before any stanza)")
    if not stanzas:
        raise Unreadable("is not an age file (no recipient stanza)")
    return tuple(stanzas)


def header_problem(data: bytes) -> str | None:
    try:
        header(data)
    except Unreadable as exc:
        return str(exc)
    return None


def stanza_matches(stanza: Stanza, recipient: str) -> bool:
    """Whether ``stanza`` can be for ``recipient``. An SSH stanza names its key by a
    tag (the first 4 bytes of the SHA-256 of the key); an X25519 stanza names no key
    at all (age keeps recipients anonymous), so any X25519 stanza may be an age
    recipient's."""
    words = recipient.split()
    if words[0] in _SSH_TYPES:
        if stanza.type != words[0] or not stanza.args:
            return False
        blob = base64.b64decode(words[1])
        tag = base64.b64encode(hashlib.sha256(blob).digest()[:4]).decode().rstrip("=")
        return stanza.args[0] == tag
    return stanza.type == "X25519"


def missing_recipients(stanzas: Sequence[Stanza], wanted: Sequence[str]) -> list[str]:
    """The recipients of ``wanted`` with no stanza in ``stanzas``, each stanza
    standing for one recipient (matched SSH keys first, as they are named)."""
    left = list(stanzas)
    missing: list[str] = []
    for recipient in sorted(wanted, key=lambda r: not r.startswith(_SSH_TYPES)):
        match = next((s for s in left if stanza_matches(s, recipient)), None)
        if match is None:
            missing.append(recipient)
        else:
            left.remove(match)
    return missing


def answers(identities: Sequence[Identity], recipient: str) -> bool:
    """Whether ``identities`` can open what is sealed to ``recipient``: a probe is
    sealed to it and opened (age recipients are anonymous, so there is no other way)."""
    probe = encrypt(b"ftpress", [parse_recipient(recipient)])
    try:
        decrypt(probe, identities)
    except Unreadable:
        return False
    return True
