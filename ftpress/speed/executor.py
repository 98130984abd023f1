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
"""

from __future__ import annotations

import ctypes
import gc
import multiprocessing
import os
from collections.abc import Callable, Iterable
from contextlib import suppress
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class Executor(Protocol):
    """Runs ``fn`` over ``items`` and returns the results in the items' order."""

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> list[R]: ...


class SerialExecutor:
    """Everything in this process, one item after another: the plain pipeline."""

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
        # The workers share this process's memory until they write to it, and the
        # collector writes to every object it visits: frozen around the fork, it
        # visits none of those there are now, so a worker copies only what it touches.
        gc.freeze()
        try:
            pool = context.Pool(n - 1)
        finally:
            gc.unfreeze()
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
    with suppress(OSError, AttributeError):  # not glibc: the memory stays reusable
        ctypes.CDLL(None).malloc_trim(0)
