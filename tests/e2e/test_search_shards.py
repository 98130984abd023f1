"""Search over an index in shards: the search page merges every shard, and a word
found in one post only, of any year, leads to that post."""

from __future__ import annotations

import threading
from functools import partial
from http.server import ThreadingHTTPServer

import pytest
from test_search_shards import NOW, SITE_YAML, WORDS, three_years

from e2e.conftest import BASE_PATH, Watched, _PagesHandler
from ftpress.cli import main
from ftpress.site import search

from conftest import write_files


@pytest.fixture
def sharded_url(tmp_path, monkeypatch):
    monkeypatch.setattr(search, "SHARD_PAGES", 5)
    root = write_files(tmp_path / "campaign", {"site.yaml": SITE_YAML, **three_years()})
    out = tmp_path / "out"
    assert main(["build", "--source", str(root), "--out", str(out), "--now", NOW]) == 0
    assert (out / "pagefind" / "shard-2026" / "pagefind-entry.json").is_file()
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_PagesHandler, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}{BASE_PATH}"
    server.shutdown()


def test_a_word_of_any_year_is_found_across_the_shards(browser, sharded_url):
    context = browser.new_context()
    watched = Watched(context.new_page())
    page = watched.page
    page.goto(sharded_url + "search/")
    for year, word in WORDS.items():
        page.get_by_label("Search the campaign").fill(word)
        expected = f"{BASE_PATH}posts/{year}/03/02/y{year}p2/"
        page.wait_for_function(
            "href => document.querySelector('.search-results a')?.getAttribute('href') === href",
            arg=expected, timeout=10_000)
        assert page.locator("#search-status").inner_text() == "1 result."
    assert watched.problems == []
    context.close()
