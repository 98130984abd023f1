"""Spread CPU-bound rendering over the machine's cores.

Rendering Markdown and templates is pure Python and holds the GIL, so threads
do not help; processes do. Workers are *forked* after the inputs are built, so
they inherit everything (parsed posts, compiled templates, the rulebook) for
free and only the results travel back. Where ``fork`` is unavailable, where
there is one core, or for small jobs, the work runs in this process: the
result is the same either way, in the same order.

Forking a process that runs other threads can deadlock, so callers that have
threads of their own (``ftpress serve``) pass ``parallel=False``.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

#: Below this many items the cost of starting workers outweighs the gain.
MIN_ITEMS = 48

_task: Callable[[int], object] | None = None
_chunks: list[list[int]] = []
#: The next chunk to take, shared by this process and its workers.
_next: Any = None


def workers() -> int:
    """Processes to work in (this one included): one per core available, at most eight."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, 8))


def _forking(parallel: bool) -> bool:
    """Is work to be forked off here: asked for, with a second core and ``fork``?"""
    return parallel and workers() >= 2 and "fork" in multiprocessing.get_all_start_methods()


def _drain() -> dict[int, list[object]]:
    """Take chunks until none is left; their results, by chunk."""
    assert _task is not None and _next is not None
    done: dict[int, list[object]] = {}
    while True:
        with _next.get_lock():
            chunk = _next.value
            _next.value += 1
        if chunk >= len(_chunks):
            return done
        done[chunk] = [_task(i) for i in _chunks[chunk]]


def map_indexed(task: Callable[[int], T], count: int, *, parallel: bool = True) -> list[T]:
    """``[task(0), task(1), …, task(count - 1)]``, computed on every core if worth it.

    This process works too, beside one forked worker per other core: each takes the
    next chunk of items until none is left, so the load evens out.
    """
    if not _forking(parallel) or count < MIN_ITEMS:
        return [task(i) for i in range(count)]
    n = workers()
    global _task, _chunks, _next
    context = multiprocessing.get_context("fork")
    # Interleaved chunks: item costs often vary along the list (old posts, new posts).
    chunks = [list(range(start, count, n * 8)) for start in range(n * 8)]
    _task, _chunks, _next = task, chunks, context.Value("i", 0)
    # The workers share this process's memory until they write to it, and the cyclic
    # garbage collector writes to every object it visits: frozen, it visits none of
    # the objects there are at the fork, so the workers copy only what they touch.
    gc.freeze()
    try:
        with context.Pool(n - 1) as pool:
            theirs = [pool.apply_async(_drain) for _ in range(n - 1)]
            done = _drain()
            for result in theirs:
                done.update(result.get())
    finally:
        _task, _chunks, _next = None, [], None
        gc.unfreeze()
    results: list[T] = [None] * count  # type: ignore[list-item]
    for chunk, part in done.items():
        for index, value in zip(chunks[chunk], part, strict=True):
            results[index] = value  # type: ignore[assignment]
    return results


class Flag(Protocol):
    """A flag one process raises and another sees (:func:`flag`)."""

    def set(self) -> None: ...

    def is_set(self) -> bool: ...


class _Raised:
    def set(self) -> None:
        pass

    def is_set(self) -> bool:
        return True


def flag(*, parallel: bool = True) -> Flag:
    """A flag to raise for a task started by :func:`beside` later (so make it first).
    Where that task would run in this process, the flag is raised from the start:
    nothing is done ahead there."""
    if not _forking(parallel):
        return _Raised()
    return multiprocessing.get_context("fork").Event()


_beside: Callable[[], object] | None = None


def _call_beside() -> object:
    assert _beside is not None
    return _beside()


def beside(task: Callable[[], T], *, parallel: bool = True) -> Callable[[], T]:
    """Start ``task()`` in a forked worker, to run beside what this process does next;
    the returned function waits for its result (or raises what it raised).

    Without fork, with one core, or not ``parallel``, the task runs in this process
    when its result is asked for. Its result travels back pickled: keep it compact.
    """
    if not _forking(parallel):
        return task
    global _beside
    _beside = task
    gc.freeze()  # as in map_indexed: the worker copies only what it touches
    try:
        pool = multiprocessing.get_context("fork").Pool(1)  # forks now, inheriting the task
    finally:
        _beside = None
        gc.unfreeze()  # this process goes on collecting as before
    pending = pool.apply_async(_call_beside)
    pool.close()

    def result() -> T:
        try:
            return pending.get()  # type: ignore[return-value]
        finally:
            pool.join()

    return result
