"""Worker processes: safe after threads, the same answers as one process, errors kept whole,
and Ctrl-C ends the work at once."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from analyzer import record as fish
from analyzer.analysis import _view_job
from analyzer.errors import Contradiction
from analyzer.pool import _close_all, game_map, process_map, start_method
from analyzer.replay import Game, replay

ROOT = Path(__file__).resolve().parents[1]
LOCK = threading.Lock()  # held by a thread of the caller, as a library's thread pool may hold one


def free_in_worker(_: int) -> bool:
    """Whether this process can take LOCK: a worker forked from a caller whose thread held it
    inherits it taken, and would wait for ever."""
    got = LOCK.acquire(timeout=2)
    if got:
        LOCK.release()
    return got


def test_workers_are_not_forked_from_the_caller() -> None:
    assert start_method() in ("forkserver", "spawn")
    taken = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with LOCK:
            taken.set()
            release.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        taken.wait(5)
        assert process_map(free_in_worker, [1, 2, 3], 2) == [True, True, True]
    finally:
        release.set()
        holder.join()


def test_a_game_in_workers_gives_what_one_process_gives() -> None:
    game = replay(fish.load(ROOT / "sample_logs" / "lockout.fish"))
    jobs = [(view, len(game.events)) for view in ("public", "Anna", "Ben", "Eli")]
    seen: list[object] = []
    assert game_map(_view_job, game, jobs, 2, seen.append) == [_view_job(game, job) for job in jobs]
    assert len(seen) == len(jobs)


def unfit(game: Game, at: int) -> None:
    raise Contradiction(f"no deal fits after event {at}", line=7, path=game.record.path, event=at)


def test_a_record_error_in_a_worker_reaches_the_caller_with_its_place() -> None:
    game = replay(fish.load(ROOT / "sample_logs" / "lockout.fish"))
    with pytest.raises(Contradiction) as info:
        game_map(unfit, game, [3, 4], 2)
    assert (info.value.line, info.value.event) in ((7, 3), (7, 4))
    assert info.value.path == str(ROOT / "sample_logs" / "lockout.fish")


def test_workers_load_the_callers_modules_wherever_the_command_runs(tmp_path: Path) -> None:
    shadow = tmp_path / "analyzer"
    shadow.mkdir()
    (shadow / "__init__.py").write_text('raise SystemExit("the analyzer of the working folder was loaded")\n')
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
        "from analyzer.pool import process_map\n"
        "print(process_map(abs, [-1, -2, -3], 2))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[1, 2, 3]\n"


def test_ctrl_c_ends_the_workers_at_once() -> None:
    code = (
        "import time\nfrom analyzer.pool import process_map\n"
        "print('started', flush=True)\nprocess_map(time.sleep, [60.0] * 6, 2)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None and child.stdout.readline() == b"started\n"
    time.sleep(3)  # the workers are busy sleeping
    start = time.monotonic()
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=30)
    assert time.monotonic() - start < 10, "the interrupt waited for the tasks"
    assert child.returncode != 0 and b"KeyboardInterrupt" in err


HALF_SENT = '''
import os, struct, sys, time

def half_sent(item: int) -> None:
    """Write the start of a result and stop there, as a worker ended in the middle of sending
    does (the first item; the other only keeps its worker busy)."""
    if item == 1:
        frame = sys._getframe()
        while "result_queue" not in frame.f_locals:
            frame = frame.f_back
        os.write(frame.f_locals["result_queue"]._writer.fileno(), struct.pack("!i", 1 << 20) + b"the start")
        print("sent", file=sys.stderr, flush=True)
    time.sleep(60)
'''


def test_ctrl_c_ends_the_command_when_a_worker_was_ended_halfway_through_sending(tmp_path: Path) -> None:
    """A worker ended while it sends its result leaves half a message in the pipe: the pool's
    thread, reading it, once waited for the rest for ever, and the process with it at exit."""
    (tmp_path / "halfway.py").write_text(HALF_SENT)
    code = (
        f"import sys; sys.path.insert(0, {str(tmp_path)!r})\n"
        "from analyzer.pool import process_map\nfrom halfway import half_sent\n"
        "process_map(half_sent, [1, 2], 2)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stderr=subprocess.PIPE)
    try:
        assert child.stderr is not None and child.stderr.readline() == b"sent\n"
        time.sleep(0.5)  # the pool's thread is in the middle of reading the result
        child.send_signal(signal.SIGINT)
        try:
            _, err = child.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            raise AssertionError("the process did not end after Ctrl-C") from None
        assert child.returncode != 0 and b"KeyboardInterrupt" in err
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()


def fail_on_two(item: int) -> int:
    if item == 2:
        raise ValueError("two")
    return item


def test_an_error_in_one_pool_leaves_a_pool_of_another_size_working() -> None:
    # A map of 2 items on 4 workers takes a pool of 2; ending it (its map failed) must not end
    # the workers of the pool of 4 started after it.
    assert process_map(abs, [-1, -2], 4) == [1, 2]
    assert process_map(abs, [-1, -2, -3, -4], 4) == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="two"):
        process_map(fail_on_two, [1, 2], 4)
    assert process_map(abs, [-5, -6, -7, -8], 4) == [5, 6, 7, 8]
    _close_all()  # (no workers left behind for the tests that follow)
