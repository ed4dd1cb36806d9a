"""Work spread over worker processes, safe in a program that has started threads.

Workers are started by a fork server where the platform has one (a clean single-threaded
process forks them), and freshly spawned elsewhere; never forked from the caller, whose threads
(polars has a pool of them, a notebook has more) may hold locks that a forked child would inherit
half-taken. A game travels pickled with each task and is unpickled once per worker and map (26 KiB,
4 ms for a whole 128-event game, against 7 ms to read and replay its text). The workers stay
for the next map: starting them costs a fresh interpreter's imports.

Ctrl-C stops the work at once: the workers ignore the interrupt, and the caller, on
KeyboardInterrupt (or any error), drops the pending tasks and terminates the workers before the
exception goes on.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:  # multiprocessing and concurrent.futures load only when a map needs workers
    from concurrent.futures import Future, ProcessPoolExecutor
    from multiprocessing.process import BaseProcess

    from .replay import Game

T = TypeVar("T")
R = TypeVar("R")

# Imported by the fork server before it forks any worker: pure Python, no threads. The study's
# modules (the counts of a report and a replay page) too: each worker would load them otherwise.
PRELOAD = ["analyzer.analysis", "analyzer.study"]


def start_method() -> str:
    """``forkserver`` where the platform has it, ``spawn`` elsewhere."""
    import multiprocessing

    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


# One pool per size, kept for the life of the process: starting workers costs more than a
# short map (a fresh interpreter's imports), and a report maps three times.
_POOLS: dict[int, ProcessPoolExecutor] = {}


def start_early(workers: int) -> None:
    """Start the fork server now, when work for ``workers`` processes will follow: its interpreter
    starts and loads ``PRELOAD`` on the other core while this process reads the record, instead
    of while the first task waits for its worker (a worker is forked only once the server is up)."""
    if workers > 1 and start_method() == "forkserver":
        _start_fork_server()


def _pool(workers: int) -> ProcessPoolExecutor:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    if workers not in _POOLS:
        if not _POOLS:
            atexit.register(_close_all)
        context = multiprocessing.get_context(start_method())
        if start_method() == "forkserver":
            _start_fork_server()
        _POOLS[workers] = ProcessPoolExecutor(workers, context, _start_worker)
    return _POOLS[workers]


def _start_fork_server() -> None:
    """Start the fork server with this process's module path.

    Python 3.11's fork server leaves out the path it is given and starts as ``python -c`` does,
    with its working folder first: an ``analyzer`` folder where the command is run would be
    loaded by the workers in place of this one. It is started here with the path of this process
    (its working folder where this process has one) and nothing put before it.
    """
    import multiprocessing
    import os
    import sys
    from multiprocessing import forkserver, resource_tracker

    multiprocessing.get_context("forkserver").set_forkserver_preload(PRELOAD)
    saved = {name: os.environ.get(name) for name in ("PYTHONPATH", "PYTHONSAFEPATH")}
    os.environ["PYTHONPATH"] = os.pathsep.join(entry or os.getcwd() for entry in sys.path)
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        # The server loads its modules with Ctrl-C blocked (``_sigint_blocked``); the resource
        # tracker it starts first lets Ctrl-C through again as it starts, so it goes first. (Where
        # the pool starts the server inside ``interrupts_held``, the tracker lets Ctrl-C through
        # for the rest of that block: its handler still holds it.)
        resource_tracker.ensure_running()
        with _sigint_blocked():
            forkserver.ensure_running()
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _close_all() -> None:
    """At exit, while the modules the workers' manager needs are still there."""
    while _POOLS:
        _POOLS.popitem()[1].shutdown(wait=True, cancel_futures=True)


def _end(workers: int) -> None:
    """Drop the pending tasks and end the pool's workers now, not after the task each is busy with."""
    pool = _POOLS.pop(workers)
    # Tasks still queued for the workers stay in the pipe to them; with the workers gone nobody
    # reads it, and at exit Python would wait for ever for the queue's thread to finish writing.
    queue = getattr(pool, "_call_queue", None)
    if queue is not None:
        queue.cancel_join_thread()
    ours = _workers(pool)
    # A worker ended in the middle of sending its result leaves half a message in the pipe back,
    # and the pool's thread would wait at it for the rest for ever (and the process at exit for
    # the thread). Once the workers are gone this process holds the pipe's only writing end, which
    # it never writes to: closed, the read ends and the thread sees its workers gone. (A second
    # Ctrl-C waits for that: raised before it, the wait for ever would be back.)
    with interrupts_held():
        for worker in ours:
            worker.terminate()
        deadline = time.monotonic() + 2
        for worker in ours:
            worker.join(timeout=max(0.0, deadline - time.monotonic()))
        results = getattr(pool, "_result_queue", None)
        if results is not None:
            results._writer.close()
    # The pending tasks are not cancelled: the executor fails them itself once it sees its
    # workers gone, and (Python 3.11) a task cancelled first makes its thread print a traceback.
    # Its thread is given a moment to finish: left running into the interpreter's exit, it races
    # the exit's own clean-up, which then prints a traceback.
    manager = getattr(pool, "_executor_manager_thread", None)  # (shutdown lets go of it)
    pool.shutdown(wait=False)
    if manager is not None:
        manager.join(timeout=2)
        _spare_exit_hook(manager)
    # The thread that feeds the tasks to the workers ends once its pipe is closed (the manager
    # thread closes it as it goes). It is a daemon: one still running as the interpreter exits
    # may crash it (Python 3.11 aborts with "the GIL is released"), so it too is waited for.
    feeder = getattr(queue, "_thread", None)
    if feeder is not None:
        feeder.join(timeout=2)


def _workers(pool: ProcessPoolExecutor) -> list[BaseProcess]:
    """The pool's own worker processes, as the executor lists them: each is listed as it starts,
    and submits start them with Ctrl-C held (read before ``shutdown``, which lets go of the
    list). Not every child of this process: those of a pool of another size are not ours."""
    return list(pool._processes.values())


def _spare_exit_hook(manager: threading.Thread) -> None:
    """Keep Python's exit hook for process pools from waking this pool's thread, told to stop
    already: should the thread still be cleaning up at exit (its workers slow to end on a loaded
    machine), the hook writes to the pipe the thread is closing, unlocked (Python 3.11), and
    prints "Bad file descriptor" (seen once in CI). The interpreter still waits for the thread
    at exit, as for any thread not a daemon."""
    from concurrent.futures import process

    wakeups = getattr(process, "_threads_wakeups", None)
    if wakeups is not None:
        wakeups.pop(manager, None)


def process_map(
    fn: Callable[[T], R],
    items: Sequence[T],
    workers: int,
    each: Callable[[R], None] | None = None,
) -> list[R]:
    """``fn(item)`` for every item, in the items' order; ``each`` sees every result as it comes.

    With ``workers > 1`` and more than one item, ``fn`` (a module-level function) runs in worker
    processes; otherwise everything runs here. An error raised by ``fn`` reaches the caller as
    itself (a record's error keeps its place).
    """
    if workers <= 1 or len(items) <= 1:
        return [_seen(fn(item), each) for item in items]
    from concurrent.futures import FIRST_COMPLETED, wait

    size = min(workers, len(items))
    try:
        with interrupts_held():
            futures = {_pool(size).submit(fn, item): k for k, item in enumerate(items)}
        results: dict[int, R] = {}
        pending = set(futures)
        while pending:
            # Wake up now and then: a Ctrl-C may reach one of the executor's threads, and this
            # thread (the only one that runs Python's signal handlers) would otherwise sleep
            # until the next task finished.
            done, pending = wait(pending, timeout=_WAKE, return_when=FIRST_COMPLETED)
            for future in done:
                results[futures[future]] = _seen(future.result(), each)
    except BaseException:  # Ctrl-C, or an error that ends the map
        if size in _POOLS:
            _end(size)
        raise
    return [results[k] for k in range(len(items))]


def game_map(
    fn: Callable[[Game, T], R],
    game: Game,
    items: Sequence[T],
    workers: int,
    each: Callable[[R], None] | None = None,
) -> list[R]:
    """``fn(game, item)`` for every item, like ``process_map``; each worker unpickles the game once per map."""
    if workers <= 1 or len(items) <= 1:
        return [_seen(fn(game, item), each) for item in items]
    import pickle  # (loaded only when the work goes to worker processes)

    data = pickle.dumps(game)
    key = next(_KEYS)
    return process_map(_call_with_game, [(fn, item, key, data) for item in items], workers, each)


class Task(Generic[R]):
    """One task of ``GameTasks``: its result, waited for when asked."""

    def __init__(self, tasks: GameTasks, future: Future[R] | None, run: Callable[[], R] | None) -> None:
        self._tasks = tasks
        self._future = future
        self._run = run  # here, when there are no workers: run when first asked
        self._done: list[R] = []

    def result(self) -> R:
        """The task's result (or its error, raised here), waiting for a worker if need be."""
        if self._done:
            return self._done[0]
        if self._future is None:
            assert self._run is not None
            self._done.append(self._run())
        else:
            self._done.append(self._tasks.wait(self._future))
        return self._done[0]


class GameTasks:
    """Tasks on one game handed to worker processes at once and collected later, while the caller
    goes on with other work: a report's counts run beside its charts and explanations.

    Use it as a context manager: leaving it by an error (Ctrl-C included) drops the pending tasks
    and ends the workers, as ``process_map`` does; leaving it while tasks whose results were not
    asked for still run ends the workers too (else the command would wait for them at exit). With
    ``workers <= 1`` each task runs here, when its result is first asked for. A task's ``each()``
    is called (from a thread of the pool) as it finishes its work, or here as its result is taken without
    workers.
    """

    def __init__(self, game: Game, workers: int) -> None:
        self.game = game
        self.workers = workers
        self._data: bytes | None = None
        self._key = next(_KEYS)
        self._futures: list[Future[object]] = []

    def __enter__(self) -> GameTasks:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: object) -> None:
        # Tasks still running are not wanted: ending the workers spares the wait for them at exit.
        unfinished = any(not future.done() for future in self._futures)
        if (kind is not None or unfinished) and self._futures and self.workers in _POOLS:
            _end(self.workers)  # (which fails the pending tasks: cancelling them too would race)
        else:
            for future in self._futures:  # tasks whose results were not needed after all
                future.cancel()
        self._futures.clear()

    def submit(self, fn: Callable[[Game, T], R], item: T, each: Callable[[], None] | None = None) -> Task[R]:
        """Start ``fn(game, item)`` (a module-level function) in a worker, or here when first asked."""
        if self.workers <= 1:

            def run() -> R:
                result = fn(self.game, item)
                if each is not None:
                    each()
                return result

            return Task(self, None, run)
        if self._data is None:
            import pickle

            self._data = pickle.dumps(self.game)
        with interrupts_held():
            future = _pool(self.workers).submit(_call_with_game, (fn, item, self._key, self._data))
        if each is not None:
            # (a task cancelled, or ended with its workers, did not finish: it is not counted done)
            future.add_done_callback(lambda f: None if f.cancelled() or f.exception() is not None else each())
        self._futures.append(future)  # type: ignore[arg-type]
        return Task(self, future, None)

    def wait(self, future: Future[R]) -> R:
        """Wait for one future, waking now and then for a Ctrl-C (see ``process_map``)."""
        from concurrent.futures import wait

        while not future.done():
            wait([future], timeout=_WAKE)
        return future.result()


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Hold Ctrl-C for the moment of the block and deliver it once the block is done (in the main
    thread; elsewhere signals are not ours to handle). Workers start inside it (the submits
    start them): a worker caught half-started is not yet listed among the children to end, and
    would live on to print a traceback when it finds its parent gone. A set of files goes in
    place inside it: a report half old, half new is no report."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    from concurrent.futures import BrokenExecutor

    held: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    try:
        with _sigint_blocked():
            yield
    except (EOFError, ConnectionError, BrokenExecutor) as exc:
        if held:  # (a worker process or the fork server that Ctrl-C ended: an interrupt all the same)
            raise KeyboardInterrupt from exc
        raise
    finally:
        signal.signal(signal.SIGINT, previous)
    if held:
        signal.raise_signal(signal.SIGINT)


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    """Ctrl-C blocked in this thread for the block, and let through after it (the interpreter
    then handles one that came meanwhile). For the processes started in the block: the pool's
    fork server, a fresh interpreter, starts with the signals its starter blocks, and so loads
    its modules undisturbed, then ignores Ctrl-C as it always does; a Ctrl-C while it loaded
    printed its traceback, and its end broke the pool ("Aborted!", exit 1)."""
    if not hasattr(signal, "pthread_sigmask"):  # (not on Windows, which has no fork server)
        yield
        return
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def _seen(result: R, each: Callable[[R], None] | None) -> R:
    if each is not None:
        each(result)
    return result


def _start_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the caller's: it ends the workers
    # A worker a core already: its counts take no threads of their own (``odds.parallel``).
    os.environ["HALFSUIT_THREADS"] = "1"


_WAKE = 0.1  # seconds between looks at pending signals while waiting for workers
_KEYS = itertools.count()  # here: a key for each map's game
_GAMES: dict[int, Game] = {}  # in a worker: the game of the last map it served, by its key


def _call_with_game(job: tuple[Callable[[Game, T], R], T, int, bytes]) -> R:
    fn, item, key, data = job
    if key not in _GAMES:
        _GAMES.clear()
        import pickle

        _GAMES[key] = pickle.loads(data)
    with collector_paused():
        return fn(_GAMES[key], item)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector held off for one bounded piece of work (a task, a report).

    A game's work makes many objects that live until it ends (positions, holders, counts,
    explanations): each collection walks them all again, and few of them are cyclic garbage
    (a report: 0.2 s of processor time in its own process and 0.07 s in each worker, against 4 MB
    more memory at its peak). The collector runs again once the work is over.
    """
    import gc

    if not gc.isenabled():  # (paused already, or turned off by the caller: theirs to turn on)
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
