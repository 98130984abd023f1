"""sct: Simple Campaign Thrust (seed 001), a short campaign on a planar map.

One module per rule: :mod:`.orderfile` the order file, :mod:`.orders` its
legality, :mod:`.plane` the map's geometry (§4.1, §4.3, §6.1),
:mod:`.initiative` §2.2, :mod:`.movement` §4, :mod:`.supply` §5,
:mod:`.combat` §6 and §7.3 (by the shared :mod:`ftpress.rules.abstract_combat`),
:mod:`.tabletop` battles fought on the table, :mod:`.losses` §6.4 for both,
:mod:`.costs` and :mod:`.economy` §3 and §7, :mod:`.reorganise` phase 9,
:mod:`.turn` the ten phases of §2.1 as a fold; :mod:`.setup` a new map,
:mod:`.state_legality` what any state must satisfy, :mod:`.summary` orders described,
:mod:`.report_groups` its events in the turn report.
"""

from __future__ import annotations

from ftpress.rules.ruleset import CampaignRequest, NewCampaign, Ruleset
from ftpress.rules.sct.display import DISPLAY
from ftpress.rules.sct.order_form import order_choices, order_form
from ftpress.rules.sct.orderfile import ADAPTER
from ftpress.rules.sct.orders import problems as order_problems
from ftpress.rules.sct.readings import READINGS
from ftpress.rules.sct.report_groups import REPORT
from ftpress.rules.sct.section_index import SECTIONS
from ftpress.rules.sct.setup import FIRST_ORDERS, OPTION_LIMITS, Options, build, setup_post
from ftpress.rules.sct.state_ext import EXTENSION
from ftpress.rules.sct.state_legality import check_state
from ftpress.rules.sct.summary import describe_orders
from ftpress.rules.sct.turn import resolve


def new_campaign(request: CampaignRequest) -> NewCampaign:
    """Roll up a planar map and give every player a home system and a task force."""
    options = Options.from_dict(dict(request.options))
    state, dice = build(request.seed, request.players, options, campaign_id=request.id,
                        name=request.name, start=request.start, deadline=request.deadline)
    title, summary, body = setup_post(state)
    return NewCampaign(state, dice.log, title, summary, body, first_orders=FIRST_ORDERS)


RULESET = Ruleset(
    name="sct",
    title="Simple Campaign Thrust (2000)",
    check_state=check_state,
    new_campaign=new_campaign,
    report=REPORT,
    state_extension=EXTENSION,
    display=DISPLAY,
    options=tuple(OPTION_LIMITS),
    section_index=SECTIONS,
    readings=READINGS,
    check_orders=order_problems,
    describe_orders=describe_orders,
    resolve=resolve,
    orders_adapter=ADAPTER,
    order_form=order_form,
    order_choices=order_choices,
)
