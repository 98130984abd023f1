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
from typing import Any, Generic, Protocol, TypeVar

T = TypeVar("T")

#: Below this many items the cost of starting workers outweighs the gain.
MIN_ITEMS = 48


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


def _fork_pool(processes: int) -> Any:
    """A pool of ``processes`` workers, forked now.

    The workers share this process's memory until they write to it, and the cyclic
    garbage collector writes to every object it visits: frozen around the fork, it
    visits none of the objects there are then, so the workers copy only what they
    touch; this process goes on collecting as before.
    """
    gc.freeze()
    try:
        return multiprocessing.get_context("fork").Pool(processes)
    finally:
        gc.unfreeze()


#: What forked workers drain (set just before the fork, so each inherits its own).
_work: tuple[Callable[[int], object], list[list[int]], Any] | None = None


def _drain(work: tuple[Callable[[int], object], list[list[int]], Any] | None = None
           ) -> dict[int, list[object]]:
    """Take chunks of ``work`` (a worker's: the inherited one) until none is left;
    their results, by chunk."""
    task, chunks, counter = work if work is not None else _work  # type: ignore[misc]
    done: dict[int, list[object]] = {}
    while True:
        with counter.get_lock():
            chunk = counter.value
            counter.value += 1
        if chunk >= len(chunks):
            return done
        done[chunk] = [task(i) for i in chunks[chunk]]


class Started(Generic[T]):
    """Work begun by :func:`start_indexed`; :meth:`finish` gives its results."""

    def __init__(self, task: Callable[[int], T], count: int, *, parallel: bool) -> None:
        self._task, self._count = task, count
        self._pool: Any = None
        if not _forking(parallel) or count < MIN_ITEMS:
            return  # all of it done by finish, in this process
        n = workers()
        # Interleaved chunks: item costs often vary along the list (old posts, new posts).
        self._chunks = [list(range(start, count, n * 8)) for start in range(n * 8)]
        self._counter = multiprocessing.get_context("fork").Value("i", 0)
        global _work
        _work = (task, self._chunks, self._counter)
        try:
            self._pool = _fork_pool(n - 1)
        finally:
            _work = None
        self._theirs = [self._pool.apply_async(_drain) for _ in range(n - 1)]

    def finish(self) -> list[T]:
        """The results, in order: this process takes the chunks the workers have not
        reached, then gathers theirs."""
        if self._pool is None:
            return [self._task(i) for i in range(self._count)]
        pool, self._pool = self._pool, None
        try:
            done = _drain((self._task, self._chunks, self._counter))
            for result in self._theirs:
                done.update(result.get())
        except BaseException:
            pool.terminate()  # what the others are doing is no longer wanted
            raise
        else:
            pool.close()
        finally:
            pool.join()
        results: list[T] = [None] * self._count  # type: ignore[list-item]
        for chunk, part in done.items():
            for index, value in zip(self._chunks[chunk], part, strict=True):
                results[index] = value  # type: ignore[assignment]
        return results

    def cancel(self) -> None:
        """Stop the workers; the results are not wanted."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


def start_indexed(task: Callable[[int], T], count: int, *, parallel: bool = True
                  ) -> Started[T]:
    """Begin ``[task(0), …, task(count - 1)]`` on the other cores, while this process
    goes on with something else; :meth:`Started.finish` then joins in and gives the
    results (all of them computed there when it is not worth forking)."""
    return Started(task, count, parallel=parallel)


def map_indexed(task: Callable[[int], T], count: int, *, parallel: bool = True) -> list[T]:
    """``[task(0), task(1), …, task(count - 1)]``, computed on every core if worth it.

    This process works too, beside one forked worker per other core: each takes the
    next chunk of items until none is left, so the load evens out.
    """
    return start_indexed(task, count, parallel=parallel).finish()


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
    try:
        pool = _fork_pool(1)  # inheriting the task
    finally:
        _beside = None
    pending = pool.apply_async(_call_beside)
    pool.close()

    def result() -> T:
        try:
            return pending.get()
        finally:
            pool.join()

    return result
