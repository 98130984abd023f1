"""``ftpress init``: a complete new campaign in an empty folder.

The ruleset rolls up the map and the starting state; this module writes the
campaign around it: ``site.yaml``, ``state/`` with its setup snapshot
``state/turns/t000/`` (and the dice that made it), the generation log as the
first status post, the ruleset's rulebook if it ships one, ``orders/``, a
``.gitignore``, and the GitHub side: the orders and publish workflows,
``CODEOWNERS`` and the ``requirements.txt`` the workflows install ftpress from, the
players' and umpires' GitHub accounts, and turn 1's secret hash (see
:mod:`ftpress.github.setup`, which also makes the git repository).
``ftpress build`` turns the result into a site at once.
"""

from __future__ import annotations

import dataclasses
import json
import re
import secrets
import shutil
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from pathlib import Path

import yaml

from ftpress.content.posts import POSTS_DIR
from ftpress.content.rulebook import RULES_DIR
from ftpress.content.scaffold import slugify
from ftpress.errors import (
    InputError,
    Problem,
    RefusedCommand,
    SetupError,
    UnknownRuleset,
)
from ftpress.files.lock import LOCK_FILE
from ftpress.files.write import write_file
from ftpress.github.requirement import requirements_txt
from ftpress.github.roster import Account, with_accounts
from ftpress.github.setup import (
    MasterSecret,
    codeowners,
    git_init,
    master_for_new_campaign,
    next_steps,
    pages_url,
)
from ftpress.rules import find_ruleset
from ftpress.rules.ruleset import CampaignRequest
from ftpress.secrecy import agekeys, sealing
from ftpress.state.files import DICE, KINDS, STATE_DIR
from ftpress.state.model import DiceFile, check_id
from ftpress.state.save import dump, schema_url
from ftpress.state.turns import SETUP, TURNS_DIR, turn_id
from ftpress.store.sealed_campaign import default_secrecy, sealed_setting, setup_files
from ftpress.store.secret import SECRET_FILE, hidden_secret, secret_hash, turn_secret

#: When orders fall due, a week after the campaign starts (the demo's Sunday 20:00).
DEADLINE_TIME = time(20, 0)


@dataclass(frozen=True, slots=True)
class Created:
    root: Path
    files: tuple[str, ...]
    seed: int
    post: str
    worlds: int
    routes: int
    players: int
    campaign_id: str
    secret: MasterSecret
    #: Players with no GitHub account recorded yet.
    missing_accounts: tuple[str, ...] = ()
    umpires: tuple[Account, ...] = ()
    #: base_url was made from the repository's name, not left for the umpire to set.
    base_url_set: bool = False
    #: A sealed campaign's umpire recipient (its key is in the git-ignored key file).
    umpire_recipient: str | None = None
    #: How the players send their first orders (the ruleset's set-up turn).
    first_orders: str = ""
    #: ``OWNER/NAME`` given with ``--repository``.
    repository: str | None = None
    #: What became of the git repository, in words (made, or why not).
    git: str = ""

    def summary(self) -> str:
        # A ruleset without charted routes (sct's planar map) does not mention them.
        routes = f", {self.routes} charted routes" if self.routes else ""
        return (f"created {self.root}: {self.players} players, {self.worlds} worlds"
                f"{routes} from seed {self.seed}; {len(self.files)} files; "
                f"the map's log is {self.post}\n"
                f"campaign id: {self.campaign_id} (part of every turn's dice key: it never "
                "changes)")

    def next_steps(self) -> list[str]:
        steps = next_steps(self.root, self.secret, self.missing_accounts, self.umpires,
                           self.base_url_set, self.umpire_recipient, self.repository)
        how = sealing.how_to_send("t001", sealed=self.umpire_recipient is not None)
        tell = ("each player makes a key once ('ftpress keys new', or on the site's 'Your "
                "view' page) and sends you the recipient it prints, which you record with "
                "'ftpress roster key PLAYER RECIPIENT'; then " if
                self.umpire_recipient is not None else "")
        first = f" {self.first_orders}" if self.first_orders else ""
        steps.append(f"  {len(steps) + 1}. tell the players: fork the repository; "
                     f"{tell}{how}.{first}")
        return steps


def init_campaign(root: Path, players: Sequence[str], *, now: datetime,
                  seed: int | None = None, name: str | None = None,
                  ruleset: str = "ftc2007", options: Sequence[str] = (),
                  ftpress_requirement: str | None = None, campaign_id: str | None = None,
                  accounts: Mapping[str, Account] | None = None,
                  umpires: Sequence[Account] = (),
                  environ: Mapping[str, str] | None = None,
                  repository: str | None = None, secrecy: str | None = None) -> Created:
    """Write a new campaign into ``root``, which must be empty or not exist yet.

    ``accounts`` are players' GitHub accounts by player id, ``umpires`` the
    umpires'; ``environ`` is where the umpire's master secret may be
    (:func:`ftpress.github.setup.master_for_new_campaign`); ``repository``
    (``OWNER/NAME``) sets ``base_url`` to where GitHub Pages will serve it.
    ``secrecy``: ``sealed`` or ``open`` (default: sealed, unless the ruleset's rules hide
    nothing); a sealed campaign gets its umpire's key, as ``ftpress keys init`` makes it,
    and its hidden state sealed to it (:mod:`ftpress.store.sealed_campaign`)."""
    github = github_files(ftpress_requirement)
    site_url = pages_url(repository) if repository else None
    accounts = dict(accounts or {})
    _refuse_an_existing_campaign(root, campaign_id)
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise InputError([Problem(str(root), 0, 0, "folder is not empty; expected a new or "
                                  "empty folder for the campaign")])
    problems = []
    ids = [p.strip() for p in players if p.strip()] or list(accounts)
    for player in ids:
        try:
            check_id(player)
        except ValueError as exc:
            problems.append(Problem("--players", 0, 0, str(exc)))
    if len(set(ids)) != len(ids):
        problems.append(Problem("--players", 0, 0, "a player is named twice; give each once"))
    if not ids:
        problems.append(Problem("--players", 0, 0, "expected at least one player id, such "
                                "as --players nac,nsl,fse,esu"))
    try:
        rules = find_ruleset(ruleset)
    except UnknownRuleset as exc:
        raise InputError([*problems, Problem("--ruleset", 0, 0, str(exc))]) from None
    parsed = _options(options, rules.options, problems)
    problems += _account_problems(ids, accounts)
    if campaign_id is None:
        campaign_id = slugify(root.resolve().name) or "campaign"
    else:
        try:
            check_id(campaign_id)
        except ValueError as exc:
            problems.append(Problem("--id", 0, 0, str(exc)))
    title = (name or root.resolve().name.replace("-", " ").replace("_", " ").title()).strip()
    if not title:
        problems.append(Problem("--name", 0, 0, "expected a campaign name"))
    if problems:
        raise InputError(problems)
    seed = secrets.randbelow(2**32) if seed is None else seed
    if seed < 0:
        raise InputError([Problem("--seed", 0, 0, f"seed {seed} is negative; expected a "
                                  "whole number from 0")])
    now = now.astimezone(UTC).replace(microsecond=0)
    start = now.date()
    deadline = datetime.combine(start + timedelta(days=7), DEADLINE_TIME, UTC)
    try:
        new = rules.new_campaign(CampaignRequest(campaign_id, title, tuple(ids), seed, start,
                                                 deadline, tuple(parsed.items())))
    except SetupError as exc:
        raise InputError([Problem("--seed", 0, 0, f"seed {seed}: {exc}")]) from None

    secret = master_for_new_campaign(environ)
    first = secret_hash(turn_secret(secret.value, campaign_id, turn_id(1)))
    sealed = (secrecy or default_secrecy(ruleset)) == "sealed"
    # A sealed campaign's hidden rolls have their own stream, its secret committed too.
    hidden = secret_hash(hidden_secret(secret.value, campaign_id, turn_id(1))) \
        if sealed else None
    state = with_accounts(new.state, accounts, tuple(umpires))
    state = dataclasses.replace(state, campaign=dataclasses.replace(
        state.campaign, calendar=dataclasses.replace(state.campaign.calendar,
                                                     secret_sha256=first,
                                                     hidden_secret_sha256=hidden)))
    umpire = agekeys.new_identity() if sealed else None
    if umpire is not None:
        state = sealed_setting(state, umpire.public)
    github[".github/CODEOWNERS"] = codeowners(github[".github/CODEOWNERS"], umpires)
    base_url = site_url or f"https://example.org/{campaign_id}/"
    files: dict[str, str] = {"site.yaml": _site_yaml(title, base_url, bool(repository)),
                             ".gitignore": _GITIGNORE + (_SEALED_IGNORED if sealed else ""),
                             "orders/README.md": _orders_readme(new.first_orders, sealed), **github}
    for folder in (STATE_DIR, f"{TURNS_DIR}/{SETUP}"):
        for kind in KINDS.values():
            files[f"{folder}/{kind.file}"] = dump(getattr(state, kind.name),
                                                  schema_url(base_url, kind))
    files[f"{TURNS_DIR}/{SETUP}/{DICE.file}"] = dump(
        DiceFile(f"seed {seed}", new.rolls), schema_url(base_url, DICE))
    slug = slugify(new.post_title) or "the-map-is-rolled"
    post = f"{POSTS_DIR}/{now:%Y/%m/%d}-{slug}.md"
    files[post] = _post(new.post_title, new.post_summary, new.post_body, now,
                        uuid.uuid5(uuid.NAMESPACE_URL, f"ftpress:{campaign_id}:{seed}:setup"),
                        new.post_tags)
    if rules.rulebook.is_dir():
        # The ruleset's rulebook, consolidated; in this campaign it is in force from day one.
        for source in sorted(rules.rulebook.glob("*.md")):
            text = source.read_text(encoding="utf-8")
            files[f"{RULES_DIR}/{source.name}"] = _RULE_DATE.sub(f"date: {now:%Y-%m-%d}", text,
                                                                  count=1)
    if secret.new:
        files[SECRET_FILE] = secret.value.decode("ascii") + "\n"
    # Everything is written into a folder beside the campaign's and moved into place in
    # one rename: killed at any moment, the folder is as it was (the next init sweeps
    # what was staged), or holds the whole campaign, its keys and its git repository
    # with it (a repository does not mind being moved).
    staging = _staging(root)
    try:
        for rel, text in files.items():
            write_file(staging / rel, text.encode("utf-8"),
                       mode=0o600 if rel == SECRET_FILE else 0o644)  # the umpire's alone
        if umpire is not None:
            write_file(staging / agekeys.UMPIRE_KEY_FILE, umpire.file_text(now).encode("ascii"),
                       mode=0o600)  # the umpire's alone
            sealed_files = setup_files(staging, state, DiceFile(f"seed {seed}", new.rolls),
                                       base_url)
            for rel, data in sealed_files.items():
                write_file(staging / rel, data)
            files |= dict.fromkeys(sealed_files, "")
        git = git_init(staging, within=staging.parent)
        staging.replace(root)  # over a new or empty folder: at once
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    missing = tuple(p for p in ids if p not in accounts)
    return Created(root, tuple(files), seed, post, len(state.map.systems),
                   len(state.map.routes), len(ids), campaign_id, secret, missing,
                   tuple(umpires), bool(repository),
                   umpire.public if umpire is not None else None,
                   first_orders=new.first_orders, repository=repository, git=git)


#: The folder ``init`` writes a campaign in, beside the campaign's, before moving it in.
_STAGING = ".{name}.ftpress-init-"


def _staging(root: Path) -> Path:
    """A new folder beside ``root`` to write the campaign in; what killed runs of init
    left there is removed first (a campaign they never moved into place)."""
    parent = root.absolute().parent
    parent.mkdir(parents=True, exist_ok=True)
    prefix = _STAGING.format(name=root.absolute().name)
    for left in parent.glob(prefix + "*"):
        if left.is_dir() and not left.is_symlink():
            shutil.rmtree(left)
    staging = parent / f"{prefix}{secrets.token_hex(4)}"
    staging.mkdir(0o755)
    return staging


def _refuse_an_existing_campaign(root: Path, campaign_id: str | None) -> None:
    """A campaign's id is part of every turn's dice key: making a campaign over one
    (under another id, or the same) would change the dice its record was rolled with."""
    existing = root / STATE_DIR / KINDS["campaign"].file
    if not existing.is_file():
        return
    try:
        data = yaml.safe_load(existing.read_text(encoding="utf-8"))
        old = data.get("id") if isinstance(data, dict) else None
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        old = None
    named = f"the campaign {old!r}" if isinstance(old, str) else "a campaign"
    asked = f" as {campaign_id!r}" if campaign_id is not None else ""
    raise RefusedCommand(f"{root} holds {named} already; making a new one here{asked} would "
                         "change the dice key of every turn it has recorded; nothing was "
                         "written (choose an empty folder)")


def _account_problems(ids: Sequence[str], accounts: Mapping[str, Account]) -> list[Problem]:
    problems = [Problem("--player", 0, 0, f"{player!r} is not one of the players "
                        f"({', '.join(ids)}); expected PLAYER:LOGIN:ID for one of them")
                for player in accounts if player not in ids]
    seen: dict[int, str] = {}
    for player, account in accounts.items():
        if account.id in seen:
            problems.append(Problem("--player", 0, 0, f"{account} plays {seen[account.id]} "
                                    f"and {player}; one account plays one power"))
        seen.setdefault(account.id, player)
    return problems


#: The workflows and CODEOWNERS ftpress's own repository runs, in the package.
GITHUB_FILES = Path(__file__).parent.parent / "github"


def github_files(spec: str | None = None) -> dict[str, str]:
    """``.github/`` for a new campaign, and the ``requirements.txt`` it installs
    ftpress from (``spec``, see :func:`ftpress.github.requirement.requirement`):
    ftpress's own workflows, which install ftpress from its source
    (``pip install .``, pip's cache keyed on ``pyproject.toml``), made to install
    the ftpress of ``requirements.txt`` instead."""
    files = {"requirements.txt": requirements_txt(spec)}
    for source in sorted(GITHUB_FILES.rglob("*")):
        # The folder is also the Python package of the campaign on GitHub: its own
        # modules are not the campaign's files.
        if source.is_file() and source.suffix not in {".py", ".pyc"}:
            text = source.read_text(encoding="utf-8")
            text = text.replace("python -m pip install .\n",
                                "python -m pip install -r requirements.txt\n")
            text = text.replace("cache-dependency-path: pyproject.toml",
                                "cache-dependency-path: requirements.txt")
            files[f".github/{source.relative_to(GITHUB_FILES).as_posix()}"] = text
    return files


#: The ``date:`` line of a rule file's front matter.
_RULE_DATE = re.compile(r"^date: .*$", re.MULTILINE)


def _options(options: Sequence[str], known: Sequence[str],
             problems: list[Problem]) -> dict[str, int]:
    parsed = {}
    for option in options:
        name, sep, value = option.partition("=")
        if not sep or not value.strip().lstrip("-").isdigit():
            problems.append(Problem("--option", 0, 0, f"{option!r}: expected NAME=NUMBER, "
                                    "such as world_on=1"))
        elif name.strip() not in known:
            problems.append(Problem("--option", 0, 0, f"unknown option {name.strip()!r}; "
                                    f"expected one of {', '.join(known)}"))
        else:
            parsed[name.strip()] = int(value)
    return parsed


def _site_yaml(title: str, base_url: str, known: bool = False) -> str:
    where = "where GitHub Pages serves it" if known else "where the site will live: change this"
    return (f"# Site settings; the ftpress README lists every key.\n"
            f"title: {json.dumps(title, ensure_ascii=False)}\n"
            "description: A Full Thrust strategic campaign.\n"
            "author: the Umpire\n"
            f"base_url: {base_url}   # {where}\n"
            "timezone: UTC\n")


def _post(title: str, summary: str, body: str, when: datetime, post_id: uuid.UUID,
          tags: tuple[str, ...]) -> str:
    return "\n".join([
        "---",
        f"title: {json.dumps(title, ensure_ascii=False)}",
        f"date: {when.isoformat()}",
        "kind: status",
        f"tags: [{', '.join(tags)}]",
        f"summary: {json.dumps(summary, ensure_ascii=False)}",
        f"id: urn:uuid:{post_id}",
        "---",
        "",
        body,
    ])


#: The campaign lock and the temporary files of writes cut short are never committed.
_GITIGNORE = ("/_site/\n/_site-umpire/\n__pycache__/\n.ftpress-cache/\n.ftpress-secret\n"
              f"/{LOCK_FILE}\n.tmp-*\n")
#: What a sealed campaign's repository also keeps out: the umpire's key, the sites
#: built for one viewer's eyes, and plain order files (only sealed ones are sent).
_SEALED_IGNORED = f"/{agekeys.UMPIRE_KEY_FILE}*\n/_site-*/\n/orders/*/*.yaml\n"

def _orders_readme(first_orders: str, sealed: bool) -> str:
    first = f"\n{first_orders}\n" if first_orders else ""
    first += f"\n{sealing.SENDING}\n" if sealed else ""
    return ("# Orders\n\n"
            "Each player's orders for a turn go in `orders/<turn-id>/<player-id>.yaml`:\n"
            "the first turn's orders for the player `nac` are `orders/t001/nac.yaml`.\n"
            "Turn ids are `t` and the strategic turn's number in at least three digits.\n"
            + first)
