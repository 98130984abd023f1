"""bench/turn.py, the benchmark of one large ftc2007 turn, run at a tiny size so that
it keeps working as the models and the engine change (issue 33): its state and
orders are ones the engine accepts, and both weeks it times resolve."""

from __future__ import annotations

import re
import subprocess
import sys

from ftpress.orders.load import parse_orders
from ftpress.rules import find_ruleset
from ftpress.rules.ftc2007.orders import vet
from ftpress.state.turns import turn_id

from conftest import REPO

sys.path.insert(0, str(REPO / "bench"))

import turn as bench_turn


def test_the_benchmark_runs_and_reports_both_weeks():
    done = subprocess.run([sys.executable, REPO / "bench" / "turn.py", "--players", "3",
                           "--groups", "24", "--radius", "6", "--repeat", "1"], cwd=REPO,
                          capture_output=True, text=True, timeout=300, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    first, economic = done.stdout.splitlines()
    assert first.startswith("t001 (first week): 3 players, 24 groups")
    assert "(economic week, abstract battles)" in economic
    incomes, repairs = (int(n) for n in re.findall(r"(\d+) (?:incomes|repairs)", economic))
    assert incomes > 0 and repairs > 0


def test_every_order_the_benchmark_writes_is_one_the_engine_accepts():
    adapter = find_ruleset("ftc2007").orders_adapter
    for economic in (False, True):
        state = bench_turn.make_state(3, 24, 6, economic)
        turn = turn_id(state.campaign.calendar.turn)
        for player, raw in bench_turn.make_orders(state).items():
            loaded = parse_orders(raw, f"orders/{turn}/{player}.yaml", adapter)
            assert vet(state, loaded).rejected == (), player
