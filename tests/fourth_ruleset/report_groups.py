"""lighthouse's turn report: its own kinds, sections and headings, the watch folded away."""

from __future__ import annotations

from ftpress.state.events import EventKind
from ftpress.state.report_spec import Fold, PlaceList, ReportSection, ReportSpec

KINDS = (
    EventKind("beacon-lit", "rule 2: a world's beacon lit by its owner"),
    EventKind("patrol", "rule 3: a group keeps watch where it is"),
)

REPORT = ReportSpec(
    kinds=KINDS,
    sections=(
        ReportSection("beacons", "Beacons", kinds=("beacon-lit",), marker="siege"),
        ReportSection("watch", "The watch", kinds=("patrol", "no-orders", "unordered",
                                                    "rejected")),
        ReportSection("log", "Log", kinds=("note", "calendar", "battle", "battle-pending")),
    ),
    folds=(Fold("patrol", "{count} group kept watch", "{count} groups kept watch"),),
    places=(PlaceList("Beacons lit at", sections=("beacons",), none="No beacon was lit."),),
)
