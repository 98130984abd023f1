"""The small process that runs Pagefind for a build (see :mod:`ftpress.site.search`).

``python -I path/to/pagefind_runner.py PLAN``: put each run's pages in its folder
(linked, or copied without the parts marked for the index to skip), then run Pagefind
on each, :data:`CONCURRENT` at a time, and say what failed. PLAN is a JSON file:
``{"pagefind": path, "unsearched": attribute, "runs": [{"site", "output", "pages":
[[file, path in the site], ...]}, ...]}``.

It is run as a file, not as a module of the package: it imports the standard library
alone, so that starting it costs tens of milliseconds, not the second of importing the
whole build that ``python -m ftpress.site...`` would take each time the index is made.
The build runs it in a process of its own so that the build never starts a thread (its
executor may fork).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

#: Pagefind processes at a time.
CONCURRENT = 2


def unsearched_parts(attribute: str) -> re.Pattern[bytes]:
    """The SVG and sections carrying ``attribute`` (``data-pagefind-ignore="all"``),
    whole, as the index skips them."""
    return re.compile(rb"<(svg|section) " + re.escape(attribute.encode()) + rb"[^>]*>.*?</\1>",
                      re.S)


def place(page: Path, target: Path, attribute: str) -> None:
    """Put a page where Pagefind reads it: linked, or a copy without the parts marked
    with ``attribute`` (which the index skips anyway, and which take most of Pagefind's
    reading time on a turn report)."""
    data = page.read_bytes()
    if attribute.encode() in data:
        target.write_bytes(unsearched_parts(attribute).sub(_strip, data))
        return
    try:
        os.link(page, target)
    except OSError:  # another disk, or no hard links there
        shutil.copyfile(page, target)


def _strip(match: re.Match[bytes]) -> bytes:
    # The same element inside it would end the match early: keep that one whole.
    return match.group(0) if match.group(0).count(b"<" + match.group(1)) > 1 else b""


def run(pagefind: str, site: str, output: str) -> tuple[int, str]:
    """Pagefind over the folder ``site``, its index written to ``output``: its exit
    status and what it said."""
    done = subprocess.run([pagefind, "--site", site, "--output-path", output, "--silent"],
                          cwd=str(Path(output).parent), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True)
    said = done.stderr.strip() or done.stdout.strip()
    shutil.rmtree(site, ignore_errors=True)  # its links, gone while the other runs go on
    # Pages that only mention data-pagefind-body in their text: nothing to index yet.
    return (0 if "not able to build an index" in said else done.returncode), said


def main(argv: list[str]) -> int:
    work = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    pagefind, attribute, runs = work["pagefind"], work["unsearched"], work["runs"]
    try:
        for one in runs:
            site = Path(one["site"])
            for file, path in one["pages"]:
                (site / path).parent.mkdir(parents=True, exist_ok=True)
                place(Path(file), site / path, attribute)
    except OSError as exc:  # a full disk, most likely: one line for the build to relay
        print(f"cannot put the pages in place for Pagefind: {exc.strerror} ({exc.filename})",
              file=sys.stderr)
        return 1

    def each(one: dict[str, Any]) -> tuple[int, str]:
        return run(pagefind, one["site"], one["output"])

    with ThreadPoolExecutor(CONCURRENT) as pool:
        results = list(pool.map(each, runs))
    failed = [said for code, said in results if code != 0]
    for said in failed:
        print(said, file=sys.stderr)  # the build relays it, each line made safe to print
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
