"""The runs of one count in threads: the same deals and odds as one after another, on as many
threads as asked and the memory allows, and errors and interrupts as without them."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from analyzer import knowledge, record
from analyzer.errors import UsageError
from analyzer.knowledge import PUBLIC
from analyzer.odds import Counter, Routes, card_ways, parallel
from analyzer.odds import books as books_module
from analyzer.odds import folds as folds_module
from analyzer.odds.folds import FoldCount
from analyzer.pool import process_map
from analyzer.replay import replay
from cli.main import app

from .fixtures import SHARED
from .test_folds import _jokers_22, _jokers_22_by_books, runs_taken

ROOT = Path(__file__).resolve().parents[1]
FOLDS = Routes(counter=Counter.FOLDS)
BOOKS = Routes(counter=Counter.BOOKS)


@pytest.mark.parametrize(("value", "threads"), [("3", 3), (" 2 ", 2), ("1", 1), ("0", 1)])
def test_the_threads_a_count_takes_are_set_by_halfsuit_threads(
    value: str, threads: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(parallel.THREADS, value)
    assert parallel.threads() == threads


@pytest.mark.parametrize("value", ["two", "-1", "1.5", "²"])
def test_a_number_of_threads_that_is_not_one_is_a_usage_error(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(parallel.THREADS, value)
    with pytest.raises(UsageError, match="HALFSUIT_THREADS must be a whole number"):
        parallel.threads()


@pytest.mark.parametrize(("cores", "threads"), [(1, 1), (2, 4), (3, 4), (8, 8)])
def test_by_default_a_count_takes_four_threads_or_one_a_core(
    cores: int, threads: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """None on one core; else four (more runs than cores share them evenly) or one a core."""
    monkeypatch.delenv(parallel.THREADS, raising=False)
    monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda _: set(range(cores)), raising=False)
    assert parallel.threads() == threads


def test_jobs_give_their_results_in_order_the_heaviest_started_first() -> None:
    started: list[int] = []
    gate = threading.Event()

    def job(k: int) -> Any:
        def run() -> int:
            started.append(k)
            if k == 3:
                gate.wait(10)  # (the heaviest holds its thread until the last job has started)
            elif k == 0:
                gate.set()
            return k * k

        return run

    weights = [0.5, 1.0, 2.0, 9.0]
    assert parallel.run_all([job(k) for k in range(4)], 2, weights) == [0, 1, 4, 9]
    # Submitted heaviest first: the heaviest holds one thread, the other takes the rest in turn.
    assert started.index(3) < 2 and started[-1] == 0 and set(started) == {0, 1, 2, 3}
    started.clear()
    assert parallel.run_all([job(k) for k in (0, 1, 2)], 1, weights[:3]) == [0, 1, 4]
    assert started == [0, 1, 2]  # (one thread: in the order given)


def test_the_caller_does_its_own_work_while_the_jobs_go() -> None:
    """``meanwhile`` runs in the calling thread while the jobs run in others (before them, on one
    thread)."""
    seen: list[str] = []
    job_started = threading.Event()

    def job() -> str:
        job_started.set()
        return threading.current_thread().name

    def meanwhile() -> None:
        assert job_started.wait(10)  # (the jobs are under way)
        seen.append(threading.current_thread().name)

    names = parallel.run_all([job, job], 2, meanwhile=meanwhile)
    assert seen == [threading.current_thread().name] and all(n.startswith("halfsuit-count") for n in names)
    order: list[str] = []
    parallel.run_all([lambda: order.append("job")] * 2, 1, meanwhile=lambda: order.append("meanwhile"))
    assert order == ["meanwhile", "job", "job"]


def test_an_error_in_a_job_is_raised_and_the_jobs_not_started_are_dropped() -> None:
    """The failing job raises once the first of fifty others has started: the error goes on at
    once, and of the others no more than the one running and one about to start ever run."""
    ran: list[int] = []
    first = threading.Event()

    def failure() -> int:
        first.wait(10)
        raise ValueError("a count failed")

    def later(k: int) -> Any:
        def run() -> None:
            first.set()
            time.sleep(0.02)
            ran.append(k)

        return run

    with pytest.raises(ValueError, match="a count failed"):
        parallel.run_all([failure, *(later(k) for k in range(50))], 2, [9, *[0] * 50])
    time.sleep(0.2)
    assert 1 <= len(ran) <= 3


def _looping(started: threading.Event, ended: list[str]) -> Any:
    """A job going through groups, a checkpoint each, for up to 20 s."""

    def run() -> None:
        started.set()
        try:
            for _ in range(2000):
                parallel.checkpoint()
                time.sleep(0.01)
            ended.append("done")
        except parallel.Stopped:
            ended.append("stopped")
            raise

    return run


def test_the_jobs_running_stop_at_their_next_checkpoint_when_another_fails() -> None:
    started, ended = threading.Event(), []

    def failure() -> None:
        started.wait(10)
        raise ValueError("a count failed")

    clock = time.perf_counter()
    with pytest.raises(ValueError, match="a count failed"):
        parallel.run_all([_looping(started, ended), failure], 2)
    for _ in range(100):  # (the loop sees the stop within a step of 10 ms)
        if ended:
            break
        time.sleep(0.01)
    assert ended == ["stopped"] and time.perf_counter() - clock < 5
    parallel.checkpoint()  # (outside a job of run_all: nothing)


def test_ctrl_c_while_waiting_stops_the_runs_and_the_process_ends_at_once() -> None:
    """Ctrl-C in the caller: KeyboardInterrupt goes on, and the jobs running in threads stop at
    their next checkpoint, so the process ends within a second, not when they would be done
    (20 s)."""
    script = (
        "import threading, time\n"
        "from analyzer.odds import parallel\n"
        "from tests.test_parallel import _looping\n"
        "started, ended = threading.Event(), []\n"
        "try:\n"
        "    parallel.run_all([_looping(started, ended), _looping(threading.Event(), ended)], 2)\n"
        "except KeyboardInterrupt:\n"
        "    time.sleep(0.2)\n"
        "    print('interrupted', sorted(ended))\n"
    )
    child = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    time.sleep(1.5)  # (started, and waiting)
    clock = time.perf_counter()
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=15)
    assert time.perf_counter() - clock < 3
    assert out.strip() == "interrupted ['stopped', 'stopped']"


def _meeting(calls: list[str]) -> Any:
    """A spy's wait: the first two calls meet (each waits for the other, 10 s at most), which
    only runs at once can do."""
    barrier = threading.Barrier(2, timeout=10)

    def meet() -> None:
        calls.append(threading.current_thread().name)
        if len(calls) <= 2:
            barrier.wait()

    return meet


def test_the_folds_runs_in_threads_count_as_one_after_another(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a big box (the jokers opening after event 22, 2**64 and three primes), a prime a run,
    the runs on two threads at once: the same deals and odds as a thread, all three primes a run."""
    pos = _jokers_22()
    monkeypatch.setenv(parallel.THREADS, "1")
    fold = FoldCount(pos)
    assert fold.apart and fold.workers == 1 and fold.chunk == 4
    alone = card_ways(pos, FOLDS)
    calls: list[str] = []
    meet = _meeting(calls)
    count = folds_module._Run.count

    def spy(self: Any, odds: bool) -> Any:
        meet()
        return count(self, odds)

    monkeypatch.setattr(folds_module._Run, "count", spy)
    monkeypatch.setenv(parallel.THREADS, "2")
    monkeypatch.setattr(folds_module, "_THREADED_LONG_MS", 0)  # (a long count, as the law says)
    fold = FoldCount(pos)
    assert fold.workers == 2 and fold.chunk == 1
    assert fold.biggest == fold._biggest(2)
    assert card_ways(pos, FOLDS) == alone
    assert len(calls) == 4 and all(name.startswith("halfsuit-count") for name in calls)


def test_a_short_fold_goes_in_threads_as_one_thread_would_make_its_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the law puts the count under ``_THREADED_LONG_MS`` (the jokers opening after event
    22, about 100 ms), a prime a run would make short numpy calls that contend for Python's
    lock: the runs are those of one thread (2**64, then three primes at once), on two threads."""
    pos = _jokers_22()
    monkeypatch.setenv(parallel.THREADS, "2")
    fold = FoldCount(pos)
    assert fold.routes.likely_folds_ns(fold.cost) < folds_module._THREADED_LONG_MS * 1e6
    assert fold.chunk == 4 and fold.workers == 2
    taken = runs_taken(monkeypatch)
    deals, ways = fold.run(True)
    wrap, *primes = fold.moduli
    assert sorted(taken) == sorted([[wrap], primes[:2], primes[2:]])
    want_deals, want = _jokers_22_by_books()
    assert deals == want_deals
    assert {c: {q: v for q, v in ways[c].items() if v} for c in want} == want


def test_the_folds_take_no_more_threads_than_the_memory_allows(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs in threads hold up to twice the memory bound at once: with room for one run of a
    prime, two; for one and a half, three; for two, four (as many as the moduli)."""
    pos = _jokers_22()
    monkeypatch.setenv(parallel.THREADS, "8")
    monkeypatch.setattr(folds_module, "_THREADED_LONG_MS", 0)  # (a prime a run)
    one = FoldCount(pos)._biggest(1)
    for room, workers in [(one, 2), (3 * one // 2, 3), (2 * one, 4)]:
        routes = Routes(counter=Counter.FOLDS, max_states=-(-room // 8))
        fold = FoldCount(pos, routes)
        assert fold.workers == workers
        assert fold.fits


@pytest.mark.parametrize(("name", "at"), [("g207.fish", 14), ("g201.fish", 3)])
def test_the_book_by_book_runs_in_threads_count_as_one_after_another(
    name: str, at: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Big boxes go 2**64 first and a prime a run (forced here on small ones): their ways forward
    and back on two threads give the deals and odds of one thread."""
    pos = knowledge.position(replay(record.load(SHARED / name)), at, PUBLIC)
    monkeypatch.setattr(books_module, "_WRAP_FROM", 0)
    monkeypatch.setattr(books_module, "_ONE_A_RUN", 0)
    monkeypatch.setenv(parallel.THREADS, "1")
    alone = card_ways(pos, BOOKS)
    calls: list[str] = []
    meet = _meeting(calls)
    forward, backward = books_module._Engine.forward, books_module._Engine.backward

    def spy_forward(self: Any, odds: bool) -> Any:
        meet()
        return forward(self, odds)

    def spy_backward(self: Any, ahead: Any, k: int) -> Any:
        calls.append(threading.current_thread().name)
        return backward(self, ahead, k)

    monkeypatch.setattr(books_module._Engine, "forward", spy_forward)
    monkeypatch.setattr(books_module._Engine, "backward", spy_backward)
    monkeypatch.setenv(parallel.THREADS, "2")
    assert card_ways(pos, BOOKS) == alone
    assert len(calls) >= 4 and all(name.startswith("halfsuit-count") for name in calls)


def test_book_by_book_runs_at_once_keep_their_boxes_within_the_memory_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """As many runs at once as the bound holds boxes of the biggest size: with room for two,
    two threads of eight; for one, none."""
    pos = knowledge.position(replay(record.load(SHARED / "g207.fish")), 14, PUBLIC)
    monkeypatch.setattr(books_module, "_WRAP_FROM", 0)
    monkeypatch.setattr(books_module, "_ONE_A_RUN", 0)
    monkeypatch.setenv(parallel.THREADS, "8")
    biggest = books_module.BookCount(pos).biggest
    asked: list[int] = []
    run_all = parallel.run_all

    def spy(jobs: Any, workers: int, *rest: Any) -> Any:
        asked.append(workers)
        return run_all(jobs, workers, *rest)

    monkeypatch.setattr(parallel, "run_all", spy)
    for room, workers in [(2, 2), (1, 1)]:
        asked.clear()
        routes = Routes(counter=Counter.BOOKS, max_states=room * biggest)
        assert books_module.BookCount(pos, routes).run(True)[0] > 0
        assert asked == [workers, workers]  # (the ways forward, then back)


def _threads_in_worker(_: int) -> str | None:
    import os

    return os.environ.get(parallel.THREADS)


def test_workers_of_the_pool_count_on_one_thread_each() -> None:
    assert process_map(_threads_in_worker, [1, 2], 2) == ["1", "1"]


def test_the_command_line_says_what_is_wrong_with_halfsuit_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Set wrong, it is a usage error on every count, small ones too: exit 2, and a sentence."""
    monkeypatch.setenv(parallel.THREADS, "two")
    result = CliRunner().invoke(app, ["odds", str(ROOT / "sample_logs" / "lockout.fish"), "--at", "11"])
    assert result.exit_code == 2
    assert "HALFSUIT_THREADS must be a whole number of threads, not 'two'" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    monkeypatch.setenv(parallel.THREADS, "2")
    result = CliRunner().invoke(app, ["odds", str(ROOT / "sample_logs" / "lockout.fish"), "--at", "11"])
    assert result.exit_code == 0 and "♠" in result.stdout
