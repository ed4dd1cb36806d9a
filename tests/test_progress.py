"""Progress bars on a terminal only, and the benchmark command's tables (80 columns, start-up)."""

from __future__ import annotations

import io
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from analyzer.analysis import analyze
from analyzer.benchmark import SizeFigures
from analyzer.record import load
from analyzer.replay import replay
from cli import bench, common
from cli.main import app

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def test_library_progress_counts_every_view() -> None:
    game = replay(load(ROOT / "sample_logs" / "lockout.fish"))
    calls: list[tuple[int, int]] = []
    analyze(game, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(k, 7) for k in range(8)]


def test_bars_show_on_a_terminal_and_not_when_piped(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = io.StringIO()
    monkeypatch.setattr(common, "err", Console(file=screen, force_terminal=True, width=80))
    with common.progress_bars() as bars:
        update = bars.stage("solving each view")
        assert update is not None
        update(3, 7)
    with common.progress_bars(quiet=True) as bars:
        assert bars.stage("not shown") is None
    assert "solving each view" in screen.getvalue() and "not shown" not in screen.getvalue()
    piped = io.StringIO()
    monkeypatch.setattr(common, "err", Console(file=piped, force_terminal=False))
    with common.progress_bars() as bars:
        assert bars.stage("solving each view") is None
    assert piped.getvalue() == ""


def test_bars_draw_on_the_console_made_on_first_use(monkeypatch: pytest.MonkeyPatch) -> None:
    """``common.err`` is a console made on first use; the progress bars once entered it as a
    context, which only the console itself supports: every long command failed on a terminal."""
    screen = io.StringIO()
    monkeypatch.setattr(common, "err", common._Later(file=screen, force_terminal=True, width=80))
    with common.progress_bars() as bars:
        update = bars.stage("solving each view")
        assert update is not None
        update(3, 7)
    assert "solving each view" in screen.getvalue()


def test_a_report_on_a_terminal_shows_its_bars_and_ends_well(tmp_path: Path) -> None:
    """The whole command with stderr a terminal (a pseudo-terminal), as a person runs it."""
    import os
    import pty

    main, terminal = pty.openpty()
    shown: list[bytes] = []

    def drain() -> None:  # (the terminal must be read while the command writes, or it blocks)
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the other end closed: all read
                return
            if not chunk:
                return
            shown.append(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    try:
        command = [
            sys.executable,
            "-c",
            "from cli.main import main; main()",
            "report",
            str(ROOT / "sample_logs" / "lockout.fish"),
        ]
        done = subprocess.run(
            [*command, "--out", str(tmp_path)], stdout=subprocess.PIPE, stderr=terminal, timeout=120, cwd=ROOT
        )
    finally:
        os.close(terminal)
        reader.join(timeout=10)
        os.close(main)
    screen = b"".join(shown)
    assert done.returncode == 0, screen.decode(errors="replace")
    assert b"solving each view" in screen and b"Traceback" not in screen
    assert (tmp_path / "lockout.html").exists()


def test_report_writes_no_progress_when_piped(tmp_path: Path) -> None:
    result = runner.invoke(app, ["report", str(ROOT / "sample_logs" / "lockout.fish"), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


def figures(players: int) -> SizeFigures:
    fig = SizeFigures(players, 2, [190, 200], [0.81234, 0.9], [0.4, 0.5], [1300, 1400], 13.12, 1.777)
    return fig


def test_bench_fits_80_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("analyzer.benchmark.run_benchmark", lambda **_: [figures(6), figures(8)])
    result = runner.invoke(app, ["bench"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert any(line.split()[:2] == ["6", "195"] for line in lines)  # a row on one line, not wrapped


def test_bench_startup_compares_with_importing_typer(monkeypatch: pytest.MonkeyPatch) -> None:
    seconds = iter([0.1, 0.12, 0.2, 0.13, 0.14, 0.15, 0.11, 0.16] * 3)
    monkeypatch.setattr(bench, "_wall", lambda _: next(seconds))
    monkeypatch.setattr(bench, "_warm", lambda _: None)
    result = runner.invoke(app, ["bench", "--startup", "--runs", "3", "--json"])
    assert result.exit_code == 0, result.output
    rows = __import__("json").loads(result.stdout)
    assert [r["command"] for r in rows][:3] == [bench.BASELINE, "halfsuit --help", "halfsuit validate lockout.fish"]
    assert rows[0]["ratio"] == 1.0 and rows[2]["ratio"] == 2.0


def test_the_startup_commands_run() -> None:
    for args in bench.STARTUP_COMMANDS[:3]:
        done = subprocess.run(bench._command_line(args), capture_output=True, text=True, check=False, timeout=120)
        assert done.returncode == 0, (args, done.stderr)
