"""The state's files parsed from the first moment of ``ftpress build``, while the rest
of ftpress is still being imported.

Importing ftpress keeps one core busy for 0.5 s at the start of a build, and the
other core has nothing to do meanwhile. The first thing the build needs is the
state: every turn's snapshot (1,313 files at 100 turns), parsed and validated. So
the build imports what parsing needs first (this module, with the state's models:
0.2 s), then :func:`begin` forks a worker that parses while this process imports the
rest (rendering, the rules' engines: 0.3 s). The build's load then takes its
results (:func:`ftpress.state.load.load_tree`) and parses what the worker has not
reached yet itself.
"""

from __future__ import annotations

import os
from pathlib import Path

from ftpress.parallel import start_indexed
from ftpress.state.files import STATE_DIR
from ftpress.state.load import FileKey, ParsedFile, Parsing, parsed_ahead
from ftpress.state.turns import TURNS_DIR

#: A snapshot folder's files are parsed in runs of consecutive turns of one file
#: name, a run per task: a file is mostly the same bytes as the turn before, parsed
#: once per worker (:data:`_SEEN`). About this many tasks, so that the work spreads.
TASKS = 72

#: Digests of the files this process has parsed (a worker's own).
_SEEN: set[FileKey] = set()


def begin(root: Path, cache_dir: Path) -> Parsing | None:
    """Begin parsing the state files of the campaign at ``root`` in a worker; None
    when there is nothing to parse, or when the build cache ``cache_dir`` exists (the
    build then finds most files parsed in it, and parses only the others)."""
    state = root / STATE_DIR
    if cache_dir.exists() or not state.is_dir():
        return None
    folders = [state]
    snapshots = root / TURNS_DIR
    try:
        if snapshots.is_dir():
            folders += sorted(e for e in snapshots.iterdir() if e.is_dir() and
                              not e.name.startswith("."))
        names = sorted({e.name for f in folders for e in os.scandir(f)
                        if e.name.endswith(".yaml") and e.is_file()})
    except OSError:
        return None  # the load reads the folders again, and says what is wrong
    _SEEN.clear()  # this build's: the worker forked below inherits it empty
    run = max(1, len(folders) * len(names) // TASKS)
    tasks = [(name, folders[start:start + run]) for name in names
             for start in range(0, len(folders), run)]
    return start_indexed(lambda i: _parse_run(root, *tasks[i]), len(tasks))


def _parse_run(root: Path, name: str, folders: list[Path]) -> list[ParsedFile]:
    """The files called ``name`` in ``folders``, parsed: see :func:`parsed_ahead`."""
    return parsed_ahead(root, [f"{f.relative_to(root).as_posix()}/{name}" for f in folders],
                        _SEEN)
