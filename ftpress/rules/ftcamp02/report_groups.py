"""ftcamp02's turn report: the kinds of event a fleet-orders round makes, and where
each is filed. Its rulebook's chapters are the round's steps: §1–§6 put fleets in
motion, §7 scans them, §8 claims systems."""

from __future__ import annotations

from ftpress.state.events import EventKind
from ftpress.state.report_spec import PlaceList, ReportSection, ReportSpec

KINDS = (
    EventKind("endurance", "§2 EPs spent, or a system's free allowance"),
    EventKind("out-of-supply", "§2.3 EPs short: every craft loses a crew factor"),
    EventKind("ship-lost", "§2.3 craft left drifting, lost for good"),
    EventKind("attach", "§3 an independent joins a standard group (its marker comes off)"),
    EventKind("detach", "§3 an independent leaves its group (its marker goes back)"),
    EventKind("split", "§4.2.2 a group reorganised, splitting off groups"),
    EventKind("merge", "§4.2.2 a group reorganised, absorbing groups"),
    EventKind("arrival", "§4.1, §4.4 a group arrived where its orders took it"),
    EventKind("lost", "§4.1.1 a lost roll, passed or failed"),
    EventKind("located", "§4.2.8 a locator roll, passed or failed"),
    EventKind("tug", "§4.2.6 a civilian tug made ready to tow"),
    EventKind("scan", "§7 what a long-range scan revealed of a group"),
    EventKind("claim", "§8 a system claimed, or invaded"),
    EventKind("not-resolved", "an order or allowance this version of ftpress does not carry "
              "out: the umpire rules on it"),
)

REPORT = ReportSpec(
    group_noun="group",
    # The Fleet Orders chapter plays in rounds and keeps no economic turn of its own
    # (the Resources Phase that would is not in it): the report says so.
    when="round {turn}; the Fleet Orders chapter keeps no economic turns",
    kinds=KINDS,
    sections=(
        ReportSection("movement", "Movement", kinds=(
            "no-orders", "unordered", "rejected", "endurance", "out-of-supply", "attach",
            "detach", "split", "merge", "arrival", "lost", "located", "tug"),
            chapters=("1", "2", "3", "4", "5", "6")),
        ReportSection("battles", "Encounters and battles", kinds=(
            "battle", "battle-pending", "scan"), chapters=("7",), marker="battle"),
        ReportSection("sieges", "Sieges", kinds=("claim",), chapters=("8",), marker="siege"),
        ReportSection("other", "Other", kinds=("note", "calendar", "not-resolved")),
    ),
    by_rule=frozenset({"ship-lost"}),
    moves=frozenset({"arrival"}),
    places=(PlaceList("Encounters at", sections=("battles",), none="No encounters."),
            PlaceList("Sieges at", sections=("sieges",))),
)
