"""The section index of sct's rulebook: each section, and the functions that
apply it or why none does (see :mod:`ftpress.rules.section_index`)."""

from __future__ import annotations

from ftpress.rules.section_index import Indexed

_INTRO = "The rule's opening words introduce its sections."

SECTIONS: tuple[Indexed, ...] = (
    Indexed("1", "The campaign in brief", why_none="narrative", note=_INTRO),
    Indexed("1.1", "The short version", why_none="narrative",
            note="A summary of the rules that follow; its ruling that nothing is hidden "
                 "means there is nothing to apply."),
    Indexed("1.2", "Design intent", why_none="narrative",
            note="What the system is for."),
    Indexed("1.3", "Units of distance", why_none="narrative",
            note="It names the unit, the MU, in which the state records every position."),
    Indexed("2", "Turn sequence", why_none="narrative", note=_INTRO),
    Indexed("2.1", "The ten phases", applied_by=(".turn:resolve",)),
    Indexed("2.2", "Initiative", applied_by=(".initiative:roll",)),
    Indexed("3", "Economics, construction and repair", why_none="narrative", note=_INTRO),
    Indexed("3.1", "Income", applied_by=(".economy:collect_income",)),
    Indexed("3.2", "Spending and the treasury",
            applied_by=(".orders:_economy", ".orders:_pay", ".economy:economic_orders")),
    Indexed("3.3", "Construction and repair",
            applied_by=(".costs:ship_cost", ".costs:repair_cost", ".economy:economic_orders",
                        ".economy:deliver")),
    Indexed("4", "Movement", why_none="narrative", note=_INTRO),
    Indexed("4.1", "Movement orders",
            applied_by=(".plane:facing_bearing", ".movement:primary_movement")),
    Indexed("4.2", "Order of movement", applied_by=(".movement:interleave",)),
    Indexed("4.3", "Deviation", applied_by=(".movement:primary_movement",)),
    Indexed("4.4", "Secondary movement", applied_by=(".movement:secondary_movement",)),
    Indexed("5", "Endurance and supply", why_none="narrative", note=_INTRO),
    Indexed("5.1", "Endurance points",
            applied_by=(".supply:max_endurance", ".supply:within_allowance")),
    Indexed("5.2", "Spending endurance",
            applied_by=(".supply:spend", ".movement:secondary_movement", ".combat:_enter")),
    Indexed("5.3", "Replenishing endurance", applied_by=(".supply:replenish",)),
    Indexed("5.4", "Auxiliaries and freighters", applied_by=(".supply:max_endurance",),
            note="Freighters fight with their task force like any ship; the range they "
                 "add is none, as the umpire's note says, until a ruling gives it."),
    Indexed("6", "Combat", why_none="narrative", note=_INTRO),
    Indexed("6.1", "When combat happens",
            applied_by=(".combat:meetings", ".combat:attacks", ".tabletop:pending")),
    Indexed("6.2", "Postures", applied_by=(".combat:_abstract",)),
    Indexed("6.3", "Attacks", applied_by=(".combat:_abstract",)),
    Indexed("6.4", "Results",
            applied_by=(".combat:_fate", ".combat:_apply", ".losses:take_losses",
                        ".tabletop:fold_result")),
    Indexed("6.5", "Supply in combat", applied_by=(".combat:_enter", ".combat:_abstract")),
    Indexed("6.6", "Screening", applied_by=(".combat:_abstract",)),
    Indexed("6.7", "Combined attacks", applied_by=(".combat:_abstract",)),
    Indexed("6.8", "Further rounds", applied_by=(".combat:_abstract",)),
    Indexed("6.9", "Fighters", applied_by=(".combat:_abstract",),
            why_none="source-missing",
            note="The source gives fighter groups no values, so the abstract combat leaves "
                 "them out and its report says so."),
    Indexed("7", "Systems and installations", why_none="narrative", note=_INTRO),
    Indexed("7.1", "Reading the system map",
            applied_by=(".state_legality:planar_map", ".plane:flat")),
    Indexed("7.2", "Supply depots",
            applied_by=(".costs:works_cost", ".supply:replenish", ".economy:deliver")),
    Indexed("7.3", "Bases",
            applied_by=(".costs:works_cost", ".combat:meetings", ".combat:_abstract",
                        ".combat:_apply")),
    Indexed("7.4", "Shipyards",
            applied_by=(".costs:works_cost", ".costs:yard_rate", ".costs:yard_limit",
                        ".economy:deliver")),
    Indexed("7.5", "Holding systems", why_none="choice",
            note="The source has no rule for taking a system; ownership changes only when "
                 "the umpire edits the state, as the rulebook's note says."),
    Indexed("8", "Ship statistics", applied_by=(".catalogue:catalogue",)),
    Indexed("8.1", "New Anglian Confederation (NAC)", applied_by=(".catalogue:catalogue",)),
    Indexed("8.2", "Neue Swabian League (NSL)", applied_by=(".catalogue:catalogue",)),
    Indexed("8.3", "Federated States of Europa (FSE)", applied_by=(".catalogue:catalogue",)),
    Indexed("8.4", "Eastern Star Union (ESU)", applied_by=(".catalogue:catalogue",)),
)
