"""A sealed campaign's hidden state (issue 20): each state file, event log, dice log and
recorded order file kept as its public projection in plain, the whole sealed to the
umpires beside it as ``<file>.age``; read with the umpire's key, plain without; the
commands in such a campaign, converting one, and the faults, each with the message a
user sees, exit 1 and nothing written."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from demos import FTC2007, FTCAMP02
from pyrage import x25519

from ftpress.secrecy import agekeys
from ftpress.secrecy.twins import UmpireKey
from ftpress.state.files import KINDS
from ftpress.store.campaign import load_folder

from conftest import files_of

KEY = ".ftpress-umpire-key"


@pytest.fixture
def sealed(tmp_path: Path) -> Path:
    """The sealed ftcamp02 example, as the umpire's checkout (its key file beside it)."""
    return FTCAMP02.sealed_copy(tmp_path / "camp")


def _umpire(root: Path) -> UmpireKey:
    return UmpireKey(tuple(agekeys.read_identity(root / KEY)), KEY)


def _keyless(root: Path) -> Path:
    """The player's checkout: no umpire key."""
    (root / KEY).unlink()
    return root


def _whole(root: Path, rel: str, key: Path | None = None) -> str:
    """The whole file, from its twin."""
    identities = agekeys.read_identity(key or root / KEY)
    return agekeys.decrypt((root / f"{rel}.age").read_bytes(), identities).decode("utf-8")


# --- what is stored where ---------------------------------------------------------------

def test_the_plain_files_hold_the_public_projection_and_the_twins_the_whole(sealed):
    plain = yaml.safe_load((sealed / "state/groups.yaml").read_text())["groups"]
    whole = yaml.safe_load(_whole(sealed, "state/groups.yaml"))["groups"]
    assert len(plain) < len(whole)  # nac-3 is attached, off the map: unseen
    assert not any("ships" in g for g in plain if not g.get("revealed"))
    assert all(g["ships"] for g in whole)
    events = yaml.safe_load((sealed / "state/turns/t003/events.yaml").read_text())["events"]
    assert {e["audience"] for e in events} == {"public"}
    assert any(e["audience"] != "public" for e in yaml.safe_load(
        _whole(sealed, "state/turns/t003/events.yaml"))["events"])
    assert "known_to: public" in (sealed / "state/campaign.yaml").read_text()


def test_the_age_tool_opens_a_twin(sealed):
    age = shutil.which("age")
    if age is None:
        pytest.skip("needs the age tool")
    import subprocess

    done = subprocess.run([age, "-d", "-i", str(sealed / KEY),
                           str(sealed / "state/groups.yaml.age")],
                          capture_output=True, check=True)
    assert done.stdout.decode() == _whole(sealed, "state/groups.yaml")


def test_a_public_roll_keeps_its_place_in_the_stream():
    """The plain dice log holds the public rolls, each with its place; the twin all."""
    from ftpress.state.dice import stream_value
    from ftpress.store.secret import turn_key

    root = FTC2007.root
    plain = yaml.safe_load((root / "state/turns/t002/dice.yaml").read_text())["rolls"]
    record = yaml.safe_load((root / "state/turns/t002/turn.yaml").read_text())
    key = turn_key("tannhauser-reach", "t002", record["orders_sha256"], record.get("secret"))
    assert plain and all(stream_value(key, r["at"], r["sides"]) == r["value"] for r in plain)
    whole = yaml.safe_load(_whole(root, "state/turns/t002/dice.yaml", FTC2007.key_file)
                           )["rolls"]
    assert len(whole) >= len(plain) and all("at" not in r for r in whole)


# --- the commands ------------------------------------------------------------------------

def test_check_without_the_key_checks_the_plain_files_and_says_what_needs_it(sealed, run):
    assert run("check", "--source", _keyless(sealed)) == (0, (
        "not checked without the umpire's key: the 55 sealed twins (state/**/*.age) hold the "
        "whole files; checking them needs the umpire's key (--identity FILE or "
        "$FTPRESS_UMPIRE_KEY)\nchecked the campaign: no problems\n"), "")


def test_check_with_the_key_checks_each_plain_file_is_its_twins_projection(sealed, run):
    assert run("check", "--source", sealed) == (0, "checked the campaign: no problems\n", "")
    groups = sealed / "state/groups.yaml"
    groups.write_text(groups.read_text().replace("    at: stonechat\n", "    at: heron\n", 1))
    code, _out, err = run("check", "--source", sealed)
    assert code == 1
    assert err == ("state/groups.yaml: is not the public projection of its twin "
                   "state/groups.yaml.age; expected only what every player may know: run "
                   "'ftpress keys seal-campaign' to write it again\n"
                   "ftpress: 1 problem in the campaign\n")


def test_a_problem_in_a_twin_is_told_at_its_line(sealed, run):
    rel = "state/groups.yaml"
    text = _whole(sealed, rel).replace("endurance: 35", "endurance: lots", 1)
    line = text.split("endurance: lots")[0].count("\n") + 1
    (sealed / f"{rel}.age").write_bytes(agekeys.encrypt(text.encode(), agekeys.recipients(
        load_folder(sealed).state.campaign.umpire_recipients or ())))
    code, _out, err = run("check", "--source", sealed)
    assert code == 1
    assert err.startswith(f"state/groups.yaml.age:{line}:16: ")


def test_build_without_the_key_is_the_public_site_and_the_umpires_view_needs_it(sealed, run):
    keyless = _keyless(sealed)
    now = ("--now", FTCAMP02.now)
    assert run("build", "--source", keyless, *now)[0] == 0
    assert (keyless / "_site/turns/t003/index.html").is_file()
    before = files_of(keyless)
    assert run("build", "--source", keyless, "--view", "umpire", *now) == (
        1, "", "ftpress: this campaign is sealed: the umpire's view (--view umpire) needs the "
        "umpire's key; give --identity FILE, set $FTPRESS_UMPIRE_KEY, or keep it in "
        ".ftpress-umpire-key; nothing was done\n")
    assert files_of(keyless) == before
    code, _out, err = run("build", "--source", keyless, "--view", "umpire", "--identity",
                          FTCAMP02.key_file, *now)
    assert (code, err) == (0, "")
    page = (keyless / "_site-umpire/turns/t003/index.html").read_text()
    assert "lost roll after 10 hexes" in page
    assert "lost roll after 10 hexes" not in (keyless / "_site/turns/t003/index.html").read_text()


def test_turn_needs_the_key_and_verify_without_it_checks_what_anyone_can(sealed, run):
    keyless = _keyless(sealed)
    before = files_of(keyless)
    assert run("turn", "--early", "--source", keyless) == (
        1, "", "ftpress: this campaign is sealed: resolving a turn needs the umpire's key; give "
        "--identity FILE, set $FTPRESS_UMPIRE_KEY, or keep it in .ftpress-umpire-key; nothing "
        "was done\n")
    assert files_of(keyless) == before
    code, out, _ = run("turn", "--verify", "t004", "--source", keyless)
    assert (code, out) == (0, (
        "verified t004 as anyone can, without the umpire's key: the revealed secret, 0 public "
        "rolls against the keyed stream, the plain state/ against the record, the order files "
        "sent against the record's copies; not verified: that the record's files are those the "
        "turn wrote (t004 was recorded before records listed their hashes in SHA256SUMS); the "
        "orders, the hidden rolls and events, and the state the turn made, and so whether the "
        "public files are what the rules make of them, are sealed: verifying them needs the "
        "umpire's key\n"))
    code, out, _ = run("turn", "--verify", "t004", "--source", keyless, "--identity",
                       FTCAMP02.key_file)
    assert (code, out) == (0, "verified t004: re-resolving it gives the recorded result "
                           "exactly\n")


def test_verify_without_the_key_finds_a_public_roll_changed(tmp_path, run):
    sealed = FTC2007.sealed_copy(tmp_path / "demo")
    dice = sealed / "state/turns/t002/dice.yaml"
    text = dice.read_text()
    rolls = yaml.safe_load(text)["rolls"]
    first = rolls[0]
    changed = first["value"] % first["sides"] + 1
    dice.write_text(text.replace(f"value: {first['value']},", f"value: {changed},", 1))
    code, _out, err = run("turn", "--verify", "t002", "--source", _keyless(sealed))
    assert code == 1
    assert err.startswith(f"state/turns/t002/dice.yaml: roll 1 ({first['purpose']}) is not "
                          "what the turn's keyed stream gives at its place "
                          f"({first['at']})\n")


def test_a_sealed_turn_resolves_verifies_and_redoes(sealed, run):
    code, out, err = run("turn", "--early", "--source", sealed)
    assert (code, err) == (0, ""), err
    assert (sealed / "state/turns/t005/events.yaml.age").is_file()
    assert run("turn", "--verify", "t005", "--source", sealed)[0] == 0
    assert run("check", "--source", sealed) == (0, "checked the campaign: no problems\n", "")
    before = {p: d for p, d in files_of(sealed).items() if "intelligence" not in p}
    code, out, _ = run("turn", "--redo", "t004", "--source", sealed)
    assert code == 0, out
    assert {p: d for p, d in files_of(sealed).items() if "intelligence" not in p} == before


def test_orders_seal_is_the_seal_command(sealed, run):
    code, out, _ = run("orders", "new", "nac", "--source", sealed)
    assert code == 0
    code, out, err = run("orders", "seal", sealed / "orders/t005/nac.yaml", "--source", sealed)
    assert (code, err) == (0, ""), err
    assert out.startswith("orders/t005/nac.yaml.age: sealed, ")
    nac = agekeys.read_identity(sealed / "demo-keys/nac.key")
    plain = (sealed / "orders/t005/nac.yaml").read_bytes()
    assert agekeys.decrypt((sealed / "orders/t005/nac.yaml.age").read_bytes(), nac) == plain


def test_the_umpire_edits_the_state_by_hand_and_seals_it_back(sealed, run):
    code, _out, _ = run("keys", "edit-state", "--source", sealed)
    assert code == 0
    assert "/.ftpress-state/" in (sealed / ".gitignore").read_text().splitlines()
    edited = sealed / ".ftpress-state/groups.yaml"
    edited.write_text(edited.read_text().replace("endurance: 35", "endurance: 30", 1))
    assert run("keys", "seal-state", "--source", sealed)[0] == 0
    assert not (sealed / ".ftpress-state").exists()
    assert "endurance: 30" in _whole(sealed, "state/groups.yaml")
    assert "endurance" not in (sealed / "state/groups.yaml").read_text()
    assert run("check", "--source", sealed) == (0, "checked the campaign: no problems\n", "")


def test_keys_rotate_reseals_every_twin_to_the_new_key(sealed, run):
    old = _umpire(sealed)
    code, _out, err = run("keys", "rotate", "--source", sealed)
    assert (code, err) == (0, ""), err
    new = _umpire(sealed)
    for twin in sorted((sealed / "state").rglob("*.age")):
        data = twin.read_bytes()
        agekeys.decrypt(data, new.identities)
        if twin.parent.name != "intelligence":  # ...which nac's key opens too
            with pytest.raises(agekeys.Unreadable):
                agekeys.decrypt(data, list(old.identities))
    assert run("check", "--source", sealed) == (0, "checked the campaign: no problems\n", "")


# --- converting a campaign -----------------------------------------------------------------

def test_sealing_a_campaign_changes_no_recorded_outcome_and_is_idempotent(tmp_path, run):
    root = FTC2007.copy(tmp_path / "demo")  # the demo as an open campaign: its whole files
    recorded = {p: d for p, d in files_of(root).items()
                if p.startswith("state/turns/") and p.rsplit("/", 1)[1] in
                ("events.yaml", "dice.yaml", "groups.yaml", "queues.yaml", "map.yaml")}
    shutil.copy(FTC2007.key_file, root / KEY)
    code, out, err = run("keys", "seal-campaign", "--source", root)
    assert (code, err) == (0, ""), err
    umpire = _umpire(root)
    for rel, data in recorded.items():
        assert agekeys.decrypt((root / f"{rel}.age").read_bytes(), umpire.identities) == data, rel
    assert "digest_of: orders" in (root / "state/turns/t003/turn.yaml").read_text()
    for turn in ("t002", "t007"):
        assert run("turn", "--verify", turn, "--source", root)[0] == 0
    first = files_of(root)
    code, out, _ = run("keys", "seal-campaign", "--source", root)
    assert code == 0
    assert out.startswith("sealed the campaign: 0 of its ")
    assert files_of(root) == first


def test_seal_campaign_seals_the_open_turns_orders_if_asked(tmp_path, run):
    root = FTCAMP02.copy(tmp_path / "c")
    shutil.copy(FTCAMP02.key_file, root / KEY)
    (root / "orders/t005").mkdir()
    (root / "orders/t005/nac.yaml").write_text("turn: t005\nplayer: nac\n")
    code, out, _ = run("keys", "seal-campaign", "--source", root)
    assert code == 0
    assert ("left in plain, to be sealed by their players ('ftpress orders seal') or with "
            "--seal-orders: orders/t005/nac.yaml") in out
    code, out, _ = run("keys", "seal-campaign", "--seal-orders", "--source", root)
    assert code == 0
    assert "sealed the open turn's orders: orders/t005/nac.yaml.age" in out
    assert not (root / "orders/t005/nac.yaml").exists()


def test_init_seals_an_ftc2007_campaign_and_leaves_sct_open(tmp_path, run):
    code, out, _ = run("init", tmp_path / "a", "--players", "nac,nsl", "--seed", "4", "--now",
                       "2026-03-01T10:00:00+00:00")
    assert code == 0
    # The key is an environment secret only main may read (issue 30), never a repository one.
    assert "it becomes the secret FTPRESS_UMPIRE_KEY of the environment 'umpire'" in out
    assert "Never as repository secrets" in out
    root = tmp_path / "a"
    assert (root / KEY).stat().st_mode & 0o077 == 0
    ignored = (root / ".gitignore").read_text().splitlines()
    assert {"/.ftpress-umpire-key*", "/_site-*/", "/orders/*/*.yaml"} <= set(ignored)
    assert (root / "state/groups.yaml.age").is_file()
    assert (root / "state/turns/t000/dice.yaml.age").is_file()
    assert run("check", "--source", root) == (0, "checked the campaign: no problems\n", "")
    assert run("init", tmp_path / "b", "--players", "nac,nsl", "--seed", "4", "--ruleset",
               "sct")[0] == 0
    assert not list((tmp_path / "b/state").rglob("*.age"))
    assert not (tmp_path / "b" / KEY).exists()


# --- faults -------------------------------------------------------------------------------

def _campaign_files(root: Path) -> dict[str, bytes]:
    """The campaign's files (not the build cache, which a check may fill)."""
    return {p: d for p, d in files_of(root).items() if not p.startswith(".ftpress-cache/")}


def _refused(run, root: Path, *args: str | Path) -> tuple[str, str]:
    """Run a command that must fail, writing nothing: its stdout and stderr."""
    before = _campaign_files(root)
    code, out, err = run(*args)
    assert code == 1, (out, err)
    assert _campaign_files(root) == before
    return out, err


@pytest.mark.parametrize(("spoil", "why"), [
    (lambda data: agekeys.encrypt(b"groups: []\n", [x25519.Identity.generate().to_public()]),
     "is not sealed to this key (no recipient stanza matches it)"),
    (lambda data: data[:-20], "is damaged or cut short (it does not decrypt whole)"),
    (lambda data: b"groups: []\n", "is not an age file (it does not start "
     "'age-encryption.org/v1')"),
])
def test_a_twin_that_does_not_open_is_named(sealed, run, spoil, why):
    twin = sealed / "state/groups.yaml.age"
    twin.write_bytes(spoil(twin.read_bytes()))
    for args in (("check",), ("turn", "--early"), ("build", "--view", "umpire")):
        _out, err = _refused(run, sealed, *args, "--source", sealed)
        assert err.startswith(f"state/groups.yaml.age: {why} (.ftpress-umpire-key); expected "
                              "the full file, sealed to the umpires' recipients in "
                              "state/campaign.yaml ('ftpress keys seal-campaign' writes it)\n"), err


def test_a_plain_file_without_its_twin_is_named(sealed, run):
    (sealed / "state/turns/t002/events.yaml.age").unlink()
    _out, err = _refused(run, _keyless(sealed), "check", "--source", sealed)
    assert err == ("state/turns/t002/events.yaml: has no sealed twin "
                   "state/turns/t002/events.yaml.age; in a sealed campaign the full file is kept "
                   "only sealed to the umpires, and this one holds the public part: run 'ftpress "
                   "keys seal-campaign' with the umpire's key\n"
                   "ftpress: 1 problem in the campaign\n")


def test_a_whole_file_committed_in_plain_is_refused(sealed, run):
    """The hidden state in plain where the projection belongs: every problem at its line."""
    groups = sealed / "state/groups.yaml"
    groups.write_text(_whole(sealed, "state/groups.yaml"))
    _out, err = _refused(run, _keyless(sealed), "check", "--source", sealed)
    assert err.startswith("state/groups.yaml:7:7: this state is what 'public' knows, and no "
                          "contact has shown 'public' what 'nac''s 'nac-1' holds; leave it out\n")


def test_a_plain_state_that_is_not_its_own_public_projection_is_refused(sealed, run):
    """A sealed campaign's plain state is what the public knows, and says so: one that
    does not is the whole state, here every file of it committed in plain."""
    for kind in KINDS.values():
        (sealed / "state" / kind.file).write_text(_whole(sealed, f"state/{kind.file}"))
    _out, err = _refused(run, _keyless(sealed), "check", "--source", sealed)
    assert "state/campaign.yaml: holds what the rules hide from the public; " in err


def test_a_sealed_campaign_of_rules_that_hide_nothing_keeps_its_whole_state_plain(
        tmp_path, run):
    """sct's rules hide nothing (its Knowledge says so): the public's projection of its
    state is the state itself, unmarked, and a sealed sct campaign's plain state is that."""
    root = tmp_path / "sct"
    code, _out, err = run("init", root, "--players", "nac,esu", "--seed", "42", "--now",
                          "2026-03-02T09:00:00+00:00", "--ruleset", "sct",
                          "--secrecy", "sealed")
    assert code == 0, err
    assert "known_to" not in (root / "state/campaign.yaml").read_text()
    code, _out, err = run("check", "--source", root)
    assert (code, err) == (0, "")


def test_events_told_to_some_committed_in_plain_are_refused(sealed, run):
    events = sealed / "state/turns/t003/events.yaml"
    events.write_text(_whole(sealed, "state/turns/t003/events.yaml"))
    _out, err = _refused(run, _keyless(sealed), "check", "--source", sealed)
    assert err == ("state/turns/t003/events.yaml: holds what the rules hide from the public; "
                   "in a sealed campaign the plain file holds only its public projection, the "
                   "whole file being sealed in state/turns/t003/events.yaml.age: run 'ftpress "
                   "keys seal-campaign' with the umpire's key\n"
                   "ftpress: 1 problem in the campaign\n")


def test_a_lost_umpire_key_is_said_plainly(sealed, run):
    keyless = _keyless(sealed)
    for args, why in ((("turn", "--redo", "t003"), "redoing a turn"),
                      (("keys", "seal-campaign"), "sealing the campaign"),
                      (("keys", "edit-state"), "editing the sealed state")):
        _out, err = _refused(run, keyless, *args, "--source", keyless)
        assert err == (f"ftpress: this campaign is sealed: {why} needs the umpire's key; give "
                       "--identity FILE, set $FTPRESS_UMPIRE_KEY, or keep it in "
                       ".ftpress-umpire-key; nothing was done\n")


def test_a_wrong_identity_is_refused_before_anything_is_read(sealed, run):
    wrong = sealed.parent / "wrong.key"
    wrong.write_text(f"{x25519.Identity.generate()}\n")
    for args in (("check",), ("turn", "--early"), ("turn", "--verify", "t003"),
                 ("build", "--view", "umpire"), ("keys", "seal-campaign")):
        _out, err = _refused(run, sealed, *args, "--identity", wrong, "--source", sealed)
        assert err == (f"ftpress: {wrong}: this key answers to none of the umpire_recipients "
                       "in state/campaign.yaml, so it cannot open the sealed files; expected the "
                       "umpire's key (if it is lost, see 'Rotating the umpire key' in the "
                       "README); nothing was done\n"), args
    missing = sealed.parent / "nowhere.key"
    _out, err = _refused(run, sealed, "check", "--identity", missing, "--source", sealed)
    assert err == (f"ftpress: {missing}: no such identity file; expected the file holding your "
                   "age secret key or SSH private key\n")


def test_a_dummy_told_in_a_plain_file_is_refused(tmp_path, run):
    """§15.2: a counter marked a dummy in the plain groups file, where the public may
    not know it, is refused at its line with no key."""
    root = _keyless(FTC2007.sealed_copy(tmp_path / "demo"))
    groups = root / "state/groups.yaml"
    counter = yaml.safe_load(groups.read_text())["groups"][0]
    anchor = f"  - id: {counter['id']}\n    owner: {counter['owner']}\n    at: {counter['at']}\n"
    assert anchor in groups.read_text() and "ships" not in counter
    groups.write_text(groups.read_text().replace(anchor, anchor + "    dummy: true\n", 1))
    _out, err = _refused(run, root, "check", "--source", root)
    line = groups.read_text().split("    dummy: true")[0].count("\n") + 1
    assert err == (f"state/groups.yaml:{line}:12: this state is what 'public' knows, and no "
                   f"contact has shown 'public' what '{counter['owner']}''s '{counter['id']}' "
                   "is a dummy counter; leave it out\nftpress: 1 problem in the campaign\n")


def test_a_player_writes_checks_and_seals_orders_with_their_own_key(tmp_path, run):
    """No umpire key in a player's checkout: the form, the check and the seal are made
    from what the player knows (the public files and their intelligence)."""
    root = _keyless(FTC2007.sealed_copy(tmp_path / "demo"))
    nac = root / "demo-keys/nac.key"
    assert run("orders", "new", "nac", "--source", root) == (
        1, "", "ftpress: this campaign is sealed: nac's form is made from what nac knows; "
        "give --identity FILE, nac's age secret key or SSH private key\n")
    assert run("orders", "new", "nac", "--source", root, "--identity", nac)[0] == 0
    form = (root / "orders/t010/nac.yaml").read_text()
    assert "  nac-1:\n" in form and "nac-counter" not in form
    code, out, err = run("check", "--source", root, root / "orders/t010/nac.yaml")
    assert (code, err) == (0, "")
    assert "its form is checked; its orders are checked against what you know" in out
    code, out, err = run("check", "--source", root, root / "orders/t010/nac.yaml",
                         "--identity", nac)
    assert (code, err) == (0, "")
    assert out.endswith("checked 1 file: no problems\n") and "holds at" in out
    (root / "orders/t010/nac.yaml").write_text(form.replace("  nac-1:\n", "  nac-9:\n", 1))
    code, _out, err = run("orders", "seal", root / "orders/t010/nac.yaml", "--source", root,
                          "--identity", nac)
    assert code == 1 and "there is no group 'nac-9'" in err
    assert not (root / "orders/t010/nac.yaml.age").exists()


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), "-c", "user.name=U", "-c", "user.email=u@example.org",
                    *args], check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_sealing_a_campaign_with_plain_history_says_the_history_stays_readable(tmp_path, run):
    """Sealing hides what comes next; the commits before keep every plain file, so the
    command says so and names the two ways out. A campaign sealed since its first
    commit has no such history and is not warned about."""
    root = FTCAMP02.copy(tmp_path / "c")
    shutil.copy(FTCAMP02.key_file, root / KEY)
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "state", "orders")
    _git(root, "commit", "-q", "-m", "the open campaign")
    code, out, _ = run("keys", "seal-campaign", "--source", root)
    assert code == 0
    assert ("warning: the git history keeps 1 commit of state/, orders/ and battles/ from "
            "before the campaign was sealed, in plain") in out
    assert "a new repository from the converted tree" in out
    assert "'git filter-repo --invert-paths --path state/ --path orders/ --path battles/'" in out
    sealed_from_start = tmp_path / "s"
    assert run("init", sealed_from_start, "--players", "nac,esu", "--seed", "1", "--now",
               "2026-03-01T10:00:00+00:00", "--ruleset", "ftcamp02", "--secrecy", "sealed")[0] == 0
    _git(sealed_from_start, "add", "-A")
    _git(sealed_from_start, "commit", "-q", "-m", "the campaign")
    code, out, _ = run("keys", "seal-campaign", "--source", sealed_from_start)
    assert code == 0 and "warning" not in out
