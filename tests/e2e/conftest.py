"""Browser fixtures: the demo site served under its GitHub Pages sub-path, and Chromium.

Chromium comes from Debian (`apt-get install chromium`) and is driven by
Playwright; no browser is ever downloaded. Without it these tests skip, except
in CI (CI=true), where a missing browser is a failure.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("FTPRESS_CHROMIUM", "/usr/bin/chromium")
BASE_PATH = "/ftpress/"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
#: Flags that keep headless Chromium off the network and quiet on a locked-down machine.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-dev-shm-usage"]


def require(condition: bool, what: str) -> None:
    if not condition:
        if os.environ.get("CI"):
            pytest.fail(f"{what} is missing; .ci/run must install it")
        pytest.skip(f"{what} is not installed")


class _PagesHandler(SimpleHTTPRequestHandler):
    """Serves a folder at ``base_path`` the way GitHub Pages does, 404.html included."""

    base_path = BASE_PATH

    def log_message(self, format: str, *args: object) -> None:
        pass

    def translate_path(self, path: str) -> str:
        clean = path.split("?", 1)[0].split("#", 1)[0]
        if not clean.startswith(self.base_path):
            return str(Path(self.directory) / "__nowhere__")
        return super().translate_path("/" + clean[len(self.base_path):])

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        return None


@contextmanager
def served(folder: Path, base_path: str = BASE_PATH) -> Iterator[str]:
    """A built site served at ``base_path`` on a free port; yields the site's URL."""
    handler = type("Handler", (_PagesHandler,), {"base_path": base_path})
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{base_path}"
    finally:
        server.shutdown()


@pytest.fixture(scope="session")
def site_url(demo_site: Path) -> Iterator[str]:
    with served(demo_site) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    require(Path(CHROMIUM).is_file(), f"Chromium ({CHROMIUM})")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class Watched:
    """A page whose console errors and failed requests are recorded."""

    def __init__(self, page) -> None:
        self.page = page
        self.problems: list[str] = []
        page.on("console", lambda m: self.problems.append(f"console {m.type}: {m.text}")
                if m.type == "error" else None)
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        # ERR_ABORTED is a request the next navigation cancelled (a favicon, say), not a failure.
        page.on("requestfailed", lambda r: self.problems.append(
            f"request failed: {r.url} ({r.failure})") if "ERR_ABORTED" not in str(r.failure)
            else None)
        page.on("response", lambda r: self.problems.append(f"HTTP {r.status}: {r.url}")
                if r.status >= 400 else None)

    def shot(self, name: str) -> None:
        """Save a full-page screenshot under test-artifacts/ (not committed)."""
        folder = ARTIFACTS / "screenshots"
        folder.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


@pytest.fixture(params=[390, 1280], ids=["phone", "desktop"])
def watched(request, browser) -> Iterator[Watched]:
    width = request.param
    context = browser.new_context(viewport={"width": width, "height": 900 if width > 500 else 844},
                                  is_mobile=width < 500, device_scale_factor=1)
    page = context.new_page()
    watched = Watched(page)
    watched.width = width
    yield watched
    context.close()


def java() -> str | None:
    return shutil.which("java")
