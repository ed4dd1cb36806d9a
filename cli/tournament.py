"""The ``tournament`` command: bots against each other in duplicate pairs, every game a record."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from analyzer.cards import DeckKind
from analyzer.errors import UsageError
from analyzer.rules import RuleSet
from analyzer.wording import plural

if TYPE_CHECKING:
    from analyzer.tournament import Mapper

from .common import (
    WORKERS,
    BluffingOpt,
    DeckOpt,
    HouseOpt,
    JsonOpt,
    RulesOpt,
    err,
    handles_errors,
    out,
    print_json,
    progress_bars,
    visible,
)


def register(app: typer.Typer) -> None:
    app.command("tournament")(tournament)
    app.command("mistake-costs")(costs)


def bot_pair(text: str) -> tuple[str, str]:
    from analyzer.bots import LADDER

    names = [n.strip().lower() for n in text.split(",")]
    if len(names) != 2 or not all(names):
        raise UsageError(f"--bots takes two bots, like odds,counter (not '{text}')")
    for n in names:
        if n not in LADDER:
            raise UsageError(f"no bot called '{n}': the bots are {', '.join(LADDER)}")
    return names[0], names[1]


@handles_errors
def tournament(
    bots: Annotated[str, typer.Option(metavar="A,B", help="The two bots: random, simple, counter, odds.")],
    output: Annotated[Path, typer.Option("--out", "-o", metavar="FOLDER", help="Folder for the games' records.")],
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, metavar="N", help="Duplicate pairs: each deal played twice.")
    ] = 50,
    players: Annotated[int, typer.Option(metavar="N", help="6 or 8 players (4 also works).")] = 6,
    deck: DeckOpt = DeckKind.STANDARD,
    rules: RulesOpt = RuleSet.LITERATURE,
    bluffing: BluffingOpt = False,
    house: HouseOpt = None,
    seed: Annotated[int, typer.Option(metavar="N", min=0, help="Base seed: deal k is dealt from seed N+k.")] = 0,
    resume: Annotated[
        bool, typer.Option("--resume", help="Go on with a tournament in --out: games already written are kept.")
    ] = False,
    workers: Annotated[
        int, typer.Option("--workers", "-j", min=1, metavar="N", help="Worker processes (default: one per core).")
    ] = WORKERS,
    cluster: Annotated[
        str | None,
        typer.Option(
            metavar="ADDRESS",
            help="Play on a Dask cluster: 'local' (worker processes here) or a scheduler address. Needs the "
            "'cluster' extra.",
        ),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Play bots against each other in duplicate pairs and rank them.

    Each deal is played twice with the teams swapped. Every game is written to --out as a record
    (report and batch read them); an interrupted tournament goes on with --resume. Prints each
    bot's win rate with its 95% interval, books per game and an Elo-style rating.
    """
    from analyzer.tournament import duplicate_pairs, play_tournament, standings

    pair = bot_pair(bots)
    if players not in (4, 6, 8):
        raise UsageError(f"--players must be 4, 6 or 8, not {players}")
    specs = duplicate_pairs(pair, games, seed, players, deck, rules, bluffing, frozenset(house or ()))
    with progress_bars(json_out) as stages, _mapper(cluster, workers) as mapper:
        update = stages.stage(f"{pair[0]} vs {pair[1]}")
        done = [0]

        def each(_: object) -> None:
            done[0] += 1
            if update is not None:
                update(done[0], len(specs))

        try:
            results = play_tournament(specs, output, mapper, resume, each)
        except FileExistsError as exc:
            raise UsageError(str(exc)) from None
    table = standings(results)
    alone = pair[0] == pair[1]  # (a bot against itself: each deal once, both teams its own)
    if json_out:
        standing = [s.to_dict() for s in table]
        print_json({"bots": list(pair), "pairs": 0 if alone else games, "games": len(results), "standings": standing})
        return
    from rich.table import Table as RichTable
    from rich.text import Text

    title = f"{pair[0]} vs {pair[1]}: {plural(games, 'duplicate pair')}, {plural(len(results), 'game')}"
    if alone:  # (one game a deal, the bot on both teams: its row counts each game twice, once a team)
        title = f"{pair[0]} against itself: {plural(len(results), 'game')}, each counted for both teams"
    rows = []
    for s in table:
        low, high = s.interval
        rows.append(
            [
                s.bot,
                str(s.games),
                str(s.wins),
                str(s.draws),
                str(s.losses),
                f"{s.win_rate:.1%}",
                f"{low:.1%}–{high:.1%}",
                f"{s.books_per_game:.2f}",
                f"{s.elo:.0f}",
                f"{s.pair_wins}/{s.pairs}",
            ]
        )
    # Fits 80 columns (1,000 games, a 7-letter bot): no box, headings on two lines, and no figure cut short.
    grid = RichTable(title=Text(title), header_style="bold", box=None, pad_edge=False)
    headings = (
        "bot",
        "games",
        "won",
        "drawn",
        "lost",
        "win\nrate",
        "95%\ninterval",
        "books\nper game",
        "Elo",
        "pairs\nwon",
    )
    for k, col in enumerate(headings):
        widest = max(len(row[k]) for row in rows)
        grid.add_column(col, justify="left" if k == 0 else "right", min_width=widest)
    for row in rows:
        grid.add_row(Text(row[0]), *row[1:])
    out.print(grid)


@contextmanager
def _mapper(cluster: str | None, workers: int) -> Iterator[Mapper]:
    from analyzer.tournament import cluster_mapper, local_mapper

    if cluster is None:
        yield local_mapper(workers)
        return
    from analyzer.cluster import cluster_client

    with cluster_client(cluster, workers) as client:
        yield cluster_mapper(client)


@handles_errors
def costs(
    folder: Annotated[
        Path, typer.Argument(metavar="FOLDER", help="A folder of records with every hand (a tournament's).")
    ],
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, metavar="N", help="Only the first N records (by name).")
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", "-j", min=1, metavar="N", help="Worker processes (default: one per core).")
    ] = WORKERS,
    json_out: JsonOpt = False,
) -> None:
    """What each kind of mistake cost in played games: how often the team lost the book, and the points.

    Every book's fate is the baseline (forfeited books count as lost by both teams).
    """
    from analyzer.game_text import kind_text
    from analyzer.mistake_cost import cost_table, measure
    from analyzer.tournament import wilson

    if not folder.is_dir():
        raise UsageError(f"{folder}: not a folder of records")
    paths = sorted(folder.glob("*.fish"))[:limit]
    if not paths:
        raise UsageError(f"{folder}: no .fish records")
    with progress_bars(json_out) as stages:
        update = stages.stage("mistakes")
        done = [0]

        def each(_: object) -> None:
            done[0] += 1
            if update is not None:
                update(done[0], len(paths))

        skipped: list[str] = []
        measured = measure(paths, workers, each, skipped)
    from rich.table import Table as RichTable
    from rich.text import Text

    for message in skipped:
        err.print(Text(f"{visible(message)} (left out)"))
    used = len(paths) - len(skipped)
    if json_out:
        print_json({"records": used, "skipped": skipped, "costs": cost_table(measured)})
        return
    grid = RichTable(title=Text(f"The cost of a mistake, over {plural(used, 'record')}"))
    for col in ("mistake", "n", "book lost", "95% interval", "points lost (avg ± s.e.)"):
        grid.add_column(col, justify="left" if col == "mistake" else "right")
    for c in measured:
        low, high = wilson(c.lost, c.mistakes)
        grid.add_row(
            Text(kind_text(c.kind)),
            str(c.mistakes),
            f"{c.lost_rate:.1%}",
            f"{low:.1%}–{high:.1%}",
            f"{c.points:.2f} ± {c.points_error:.2f}",
        )
    out.print(grid)
