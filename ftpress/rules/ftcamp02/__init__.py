"""ftcamp02: the Fleet Orders chapter of FTCamp0.2 (seed 002).

Modules follow the chapter: :mod:`.crafts` §5.1, :mod:`.groups` §5.2–§5.3 and
the EP ratings, :mod:`.orderfile` the order file, :mod:`.orders` legality,
:mod:`.turn` resolves a round, one module per rule (:mod:`.endurance` §2,
:mod:`.independents` §3, :mod:`.reorganise` §4.2.2, :mod:`.locate` §4.2.8,
:mod:`.movement` §4.1 and §4.4, :mod:`.flight` §4.1.3, :mod:`.hold` §4.2,
:mod:`.claims` §4.3 and §8, :mod:`.scans` §7), :mod:`.state_legality` what any state
must satisfy, :mod:`.summary` describes orders, :mod:`.setup` a new campaign,
:mod:`.report_groups` its events in the turn report.
"""

from __future__ import annotations

from ftpress.rules.ftcamp02.display import DISPLAY
from ftpress.rules.ftcamp02.order_form import order_choices, order_form
from ftpress.rules.ftcamp02.orderfile import ADAPTER
from ftpress.rules.ftcamp02.orders import problems as order_problems
from ftpress.rules.ftcamp02.readings import READINGS
from ftpress.rules.ftcamp02.report_groups import REPORT
from ftpress.rules.ftcamp02.section_index import SECTIONS
from ftpress.rules.ftcamp02.setup import FIRST_ORDERS, OPTION_LIMITS, Options, build
from ftpress.rules.ftcamp02.state_ext import EXTENSION
from ftpress.rules.ftcamp02.state_legality import check_state
from ftpress.rules.ftcamp02.summary import describe_orders
from ftpress.rules.ftcamp02.turn import resolve
from ftpress.rules.ruleset import CampaignRequest, NewCampaign, Ruleset
from ftpress.state.turns import SETUP, TURNS_DIR


def new_campaign(request: CampaignRequest) -> NewCampaign:
    """A hex map with home systems, neutral systems and dust, and starting groups
    (every figure a named choice of :mod:`.setup`: the seed has no setup rules)."""
    options = Options.from_dict(dict(request.options))
    state, dice, log = build(request.seed, request.id, request.name, request.players,
                             request.start, request.deadline, options)
    rolls = "\n".join(f"| {i} | d{r.sides} | {r.value} | {r.purpose} |"
                      for i, r in enumerate(dice.log, start=1))
    body = "\n".join([
        "FTCamp0.2's fleet orders chapter has no rules for making a map or for the "
        "forces a power starts with, so ftpress makes both by its own stated choices "
        f"from seed {request.seed}, radius {options.radius}.",
        "",
        *[f"- {line}" for line in log],
        "",
        f"Every die is in `{TURNS_DIR}/{SETUP}/dice.yaml`:",
        "",
        "| # | die | result | for |",
        "|---|---|---|---|",
        rolls,
        "",
    ])
    return NewCampaign(state, dice.log, "The campaign map is rolled",
                       f"The map of {request.name}: {len(state.map.systems)} systems for "
                       f"{len(request.players)} powers.", body, post_tags=("setup", "map"),
                       first_orders=FIRST_ORDERS)


RULESET = Ruleset(
    name="ftcamp02",
    title="FTCamp0.2: Campaign Round (Fleet Orders)",
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
