"""``ftpress check-pr``: is an order pull request acceptable, and what does it order?

The orders workflow runs this with the base branch's ftpress. Everything it
judges by is read from Git, never from the working tree: the campaign state of
the base revision (which turn is open, who plays, who umpires) and the pull
request's files as blobs of the head revision. Nothing of the pull request is
checked out or run by this command, and a pull request that adds its author
to the roster changes nothing, since the roster is the base's.

A pull request that changes no file under ``orders/`` (a ruling, Dependabot's
updates) is passed through: it has no orders to check, the umpire reviews it, and
the required check never waits on it. One that does may change only this
(anything else is *refused*):

- only files under ``orders/``, added or modified as ordinary files: a
  deletion, a symlink, a submodule, an executable bit or any other mode change
  is refused and its content is never read;
- only the open turn's folder, ``orders/<open-turn>/<player-id>.yaml``;
- only the file of the player whose numeric GitHub user id is the pull
  request's author (``github_id`` in ``state/players.yaml``), or any player's
  file when the author is an umpire (``umpires`` in ``state/campaign.yaml``).
  Logins can be renamed, so they only label the report.

Each file it may change is then checked as ``ftpress check`` would, every
problem at once (:mod:`ftpress.orders.every_problem`): syntax against the
orders schema, legality against the base state. The changes are the pull
request's own: ``git diff --raw -z --no-renames`` from the merge base of the
two revisions to the head.

When the open turn is closed (:mod:`ftpress.turn.orders_window`: its deadline and
grace have passed, or it is paused for tabletop battles, whose result files
are on the base), the pull request is refused whatever it holds.

In GitHub's merge queue (``--merge-group``) the same check runs on the main
the pull requests will land on: each order file changed must still be one of
the open turn's, valid against that main's state, before the deadline and not
paused. Who wrote it was checked on the pull request itself, which the queue
only takes with a passing check; files outside ``orders/`` in a merge group
were reviewed by their code owners and are not this check's.

In a sealed campaign (``settings.secrecy: sealed``, :mod:`ftpress.secrecy.sealing`) the
files are ``<player-id>.yaml.age`` and there is no key here: each is judged by
its plain name as above, then checked for its form, a stanza for every umpire
recipient and the player's, and its size, and answered with a receipt (its
SHA-256 and the time), nothing of what it says. A plain order file is refused.
Which kind the campaign is, the base revision's campaign store answers
(:mod:`ftpress.store`); this module never asks.

This check is not a security gate on its own (a ``pull_request`` workflow runs
the workflow file of the pull request, which could skip it). Players have no write
access (README: the trust model); the merge workflow runs this check again with
main's code before it merges anything, and ``ftpress turn`` re-validates every
order file with main's code, and takes only those on main when the turn closed
(:mod:`ftpress.turn.window`).
"""

from __future__ import annotations

import dataclasses
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path, PurePosixPath

from ftpress import rules
from ftpress.errors import InputError, Problem, ToolFailed
from ftpress.files.clock import build_now
from ftpress.files.yamlsource import MAX_BYTES, too_large
from ftpress.orders.every_problem import judge
from ftpress.orders.load import ORDERS_DIR, InvalidOrder, stray_problem
from ftpress.secrecy import sealing
from ftpress.state.battle_results import BATTLES_DIR
from ftpress.state.files import KINDS, STATE_DIR
from ftpress.state.model import Player, State
from ftpress.state.turns import turn_id
from ftpress.store import CampaignStore, open_with
from ftpress.store.campaign import load_folder
from ftpress.text.logsafe import escape
from ftpress.turn.orders_window import Window

#: Git's mode of an ordinary, non-executable file: the only kind an order file may be.
REGULAR = "100644"
_KINDS = {"120000": "a symbolic link", "160000": "a submodule", "100755": "an executable file",
          "040000": "a folder"}


class GitError(ToolFailed):
    """A git command failed (a revision that is not there, not a repository)."""


@dataclass(frozen=True, slots=True)
class Change:
    """One line of ``git diff --raw``: a path, its status and modes, the new blob."""

    path: str
    #: A added, M modified, D deleted, T type changed (renames are off).
    status: str
    old_mode: str
    new_mode: str
    new_blob: str


@dataclass(frozen=True, slots=True)
class Refusal:
    path: str
    reason: str

    def __str__(self) -> str:
        return escape(f"{self.path}: {self.reason}")


@dataclass(frozen=True, slots=True)
class PullRequestReport:
    turn: str
    author: str
    #: Changes the pull request may not make: any one fails the check.
    refusals: tuple[Refusal, ...] = ()
    #: Problems in the order files it may change (``path:line:col``).
    problems: tuple[Problem, ...] = ()
    #: For each clean order file: what its orders will do, in plain words.
    orders: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: A player's pull request changing only their own order file, in a campaign whose
    #: settings say ``auto_merge: true``: the workflow merges it once the check passes.
    auto_merge: bool = False
    #: The pull request changes no file under ``orders/`` (a ruling, Dependabot's
    #: updates): nothing for this check, which passes it through to the umpire's review.
    no_orders: bool = False

    @property
    def ok(self) -> bool:
        return not self.refusals and not self.problems

    def text(self) -> str:
        """The report for a terminal."""
        if self.no_orders:
            return escape(f"passed through: the pull request from {self.author} changes no "
                          f"file under {ORDERS_DIR}/, so there are no orders to check; the "
                          "umpire reviews it")
        lines = []
        for path, said in self.orders:
            lines.append(f"{path}:")
            lines.extend(f"  {line}" for line in said)
        lines.extend(f"refused: {r}" for r in self.refusals)
        lines.extend(str(p) for p in self.problems)
        if self.ok:
            lines.append(f"accepted: orders for {self.turn} from {self.author}")
        else:
            count = len(self.refusals) + len(self.problems)
            lines.append(f"ftpress: pull request refused: {count} "
                         f"problem{'s' if count != 1 else ''}")
        return "\n".join(escape(line) for line in lines)

    def markdown(self) -> str:
        """The job summary. Everything a player wrote (and every path, which a
        player chose) is escaped, so it reads as text and never as markup."""
        out = []
        if self.no_orders:
            return (f"## No orders in this pull request\n\nIt changes no file under "
                    f"`{ORDERS_DIR}/`: the orders check passes it through, and the umpire "
                    "reviews it.\n")
        if self.ok:
            out.append(f"## Orders for {md(self.turn)} accepted")
            out.append("")
            out.append(f"From {md(self.author)}. When the turn is resolved:")
        else:
            count = len(self.refusals) + len(self.problems)
            out.append(f"## Orders pull request refused: {count} "
                       f"problem{'s' if count != 1 else ''}")
        for path, said in self.orders:
            out += ["", f"### {md(path)}", ""]
            out += [f"- {md(line)}" for line in said]
        if self.refusals:
            out += ["", "### Changes an orders pull request may not make", ""]
            out += [f"- {md(r.path)}: {md(r.reason)}" for r in self.refusals]
        if self.problems:
            out += ["", "### Problems in the orders", ""]
            out += [f"- {md(str(p))}" for p in self.problems]
        return "\n".join(out) + "\n"


#: Characters with a meaning in GitHub's Markdown: emphasis, code, links and images,
#: headings, lists, tables, strikethrough, math, mentions.
_MARKUP = frozenset("\\`*_{}[]()#+-.!|~$@")
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def md(text: str) -> str:
    """``text`` as literal Markdown text: every character with a meaning in
    Markdown backslash-escaped (CommonMark's escapes), ``<``, ``>`` and ``&`` as
    entities, and line breaks as spaces, so no input can open a link, an image,
    HTML, a heading, a table or a code span, or run on into the next line; control
    and bidi characters written as escapes (:func:`ftpress.text.logsafe.escape`)."""
    out = []
    for char in escape(" ".join(text.split())):
        if char in _ENTITIES:
            out.append(_ENTITIES[char])
        elif char in _MARKUP:
            out.append("\\" + char)
        else:
            out.append(char)
    return "".join(out)


# --- reading the pull request from git ------------------------------------------------

def _git(repo: Path, *args: str, result: subprocess.CompletedProcess[bytes] | None = None,
         ) -> bytes:
    """Git's output, or :class:`GitError` with what it said (``result``: git already run)."""
    if result is None:
        result = subprocess.run(["git", "-C", str(repo), *args], capture_output=True,
                                check=False)
    if result.returncode != 0:
        raise GitError(f"git {' '.join(args)}: "
                       f"{result.stderr.decode('utf-8', 'replace').strip()}")
    return result.stdout


class UnrelatedHistory(Exception):
    """The pull request's head shares no commit with the base: there is no merge base."""


def changes(repo: Path, base: str, head: str) -> list[Change]:
    """What the pull request changes: from the merge base of ``base`` and ``head``
    to ``head``, with no rename detection (a rename is a deletion and an addition).
    Raises :class:`UnrelatedHistory` if the two have no commit in common."""
    args = ("merge-base", base, head)
    merge_base = subprocess.run(["git", "-C", str(repo), *args], capture_output=True,
                                check=False)
    if merge_base.returncode == 1 and not merge_base.stderr.strip():  # nothing shared
        raise UnrelatedHistory
    since = _git(repo, *args, result=merge_base).decode().strip()
    raw = _git(repo, "diff", "--raw", "-z", "--no-renames", "--no-abbrev", since, head)
    fields = raw.split(b"\0")
    found = []
    for i in range(0, len(fields) - 1, 2):
        meta = fields[i].decode("ascii").lstrip(":").split()
        path = fields[i + 1].decode("utf-8", "replace")
        old_mode, new_mode, _old_blob, new_blob, status = meta
        found.append(Change(path, status[0], old_mode, new_mode, new_blob))
    return found


def read_blob(repo: Path, blob: str, path: str) -> bytes:
    """A blob's bytes, refusing (unread) anything too big to be a hand-written file."""
    size = int(_git(repo, "cat-file", "-s", blob))
    if size > MAX_BYTES:
        raise InvalidOrder([too_large(path, size)])
    return _git(repo, "cat-file", "blob", blob)


@contextmanager
def base_campaign(repo: Path, base: str) -> Iterator[tuple[CampaignStore, State]]:
    """The campaign of the ``base`` revision as anyone reads it (no key is here): its
    store, and its state (``state/*.yaml``), read from Git into a scratch folder and
    checked as ``ftpress check`` would."""
    with tempfile.TemporaryDirectory(prefix="ftpress-base-") as scratch:
        folder = Path(scratch) / STATE_DIR
        folder.mkdir()
        for kind in KINDS.values():
            try:
                data = _git(repo, "cat-file", "blob", f"{base}:{STATE_DIR}/{kind.file}")
            except GitError:
                raise InputError([Problem(f"{STATE_DIR}/{kind.file}", 0, 0, "missing in the "
                                          f"base revision {base}; expected the campaign's "
                                          "state")]) from None
            (folder / kind.file).write_bytes(data)
        yield open_with(Path(scratch)), load_folder(Path(scratch)).state


# --- judging it -----------------------------------------------------------------------

def check_pull_request(root: Path, base: str, head: str, author_id: int,
                       author: str | None = None, *,
                       now: datetime | None = None) -> PullRequestReport:
    """Judge the pull request from ``base`` to ``head`` by ``author_id``, against
    the campaign state of the ``base`` revision in the repository at ``root``."""
    with base_campaign(root, base) as (store, state):
        return _judge_pull_request(root, store, state, base, head, author_id, author, now)


def _judge_pull_request(root: Path, store: CampaignStore, state: State, base: str, head: str,
                        author_id: int, author: str | None, now: datetime | None,
                        ) -> PullRequestReport:
    turn = turn_id(state.campaign.calendar.turn)
    player = next((p for p in state.players.players if p.github_id == author_id), None)
    umpire = any(u.github_id == author_id for u in state.campaign.umpires or ())
    who = f"{author} (GitHub id {author_id})" if author else f"GitHub id {author_id}"
    if umpire:
        who = f"the umpire {who}"
    elif player is not None:
        who = f"{player.id}, {who}"
    refusals: list[Refusal] = []
    allowed: list[Change] = []
    try:
        found = changes(root, base, head)
    except UnrelatedHistory:
        return PullRequestReport(turn, who, (Refusal(ORDERS_DIR, "the pull request's history "
                                 "shares no commit with the base branch; expected a branch "
                                 f"made from it, adding {ORDERS_DIR}/{turn}/<player-id>.yaml "
                                 "(git merge-base found none)"),))
    if not found:
        refusals.append(Refusal(ORDERS_DIR, "the pull request changes nothing; expected "
                                "your orders: " + store.how_to_send(
                                    turn, player.id if player else "<your-id>")))
    elif not any(PurePosixPath(c.path).parts[:1] == (ORDERS_DIR,) for c in found):
        return PullRequestReport(turn, who, no_orders=True)
    for change in found:
        reason = store.sent_refusal(change.path) or _refusal(
            _as_sent(store, change), turn, state, author_id, umpire, player)
        if reason is None:
            allowed.append(change)
        else:
            refusals.append(Refusal(change.path, reason))
    at = build_now() if now is None else now
    refusals += _closed(root, base, state, at)
    problems, orders = _judge_files(root, store, allowed, state, at)
    return PullRequestReport(turn, who, tuple(refusals), problems, orders,
                             auto_merge=bool(state.campaign.settings.auto_merge)
                             and player is not None and not umpire and bool(allowed))


def check_merge_group(root: Path, base: str, head: str, *,
                      now: datetime | None = None) -> PullRequestReport:
    """Judge a merge group of GitHub's merge queue: the order files it changes,
    against the state of ``base``, the main it will land on (see the module's
    docstring for what is not checked again)."""
    with base_campaign(root, base) as (store, state):
        return _judge_merge_group(root, store, state, base, head, now)


def _judge_merge_group(root: Path, store: CampaignStore, state: State, base: str, head: str,
                       now: datetime | None) -> PullRequestReport:
    turn = turn_id(state.campaign.calendar.turn)
    refusals: list[Refusal] = []
    allowed: list[Change] = []
    for change in changes(root, base, head):
        if PurePosixPath(change.path).parts[:1] != (ORDERS_DIR,):
            continue
        # Judged as an umpire's change: any player's file of the open turn may be in it.
        reason = store.sent_refusal(change.path) or _refusal(
            _as_sent(store, change), turn, state, 0, True, None)
        if reason is None:
            allowed.append(change)
        else:
            refusals.append(Refusal(change.path, reason))
    at = build_now() if now is None else now
    if allowed or refusals:
        refusals += _closed(root, base, state, at)
    problems, orders = _judge_files(root, store, allowed, state, at)
    return PullRequestReport(turn, "the merge queue", tuple(refusals), problems, orders)


def _judge_files(root: Path, store: CampaignStore, allowed: list[Change], state: State,
                 now: datetime,
                 ) -> tuple[tuple[Problem, ...], tuple[tuple[str, tuple[str, ...]], ...]]:
    """Every problem of each order file, and what each clean one orders (of a sealed
    one, checked with no key, its receipt at ``now``: nothing of its content)."""
    problems: list[Problem] = []
    orders: list[tuple[str, tuple[str, ...]]] = []
    ruleset = rules.find_ruleset(state.campaign.ruleset)
    for change in allowed:
        try:
            raw = read_blob(root, change.new_blob, change.path)
        except InputError as exc:  # too big to be read at all
            problems.extend(exc.problems)
            continue
        sealed = store.sent_problems(change.path, raw, state)
        if sealed is not None:
            problems.extend(sealed)
            if not sealed:
                receipt = sealing.receipt(change.path, raw, now)
                orders.append((change.path, (receipt.removeprefix(f"{change.path}: "),)))
            continue
        judged = judge(raw, change.path, ruleset, state)
        problems.extend(judged.problems)
        if judged.described is not None:
            orders.append((change.path, judged.described))
    return tuple(sorted(problems)), tuple(orders)


def _closed(root: Path, base: str, state: State, now: datetime) -> list[Refusal]:
    """The refusal of a pull request for a turn that takes no orders now."""
    window = Window.of(state.campaign.calendar, _paused_battles(root, base,
                                                                turn_id(state.campaign.calendar.turn)))
    reason = window.closed(now)
    return [] if reason is None else [Refusal(f"{ORDERS_DIR}/{window.turn}/", reason)]


def _paused_battles(root: Path, base: str, turn: str) -> tuple[str, ...]:
    """The battle-result files of ``turn`` on ``base``: the turn paused for them."""
    listed = _git(root, "ls-tree", "-r", "-z", "--name-only", base, "--",
                  f"{BATTLES_DIR}/{turn}/")
    return tuple(sorted(name.decode("utf-8", "replace") for name in listed.split(b"\0")
                        if name))


def _as_sent(store: CampaignStore, change: Change) -> Change:
    """The change judged by the name of the order file it stands for (a sealed file:
    the plain file's, its turn and its player)."""
    return dataclasses.replace(change, path=store.sent_for(change.path))


def _refusal(change: Change, turn: str, state: State, author_id: int, umpire: bool,
             player: Player | None) -> str | None:
    """Why the pull request may not make this change, or None."""
    path = change.path
    parts = PurePosixPath(path).parts
    if not parts or parts[0] != ORDERS_DIR:
        return ("changes a file outside orders/; an orders pull request may change only "
                f"order files, {ORDERS_DIR}/{turn}/<player-id>.yaml (ask the umpire for "
                "anything else)")
    if change.status == "D":
        return "deletes a file; an orders pull request may only add or edit order files"
    if change.new_mode != REGULAR:
        kind = _KINDS.get(change.new_mode, f"mode {change.new_mode}")
        return (f"is {kind}; expected an ordinary file (mode {REGULAR}), and it was not "
                "read")
    if change.status not in ("A", "M") or (change.status == "M"
                                          and change.old_mode != change.new_mode):
        return (f"changes the file's mode from {change.old_mode} to {change.new_mode}; "
                "expected an ordinary file, and it was not read")
    if path.endswith(".md"):
        return f"is not an order file; expected {ORDERS_DIR}/{turn}/<player-id>.yaml"
    stray = stray_problem(path)
    if stray is not None:
        return stray.message
    if parts[1] != turn:
        return f"orders for {parts[1]}, but the turn open for orders is {turn}"
    stem = PurePosixPath(parts[2]).stem
    ids = [p.id for p in state.players.players]
    if stem not in ids:
        return f"no player is called {stem!r}; expected one of {', '.join(ids)}"
    if umpire:
        return None
    if player is None:
        return (f"the pull request's author, GitHub id {author_id}, is neither a player "
                "(github_id in state/players.yaml) nor an umpire (umpires in "
                "state/campaign.yaml)")
    if stem != player.id:
        return (f"is {stem}'s orders, but the pull request is from {player.id}; a player "
                f"may change only their own file, {ORDERS_DIR}/{turn}/{player.id}.yaml")
    return None
