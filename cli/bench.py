"""``halfsuit bench``: measure the analysis on simulated games, or how fast the commands start
(a command, not a timed test)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from .common import JsonOpt, handles_errors, out, print_json, progress_bars

# The record the start-up figures use: six players, the lockout of the Fish rules.
STARTUP_RECORD = Path(__file__).resolve().parent.parent / "sample_logs" / "lockout.fish"
# The commands a player runs at the table, each timed from a fresh process.
STARTUP_COMMANDS = (
    ("--help",),
    ("validate", "{record}"),
    ("who-has", "7S", "{record}", "--at", "11"),
    ("hand", "Eli", "{record}", "--at", "11"),
    ("claims", "{record}", "--at", "11"),
    ("threats", "{record}", "--at", "11"),
    ("lockouts", "{record}", "--at", "11"),
)
BASELINE = "python -c 'import typer'"


def register(app: typer.Typer) -> None:
    app.command()(bench)


@handles_errors
def bench(
    games: Annotated[int, typer.Option(metavar="N", min=1, help="Simulated games per table size.")] = 5,
    cpsat: Annotated[
        bool, typer.Option(help="Also time a generic CP-SAT model on one view (needs the bench extra).")
    ] = True,
    startup: Annotated[
        bool,
        typer.Option(
            "--startup",
            help=f"Time how fast the table-side commands start, beside {BASELINE}, instead (with bytecode, as "
            "installed: each command runs once first).",
        ),
    ] = False,
    runs: Annotated[int, typer.Option(metavar="N", min=1, help="Runs of each command for --startup.")] = 7,
    json_out: JsonOpt = False,
) -> None:
    """Time `analyze` (every step, every view) on simulated 6- and 8-player games; peak memory too.

    With --startup: the wall time of each command a player runs at the table, on a 6-player
    record, from a fresh process, beside that of importing typer alone (median of --runs runs,
    taken in turns so that a busy machine slows all alike). Each runs once first, so that Python
    writes the bytecode of what it loads and the runs read it, as on an installed copy (even
    where PYTHONDONTWRITEBYTECODE is set: it is left out of the commands' environment).
    """
    if startup:
        startup_bench(runs, json_out)
        return
    from analyzer.benchmark import run_benchmark

    with progress_bars(quiet=json_out) as bars:
        update = bars.stage("timing analyze")
        total = 2 * games
        done = [0]

        def step(_: str) -> None:
            done[0] += 1
            if update is not None:
                update(done[0], total)

        figures = run_benchmark(games=games, cpsat=cpsat, progress=step)
    from rich.table import Table as RichTable

    rows = [f.to_dict() for f in figures]
    if json_out:
        print_json(rows)
        return
    # Fits 80 columns: short headings, seconds to two decimals.
    table = RichTable(header_style="bold", title="analyze: every step in every view", box=None, pad_edge=False)
    for col in ("players", "events", "1 core s", "(max)", "all cores s", "(max)", "ms/view", "MiB", "CP-SAT s"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(
            str(r["players"]),
            f"{r['events_median']:.0f}",
            f"{r['analyze_seconds_median']:.2f}",
            f"{r['analyze_seconds_max']:.2f}",
            f"{r['analyze_all_cores_seconds_median']:.2f}",
            f"{r['analyze_all_cores_seconds_max']:.2f}",
            f"{r['ms_per_exact_view_mean']:.2f}",
            f"{r['peak_mib']:.1f}",
            "n/a" if r["cpsat_one_view_seconds"] is None else f"{r['cpsat_one_view_seconds']:.2f}",
        )
    out.print(table)
    from analyzer.wording import plural

    out.print(f"[dim]{plural(rows[0]['games'], 'game')} per size; medians, with the slowest game in (max)[/dim]")


def _command_line(args: tuple[str, ...]) -> list[str]:
    """The command as the ``halfsuit`` script runs it, from this interpreter."""
    return [sys.executable, "-c", _SCRIPT, *(a.format(record=STARTUP_RECORD) for a in args)]


_SCRIPT = "import sys; from cli.main import main; sys.argv[0] = 'halfsuit'; main()"


def _environment() -> dict[str, str]:
    """The commands' environment: this one, with bytecode written and read."""
    import os

    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _wall(command: list[str]) -> float:
    import subprocess
    import time

    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=_environment())
    return time.perf_counter() - start


def _warm(command: list[str]) -> None:
    """Run a command once, untimed: Python writes the bytecode of every module it loads. A command
    that fails is refused: its time would be that of an error message (as when the sample record
    is not there, in a copy installed without the project's ``sample_logs``)."""
    import subprocess

    from analyzer.errors import UsageError

    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False, env=_environment())
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        shown = "halfsuit " + " ".join(command[3:]) if command[1:3] == ["-c", _SCRIPT] else " ".join(command)
        raise UsageError(f"cannot time '{shown}': it fails (exit {done.returncode}){f': {said[-1]}' if said else ''}")


def startup_times(runs: int) -> list[dict[str, Any]]:
    """Median wall seconds of each start-up command and of the baseline, with their ratio."""
    import statistics

    baseline = [sys.executable, "-c", "import typer"]
    commands = [_command_line(args) for args in STARTUP_COMMANDS]
    times: list[list[float]] = [[] for _ in range(len(commands) + 1)]
    for command in [baseline, *commands]:
        _warm(command)
    with progress_bars() as bars:
        update = bars.stage("starting commands")
        for r in range(runs):
            for k, command in enumerate([baseline, *commands]):
                times[k].append(_wall(command))
            if update is not None:
                update(r + 1, runs)
    base = statistics.median(times[0])
    rows = [{"command": BASELINE, "seconds": round(base, 3), "ratio": 1.0}]
    for args, measured in zip(STARTUP_COMMANDS, times[1:], strict=True):
        median = statistics.median(measured)
        shown = " ".join(a.replace("{record}", STARTUP_RECORD.name) for a in args)
        rows.append({"command": f"halfsuit {shown}", "seconds": round(median, 3), "ratio": round(median / base, 2)})
    return rows


def startup_bench(runs: int, json_out: bool) -> None:
    rows = startup_times(runs)
    if json_out:
        print_json(rows)
        return
    from rich.table import Table as RichTable

    table = RichTable(header_style="bold", title=f"start-up, median of {runs} runs", box=None, pad_edge=False)
    table.add_column("command")
    table.add_column("wall s", justify="right")
    table.add_column("× import typer", justify="right")
    for r in rows:
        style = "red" if r["ratio"] > 1.5 else ""
        table.add_row(r["command"], f"{r['seconds']:.3f}", f"{r['ratio']:.2f}", style=style)
    out.print(table)
