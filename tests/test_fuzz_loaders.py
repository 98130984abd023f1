"""Fuzzing the loaders: generated and damaged order files, state files and front matter.

Whatever a file holds, ``ftpress check`` (which reads every loader's files) exits
0 or 1, never with a traceback; on 1 every problem is located at a file of the
campaign (or a folder or link in it), no printed line could start a workflow
command or holds a control character, and nothing in the campaign was written.
Each test is kept to a few seconds (a fixed number of derandomized examples), so
that it runs in every CI run.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from damage import Damage, damage
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_hostile_input import printable

from conftest import files_of, post, set_up_demo

NAC = "orders/t001/nac.yaml"
POST = "content/posts/2026/03/02-fuzzed.md"
#: What a problem line starts with: a campaign path, then ':' (and a line and column).
_LOCATED = re.compile(r"^((?:site\.yaml|content|state|orders|battles|themes)(?:/[^:]*)?)"
                      r"(?::\d+(?::\d+)?)?: ")

FAST = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


def set_up(root: Path) -> Path:
    """The demo as set up (state t000, turn 1's orders) and one post."""
    set_up_demo(root)
    (root / POST).parent.mkdir(parents=True)
    (root / POST).write_text(post(date="2026-03-02T10:00:00+00:00", extra="tags: [news]\n"))
    return root


FILES = [NAC, "orders/t001/nsl.yaml", "state/players.yaml", "state/groups.yaml",
         "state/campaign.yaml", POST, "site.yaml"]


def checked_cleanly(run, root: Path) -> int:
    """Run ``ftpress check``; assert it failed cleanly if it failed; its exit code."""
    before = files_of(root)
    code, out, err = run("check", "--source", root)
    assert code in (0, 1), err
    assert "Traceback" not in err
    printable(out + err)
    if code == 1:
        problems = [line for line in err.splitlines() if not line.startswith("ftpress:")]
        assert problems, err
        for line in problems:
            located = _LOCATED.match(line)
            assert located, line
            path = located.group(1)
            assert (root / path).exists() or (root / path).is_symlink() or \
                path.startswith("orders/t001/"), line
    assert files_of(root) == before
    return code


@FAST
@given(harm=damage(FILES))
def test_a_damaged_file_is_checked_cleanly(tmp_path_factory, run, harm: Damage):
    root = set_up(tmp_path_factory.mktemp("fuzz") / "demo")
    harm.apply(root)
    checked_cleanly(run, root)


#: YAML values of every kind, nested, with the text a hostile player would write.
_TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30)
_LEAVES = st.one_of(st.integers(-(10**30), 10**30), st.floats(allow_nan=True), st.booleans(),
                    st.none(), st.dates(), _TEXT,
                    st.sampled_from(["(3, 4)", "(-3, 4", "nac-1", "stand-off", "t001", "nac",
                                     "arcturus-gate", "hold", "move", "full"]))
_VALUES = st.recursive(_LEAVES, lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(st.one_of(_TEXT, st.sampled_from(
                           ["turn", "player", "groups", "move", "posture", "note", "hold",
                            "economy", "players", "id", "name", "title", "tags"])), inner,
                           max_size=4), max_leaves=20)


def _yaml(value: object) -> str:
    return yaml.safe_dump(value, allow_unicode=True, sort_keys=False)


@FAST
@given(groups=_VALUES, extra=_VALUES)
def test_a_generated_order_file_is_checked_cleanly(tmp_path_factory, run, groups, extra):
    root = set_up(tmp_path_factory.mktemp("fuzz") / "demo")
    (root / NAC).write_text(_yaml({"turn": "t001", "player": "nac", "groups": groups,
                                   "economy": extra}), encoding="utf-8")
    checked_cleanly(run, root)


@FAST
@given(value=_VALUES, at=st.sampled_from(["name", "treasury", "capital", "colour", "extra"]))
def test_a_generated_state_file_is_checked_cleanly(tmp_path_factory, run, value, at):
    root = set_up(tmp_path_factory.mktemp("fuzz") / "demo")
    players = yaml.safe_load((root / "state/players.yaml").read_text())
    players["players"][0][at] = value
    (root / "state/players.yaml").write_text(_yaml(players), encoding="utf-8")
    checked_cleanly(run, root)


@FAST
@given(meta=st.dictionaries(st.sampled_from(["title", "date", "kind", "tags", "summary",
                                             "aliases", "draft", "edits", "amends", "id"]),
                            _VALUES, max_size=5),
       body=_TEXT)
def test_generated_front_matter_is_checked_cleanly(tmp_path_factory, run, meta, body):
    root = set_up(tmp_path_factory.mktemp("fuzz") / "demo")
    (root / POST).write_text(f"---\n{_yaml(meta)}---\n{body}\n", encoding="utf-8")
    checked_cleanly(run, root)
