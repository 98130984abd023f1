"""``ftpress serve``: build, serve the output, rebuild on every change, reload the browser.

The site is built exactly as ``ftpress build`` builds it, with a build cache kept
from build to build that tracks what each part of the load and each page was made
from: an edit reloads only the parts whose files changed and renders only the pages
whose inputs changed (:mod:`ftpress.speed.buildcache`, :mod:`ftpress.render.pages`),
and the browser reloads once the pages are written, before the search index is redone.
The live-reload script tells the server which page it shows: an edit that changes
thousands of pages (a template, ``site.yaml``) renders and writes the pages a browser
shows first and reloads it then, before the rest (Hugo's "fast render mode", except
that the rest is always built: the served site ends as a clean build, byte for byte).
The live-reload script is added to HTML responses by the server as they go out, so the files
on disk never contain it. A build that fails leaves the last good site in
place and shows the problems at the top of every page until they are fixed.
"""

from __future__ import annotations

import html
import mimetypes
import posixpath
import shutil
import signal
import tempfile
import threading
import time
from collections import Counter
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import watchfiles

from ftpress.content.posts import POSTS_DIR
from ftpress.errors import InputError, UserError
from ftpress.files.clock import build_now
from ftpress.files.config import CONFIG_FILE, load_config
from ftpress.files.write import WriteReport
from ftpress.secrecy.twins import UmpireKey
from ftpress.site import BuildOptions, Site, build, rebuild_post
from ftpress.speed.buildcache import CACHE_DIR, RenderCache
from ftpress.speed.executor import ForkExecutor
from ftpress.text.logsafe import say

EVENTS = "__ftpress/events"
WATCHED = ("content", "state", "orders", "themes", "static")
KEEPALIVE_SECONDS = 15


class LiveSite:
    """The state shared by the builder thread and the request handlers."""

    def __init__(self, root: Path, out: Path, *, drafts: bool, future: bool,
                 now: str | None, view: str = "public", identity: Path | None = None,
                 umpire: UmpireKey | None = None) -> None:
        self.root, self.out = root, out
        self.drafts, self.future, self.now = drafts, future, now
        #: Whose site is served (``BuildOptions.view``).
        self.view = view
        #: A player's key, for their view (``BuildOptions.identity``).
        self.identity = identity
        #: A sealed campaign's umpire key, for the umpire's view (``BuildOptions.umpire``).
        self.umpire = umpire
        self.version = 0
        self.error: str | None = None
        self.base_path = "/"
        self.changed = threading.Condition()
        # Kept across rebuilds: an edit to one post re-renders one post's Markdown.
        self.cache = RenderCache(root / CACHE_DIR, track=True)
        #: What the last good build loaded: an edited post's page is redone from it.
        self.site: Site | None = None
        #: The output paths of the pages the browsers show, each with the number of
        #: event streams open on it (under :attr:`changed`'s lock).
        self.viewing: Counter[str] = Counter()
        #: Pages written ahead of a build that then failed: their search index is still
        #: to be redone, by the next build that succeeds.
        self.unindexed: set[str] = set()

    def rebuild(self, changed: set[str] | None = None) -> None:
        """Build once; on failure keep the old output and remember the problems.

        ``changed`` are the files that changed since the last build. When they are
        all posts already on the site, each one's page is rewritten first and the
        browser reloads at once. The build redoes only what depends on what changed
        (the cache kept from build to build tracks it), and reloads the browser as
        soon as the pages are written, before the search index is redone; after an
        early rewrite, only if it changed another page. The pages the browsers show
        (:meth:`shown_pages`) are rendered and written before the others, and the
        browser reloads as soon as one of them changed.
        """
        started = time.perf_counter()
        quick: set[str] = set()
        reloaded = False

        def shown(paths: frozenset[str]) -> None:
            if paths:
                print(f"rewrote {len(paths)} page(s) a browser shows in "
                      f"{time.perf_counter() - started:.2f} s; building the rest", flush=True)
                quick.update(paths)
                self._announce(None)

        def written(paths: frozenset[str], write: WriteReport) -> None:
            nonlocal reloaded
            if not quick or _more_pages(paths, write, quick):
                print(f"pages written in {time.perf_counter() - started:.2f} s; "
                      "redoing the search index", flush=True)
                self._announce(None)
                reloaded = True

        try:
            self.base_path = load_config(self.root).base_path
            options = BuildOptions(build_now(self.now), drafts=self.drafts, future=self.future,
                                   view=self.view, identity=self.identity,
                                   umpire=self.umpire)
            quick = self._rebuild_posts(changed or set(), options)
            if quick:
                print(f"rewrote {len(quick)} post page(s) in "
                      f"{time.perf_counter() - started:.2f} s; building the rest", flush=True)
                self._announce(None)
            # On every core, like `build`: the workers fork from this thread, and take
            # no lock the server's threads hold (they only read files and write to
            # their sockets; the workers render and write into the staging folder).
            report = build(self.root, self.out, options, cache=self.cache,
                           executor=ForkExecutor(), reindex=frozenset(quick | self.unindexed),
                           written=written, keep_site=True, first=self.shown_pages(),
                           shown=shown)
            self.site, self.unindexed = report.site, set()
            error, line = None, report.summary(self.out)
        except InputError as exc:
            error = "\n".join(str(p) for p in exc.problems)
            line = f"build failed in {time.perf_counter() - started:.2f} s:\n{error}"
            self.unindexed |= quick
        except UserError as exc:  # a bad --now, or Pagefind failing
            error = line = str(exc)
            self.unindexed |= quick
        say(line, err=error is not None)
        if error is None and (reloaded or quick):
            return  # the browser already shows all that changed
        self._announce(error)

    def _rebuild_posts(self, changed: set[str], options: BuildOptions) -> set[str]:
        """Rewrite the pages of edited posts ahead of the build; the pages rewritten."""
        if self.site is None or self.error is not None or not changed:
            return set()
        rels = set()
        for path in changed:
            try:
                rel = Path(path).resolve().relative_to(self.root.resolve()).as_posix()
            except ValueError:
                return set()
            if not (rel.startswith(POSTS_DIR + "/") and rel.endswith(".md")):
                return set()  # anything else may change any page: build it all
            rels.add(rel)
        done = set()
        for rel in sorted(rels):
            page = rebuild_post(self.site, rel, self.out, options, self.cache)
            if page is not None:
                done.add(page)
        return done

    def _announce(self, error: str | None) -> None:
        with self.changed:
            self.error = error
            self.version += 1
            self.changed.notify_all()

    def page_of(self, url_path: str) -> str | None:
        """The output path of the page at ``url_path`` (as a browser's address bar has
        it), or None if it is outside the site."""
        rel = _inside(self.base_path, url_path)
        if rel is None:
            return None
        return "index.html" if rel == "." else \
            f"{rel}/index.html" if url_path.endswith("/") else rel

    def watching(self, page: str | None, opened: bool) -> None:
        """A browser's event stream on ``page`` opened or closed."""
        if page is None:
            return
        with self.changed:
            self.viewing[page] += 1 if opened else -1
            if self.viewing[page] <= 0:
                del self.viewing[page]

    def shown_pages(self) -> frozenset[str]:
        """The pages the browsers show now."""
        with self.changed:
            return frozenset(self.viewing)

    def wait_for_change(self, since: int, timeout: float) -> int:
        with self.changed:
            self.changed.wait_for(lambda: self.version > since, timeout=timeout)
            return self.version

    def is_source_change(self, path: str) -> bool:
        """Only the campaign's inputs trigger a rebuild, never the output itself."""
        try:
            rel = Path(path).resolve().relative_to(self.root.resolve())
        except ValueError:
            return False
        if Path(path).resolve().is_relative_to(self.out.resolve()):
            return False
        return rel.as_posix() == CONFIG_FILE or (len(rel.parts) > 1 and rel.parts[0] in WATCHED)


def _script(site: LiveSite, version: int) -> str:
    url = f"{site.base_path}{EVENTS}?since={version}&page="
    # The page it shows goes with the stream: an edit of every page renders it first.
    return ("<script>(function(){var s=new EventSource(" + repr(url).replace("'", '"') +
            "+encodeURIComponent(location.pathname));s.addEventListener('reload',function(){s.close();location.reload();});})();"
            "</script>")


def _overlay(error: str) -> str:
    return ('<div role="alert" style="position:sticky;top:0;z-index:99;background:#7f1d1d;'
            'color:#fff;font:14px/1.5 ui-monospace,monospace;padding:12px 16px;'
            'white-space:pre-wrap;border-bottom:4px solid #f0b54a">'
            "<strong>ftpress: the last build failed; showing the previous site.</strong>\n"
            f"{html.escape(error)}</div>")


class Handler(BaseHTTPRequestHandler):
    site: LiveSite  # set on the subclass made by serve()
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass  # the build summaries are the useful output; requests are noise

    def do_HEAD(self) -> None:
        self._respond(head=True)

    def do_GET(self) -> None:
        self._respond(head=False)

    def _respond(self, *, head: bool) -> None:
        url = urlsplit(self.path)
        base = self.site.base_path
        if url.path == base + EVENTS:
            query = parse_qs(url.query)
            since = query.get("since", ["0"])[0]
            page = self.site.page_of(query.get("page", [""])[0])
            return self._events(int(since) if since.isdigit() else 0, page)
        if not url.path.startswith(base):
            if url.path in ("", "/"):
                return self._redirect(base)
            return self._send_file(None, HTTPStatus.NOT_FOUND, head)
        rel = _inside(base, url.path)
        if rel is None:
            return self._send_file(None, HTTPStatus.NOT_FOUND, head)
        target = self.site.out / rel
        if target.is_dir():
            if not url.path.endswith("/"):
                return self._redirect(url.path + "/")
            target = target / "index.html"
        found = target.is_file()
        return self._send_file(target if found else None,
                               HTTPStatus.OK if found else HTTPStatus.NOT_FOUND, head)

    def _send_file(self, target: Path | None, status: HTTPStatus, head: bool) -> None:
        if target is None:
            target = self.site.out / "404.html"
        if target.is_file():
            data, ctype = target.read_bytes(), mimetypes.guess_type(target.name)[0]
        else:
            data, ctype = b"<!doctype html><title>Not found</title><h1>Not found</h1>", "text/html"
        ctype = ctype or "application/octet-stream"
        if ctype == "text/html":
            data = self._inject(data)
            ctype += "; charset=utf-8"
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if not head:
            self.wfile.write(data)

    def _inject(self, data: bytes) -> bytes:
        site = self.site
        text = data.decode("utf-8", errors="replace")
        if site.error:
            text = text.replace("<body>", "<body>" + _overlay(site.error), 1) \
                if "<body>" in text else _overlay(site.error) + text
        script = _script(site, site.version)
        text = text.replace("</body>", script + "</body>", 1) if "</body>" in text \
            else text + script
        return text.encode("utf-8")

    def _redirect(self, location: str) -> None:
        self.send_response(HTTPStatus.FOUND)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _events(self, since: int, page: str | None = None) -> None:
        """Server-Sent Events: 'reload' whenever a build newer than ``since`` finishes;
        while the stream is open, the browser shows ``page`` (an output path)."""
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        self.site.watching(page, True)
        try:
            while True:
                version = self.site.wait_for_change(since, KEEPALIVE_SECONDS)
                if version > since:
                    self.wfile.write(f"event: reload\ndata: {version}\n\n".encode())
                    self.wfile.flush()
                    return
                self.wfile.write(b": keep-alive\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return
        finally:
            self.site.watching(page, False)


def _inside(base: str, url_path: str) -> str | None:
    """The path inside the site of ``url_path`` (under ``base``), normalised ("." for the
    site's root); None for one that leads out of it: above it, to an absolute path (a
    doubled slash after the base), or with a NUL."""
    if not url_path.startswith(base):
        return None
    rel = posixpath.normpath(unquote(url_path[len(base):]) or ".")
    if rel.startswith(("..", "/")) or "\x00" in rel:
        return None
    return rel


def _more_pages(changed: frozenset[str], write: WriteReport, shown: set[str]) -> bool:
    """Did a build change a page other than those the browser was already sent?"""
    return write.removed > 0 or any(p.endswith(".html") and p not in shown for p in changed)


def _watch(site: LiveSite, stop: threading.Event) -> None:
    for changes in watchfiles.watch(site.root, watch_filter=lambda _c, p: site.is_source_change(p),
                                     stop_event=stop, debounce=100, step=20,
                                     raise_interrupt=False):
        site.rebuild({path for _change, path in changes})


def serve(root: Path, out: Path | None, *, host: str, port: int, drafts: bool = False,
          future: bool = False, now: str | None = None, view: str = "public",
          identity: Path | None = None, umpire: UmpireKey | None = None) -> int:
    """Serve the campaign at http://host:port until interrupted."""
    build_now(now)  # a malformed --now is a command-line error, not a page overlay
    load_config(root)  # no site settings, nothing to serve: fail like `build` does
    temp = None
    if out is None:
        temp = Path(tempfile.mkdtemp(prefix="ftpress-serve-"))
        out = temp
    site = LiveSite(root, out, drafts=drafts, future=future, now=now, view=view,
                    identity=identity, umpire=umpire)
    site.rebuild()
    handler = type("BoundHandler", (Handler,), {"site": site})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    stop = threading.Event()
    watcher = threading.Thread(target=_watch, args=(site, stop), daemon=True)
    watcher.start()
    shown_host = f"[{host}]" if ":" in host else host
    print(f"serving http://{shown_host}:{server.server_address[1]}{site.base_path} "
          "(Ctrl+C to stop)", flush=True)
    def _interrupt(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, _interrupt)  # a plain `kill` cleans up like Ctrl+C
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        server.server_close()
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)
    return 0
