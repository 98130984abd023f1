"""Two campaigns that differ only in what the public may not know, played through
every step a rival can watch, and everything public they leave, to compare.

:func:`template` makes a sealed campaign with ``ftpress init`` (the players' keys
and GitHub ids recorded, committed on ``main``); :func:`play` copies it and plays
one turn the way the workflows do:

1. each player's orders sealed with ``ftpress seal`` (the plain file never
   committed), sent on a branch and checked by ``ftpress check-pr`` as the orders
   workflow runs it (its log and job summary kept), then merged;
2. the publishing run's turn job: ``ftpress turn --if-due --commit-message
   --battles-report --views-comment --link``, ``ftpress status`` into the job
   summary, the commit; the views comment as the views job posts it;
   its battles job when a turn pauses or ends a pause: ``ftpress battles report``
   as the issue's body or closing comment; its remind job: ``ftpress remind``;
   its build job: ``ftpress build`` into the build cache the workflow saves;
3. ``ftpress check`` and a player's keyless ``ftpress turn --verify``.

:func:`surface` gathers what a rival reads afterwards: every file a clone holds
(each plain file's bytes, each sealed file's size, every file's name) in every commit
of every branch (:func:`history`), every commit message, the built site (every file, PNG cards included), the rows of the
build cache, every command's output (logs), job summaries and issue and comment
texts. Two surfaces are compared channel by channel (:func:`differences`).

The commands run in this process (``ftpress.cli.main``), so a test may stand in
for a public random input both campaigns must share (see the test module).

**Encryption as an ideal cipher.** age encrypts with fresh randomness each time, so
two campaigns sealing the same words write different bytes (and rage adds "grease"
stanzas of random length to the header). A public output that hashes a sealed file
(a receipt, the dice key, the build cache's keys) would differ between any two
campaigns, hidden facts or none. While a campaign is played, :class:`IdealCipher`
stands in for age: a sealed file's bytes are the header age writes for its
recipients (no grease) and a payload of age's length for the plaintext, all drawn
from a stream that depends on nothing but those lengths and how many files of the
same lengths were sealed before. That is what age lets anyone without a key learn
(its payload length follows the plaintext's exactly), so two campaigns whose
sealed files have the same lengths in the same order share their sealed bytes,
and any difference a rival sees comes from something else.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import os
import re
import shutil
import sqlite3
import subprocess
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import pyrage
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from pyrage import x25519

import ftpress.store.secret as turn_secret
from ftpress.cli import main
from ftpress.secrecy import agekeys
from ftpress.site.search import CACHE_NAME

NOW = "2026-03-01T10:00:00+00:00"
#: Before t001's deadline (2026-03-08 20:00 UTC): pull requests are checked.
BEFORE = "2026-03-02T10:00:00+00:00"
#: In the hour before the deadline, when the reminder is due.
REMIND = "2026-03-07T20:30:00+00:00"
#: After t001's deadline: the turn is due.
AFTER = "2026-03-08T21:00:00+00:00"
LINK = "https://github.com/owner/camp/blob/main/"
PLAYERS = {"nac": 1001, "esu": 1002}
#: Where every campaign of a test is played from, so paths in logs compare equal.
CAMPAIGN = "camp"


@dataclass(frozen=True)
class Clock:
    """When a pair's turn is played, and by whom: the moment the pull requests are
    checked and merged (every commit is dated then), the moment the reminder is due, the
    moment the turn is due, and each player's numeric GitHub id."""

    before: str = BEFORE
    remind: str = REMIND
    after: str = AFTER
    players: Mapping[str, int] = field(default_factory=lambda: dict(PLAYERS))


#: The clock of a campaign made by :func:`template`, at its first turn.
INIT = Clock()


def git(root: Path, *args: str, stamp: str = BEFORE) -> str:
    """git at ``root``; every commit dated ``stamp``, before the turn's deadline (a pull
    request merged after it would be set aside by the turn)."""
    stamp = f"{stamp} "
    env = {**os.environ, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                          text=True, env=env).stdout.strip()


@dataclass
class Surface:
    """What the public reads of a campaign played: channel -> name -> bytes."""

    channels: dict[str, dict[str, bytes]] = field(default_factory=dict)

    def add(self, channel: str, name: str, data: bytes | str) -> None:
        self.channels.setdefault(channel, {})[name] = (
            data.encode("utf-8") if isinstance(data, str) else data)


@dataclass
class Cli:
    """``ftpress`` run in this process from a campaign's folder; every run's output is
    a log the public reads (root's path written ``<campaign>``)."""

    root: Path
    surface: Surface
    count: int = 0

    def __call__(self, label: str, *args: str | Path, ok: bool = True,
                 public: bool = True) -> tuple[int, str]:
        """One run; ``public=False`` for what the umpire runs on their own machine (its
        output is theirs, not a log anyone else reads)."""
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), _cwd(self.root):
            code = main([str(a) for a in args])
        text = _TIMING.sub("in <seconds> s", (out.getvalue() + err.getvalue()))
        if public:
            self.count += 1
            self.surface.add("logs", f"{self.count:02d} {label}", f"exit {code}\n{text}")
        if ok:
            assert code == 0, f"ftpress {' '.join(map(str, args))}: {text}"
        return code, text


#: How long a build took: the machine's speed, not the campaign's (timing is not a
#: channel this test covers: a job's duration is public, and noisy).
_TIMING = re.compile(r"in \d+(?:\.\d+)? s\b")


@contextlib.contextmanager
def _cwd(path: Path) -> Iterator[None]:
    before = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


#: age's payload: a 16-byte nonce, then 64 KiB chunks each with a 16-byte tag.
_CHUNK, _NONCE, _TAG = 64 * 1024, 16, 16


@dataclass
class IdealCipher:
    """age without its randomness: see the module docstring."""

    opened: dict[bytes, tuple[bytes, frozenset[str]]] = field(default_factory=dict)
    made: dict[tuple[int, int], int] = field(default_factory=dict)

    def encrypt(self, data: bytes, to: Sequence[agekeys.Recipient]) -> bytes:
        shape = (len(to), len(data))
        self.made[shape] = self.made.get(shape, 0) + 1
        stream = hashlib.shake_256(repr((shape, self.made[shape])).encode()).digest(
            64 * len(to) + 32 + _NONCE + len(data) + _TAG * (len(data) // _CHUNK + 1))

        def b64(at: int) -> bytes:
            return base64.b64encode(stream[at:at + 32]).rstrip(b"=")

        header = agekeys.MAGIC + b"".join(
            b"-> X25519 " + b64(64 * i) + b"\n" + b64(64 * i + 32) + b"\n"
            for i in range(len(to))) + b"--- " + b64(64 * len(to)) + b"\n"
        sealed = header + stream[64 * len(to) + 32:]
        self.opened[sealed] = (data, frozenset(str(r) for r in to))
        return sealed

    def decrypt(self, data: bytes, identities: Sequence[agekeys.Identity]) -> bytes:
        if data not in self.opened:
            return _REAL_DECRYPT(data, identities)
        plain, to = self.opened[data]
        if not any(str(getattr(i, "to_public", lambda: "")()) in to for i in identities):
            raise pyrage.DecryptError("No matching keys found")
        return plain

    @contextlib.contextmanager
    def standing_in(self) -> Iterator[None]:
        """age itself (:func:`ftpress.secrecy.agekeys.age_encrypt`, under the padding) replaced."""
        agekeys.age_encrypt = self.encrypt
        agekeys.age_decrypt = self.decrypt
        try:
            yield
        finally:
            agekeys.age_encrypt, agekeys.age_decrypt = _REAL_ENCRYPT, _REAL_DECRYPT


_REAL_ENCRYPT, _REAL_DECRYPT = agekeys.age_encrypt, agekeys.age_decrypt


@dataclass(frozen=True)
class Keys:
    """The players' keys, the same for both campaigns of a pair."""

    identities: Mapping[str, x25519.Identity]

    @classmethod
    def new(cls) -> Keys:
        return cls({p: x25519.Identity.generate() for p in PLAYERS})


def template(where: Path, ruleset: str, keys: Keys) -> Path:
    """A sealed campaign made by ``ftpress init`` with two players, their recipients and
    GitHub ids recorded, committed on main; the umpire's key and master secret in
    its git-ignored files (both campaigns of a pair share them)."""
    root = where / CAMPAIGN
    where.mkdir(parents=True, exist_ok=True)
    assert main(["init", str(root), "--players", ",".join(PLAYERS), "--seed", "42", "--now",
                 NOW, "--ruleset", ruleset, "--secrecy", "sealed"]) == 0
    for player, identity in keys.identities.items():
        for args in (["roster", "key", player, str(identity.to_public())],
                     ["roster", "add", player, f"{player}-player:{PLAYERS[player]}"]):
            with contextlib.redirect_stdout(io.StringIO()):
                assert main([*args, "--source", str(root)]) == 0, args
    with contextlib.redirect_stdout(io.StringIO()):  # the players' intelligence, to their keys
        assert main(["keys", "seal-campaign", "--source", str(root)]) == 0
    for player, identity in keys.identities.items():
        (root / f"{player}.key").write_text(f"{identity}\n")
    return commit_template(root)


def commit_template(root: Path, ignored: Sequence[str] = ()) -> Path:
    """The campaign at ``root`` committed on main as its template: the players' key files
    (``<player>.key``, each player's alone) and ``ignored`` kept out of git."""
    if not (root / ".git").is_dir():
        git(root, "init", "-q", "--initial-branch", "main")
    with (root / ".git/info/exclude").open("a") as handle:
        handle.write("".join(f"{line}\n" for line in ("*.key", *ignored)))
    git(root, "config", "user.name", "Umpire")
    git(root, "config", "user.email", "umpire@example.org")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "The campaign")
    return root


def adopt(root: Path, clock: Clock, keys: Mapping[str, Path]) -> Path:
    """A campaign copied to ``root`` (the demo or an example, its umpire's key and master
    secret in their git-ignored files) made ready to play as :func:`template`'s are:
    the players' GitHub accounts recorded (``ftpress roster add``), each player's key
    beside it as ``<player>.key``, committed on main."""
    for player, account in clock.players.items():
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["roster", "add", player, f"{player}-player:{account}",
                         "--source", str(root)]) == 0, player
        shutil.copyfile(keys[player], root / f"{player}.key")
    return commit_template(root, ("/.ftpress-*", "/_site*/", "/orders/*/*.yaml"))


@dataclass(frozen=True)
class Turn:
    """What one campaign of a pair plays: each player's plain orders (None: sends none),
    and a stand-in for the inputs no one but the umpire knows (see the tests)."""

    orders: Mapping[str, str | None]
    umpire: Callable[[], contextlib.AbstractContextManager[None]] = contextlib.nullcontext
    #: The umpire's own edits before the turn, through ftpress's commands on their
    #: machine (their output is not public); what they change is committed on main.
    edits: Callable[[Cli], None] | None = None


def play(template_root: Path, where: Path, turn: Turn, number: str = "t001",
         clock: Clock = INIT) -> Surface:
    """Copy the template to ``where`` and play turn ``number`` as the workflows do, at
    ``clock``'s moments; what the public reads afterwards. ``where`` is emptied first:
    both campaigns of a pair are played at the same path, as two runners check out at
    the same path."""
    shutil.rmtree(where, ignore_errors=True)
    where.mkdir(parents=True)
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = str(int(datetime.fromisoformat(clock.before).timestamp()))
    try:
        with IdealCipher().standing_in():
            return _play(template_root, where, turn, number, clock)
    finally:
        if epoch is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = epoch


def _play(template_root: Path, where: Path, turn: Turn, number: str, clock: Clock) -> Surface:
    root = where / CAMPAIGN
    shutil.copytree(template_root, root, symlinks=True)
    surface = Surface()
    cli = Cli(root, surface)
    work = where / "runner"
    work.mkdir()
    with turn.umpire():
        if turn.edits is not None:
            turn.edits(cli)
            git(root, "add", "--all", "state", stamp=clock.before)
            git(root, "commit", "-q", "-m", "The umpire's edits", stamp=clock.before)
        for player, text in turn.orders.items():
            if text is None:
                continue
            git(root, "checkout", "-q", "-b", f"{player}-orders", "main")
            plain = root / f"orders/{number}/{player}.yaml"
            plain.parent.mkdir(parents=True, exist_ok=True)
            plain.write_text(text)
            cli(f"seal {player}", "seal", plain, "--identity", root / f"{player}.key")
            plain.unlink()
            git(root, "add", "-A", "orders", stamp=clock.before)
            git(root, "commit", "-q", "-m", f"orders of {player}", stamp=clock.before)
            head = git(root, "rev-parse", "HEAD")
            git(root, "checkout", "-q", "main")
            summary = work / f"check-pr-{player}.md"
            summary.write_text("")
            cli(f"check-pr {player}", "check-pr", "--base", git(root, "rev-parse", "main"),
                "--head", head, "--author-id", str(clock.players[player]), "--author",
                f"{player}-player", "--now", clock.before, "--summary", summary)
            surface.add("summaries", f"check-pr {player}", summary.read_text())
            git(root, "merge", "-q", "--no-ff", "-m", f"orders of {player}", head,
                stamp=clock.before)
        reminder = work / "reminder.md"
        cli("remind", "remind", "--out", reminder, "--now", clock.remind)
        if reminder.is_file():
            surface.add("issues", "reminder", reminder.read_text())
        publish_turn(cli, root, work, surface, clock.after)
    build(cli, root, surface, clock.after)
    cli("check", "check", ok=False)  # its verdict is a log like any other
    key = root / ".ftpress-umpire-key"
    aside = where / "umpire-key"
    key.rename(aside)
    try:
        with _no_umpire_env():
            cli("verify", "turn", "--verify", number)
    finally:
        aside.rename(key)
    for channel, names in tree(root).channels.items():  # beside the turn's commit message
        surface.channels.setdefault(channel, {}).update(names)
    return surface


@contextlib.contextmanager
def _no_umpire_env() -> Iterator[None]:
    saved = {k: os.environ.pop(k) for k in ("FTPRESS_UMPIRE_KEY", "FTPRESS_UMPIRE_SECRET")
             if k in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


def publish_turn(cli: Cli, root: Path, work: Path, surface: Surface, now: str) -> None:
    """The publishing run's turn job and, when it paused or ended a pause, its battles
    job (tests/test_publish_run.py runs the same steps from publish.yml itself)."""
    message, battles = work / "commit-message", work / "battles.md"
    views = work / "views.md"
    cli("turn", "turn", "--if-due", "--commit-message", message, "--battles-report", battles,
        "--views-comment", views, "--link", LINK, "--now", now)
    if views.is_file():  # the views job's comment to the players, on the bot's issue
        surface.add("issues", "views", views.read_text())
    _code, status = cli("status", "status", "--now", now)
    summary = f"```\n{status}```\n"
    if message.is_file():
        summary += f"\n{message.read_text().splitlines()[0]}\n"
        surface.add("commits", "turn", message.read_text())
        git(root, "add", "--all", "state")
        if (root / "battles").is_dir():
            git(root, "add", "--all", "battles")
        git(root, "commit", "-q", "--file", str(message))
    if battles.is_file():
        summary += f"\n{battles.read_text()}"
        first = message.read_text().split()
        turn, outcome = first[2].strip("()"), first[3]
        _code, body = cli("battles report", "battles", "report", turn, "--link", LINK)
        surface.add("issues", f"battles {outcome}", body)
    surface.add("summaries", "turn job", summary)


def build(cli: Cli, root: Path, surface: Surface, now: str) -> None:
    """The build job: the site, and the build cache the workflow saves (every row of
    its tables: a fork's pull request can restore it)."""
    cli("build", "build", "--now", now, "--out", root / "_site")
    for file in sorted((root / "_site").rglob("*")):
        if file.is_file():
            surface.add("site", file.relative_to(root / "_site").as_posix(), file.read_bytes())
    shutil.rmtree(root / "_site")
    for file in sorted((root / ".ftpress-cache").rglob("*")):
        if not file.is_file():
            continue
        name = file.relative_to(root).as_posix()
        if file.relative_to(root / ".ftpress-cache").parts[0] == CACHE_NAME:
            # The search shards the build keeps (Pagefind's files, under a digest of the
            # pages they index): each byte of them.
            surface.add("cache", name, file.read_bytes())
            continue
        try:
            rows = _rows(file)
        except sqlite3.DatabaseError:
            surface.add("cache", name, _noise(file.read_text()))
            continue
        surface.add("cache", name, _noise(rows))


#: The build cache's digests of the files it read and wrote: their sizes and mtimes,
#: the moment each was written, no more a channel than the build's duration (the
#: inputs' is null where one was written within a tick of the build: a matter of
#: timing too). The sizes are compared in the tree and the site.
_MTIMES = re.compile(r'"(inputs|outputs)": (?:"[0-9a-f]{64}"|null)')


def _noise(text: str) -> str:
    return _MTIMES.sub(r'"\1": "<sizes and mtimes>"', _TIMING.sub("in <seconds> s", text))


def _rows(file: Path) -> str:
    connection = sqlite3.connect(f"file:{file}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        lines = []
        for table in tables:
            rows = sorted(repr(r) for r in connection.execute(f'SELECT * FROM "{table}"'))
            lines += [f"{table}: {r}" for r in rows]
        return "\n".join(lines)
    finally:
        connection.close()


def tree(root: Path) -> Surface:
    """What a clone holds: every commit's message, every file's name, each plain file's
    bytes and each sealed file's size."""
    surface = Surface()
    for name in git(root, "ls-files").splitlines():
        data = (root / name).read_bytes()
        if name.endswith(".age"):
            surface.add("sealed sizes", name, str(len(data)))
        else:
            surface.add("files", name, data)
    surface.add("names", "tracked", git(root, "ls-files"))
    surface.add("commits", "log", git(root, "log", "--topo-order", "--format=%B", "main"))
    surface.add("history", "trees", history(root))
    return surface


def history(root: Path) -> str:
    """Every commit of every branch, oldest first, as a clone reads it: each file's name,
    each plain file's blob (its bytes, by their hash) and each sealed file's size, so that
    a sealed file written and written over before the last commit, or a plain file that
    is no longer there, is compared too."""
    lines = []
    for commit in git(root, "rev-list", "--topo-order", "--reverse", "--all").splitlines():
        lines.append("commit")
        for row in git(root, "ls-tree", "-r", "-l", commit).splitlines():
            meta, name = row.split("\t", 1)
            _mode, _kind, blob, size = meta.split()
            lines.append(f"  {name} {'size ' + size if name.endswith('.age') else blob}")
    return "\n".join(lines)


def differences(a: Surface, b: Surface) -> dict[str, list[str]]:
    """Each channel where the two differ, and the names that differ in it."""
    found: dict[str, list[str]] = {}
    for channel in sorted(set(a.channels) | set(b.channels)):
        left, right = a.channels.get(channel, {}), b.channels.get(channel, {})
        names = sorted(n for n in set(left) | set(right) if left.get(n) != right.get(n))
        if names:
            found[channel] = names
    return found


def first_difference(a: Surface, b: Surface, channel: str, name: str) -> str:
    """The first line where one name of a channel differs, for a failing test's message."""
    left = a.channels.get(channel, {}).get(name, b"<none>").decode("utf-8", "replace")
    right = b.channels.get(channel, {}).get(name, b"<none>").decode("utf-8", "replace")
    for x, y in zip(left.splitlines(), right.splitlines(), strict=False):
        if x != y:
            return f"{x!r} / {y!r}"
    return f"{len(left)} / {len(right)} characters"


# --- what the tests of pairs share ---------------------------------------------------

#: Hypothesis for a pair: one example (each plays two whole campaigns; every hidden
#: choice differs in every pair drawn, so one pair covers them all), no shrinking.
SETTINGS = settings(max_examples=1, deadline=None, derandomize=True, database=None,
                    phases=[Phase.explicit, Phase.generate],
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


def differing(values: tuple[object, ...]) -> st.SearchStrategy[tuple[object, object]]:
    """Two different values of ``values``: every hidden choice differs in a pair."""
    return st.permutations(values).map(lambda p: (p[0], p[1]))


@contextlib.contextmanager
def other_hidden_secret() -> Iterator[None]:
    """The turn's hidden rolls keyed by another hidden secret (its public commitment, the
    hash published as the turn opened, equal: a stand-in for another umpire's master
    secret that no one without it can tell from this one)."""
    keyed = turn_secret.hidden_key

    def hidden_key(campaign_id: str, turn: str, digest: str, hidden: str) -> bytes:
        return keyed(campaign_id, turn, digest, "another umpire's " + hidden)

    turn_secret.hidden_key = hidden_key
    try:
        yield
    finally:
        turn_secret.hidden_key = keyed


def hidden_secret(other: bool) -> Callable[[], contextlib.AbstractContextManager[None]]:
    """The stand-in for the umpire's inputs of a campaign with another hidden secret, or
    none."""
    return other_hidden_secret if other else contextlib.nullcontext


def assert_same(a: Surface, b: Surface, what: str) -> None:
    """The two surfaces equal, or a failure naming each channel that differs."""
    found = differences(a, b)
    assert not found, f"{what}: the public can tell the two apart:\n" + "\n".join(
        f"  {channel}: {len(names)} differ ({', '.join(names[:6])}), e.g. {names[0]}: "
        f"{first_difference(a, b, channel, names[0])}"
        for channel, names in found.items())
