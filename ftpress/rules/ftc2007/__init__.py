"""ftc2007: the consolidated campaign rules of seed 000 and their later rulings.

Modules follow the rules: :mod:`.mapgen` rules 1–3, :mod:`.setup` rule 6,
:mod:`.state_legality` what any state must satisfy, :mod:`.report` the log of setup;
:mod:`.turn` resolves a strategic turn, one module per rule (:mod:`.orders`
legality, :mod:`.reorganise` §15.1, :mod:`.movement` §8, :mod:`.scouting` §2.3
and §4, :mod:`.encounters` §17, :mod:`.battles` §14, §17.3–§17.5 and §18,
:mod:`.capture` §12, :mod:`.defences` §9 and §10, :mod:`.owed_damage` and
:mod:`.owed_repairs` §10.7–§10.8, :mod:`.table_notes` what a battle is told (§10.8,
rule 20), :mod:`.approvals` §16.2, :mod:`.departures` §18.4,
:mod:`.interdiction` §8.2,
:mod:`.economic_orders` §5.2 and §7), :mod:`.summary` describes orders, and
:mod:`.report_groups` says how its turn report files the events; :mod:`.setup_orders`
and :mod:`.setup_turn` play the set-up turn (§6) where the players buy their forces.
"""

from __future__ import annotations

from ftpress.rules.ftc2007.display import DISPLAY
from ftpress.rules.ftc2007.mapgen import OPTION_LIMITS, MapOptions
from ftpress.rules.ftc2007.orderfile import ADAPTER
from ftpress.rules.ftc2007.readings import READINGS
from ftpress.rules.ftc2007.report import setup_post
from ftpress.rules.ftc2007.report_groups import REPORT
from ftpress.rules.ftc2007.section_index import SECTIONS
from ftpress.rules.ftc2007.setup import build_state, roll_up
from ftpress.rules.ftc2007.setup_form import FIRST_ORDERS, order_choices, order_form
from ftpress.rules.ftc2007.setup_turn import describe, problems, resolve
from ftpress.rules.ftc2007.state_ext import EXTENSION
from ftpress.rules.ftc2007.state_legality import check_state
from ftpress.rules.ruleset import CampaignRequest, NewCampaign, Ruleset


def new_campaign(request: CampaignRequest) -> NewCampaign:
    """Roll up the map (§1–§3) and give every player their starting capital (§6)."""
    options = MapOptions.from_dict(dict(request.options))
    generated, dice = roll_up(request.seed, request.players, options)
    state = build_state(generated, campaign_id=request.id, name=request.name,
                        seed=request.seed, start=request.start, deadline=request.deadline)
    title, summary, body = setup_post(generated, state, dice.log)
    return NewCampaign(state, dice.log, title, summary, body, first_orders=FIRST_ORDERS)


RULESET = Ruleset(
    name="ftc2007",
    title="Full Thrust Campaign, rules consolidated and revised to 20 May 2007",
    check_state=check_state,
    new_campaign=new_campaign,
    report=REPORT,
    orders_adapter=ADAPTER,
    # The first order format ftpress had, published as orders.json before any other
    # ruleset had its own: the files players wrote name that schema.
    orders_schema_name="orders",
    state_extension=EXTENSION,
    display=DISPLAY,
    options=tuple(OPTION_LIMITS),
    section_index=SECTIONS,
    readings=READINGS,
    # The set-up turn's orders first (§6), then the week's (:mod:`.setup_turn`).
    check_orders=problems,
    describe_orders=describe,
    resolve=resolve,
    order_form=order_form,
    order_choices=order_choices,
)
