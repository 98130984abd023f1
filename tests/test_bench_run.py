"""bench/run.py's own bookkeeping (issue 33): the parts a run measures, and every row of
the issue's table printed, saved with ``--json`` and printed again by ``--report``. The
measurements themselves are never run by the tests."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO / "bench"))

import drawing
import run


def sample(cpu: float) -> run.Sample:
    return run.Sample(wall=cpu / 2, cpu=cpu, peak_mb=80.0, tree_mb=120.0)


def every_row() -> run.Results:
    edit = {"reload_cpu": 0.1, "reload_wall": 0.2, "done_cpu": 1.5, "done_wall": 3.0,
            "failed": False}
    return run.Results(
        posts=30, turns=3, pages={"ftpress": 178}, builds={"ftpress": [sample(4.0)]},
        memory={"ftpress": sample(4.0)}, incremental={"ftpress": [sample(0.2)]},
        serve_page=[0.05], serve_reload=[0.05], serve_done=[4.0], loads=[1.0],
        maps={"ftpress": [0.02, 0.01, 0.04]}, cards={"ftpress": [0.09, 0.11]},
        drawn_same={"ftpress": [3, 3, 2, 2]},
        ci_first={"ftpress": [sample(40.0)]}, ci_next={"ftpress": [sample(11.0)]},
        ci_same={"ftpress": [True]}, serve_edits={kind: [edit] for kind in run.EDITS},
        turn_weeks=[{"turn": "t001", "week": "first week", "players": 8, "groups": 500,
                     "resolve_ms": 90.0, "wall_ms": 95.0, "repeat": 5},
                    {"turn": "t007", "week": "economic week, abstract battles",
                     "players": 8, "groups": 500, "resolve_ms": 170.0, "wall_ms": 180.0,
                     "repeat": 5}])


def test_every_row_of_the_issue_is_a_target_with_its_figure():
    rows = run.targets(every_row())

    def row(start: str) -> tuple[float | None, float | None]:
        (found,) = [(now, target) for what, now, _, target, _ in rows if what.startswith(start)]
        return found

    assert row("one turn map drawn") == (0.02, 0.03)
    assert row("one PNG card") == (pytest.approx(0.1), 0.1)
    assert row("the publishing run in CI") == (11.0, 12.0)
    assert row("a turn of 8 players × 500 groups, first week") == (90.0, 112.0)
    for kind in run.EDITS:
        assert row(f"serve: {run.EDITS[kind]} → reload sent") == (0.2, 0.5)


def test_a_saved_run_is_reported_again_as_it_was_printed(tmp_path):
    results = every_row()
    saved = tmp_path / "run.json"
    saved.write_text(json.dumps({"heading": "a heading", **asdict(results)}))
    heading, again = run.saved_results(saved)
    assert heading == "a heading"
    assert run.table(again) == run.table(results)
    assert "byte for byte a clean build: 1 of 1)" in run.table(results)


def test_a_run_saved_before_the_extra_rows_is_still_reported(tmp_path):
    old = asdict(every_row())
    for key in ("maps", "cards", "drawn_same", "ci_first", "ci_next", "ci_same",
                "serve_edits", "turn_weeks"):
        del old[key]
    saved = tmp_path / "old.json"
    saved.write_text(json.dumps(old))
    _, again = run.saved_results(saved)
    assert "one turn map" not in run.table(again)


def test_only_and_skip_pick_the_parts():
    assert run.parse_args(["--only", "map,ci"]).parts == ["map", "ci"]
    assert run.parse_args(["--only", "serve"]).parts == ["post", "edits"]
    assert run.parse_args(["--skip", "builds,drawing"]).parts == [
        "noop", "post", "edits", "ci", "turn"]
    assert run.parse_args([]).parts == list(run.PARTS)
    with pytest.raises(SystemExit):
        run.parse_args(["--only", "maps"])


def test_the_cards_drawn_are_spread_over_the_campaign_first_and_last_among_them():
    assert drawing.spread(101, 10)[0] == 0 and drawing.spread(101, 10)[-1] == 100
    assert len(drawing.spread(101, 10)) == 10
    assert drawing.spread(4, 10) == [0, 1, 2, 3]
    assert drawing.spread(5, 1) == [4]
