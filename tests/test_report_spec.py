"""Every ruleset's report description is whole: each kind it may record is filed
somewhere on purpose, the kinds it names exist, and what the recorded campaigns
hold is what their rulesets declare."""

from __future__ import annotations

import pytest
import yaml

from ftpress.rules import RULESETS
from ftpress.site.schema_export import all_schemas
from ftpress.state.events import PUBLIC, SHARED_KINDS, Event
from ftpress.state.recorded_kinds import UndeclaredKind, check_made
from ftpress.state.report_spec import Fold, ReportSection, ReportSpec

from conftest import REPO

SHIPPED = ("ftc2007", "sct", "ftcamp02")


@pytest.mark.parametrize("name", SHIPPED)
def test_every_kind_a_ruleset_may_record_is_filed_on_purpose(name):
    report = RULESETS[name].report
    assert report.unplaced() == []
    assert not report.by_rule - report.kind_names


@pytest.mark.parametrize("name", SHIPPED)
def test_what_a_report_names_is_declared(name):
    report = RULESETS[name].report
    own = [k.name for k in report.kinds]
    assert len(own) == len(set(own)), "a kind declared twice"
    assert not set(own) & {k.name for k in SHARED_KINDS}, "a shared kind declared again"
    keys = [s.key for s in report.sections]
    assert len(keys) == len(set(keys))
    named = {k for s in report.sections for k in s.kinds} | {f.kind for f in report.folds}
    assert named | report.moves <= report.kind_names
    for places in report.places:
        assert set(places.sections) <= set(keys)
        assert set(places.kinds) <= report.kind_names


@pytest.mark.parametrize(("campaign", "name"), [
    ("", "ftc2007"), ("examples/sct/", "sct"), ("examples/ftcamp02/", "ftcamp02")])
def test_the_recorded_campaigns_hold_only_their_rulesets_kinds(campaign, name):
    logs = sorted((REPO / campaign / "state/turns").glob("*/events.yaml"))
    assert logs
    kinds = {e["kind"] for log in logs
             for e in (yaml.safe_load(log.read_text(encoding="utf-8")) or {}).get("events", [])}
    assert kinds <= RULESETS[name].report.kind_names


def test_a_kind_is_filed_in_one_section_only():
    with pytest.raises(ValueError, match="'note' is in two report sections, 'a' and 'b'"):
        ReportSpec((), (ReportSection("a", "A", kinds=("note",)),
                        ReportSection("b", "B", kinds=("note",))))


def test_a_kind_is_filed_by_its_rule_or_in_a_section_not_both():
    with pytest.raises(ValueError, match=r"\['note'\] are filed both by their rule and in a"):
        ReportSpec((), (ReportSection("a", "A", kinds=("note",)),), by_rule=frozenset({"note"}))


def test_a_folded_line_counts_one_and_many():
    fold = Fold("income", "{count} world paid {total:,}", "{count} worlds paid {total:,}")
    paid = [Event("income", "x §1", "Paid.", audience=PUBLIC, amount=1200),
            Event("income", "x §1", "Paid.", audience=PUBLIC, amount=30)]
    assert fold.summary(paid[:1]) == "1 world paid 1,200"
    assert fold.summary(paid) == "2 worlds paid 1,230"
    assert fold.summary([]) == ""


def test_a_ruleset_making_a_kind_it_does_not_declare_is_a_bug():
    report = RULESETS["sct"].report
    check_made([Event("movement", "sct §4.1", "Moved.", audience=PUBLIC)], report, "sct")
    with pytest.raises(UndeclaredKind, match="sct ruleset made events of kinds it does not "
                       "declare in its report: siege"):
        check_made([Event("siege", "sct §7", "Besieged.", audience=PUBLIC)], report, "sct")


def test_the_published_events_schema_offers_every_rulesets_kinds():
    kind = all_schemas(None)["events"]["$defs"]["Event"]["properties"]["kind"]
    assert kind["enum"] == sorted({k for name in SHIPPED
                                   for k in RULESETS[name].report.kind_names})
    assert "battle-pending" in kind["enum"] and "departure" not in kind["enum"]
