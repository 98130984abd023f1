"""``/orders/``, how to send orders: built from the campaign's order schema and its
rulebook, for each ruleset."""

from __future__ import annotations

import re

import pytest
from demos import FTCAMP02, SCT


def _text(page: str) -> str:
    main = page[page.index("<main"):page.index("</main>")]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main))


def test_the_demo_guide_lists_every_key_and_links_the_rules(demo_site):
    page = (demo_site / "orders/index.html").read_text()
    text = _text(page)
    assert "Orders for t010 are due 2026-05-17T20:00:00+00:00." in text
    assert "ftpress orders new &lt;your id&gt;" in text
    # every key of a group order, as the schema says what it takes
    assert ('<tr><th scope="row"><code>posture</code></th><td>one of <code>stand-off</code>, '
            '<code>attack</code>, <code>withdraw-if-contested</code></td><td>no</td></tr>'
            in page)
    assert ('<tr><th scope="row"><code>turn</code></th><td>a turn id such as '
            '<code>t004</code></td><td>yes</td></tr>') in page
    assert '<a href="#order-grouporder">group order</a>' in page
    # a section the records cite links to the rulebook as it stands
    assert '<a href="/ftpress/rules/#r-13-1">§13.1</a>' in page
    assert "``" not in page


@pytest.mark.parametrize("demo", [SCT, FTCAMP02], ids=["sct", "ftcamp02"])
def test_an_example_gets_its_own_rulesets_guide(tmp_path, demo):
    built = demo.build(tmp_path / "site")
    page = (built / "orders/index.html").read_text()
    assert ('<th scope="row"><code>forces</code></th>' in page) == (demo is SCT)
    assert ('<th scope="row"><code>attach</code></th>' in page) == (demo is FTCAMP02)
