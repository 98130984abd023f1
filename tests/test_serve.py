"""`ftpress serve` without a browser: start it, change a file, fetch the page."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from conftest import post


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8")


#: How long a test waits for the server's next event: a bound against a hang, not a
#: measure of speed (with the suite on every core, a rebuild may wait for a core).
EVENT_WAIT = 60


def wait_for(predicate, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            result = predicate()
            if result:
                return result
        except (urllib.error.URLError, ConnectionError, OSError):
            pass
        time.sleep(0.1)
    raise AssertionError("timed out waiting")


@pytest.fixture
def server(campaign):
    root = campaign({"content/posts/2026/04/07-hello.md": post(title="Hello", date="2026-04-07",
                                                               body="First words.")})
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "ftpress", "serve", "--source", str(root), "--port", str(port),
         "--now", "2026-11-01"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    base = f"http://127.0.0.1:{port}/camp/"
    try:
        wait_for(lambda: fetch(base)[0] == 200)
        yield root, base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_serves_the_site_under_its_base_path(server):
    _, base = server
    status, html = fetch(base + "posts/2026/04/07/hello/")
    assert status == 200
    assert "First words." in html
    assert "EventSource" in html  # the live-reload script, added only by the server
    assert "EventSource" not in fetch(base.rsplit("/camp/", 1)[0] + "/camp/feed.xml")[1]
    assert fetch(base + "no/such/page/")[0] == 404
    assert fetch(base + "../../../etc/passwd")[0] == 404
    # A doubled slash after the base would name an absolute path: never outside the site.
    assert fetch(base + "/etc/passwd")[0] == 404
    assert fetch(base + "%2Fetc/passwd")[0] == 404


def test_rebuilds_when_a_post_changes(server):
    root, base = server
    url = base + "posts/2026/04/07/hello/"
    (root / "content/posts/2026/04/07-hello.md").write_text(
        post(title="Hello", date="2026-04-07", body="Second thoughts."))
    wait_for(lambda: "Second thoughts." in fetch(url)[1])


def test_new_post_appears_and_events_announce_rebuilds(server):
    root, base = server
    with urllib.request.urlopen(base + "__ftpress/events?since=1", timeout=EVENT_WAIT) as events:
        (root / "content/posts/2026/04/08-more.md").write_text(
            post(title="More", date="2026-04-08"))
        assert events.readline().decode().startswith("event: reload")
    wait_for(lambda: fetch(base + "posts/2026/04/08/more/")[0] == 200)


def test_a_broken_file_shows_in_the_page_and_the_server_lives(server):
    root, base = server
    bad = root / "content/posts/2026/04/09-bad.md"
    bad.write_text(post(title="Bad", date="2026-04-09", kind="gossip"))
    html = wait_for(lambda: next((h for h in [fetch(base)[1]] if 'role="alert"' in h), None))
    assert "content/posts/2026/04/09-bad.md:4:7" in html
    bad.unlink()
    wait_for(lambda: 'role="alert"' not in fetch(base)[1])


def test_the_first_reload_after_editing_a_post_finds_its_page_rewritten(server):
    """The edited post's page is rewritten before anything else, then the browser is told."""
    root, base = server
    with urllib.request.urlopen(base + "__ftpress/events?since=1", timeout=EVENT_WAIT) as events:
        (root / "content/posts/2026/04/07-hello.md").write_text(
            post(title="Hello", date="2026-04-07", body="Rewritten first."))
        assert events.readline().decode().startswith("event: reload")
        assert "Rewritten first." in fetch(base + "posts/2026/04/07/hello/")[1]


def test_the_page_a_browser_shows_is_new_at_the_first_reload(server):
    """The live-reload script names its page; an edit of every page (the masthead)
    reloads it once that page is written, and the site ends with every page new."""
    root, base = server
    url = base + "posts/2026/04/07/hello/"
    assert "encodeURIComponent(location.pathname)" in fetch(url)[1]
    masthead = root / "themes/default/_masthead.html"
    masthead.parent.mkdir(parents=True)
    with urllib.request.urlopen(base + "__ftpress/events?since=1&page=/camp/posts/2026/04/07/"
                                "hello/", timeout=EVENT_WAIT) as events:
        masthead.write_text("<p>A masthead anew</p>\n")
        assert events.readline().decode().startswith("event: reload")
        assert "A masthead anew" in fetch(url)[1]
    wait_for(lambda: "A masthead anew" in fetch(base)[1])
