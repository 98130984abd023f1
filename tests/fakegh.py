"""A stand-in for GitHub's issues, pull requests, labels, API and workflow dispatches,
reached as the workflows reach them: through the ``gh`` command-line client.
:func:`install` puts a ``gh`` on a ``PATH`` folder that keeps a repository's state in a
JSON file and does what the real one does for the calls the workflows make: ``gh api``
on the paths they ask (open pull requests, the rules of main, issues by label, an
issue's comments, the pull requests of a commit, ``--method PUT`` to enable a
workflow), with the exact ``--jq`` programs they give; ``gh label create``, ``gh issue
create|edit|comment|close``, ``gh pr merge|comment`` and ``gh workflow run``. Any other
call, or another jq program, fails loudly, so a workflow that starts asking for more
is noticed here. What the workflow's token creates is the bot's
(``github-actions[bot]``); ``FAKE_GH_ACTOR`` is someone else (a player opening an
issue). :class:`Issues` reads back what GitHub would then hold, and lets the test add
what people do (pull requests, their merges, issues).

``pr merge`` follows gh's own code (pkg/cmd/pr/merge): when main requires a merge
queue (``install(..., merge_queue=True)``) the pull request is queued and the
queue's merge method applies; without one, a method is required when gh cannot
prompt, as in a workflow."""
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
held = json.loads(store.read_text()) if store.is_file() else {}
for key, empty in (("issues", []), ("merges", []), ("pulls", []), ("dispatches", []),
                   ("labels", []), ("api", {}), ("pr_comments", {}), ("enabled", [])):
    held.setdefault(key, empty)
issues = held["issues"]
BOT = "github-actions[bot]"
# Who gh is logged in as: a workflow's token acts as the bot.
actor = os.environ.get("FAKE_GH_ACTOR", BOT)


def fail(message, code=2):
    print(f"fake gh: {message}: {sys.argv[1:]}", file=sys.stderr)
    sys.exit(code)


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
        if str(one["number"]) == str(number):
            return one
    fail(f"no issue #{number}")


def body(found):
    if "--body-file" in found:
        return Path(found["--body-file"]).read_text()
    if "--body" in found:
        return found["--body"]
    fail("no body")


def bot_with_marker(items):
    marker = os.environ.get("MARKER", "")
    return [i for i in items if i["user"]["login"] == BOT and marker in (i.get("body") or "")]


#: The jq programs the workflows use, as gh's --jq runs them (gojq), on what GitHub answers.
JQ = {
    '.[] | select(.head.sha == env.HEAD_SHA and .base.ref == "main") | "\\(.number) \\(.user.id) \\(.user.login)"':
        lambda d: "\n".join(f"{p['number']} {p['user']['id']} {p['user']['login']}" for p in d
                            if p["head"]["sha"] == os.environ.get("HEAD_SHA")
                            and p["base"]["ref"] == "main"),
    '[.[] | select(.type == "merge_queue")] | length':
        lambda d: str(sum(1 for r in d if r.get("type") == "merge_queue")),
    '[.[] | select(.user.login == "github-actions[bot]" and ((.body // "") | contains(env.MARKER)))][0].number // empty':
        lambda d: next((str(i["number"]) for i in bot_with_marker(d)), ""),
    '[.[] | select(.user.login == "github-actions[bot]")][0].number // empty':
        lambda d: next((str(i["number"]) for i in d if i["user"]["login"] == BOT), ""),
    '[.[] | select(.user.login == "github-actions[bot]" and ((.body // "") | contains(env.MARKER)))] | length':
        lambda d: str(len(bot_with_marker(d))),
    '.[0].number // empty': lambda d: str(d[0]["number"]) if d else "",
    '.commit.committer.date': lambda d: d["commit"]["committer"]["date"],
}


def api_get(path):
    repo = os.environ["GH_REPO"]
    base = f"repos/{repo}/"
    if not (path + "/").startswith(base):
        fail(f"an API path outside {repo}")
    rest = path[len(base):]
    if rest == "pulls?state=open&per_page=100":
        return [{"number": p["number"], "head": {"sha": p["head"]}, "base": {"ref": "main"},
                 "user": {"id": p["user_id"], "login": p["login"]}}
                for p in held["pulls"] if p["state"] == "open"]
    if rest == "rules/branches/main":
        return [{"type": "merge_queue"}] if os.environ.get("FAKE_GH_MERGE_QUEUE") == "1" else \
            held["api"].get(path, [])
    found = re.fullmatch(r"issues\?state=open&labels=([\w-]+)&per_page=100", rest)
    if found:
        return [{"number": i["number"], "body": i["body"], "user": {"login": i["user"]},
                 "labels": [{"name": n} for n in i["labels"]]}
                for i in reversed(issues) if i["state"] == "open" and found.group(1) in i["labels"]]
    found = re.fullmatch(r"issues/(\d+)/comments\?per_page=100", rest)
    if found:
        return [{"body": c["body"], "user": {"login": c["user"]}}
                for c in issue(found.group(1))["comments"]]
    found = re.fullmatch(r"commits/([0-9a-f]{40})/pulls", rest)
    if found:
        return [{"number": p["number"]} for p in held["pulls"]
                if p.get("merge_commit") == found.group(1)]
    if path in held["api"]:
        return held["api"][path]
    print("gh: Not Found (HTTP 404)", file=sys.stderr)
    sys.exit(1)


if not os.environ.get("GH_TOKEN") and not os.environ.get("FAKE_GH_ACTOR"):
    fail("GH_TOKEN must be set (or gh logged in)")
args = sys.argv[1:]
if not args:
    fail("no command")
kind, args = args[0], args[1:]
if kind == "api":
    found, rest = options(args, ("--jq", "--method"), ("--paginate",))
    if len(rest) != 1:
        fail("api takes one path")
    method = found.get("--method", "GET")
    if method == "PUT":
        held["enabled"].append(rest[0])
    elif method == "GET":
        data = api_get(rest[0])
        if "--jq" in found:
            program = JQ.get(found["--jq"])
            if program is None:
                fail("a jq program this stand-in does not run")
            out = program(data)
            if out:
                print(out)
        else:
            print(json.dumps(data))
    else:
        fail(f"method {method}")
elif kind == "label":
    action, args = args[0], args[1:]
    found, rest = options(args, ("--color", "--description"), ("--force",))
    if action != "create" or len(rest) != 1 or "--force" not in found:
        fail("only 'gh label create NAME --force' is served")
    if rest[0] not in held["labels"]:
        held["labels"].append(rest[0])
elif kind == "workflow":
    found, rest = options(args[1:], ("--ref", "--repo"))
    if args[:1] != ["run"] or len(rest) != 1:
        fail("only 'gh workflow run FILE --ref REF' is served")
    held["dispatches"].append({"workflow": rest[0], "ref": found.get("--ref", "main"),
                               "actor": actor})
elif kind == "pr":
    action, args = args[0], args[1:]
    if action == "comment":
        found, rest = options(args, ("--body", "--body-file"))
        held["pr_comments"].setdefault(rest[0], []).append(body(found))
    elif action == "merge":
        found, rest = options(args, ("--match-head-commit",),
                              ("--auto", "--squash", "--merge", "--rebase"))
        methods = [m for m in ("--squash", "--merge", "--rebase") if m in found]
        if len(rest) != 1 or "--match-head-commit" not in found or len(methods) > 1:
            fail("a pr merge this stand-in does not serve")
        queue = os.environ.get("FAKE_GH_MERGE_QUEUE") == "1"
        if not queue and not methods:
            print("--merge, --rebase, or --squash required when not running interactively",
                  file=sys.stderr)
            sys.exit(1)
        held["merges"].append({"number": int(rest[0]), "head": found["--match-head-commit"],
                               "how": "queued" if queue else methods[0].lstrip("-")})
    else:
        fail(f"'gh pr {action}' is not served")
elif kind == "issue":
    action, args = args[0], args[1:]
    if action == "create":
        found, rest = options(args, ("--title", "--body", "--body-file", "--label"))
        if rest or "--title" not in found:
            fail("create needs a title")
        if "--label" in found and found["--label"] not in held["labels"]:
            print(f"could not add label: '{found['--label']}' not found", file=sys.stderr)
            sys.exit(1)
        number = len(issues) + 1
        issues.append({"number": number, "title": found["--title"], "body": body(found),
                       "state": "open", "comments": [], "user": actor,
                       "labels": [found["--label"]] if "--label" in found else []})
        print(f"https://github.com/{os.environ['GH_REPO']}/issues/{number}")
    elif action == "edit":
        found, rest = options(args, ("--body", "--body-file"))
        issue(rest[0])["body"] = body(found)
    elif action == "comment":
        found, rest = options(args, ("--body", "--body-file"))
        issue(rest[0])["comments"].append({"body": body(found), "user": actor})
    elif action == "close":
        found, rest = options(args, ("--comment",))
        issue(rest[0])["state"] = "closed"
    else:
        fail(f"'gh issue {action}' is not served")
else:
    fail(f"'gh {kind}' is not served")
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
    #: The comments' bodies.
    comments: tuple[str, ...]
    #: Who opened it: the bot for the workflow's token.
    user: str = "github-actions[bot]"
    labels: tuple[str, ...] = ()


class Issues:
    """The repository's state as the fake ``gh`` left it, and what people do to it."""

    def __init__(self, store: Path) -> None:
        self.store = store

    def _held(self) -> dict:
        held = json.loads(self.store.read_text()) if self.store.is_file() else {}
        for key in ("issues", "merges", "pulls", "dispatches", "labels", "enabled"):
            held.setdefault(key, [])
        for key in ("api", "pr_comments"):
            held.setdefault(key, {})
        return held

    def _save(self, held: dict) -> None:
        self.store.write_text(json.dumps(held, indent=1))

    def all(self) -> list[Issue]:
        return [Issue(i["number"], i["title"], i["body"], i["state"],
                      tuple(c["body"] if isinstance(c, dict) else c for c in i["comments"]),
                      i.get("user", "github-actions[bot]"), tuple(i.get("labels", ())))
                for i in self._held()["issues"]]

    def merges(self) -> list[Merge]:
        return [Merge(**m) for m in self._held()["merges"]]

    def take_merges(self) -> list[Merge]:
        """The merges asked for since the last call (GitHub then makes them)."""
        held = self._held()
        asked = [Merge(**m) for m in held.get("pending", held["merges"])[held.get("done", 0):]]
        held["done"] = len(held["merges"])
        self._save(held)
        return asked

    def dispatches(self) -> list[dict]:
        return list(self._held()["dispatches"])

    def take_dispatches(self) -> list[dict]:
        held = self._held()
        taken = held["dispatches"][held.get("dispatched", 0):]
        held["dispatched"] = len(held["dispatches"])
        self._save(held)
        return taken

    def pr_comments(self, number: int) -> list[str]:
        return list(self._held()["pr_comments"].get(str(number), []))

    def open_pull(self, number: int, head: str, user_id: int, login: str) -> None:
        held = self._held()
        held["pulls"] = [p for p in held["pulls"] if p["number"] != number]
        held["pulls"].append({"number": number, "head": head, "user_id": user_id,
                              "login": login, "state": "open"})
        self._save(held)

    def merged(self, number: int, commit: str) -> None:
        """Pull request ``number`` merged as ``commit`` on main."""
        held = self._held()
        for pull in held["pulls"]:
            if pull["number"] == number:
                pull.update(state="closed", merge_commit=commit)
        self._save(held)

    def opened_by(self, user: str, title: str, body: str, labels: tuple[str, ...] = ()) -> None:
        """An issue someone opened (not the bot)."""
        held = self._held()
        held["issues"].append({"number": len(held["issues"]) + 1, "title": title,
                               "body": body, "state": "open", "comments": [], "user": user,
                               "labels": list(labels)})
        self._save(held)

    def answer(self, path: str, data: object) -> None:
        """What ``gh api PATH`` answers (a repository's settings, for ``doctor``)."""
        held = self._held()
        held["api"][path] = data
        self._save(held)


def install(bin_dir: Path, store: Path, merge_queue: bool = False) -> dict[str, str]:
    """Put the fake ``gh`` in ``bin_dir`` (which must come first on ``PATH``); the
    environment variables it needs. ``merge_queue``: main requires one."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    gh = bin_dir / "gh"
    gh.write_text(f"#!{sys.executable}\n{_GH}")
    gh.chmod(gh.stat().st_mode | stat.S_IXUSR)
    return {"FAKE_GH_STORE": str(store), "FAKE_GH_MERGE_QUEUE": "1" if merge_queue else "0"}
