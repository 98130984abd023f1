"""ftc2007's turn report: the kinds of event its rules make, and where each is filed.

Battles (§14, §17, §18) and sieges (§9, §10, §12) have sections of their own.
A ship's hull boxes lost, or the ship itself, is filed by the rule that cost it:
in a fleet battle (§14, §17) under the battle, to a world's defences (§10.8)
under the siege.
"""

from __future__ import annotations

from ftpress.state.events import EventKind
from ftpress.state.report_spec import Fold, PlaceList, ReportSection, ReportSpec

KINDS = (
    EventKind("setup-design", "§6, §16.1 a design a power entered at set-up"),
    EventKind("setup-ship", "§6.1 a ship bought with the starting capital"),
    EventKind("setup-group", "§6, §15.1 a counter placed at set-up"),
    EventKind("setup-dummy", "§15.2 a counter placed at set-up is a dummy"),
    EventKind("setup-defences", "§6.2.2 defence points bought at set-up"),
    EventKind("setup-reserve", "§6.2.3 the starting capital kept as reserve cash"),
    EventKind("split", "§15.1 a group split"),
    EventKind("merge", "§15.1 groups merged"),
    EventKind("hold", "§8.2, §17.2 a group stayed where it was"),
    EventKind("arrival", "§8, §17.2 a group arrived, with its posture"),
    EventKind("blocked", "§8.2 a route move stopped short of an interdicted world"),
    EventKind("withdrawal", "§17.2.3, §10.7 a group pulls out or falls back"),
    EventKind("encounter", "§17 two powers' groups in one place: a battle to resolve"),
    EventKind("contact", "§15.3 an enemy has seen what a group holds"),
    EventKind("dummy-found", "§15.2, §15.3 a dummy counter contacted by an enemy ship is "
              "found out and taken off the map"),
    EventKind("prize", "§12.1 a hulk left drifting taken by the side holding the field"),
    EventKind("damage", "§10.8, §14, §17 hull boxes put on ships"),
    EventKind("ship-lost", "a ship with no hull boxes left is destroyed, or dummy counters "
              "beyond a power's capital ships removed (§15.2)"),
    EventKind("siege", "§10.3 an attack on a world's defences, and its roll"),
    EventKind("siege-refused", "§10.2 too weak to attack the defences at all"),
    EventKind("conquest", "§9, §10.9 a world changes hands"),
    EventKind("capital", "a player's capital fell and moved"),
    EventKind("works-lost", "keels, repairs, spares or defence works lost with a world"),
    EventKind("defences-damaged", "§10.5 what is left of surrendered defences"),
    EventKind("interdicted", "§10.6 a world interdicted for the strategic turn"),
    EventKind("repulsed", "§10.7 an attack on the defences thrown back"),
    EventKind("scouted", "§2.3, §4 a neutral world's worth rolled and made public"),
    EventKind("interdiction-ends", "§10.6 a world's interdiction lifted"),
    EventKind("maintenance", "§7 the upkeep level set for the economic turn"),
    EventKind("income", "§5.2 a world's income paid into its owner's treasury"),
    EventKind("income-lost", "§10.6 a world interdicted as the economic turn opens pays "
              "nothing"),
    EventKind("upkeep", "§7 the navy's upkeep for the economic turn just ended"),
    EventKind("ordnance", "§7.1 ordnance expended in the economic turn just ended"),
    EventKind("unpaid", "§6.3 no credit: what the treasury could not pay"),
    EventKind("spares", "§6.2.1 spares bought, or a top-up coming into stock"),
    EventKind("prize-sold", "§12.2.3 a prize sold for scrap"),
    EventKind("purchase", "§13.1 a ship bought on the open market"),
    EventKind("keel-laid", "§13.1 a keel laid down at a world"),
    EventKind("construction", "§13.1 a week's work on a keel, paid as it is built"),
    EventKind("ship-built", "§13.1 a ship completed or delivered, and the group it joins"),
    EventKind("repair", "§11 repairs begun and paid for"),
    EventKind("repaired", "§11.4 repairs done: the hull boxes are back"),
    EventKind("defences-ordered", "§10.5 rebuilding of lost defence points begun and paid for"),
    EventKind("defences-rebuilt", "§10.5 rebuilt defence points standing again"),
    EventKind("prize-rebuilt", "§12.2.1 a prize rebuilt into its captor's navy"),
    EventKind("prize-stripped", "§12.2.2 a prize stripped for parts"),
    EventKind("damage-owed", "§10.7 the damage a repulse leaves a fleet owing"),
    EventKind("system-checks", "§10.8 hull rows stripped: system checks owed, or made"),
    EventKind("keel-changed", "§13.2 a keel's design changed while it is built"),
    EventKind("approval", "§16.2 the umpires' approval of a non-standard design"),
)

REPORT = ReportSpec(
    kinds=KINDS,
    sections=(
        ReportSection("setup", "Set-up", kinds=(
            "setup-design", "setup-ship", "setup-group", "setup-dummy", "setup-defences",
            "setup-reserve"), chapters=("6",)),
        ReportSection("movement", "Movement", kinds=(
            "no-orders", "unordered", "rejected", "split", "merge", "hold", "arrival",
            "blocked", "withdrawal"), chapters=("8", "15")),
        ReportSection("battles", "Encounters and battles", kinds=(
            "encounter", "dummy-found", "battle", "battle-pending", "contact", "prize",
            "system-checks"),
            chapters=("14", "17", "18"), marker="battle"),
        ReportSection("sieges", "Sieges", kinds=(
            "siege", "siege-refused", "conquest", "capital", "works-lost",
            "defences-damaged", "interdicted", "repulsed", "damage-owed"),
            chapters=("9", "10", "12"), marker="siege"),
        ReportSection("economy", "Economy", kinds=(
            "scouted", "interdiction-ends", "maintenance", "income", "income-lost", "upkeep",
            "ordnance", "unpaid", "spares", "prize-sold"), chapters=("3", "4", "5", "7")),
        ReportSection("construction", "Construction and repair", kinds=(
            "purchase", "keel-laid", "keel-changed", "construction", "ship-built", "repair",
            "repaired",
            "defences-ordered", "defences-rebuilt", "prize-rebuilt", "prize-stripped"),
            chapters=("11", "13")),
        ReportSection("other", "Other", kinds=("approval", "note", "calendar")),
    ),
    by_rule=frozenset({"damage", "ship-lost"}),
    folds=(Fold("income", "Income paid by {count} world, {total:,} in all (the accounts "
                "below give it world by world)", "Income paid by {count} worlds, {total:,} "
                "in all (the accounts below give it world by world)"),),
    moves=frozenset({"arrival", "blocked"}),
    # §5.1, §5.2: a strategic turn is a week, six make an economic turn.
    when="week {week} of economic turn {economic_turn}",
    places=(PlaceList("Encounters at", sections=("battles",), none="No encounters."),
            PlaceList("Sieges at", sections=("sieges",)),
            PlaceList("Scouted:", kinds=("scouted",))),
)
