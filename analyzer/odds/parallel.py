"""The runs of one count on the machine's cores, at once.

A count's moduli are independent: each run (2**64 alone, or a few primes) goes through the same
numpy calls on its own arrays, and numpy lets go of the interpreter's lock inside each call on
arrays this big. So the runs of one view can go in threads, one a core: the view takes the time
of its longest runs, not of all of them. The processor time grows: by 5 to 10% over the
slowest views of the whole 8-player jokers games (the cores share the memory's bandwidth), and more on
the shorter counts of the openings (their 99th percentile, 63 to 75 ms), where the wall time
stays as it was.

``HALFSUIT_THREADS`` sets how many threads a count takes at most (1: none, the runs one after
another). By default, on a machine of more than one core, four or a thread a core, whichever is
more: a count has up to four or five runs, and the runs share the cores evenly where there are
more runs than cores (three runs on two cores: on the slowest view of the jokers games, 254 ms
on two threads, the third run going alone at the end, and 213 ms on three). Workers of
``analyzer.pool``, one a core already, set it to 1.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from ..errors import UsageError

if TYPE_CHECKING:  # concurrent.futures loads only when a count goes in threads (start-up)
    from concurrent.futures import Future, ThreadPoolExecutor

T = TypeVar("T")

THREADS = "HALFSUIT_THREADS"

# By process and size: a forked child makes its own, and a count takes no more threads than its
# memory allows.
_EXECUTORS: dict[tuple[int, int], ThreadPoolExecutor] = {}


def threads() -> int:
    """How many threads a count may take: ``HALFSUIT_THREADS`` (1 at least); else none on one
    core, and on more, four or as many as the cores."""
    value = os.environ.get(THREADS, "").strip()
    if value:
        if not (value.isascii() and value.isdigit()):
            raise UsageError(f"{THREADS} must be a whole number of threads, not {value!r}")
        return max(1, int(value))
    mine = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    cores = len(mine) if mine else os.cpu_count() or 1
    return 1 if cores == 1 else max(cores, 4)


def run_all(
    jobs: Sequence[Callable[[], T]],
    workers: int,
    weights: Sequence[float] = (),
    meanwhile: Callable[[], object] | None = None,
) -> list[T]:
    """Each job's result, in the order given; with ``workers`` over 1, that many at once, the
    heaviest first (by ``weights``, where given: the longest jobs first, the shortest fill in),
    and ``meanwhile`` in the calling thread while they go (before them, on one thread). On the
    first error, or an interrupt while waiting, the jobs not started are dropped, those running
    stop at their next ``checkpoint``, and the error goes on."""
    if workers <= 1 or len(jobs) <= 1:
        if meanwhile is not None:
            meanwhile()
        return [job() for job in jobs]
    from concurrent.futures import FIRST_EXCEPTION, wait

    executor = _executor(workers)
    stop = threading.Event()
    order = sorted(range(len(jobs)), key=lambda i: -weights[i]) if weights else range(len(jobs))
    futures: dict[int, Future[T]] = {}
    try:
        for i in order:
            futures[i] = executor.submit(_stoppable, jobs[i], stop)
        if meanwhile is not None:
            meanwhile()
        done, _ = wait(futures.values(), return_when=FIRST_EXCEPTION)
        for future in done:
            if future.exception() is not None:
                future.result()  # (the first error, raised here while the others run)
        return [futures[i].result() for i in range(len(jobs))]
    except BaseException:
        stop.set()
        for future in futures.values():
            future.cancel()
        raise


class Stopped(Exception):
    """A job of ``run_all`` stopped at a ``checkpoint``: another failed, or the wait was
    interrupted."""


_LOCAL = threading.local()  # in a thread of the executor: the stop of the job it runs


def checkpoint() -> None:
    """Where a job of ``run_all`` may stop (between the groups of a count): raises ``Stopped``
    once the call it belongs to has given up. Elsewhere, nothing."""
    stop: threading.Event | None = getattr(_LOCAL, "stop", None)
    if stop is not None and stop.is_set():
        raise Stopped


def _stoppable(job: Callable[[], T], stop: threading.Event) -> T:
    _LOCAL.stop = stop
    try:
        return job()
    finally:
        _LOCAL.stop = None


_MADE = threading.Lock()


def _executor(workers: int) -> ThreadPoolExecutor:
    """This process's executor of ``workers`` threads (made once, its threads kept for the next
    count)."""
    from concurrent.futures import ThreadPoolExecutor

    key = (os.getpid(), workers)
    with _MADE:
        if key not in _EXECUTORS:
            _EXECUTORS[key] = ThreadPoolExecutor(workers, thread_name_prefix="halfsuit-count")
        return _EXECUTORS[key]
