"""Where the build's bulk work runs: the one seam between the pipeline and the cores.

The pipeline never asks whether it runs in parallel. Each stage that has many
independent items to work through (posts' Markdown, pages, turn maps, state files)
hands them to the :class:`Executor` it was given, ``executor.map(fn, items)``, and
gets the results back in order. :data:`SERIAL` maps in this process; a
:class:`ForkExecutor` spreads the items over forked worker processes. The bytes of
the site are the same either way (``tests/test_executor.py``).

Rendering is pure Python and holds the GIL, so threads would not help; processes
do. The workers are *forked* when :meth:`ForkExecutor.map` is called, so they
inherit everything built so far (parsed posts, compiled templates, the function
itself, closures and all) and only the results travel back, pickled.

:func:`apart` runs a whole stage in a forked process of its own, where the executor
forks: what the stage built is gone with that process, all at once, when it returns.
"""

from __future__ import annotations

import ctypes
import gc
import multiprocessing
import os
import pickle
import sys
import traceback
from collections.abc import Callable, Iterable
from contextlib import suppress
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class Executor(Protocol):
    """Runs ``fn`` over ``items`` and returns the results in the items' order."""

    #: Whether it runs work in forked processes (and :func:`apart` runs a stage in one).
    forks: bool

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> list[R]: ...


class SerialExecutor:
    """Everything in this process, one item after another: the plain pipeline."""

    forks = False

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> list[R]:
        return [fn(item) for item in items]


#: The executor of every caller that does not choose one (``ftpress check``, the tests).
SERIAL = SerialExecutor()


def cores() -> int:
    """The cores this process may run on, at most eight."""
    try:
        available = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        available = os.cpu_count() or 1
    return max(1, min(available, 8))


#: What the workers forked by :meth:`ForkExecutor.map` drain: set just before the fork,
#: so that each inherits it (a function made in a closure cannot be pickled).
_work: tuple[Callable[[Any], Any], list[Any], list[list[int]], Any] | None = None


def _drain(work: tuple[Callable[[Any], Any], list[Any], list[list[int]], Any] | None = None
           ) -> dict[int, list[Any]]:
    """Take chunks of ``work`` (a worker's: the inherited one) until none is left;
    their results, by chunk."""
    fn, items, chunks, counter = work if work is not None else _work  # type: ignore[misc]
    done: dict[int, list[Any]] = {}
    while True:
        with counter.get_lock():
            chunk = counter.value
            counter.value += 1
        if chunk >= len(chunks):
            return done
        done[chunk] = [fn(items[i]) for i in chunks[chunk]]


class ForkExecutor:
    """Items spread over this process and one forked worker per other core.

    Each process takes the next chunk of items until none is left, so uneven items
    even out. Below ``min_items`` items, with one core or without ``fork``, the items
    are mapped in this process: starting workers would cost more than it saves.
    A process that runs threads may use it only where the work takes no lock another
    thread may hold at the fork (a worker inherits it held, for ever): ``serve``'s
    builder does, beside the server's threads, which only read files and answer.
    """

    forks = True

    def __init__(self, processes: int | None = None, *, min_items: int = 48) -> None:
        self.processes = processes if processes is not None else cores()
        self.min_items = min_items

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> list[R]:
        todo = list(items)
        n = self.processes
        if n < 2 or len(todo) < self.min_items or \
                "fork" not in multiprocessing.get_all_start_methods():
            return [fn(item) for item in todo]
        # Interleaved chunks: an item's cost often drifts along the list (old posts, new).
        chunks = [list(range(start, len(todo), n * 8)) for start in range(n * 8)]
        context = multiprocessing.get_context("fork")
        work = (fn, todo, chunks, context.Value("i", 0))
        global _work
        _work = work
        # Freed memory the allocator still keeps would be counted once more in each
        # worker's share of the heap; what the last map's results left (their pickles
        # above all) goes back to the system before the fork.
        _trim()
        # The workers share this process's memory until either side writes to it, and
        # the collector writes to every object it visits. Frozen from before the fork
        # until the workers are gone, it visits none of the objects there are now, in
        # the workers or here: a page of the heap is copied only where an item's work
        # really touches it, not by a full collection in this process mid-map.
        gc.freeze()
        try:
            pool = context.Pool(n - 1)
        except BaseException:
            gc.unfreeze()
            raise
        finally:
            _work = None
        try:
            theirs = [pool.apply_async(_drain) for _ in range(n - 1)]
            done = _drain(work)
            for result in theirs:
                done.update(result.get())
        except BaseException:
            pool.terminate()  # what the others are doing is no longer wanted
            raise
        else:
            pool.close()
        finally:
            pool.join()
            gc.unfreeze()
        results: list[Any] = [None] * len(todo)
        for chunk, part in done.items():
            for index, value in zip(chunks[chunk], part, strict=True):
                results[index] = value
        return results


def release_memory() -> None:
    """Collect what the process no longer holds and give the freed memory back to the
    system, before other processes need it (the build, before Pagefind runs beside it):
    Python keeps freed blocks for reuse, and glibc's allocator keeps freed pages in its
    heaps until asked to return them (``malloc_trim``)."""
    gc.collect()
    _trim()


def _trim() -> None:
    """Ask glibc's allocator to return the free pages of its heaps to the system."""
    with suppress(OSError, AttributeError):  # not glibc: the memory stays reusable
        ctypes.CDLL(None).malloc_trim(0)


def apart(executor: Executor, fn: Callable[[], R]) -> R:
    """``fn()``, run in a forked child process when ``executor`` forks (a
    :class:`ForkExecutor`), here otherwise; its result, or its exception, raised here.

    Everything ``fn`` builds lives and dies in the child: none of it is left in this
    process's heap afterwards (CPython and glibc keep most of a freed heap, scattered
    among the objects that stay). The build renders apart, so that Pagefind, which runs
    after it, runs beside a process holding only what it held before. The result and
    any exception travel back pickled; an exception that does not survive pickling
    comes back as a ``RuntimeError`` naming it. The child's traceback is kept as a note.
    """
    if not executor.forks or \
            "fork" not in multiprocessing.get_all_start_methods():
        return fn()
    for stream in (sys.stdout, sys.stderr):  # nothing buffered is written twice
        stream.flush()
    readable, writable = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child, which leaves only by os._exit
        os.close(readable)
        code = 1
        try:
            try:
                outcome: tuple[bool, Any] = (True, fn())
            except BaseException as exc:
                outcome = (False, _portable(exc))
            with os.fdopen(writable, "wb") as pipe:
                pipe.write(pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL))
            for stream in (sys.stdout, sys.stderr):
                stream.flush()
            code = 0
        finally:
            os._exit(code)  # none of the heap freed object by object, no atexit run twice
    os.close(writable)
    try:
        with os.fdopen(readable, "rb") as pipe:
            data = pipe.read()
    finally:
        _, status = os.waitpid(pid, 0)  # after Ctrl-C too: the child cleans up first
    if not data:
        raise RuntimeError(f"the build's process ended without a result "
                           f"(exit status {os.waitstatus_to_exitcode(status)})")
    ok, value = pickle.loads(data)
    if ok:
        return value  # type: ignore[no-any-return]
    raise value


def _portable(exc: BaseException) -> BaseException:
    """``exc`` as it can travel to the parent: itself if it pickles back the same (its
    type, its message), else a ``RuntimeError`` naming it; with the child's traceback as
    a note."""
    told = "".join(traceback.format_exception(exc))
    try:
        back = pickle.loads(pickle.dumps(exc))
        same = type(back) is type(exc) and str(back) == str(exc)
    except Exception:  # whatever pickling raised, the message still travels
        same = False
    portable = exc if same else RuntimeError(f"{type(exc).__name__}: {exc}")
    portable.add_note(f"in the build's own process:\n{told}")
    return portable
