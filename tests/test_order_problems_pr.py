"""``ftpress check-pr`` reports every problem of an order file at once, as
``ftpress check`` does (tests/test_order_problems.py): the pull request's own
fixtures, from tests/test_checkpr.py."""

from __future__ import annotations

from test_checkpr import NAC, branch, check, repo, template  # noqa: F401 (fixtures)


def test_an_orders_pull_request_gets_every_problem_too(run, repo):  # noqa: F811
    head = branch(repo, "typo", {"orders/t001/nac.yaml": "turn: t001\nplayer: nac\ngroups:\n"
                                 "  nac-1:\n    hodl: true\n  nac-9:\n    hold: true\n"})
    code, out, err = check(run, repo, head, NAC)
    assert (code, out) == (1, "")
    problems = [line for line in err.splitlines() if line.startswith("orders/t001/nac.yaml:")]
    assert "orders/t001/nac.yaml:5:5: unknown key 'hodl'; did you mean 'hold'?" in problems
    assert "orders/t001/nac.yaml:6:3: there is no group 'nac-9'; your groups are none" \
        in problems  # a new campaign's powers have no groups yet
