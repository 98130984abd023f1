"""sct's turn report: the kinds of event its ten phases make (§2.1), and where each is
filed. Every loss in sct is a loss in combat (§6.4, a base's elements §7.3), so a
ship or base lost is always filed under the battle."""

from __future__ import annotations

from ftpress.state.events import EventKind
from ftpress.state.report_spec import Fold, PlaceList, ReportSection, ReportSpec

KINDS = (
    EventKind("initiative", "§2.2 the turn's initiative rolls, highest first"),
    EventKind("movement", "§4.1–§4.3 a task force carries out its move"),
    EventKind("secondary-move", "§4.4 a move for an endurance point"),
    EventKind("endurance", "§5, §6.5 endurance spent to fight supplied, or replenished at a depot"),
    EventKind("split", "§2.1 (phase 9) a task force split"),
    EventKind("merge", "§2.1 (phase 9) task forces merged"),
    EventKind("encounter", "§6.1 task forces of two powers in reach of each other"),
    EventKind("crippled", "§6.4 a ship crippled"),
    EventKind("ship-lost", "§6.4, §7.3 a ship, a task force or a base destroyed"),
    EventKind("income", "§3.1 a system's income paid into its owner's treasury"),
    EventKind("keel-laid", "§3.3 a ship laid down at a shipyard"),
    EventKind("ship-built", "§3.3 a ship completed, and the task force it joins"),
    EventKind("repair", "§3.3 repairs begun at a shipyard"),
    EventKind("repaired", "§3.3 a crippled ship repaired"),
    EventKind("works-begun", "§7.2–§7.4 a supply depot, base or shipyard begun and paid for"),
    EventKind("works-done", "§7.2–§7.4 an installation completed"),
)

REPORT = ReportSpec(
    group_noun="task force",
    # §2.1: every sct turn collects its income, so each turn is an economic turn.
    when="economic turn {economic_turn}: sct collects income every turn (§2.1)",
    kinds=KINDS,
    sections=(
        ReportSection("movement", "Movement", kinds=(
            "no-orders", "unordered", "rejected", "split", "merge", "movement",
            "secondary-move", "endurance")),
        ReportSection("battles", "Encounters and battles", kinds=(
            "initiative", "encounter", "battle", "battle-pending", "crippled", "ship-lost"),
            marker="battle"),
        ReportSection("economy", "Economy", kinds=("income",)),
        ReportSection("construction", "Construction and repair", kinds=(
            "keel-laid", "ship-built", "repair", "repaired", "works-begun", "works-done")),
        ReportSection("other", "Other", kinds=("note", "calendar")),
    ),
    folds=(Fold("income", "Income paid by {count} world, {total:,} in all (the accounts "
                "below give it world by world)", "Income paid by {count} worlds, {total:,} "
                "in all (the accounts below give it world by world)"),),
    moves=frozenset({"movement", "secondary-move"}),
    places=(PlaceList("Encounters at", sections=("battles",), none="No encounters."),),
)
