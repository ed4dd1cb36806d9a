"""The runs of one count in threads: the same deals and odds as one after another, on as many
threads as asked and the memory allows, and errors and interrupts as without them."""

from __future__ import annotations

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
from .test_folds import _jokers_22

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


def test_an_error_in_a_job_is_raised_and_the_jobs_not_started_are_dropped() -> None:
    ran: list[int] = []

    def slow_failure() -> int:
        time.sleep(0.2)
        raise ValueError("a count failed")

    def later(k: int) -> Any:
        def run() -> None:
            time.sleep(0.02)
            ran.append(k)

        return run

    with pytest.raises(ValueError, match="a count failed"):
        parallel.run_all([slow_failure, *(later(k) for k in range(50))], 2, [9, *[0] * 50])
    time.sleep(0.3)
    assert len(ran) < 30  # (those not started once the error was seen never ran)


def test_the_folds_runs_in_threads_count_as_one_after_another(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a big box (the jokers opening after event 22, 2**64 and three primes), a prime a run,
    the runs on two threads at once: the same deals and odds as a thread, all three primes a run."""
    pos = _jokers_22()
    monkeypatch.setenv(parallel.THREADS, "1")
    fold = FoldCount(pos)
    assert fold.apart and fold.workers == 1 and fold.chunk == 4
    alone = card_ways(pos, FOLDS)
    names: set[str] = set()
    count = folds_module._Run.count

    def spy(self: Any, odds: bool) -> Any:
        names.add(threading.current_thread().name)
        return count(self, odds)

    monkeypatch.setattr(folds_module._Run, "count", spy)
    monkeypatch.setenv(parallel.THREADS, "2")
    fold = FoldCount(pos)
    assert fold.workers == 2 and fold.chunk == 1
    assert fold.biggest == fold._biggest(2)
    assert card_ways(pos, FOLDS) == alone
    assert len(names) == 2 and all(name.startswith("halfsuit-count") for name in names)


def test_the_folds_take_no_more_threads_than_the_memory_allows(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs in threads hold up to twice the memory bound at once: with room for one run of a
    prime, two; for one and a half, three; for two, four (as many as the moduli)."""
    pos = _jokers_22()
    monkeypatch.setenv(parallel.THREADS, "8")
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
    names: set[str] = set()
    forward, backward = books_module._Engine.forward, books_module._Engine.backward

    def spy_forward(self: Any, odds: bool) -> Any:
        names.add(threading.current_thread().name)
        return forward(self, odds)

    def spy_backward(self: Any, ahead: Any, k: int) -> Any:
        names.add(threading.current_thread().name)
        return backward(self, ahead, k)

    monkeypatch.setattr(books_module._Engine, "forward", spy_forward)
    monkeypatch.setattr(books_module._Engine, "backward", spy_backward)
    monkeypatch.setenv(parallel.THREADS, "2")
    assert card_ways(pos, BOOKS) == alone
    assert names and all(name.startswith("halfsuit-count") for name in names)


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
