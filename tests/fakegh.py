"""A stand-in for GitHub's issues and merges, reached as the workflows reach them:
through the ``gh`` command-line client. :func:`install` puts a ``gh`` on a ``PATH``
folder that keeps a repository's issues and merge requests in a JSON file and does
what the real one does for the calls the workflows make (``issue list --search …
--json number --jq …``, ``issue create``, ``issue edit``, ``issue comment``, ``issue
close``, ``pr merge --auto``); any other call fails loudly, so a workflow that starts
asking for more is noticed here. :class:`Issues` reads back what GitHub would then
hold.

``pr merge`` follows gh's own code (pkg/cmd/pr/merge): when main requires a merge
queue (``install(..., merge_queue=True)``) the pull request is queued and the
queue's merge method applies, a method named is only warned about; without one,
a method is required when gh cannot prompt, as in a workflow."""

from __future__ import annotations

import json
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

#: The fake ``gh``: a Python script run by this interpreter.
_GH = r'''
import json, os, re, sys
from pathlib import Path

store = Path(os.environ["FAKE_GH_STORE"])
held = json.loads(store.read_text()) if store.is_file() else {"issues": [], "merges": []}
issues = held["issues"]


def fail(message):
    print(f"fake gh: {message}: {sys.argv[1:]}", file=sys.stderr)
    sys.exit(2)


def options(args, flags, switches=()):
    found, rest = {}, []
    while args:
        arg = args.pop(0)
        if arg in flags:
            found[arg] = args.pop(0)
        elif arg in switches:
            found[arg] = True
        elif arg.startswith("-"):
            fail(f"unknown flag {arg}")
        else:
            rest.append(arg)
    return found, rest


def issue(number):
    for one in issues:
        if str(one["number"]) == number:
            return one
    fail(f"no issue #{number}")


def body(found):
    if "--body-file" in found:
        return Path(found["--body-file"]).read_text()
    if "--body" in found:
        return found["--body"]
    fail("no body")


if not os.environ.get("GH_TOKEN") or not os.environ.get("GH_REPO"):
    fail("GH_TOKEN and GH_REPO must be set")
args = sys.argv[1:]
if args[:1] not in (["issue"], ["pr"]) or len(args) < 2:
    fail("only 'gh issue' and 'gh pr merge' are served")
kind, action, args = args[0], args[1], args[2:]
if kind == "pr":
    found, rest = options(args, ("--match-head-commit",),
                          ("--auto", "--squash", "--merge", "--rebase"))
    methods = [m for m in ("--squash", "--merge", "--rebase") if m in found]
    if action != "merge" or len(rest) != 1 or "--auto" not in found \
            or "--match-head-commit" not in found or len(methods) > 1:
        fail("a pr call this stand-in does not serve")
    queue = os.environ.get("FAKE_GH_MERGE_QUEUE") == "1"
    if queue and methods:
        print("! The merge strategy for main is set by the merge queue", file=sys.stderr)
    if not queue and not methods:
        print("--merge, --rebase, or --squash required when not running interactively",
              file=sys.stderr)
        sys.exit(1)
    held["merges"].append({"number": int(rest[0]), "head": found["--match-head-commit"],
                           "how": "queued" if queue else methods[0].lstrip("-")})
elif action == "list":
    found, rest = options(args, ("--state", "--search", "--json", "--jq"))
    wanted = re.fullmatch(r'"(.+)" in:title', found.get("--search", ""))
    if rest or found.get("--state") != "open" or not wanted or found.get("--json") != "number" \
            or found.get("--jq") != ".[0].number // empty":
        fail("a list this stand-in does not serve")
    # GitHub's search matches words; every title here is matched whole, in the order
    # GitHub lists them (newest first).
    hits = [i for i in reversed(issues) if i["state"] == "open"
            and wanted.group(1).lower() in i["title"].lower()]
    if hits:
        print(hits[0]["number"])
elif action == "create":
    found, rest = options(args, ("--title", "--body", "--body-file"))
    if rest or "--title" not in found:
        fail("create needs a title")
    number = len(issues) + 1
    issues.append({"number": number, "title": found["--title"], "body": body(found),
                   "state": "open", "comments": []})
    print(f"https://github.com/{os.environ['GH_REPO']}/issues/{number}")
elif action == "edit":
    found, rest = options(args, ("--body", "--body-file"))
    if len(rest) != 1:
        fail("edit takes one issue")
    issue(rest[0])["body"] = body(found)
elif action == "comment":
    found, rest = options(args, ("--body", "--body-file"))
    if len(rest) != 1:
        fail("comment takes one issue")
    issue(rest[0])["comments"].append(body(found))
elif action == "close":
    found, rest = options(args, ("--comment",))
    if len(rest) != 1:
        fail("close takes one issue")
    closed = issue(rest[0])
    if "--comment" in found:
        closed["comments"].append(found["--comment"])
    closed["state"] = "closed"
else:
    fail(f"'gh issue {action}' is not served")
store.write_text(json.dumps(held, indent=1))
'''


@dataclass(frozen=True)
class Merge:
    """A pull request given to GitHub to merge: queued, or merged by a method once
    its checks pass, at the head commit ``head`` only."""

    number: int
    head: str
    how: str


@dataclass(frozen=True)
class Issue:
    number: int
    title: str
    body: str
    state: str
    comments: tuple[str, ...]


class Issues:
    """The repository's issues and merges as the fake ``gh`` left them."""

    def __init__(self, store: Path) -> None:
        self.store = store

    def _held(self) -> dict:
        if not self.store.is_file():
            return {"issues": [], "merges": []}
        return json.loads(self.store.read_text())

    def all(self) -> list[Issue]:
        return [Issue(i["number"], i["title"], i["body"], i["state"], tuple(i["comments"]))
                for i in self._held()["issues"]]

    def merges(self) -> list[Merge]:
        return [Merge(**m) for m in self._held()["merges"]]


def install(bin_dir: Path, store: Path, merge_queue: bool = False) -> dict[str, str]:
    """Put the fake ``gh`` in ``bin_dir`` (which must come first on ``PATH``); the
    environment variables it needs. ``merge_queue``: main requires one."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    gh = bin_dir / "gh"
    gh.write_text(f"#!{sys.executable}\n{_GH}")
    gh.chmod(gh.stat().st_mode | stat.S_IXUSR)
    return {"FAKE_GH_STORE": str(store), "FAKE_GH_MERGE_QUEUE": "1" if merge_queue else "0"}
