"""``halfsuit bench``: measure the analysis on simulated games (a command, not a timed test)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table as RichTable

from .common import JSON_HELP, err, handles_errors, out, plain, print_json


def register(app: typer.Typer) -> None:
    app.command()(bench)


@handles_errors
def bench(
    games: Annotated[int, typer.Option(help="Simulated games per table size.")] = 5,
    cpsat: Annotated[
        bool, typer.Option(help="Also time a generic CP-SAT model on one view (needs the bench extra).")
    ] = True,
    json_out: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
) -> None:
    """Time `analyze` (every step, every view) on simulated 6- and 8-player games; peak memory too."""
    from analyzer.benchmark import run_benchmark

    figures = run_benchmark(
        games=games, cpsat=cpsat, progress=None if json_out else lambda s: err.print(f"[dim]{plain(s)}[/dim]")
    )
    rows = [f.to_dict() for f in figures]
    if json_out:
        print_json(rows)
        return
    table = RichTable(header_style="bold", title="halfsuit analyze: every step in every view")
    for col in (
        "players",
        "games",
        "events (median)",
        "analyze s (median)",
        "analyze s (max)",
        "all cores s (median)",
        "all cores s (max)",
        "ms per exact view",
        "peak MiB",
        "CP-SAT one view s",
    ):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(
            str(r["players"]),
            str(r["games"]),
            str(r["events_median"]),
            f"{r['analyze_seconds_median']:.3f}",
            f"{r['analyze_seconds_max']:.3f}",
            f"{r['analyze_all_cores_seconds_median']:.3f}",
            f"{r['analyze_all_cores_seconds_max']:.3f}",
            f"{r['ms_per_exact_view_mean']:.3f}",
            f"{r['peak_mib']:.1f}",
            "n/a" if r["cpsat_one_view_seconds"] is None else f"{r['cpsat_one_view_seconds']:.3f}",
        )
    out.print(table)
