"""The "Your view" page, ``you/``: a player's own report (:mod:`ftpress.yourview`).

On the public site of a sealed campaign the page holds no report: its script
(``static/your-view.js``, with ``static/age.js``) opens the reader's, sealed to them,
with the key they give it, and lays it out; the sealed reports are published beside
it. In a player's own view (``build --view PLAYER``) the page shows their report
itself, laid out by the same template, and needs no script to read. Either way the
page says whose it is in a banner.
"""

from __future__ import annotations

import json

from ftpress.render.outputs import Outputs
from ftpress.render.pages import Renderer
from ftpress.state.model import State
from ftpress.yourview.view import NAME_PREFIX, PAD_BUCKET, PAD_MARK, YourView

#: What the page lets its scripts do: its own files alone (the sealed reports are
#: fetched from the site itself; nothing goes to another host), no inline script.
CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; "
                           "img-src 'self' data:; connect-src 'self'; base-uri 'none'; "
                           "form-action 'none'")


def render_your_view(r: Renderer, out: Outputs, state: State, yours: YourView) -> None:
    """Queue ``you/index.html``; publish the sealed reports beside it."""
    for path, data in yours.sealed:
        out.add(path, data, "state/turns")
    players = {p.id: p.name for p in state.players.players}
    # What the script needs and the public may know, as one JSON attribute.
    public = {
        "namePrefix": NAME_PREFIX,
        "padMark": PAD_MARK.decode("utf-8"),
        "padBucket": PAD_BUCKET,
        "openTurn": yours.open_turn,
        "sent": list(yours.sent),
        "players": players,
        "repository": yours.repository,
    }
    r.page("you/index.html", "your_view.html", "state/players.yaml", title="Your view",
           description="Your own report of the campaign, sealed to you, opened in your "
           "browser with your key; and your orders, sealed in the page.",
           section="you", noindex=True, report=yours.report,
           public=json.dumps(public, sort_keys=True),
           csp=CONTENT_SECURITY_POLICY,
           orders_in=(yours.report is not None and yours.report["player"] in yours.sent))
