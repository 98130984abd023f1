"""The section index of ftcamp02's rulebook: each section, and the functions
that apply it or why none does (see :mod:`ftpress.rules.section_index`).

The rulebook restates one chapter of FTCamp0.2; a section that rests on the
chapters not in its text is ``source-missing``, and where an order depends on
one, the order check refuses it naming the missing chapter.
"""

from __future__ import annotations

from ftpress.rules.section_index import INTRODUCES, Indexed

_REFUSED = ".orders:_Vetter._hold"

SECTIONS: tuple[Indexed, ...] = (
    Indexed("1", "Add fleet markers", why_none="source-missing",
            note="New groups come from builders in the Support Phase; here a group is only "
                 "made by a Hold-Re-organise split (4.2.2)."),
    Indexed("2", "Expend endurance points", applied_by=(".endurance:expend_endurance",)),
    Indexed("2.1", "Who needs EPs",
            applied_by=(".space:friendly", ".endurance:allowance",
                        ".endurance:expend_endurance"),
            note="No group can be on patrol duty (4.2.1), so no patrol cost arises."),
    Indexed("2.2", "EP costs",
            applied_by=(".groups:ep_rating", ".endurance:expend_endurance"),
            why_none="source-missing",
            note="The list of where EPs may come from is missing from the source: a group "
                 "pays from its own store, filled only by a friendly system's allowance."),
    Indexed("2.3", "Failing to supply EPs",
            applied_by=(".crafts:crew_factors", ".crafts:drifting", ".endurance:out_of_supply",
                        ".movement:move_groups")),
    Indexed("3", "Attach independents", why_none="narrative", note=INTRODUCES),
    Indexed("3.1", "Attaching and detaching",
            applied_by=(".groups:class_limit", ".groups:attach_allowed",
                        ".independents:attach_independents", ".state_legality:attachments")),
    Indexed("4", "Issue orders", why_none="narrative", note=INTRODUCES),
    Indexed("4.0", "Types of order", applied_by=(".turn:resolve", ".turn:refusals")),
    Indexed("4.1", "Move",
            applied_by=(".flight:flight_problem", ".orders:_Vetter._move",
                        ".movement:move_groups")),
    Indexed("4.1.1", "Lost rolls after movement",
            applied_by=(".crafts:optimal_move", ".space:beacon_bonus",
                        ".space:contents_modifier", ".space:distance_modifier",
                        ".orders:_Vetter._move", ".movement:lost_roll")),
    Indexed("4.1.2", "Wormholes",
            applied_by=(".orders:_Vetter._move", ".movement:move_groups"),
            note="Where the ends move to is the UN Meeting's business: the umpire records "
                 "them in the map."),
    Indexed("4.1.3", "Moving statics", applied_by=(".flight:flight_problem",),
            why_none="source-missing",
            note="Moves between orbit-sectors inside a system need the Engage Orders "
                 "Phase, which is not in the text."),
    Indexed("4.2", "Hold", applied_by=(".orders:_Vetter._hold", ".hold:hold_orders")),
    Indexed("4.2.1", "Patrol duty", applied_by=(_REFUSED,), why_none="source-missing",
            note="Command HQs belong to the Support Phase: Hold-Patrol is refused, naming "
                 "the missing chapter."),
    Indexed("4.2.2", "Re-organise",
            applied_by=(".reorganise:reorganise", ".reorganise:settle_structure",
                        ".turn:reorganise_groups"),
            why_none="source-missing",
            note="The penalty for an interrupted reorganisation is set in the Battles "
                 "Phase, which is not in the text."),
    Indexed("4.2.3", "Build, Rebuild, Unbuild, Repair and Make", applied_by=(_REFUSED,),
            why_none="source-missing",
            note="Builders and repairers belong to the Support Phase: these sub-orders are "
                 "refused, naming the missing chapter."),
    Indexed("4.2.4", "Restock", applied_by=(_REFUSED,), why_none="source-missing",
            note="Consumables belong to the Support Phase: Hold-Restock is refused, naming "
                 "the missing chapter."),
    Indexed("4.2.5", "Maintain", applied_by=(_REFUSED,),
            note="Accepted; it has no effect, since every sub-order that would work on "
                 "the craft is refused."),
    Indexed("4.2.6", "Tug", applied_by=(".hold:hold_orders",)),
    Indexed("4.2.7", "Diplomatic mission", applied_by=(_REFUSED,), why_none="source-missing",
            note="Diplomats belong to the Support Phase: the sub-order is refused, naming "
                 "the missing chapter."),
    Indexed("4.2.8", "Locator roll",
            applied_by=(".space:nearest_fix", ".locate:locate_groups", ".locate:locator_roll")),
    Indexed("4.2.9", "Activate beacon", applied_by=(_REFUSED,), why_none="source-missing",
            note="Beacons belong to the Systems Compendium: the sub-order is refused, and "
                 "the umpire records which beacons are active."),
    Indexed("4.2.10", "Research", applied_by=(_REFUSED,), why_none="source-missing",
            note="Research belongs to the Support Phase: the sub-order is refused, naming "
                 "the missing chapter."),
    Indexed("4.2.11", "Special", applied_by=(".hold:hold_orders",)),
    Indexed("4.3", "Maintain orbit",
            applied_by=(".orders:_Vetter._orbit", ".claims:maintain_orbits")),
    Indexed("4.4", "Support", applied_by=(".orders:_Vetter._support", ".movement:move_groups")),
    Indexed("5", "Re-organising", why_none="narrative", note=INTRODUCES),
    Indexed("5.1", "Types of craft", applied_by=(".crafts:craft_class",)),
    Indexed("5.1.0", "Craft class", applied_by=(".crafts:craft_class",),
            note="Carrier classes are not given by mass, so none is assigned."),
    Indexed("5.1.1", "Civilian independents",
            applied_by=(".crafts:is_static", ".crafts:is_independent"),
            why_none="source-missing",
            note="The criteria are missing from the source: a design says whether it is an "
                 "independent. The ore discount belongs to building."),
    Indexed("5.1.2", "Military independents",
            applied_by=(".crafts:is_independent", ".crafts:is_military"),
            why_none="source-missing",
            note="The criteria are missing from the source: a design says whether it is an "
                 "independent."),
    Indexed("5.1.3", "Standard military craft", applied_by=(".crafts:is_military",),
            why_none="source-missing",
            note="Violation of another power's space is the UN Council's, not in the text."),
    Indexed("5.1.4", "Statics", applied_by=(".crafts:is_static", ".flight:flight_problem"),
            why_none="source-missing",
            note="Orbits and sectors belong to the Engage Orders Phase."),
    Indexed("5.2", "Types of group", applied_by=(".groups:group_kind", ".groups:kind_of")),
    Indexed("5.2.1", "Standard fleet groups",
            applied_by=(".groups:group_kind", ".groups:ep_rating", ".groups:store_limit")),
    Indexed("5.2.2", "Reserve fleet groups",
            applied_by=(".groups:group_kind", ".groups:kind_of", ".groups:store_limit"),
            why_none="source-missing",
            note="Engage orders belong to the Engage Orders Phase, not in the text."),
    Indexed("5.2.3", "Military static groups",
            applied_by=(".groups:group_kind", ".groups:store_limit",
                        ".flight:flight_problem", ".reorganise:reorganise_problem")),
    Indexed("5.3", "Group limits",
            applied_by=(".groups:group_class", ".groups:class_limit",
                        ".groups:structure_problems", ".state_legality:structure")),
    Indexed("5.4", "How grouping works in play", why_none="narrative",
            note="It says what a group is in play: every order here is given to a group "
                 "as a whole."),
    Indexed("6", "Add markers leaving patrols", why_none="source-missing",
            note="No group can be on patrol duty (4.2.1), so no marker leaves a patrol."),
    Indexed("7", "Long range scans",
            applied_by=(".scans:scan_group", ".scans:long_range_scans")),
    Indexed("7.1", "Enhanced arrays", applied_by=(".scans:sensors", ".scans:long_range_scans")),
    Indexed("7.2", "Patrolled hexes", why_none="source-missing",
            note="Command HQs and their bubbles belong to the Support Phase, so no hex is "
                 "patrolled."),
    Indexed("7.3", "Contested hexes",
            applied_by=(".crafts:sensor_grade", ".scans:long_range_scans"),
            why_none="source-missing",
            note="Statics in the hex are revealed; the orbit they are in is the Engage "
                 "Orders Phase's, so it is not."),
    Indexed("8", "Claim systems",
            applied_by=(".state_legality:loyalty", ".claims:maintain_orbits")),
    Indexed("8.1", "Neutral systems", applied_by=(".claims:maintain_orbits",)),
    Indexed("8.2", "Invasion", applied_by=(".claims:maintain_orbits",),
            why_none="source-missing",
            note="Loyalty ratings change in the Resources Phase, which is not in the text."),
)
