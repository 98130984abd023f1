"""The campaign's half of the render stage: what a site with a state has and a blog
alone has not (the front page's headline of the last turn, the order guide, the
campaign's and the turns' pages, "Your view", the turns' entries in the feeds).

:mod:`ftpress.site.rendering` imports this module only for a site with a state, so
that a blog's build does not import the maps, svgwrite, the cards and the order
forms it never draws (65 modules, about 0.1 s of every build before it forks).
"""

from __future__ import annotations

from ftpress import rules
from ftpress.render.campaign import render_campaign
from ftpress.render.feeds import FeedEntry
from ftpress.render.order_guide import render_order_guide
from ftpress.render.outputs import Outputs
from ftpress.render.pages import Renderer
from ftpress.render.rulebook import citable
from ftpress.render.turnfeed import turn_entries
from ftpress.render.turns import Headline, headline, render_turns
from ftpress.render.yourview import render_your_view
from ftpress.site.loading import Site
from ftpress.state.model import State
from ftpress.state.report_spec import ReportSpec
from ftpress.store.campaign import display_of, order_forms


def lead(site: Site, state: State, r: Renderer) -> Headline | None:
    """The headline of the last turn, for the front page."""
    return headline(site.turns, r.urls, report=report(state), viewer=site.view, nets=site.nets)


def queue(site: Site, state: State, r: Renderer, out: Outputs,
          schemas: dict[str, bytes]) -> None:
    """Queue the campaign's pages: the order guide, the campaign's and the turns' pages,
    and "Your view"."""
    viewer = site.view  # the state and the turns are as this viewer knows them
    # How to send orders, from the order schema and the rulebook.
    render_order_guide(r, schemas, site.rulebook, state, site.order_suffix)
    display = display_of(state)  # how the campaign's ruleset shows its state
    # The order forms: every one for the umpire, a player's own for that player.
    forms = order_forms(state) if viewer.umpire or viewer.player else {}
    # Each read only the campaign, as the viewer knows it, and the site's settings
    # (the turn reports also where each rule cited points): with the campaign's
    # files unchanged, serve queues their pages again without making their views.
    r.reuse("campaign", (state, viewer, forms, site.config), lambda: render_campaign(
        r, state, display, viewer=viewer,
        forms={p: f for p, f in forms.items() if viewer.umpire or p == viewer.player}))
    r.reuse("turns", (state, site.turns, site.nets, viewer, site.config,
                      citable(site.rulebook)),
            lambda: render_turns(r, state, site.turns, site.rulebook, display,
                                 report=report(state), viewer=viewer, nets=site.nets))
    if site.yours is not None:  # a player's report: theirs, or sealed to each
        render_your_view(r, out, state, site.yours)


def entries(site: Site, state: State, r: Renderer) -> tuple[FeedEntry, ...]:
    """The turns' entries in the feeds."""
    return turn_entries(site.turns, r.urls, report=report(state), zone=site.config.zone,
                        viewer=site.view, nets=site.nets)


def report(state: State) -> ReportSpec:
    """How the campaign's ruleset files and reads its events in a turn report."""
    return rules.find_ruleset(state.campaign.ruleset).report
