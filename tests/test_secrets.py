"""Keys and sealed orders (issue 20): ``ftpress keys``, ``ftpress seal``, the
files they write read by the standard age format, and every fault with its message."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from datetime import datetime
from pathlib import Path

import pyrage
import pytest
import yaml
from demos import FTCAMP02
from hypothesis import given, settings
from hypothesis import strategies as st
from pyrage import x25519
from sealedcampaign import ORDERS, sealed_campaign

from ftpress.secrecy import agekeys, sealing
from ftpress.secrecy.twins import UmpireKey
from ftpress.store import open_at_hand
from ftpress.store.campaign import load_folder


@pytest.fixture
def sealed(tmp_path, run) -> tuple[Path, x25519.Identity]:
    return sealed_campaign(tmp_path / "camp", run)


def _umpire(root: Path) -> list[agekeys.Identity]:
    found = agekeys.umpire_identity(root, environ={})
    assert found is not None
    return found[0]


# --- keys -------------------------------------------------------------------------

def test_keys_init_writes_an_ignored_key_and_records_its_recipient(sealed, run):
    root, _ = sealed
    key = (root / agekeys.UMPIRE_KEY_FILE).read_text()
    assert key.startswith("# created: ") and "\nAGE-SECRET-KEY-1" in key
    assert (root / agekeys.UMPIRE_KEY_FILE).stat().st_mode & 0o077 == 0
    ignored = (root / ".gitignore").read_text().splitlines()
    assert "/.ftpress-umpire-key*" in ignored and "/_site-*/" in ignored
    public = key.split("# public key: ")[1].split("\n")[0]
    assert load_folder(root).state.campaign.umpire_recipients == (public,)
    code, _out, err = run("keys", "init", "--source", root)
    assert code == 1 and err == ("ftpress: .ftpress-umpire-key exists already; nothing was "
                                 "done (to replace the key, use 'ftpress keys rotate')\n")


def test_keys_init_tells_the_umpire_where_the_key_goes(tmp_path, run):
    FTCAMP02.copy(tmp_path)
    code, out, _err = run("keys", "init", "--source", tmp_path)
    assert code == 0
    assert "repository secret FTPRESS_UMPIRE_KEY" in out and "back it up" in out


def test_keys_init_makes_the_master_secret_a_sealed_turn_needs_and_keeps_one_given(
        tmp_path, run):
    """A campaign sealed after ``init`` has no master secret, and a sealed turn is not
    resolved without one: ``keys init`` makes it, git-ignored and the owner's alone."""
    made, kept = tmp_path / "made", tmp_path / "kept"
    for root in (made, kept):
        FTCAMP02.copy(root)
        (root / ".ftpress-secret").unlink(missing_ok=True)
    (kept / ".ftpress-secret").write_text("the umpire's own\n")
    code, out, _err = run("keys", "init", "--source", made)
    assert code == 0 and "master secret written to .ftpress-secret" in out
    assert len((made / ".ftpress-secret").read_text().strip()) == 64
    assert (made / ".ftpress-secret").stat().st_mode & 0o077 == 0
    assert "/.ftpress-secret" in (made / ".gitignore").read_text().splitlines()
    code, out, _err = run("keys", "init", "--source", kept)
    assert code == 0 and "master secret" not in out
    assert (kept / ".ftpress-secret").read_text() == "the umpire's own\n"


def test_keys_check_names_the_players_without_a_recipient(sealed, run):
    root, _ = sealed
    code, out, _err = run("keys", "check", "--source", root)
    assert code == 1
    assert out == ("1 umpire recipient in state/campaign.yaml\n"
                   "no recipient in state/players.yaml: esu, fsr; each adds 'recipient:' "
                   "with an age public key or their SSH public key\n")


def test_a_recipient_that_is_no_key_is_refused_at_its_line(sealed, run):
    root, _ = sealed
    players = root / "state" / "players.yaml"
    players.write_text(players.read_text().replace(
        "    capital: heron\n", "    capital: heron\n    recipient: ssh-ed25519 AAAAnotakey\n"))
    code, _out, err = run("keys", "check", "--source", root)
    assert code == 1
    line = next(n for n, text in enumerate(players.read_text().splitlines(), 1)
                if "AAAAnotakey" in text)
    assert f"state/players.yaml:{line}:16: players[1].recipient: not a public key age can " \
        "encrypt to" in err


def test_an_ssh_key_is_a_recipient(tmp_path):
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp_path / "k")],
                   check=True)
    public = (tmp_path / "k.pub").read_text().strip()
    assert agekeys.recipient_problem(public) is None
    sealed_bytes = sealing.seal(b"orders", [public])
    stanzas = agekeys.header(sealed_bytes)
    assert agekeys.missing_recipients(stanzas, [public]) == []
    other = x25519.Identity.generate().to_public()
    assert agekeys.missing_recipients(stanzas, [str(other)]) == [str(other)]
    assert agekeys.decrypt(sealed_bytes, agekeys.read_identity(tmp_path / "k")) == b"orders"


def test_keys_rotate_reseals_every_file_to_the_new_key(sealed, run):
    root, nac = sealed
    assert run("seal", root / "orders/t005/nac.yaml", "--source", root)[0] == 0
    old = _umpire(root)
    code, out, err = run("keys", "rotate", "--source", root)
    assert (code, err) == (0, ""), err
    twins = len(list(root.glob("state/**/*.age")))  # the players' intelligence and reports too
    assert out.startswith(f"{twins + 1} sealed files re-encrypted to the new umpire recipient age1")
    data = (root / "orders/t005/nac.yaml.age").read_bytes()
    assert agekeys.decrypt(data, _umpire(root)) == ORDERS.encode()
    assert agekeys.decrypt(data, [nac]) == ORDERS.encode()
    with pytest.raises(agekeys.Unreadable):
        agekeys.decrypt(data, old)
    recipients = load_folder(root).state.campaign.umpire_recipients
    assert recipients == (str(_umpire(root)[0].to_public()),)


def test_keys_rotate_with_a_wrong_key_writes_nothing(sealed, run):
    root, _ = sealed
    assert run("seal", root / "orders/t005/nac.yaml", "--source", root)[0] == 0
    (root / "wrong.key").write_text(f"{x25519.Identity.generate()}\n")
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    code, _out, err = run("keys", "rotate", "--identity", root / "wrong.key", "--source", root)
    assert code == 1
    assert err == (f"ftpress: {root / 'wrong.key'}: this key answers to none of the "
                   "umpire_recipients in state/campaign.yaml, so it cannot open the sealed "
                   "files; expected the umpire's key (if it is lost, see 'Rotating the umpire "
                   "key' in the README); nothing was done\n")
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before


# --- sealing ----------------------------------------------------------------------

@settings(max_examples=50, deadline=None)
@given(st.binary(max_size=20_000), st.binary(max_size=20_000))
def test_a_sealed_size_tells_only_the_bucket(first, second):
    """Every plaintext is padded to 4 KiB or the next power of two before age seals it,
    and opens as it was; two plaintexts in one bucket seal to one size."""
    key = x25519.Identity.generate()
    sealed = [agekeys.encrypt(data, [key.to_public()]) for data in (first, second)]
    assert [agekeys.decrypt(s, [key]) for s in sealed] == [first, second]
    buckets = [agekeys.bucket(len(agekeys.pad(d))) for d in (first, second)]
    assert all(b >= agekeys.MIN_BUCKET and b & (b - 1) == 0 for b in buckets)
    if buckets[0] == buckets[1]:  # age's payload follows the padded length (grease aside)
        assert [len(pyrage.decrypt(s, [key])) for s in sealed] == buckets


def test_a_file_sealed_before_padding_still_opens():
    key = x25519.Identity.generate()
    old = pyrage.encrypt(ORDERS.encode(), [key.to_public()])
    assert agekeys.decrypt(old, [key]) == ORDERS.encode()


def test_seal_writes_a_file_the_umpire_and_the_player_can_read(sealed, run):
    root, nac = sealed
    code, out, err = run("seal", root / "orders/t005/nac.yaml", "--identity", root / "nac.key",
                         "--source", root)
    assert (code, err) == (0, ""), err
    data = (root / "orders/t005/nac.yaml.age").read_bytes()
    assert out.startswith(f"orders/t005/nac.yaml.age: sealed, {len(data):,} bytes, SHA-256 ")
    assert "maintain_orbit" not in out and b"maintain_orbit" not in data
    # age itself opens it: the same YAML, padded to 4 KiB by a comment.
    opened = pyrage.decrypt(data, [nac])
    assert len(opened) == agekeys.MIN_BUCKET and opened.startswith(ORDERS.encode())
    assert yaml.safe_load(opened) == yaml.safe_load(ORDERS)
    assert agekeys.decrypt(data, _umpire(root)) == ORDERS.encode()
    assert "/orders/*/*.yaml" in (root / ".gitignore").read_text().splitlines()
    # The umpire and nac, nobody else (age adds a random "grease" stanza besides).
    assert [s.type for s in agekeys.header(data) if s.type in ("X25519", "ssh-ed25519")
            ] == ["X25519", "X25519"]


@pytest.mark.skipif(shutil.which("age") is None, reason="the age command is not installed")
def test_the_age_tool_reads_a_sealed_file(sealed, run):
    root, _ = sealed
    assert run("seal", root / "orders/t005/nac.yaml", "--source", root)[0] == 0
    for key in (root / "nac.key", root / agekeys.UMPIRE_KEY_FILE):
        done = subprocess.run(["age", "-d", "-i", str(key), str(root / "orders/t005/nac.yaml.age")],
                              capture_output=True, check=True)
        assert done.stdout == ORDERS.encode()


@pytest.mark.parametrize(("orders", "message"), [
    (ORDERS.replace("nac-1", "nac-77"),
     "orders/t005/nac.yaml:4:3: no group 'nac-77'; expected one of your groups: nac-1, nac-2, "
     "nac-3, nac-4\nftpress: 1 problem found; nothing was written\n"),
    ("turn: t005\nplayer: nac\ngroups: [\n",
     None),
])
def test_seal_refuses_orders_the_check_refuses(sealed, run, orders, message):
    root, _ = sealed
    (root / "orders/t005/nac.yaml").write_text(orders)
    code, out, err = run("seal", root / "orders/t005/nac.yaml", "--source", root)
    assert code == 1 and out == ""
    if message is not None:
        assert err == message
    assert err.startswith("orders/t005/nac.yaml:")
    assert not (root / "orders/t005/nac.yaml.age").exists()


def test_seal_faults_name_the_file(sealed, run):
    root, _ = sealed
    wrong = root / "wrong.key"
    wrong.write_text(f"{x25519.Identity.generate()}\n")
    junk = root / "junk.key"
    junk.write_text("not a key\n")
    (root / "orders/t005/esu.yaml").write_text("turn: t005\nplayer: esu\ngroups: {}\n")
    cases = [
        ((root / "orders/t005/nac.yaml", "--identity", wrong),
         f"ftpress: {wrong}: this identity does not answer to your recipient in "
         "state/players.yaml, so you could not read your own sealed orders; nothing was "
         "written\n"),
        ((root / "orders/t005/nac.yaml", "--identity", root / "missing.key"),
         f"ftpress: {root / 'missing.key'}: no such identity file; expected the file holding "
         "your age secret key or SSH private key\n"),
        ((root / "orders/t005/nac.yaml", "--identity", junk),
         f"ftpress: {junk}:1: not an age secret key; expected a line 'AGE-SECRET-KEY-1…' as "
         "'ftpress keys init' or age-keygen writes it\n"),
        ((root / "orders/t005/esu.yaml",),
         "ftpress: player 'esu' has no recipient in state/players.yaml; add 'recipient:' with "
         "your age public key or your SSH public key (https://github.com/<login>.keys) to "
         "your roster entry\n"),
        ((root / "orders/t005/fsr.yaml",),
         "orders/t005/fsr.yaml: no such order file; expected orders/<turn-id>/<player-id>.yaml"
         "\nftpress: 1 problem found; nothing was written\n"),
    ]
    for args, message in cases:
        code, _out, err = run("seal", *args, "--source", root)
        assert (code, err) == (1, message)
    assert not list((root / "orders/t005").glob("*.age"))


def test_seal_refuses_in_an_open_campaign(tmp_path, run):
    FTCAMP02.copy(tmp_path)
    (tmp_path / "orders" / "t005").mkdir()
    (tmp_path / "orders" / "t005" / "nac.yaml").write_text(ORDERS)
    code, _out, err = run("seal", tmp_path / "orders/t005/nac.yaml", "--source", tmp_path)
    assert (code, err) == (1, "ftpress: this campaign's orders travel in plain "
                              "(settings.secrecy in state/campaign.yaml is not 'sealed'); "
                              "send the plain file\n")


def test_what_the_pull_request_check_knows_without_a_key(sealed, run):
    root, nac = sealed
    assert run("seal", root / "orders/t005/nac.yaml", "--source", root)[0] == 0
    state = load_folder(root).state
    path = "orders/t005/nac.yaml.age"
    data = (root / path).read_bytes()
    assert sealing.sealed_problems(path, data, state) == []
    only_nac = pyrage.encrypt(ORDERS.encode(), [nac.to_public()])
    assert [p.message for p in sealing.sealed_problems(path, only_nac, state)] == [
        "is not sealed to 1 of its 2 recipients (the umpires' in state/campaign.yaml and the "
        "player's in state/players.yaml); seal it again with 'ftpress seal'"]
    assert [p.message for p in sealing.sealed_problems(path, ORDERS.encode(), state)] == [
        "is not an age file (it does not start 'age-encryption.org/v1'); expected the file "
        "'ftpress seal' writes"]
    assert [p.message for p in sealing.sealed_problems(path, data[:40], state)] == [
        "is not a whole age file (its header never ends); expected the file 'ftpress seal' "
        "writes"]
    huge = data + b"\0" * sealing.MAX_SEALED_BYTES
    assert sealing.sealed_problems(path, huge, state)[0].message.startswith(
        f"is {len(huge):,} bytes; a sealed order file may be at most ")


# --- the pull-request check -------------------------------------------------------

def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def _repo(root: Path) -> str:
    """``root`` as a Git repository with nac's GitHub id; the base commit."""
    players = root / "state" / "players.yaml"
    players.write_text(players.read_text().replace("  - id: nac\n",
                                                   "  - id: nac\n    github_id: 1001\n", 1))
    _git(root, "init", "-q", "-b", "main")
    _git(root, "config", "user.name", "Umpire")
    _git(root, "config", "user.email", "umpire@example.org")
    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "The campaign")
    return _git(root, "rev-parse", "HEAD")


def _commit(root: Path, base: str, files: dict[str, bytes]) -> str:
    _git(root, "checkout", "-q", "--detach", base)
    for rel, data in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
        _git(root, "add", "-f", rel)
    _git(root, "commit", "-q", "-m", "Orders")
    head = _git(root, "rev-parse", "HEAD")
    _git(root, "checkout", "-q", "main")
    return head


_NOW = datetime.fromisoformat(FTCAMP02.now)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_the_pull_request_check_reads_no_sealed_content(sealed, run):
    from ftpress.github.check_pr import check_pull_request

    root, _ = sealed
    assert run("seal", root / "orders/t005/nac.yaml", "--source", root)[0] == 0
    data = (root / "orders/t005/nac.yaml.age").read_bytes()
    (root / "orders/t005/nac.yaml.age").unlink()
    (root / "orders/t005/nac.yaml").unlink()
    base = _repo(root)
    report = check_pull_request(root, base, _commit(root, base, {
        "orders/t005/nac.yaml.age": data}), 1001, now=_NOW)
    assert report.ok, report.text()
    text = report.text()
    assert "maintain_orbit" not in text and "nac-1" not in text
    digest = hashlib.sha256(data).hexdigest()
    assert f"  sealed, {len(data):,} bytes, SHA-256 {digest}, checked 2026-06-27T12:00:00+00:00" \
        in text
    assert text.endswith("accepted: orders for t005 from nac, GitHub id 1001")
    summary = report.markdown()
    assert "maintain" not in summary and "nac-1" not in summary and digest in summary
    plain = check_pull_request(root, base, _commit(root, base, {
        "orders/t005/nac.yaml": ORDERS.encode()}), 1001, now=_NOW)
    assert [str(r) for r in plain.refusals] == [
        "orders/t005/nac.yaml: is a plain order file, and this campaign's orders are sealed; "
        "run 'ftpress seal orders/t005/nac.yaml --identity <your key file>' and commit orders/t005/nac.yaml.age instead "
        "(the plain file is git-ignored)"]
    junk = check_pull_request(root, base, _commit(root, base, {
        "orders/t005/nac.yaml.age": b"age-encryption.org/v1\n"}), 1001, now=_NOW)
    assert [str(p) for p in junk.problems] == [
        "orders/t005/nac.yaml.age: is not a whole age file (its header never ends); expected "
        "the file 'ftpress seal' writes"]
    theirs = check_pull_request(root, base, _commit(root, base, {
        "orders/t005/esu.yaml.age": data}), 1001, now=_NOW)
    assert [r.reason for r in theirs.refusals] == [
        "is esu's orders, but the pull request is from nac; a player may change only their "
        "own file, orders/t005/nac.yaml"]


# --- the turn -----------------------------------------------------------------------

def test_the_turn_opens_sealed_orders_and_keys_its_dice_on_their_receipts(sealed, run):
    from ftpress.store import SealedStore
    from ftpress.turn.redo import redo_turns
    from ftpress.turn.resolve import resolve_turn
    from ftpress.turn.verify import verify_turn

    root, _ = sealed
    assert run("seal", root / "orders/t005/nac.yaml", "--source", root)[0] == 0
    (root / "orders/t005/nac.yaml").unlink()  # git-ignored: the job never sees it
    key = (root / agekeys.UMPIRE_KEY_FILE).read_text()
    (root / agekeys.UMPIRE_KEY_FILE).unlink()
    with pytest.raises(Exception, match=r"this campaign is sealed: resolving a turn needs the umpire.s key"):
        resolve_turn(root, now=datetime.fromisoformat(FTCAMP02.now), early=True, environ={})
    result = resolve_turn(root, now=datetime.fromisoformat(FTCAMP02.now), early=True,
                          environ={agekeys.UMPIRE_KEY_ENV: key})
    data = (root / "orders/t005/nac.yaml.age").read_bytes()
    record = (root / "state/turns/t005/turn.yaml").read_text()
    receipts = {"nac": hashlib.sha256(data).hexdigest()}  # as the pull request's check said
    assert f"orders_sha256: {sealing.receipts_digest(receipts)}" in record
    assert "digest_of: receipts" in record and f"nac: {receipts['nac']}" in record
    assert (root / "state/turns/t005/orders/nac.yaml.age").read_bytes() == data
    assert not any(e.rule == sealing.RULE for e in result.events)
    assert verify_turn(SealedStore(root), "t005") == []  # as a third party can
    umpire = agekeys.parse_identities(key, "the key")
    assert verify_turn(SealedStore(root, UmpireKey(tuple(umpire), "the key")), "t005") == []
    record = root / "state/turns/t005"

    def kept() -> dict[Path, bytes]:  # the sealed intelligence opened: it is sealed afresh
        return {p: agekeys.decrypt(p.read_bytes(), umpire) if p.parent.name ==
                "intelligence" else p.read_bytes() for p in record.rglob("*") if p.is_file()}

    recorded = kept()
    (root / agekeys.UMPIRE_KEY_FILE).write_text(key)
    redo_turns(root, "t005")
    assert kept() == recorded


def _to_umpire(root: Path, data: bytes) -> bytes:
    return pyrage.encrypt(data, [_umpire(root)[0].to_public()])


@pytest.mark.parametrize(("make", "why"), [
    (lambda root: pyrage.encrypt(ORDERS.encode(), [x25519.Identity.generate().to_public()]),
     "orders/t005/nac.yaml.age is not sealed to this key (no recipient stanza matches it)"),
    (lambda root: _to_umpire(root, ORDERS.encode())[:-20],
     "orders/t005/nac.yaml.age is damaged or cut short (it does not decrypt whole)"),
    (lambda root: ORDERS.encode(),
     "orders/t005/nac.yaml.age is not an age file (it does not start "
     "'age-encryption.org/v1')"),
    (lambda root: _to_umpire(root, ORDERS.replace("t005", "t004").encode()),
     "orders/t005/nac.yaml.age is not valid orders: orders/t005/nac.yaml:1:7: these orders "
     "are for t004 but the file is in orders/t005/; move the file or correct the turn"),
])
def test_orders_that_cannot_be_used_make_the_player_hold(sealed, make, why):
    from ftpress.store import SealedStore
    from ftpress.turn.resolve import resolve_turn
    from ftpress.turn.verify import verify_turn

    root, _ = sealed
    (root / "orders/t005/nac.yaml").unlink()
    (root / "orders/t005/nac.yaml.age").write_bytes(make(root))
    result = resolve_turn(root, now=datetime.fromisoformat(FTCAMP02.now), early=True,
                          environ={agekeys.UMPIRE_KEY_ENV: (root / agekeys.UMPIRE_KEY_FILE
                                                            ).read_text()})
    assert verify_turn(SealedStore(root), "t005") == []  # the finding is the record's, no key needed
    told = [(e.audience, e.text) for e in result.events if e.rule == sealing.RULE]
    assert [(repr(a), t) for a, t in told] == [
        ("Audience.told('nac')", f"Your sealed orders could not be used: {why}."),
        ("PUBLIC", "The NAC's orders could not be used; its groups hold.")]


# --- each player's own view -------------------------------------------------------

def test_a_players_view_shows_what_they_are_told_and_nothing_of_the_others(sealed, run):
    root, _ = sealed
    code, _out, err = run("build", "--source", root, "--view", "nac", "--identity",
                         root / "nac.key", "--now", FTCAMP02.now)
    assert (code, err) == (0, ""), err
    assert run("build", "--source", root, "--now", FTCAMP02.now)[0] == 0
    mine = (root / "_site-nac" / "turns" / "t001" / "index.html").read_text()
    public = (root / "_site" / "turns" / "t001" / "index.html").read_text()
    told_nac = "nac-3 is attached to nac-1 and its marker comes off the map."
    told_esu = "lost roll after 2 hexes"
    assert told_nac in mine and told_nac not in public
    assert told_esu not in mine and told_esu not in public
    # nac's own ships are listed on nac's page, as nobody else's page lists them.
    state = load_folder(root, umpire=open_at_hand(root).key).state
    own = [s.name for g in state.groups_of("nac") for s in g.ships]
    page = (root / "_site-nac" / "players" / "nac" / "index.html").read_text()
    assert all(name in page for name in own)
    esu = [s.name for g in state.groups_of("esu") if not g.revealed for s in g.ships]
    esu_page = (root / "_site-nac" / "players" / "esu" / "index.html").read_text()
    assert esu and not any(name in esu_page for name in esu)
    # nac's order form for the open turn is on nac's page, nobody else's.
    public_nac = (root / "_site" / "players" / "nac" / "index.html").read_text()
    assert "orders/t005/nac.yaml" in page and "orders/t005/nac.yaml" not in public_nac
    assert "orders/t005/esu.yaml" not in esu_page


def test_a_players_view_needs_their_key(sealed, run):
    root, _ = sealed
    (root / "wrong.key").write_text(f"{x25519.Identity.generate()}\n")
    cases = [
        (("--view", "nac"), "ftpress: --view nac needs --identity FILE, nac's age secret key "
         "or SSH private key\n"),
        (("--view", "nac", "--identity", root / "wrong.key"),
         f"ftpress: {root / 'wrong.key'}: this identity does not answer to nac's recipient in "
         "state/players.yaml; nothing was built\n"),
        (("--view", "esu", "--identity", root / "wrong.key"),
         "ftpress: player 'esu' has no recipient in state/players.yaml, so no key can prove "
         "the view is theirs; add 'recipient:' first\n"),
        (("--view", "zzz"), "ftpress: --view 'zzz': expected 'public', 'umpire' or a player's "
         "id (nac, esu, fsr)\n"),
    ]
    for args, message in cases:
        assert run("build", "--source", root, *args) == (1, "", message)
    assert not [p.name for p in root.iterdir() if p.name.startswith("_site")]


def test_check_reads_a_sealed_files_form_and_says_what_needs_the_key(sealed, run):
    root, _ = sealed
    assert run("seal", root / "orders/t005/nac.yaml", "--source", root)[0] == 0
    (root / "orders/t005/nac.yaml").unlink()
    code, out, err = run("check", root / "orders/t005", "--source", root)
    assert (code, err) == (0, ""), err
    assert out == (f"orders/t005/nac.yaml.age:\n  {sealing.NEEDS_KEY}\n"
                   "checked 1 file: no problems\n")
    (root / "orders/t005/nac.yaml.age").write_bytes(b"turn: t005\n")
    code, out, err = run("check", root / "orders/t005", "--source", root)
    assert code == 1
    assert err.startswith("orders/t005/nac.yaml.age: is not an age file")


def test_serve_builds_a_players_view_and_asks_for_their_key(sealed, run, tmp_path):
    from ftpress.site.serve import LiveSite

    root, _ = sealed
    assert run("serve", "--source", root, "--view", "nac") == (
        1, "", "ftpress: --view nac needs --identity FILE, nac's age secret key or SSH "
        "private key\n")
    site = LiveSite(root, tmp_path / "out", drafts=False, future=False, now=FTCAMP02.now,
                    view="nac", identity=root / "nac.key")
    site.rebuild()
    assert site.error is None, site.error
    page = (tmp_path / "out" / "turns" / "t001" / "index.html").read_text()
    assert "nac-3 is attached to nac-1" in page and "lost roll after 2 hexes" not in page


def test_status_counts_only_sealed_files_in_a_sealed_campaign(sealed, run):
    from ftpress.commands.status import turn_status

    root, _ = sealed
    now = datetime.fromisoformat(FTCAMP02.now)
    assert turn_status(root, now).submitted == ()  # a plain file is no orders sent
    assert run("seal", root / "orders/t005/nac.yaml", "--source", root)[0] == 0
    assert turn_status(root, now).submitted == ("nac",)


def test_seal_refuses_a_file_outside_the_campaign(sealed, run, tmp_path):
    root, _ = sealed
    stray = tmp_path / "nac.yaml"
    stray.write_text(ORDERS)
    assert run("seal", stray, "--source", root) == (
        1, "", f"{stray}: not inside the campaign folder {root}\n"
        "ftpress: 1 problem found; nothing was written\n")


def test_each_player_with_a_key_gets_what_they_know_sealed_to_them(sealed, run):
    import yaml

    from ftpress.turn.resolve import resolve_turn

    root, nac = sealed
    assert run("seal", root / "orders/t005/nac.yaml", "--source", root)[0] == 0
    result = resolve_turn(root, now=datetime.fromisoformat(FTCAMP02.now), early=True,
                          environ={agekeys.UMPIRE_KEY_ENV: (root / agekeys.UMPIRE_KEY_FILE
                                                            ).read_text()})
    folder = root / "state/turns/t005/intelligence"
    assert sorted(p.name for p in folder.iterdir()) == ["nac.yaml.age"]  # esu, fsr: no key
    known = yaml.safe_load(pyrage.decrypt((folder / "nac.yaml.age").read_bytes(), [nac]))
    assert (known["turn"], known["player"]) == ("t005", "nac")
    assert [g["id"] for g in known["state"]["groups"]["groups"] if g["owner"] == "nac"] == [
        g.id for g in result.state.groups_of("nac")]
    assert known["state"]["campaign"]["known_to"] == "nac"
    told = [e.text for e in result.events if e.audience.tells("nac")]
    assert [e["text"] for e in known.get("events", [])] == told
    assert not any(e.audience.players == ("esu",) and e.text in told for e in result.events)


def test_the_turn_commands_log_says_nothing_sealed(sealed, run, monkeypatch):
    root, _ = sealed
    assert run("seal", root / "orders/t005/nac.yaml", "--source", root)[0] == 0
    (root / "orders/t005/nac.yaml").unlink()
    monkeypatch.setenv(agekeys.UMPIRE_KEY_ENV, (root / agekeys.UMPIRE_KEY_FILE).read_text())
    (root / agekeys.UMPIRE_KEY_FILE).unlink()
    state = load_folder(root).state
    code, out, err = run("turn", "--early", "--now", FTCAMP02.now, "--source", root)
    assert (code, err) == (0, ""), err
    assert "resolved t005: " in out
    hidden = ["maintain_orbit", *(s.name for g in state.groups.groups for s in g.ships),
              *(g.id for g in state.groups.groups if g.dummy)]
    assert hidden and [h for h in hidden if h in out] == []


# --- properties -----------------------------------------------------------------------

_KEYS = [x25519.Identity.generate() for _ in range(4)]


@given(st.lists(st.sampled_from(range(4)), min_size=1, max_size=4, unique=True),
       st.binary(max_size=300))
@settings(max_examples=25, deadline=None)
def test_a_sealed_file_has_a_stanza_for_each_recipient_and_opens_with_each_key(chosen, data):
    to = [str(_KEYS[i].to_public()) for i in chosen]
    sealed_bytes = sealing.seal(data, to)
    stanzas = agekeys.header(sealed_bytes)
    assert agekeys.missing_recipients(stanzas, to) == []
    assert len([s for s in stanzas if s.type == "X25519"]) == len(to)
    for i in range(4):
        if i in chosen:
            assert agekeys.decrypt(sealed_bytes, [_KEYS[i]]) == data
        else:
            with pytest.raises(agekeys.Unreadable):
                agekeys.decrypt(sealed_bytes, [_KEYS[i]])


@given(st.dictionaries(st.sampled_from(["esu", "fsr", "nac"]), st.binary(max_size=40),
                       min_size=1), st.data())
@settings(max_examples=50, deadline=None)
def test_the_dice_key_changes_with_any_byte_of_any_sealed_file(files, data):
    player = data.draw(st.sampled_from(sorted(files)))
    changed = dict(files)
    changed[player] = files[player] + b"\0"
    assert sealing.sealed_digest(changed) != sealing.sealed_digest(files)
    assert sealing.sealed_digest(dict(reversed(list(files.items())))) == \
        sealing.sealed_digest(files)


def test_keys_check_names_a_file_sealed_before_a_recipient_was_added(sealed, run):
    root, _ = sealed
    assert run("seal", root / "orders/t005/nac.yaml", "--source", root)[0] == 0
    campaign = root / "state" / "campaign.yaml"
    deputy = x25519.Identity.generate().to_public()
    campaign.write_text(campaign.read_text().replace("umpire_recipients: [",
                                                     f"umpire_recipients: [{deputy}, "))
    code, out, _err = run("keys", "check", "--source", root)
    assert code == 1
    assert (
        "orders/t005/nac.yaml.age: is not sealed to 1 of its 3 recipients (the umpires' in "
        "state/campaign.yaml and the player's in state/players.yaml); seal it again with "
        "'ftpress seal'") in out.splitlines()


def test_a_power_handed_to_a_new_player_loses_the_last_ones_recipient(sealed, run):
    root, _ = sealed
    players = root / "state" / "players.yaml"
    players.write_text(players.read_text().replace("  - id: nac\n",
                                                   "  - id: nac\n    github_id: 1001\n", 1))
    code, _out, err = run("roster", "replace", "nac", "--github", "newcomer:2002",
                          "--source", root)
    assert (code, err) == (0, ""), err
    assert load_folder(root).state.player("nac").recipient is None
