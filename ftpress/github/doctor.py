"""``ftpress doctor``: are the GitHub repository's settings those the trust model needs?

It asks GitHub through ``gh api`` (logged in as the umpire, who administers the
repository) and says, for each setting it can read, whether it is right, and what
to change when it is not (README: the trust model):

- GitHub Pages publishes from GitHub Actions;
- the environment ``umpire`` exists, only ``main`` may use it (a deployment branch
  policy naming ``main`` alone), and it holds the umpire's secret (and, in a sealed
  campaign, the umpire's key);
- neither is a repository secret, which a workflow on any branch could read;
- no player is a collaborator with write access (players send orders from forks);
- workflows get a read-only token unless a job asks for more;
- the rules of ``main`` block force pushes and deletion, and none requires a pull
  request or status checks, which would refuse the publishing run's push;
- with ``auto_merge`` on, no merge queue, whose entries the workflow's token could
  never start a check for.

Nothing is changed. Exit 1 when anything is wrong (or could not be read), 0 when
all is right.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ftpress.errors import InvalidArgument, RefusedCommand, ToolFailed
from ftpress.github.setup import ENVIRONMENT
from ftpress.secrecy.agekeys import UMPIRE_KEY_ENV
from ftpress.store import open_with
from ftpress.store.secret import SECRET_ENV

_REPOSITORY = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9._-]{1,100}")
#: Rules of a ruleset that refuse a plain push to main by the workflow's token.
_REFUSING = {"pull_request": "requires a pull request", "required_status_checks":
             "requires status checks", "required_signatures": "requires signed commits",
             "update": "restricts updates", "required_deployments": "requires deployments"}


@dataclass(frozen=True, slots=True)
class Finding:
    ok: bool
    text: str

    def line(self) -> str:
        return f"{'ok' if self.ok else 'wrong'}: {self.text}"


class _Missing(Exception):
    """``gh api`` answered 404: the thing asked about does not exist."""


def _api(path: str) -> Any:
    done = subprocess.run(["gh", "api", path], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        if "404" in done.stderr or "Not Found" in done.stderr:
            raise _Missing(path)
        raise ToolFailed(f"gh api {path}: {done.stderr.strip() or 'failed'}")
    return json.loads(done.stdout or "null")


def diagnose(repository: str, needed: Sequence[str], player_ids: dict[int, str],
             auto_merge: bool) -> list[Finding]:
    """Every finding about ``repository`` (``OWNER/NAME``); ``needed``: the secrets the
    publishing run needs in its environment, as the campaign's store names them."""
    base = f"repos/{repository}"
    found: list[Finding] = []
    add = found.append
    repo = _api(base)
    organization = (repo.get("owner") or {}).get("type") == "Organization"
    add(Finding(True, f"{repository} belongs to an organization (a merge queue is possible)"
                if organization else f"{repository} belongs to a personal account (no merge "
                "queue: the publishing run keeps the order window alone)"))
    try:
        pages = _api(f"{base}/pages")
        add(Finding(pages.get("build_type") == "workflow",
                    "GitHub Pages publishes from GitHub Actions" if pages.get("build_type")
                    == "workflow" else "GitHub Pages publishes from a branch; expected "
                    "Settings → Pages → Source: GitHub Actions"))
    except _Missing:
        add(Finding(False, "GitHub Pages is not enabled; expected Settings → Pages → Source: "
                    "GitHub Actions"))
    try:
        env = _api(f"{base}/environments/{ENVIRONMENT}")
        policy = env.get("deployment_branch_policy") or {}
        names: list[str] = []
        if policy.get("custom_branch_policies"):
            listed = _api(f"{base}/environments/{ENVIRONMENT}/deployment-branch-policies")
            names = sorted(p.get("name", "") for p in listed.get("branch_policies", [])
                           if p.get("type", "branch") == "branch")
        add(Finding(names == ["main"],
                    f"only main may use the environment {ENVIRONMENT}" if names == ["main"]
                    else f"the environment {ENVIRONMENT} may be used by "
                    f"{'any branch' if not policy else ', '.join(names) or 'protected branches'}"
                    "; expected Deployment branches and tags: Selected branches and tags, "
                    "the one rule 'main'"))
        held = {s["name"] for s in _api(f"{base}/environments/{ENVIRONMENT}/secrets")
                .get("secrets", [])}
        for name in needed:
            add(Finding(name in held, f"the environment {ENVIRONMENT} holds {name}" if name
                        in held else f"the environment {ENVIRONMENT} lacks the secret {name}"
                        "; the publishing run cannot resolve a turn without it"))
    except _Missing:
        add(Finding(False, f"there is no environment {ENVIRONMENT}; expected Settings → "
                    f"Environments → New environment '{ENVIRONMENT}', usable by main "
                    f"alone, holding {' and '.join(needed)}"))
    repo_secrets = {s["name"] for s in _api(f"{base}/actions/secrets").get("secrets", [])}
    exposed = sorted(repo_secrets & {SECRET_ENV, UMPIRE_KEY_ENV})
    add(Finding(not exposed, "the umpire's secret and key are not repository secrets"
                if not exposed else f"{', '.join(exposed)} "
                f"{'is a repository secret' if len(exposed) == 1 else 'are repository secrets'}"
                ", which a workflow on any branch can read; delete "
                f"{'it' if len(exposed) == 1 else 'them'} there (Settings → Secrets and "
                f"variables → Actions) and keep them in the environment {ENVIRONMENT}"))
    collaborators = _api(f"{base}/collaborators?affiliation=all&per_page=100")
    writers = sorted(f"{player_ids[c['id']]} (@{c.get('login')})" for c in collaborators
                     if c.get("id") in player_ids and _writes(c.get("permissions") or {}))
    add(Finding(not writers, "no player has write access" if not writers else
                f"{', '.join(writers)} can write to the repository; a player sends orders "
                "from a fork and must not be a collaborator with write access (remove "
                "them in Settings → Collaborators)"))
    permissions = _api(f"{base}/actions/permissions/workflow")
    read_only = permissions.get("default_workflow_permissions") == "read"
    add(Finding(read_only, "workflows get a read-only token unless a job asks for more"
                if read_only else "workflows get a token that may write by default; expected "
                "Settings → Actions → General → Workflow permissions: read"))
    rules = _api(f"{base}/rules/branches/main")
    kinds = {r.get("type") for r in rules}
    for kind, name in (("non_fast_forward", "Block force pushes"),
                       ("deletion", "Restrict deletions")):
        add(Finding(kind in kinds, f"main's rules: {name}" if kind in kinds else
                    f"main's rules lack '{name}'; expected a branch ruleset for main with it"))
    refusing = sorted(text for kind, text in _REFUSING.items() if kind in kinds)
    add(Finding(not refusing, "no rule of main refuses the publishing run's push"
                if not refusing else f"a rule of main {' and '.join(refusing)}: the "
                "publishing run's push of each turn would be refused (players have no write "
                "access, so main needs no such rule)"))
    if auto_merge:
        queued = "merge_queue" in kinds
        add(Finding(not queued, "auto_merge with no merge queue" if not queued else
                    "auto_merge is on and main has a merge queue: a pull request the "
                    "workflow queued would never be checked (its token starts no "
                    "merge_group run); turn one of them off"))
    return found


def _writes(permissions: dict[str, Any]) -> bool:
    return any(permissions.get(k) for k in ("push", "maintain", "admin"))


def _repository_of(root: Path) -> str:
    done = subprocess.run(["git", "-C", str(root), "remote", "get-url", "origin"],
                          capture_output=True, text=True, check=False)
    match = re.search(r"github\.com[/:]([^/]+/[^/]+?)(?:\.git)?/?$", done.stdout.strip())
    if done.returncode != 0 or match is None:
        raise InvalidArgument("expected --repository OWNER/NAME (the campaign's git remote "
                              "'origin' names no GitHub repository)")
    return match.group(1)


def examine(root: Path, repository: str | None = None) -> tuple[str, list[Finding]]:
    """The campaign at ``root``'s repository (``repository``, else the git remote
    origin's), and what its settings are against the trust model; refused where it
    cannot be asked."""
    repository = repository or _repository_of(root)
    if not _REPOSITORY.fullmatch(repository):
        raise InvalidArgument(f"--repository {repository!r}: expected OWNER/NAME")
    if shutil.which("gh") is None:
        raise RefusedCommand("ftpress doctor asks GitHub through the gh command, which is "
                             "not installed (https://cli.github.com/); nothing was checked")
    store = open_with(root)  # what the repository shows anyone: no key is needed
    loaded = store.state()
    if loaded is None:
        raise RefusedCommand(f"{root} holds no campaign (state/); nothing was checked")
    state = loaded.state
    players = {p.github_id: p.id for p in state.players.players if p.github_id is not None}
    try:
        return repository, diagnose(repository, store.environment_secrets, players,
                                    bool(state.campaign.settings.auto_merge))
    except _Missing as exc:
        raise RefusedCommand(f"GitHub has no {exc} (is {repository} the repository, and gh "
                             "logged in as its administrator?)") from None
