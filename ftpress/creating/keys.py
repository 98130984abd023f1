"""The umpire's key and the players', and the campaign sealed with them: what
``ftpress keys`` does.

- ``keys init`` makes an umpire identity, writes it to the git-ignored
  ``.ftpress-umpire-key`` and adds its public recipient to
  ``umpire_recipients`` in ``state/campaign.yaml`` (several umpires: run it
  once in each umpire's checkout, committing each recipient);
- ``keys new`` makes a player's own identity, writes it to the git-ignored
  ``.ftpress-player-key`` (or ``--out FILE``) and prints its recipient, the line
  the player sends the umpire (who records it with ``ftpress roster key``);
- ``keys check`` says which players have no ``recipient`` in the roster, so
  could not seal orders;
- ``keys rotate`` makes a new umpire identity in place of the one in use and
  re-encrypts the open turn's sealed orders, every player's intelligence and, in
  a sealed campaign, every twin to the recipients as they are then listed (drop a
  departed umpire's line first, and rotate);
- ``keys seal-campaign`` makes an open campaign sealed, or writes a sealed one's
  plain files again from their twins (:mod:`ftpress.store.sealed_campaign`);
- ``keys edit-state`` opens a sealed campaign's current state, whole, into the
  git-ignored working copy ``.ftpress-state/`` for the umpire to edit by hand, and
  ``keys seal-state`` checks the edited files and writes them back, each as its
  public projection and its twin.
"""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pyrage import x25519

from ftpress.errors import InputError, InvalidArgument, Problem, RefusedCommand
from ftpress.files.clock import build_now
from ftpress.files.gitignore import ensure_ignored
from ftpress.files.write import write_file
from ftpress.secrecy import agekeys, sealing
from ftpress.secrecy.intelligence import FOLDER as INTELLIGENCE
from ftpress.secrecy.twins import OLD_KEY_FILE, UmpireKey, needed_key, umpire_key
from ftpress.state.battle_results import BATTLES_DIR, BATTLES_IGNORED
from ftpress.state.files import KINDS, STATE_DIR
from ftpress.state.model import State
from ftpress.state.save import dump
from ftpress.state.turns import TURNS_DIR, turn_id
from ftpress.state.writeout import write_out
from ftpress.store import open_store, open_with
from ftpress.store.secret import SECRET_ENV, SECRET_FILE, master_secret, new_master_secret


@dataclass(frozen=True, slots=True)
class KeysReport:
    """What a ``keys`` action did, in the words the command says."""

    text: str
    #: False where it found something to be done (``keys check``: a player or the
    #: umpires without a key, a file sealed to an old recipient): the command fails.
    ok: bool = True


#: The lines ``keys init`` makes sure the campaign's ``.gitignore`` has: the key (and
#: the one a rotation replaced), and the sites built for one player's eyes.
_IGNORED = (f"/{agekeys.UMPIRE_KEY_FILE}*", "/_site-*/")
#: Where ``keys rotate`` keeps the key it replaced, until the new one is stored.
_OLD_KEY = OLD_KEY_FILE


def _state(root: Path, umpire: UmpireKey | None = None) -> State:
    from ftpress.store.campaign import load_state

    loaded = load_state(root, umpire)
    if loaded is None:
        raise InputError([Problem(f"{STATE_DIR}/campaign.yaml", 0, 0, "missing; keys belong "
                                  "to a campaign's state (ftpress init makes one)")])
    return loaded.state


def _save_campaign(root: Path, state: State, recipients: tuple[str, ...]) -> None:
    campaign = dataclasses.replace(state.campaign, umpire_recipients=recipients or None)
    rel = f"{STATE_DIR}/{KINDS['campaign'].file}"
    old = (root / rel).read_text("utf-8")
    # Keep the file's first line pointing editors at its schema, as the turn writes it.
    first = old.split("\n", 1)[0]
    schema = first.removeprefix("# yaml-language-server: $schema=") if \
        first.startswith("# yaml-language-server:") else None
    write_file(root / rel, dump(campaign, schema).encode("utf-8"))


def _write_key(root: Path, text: str) -> None:
    """The key file, readable by its owner alone, and git-ignored."""
    _write_key_file(root / agekeys.UMPIRE_KEY_FILE, text)
    ensure_ignored(root, *_IGNORED)


def _write_key_file(target: Path, text: str) -> None:
    """A key file, replaced at once, readable by its owner alone from the start."""
    write_file(target, text.encode("ascii"), mode=0o600)


#: The line before the keys a rotation under way keeps in the new key file, until
#: everything is sealed to the new one.
_ROTATING = ("# the keys this one replaces, kept until everything is sealed to it "
             "(a rotation under way, or cut short: run 'ftpress keys rotate' again)")


#: The first line of the key file a rotation keeps the replaced keys in.
_REPLACED = ("# the umpire keys 'ftpress keys rotate' replaced: delete this file once the "
             "new key is stored safely")


def _identities_in(path: Path) -> list[str]:
    """The age secret keys a key file holds, as lines; none where it is missing or
    unreadable (nothing else is ever lost by reading it so)."""
    try:
        return [str(i) for i in agekeys.read_identity(path) if isinstance(i, x25519.Identity)]
    except InvalidArgument:
        return []


def _x25519(identities: Sequence[object]) -> list[str]:
    return [str(i) for i in identities if isinstance(i, x25519.Identity)]


def _union(secrets: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(secrets))


def init_key(root: Path) -> KeysReport:
    if (root / agekeys.UMPIRE_KEY_FILE).exists():
        raise RefusedCommand(f"{agekeys.UMPIRE_KEY_FILE} exists already; nothing was done "
                             "(to replace the key, use 'ftpress keys rotate')")
    store = open_with(root)  # the umpires listed are public: no key is needed
    state = _state(root)
    made = agekeys.new_identity()
    listed = state.campaign.umpire_recipients or ()
    if store.keeps_deputies(state):
        # A deputy's key in a sealed campaign: the files are sealed to the umpires
        # listed, and only one of them can seal them to another; nothing is replaced.
        _write_key(root, made.file_text(build_now(None)))
        return KeysReport(
            f"umpire key written to {agekeys.UMPIRE_KEY_FILE} (git-ignored; never commit "
            f"it; back it up off this machine)\nthis campaign is sealed to "
            f"{len(listed)} umpire{'s' if len(listed) != 1 else ''} already, so "
            f"state/campaign.yaml was not changed: send your recipient {made.public} to one "
            f"of them, who runs 'ftpress keys add-umpire {made.public}' and commits it")
    _write_key(root, made.file_text(build_now(None)))
    try:
        _save_campaign(root, state, (*listed, made.public))
    except BaseException:
        (root / agekeys.UMPIRE_KEY_FILE).unlink()
        raise
    return KeysReport(
        f"umpire key written to {agekeys.UMPIRE_KEY_FILE} (git-ignored; never commit it)\n"
        f"its recipient {made.public} is now in state/campaign.yaml: commit that\n"
        f"store the whole key file as the repository secret {agekeys.UMPIRE_KEY_ENV} "
        "(Settings → Secrets and variables → Actions), and back it up somewhere safe "
        "off this machine: without it nobody can open sealed orders" + _master_made(root))


def _master_made(root: Path) -> str:
    """A sealed turn is resolved only with the umpire's master secret, which keys its
    hidden rolls (``ftpress init`` makes one with a sealed campaign): a campaign sealed
    afterwards gets one here, where it has none yet, so that its next turn can run."""
    if master_secret(root) is not None:
        return ""
    write_file(root / SECRET_FILE, new_master_secret() + b"\n", mode=0o600)
    ensure_ignored(root, f"/{SECRET_FILE}")
    return (f"\nthe umpire's master secret written to {SECRET_FILE} (git-ignored): store it "
            f"as the secret {SECRET_ENV} of the publishing workflow's 'umpire' environment "
            "and keep a copy; it keys the hidden rolls of every sealed turn")


#: Where ``keys new`` writes a player's key, in their own clone of the campaign.
PLAYER_KEY_FILE = ".ftpress-player-key"


def new_key(root: Path, out: Path | None) -> KeysReport:
    """``keys new``: a player's identity, written where only they read it; the
    recipient printed. Refuses to replace a key: what was sealed to it would be lost."""
    target = out if out is not None else root / PLAYER_KEY_FILE
    if target.exists() or target.is_symlink():
        raise RefusedCommand(f"{target} exists already; nothing was done (a new key cannot "
                             "open what was sealed to the old one: give --out FILE to "
                             "write another)")
    made = agekeys.new_identity()
    write_file(target, made.file_text(build_now(None)).encode("ascii"))
    target.chmod(0o600)
    if out is None:
        ensure_ignored(root, f"/{PLAYER_KEY_FILE}")
    return KeysReport(
        f"your key is in {target} (readable by you alone{'' if out else ', git-ignored'}: "
        "never commit it, and keep a copy: without it you cannot read your sealed "
        f"reports)\nyour recipient: {made.public}\nsend that line to the umpire, who "
        "records it with 'ftpress roster key PLAYER RECIPIENT'; then seal your orders with "
        f"'ftpress seal orders/<turn>/<you>.yaml --identity {target}'")


def check_keys(root: Path) -> KeysReport:
    state = _state(root)
    missing = [p.id for p in state.players.players if p.recipient is None]
    umpires = state.campaign.umpire_recipients or ()
    lines = [f"{len(umpires)} umpire recipient{'s' if len(umpires) != 1 else ''} in "
             "state/campaign.yaml" + ("" if umpires else ": run 'ftpress keys init'")]
    if missing:
        lines.append(f"no recipient in state/players.yaml: {', '.join(missing)}; each adds "
                     "'recipient:' with an age public key or their SSH public key")
    else:
        lines.append(f"every player has a recipient ({len(state.players.players)})")
    # A recipient added or changed since a file was sealed: that file must be sealed
    # again (or the keys rotated) before the turn can open it for everyone.
    stale = [str(p) for file in open_sealed_files(root, state) for p in sealing.sealed_problems(
        file.relative_to(root).as_posix(), file.read_bytes(), state)]
    return KeysReport("\n".join([*lines, *stale]), ok=not (missing or not umpires or stale))


#: The line before the earlier keys a rotated key file keeps.
_EARLIER = ("# earlier keys: they open the sealed orders of turns resolved before the "
            "rotation, which keep their bytes")


def _keeps_sealed_orders(root: Path) -> bool:
    """Does any turn's record keep sealed orders its dice were keyed on?"""
    return any((root / TURNS_DIR).glob(f"*/orders/*{sealing.SEALED}"))


def seal_campaign(root: Path, identity: Path | None, seal_orders: bool,
                   drop_edits: bool = False, afresh: bool = False) -> KeysReport:
    """``keys seal-campaign``: see :mod:`ftpress.store.sealed_campaign`. A plain projection
    that no longer says what its twin's projection says was edited by hand: writing it
    again would drop the edit silently, so it is refused unless ``drop_edits``."""
    from ftpress.secrecy.twins import is_projection, twin
    from ftpress.store.sealed_campaign import sealed_files

    umpire = needed_key(root, "sealing the campaign", identity)
    # Afresh: sealed again to the same recipients, so nothing is kept for its bytes (a
    # file sealed by an older ftpress, unpadded, is sealed in this version's format).
    again = _state(root, umpire).campaign.umpire_recipients if afresh else None
    made = sealed_files(root, umpire, seal_orders=seal_orders, recipients=again)
    changed = {rel: data for rel, data in made.files.items()
               if not (root / rel).is_file() or (root / rel).read_bytes() != data}
    edited = sorted(rel for rel in changed if not rel.endswith(".age") and
                    (root / twin(rel)).is_file() and is_projection(root, rel))
    if edited and not drop_edits:
        raise InputError([Problem(rel, 0, 0, f"differs from the public projection of its "
                                  f"twin {twin(rel)}, which holds the state; sealing would "
                                  "write it again from the twin and lose the edit. To keep "
                                  "it: 'ftpress keys edit-state', make the edit there, then "
                                  "'ftpress keys seal-state' (a player's key: 'ftpress roster "
                                  "key PLAYER RECIPIENT'); to drop it: 'git checkout -- "
                                  f"{rel}', or run again with --drop-plain-edits")
                          for rel in edited])
    if changed:
        write_out(root, "the sealed campaign", changed)
    for rel, data in made.sealed_orders.items():
        write_file(root / rel, data)
    for rel in made.removed:
        (root / rel).unlink()
    battles = _sealed_battles(root, umpire)
    for rel, data in battles.items():
        write_file(root / rel, data)
    ensure_ignored(root, *_IGNORED, sealing.PLAIN_IGNORED, BATTLES_IGNORED)
    twins = sum(1 for rel in made.files if rel.endswith(".age"))
    lines = [f"sealed the campaign: {len(changed)} of its {len(made.files)} files under "
             f"{STATE_DIR}/ written ({twins} of them sealed twins, to the umpires' recipients)"]
    if made.removed:
        lines.append(f"removed {len(made.removed)} plain order or battle-result files (their "
                     "turns' records keep them, sealed): " + ", ".join(made.removed))
    if made.sealed_orders:
        lines.append("sealed the open turn's orders: " + ", ".join(made.sealed_orders))
    if battles:
        lines.append("sealed the battle-result files to the umpires (the plain ones stay, "
                     "git-ignored: 'git rm --cached' any committed): " + ", ".join(battles))
    if made.left:
        lines.append("left in plain, to be sealed by their players ('ftpress orders seal') or "
                     "with --seal-orders: " + ", ".join(made.left))
    lines.append("commit state/, orders/ and .gitignore; the umpire's key is needed from now "
                 f"on to resolve turns (${agekeys.UMPIRE_KEY_ENV} in the publishing workflow)")
    history = _plain_history(root)
    if history:
        lines.append(HISTORY_WARNING.format(count=history,
                                            commits="commit" if history == 1 else "commits"))
    return KeysReport("\n".join(lines))


def _sealed_battles(root: Path, umpire: UmpireKey) -> dict[str, bytes]:
    """Every plain battle-result file under ``battles/``, sealed beside itself to the
    umpires (:meth:`ftpress.store.CampaignStore.sealed_battles`), by path."""
    from ftpress.store.sealed import SealedStore

    store = SealedStore(root, umpire)
    base = root / BATTLES_DIR
    return {rel: data for folder in (sorted(base.iterdir()) if base.is_dir() else ())
            if folder.is_dir() and any(folder.glob("*.yaml"))
            for rel, data in store.sealed_battles(folder.name).items()}


#: The folders whose history holds a campaign's plain files from before it was sealed.
_CAMPAIGN_FOLDERS = ("state", "orders", "battles")
#: What ``keys seal-campaign`` says when git history holds plain files (git-filter-repo's
#: options as its manual gives them: ``--invert-paths`` keeps all but the ``--path``s).
HISTORY_WARNING = (
    "warning: the git history keeps {count} {commits} of state/, orders/ and battles/ from "
    "before the campaign was sealed, in plain: anyone with a clone reads every file they "
    "held (hidden groups, dummies, orders, accounts). Sealing hides only what comes next. "
    "Two ways out: (1) a new repository from the converted tree: copy the campaign's files "
    "(not .git/) to a new folder, 'git init -b main', commit, push to a new GitHub "
    "repository and have the players clone it; or (2) rewrite this history: in a fresh "
    "clone, 'git filter-repo --invert-paths --path state/ --path orders/ --path battles/', "
    "copy the converted state/, orders/ and battles/ back in, commit, force-push, and have "
    "every player clone again (GitHub keeps old commits reachable by their id until its "
    "support removes them)")


def _plain_history(root: Path) -> int:
    """How many commits of the repository at ``root`` touched the campaign's folders
    before its first sealed commit (the first with ``state/campaign.yaml.age``): 0 when
    it was sealed from its first commit, is no git repository, or git is missing."""
    git = shutil.which("git")
    if git is None or not (root / ".git").exists():
        return 0

    def ask(*args: str) -> str | None:
        done = subprocess.run([git, "-C", str(root), *args], capture_output=True, text=True,
                              check=False)
        return done.stdout.strip() if done.returncode == 0 else None

    first = (ask("log", "--diff-filter=A", "--format=%H", "HEAD", "--",
                 f"{STATE_DIR}/campaign.yaml.age") or "").splitlines()
    if first:
        if ask("rev-parse", "--verify", "--quiet", f"{first[-1]}^") is None:
            return 0  # sealed from the first commit
        since = f"{first[-1]}^"
    else:
        since = "HEAD"
    count = ask("rev-list", "--count", since, "--", *_CAMPAIGN_FOLDERS)
    return int(count) if count else 0


#: Where ``keys edit-state`` opens the whole state for the umpire's hand edits.
EDITING = ".ftpress-state"


def edit_state(root: Path, identity: Path | None) -> KeysReport:
    """``keys edit-state``: the whole current state, in plain, in the working copy."""
    from ftpress.secrecy.twins import read

    umpire = needed_key(root, "editing the sealed state", identity)
    if (root / EDITING).exists():
        raise RefusedCommand(f"{EDITING}/ is open already; edit it and run 'ftpress keys "
                             f"seal-state', or delete it to start again; nothing was done")
    _state(root, umpire)  # the state must open and check before it is handed out
    ensure_ignored(root, f"/{EDITING}/")
    for kind in KINDS.values():
        write_file(root / EDITING / kind.file, read(root, f"{STATE_DIR}/{kind.file}", umpire)[0])
    return KeysReport(
        f"the whole state is in {EDITING}/ (git-ignored: never commit it); edit it, then "
        "run 'ftpress keys seal-state' to check it and seal it back into state/")


def seal_state(root: Path, identity: Path | None) -> KeysReport:
    """``keys seal-state``: the working copy checked, then written back sealed."""
    import shutil

    from ftpress import rules
    from ftpress.store.campaign import load_folder

    store = open_store(root, identity=identity, why="sealing the edited state", required=True)
    if not (root / EDITING).is_dir():
        raise RefusedCommand(f"there is no {EDITING}/ to seal; 'ftpress keys edit-state' "
                             "opens the state into it first")
    loaded = load_folder(root, EDITING)
    problems = rules.check_state(loaded)
    if problems:
        raise InputError(problems)
    state = loaded.state
    store.write_current(state, about=f"{STATE_DIR}/, edited by hand")
    shutil.rmtree(root / EDITING)
    return KeysReport(
        f"sealed the edited state back into {STATE_DIR}/ (each file's public projection and "
        f"its twin); {EDITING}/ removed; the next turn's record keeps the state it starts "
        "from")


def open_sealed_files(root: Path, state: State) -> list[Path]:
    """The sealed files a new key must open: the open turn's orders, and every
    player's intelligence. A resolved turn's sealed orders keep their bytes (its dice
    were keyed on them, and its record holds what they said)."""
    open_turn = root / "orders" / turn_id(state.campaign.calendar.turn)
    found = sorted(open_turn.glob(f"*{sealing.SEALED}")) if open_turn.is_dir() else []
    turns = root / TURNS_DIR
    if turns.is_dir():
        found += sorted(turns.glob(f"*/{INTELLIGENCE}/*{sealing.SEALED}"))
    return found


def rotate(root: Path, identity: Path | None) -> KeysReport:
    found = agekeys.umpire_identity(root, path=identity)
    if found is None:
        raise RefusedCommand(f"no umpire key to rotate from: give --identity FILE, or set "
                             f"${agekeys.UMPIRE_KEY_ENV}, or keep it in "
                             f"{agekeys.UMPIRE_KEY_FILE}")
    store = open_store(root, identity=identity, why="rotating the key", required=True)
    state = _state(root, store.key)
    old, source = found
    made = agekeys.new_identity()
    old_publics = {str(i.to_public()) for i in old if isinstance(i, x25519.Identity)}
    kept = tuple(r for r in state.campaign.umpire_recipients or () if r not in old_publics)
    new_state = dataclasses.replace(state, campaign=dataclasses.replace(
        state.campaign, umpire_recipients=(*kept, made.public)))
    resealed = _resealed(root, state, new_state, old, source)
    # What the store keeps sealed to the umpires (a sealed campaign's twins, and the
    # recipients in every snapshot), sealed anew; the current campaign file, else.
    rekeyed = store.rekeyed(state, new_state.campaign.umpire_recipients or ())
    # At every instant some key file on disk opens everything: the new key file holds
    # the keys it replaces until everything is sealed to it, and the key file it
    # replaces is kept (with whatever an earlier rotation cut short kept) in .old.
    key = root / agekeys.UMPIRE_KEY_FILE
    replaced = _identities_in(key) + _identities_in(root / _OLD_KEY)
    if replaced:
        _write_key_file(root / _OLD_KEY, f"{_REPLACED}\n" +
                        "".join(f"{i}\n" for i in _union(replaced)))
    everything = _union([*_x25519(old), *replaced])
    _write_key(root, made.file_text(build_now(None)) + f"{_ROTATING}\n" +
               "".join(f"{i}\n" for i in everything if i != made.secret))
    count = _write_resealed(root, rekeyed, resealed)
    # Everything is sealed to the new key: it keeps the old ones only where resolved
    # turns' sealed orders, which keep their bytes, still need them.
    earlier = "".join(f"{i}\n" for i in _x25519(old))
    _write_key(root, made.file_text(build_now(None)) +
               (f"{_EARLIER}\n{earlier}" if earlier and _keeps_sealed_orders(root) else ""))
    return KeysReport(
        f"{count} sealed file{'s' if count != 1 else ''} re-encrypted to "
        f"the new umpire recipient {made.public}\n"
        f"the new key is in {agekeys.UMPIRE_KEY_FILE}: replace the repository secret "
        f"{agekeys.UMPIRE_KEY_ENV} with it, back it up, and commit state/campaign.yaml "
        f"and the sealed files; then delete {_OLD_KEY}, if there is one")


def _resealed(root: Path, state: State, new_state: State, old: Sequence[agekeys.Identity],
              source: str) -> dict[Path, bytes]:
    """The open sealed files (:func:`open_sealed_files`), opened with ``old`` and sealed
    again to the recipients ``new_state`` lists, in memory: a file the key in use cannot
    open stops the command before anything is written."""
    resealed: dict[Path, bytes] = {}
    problems: list[Problem] = []
    for file in open_sealed_files(root, state):
        rel = file.relative_to(root).as_posix()
        player = file.name.removesuffix(sealing.SEALED)
        try:
            plain = agekeys.decrypt(file.read_bytes(), old)
        except agekeys.Unreadable as exc:
            problems.append(Problem(rel, 0, 0, f"{exc} ({source}); nothing was re-encrypted"))
            continue
        try:
            resealed[file] = sealing.seal(plain, sealing.seal_recipients(new_state, player))
        except RefusedCommand as exc:
            problems.append(Problem(rel, 0, 0, str(exc)))
    if problems:
        raise InputError(problems)
    return resealed


def _write_resealed(root: Path, rekeyed: dict[str, bytes], resealed: dict[Path, bytes]) -> int:
    """Write what the store sealed anew (all or nothing) and the open sealed files; how
    many sealed files were written."""
    write_out(root, "the umpires' recipients, and what is sealed to them", rekeyed)
    resealed = {f: d for f, d in resealed.items()
                if f.relative_to(root).as_posix() not in rekeyed}
    receipts = _receipts(root, resealed)
    if receipts is not None:  # first: a file not yet sealed again answers to its receipt
        write_file(root / receipts[0], receipts[1])
    for file, data in resealed.items():
        write_file(file, data)
    return len(resealed) + sum(1 for rel in rekeyed if rel.endswith(".age"))


def _receipts(root: Path, resealed: dict[Path, bytes]) -> tuple[str, bytes] | None:
    """The open turn's receipts file (:data:`~ftpress.secrecy.sealing.RESEALED`) once the
    sealed order files among ``resealed`` are sealed again: the turn's dice stay keyed
    on the receipts their players' pull requests were given."""
    orders = {f: d for f, d in resealed.items() if f.parent.parent == root / "orders"}
    if not orders:
        return None
    turn = next(iter(orders)).parent.name
    return sealing.resealed_file(
        turn, {f.name.removesuffix(sealing.SEALED): f.read_bytes() for f in orders},
        {f.name.removesuffix(sealing.SEALED): d for f, d in orders.items()},
        sealing.read_resealed(root, turn))


def change_umpires(root: Path, identity: Path | None, recipient: str, add: bool) -> KeysReport:
    """``keys add-umpire`` / ``keys remove-umpire``: one umpire's recipient added to (or
    removed from) ``umpire_recipients``, the others kept, and everything sealed to the
    umpires sealed again to the new list with the key in use. Nothing is substituted:
    a recipient leaves the list only when it is removed by name."""
    problem = agekeys.recipient_problem(recipient)
    if problem is not None:
        raise RefusedCommand(f"{recipient!r}: {problem}; nothing was done")
    verb = "adding" if add else "removing"
    store = open_store(root, identity=identity, why=f"{verb} an umpire", required=True)
    state = _state(root, store.key)
    listed = tuple(state.campaign.umpire_recipients or ())
    if add and recipient in listed:
        raise RefusedCommand(f"{recipient} is an umpire already (state/campaign.yaml); "
                             "nothing was done")
    if not add and recipient not in listed:
        raise RefusedCommand(f"{recipient} is not among the umpire_recipients of "
                             "state/campaign.yaml; nothing was done")
    recipients = (*listed, recipient) if add else tuple(r for r in listed if r != recipient)
    if not recipients:
        raise RefusedCommand(f"{recipient} is the only umpire: removing it would seal the "
                             "campaign to nobody; add the next umpire first, or use "
                             "'ftpress keys rotate'; nothing was done")
    found = store.key if store.key is not None else umpire_key(root, identity)
    if found is None and open_sealed_files(root, state):
        raise RefusedCommand(f"{verb} an umpire seals the open turn's orders again: it needs "
                             f"the umpire's key; give --identity FILE, set "
                             f"${agekeys.UMPIRE_KEY_ENV}, or keep it in "
                             f"{agekeys.UMPIRE_KEY_FILE}; nothing was done")
    if found is not None and not add and not any(
            agekeys.answers(found.identities, r) for r in recipients):
        raise RefusedCommand(f"{found.source} answers only to {recipient}: after removing it "
                             "this key could open nothing; remove it from another umpire's "
                             "checkout; nothing was done")
    new_state = dataclasses.replace(state, campaign=dataclasses.replace(
        state.campaign, umpire_recipients=recipients))
    resealed = _resealed(root, state, new_state, found.identities if found else (),
                         found.source if found else "")
    count = _write_resealed(root, store.rekeyed(state, recipients), resealed)
    done = "added" if add else "removed"
    return KeysReport(
        f"{done} the umpire {recipient}: {len(recipients)} umpire recipient"
        f"{'s' if len(recipients) != 1 else ''} in state/campaign.yaml; {count} sealed file"
        f"{'s' if count != 1 else ''} sealed again to them\ncommit state/ and the sealed "
        "files" + ("" if add else "; what was sealed before stays readable to the removed "
                   "key in git history: rotate ('ftpress keys rotate') if it was lost or "
                   "leaked"))
