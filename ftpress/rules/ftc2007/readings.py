"""How ftpress reads each clause of ftc2007's rules that could be read more than one
way, with the case that holds it (:class:`~ftpress.rules.section_index.Reading`)."""

from __future__ import annotations

from ftpress.rules.section_index import Reading

READINGS: tuple[Reading, ...] = (
    Reading("route-on-world-roll-of-1", "1.3",
            "§1.3: \"on a roll of 1\" is the hex's own §1.2 roll: a world whose hex came up 1 is "
            "on a charted route (a third of the worlds, on average).",
            case="test_mapgen.py::test_worlds_on_1_to_3_and_routes_on_a_1"),
    Reading("routes-are-connected-links", "1.3",
            '§1.3: "linked up": every stub is a link between its world and the world it points at '
            "(two stubs between the same pair make one link); links that share a world belong to "
            "one route, so a route is a connected network.",
            case="test_mapgen.py::test_stubs_link_up_into_connected_routes"),
    Reading("stub-off-edge-is-first-step", "1.3",
            '§1.3: a stub "goes off the edge of the field" when the hex out of the rolled side is '
            "off the map. A world with no usable side at all (no world within four hexes any way "
            "that stays on the map) gets no stub, and no endless re-rolling.",
            case=("test_mapgen.py::"
                  "test_a_world_with_no_usable_side_gets_no_stub_and_no_endless_rolling")),
    Reading("stubs-after-placement", "1.3",
            '§1.3: stub directions are rolled once every world is placed, in map order, so "the '
            'nearest world in that direction" can be any world on the map, not only those already '
            "rolled for.",
            case="test_mapgen.py::test_stub_events_name_their_targets"),
    Reading("start-by-die-over-free-worlds", "2.1",
            '§2.1: "dices for starting world location": a die with as many sides as there are '
            "unclaimed worlds picks one, counting in map order.",
            case=("test_mapgen.py::"
                  "test_claims_go_round_from_the_capital_and_reroll_an_empty_direction")),
    Reading("claim-from-capital", "2.2",
            '§2.2: the world a player "chooses" to claim from is always their capital, so an '
            "empire grows around its capital. If no unclaimed world lies in the rolled direction "
            "(at any distance), the direction is rolled again.",
            case=("test_mapgen.py::"
                  "test_claims_go_round_from_the_capital_and_reroll_an_empty_direction")),
    Reading("scout-despite-contact", "2.3",
            "24 March, item 5: a scout that meets opposition at the world has still scouted it; "
            "contact does not undo what it saw.",
            case="scout-despite-contact.yaml"),
    Reading("books-close-as-the-next-economic-turn-opens", "5.2",
            "An economic turn's money is settled when the next economic turn opens, at the very "
            "start of its first strategic turn, before any group moves (so at the start of turns "
            "7, 13, 19 …): income from every world held and not interdicted at that moment (§10.6 "
            '"at the start of an economic turn"), upkeep at the level declared for the turn just '
            'ended, and its expended ordnance ("charged when that economic turn ends", §7.1). The '
            "first economic turn's money is the starting capital (§6.1), so nothing is settled in "
            "turn 1.",
            case="economy-no-books-in-the-first-economic-turn.yaml"),
    Reading("setup-counters-at-own-worlds", "6",
            "A counter placed at set-up starts at one of its owner's worlds, and its id begins "
            "with the owner's id (``nac-1``), so that no two powers' counters share one.",
            case="setup-placed-only-at-own-worlds.yaml"),
    Reading("setup-ships-at-list-price", "6.1",
            "A ship bought with the starting capital costs her list price (her design's points), "
            "as the set-up's accounts count it (``.setup.spending``): the 20% off an ally's "
            "designs is the open market's (§13.1), which opens in economic turn 2 (§6.3). She is "
            "of the navy's own designs (the catalogue's or one added in the set-up file) or the "
            "ally's; §6.1's 4,000 counts all but freighters.",
            case="setup-capital-buys-ships-and-keeps-the-rest.yaml"),
    Reading("no-setup-orders-keeps-the-capital", "6.2.3",
            "§6 says nothing of a power that sends no set-up orders. Its starting capital is all "
            "kept as reserve cash (§6.2.3, the text's own third use of it), to be spent from "
            "economic turn 2 (§6.3); it starts with no ships.",
            case="setup-nothing-sent-keeps-the-capital.yaml"),
    Reading("spending-in-file-order", "6.3",
            "§6.3 no credit: a player's bills come first, upkeep then ordnance, and then the "
            "spending orders in the order they are written in the file (by line, whatever their "
            "kind). An order the treasury cannot pay when its turn comes is not carried out (an "
            "``unpaid`` event); later, cheaper ones still may be.",
            case="economy-spending-paid-in-the-order-written.yaml"),
    Reading("fractions-round-up", "7",
            "The treasury holds whole points. Where a rate leaves a fraction (7.5% upkeep, the 20% "
            "ally discount, 75% spares, 50% ordnance) the charge is rounded up to the next whole "
            "point: the rules never give a navy money for nothing.",
            case="economy-upkeep-full-ten-percent.yaml"),
    Reading("unpaid-upkeep-is-written-off", "7",
            "There is no credit (§6.3), and upkeep and ordnance are bills, not orders: what the "
            "treasury cannot pay of them is paid as far as it goes, and the rest is written off "
            "with an ``unpaid`` event; it is not carried forward as a debt.",
            case="economy-upkeep-shortfall-written-off.yaml"),
    Reading("ordnance-declared-in-the-orders", "7.1",
            "The build price of the ordnance a navy expended is declared by the player, as "
            "``economy: ordnance:`` in the orders of the first week of the next economic turn, and "
            "billed at half (§7.1) when the books close. A player who declares nothing is billed "
            "nothing; the umpire checks the declaration against the battles fought.",
            case="economy-ordnance-billed-at-half.yaml"),
    Reading("standardised-lapses-to-full", "7.3",
            "§7.3's qualification is tested on the ships in commission when the upkeep is charged. "
            "A navy that chose standardised upkeep and no longer qualifies (it bought a second "
            "design of a class, say) pays the full rate for that economic turn, and the event says "
            'why. The third condition, task groups "structured on similar lines", is not compared: '
            "the text sums the criterion up as five kinds of ship in the whole navy, and §15.1 "
            "lets a player reorganise groups freely every week.",
            case="economy-standardised-lapses-to-full.yaml"),
    Reading("jump-out-stops-before-an-interdiction", "8.2",
            "§8.2 stops a fleet on an interdicted route at the last friendly system before the "
            "blockage. Ruling: a jump out along a route is such a journey. Of several routes "
            "joining the two worlds, an open one is taken; if every one is blocked, the first the "
            "map lists. A jump that would stop at the world it leaves (no world of its own before "
            "the blockage) cannot be made, and a battle result that gives it is refused: a fleet "
            "that jumped out has left.",
            case="battle-withdrawal-along-an-interdicted-route-stops-short.yaml"),
    Reading("capital-moves-to-richest-world", "9",
            "The rules never say what becomes of a capital that falls. The state needs a capital "
            "of the player's own, so it moves to the player's richest remaining world (the first "
            "on the map of equals); a player with no world left keeps the lost one on record.",
            case="conquest-of-a-capital-moves-it.yaml"),
    Reading("works-at-a-fallen-world-are-lost", "9",
            "The rules never say what happens to the loser's works at a world that falls: keels on "
            "its slips, repairs in its yards, spares in its depots and defences being rebuilt are "
            "lost with it (nothing in §12 lets the victor take them over), each with an event.",
            case="conquest-loses-the-works-there.yaml"),
    Reading("any-opposing-fleet-defends", "10.2",
            "§10.2 \"beat a defending fleet … before turning on the defences\": any other power's "
            "fleet there counts (the Vesper question of 24 March was about a neutral world), "
            "except a lone scout (``lone_scout``).",
            case="attack-goes-for-the-fleets-before-the-defences.yaml"),
    Reading("whole-multiples-only", "10.2",
            '§10.2 "+1 for each multiple … beyond the first": the bonus is the number of *whole* '
            "multiples of the defences' value less one (2× → +1, 2.9× → +1, 3× → +2).",
            case="defences-only-whole-multiples-count.yaml"),
    Reading("modified-above-six-surrenders", "10.4",
            '§10.4 says "a modified result of 6"; a modified 7 or more is read as a 6 too, since '
            "modifiers that make a fleet stronger cannot make it fail.",
            case="defences-modified-seven-surrenders.yaml"),
    Reading("defence-cut-rounds-down", "10.5",
            '§10.5: "cut to one third / two thirds" applies to the defence points standing when '
            "they surrender (not their full strength), rounded down: a box of defence cannot be "
            "part standing. ``idp_full`` keeps the full strength for rebuilding.",
            case="defences-d5-cuts-what-stands.yaml"),
    Reading("part-of-a-third-takes-a-turn", "10.5",
            '"one economic turn per third of the defences being replaced" counts thirds of the '
            "world's full IDP, and a part of a third takes a whole economic turn: replacing 10 of "
            "60 points takes one, 30 of 60 two, 60 of 60 three. The points stand again as the "
            "economic turn that many after the order opens.",
            case="economy-defences-part-of-a-third-takes-a-turn.yaml"),
    Reading("repulse-damage-owed-by-the-fleet", "10.7",
            '§10.7 "need not be specifically allocated": the repulse puts no box on any ship; the '
            "fleet owes them until a battle or the next economic turn calls them in.",
            case="defences-modified-one-repulsed.yaml"),
    Reading("sieges-do-not-call-it-in", "10.7",
            "\"in combat with another force\" (§10.7) is a battle against another power's ships. A "
            "further attack on a world's defences does not call the damage in: that roll counts "
            "the fleet's list points, never its damage (20 May, rule 10.2), so there is nothing "
            "the allocation would change; a second repulse owes its own damage beside the first.",
            case="repulse-another-siege-does-not-call-it-in.yaml"),
    Reading("repulsed-fleet-jumps-back-unseen", "10.7",
            '§10.7 "repulsed", with §18.4 (the text\'s 18.2: a departure takes the place of the '
            "next week's move) and the 20 May ruling that news travels no faster than ships: a "
            "repulsed group jumps back to where it set out from that week; everyone at the world "
            "sees it leave, only its owner is told where it went, and its next week's orders may "
            "not move it. One that began the week at the world has nowhere nearer to go and "
            "stays, its attack over.",
            case="repulse-retreat-is-its-owners-news-and-next-weeks-move.yaml"),
    Reading("abstract-check-fails-cripple", "10.8",
            "In the abstract combat a system check is one d6 for each hull row stripped, failing "
            "as a Full Thrust threshold check does for that row (a 6 for the first, 5 or 6 for the "
            "second, 4 to 6 for the third, and so on, never on a 1), one number lower for a navy "
            "on reduced maintenance (§7.4). The abstract combat has no systems to lose, so a ship "
            "that fails any check fights crippled, and a ship it leaves crippled is left with just "
            "over half her hull lost (``battles.CRIPPLED_AFTER_HALF_HULL``): the bigger repair "
            "bill §10.8 warns of.",
            case="repulse-system-check-failed-leaves-her-crippled.yaml"),
    Reading("allocated-over-every-ship-that-took-part", "10.8",
            "The whole of a repulse's damage is allocated at once, over every ship of the attack "
            "still afloat wherever she now is, even if only one of them fights: §10.8 spreads it "
            '"over the participating ships", and splitting the fleet since does not change which '
            "ships took part.",
            case="repulse-damage-allocated-before-a-battle.yaml"),
    Reading("overflow-goes-to-the-rest", "10.8",
            "§10.8 \"no damage is wasted\": a ship's share beyond the hull boxes it has left goes "
            "to the other ships, shared out again by mass. Only when every ship is destroyed is "
            "any damage left over.",
            case="damage-beyond-a-ships-hull-goes-to-the-rest.yaml"),
    Reading("owed-repair-at-its-price-where-repairs-are-made", "10.8",
            'The repair of owed damage (§10.8 "repairs the damage … in the next economic turn") is '
            "ordered with the first week's economic orders (``economy: owed: [<world>]``), costs "
            "the damage's price, the repulsing world's income (§10.7), with no credit (§6.3), and "
            "is made only where §11.1 allows a repair: every ship of it afloat at a world of yours "
            "that paid you income this economic turn. It is all of the damage or none of it.",
            case="repulse-damage-repaired-as-the-next-economic-turn-opens.yaml"),
    Reading("repulse-boxes-from-standing-idp", "10.8",
            "§10.8: the boxes are a third of the IDP *standing* when the attack is thrown back, "
            "rounded down (36⅔ → 36, 8 April ruling).",
            case="defences-modified-one-repulsed.yaml"),
    Reading("roster-order-across-groups", "10.8",
            "§10.8 tie-break \"the ship listed first on the task group's roster\", when the attack "
            "is made by several groups: the groups in the order the state lists them when the "
            "attack is thrown back, each group's ships in its roster order; the debt keeps that "
            "order for the allocation (``.owed_damage``).",
            case="damage-across-two-groups-in-list-order.yaml"),
    Reading("ship-lost-when-hull-gone", "10.8",
            "A ship whose every hull box is gone is destroyed and leaves the roster (applied where "
            "owed repulse damage is allocated, ``.owed_damage``).",
            case="damage-destroys-the-whole-group.yaml"),
    Reading("repaired-ship-stays", "11.1",
            "A ship under repair stays in the yard, so the group she is in must hold that week (no "
            "move, scout, split of her, or merge into another group).",
            case="economy-repair-group-must-hold.yaml"),
    Reading("donor-keeps-a-box", "11.3.3",
            "A ship stripped of parts (§11.3.2, §11.3.3) loses the hull boxes she gives, and must "
            "keep at least one: stripping a ship to nothing is breaking her up, which these rules "
            "do not provide for.",
            case="economy-repair-donor-keeps-a-box.yaml"),
    Reading("organic-parts-always-foreign", "11.3.3",
            "§11.3.3: an organic (Sa'Vasku) ship rejects what is grafted on from another vessel, "
            "so parts from an identical ship cost her the 20% of any other.",
            case="economy-repair-organic-parts-always-foreign.yaml"),
    Reading("grafted-parts-stay", "11.3.3",
            "§11.3.3: parts taken from another ship test for damage one level worse, always. The "
            "ship carries them from the week they are fitted, and for good: later repairs with "
            "her own kind of parts mend other boxes and leave the grafted ones in place "
            "(``grafted`` on the ship, named in the battle-result file, and felt in the abstract "
            "combat).",
            case="economy-repair-parts-from-another-ship.yaml"),
    Reading("abstract-losses-are-destroyed", "12.1",
            "The abstract combat destroys ships outright; only a tabletop result leaves hulks "
            "drifting to be captured (§12.1).",
            case="battle-abstract-route-bonus-and-beaten-fleet.yaml"),
    Reading("major-systems-judged-at-the-table", "12.2.1",
            "§12.2.1 also asks that three of the five major systems survive. The state does not "
            "track systems, so this is the umpire's to judge when filling in a battle result: a "
            "ship whose major systems are gone is marked destroyed, not drifting.",
            case="capture-drifting-ship-becomes-a-prize.yaml"),
    Reading("rebuilt-prize-keeps-its-damage", "12.2.1",
            "A rebuilt prize keeps its damage: mending it is an ordinary repair (§11), ordered and "
            'paid for like any other (§12.2.1 "charged at the normal rates").',
            case="capture-rebuild-forms-a-new-group.yaml"),
    Reading("stripped-prizes-give-parts", "12.2.2",
            "§11.3.3, §12.2.2: a prize gives parts once it is stripped (ordered stripped in this "
            "economic block, or in an earlier week); it is named in ``parts_from`` by its prize "
            "id, its parts are those of another ship (20%, one level worse), and it loses the "
            "boxes it gives, keeping one (reading ``donor-keeps-a-box``).",
            case="capture-stripped-prize-gives-parts.yaml"),
    Reading("keel-at-any-held-world", "13.1",
            "The 20 May ruling, rule 13.1 as amended: a keel may be laid at any world the player "
            "holds; ``System.shipyard`` marks a yard on the map and gives no right of its own.",
            case="economy-keel-at-any-held-world-builds-100-a-week.yaml"),
    Reading("keel-designs-of-own-navy", "13.1",
            "§13.1 is silent on whose designs a keel may follow. A keel is laid to a design of the "
            "player's own navy; the ally's 20% discount is for buying its ships on the open "
            "market, not for building them.",
            case="economy-keel-to-an-allys-design-refused.yaml"),
    Reading("new-ships-form-a-new-group", "13.1",
            "The ships completed or delivered at one world in one turn form one new task group "
            "there, with the next free id ``<player>-<n>``; it holds until ordered, and may merge "
            "with the others at the world the week after (§15.1).",
            case="economy-new-ships-at-one-world-form-one-group.yaml"),
    Reading("own-navy-is-player-id-when-unset", "13.1",
            "A player's navy is ``Player.navy``; a player with none named builds and buys the "
            "designs of the navy with the player's own id.",
            case="economy-purchase-own-design.yaml"),
    Reading("purchase-delivered-at-a-held-world", "13.1",
            "§13.1 does not say where a ship bought on the open market is handed over. The order "
            "names a world the player holds, and she is there at once, as the economic turn opens, "
            "in time to move the week after.",
            case="economy-purchase-at-a-world-not-held-refused.yaml"),
    Reading("ship-names-unique-in-a-navy", "13.1",
            "Ships are ordered and split by name, so a new ship's name may not be one already "
            "borne by a ship of the same navy, afloat or on the slips.",
            case="economy-ship-name-in-use-refused.yaml"),
    Reading("dummy-goes-with-its-capital-ship", "15.2",
            "§15.2 allows one dummy counter per capital ship. A player whose capital ship is "
            "destroyed loses the dummy that came with it (its last-listed one).",
            case="damage-losing-a-capital-ship-loses-its-dummy.yaml"),
    Reading("contacted-dummy-is-found-out", "15.2",
            "§15.2 with §15.3: a dummy stands for no ship, so once the week's moves and "
            "withdrawals are done, a dummy sharing a place with a group of another power that "
            "holds a ship is found out and taken off the map, told to its owner and the finders "
            "alone. It fights no one, so there is no encounter on its account and an enemy on "
            "attack orders there goes on to the defences (§10.1), with no bonus for beating a "
            "fleet (§10.2); the counter is gone for good.",
            case="dummy-contacted-is-found-out-and-fights-no-one.yaml"),
    Reading("dummies-meeting-dummies-stay", "15.2",
            "A counter with no ship sees nothing: dummies of two powers that meet with no ship "
            "of either side there do not find each other out; both stay.",
            case="dummy-met-only-by-dummies-stays.yaml"),
    Reading("new-capital-ship-brings-a-dummy", "15.2",
            "§15.2 gives a navy one dummy counter per capital ship. Ruling: a capital ship "
            "completed or bought brings hers, a new dummy group at the same world, as one "
            "destroyed takes hers away (reading ``dummy-goes-with-its-capital-ship``).",
            case="economy-capital-ship-bought-brings-a-dummy.yaml"),
    Reading("refits-are-the-umpires", "16",
            "Refits, module swaps and cargo conversions are made by the umpire, who edits the "
            "ship's design in the state and charges the treasury by hand; an order for one is "
            "refused, naming the section and why.",
            case="economy-refits-and-conversions-refused.yaml"),
    Reading("surcharge-on-the-whole-ship", "16.1",
            "The state knows a design's price and its hull boxes, not the price of each system in "
            "it, so the surcharge cannot fall on the foreign systems alone. A design marked "
            "``tech: non-indigenous`` pays it on the whole of its build price and on every hull "
            "box repaired; the umpire who wants the exact figure enters the design's price with "
            "the surcharge already in it and marks it ``non-standard`` instead.",
            case="economy-non-indigenous-keel-costs-20-percent-more.yaml"),
    Reading("approval-at-any-time", "16.2",
            '§16.2 has the approval given "at game start". Ruling: ftpress takes an approval '
            "whenever the umpire records it; the original umpires took their requests before play "
            "began, and a campaign's umpire who hears one later is ruling on their own campaign. "
            "What the text insists on, that every other player is told before the technology is "
            "used, is applied to the letter.",
            case="approval-told-to-every-player-before-use.yaml"),
    Reading("withdrawn-group-returns-to-origin", "17.2.3",
            "§17.2.3 names no place for a withdrawing group to go. One that arrived this week goes "
            "back where it set out from (24 March: the frigate seen off at Vesper is \"back at "
            "Orison\"). One that began the week there (a garrison: the text's own example is a "
            "power that took one look at what arrived at its world and left) goes too, as soon as "
            "it detects the enemy: to the nearest world of its owner's within a jump (§8.1) where "
            "no hostile force stands, nearer first then by name; with none, to the first hex of "
            "open space beside it, clockwise from the top of the map, that no hostile force holds; "
            "with nowhere at all, it stays and its encounter is fought.",
            case="withdraw-if-contested-garrison-bugs-out.yaml"),
    Reading("withdraw-if-contested-stays-before-defences", "17.2.3",
            "§17.2.3: facing only planetary defences, a group on withdraw if contested may stay, "
            "look them over, and change its orders to attack. It stays and does not attack that "
            "week (its player has not yet seen what it found); the change to attack is its next "
            "orders, holding there on attack posture.",
            case="withdraw-if-contested-stays-before-defences.yaml"),
    Reading("entry-edge-faces-the-set-out", "17.6",
            "§17.6 brings a task force onto the table by the edge of the hex side it crossed, with "
            "the top of the table the top of the map. A jump may span two hexes and a route "
            "several, so the side is the one facing where the group set out from this week (of two "
            "equally near, the clockwise one, as ``hexes.CLOCKWISE_FIRST``).",
            case="battle-pending-says-which-edge-each-group-enters-by.yaml"),
    Reading("broken-off-fall-back-to-origin", "18.4",
            "§18.4: a side that breaks off an abstract battle jumps back where it set out from "
            "this week; one that began the week there has no recorded way out and stays, so the "
            "encounter goes on next turn.",
            case="battle-abstract-break-off-falls-back.yaml"),
    Reading("withdrawal-lands-at-turn-end", "18.4",
            "§18.4: a fleet that jumps out of a tabletop battle arrives where the result says it "
            "went, no further than one move away; the state has no ships in transit, so it stands "
            "there when the turn ends, and the jump is its move of the next turn "
            "(``.departures``): it may not move again until the turn after.",
            case="battle-tabletop-withdrawal-jumps-out.yaml"),
)
