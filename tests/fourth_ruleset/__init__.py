"""lighthouse: a fourth ruleset that lives entirely in this folder, to prove the seam.

Each turn a power may light the beacons of worlds it holds, and every group
keeps watch where it is. Nothing outside this folder knows of it: the test
registers it (``ftpress.rules.register``) and then campaigns name it in
``state/campaign.yaml`` like any other ruleset. Its state is the shared model's.
"""

from __future__ import annotations

from fourth_ruleset.orders import ADAPTER, check_orders, describe_orders
from fourth_ruleset.report_groups import REPORT
from fourth_ruleset.turn import resolve
from ftpress.errors import Problem, SetupError
from ftpress.rules.ruleset import CampaignRequest, NewCampaign, Ruleset
from ftpress.state.load import LoadedState


def check_state(loaded: LoadedState) -> list[Problem]:
    """Any state the shared model accepts will do: beacons leave no trace in it."""
    return []


def new_campaign(request: CampaignRequest) -> NewCampaign:
    """The lighthouse rules make no map; its campaigns are written by hand."""
    raise SetupError(f"the lighthouse ruleset makes no map for {request.name}; "
                     "write state/ by hand")


RULESET = Ruleset(
    name="lighthouse",
    title="Lighthouse: beacons and the watch",
    check_state=check_state,
    new_campaign=new_campaign,
    report=REPORT,
    check_orders=check_orders,
    describe_orders=describe_orders,
    resolve=resolve,
    orders_adapter=ADAPTER,
)
