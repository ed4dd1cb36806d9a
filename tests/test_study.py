"""A game studied once for its report and replay page: the counts shared between them, counted
once and in worker processes, give what each part counted alone gave."""

from __future__ import annotations

import multiprocessing
import subprocess
import sys
import time
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyzer.analysis import hand_views, view_tracker
from analyzer.errors import Contradiction
from analyzer.information import ask_information, signature
from analyzer.odds import card_odds
from analyzer.pool import GameTasks, _close_all
from analyzer.record import Ask, load
from analyzer.replay import Game, replay
from analyzer.replay_page import count_steps, odds_jobs, odds_table, write_replay
from analyzer.report import write_report
from analyzer.study import study
from analyzer.tactics import explain_mistakes, mistakes, quote_odds
from cli.main import app

ROOT = Path(__file__).resolve().parents[1]
LOCKOUT = ROOT / "sample_logs" / "lockout.fish"
MARKUP = ROOT / "tests" / "data" / "markup.fish"


def test_the_odds_of_every_step_are_the_exact_odds_counted_step_by_step() -> None:
    game = replay(load(LOCKOUT))
    views = hand_views(game)
    table = odds_table(game, views, len(game.events), workers=2)
    repeated = 0
    for view in views:
        tracker = view_tracker(game, view)
        assert list(table[view]) == list(range(len(game.events) + 1))
        seen = set()
        for at, counted in table[view].items():
            pos = tracker.position(at)
            assert counted is not None and counted.shares() == card_odds(pos).cards, (view, at)
            repeated += signature(pos) in seen
            seen.add(signature(pos))
    assert repeated > 0  # some steps were taken from an earlier count, and still agree


def test_odds_jobs_cover_every_step_of_every_view_once_public_first() -> None:
    views = ["public", "Anna", "Ben"]
    jobs = odds_jobs(views, 128, {"Ben": ()}, 2)
    assert jobs[0][0] == "public" and len(jobs) > len(views)
    for view in views:
        steps = [at for v, part, _ in jobs if v == view for at in part]
        assert steps == list(range(129))
    assert {hand for v, _, hand in jobs if v == "Ben"} == {()}
    assert odds_jobs(views, 128, {}, 1) == [(v, tuple(range(129)), None) for v in views]


def test_the_bits_of_the_asks_reuse_the_public_counts_and_equal_counting_them_alone() -> None:
    game = replay(load(LOCKOUT))
    for every_step in (True, False):
        with study(game, workers=2, every_step=every_step) as studied:
            studied.settle()
        assert studied.asks == ask_information(game)
        assert studied.odds and studied.left_out is None


def test_the_mistakes_quote_the_counts_of_every_step_as_counting_alone_quotes() -> None:
    game = replay(load(LOCKOUT))
    with study(game, workers=2) as studied:
        studied.settle()
    analysis = studied.analysis
    alone = quote_odds(analysis, explain_mistakes(analysis, mistakes(analysis)))
    assert studied.found == alone and any(m.odds for m in alone.mistakes)
    # An ask's quote is taken from the counts given for its step, not counted again.
    m = next(m for m in alone.mistakes if m.kind == "broken-lockout")
    ask = game.events[m.event - 1]
    assert isinstance(ask, Ask)
    other = next(p for p in game.record.table.opponents(ask.asker) if p != ask.target)
    made_up = {ask.card: {ask.target: Fraction(1, 4), other: Fraction(3, 4)}}
    quoted = quote_odds(analysis, replace(alone, mistakes=[m]), counted={(ask.asker, m.event - 1): made_up})
    assert (
        quoted.mistakes[0].odds
        == f"the chance that {ask.target} held {ask.card.pretty} was 25.0%, while {other}'s was 75.0%"
    )


def test_without_odds_nothing_is_counted() -> None:
    game = replay(load(LOCKOUT))
    with study(game, odds=False, workers=2) as studied:
        studied.settle()
    assert studied.tables is None and studied.asks is None and not studied.odds
    assert all(m.odds is None for m in studied.found.mistakes)


def test_the_command_writes_in_workers_what_one_process_writes(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["report", str(MARKUP), "--out", str(tmp_path / "cli")])
    assert result.exit_code == 0, result.stderr
    files = write_report(replay(load(MARKUP)), tmp_path / "one")
    for path in files.paths:
        assert (tmp_path / "cli" / path.name).read_bytes() == path.read_bytes(), path.name
    result = CliRunner().invoke(app, ["replay", str(MARKUP), "--out", str(tmp_path / "page")])
    assert result.exit_code == 0, result.stderr
    alone = write_replay(replay(load(MARKUP)), tmp_path / "alone").path
    assert (tmp_path / "page" / alone.name).read_bytes() == alone.read_bytes()


def _fails_at(game: Game, at: int) -> int:
    if at == 3:
        raise Contradiction("no deal fits", event=at)
    return at


def test_tasks_run_beside_the_caller_and_an_error_ends_the_workers() -> None:
    _close_all()  # (pools other tests left: every child from here on is this test's)
    game = replay(load(LOCKOUT))
    done: list[int] = []
    with GameTasks(game, 2) as tasks:
        started = [tasks.submit(count_steps, ("public", (at,), None), lambda: done.append(1)) for at in (0, 5, 15)]
        assert [len(t.result()) for t in started] == [1, 1, 1] and len(done) == 3
    before = set(multiprocessing.active_children())
    with pytest.raises(Contradiction), GameTasks(game, 2) as tasks:
        failing = [tasks.submit(_fails_at, at) for at in range(5)]
        assert [t.result() for t in failing[:3]] == [0, 1, 2]
        failing[3].result()
    for worker in before:  # the workers were ended, not left to finish the tasks
        worker.join(10)
        assert not worker.is_alive()
    ran: list[int] = []
    lazy = GameTasks(game, 1)
    task = lazy.submit(_fails_at, 2, lambda: ran.append(1))
    assert ran == [] and task.result() == 2 and task.result() == 2 and ran == [1]  # run once, when asked


def _sleeps(game: Game, seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_tasks_still_running_when_the_block_ends_end_with_it() -> None:
    # Odds left out after all (a view too large to quote): the counts still running are not
    # wanted, and the command must not wait for them at exit.
    _close_all()  # (pools other tests left: every child from here on is this test's)
    game = replay(load(LOCKOUT))
    done: list[float] = []
    with GameTasks(game, 2) as tasks:
        quick = tasks.submit(_sleeps, 0.0, lambda: done.append(0.0))
        unwanted = [tasks.submit(_sleeps, 120.0, lambda: done.append(120.0)) for _ in range(3)]
        assert quick.result() == 0.0
        workers = set(multiprocessing.active_children())
    assert unwanted and workers
    for worker in workers:
        worker.join(10)
        assert not worker.is_alive()
    time.sleep(0.5)  # (the pool's thread settles the ended tasks)
    assert done == [0.0]  # the progress counts no task that was dropped or ended unfinished


@pytest.mark.parametrize("error", [False, True])
def test_a_command_leaving_tasks_unfinished_exits_at_once(error: bool) -> None:
    # Many tasks of a large game: some are queued for the workers when the block ends.
    code = (
        f"import sys, time; sys.path.insert(0, {str(ROOT)!r})\n"
        "from analyzer.pool import GameTasks\nfrom analyzer.record import load\n"
        "from analyzer.replay import replay\nfrom tests.test_study import _sleeps\n"
        "if __name__ == '__main__':\n"
        f"    game = replay(load({str(ROOT / 'sample_logs' / 'simulated-game.fish')!r}))\n"
        "    try:\n"
        "        with GameTasks(game, 2) as tasks:\n"
        "            quick = tasks.submit(_sleeps, 0.0)\n"
        "            rest = [tasks.submit(_sleeps, 30.0) for _ in range(40)]\n"
        "            quick.result()\n"
        f"            if {error}:\n"
        "                raise ValueError('a bad option found late')\n"
        "    except ValueError:\n"
        "        pass\n"
        "    from concurrent.futures import process\n"
        "    print('woken at exit:', len(process._threads_wakeups))\n"
    )
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Error" not in done.stderr, done.stderr
    # Python's exit hook would wake the pool's thread through a pipe it may be closing (3.11).
    assert "woken at exit: 0" in done.stdout, done.stdout
    assert time.monotonic() - start < 25  # not waiting for the tasks (30 s each), nor hanging
