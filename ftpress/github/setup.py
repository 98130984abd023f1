"""What ``ftpress init`` does beyond the campaign's files so it runs on GitHub at once:
the first turn's secret, CODEOWNERS naming the umpires, ``git init -b main``,
and the steps left to do on GitHub itself, printed in the order that works (the
repository's settings before the first push; README: the trust model).

**The first turn's secret.** The umpire's master secret is
``$FTPRESS_UMPIRE_SECRET`` if set, else a new random one written to the
git-ignored ``.ftpress-secret``; the hash of turn 1's secret derived from it is
published in ``state/campaign.yaml`` at once, so turn 1's dice, like every later
turn's, depend on a secret fixed before anybody wrote orders.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ftpress.errors import InvalidArgument
from ftpress.github.roster import Account
from ftpress.secrecy.agekeys import UMPIRE_KEY_ENV, UMPIRE_KEY_FILE
from ftpress.store.secret import SECRET_ENV, SECRET_FILE, new_master_secret

#: The environment whose secrets only main may use: the umpire's secret and key.
ENVIRONMENT = "umpire"

#: ``OWNER/NAME`` of a GitHub repository, as GitHub allows them.
_REPOSITORY = re.compile(r"([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))/([A-Za-z0-9._-]{1,100})")


def pages_url(repository: str) -> str:
    """Where GitHub Pages serves ``OWNER/NAME``'s site; :class:`InvalidArgument` for
    anything that is not a repository's name."""
    match = _REPOSITORY.fullmatch(repository.strip())
    if match is None or match.group(2) in (".", ".."):
        raise InvalidArgument(f"--repository {repository!r}: expected OWNER/NAME, the GitHub "
                              "repository the campaign will live in, such as "
                              "umpire/outer-marches")
    owner, name = match.group(1).lower(), match.group(2)
    if name.lower() == f"{owner}.github.io":
        return f"https://{owner}.github.io/"
    return f"https://{owner}.github.io/{name}/"


#: The CODEOWNERS line that gives every path to the umpire.
_OWNER_LINE = re.compile(r"^(\*\s+)@umpire$", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class MasterSecret:
    value: bytes
    #: True when it was made here and written to ``.ftpress-secret``; False when it
    #: came from the environment.
    new: bool


def master_for_new_campaign(environ: Mapping[str, str] | None = None) -> MasterSecret:
    environ = os.environ if environ is None else environ
    given = environ.get(SECRET_ENV, "").strip()
    if given:
        return MasterSecret(given.encode("utf-8"), new=False)
    return MasterSecret(new_master_secret(), new=True)


def codeowners(text: str, umpires: Sequence[Account]) -> str:
    """The package's CODEOWNERS with the umpires' logins for the placeholder."""
    if not umpires:
        return text
    owners = " ".join(f"@{u.login}" for u in umpires)
    return _OWNER_LINE.sub(lambda m: f"{m.group(1)}{owners}", text)


def git_init(root: Path, within: Path | None = None) -> str:
    """``git init -b main`` in ``root``, unless ``within`` (default: ``root``), where the
    campaign will live, is in a work tree already; a line saying what. ``init`` makes
    the repository in the folder it stages the campaign in, whose parent is where the
    campaign goes."""
    git = shutil.which("git")
    if git is None:
        return "git is not installed: run git init -b main in the campaign before pushing it"
    inside = subprocess.run([git, "-C", str(within or root), "rev-parse",
                             "--is-inside-work-tree"],
                            capture_output=True, text=True, check=False)
    if inside.returncode == 0 and inside.stdout.strip() == "true":
        return "the folder is inside a git work tree already; no repository was made"
    made = subprocess.run([git, "init", "--quiet", "-b", "main", str(root)],
                          capture_output=True, text=True, check=False)
    if made.returncode != 0:
        return f"git init -b main failed ({made.stderr.strip()}); run it yourself"
    return "made a git repository on branch main (nothing committed yet)"


def next_steps(root: Path, secret: MasterSecret, missing_accounts: Sequence[str],
               umpires: Sequence[Account], base_url_set: bool = False,
               sealed_key: str | None = None, repository: str | None = None) -> list[str]:
    """What is left to do, on GitHub and in the campaign, in order: the repository's
    settings first (Pages, the environment ``umpire`` and its secrets, the rules),
    then the first push, so the first run finds everything it needs. ``sealed_key``
    is a sealed campaign's umpire key file."""
    where = repository or "OWNER/NAME"
    steps = [f"create the repository {where} on GitHub (under your account or an "
             "organization), empty, and do not push yet; the players will not be its "
             "collaborators: they send orders from forks"]
    steps.append("Pages: Settings → Pages → Build and deployment → Source: GitHub Actions"
                 + ("" if base_url_set else "; then set base_url in site.yaml to "
                    "https://OWNER.github.io/REPOSITORY/ (or make the campaign with "
                    "--repository)"))
    if secret.new:
        master = (f"{SECRET_ENV}, the contents of {root / SECRET_FILE} (keep a copy "
                  "somewhere safe: turn 1's secret hash is published from it, so turn 1 "
                  "cannot be resolved without it)")
    else:
        master = (f"{SECRET_ENV}, the one you ran this with (turn 1's secret hash is "
                  "published from it)")
    key = (f", and {UMPIRE_KEY_ENV}, the whole file {root / UMPIRE_KEY_FILE} (it opens "
           "every sealed order and the hidden state; back it up off this machine)"
           if sealed_key else "")
    steps += [
        f"the environment {ENVIRONMENT}: Settings → Environments → New environment "
        f"'{ENVIRONMENT}'; Deployment branches and tags: Selected branches and tags, add "
        f"the branch rule 'main'; then its environment secrets: {master}{key}. Never as "
        "repository secrets: a workflow on any branch can read those",
        "Actions: Settings → Actions → General → Workflow permissions: 'Read repository "
        "contents and packages permissions' (each job asks for what it needs), and "
        "require approval for first-time contributors' fork pull requests",
        "a ruleset for main: Settings → Rules → Rulesets → New branch ruleset, target "
        "the default branch, 'Restrict deletions' and 'Block force pushes', no bypass "
        "list. Add no rule that requires a pull request or status checks: the "
        "publishing run pushes each turn to main with the workflow's own token, and such "
        "a rule would refuse it",
    ]
    if not umpires:
        steps.append("name the umpire: ftpress roster add --umpire LOGIN:ID, and replace "
                     "@umpire in .github/CODEOWNERS with your login")
    if missing_accounts:
        steps.append("record the players' GitHub accounts: "
                     + "; ".join(f"ftpress roster add {p} LOGIN:ID" for p in missing_accounts))
    steps += [
        f"commit everything (git -C {root} add -A && git -C {root} commit -m 'The "
        f"campaign') and push it to main (git -C {root} push https://github.com/{where}.git "
        "main)",
        f"check the settings: ftpress doctor --repository {where} (it asks GitHub "
        "through gh, logged in as you), then start the first run: gh workflow run "
        f"publish.yml --repo {where}",
    ]
    return [f"  {n}. {step}" for n, step in enumerate(steps, 1)]
