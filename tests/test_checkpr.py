"""The orders workflow's logic without GitHub: ``ftpress check-pr`` on branches of a
throw-away Git repository made by ``ftpress init``, then merge, ``turn --if-due``
and ``build``, as the publish workflow runs them."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from ftpress.github import check_pr
from ftpress.github.check_pr import md

NOW = "2026-03-01T10:00:00+00:00"
BEFORE_DEADLINE = "2026-03-02T10:00:00+00:00"
AFTER_DEADLINE = "2026-03-09T10:00:00+00:00"
NAC, NSL, UMPIRE, STRANGER = 1001, 1002, 9, 4242

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def orders(player: str, note: str = "Hold the line.", turn: str = "t001") -> str:
    return f"turn: {turn}\nplayer: {player}\ngroups: {{}}\neconomy:\n  maintenance: full\n" \
        f"# {note}\n"


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """A campaign made by ``ftpress init``, with GitHub ids, committed on main."""
    from ftpress.cli import main

    root = tmp_path_factory.mktemp("template") / "outer-marches"
    assert main(["init", str(root), "--players", "nac,nsl", "--seed", "42", "--now", NOW,
                 "--secrecy", "open"]) == 0  # plain orders in pull requests
    players = root / "state/players.yaml"
    text = players.read_text()
    text = text.replace("  - id: nac\n", f"  - id: nac\n    github: nac-player\n"
                        f"    github_id: {NAC}\n")
    text = text.replace("  - id: nsl\n", f"  - id: nsl\n    github_id: {NSL}\n")
    players.write_text(text)
    with (root / "state/campaign.yaml").open("a") as handle:
        handle.write(f"umpires:\n  - github: the-umpire\n    github_id: {UMPIRE}\n")
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.name", "Umpire")
    git(root, "config", "user.email", "umpire@example.org")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "The campaign")
    return root


@pytest.fixture
def repo(template, tmp_path) -> Path:
    root = tmp_path / "outer-marches"
    shutil.copytree(template, root, symlinks=True)
    return root


def branch(root: Path, name: str, files: dict[str, str | None] | None = None,
           symlinks: dict[str, str] | None = None, chmod: tuple[str, ...] = ()) -> str:
    """Commit ``files`` (None: delete) on a new branch from main; back to main; its sha."""
    git(root, "checkout", "-q", "-b", name, "main")
    for rel, text in (files or {}).items():
        if text is None:
            git(root, "rm", "-q", rel)
            continue
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
        git(root, "add", rel)
    for rel, target in (symlinks or {}).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).symlink_to(target)
        git(root, "add", rel)
    for rel in chmod:
        (root / rel).chmod(0o755)
        git(root, "add", rel)
    git(root, "commit", "-q", "-m", name)
    sha = git(root, "rev-parse", "HEAD")
    git(root, "checkout", "-q", "main")
    return sha


def check(run, root: Path, head: str, author_id: int, author: str = "someone",
          summary: Path | None = None, now: str = BEFORE_DEADLINE) -> tuple[int, str, str]:
    base = git(root, "rev-parse", "main")
    extra = ["--summary", summary] if summary is not None else []
    return run("check-pr", "--source", root, "--base", base, "--head", head,
               "--author-id", str(author_id), "--author", author, "--now", now, *extra)


# --- accepted ---------------------------------------------------------------------------

def test_a_players_own_orders_are_accepted_and_restated(run, repo, tmp_path):
    head = branch(repo, "nac-orders", {"orders/t001/nac.yaml": orders("nac")})
    summary = tmp_path / "summary.md"
    code, out, err = check(run, repo, head, NAC, "nac-player", summary)
    assert (code, err) == (0, "")
    assert out.startswith("orders/t001/nac.yaml:\n  ")
    assert out.endswith("accepted: orders for t001 from nac, nac-player (GitHub id 1001)\n")
    text = summary.read_text()
    assert text == ("## Orders for t001 accepted\n\nFrom nac, nac\\-player "
                    "\\(GitHub id 1001\\). When the turn is resolved:\n\n"
                    "### orders/t001/nac\\.yaml\n\n"
                    # t001 is the set-up turn of a campaign init made (ftc2007 §6).
                    "- No set\\-up orders: all 4,200 of the starting capital is kept as "
                    "reserve cash \\(§6\\.2\\.3\\)\\.\n"
                    "- Maintenance for economic turn 1: full \\(§7\\)\\.\n")


def test_an_umpire_may_change_any_players_orders(run, repo):
    head = branch(repo, "umpire", {"orders/t001/nac.yaml": orders("nac"),
                                   "orders/t001/nsl.yaml": orders("nsl")})
    code, out, _ = check(run, repo, head, UMPIRE, "the-umpire")
    assert code == 0
    assert "orders/t001/nac.yaml:" in out and "orders/t001/nsl.yaml:" in out
    assert out.endswith("from the umpire the-umpire (GitHub id 9)\n")


def test_editing_ones_own_orders_again_is_accepted(run, repo):
    first = branch(repo, "first", {"orders/t001/nsl.yaml": orders("nsl")})
    git(repo, "merge", "-q", "--ff-only", first)
    head = branch(repo, "second", {"orders/t001/nsl.yaml": orders("nsl", "Changed my mind.")})
    assert check(run, repo, head, NSL)[0] == 0


def test_only_the_pull_requests_own_changes_count_when_main_has_moved_on(run, repo):
    head = branch(repo, "nac-orders", {"orders/t001/nac.yaml": orders("nac")})
    umpire = branch(repo, "post", {"content/pages/news.md": "---\ntitle: News\n---\nNews.\n"})
    git(repo, "merge", "-q", "--ff-only", umpire)
    assert check(run, repo, head, NAC)[0] == 0


# --- refused ------------------------------------------------------------------------------

REFUSED = [
    pytest.param({"orders/t001/nac.yaml": orders("nac"),
                  "state/players.yaml": "players: []\n"}, NAC,
                 ["state/players.yaml: changes a file outside orders/; an orders pull request "
                  "may change only order files, orders/t001/<player-id>.yaml (ask the umpire "
                  "for anything else)"], id="state edited too"),
    pytest.param({"orders/t001/nsl.yaml": orders("nsl")}, NAC,
                 ["orders/t001/nsl.yaml: is nsl's orders, but the pull request is from nac; a "
                  "player may change only their own file, orders/t001/nac.yaml"],
                 id="another player's file"),
    pytest.param({"orders/t001/nac.yaml": orders("nac")}, STRANGER,
                 ["orders/t001/nac.yaml: the pull request's author, GitHub id 4242, is neither "
                  "a player (github_id in state/players.yaml) nor an umpire (umpires in "
                  "state/campaign.yaml)"], id="wrong author id"),
    pytest.param({"orders/t002/nac.yaml": orders("nac", turn="t002")}, NAC,
                 ["orders/t002/nac.yaml: orders for t002, but the turn open for orders is t001"],
                 id="not the open turn"),
    pytest.param({"orders/README.md": None}, UMPIRE,
                 ["orders/README.md: deletes a file; an orders pull request may only add or "
                  "edit order files"], id="a deletion"),
    pytest.param({"orders/t001/zog.yaml": orders("zog")}, UMPIRE,
                 ["orders/t001/zog.yaml: no player is called 'zog'; expected one of nac, nsl"],
                 id="no such player"),
    pytest.param({"orders/t001/notes.txt": "hello\n"}, NAC,
                 ["orders/t001/notes.txt: not an order file; expected "
                  "orders/<turn-id>/<player-id>.yaml, such as orders/t004/nac.yaml"],
                 id="not an order file"),
    pytest.param({".github/workflows/orders.yml": "on: push\n",
                  "orders/t001/nac.yaml": orders("nac")}, UMPIRE,
                 [".github/workflows/orders.yml: changes a file outside orders/; an orders pull "
                  "request may change only order files, orders/t001/<player-id>.yaml (ask the "
                  "umpire for anything else)"], id="the workflow with orders, even by the umpire"),
]


@pytest.mark.parametrize("author", [UMPIRE, NAC, STRANGER])
def test_a_pull_request_without_orders_passes_through_to_the_umpires_review(run, repo, tmp_path,
                                                                            author):
    """A ruling, Dependabot's updates: nothing for the orders check, which passes so the
    required check never waits; nobody but the umpire can merge it (players have no write
    access), and the merge workflow never merges it (auto-merge stays false)."""
    head = branch(repo, "ruling", {"content/posts/2026/03/02-a-ruling.md": "---\n",
                                   "requirements.txt": "ftpress==9.9.9\n"})
    summary = tmp_path / "summary.md"
    output = tmp_path / "output"
    code, out, err = check(run, repo, head, author, "dependabot[bot]", summary=summary)
    assert (code, err) == (0, "")
    assert out.startswith("passed through: the pull request from ")
    assert out.endswith("changes no file under orders/, so there are no orders to check; the "
                        "umpire reviews it\n")
    assert summary.read_text().startswith("## No orders in this pull request\n")
    del output


@pytest.mark.parametrize(("files", "author", "refusals"), REFUSED)
def test_refused(run, repo, tmp_path, files, author, refusals):
    head = branch(repo, "pr", files)
    summary = tmp_path / "summary.md"
    code, out, err = check(run, repo, head, author, summary=summary)
    assert (code, out) == (1, "")
    lines = err.splitlines()
    assert [line.removeprefix("refused: ") for line in lines if line.startswith("refused: ")] \
        == refusals
    assert lines[-1].startswith("ftpress: pull request refused: ")
    assert summary.read_text().startswith("## Orders pull request refused: ")
    assert "### Changes an orders pull request may not make" in summary.read_text()


def test_the_roster_is_the_base_revisions_even_with_the_pull_request_checked_out(run, repo):
    players = (repo / "state/players.yaml").read_text()
    head = branch(repo, "sneaky", {
        "state/players.yaml": players.replace(f"github_id: {NSL}", f"github_id: {STRANGER}"),
        "orders/t001/nsl.yaml": orders("nsl")})
    git(repo, "checkout", "-q", head)  # what a workflow checking out the wrong commit would do
    code, _, err = check(run, repo, head, STRANGER)
    assert code == 1
    assert "refused: orders/t001/nsl.yaml: the pull request's author, GitHub id 4242, is " \
        "neither a player" in err
    assert "refused: state/players.yaml: changes a file outside orders/" in err


def test_a_symlink_is_refused_and_never_read(run, repo, monkeypatch):
    head = branch(repo, "link", symlinks={"orders/t001/nac.yaml": "../../state/players.yaml"})
    read = []
    monkeypatch.setattr(check_pr, "read_blob", lambda *args: read.append(args) or b"")
    code, _, err = check(run, repo, head, NAC)
    assert code == 1
    assert "refused: orders/t001/nac.yaml: is a symbolic link; expected an ordinary file " \
        "(mode 100644), and it was not read" in err
    assert read == []


def test_a_mode_change_is_refused_and_never_read(run, repo, monkeypatch):
    first = branch(repo, "first", {"orders/t001/nac.yaml": orders("nac")})
    git(repo, "merge", "-q", "--ff-only", first)
    head = branch(repo, "exec", chmod=("orders/t001/nac.yaml",))
    read = []
    monkeypatch.setattr(check_pr, "read_blob", lambda *args: read.append(args) or b"")
    code, _, err = check(run, repo, head, NAC)
    assert code == 1
    assert "refused: orders/t001/nac.yaml: is an executable file; expected an ordinary file " \
        "(mode 100644), and it was not read" in err
    assert read == []


def test_invalid_orders_list_every_problem_at_its_line(run, repo, tmp_path):
    head = branch(repo, "bad", {"orders/t001/nac.yaml": "turn: t001\nplayer: nsl\n"
                                "groups: {}\nfleet: yes\n"})
    summary = tmp_path / "summary.md"
    code, out, err = check(run, repo, head, NAC, summary=summary)
    assert (code, out) == (1, "")
    problems = [line for line in err.splitlines() if line.startswith("orders/t001/nac.yaml:")]
    assert problems and all(re.match(r"orders/t001/nac\.yaml:\d+:\d+: ", p) for p in problems)
    assert "### Problems in the orders" in summary.read_text()


def test_an_empty_pull_request_is_refused(run, repo):
    base = git(repo, "rev-parse", "main")
    code, _, err = check(run, repo, base, NAC)
    assert code == 1
    assert "the pull request changes nothing" in err


def test_an_unknown_revision_is_a_clear_error(run, repo):
    code, out, err = check(run, repo, "0" * 40, NAC)
    assert (code, out) == (1, "")
    assert err.startswith("ftpress: git merge-base ")


# --- the job summary never turns player text into markup --------------------------------

def test_player_text_in_the_summary_is_escaped(run, repo, tmp_path):
    note = "<img src=x onerror=alert(1)> [click](https://evil.example) **bold** `code` | a |"
    head = branch(repo, "evil", {"orders/t001/nac.yaml": orders("nac").replace(
        "groups: {}\n", "groups: {}\nnote: \"" + note + "\"\n")})
    summary = tmp_path / "summary.md"
    check(run, repo, head, NAC, summary=summary)
    text = summary.read_text()
    assert "<img" not in text and "](" not in text and "**" not in text and "`" not in text


@pytest.mark.parametrize(("text", "expected"), [
    ("plain words", "plain words"),
    ("<script>", "&lt;script&gt;"),
    ("[a](b)", "\\[a\\]\\(b\\)"),
    ("# heading", "\\# heading"),
    ("a\nb", "a b"),
    ("a & b", "a &amp; b"),
    ("Zürich", "Zürich"),
])
def test_md_escapes(text, expected):
    assert md(text) == expected


# --- merge, turn --if-due, build -------------------------------------------------------

def test_merge_then_the_turn_resolves_when_everyone_has_sent_orders_and_the_site_builds(
        run, repo, tmp_path):
    for player, author, missing in (("nac", NAC, "2 players have"), ("nsl", NSL, "1 player has")):
        head = branch(repo, f"{player}-orders", {f"orders/t001/{player}.yaml": orders(player)})
        assert check(run, repo, head, author)[0] == 0
        code, out, _ = run("turn", "--if-due", "--source", repo, "--now", BEFORE_DEADLINE)
        assert (code, out) == (0, "t001 is not due: its orders are due 2026-03-08 20:00:00+00:00 "
                               f"and {missing} not sent any; nothing was done\n")
        git(repo, "merge", "-q", "--no-ff", "-m", f"Merge {player}", head)
        if player == "nac":
            code, out, _ = run("status", "--source", repo, "--now", BEFORE_DEADLINE)
            assert out == ("open turn: t001\norders due: 2026-03-08 20:00:00+00:00\n"
                           "submitted (1 of 2): nac\nnot submitted: nsl\n"
                           "due: no, its orders are due 2026-03-08 20:00:00+00:00 and 1 player "
                           "has not sent any\n")
    code, out, err = run("turn", "--if-due", "--source", repo, "--now", BEFORE_DEADLINE)
    assert code == 0, err
    assert out.startswith("t001 is due: every player has sent orders\n")
    assert (repo / "state/turns/t001/turn.yaml").is_file()
    code, out, _ = run("status", "--source", repo, "--now", BEFORE_DEADLINE)
    assert out.startswith("open turn: t002\n")
    code, out, err = run("build", "--source", repo, "--out", tmp_path / "site", "--now",
                         BEFORE_DEADLINE)
    assert (code, err) == (0, "")
    assert (tmp_path / "site/turns/t001/index.html").is_file()


def test_the_turn_is_due_at_its_deadline_with_orders_missing(run, repo):
    code, out, err = run("turn", "--if-due", "--source", repo, "--now", AFTER_DEADLINE)
    assert code == 0, err
    assert out.startswith("t001 is due: its orders were due 2026-03-08 20:00:00+00:00\n")
    assert (repo / "state/turns/t001").is_dir()


def test_check_pr_writes_the_step_summary_named_by_github(run, repo, tmp_path, monkeypatch):
    head = branch(repo, "nac-orders", {"orders/t001/nac.yaml": orders("nac")})
    summary = tmp_path / "step-summary.md"
    summary.write_text("earlier step\n")
    monkeypatch.setitem(os.environ, "GITHUB_STEP_SUMMARY", str(summary))
    assert check(run, repo, head, NAC)[0] == 0
    assert summary.read_text().startswith("earlier step\n## Orders for t001 accepted\n")


# --- the roster's GitHub ids ------------------------------------------------------------

def test_github_ids_and_umpires_round_trip(template, tmp_path):
    from ftpress.state.save import save_state
    from ftpress.store.campaign import load_folder

    first = load_folder(template).state
    assert [p.github_id for p in first.players.players] == [NAC, NSL]
    assert first.players.players[0].github == "nac-player"
    assert [(u.github, u.github_id) for u in first.campaign.umpires] == [("the-umpire", UMPIRE)]
    save_state(tmp_path / "copy", first)
    text = (tmp_path / "copy/state/campaign.yaml").read_text()
    assert text.endswith("umpires:\n  - github_id: 9\n    github: the-umpire\n")
    assert load_folder(tmp_path / "copy").state == first


@pytest.mark.parametrize(("old", "new", "expected"), [
    (f"github_id: {NSL}", "github_id: '1002'", "state/players.yaml:12:16: "),
    (f"github_id: {NSL}", "github_id: 0", "state/players.yaml:12:16: players[1].github_id: "
     "input should be greater than or equal to 1, got 0"),
    (f"github_id: {NSL}", f"github_id: {NAC}", "state/players.yaml:12:16: GitHub id 1001 is "
     "nac's too; expected each player's own numeric GitHub user id"),
])
def test_bad_github_ids_are_located(run, repo, old, new, expected):
    players = repo / "state/players.yaml"
    players.write_text(players.read_text().replace(old, new))
    code, _, err = run("check", "--source", repo, players)
    assert code == 1
    assert expected in err


def test_an_umpire_needs_a_github_id(run, repo):
    campaign = repo / "state/campaign.yaml"
    campaign.write_text(campaign.read_text().replace(f"    github_id: {UMPIRE}\n", ""))
    code, _, err = run("check", "--source", repo, campaign)
    assert code == 1
    assert "state/campaign.yaml:" in err and "github_id" in err


def test_a_path_with_a_line_break_and_markup_is_refused_and_escaped(run, repo, tmp_path):
    head = branch(repo, "odd", {"orders/t001/[x](y)\n# z.yaml": orders("nac")})
    summary = tmp_path / "summary.md"
    code, _, err = check(run, repo, head, NAC, summary=summary)
    assert code == 1
    assert "no player is called '[x](y)\\n# z'" in err
    lines = summary.read_text().splitlines()
    assert "- orders/t001/\\[x\\]\\(y\\) \\# z\\.yaml: no player is called '\\[x\\]\\(y\\)\\\\n\\# " \
        "z'; expected one of nac, nsl" in lines


# --- issue 24: after the fact, sizes, and nothing raw in the log or the summary -----------------

def test_a_pull_request_of_unrelated_history_is_refused_with_a_summary(run, repo, tmp_path):
    """Item 11: `git merge-base` finding nothing gave 'ftpress: git merge-base A B:' and
    no summary."""
    git(repo, "checkout", "-q", "--orphan", "stranger")
    git(repo, "rm", "-rfq", ".")
    (repo / "orders/t001").mkdir(parents=True, exist_ok=True)
    (repo / "orders/t001/nac.yaml").write_text(orders("nac"))
    git(repo, "add", "orders/t001/nac.yaml")
    git(repo, "commit", "-qm", "from nowhere")
    head = git(repo, "rev-parse", "HEAD")
    git(repo, "checkout", "-qf", "main")
    summary = tmp_path / "summary.md"
    code, out, err = check(run, repo, head, NAC, summary=summary)
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        "refused: orders: the pull request's history shares no commit with the base branch; "
        "expected a branch made from it, adding orders/t001/<player-id>.yaml (git merge-base "
        "found none)", "ftpress: pull request refused: 1 problem"]
    assert summary.read_text().startswith("## Orders pull request refused: 1 problem\n")


def test_a_huge_blob_is_refused_unread_at_its_real_size(run, repo, monkeypatch):
    """Item 3: a 100 MB blob was reported as '4,194,305 bytes'."""
    head = branch(repo, "huge", {"orders/t001/nac.yaml": orders("nac") + "#" * (5 << 20)})
    read = []
    real = check_pr._git
    monkeypatch.setattr(check_pr, "_git", lambda root, *args, **kw: read.append(args)
                        or real(root, *args, **kw))
    code, _, err = check(run, repo, head, NAC)
    assert code == 1
    assert "orders/t001/nac.yaml: file is 5.0 MB; expected at most 4 MB for a hand-written " \
        "file" in err.splitlines()
    assert not [args for args in read if args[:2] == ("cat-file", "blob")
                and not args[2].startswith(git(repo, "rev-parse", "main"))]


def test_escape_sequences_reach_neither_the_log_nor_the_summary(run, repo, tmp_path):
    """Item 4: ESC bytes reached the log and the job summary; a line break in a path
    could start a workflow command."""
    head = branch(repo, "esc", {"orders/t001/nac\x1b[2J\n::error::forged.yaml": orders("nac"),
                                "orders/t001/nac.yaml": orders("nac").replace(
                                    "groups: {}\n", 'groups: {}\nnote: "a \\e[31m b"\n')})
    summary = tmp_path / "summary.md"
    code, out, err = check(run, repo, head, NAC, summary=summary)
    assert code == 1
    for line in (out + err).splitlines() + summary.read_text().splitlines():
        assert "\x1b" not in line and not line.lstrip().startswith("::"), line
    assert "refused: orders/t001/nac\\x1b[2J\\x0a::error::forged.yaml: " in err


def test_deep_nesting_in_a_pull_request_is_a_located_problem(run, repo):
    """Item 2: 999 levels of '[' crashed check-pr with RecursionError."""
    head = branch(repo, "deep", {"orders/t001/nac.yaml": orders("nac").replace(
        "groups: {}\n", "groups: {}\nnote: " + "[" * 999 + "]" * 999 + "\n")})
    code, _, err = check(run, repo, head, NAC)
    assert code == 1
    assert "orders/t001/nac.yaml:4:70: lists and mappings nested more than 64 levels deep; " \
        "expected at most 64" in err.splitlines()


def test_set_up_orders_are_checked_and_restated(run, repo, tmp_path):
    """t001 of an ``init`` campaign is the set-up turn (ftc2007 §6): the check restates
    what the capital buys, and refuses what the rules forbid at its line, all at once."""
    capital = next(s["id"] for s in yaml.safe_load((repo / "state/map.yaml").read_text())
                   ["systems"] if s.get("owner") == "nac")
    good = (f"turn: t001\nplayer: nac\nsetup:\n  groups:\n    nac-1:\n      at: {capital}\n"
            "      ships: [{design: nac-ticonderoga, name: Halberd}]\n")
    summary = tmp_path / "summary.md"
    code, out, err = check(run, repo, branch(repo, "setup", {"orders/t001/nac.yaml": good}),
                           NAC, summary=summary)
    assert (code, err) == (0, "")
    assert "nac\\-1 starts at" in summary.read_text()
    bad = (good.replace("nac-ticonderoga", "nsl-waldburg")
           + "    nac-2: {at: nowhere, dummy: true}\n")
    code, out, err = check(run, repo, branch(repo, "bad-setup", {"orders/t001/nac.yaml": bad}),
                           NAC)
    assert (code, out) == (1, "")
    assert [line for line in err.splitlines() if line.startswith("orders/")] == [
        "orders/t001/nac.yaml:5:5: 'nac-1' has no ship left once its refused ships are taken "
        "out, and a counter other than a dummy stands for a ship (§15.2)",
        "orders/t001/nac.yaml:7:24: Waldburg (nsl-waldburg) is a nsl design; you buy the "
        "designs of your own navy (nac) (§13.1)",
        "orders/t001/nac.yaml:8:17: there is no world 'nowhere' on the map"]
