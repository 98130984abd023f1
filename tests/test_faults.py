"""Issue 34's scenarios ("Nothing lost, wave 2"): each way a user lost data or was
misled, with the test that failed before it was put right and passes now.

:data:`SCENARIOS` names, for each of the issue's bullets, the tests that play it;
those that lived elsewhere already are listed by where they are, and those that did
not are here. Every crash test of a sealed campaign asserts, after each crash, that
some key file on disk still opens every sealed file (``_opened_by_one_key_file``).
"""

from __future__ import annotations

import importlib
import shutil

import pytest
from test_crash_safety import (
    T001,
    T002,
    DiskFull,
    Faults,
    _opened_by_one_key_file,
    _sealed_case,
    command,
    copy,
    make_campaign,
    reference,
)

from conftest import files_of

#: Each bullet of the issue's "Why", by its first words → the tests that play it,
#: ``module::function`` (``::function`` alone: this module).
SCENARIOS: dict[str, tuple[str, ...]] = {
    "keys rotate killed twice loses the campaign": (
        "test_crash_safety::test_keys_rotate_killed_at_any_write_twice_never_loses_the_campaign",
    ),
    "keys rotate while a turn runs": (
        "test_crash_safety::test_a_second_writer_is_refused_while_a_turn_runs",
    ),
    "Two ftpress turn at once": (
        "test_crash_safety::test_a_second_writer_is_refused_while_a_turn_runs",
        "test_crash_safety::test_a_turn_stopped_at_any_write_leaves_the_old_state_or_the_new",
    ),
    "A stale twin is resolved over": (
        "test_crash_safety::test_check_and_turn_refuse_a_stale_twin",
    ),
    "A full disk after the write-out's commit point": (
        "test_crash_safety::test_a_full_disk_after_the_commit_point_does_not_say_nothing_was_"
        "changed",
        "::test_a_turn_run_again_after_a_full_disk_past_the_commit_point_resolves_nothing_more",
    ),
    "An interrupted init cannot be resumed": (
        "test_crash_safety::test_init_killed_at_any_write_leaves_no_campaign_or_a_whole_one",
        "test_crash_safety::test_init_killed_around_its_git_init_leaves_no_campaign_or_a_whole_"
        "repository",
    ),
    "keys rotate killed on a campaign fresh from init": (
        "::test_keys_rotate_killed_on_a_fresh_campaign_every_command_names_the_key_that_opens_it",
        "test_crash_safety::test_a_refusal_names_the_key_file_a_cut_short_rotation_kept",
    ),
    "A deputy umpire's keys init in a sealed campaign": (
        "test_crash_safety::test_a_deputy_is_added_as_an_umpire_and_removed_only_on_purpose",
        "test_crash_safety::test_every_key_command_killed_at_any_write_leaves_a_key_that_opens_"
        "the_campaign",
    ),
    "ftpress roster add nac LOGIN:ID drops nac's recipient": (
        "::test_roster_add_keeps_the_players_recipient_in_the_plain_file_and_its_twin",
    ),
    "A killed orders seal leaves .tmp-*.age": (
        "test_crash_safety::test_orders_seal_killed_at_any_write_leaves_no_half_file_and_its_"
        "temporary_is_swept",
        "test_crash_safety::test_check_reports_the_temporary_file_a_killed_seal_left",
    ),
    "Unreadable files give tracebacks": (
        "test_bad_input::test_an_unreadable_folder_is_one_located_line_not_a_traceback",
        "test_bad_input::test_an_unreadable_sealed_order_file_is_one_located_line",
    ),
    "Every problem at once, not yet": (
        "test_order_problems::test_one_file_with_one_problem_of_each_kind_reports_them_all_in_"
        "ftc2007",
        "test_order_problems::test_one_file_with_one_problem_of_each_kind_reports_them_all",
        "test_orders_window::test_every_problem_of_a_file_at_once_its_form_and_the_legality_of_"
        "the_rest",
    ),
    "Order files changed after their turn": (
        "test_hostile_input::test_check_refuses_orders_changed_after_their_turn",
        "::test_the_turn_refuses_an_order_file_edited_after_its_turn",
    ),
    "A thousand order files of unknown players": (
        "test_crash_safety::test_the_turn_refuses_order_files_of_players_who_do_not_exist",
        "::test_a_thousand_order_files_of_unknown_players_are_refused_by_the_turn",
    ),
    "Ten thousand groups": (
        "test_crash_safety::test_the_turn_never_writes_a_file_later_commands_refuse_to_read",
    ),
    "Homoglyphs": (
        "test_hostile_input::test_a_homoglyph_in_an_id_is_named_with_the_id_it_looks_like",
        "test_hostile_input::test_a_bad_id_written_as_a_key_is_located_on_its_own_line",
    ),
    "Free text read as YAML 1.1": (
        "test_yamlsource::test_a_plain_scalar_yaml_1_2_reads_as_text_is_text",
        "::test_a_note_that_says_no_is_kept_as_the_player_wrote_it",
    ),
    "ftpress schemas --out state/turns writes into the campaign's state": (
        "test_bad_input::test_schemas_refuse_an_output_folder_inside_the_campaigns_state",
    ),
    # "What to build": turn refuses what check refuses.
    "turn refuses anything check --identity would report": (
        "::test_the_turn_refuses_what_check_with_the_umpires_key_reports",
    ),
}


@pytest.mark.parametrize("bullet", sorted(SCENARIOS))
def test_every_scenario_of_the_issue_has_its_tests(bullet):
    """The table names tests that exist (renamed or removed, the table says so)."""
    for name in SCENARIOS[bullet]:
        module, _, function = name.partition("::")
        found = importlib.import_module(module or __name__)
        assert callable(getattr(found, function, None)), f"{bullet}: no test {name}"


# --- turn refuses what check refuses ------------------------------------------------

def _problems(err: str) -> list[str]:
    """The located lines of a refusal, without its closing count."""
    return [line for line in err.splitlines() if not line.startswith("ftpress: ")]


@pytest.mark.parametrize("harm", ["another's group", "a post without a title"])
def test_the_turn_refuses_what_check_with_the_umpires_key_reports(tmp_path, capsys, harm):
    """An order for a group the player does not own, seen only with the umpire's key in
    a sealed campaign (the turn used to fold it in as a refusal); a post whose front
    matter lacks its title (the turn used to record, and the build then failed). The
    turn refuses with the very lines ``check --identity`` gives, and writes nothing."""
    root = _sealed_case(tmp_path / "campaign", capsys)
    if harm == "another's group":
        orders = root / "orders/t001/nac.yaml"
        orders.write_text(orders.read_text() + "  e1: {move: b, posture: attack}\n")
    else:
        (root / "content/posts").mkdir(parents=True)
        (root / "content/posts/2026-03-10-news.md").write_text(
            "---\ndate: 2026-03-10T09:00:00+00:00\n---\nNews.\n")
    key = ("--identity", root / ".ftpress-umpire-key")
    code, err = command(capsys, "check", "--source", root, *key)
    assert code == 1 and _problems(err), err
    checked = _problems(err)
    before = files_of(root)
    code, err = command(capsys, "turn", "--source", root, "--now", T001, *key)
    assert code == 1, err
    assert _problems(err) == checked, err
    assert err.endswith("; nothing was written\n"), err
    assert files_of(root) == before


def test_the_turn_refuses_an_order_file_edited_after_its_turn(tmp_path, capsys):
    """t001's order file edited once t001 was recorded: ``check`` says it differs from
    the copy in the record, and the next turn is not resolved over it."""
    root = make_campaign(tmp_path / "campaign")
    assert command(capsys, "turn", "--source", root, "--now", T001)[0] == 0
    orders = root / "orders/t001/esu.yaml"
    orders.write_text(orders.read_text().replace("move: a", "move: b"))
    code, err = command(capsys, "check", "--source", root)
    assert code == 1
    assert ("orders/t001/esu.yaml: differs from the copy folded into the resolved turn, "
            "state/turns/t001/orders/esu.yaml") in err, err
    before = files_of(root)
    code, err = command(capsys, "turn", "--source", root, "--now", T002)
    assert code == 1 and "orders/t001/esu.yaml: differs from the copy" in err, err
    assert files_of(root) == before


def test_a_thousand_order_files_of_unknown_players_are_refused_by_the_turn(tmp_path, capsys):
    """The issue's count: the turn used to resolve with 1,008 events for them."""
    root = make_campaign(tmp_path / "campaign")
    for n in range(1000):
        (root / f"orders/t001/x{n:04}.yaml").write_text(
            f"turn: t001\nplayer: x{n:04}\ngroups: {{}}\n")
    before = files_of(root)
    code, err = command(capsys, "turn", "--source", root, "--now", T001)
    assert code == 1
    assert sum(line.startswith("orders/t001/x") for line in err.splitlines()) >= 1000, \
        err[-500:]
    assert files_of(root) == before


def test_a_note_that_says_no_is_kept_as_the_player_wrote_it(tmp_path, capsys):
    """``note: NO`` was refused as a boolean; it is the player's text, and the turn's
    record keeps it as written."""
    root = make_campaign(tmp_path / "campaign")
    (root / "orders/t001/nac.yaml").write_text(
        "turn: t001\nplayer: nac\nnote: NO\ngroups:\n  n1: {move: b, posture: attack}\n")
    code, err = command(capsys, "check", "--source", root)
    assert code == 0, err
    assert command(capsys, "turn", "--source", root, "--now", T001)[0] == 0
    assert (root / "state/turns/t001/orders/nac.yaml").read_text().count("note: NO\n") == 1


# --- what a crash leaves, and the commands after it ---------------------------------

def test_a_turn_run_again_after_a_full_disk_past_the_commit_point_resolves_nothing_more(
        tmp_path, capsys):
    """Run again (``turn --early``) after the disk filled past the commit point, the
    turn finishes t001's record and stops: it used to resolve t002 as well, before
    anyone sent orders."""
    make_campaign(tmp_path / "old")
    args = ("turn", "--now", T001)
    ref = reference(capsys, tmp_path, *args)
    committed_at = next(i for i, call in enumerate(ref.calls)
                        if call == "replace" and i > ref.calls.index("fsync")) + 1
    root = tmp_path / "full"
    copy(tmp_path / "old", root)
    assert command(capsys, *args, "--source", root, faults=DiskFull(committed_at))[0] == 1
    code, err = command(capsys, "turn", "--early", "--source", root, "--now", T001)
    assert code == 0, err
    assert err == ("ftpress: finished writing the record of t001 and state/, which an "
                   "interrupted run had begun\nftpress: nothing more was done; run `ftpress "
                   "turn` again to go on from there\n"), err
    assert files_of(root) == ref.new
    assert command(capsys, "turn", "--source", root, "--now", T002)[0] == 0
    assert files_of(root) == ref.next


def test_keys_rotate_killed_on_a_fresh_campaign_every_command_names_the_key_that_opens_it(
        tmp_path, capsys, monkeypatch):
    """A sealed campaign just made by ``init``, its key rotated and the rotation killed
    at each write: some key file on disk opens it; ``check`` never says only "this key
    answers to none of the umpire_recipients" (it names ``.ftpress-umpire-key.old``,
    which opens it); finished with that key, one key file opens everything."""
    monkeypatch.setenv("FTPRESS_UMPIRE_SECRET", "0" * 64)
    base = tmp_path / "base"
    assert command(capsys, "init", "--players", "nac,esu", "--seed", "7", "--now",
                   "2026-03-01T09:00:00Z", base)[0] == 0
    counted = Faults()
    probe = tmp_path / "probe"
    copy(base, probe)
    assert command(capsys, "keys", "rotate", "--source", probe, faults=counted)[0] == 0
    writes = [i + 1 for i, call in enumerate(counted.calls) if call != "fsync"]
    assert len(writes) > 10, counted.calls
    # Every write of the first steps and of the last (the key files, the campaign file),
    # and one in sixteen of the sealed files staged and moved between.
    for at in sorted({*writes[:10], *writes[-8:], *writes[10:-8:16]}):
        where = f"killed at call {at} ({counted.calls[at - 1]})"
        root = tmp_path / f"at-{at}"
        copy(base, root)
        assert command(capsys, "keys", "rotate", "--source", root,
                       faults=Faults(at))[0] is None, where
        opener = _opened_by_one_key_file(root)
        assert opener is not None, where
        if opener != ".ftpress-umpire-key":  # (else the key file opens every file)
            code, err = command(capsys, "check", "--source", root)
            assert code == 1 and ".ftpress-umpire-key.old opens it" in err, f"{where}: {err}"
        again = ("--identity", root / opener) if opener != ".ftpress-umpire-key" else ()
        code, err = command(capsys, "keys", "rotate", "--source", root, *again)
        assert code == 0, f"{where}: {err}"
        assert _opened_by_one_key_file(root) == ".ftpress-umpire-key", where
        shutil.rmtree(root)


# --- roster add keeps the player's recipient ----------------------------------------

def test_roster_add_keeps_the_players_recipient_in_the_plain_file_and_its_twin(tmp_path,
                                                                              capsys):
    """``roster add nac LOGIN:ID`` used to drop nac's ``recipient:`` (from the plain
    players file and its twin), so nac could no longer seal orders."""
    from pyrage import x25519

    from ftpress.secrecy import agekeys

    root = _sealed_case(tmp_path / "campaign", capsys)
    nac = x25519.Identity.generate()
    (root / "nac.key").write_text(f"{nac}\n")
    recipient = str(nac.to_public())
    assert command(capsys, "roster", "key", "nac", recipient, "--source", root)[0] == 0
    code, err = command(capsys, "roster", "add", "nac", "alice:101", "--source", root)
    assert code == 0, err
    umpire = agekeys.read_identity(root / ".ftpress-umpire-key")
    players = root / "state/players.yaml"
    whole = agekeys.decrypt((root / "state/players.yaml.age").read_bytes(), umpire)
    for text in (players.read_text(), whole.decode()):
        assert text.count(f"recipient: {recipient}") == 1, text
        assert "github_id: 101" in text, text
    code, err = command(capsys, "orders", "seal", root / "orders/t001/nac.yaml",
                        "--identity", root / "nac.key", "--source", root)
    assert code == 0, err
    assert agekeys.decrypt((root / "orders/t001/nac.yaml.age").read_bytes(), [nac])
