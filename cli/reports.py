"""Report commands: a post-game report and a replay page of one record, and a batch summary.

``analyzer.report`` and ``analyzer.batch`` are imported inside the commands: matplotlib and
polars take a while to load, and every other command would pay for them.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from .common import (
    AS_HELP,
    PUBLIC,
    WORKERS,
    LenientOpt,
    RecordArg,
    check_view,
    collector_paused,
    counting_odds,
    err,
    handles_errors,
    load_game,
    out,
    plain,
    progress_bars,
    visible,
)


def register(app: typer.Typer) -> None:
    app.command("report")(report_cmd)
    app.command("replay")(replay_cmd)
    app.command("batch")(batch_cmd)


@handles_errors
def report_cmd(
    path: RecordArg,
    out_dir: Annotated[
        Path, typer.Option("--out", "-o", metavar="FOLDER", help="Folder to write the report into.")
    ] = Path("reports"),
    view: Annotated[str, typer.Option("--as", metavar="VIEW", help=AS_HELP + " Used for the card grids.")] = PUBLIC,
    moments: Annotated[
        list[int] | None,
        typer.Option(
            "--moment",
            metavar="N",
            help="Show the card grid after this many events (repeat for more); default: just before each claim.",
        ),
    ] = None,
    odds: Annotated[
        bool, typer.Option(help="Shade grids by exact odds, quote odds in mistakes, count bits per player.")
    ] = True,
    replay: Annotated[
        bool, typer.Option(help="Also write the game's replay page (<record>-replay.html) and link to it.")
    ] = True,
    lenient: LenientOpt = False,
) -> None:
    """Write a post-game report: an HTML page and its Markdown twin with charts (SVG), and a replay page.

    Prints the paths written. Exit 1 when the record breaks the rules (unless --lenient: the
    breaks are then marked in the report) or contradicts itself, 2 when it cannot be read.
    """
    from analyzer.pool import start_early

    if odds:
        start_early(WORKERS)  # the workers' server starts while the record is read
    from analyzer.study import report_moments, study

    game = load_game(path, lenient)
    name = check_view(game, view)
    report_moments(game, game.trusted_until, moments or None)  # a usage error before any work starts
    with collector_paused(), progress_bars() as bars, study(game, odds, replay, WORKERS, bars.stage) as studied:
        if odds:
            counting_odds()  # here, once the workers have their counts: they start sooner
        from analyzer.report import write_report  # matplotlib loads while the workers count

        update = bars.stage("writing the report")
        files = write_report(game, out_dir, name, moments or None, replay=replay, studied=studied)
        if update is not None:
            update(1, 1)
    if studied.left_out is not None:  # a view too costly to count: the report goes without odds, and says so
        err.print(f"odds left out of the report: {plain(studied.left_out)}")
    for written in files.paths:
        out.print(plain(written))


@handles_errors
def replay_cmd(
    path: RecordArg,
    out_dir: Annotated[
        Path, typer.Option("--out", "-o", metavar="FOLDER", help="Folder to write the page into.")
    ] = Path("reports"),
    odds: Annotated[bool, typer.Option(help="Shade the grids by exact odds and show them for each card.")] = True,
    lenient: LenientOpt = False,
) -> None:
    """Write a replay page: one HTML file to step through the game in every view (opens from disk).

    Prints the path written. Exit 1 when the record breaks the rules (unless --lenient: the page
    then steps to the first break and marks the breaks) or contradicts itself, 2 when it cannot
    be read.
    """
    from analyzer.pool import start_early

    if odds:
        start_early(WORKERS)  # the workers' server starts while the record is read
    from analyzer.replay_page import replay_data, write_page
    from analyzer.study import study

    game = load_game(path, lenient)
    with (
        collector_paused(),
        progress_bars() as bars,
        study(game, odds, True, WORKERS, bars.stage, bits=False) as studied,
    ):
        data = replay_data(game, studied.analysis, studied.found, why=studied.why)  # while the workers count
        studied.put_odds(data)
        page = write_page(game, out_dir, data)
    if studied.left_out is not None:
        err.print(f"odds left out of the replay page: {plain(studied.left_out)}")
    out.print(plain(page.path))


@handles_errors
def batch_cmd(
    folder: Annotated[Path, typer.Argument(metavar="FOLDER", help="A folder of records (*.fish, *.json).")],
    out_dir: Annotated[
        Path, typer.Option("--out", "-o", metavar="FOLDER", help="Folder for the tables and the summary.")
    ],
    workers: Annotated[
        int | None,
        typer.Option("--workers", "-j", min=1, metavar="N", help="Worker processes (default: one per core)."),
    ] = None,
    lenient: LenientOpt = False,
    reports: Annotated[
        bool, typer.Option("--reports", help="Also write each game's report and replay page, linked from the summary.")
    ] = False,
    cluster: Annotated[
        str | None,
        typer.Option(
            metavar="ADDRESS",
            help="Analyze on a Dask cluster: 'local' (worker processes here) or a scheduler address whose workers "
            "see the same files. Needs the 'cluster' extra.",
        ),
    ] = None,
) -> None:
    """Analyze every record in a folder: per-game and per-player tables and a summary page with charts.

    A record that fails, and an entry named like a record that is not a file (a dangling
    symlink, a FIFO, a folder), is listed with why, and the others still run. --out is replaced
    as a whole once every output is written, so it must be a new or empty folder or one an
    earlier batch wrote. Exit 0 when at least one record was analyzed (the failures are counted
    on stderr), 1 when every record failed, 2 when the folder is missing or holds no record or
    --out cannot be written, 130 on Ctrl-C (--out is then left as it was).
    """
    from analyzer.batch import run_batch

    with progress_bars() as bars:
        update = bars.stage("analyzing records")
        result = run_batch(
            folder,
            out_dir,
            workers,
            None if update is None else lambda done, total, _: update(done, total),
            lenient=lenient,
            reports=reports,
            cluster=cluster,
        )
    for written in result.files:
        out.print(plain(written))
    for message in [*result.breaks, *result.failures.get_column("message").to_list()]:
        sys.stderr.write(f"{visible(message)}\n")
    analyzed = result.total - result.failed
    err.print(f"{analyzed} of {result.total} records analyzed, {result.failed} failed")
    if result.failed == result.total:
        raise typer.Exit(1)
