"""Many games at once: analyze every record in a folder on all cores, and summarize them.

Each record (``*.fish`` or ``*.json`` directly in the folder) is read, replayed (strictly, or leniently),
analyzed and judged for mistakes in a worker process. The results become three tables, written
as Parquet and CSV: one row per game, one per player and game, one per record that failed
(malformed, against the rules, or contradicting itself; its error is kept as ``FILE:LINE:
message``) or that could not be read at all (a dangling symlink, a FIFO, a folder named like a
record). A summary page (HTML and Markdown) charts and tabulates wins by team, claim accuracy,
mistakes per player per game and the games' lengths, links every game (to its own report and
replay page, with ``reports``) and the data files, and lists the failures. A failed record never stops the others, and
every output is ordered by file name, so the same folder always gives the same files.

The outputs are published together: they are written into a fresh folder that then takes the
place of the output folder at once, under a lock, so an interrupted, failed or concurrent run
leaves the previous complete set (or none), never a mix.
"""

from __future__ import annotations

import errno
import functools
import io
import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import polars as pl

from . import record as fish
from . import record_json
from .analysis import Analysis
from .charts import histogram, stacked_bars
from .errors import HalfsuitError, UsageError
from .files import check_not_input, published_folder, write_bytes_atomic, write_text_atomic
from .hindsight import judged_analysis
from .odds import TooLarge
from .pool import process_map
from .record import Record
from .render import (
    Block,
    Chart,
    Figure,
    Heading,
    Inline,
    Items,
    Para,
    Row,
    Section,
    Table,
    html_page,
    joined,
    link,
    markdown_page,
    strong,
    styled,
    table_or_none,
)
from .replay import Game, replay
from .stats import GAME_COLUMNS, PLAYER_COLUMNS, game_row, kind_key, player_rows, polars_schema, rate_text
from .tactics import KINDS, MistakeReport, explain_mistakes, mistakes, quote_odds
from .wording import plural

RECORD_SUFFIXES = (".fish", ".json")
TABLES = ("games", "players", "failures")
DATA_FILES = tuple(f"{t}.{ext}" for t in TABLES for ext in ("parquet", "csv"))
CHARTS = ("wins", "claims", "mistakes", "length")  # the summary's charts, as summary-<name>.svg
GAMES = "games"  # the folder of each game's report and replay page (``reports``)
OUTPUT_NAMES = (*DATA_FILES, "summary.html", "summary.md", *(f"summary-{c}.svg" for c in CHARTS))
# What an output folder may hold for a later run to replace it.
PUBLISHED = (*OUTPUT_NAMES, GAMES)
Progress = Callable[[int, int, str], None]  # (records done, records in all, file just done)

GAME_SCHEMA = polars_schema(GAME_COLUMNS)
PLAYER_GAME_SCHEMA = polars_schema({"file": "String", **PLAYER_COLUMNS})
FAILURE_SCHEMA: dict[str, Any] = {
    "file": pl.String,
    "code": pl.String,
    "exit_code": pl.Int64,
    "line": pl.Int64,
    "message": pl.String,  # FILE:LINE: message
}


@dataclass(frozen=True)
class GameOutcome:
    """What a worker sends back for a record: its rows, or why it failed (plain, picklable)."""

    file: str
    game: dict[str, Any] | None = None
    players: list[dict[str, Any]] = field(default_factory=list)
    failure: dict[str, Any] | None = None
    pages: tuple[str, ...] = ()  # the game's report and replay page, relative to the output folder
    breaks: tuple[str, ...] = ()  # a lenient replay's rule breaks, ``FILE:LINE: event N: message [code]``


@dataclass(frozen=True)
class BatchResult:
    """The tables of a batch, ordered by file name, and the files written."""

    games: pl.DataFrame
    players: pl.DataFrame
    failures: pl.DataFrame
    files: tuple[Path, ...]
    breaks: tuple[str, ...] = ()  # the rule breaks of the records read leniently, record by record

    @property
    def total(self) -> int:
        return self.games.height + self.failures.height

    @property
    def failed(self) -> int:
        return self.failures.height


def find_records(folder: str | Path) -> tuple[list[Path], list[GameOutcome]]:
    """The records directly in ``folder``, and the entries named like records that are not
    regular files (each as a failure saying what it is), both by file name."""
    root = Path(folder)
    if not root.is_dir():
        raise UsageError("not a folder", path=str(root))
    try:
        entries = sorted((p for p in root.iterdir() if p.suffix.lower() in RECORD_SUFFIXES), key=lambda p: p.name)
    except OSError as exc:
        raise UsageError(f"cannot list the folder: {exc.strerror}", path=str(root)) from None
    found: list[Path] = []
    skipped: list[GameOutcome] = []
    for path in entries:
        why = _not_a_record(path)
        if why is None:
            found.append(path)
        else:
            name = _clean(path.name)
            skipped.append(GameOutcome(name, failure=_failure(name, "not-a-record", 2, None, f"{path}: {why}")))
    return found, skipped


def _not_a_record(path: Path) -> str | None:
    """Why ``path`` cannot be read as a record, or None when it is a regular file."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "not read: a symlink to a missing file"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "not read: a symlink loop"
        return f"not read: {exc.strerror}"
    if stat.S_ISDIR(mode):
        return "not read: a folder, not a record"
    if not stat.S_ISREG(mode):
        kind = "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
        return f"not read: {kind}, not a regular file"
    return None


def load_record(path: Path) -> Record:
    """Read a record in the ``.fish`` text form or the JSON form, by extension."""
    if path.suffix.lower() == ".json":
        return record_json.load(path)
    return fish.load(path)


def analyze_file(path: str, lenient: bool = False, reports: str | None = None) -> GameOutcome:
    """Read, replay, analyze and judge one record (the work of one worker process); a lenient
    replay is analyzed up to its last trusted step, its rule breaks among the mistakes.

    With ``reports`` (a folder) the game's report and replay page are written into its own
    subfolder there, named after the record's file.
    """
    name = _clean(Path(path).name)
    try:
        record = load_record(Path(path))
    except HalfsuitError as exc:
        return GameOutcome(name, failure=failure_row(name, exc))
    except (RecursionError, ValueError, MemoryError) as exc:  # input beyond what Python reads
        message = f"{path}: cannot read: {_beyond_limits(exc)}"
        return GameOutcome(name, failure=_failure(name, "unreadable", 2, None, message))
    try:
        game = replay(record, lenient=lenient)
        analysis = judged_analysis(game)[0]
        found = explain_mistakes(analysis, mistakes(analysis)) if reports is not None else mistakes(analysis)
        pages = _pages(game, analysis, found, Path(reports) / name) if reports is not None else ()
        outcome = GameOutcome(
            name,
            game_row(name, game, found),
            [{"file": name, **row} for row in player_rows(game, found)],
            pages=tuple(f"{GAMES}/{name}/{page}" for page in pages),
            breaks=tuple(game.break_lines()),
        )
    except HalfsuitError as exc:
        return GameOutcome(name, failure=failure_row(name, exc))
    except Exception as exc:  # a bug must not sink the batch; it is listed like any failure
        message = f"{path}: internal error: {type(exc).__name__}: {exc}"
        return GameOutcome(name, failure=_failure(name, "internal", 1, None, message))
    bad = _unwritable(outcome)
    if bad is not None:
        message = (
            f"{path}: not summarized: its {bad[0]} holds U+{ord(bad[1]):04X}, half of a surrogate pair, "
            "which the tables (UTF-8) cannot hold"
        )
        return GameOutcome(name, failure=_failure(name, "unwritable", 2, None, message))
    return outcome


def _pages(game: Game, analysis: Analysis, found: MistakeReport, folder: Path) -> tuple[str, ...]:
    """Write the game's report and replay page into ``folder``: their file names."""
    from .report import write_report  # matplotlib: loaded by the workers that write reports only

    try:
        found = quote_odds(analysis, found)
        files = write_report(game, folder, analysis=analysis, found=found)
    except TooLarge:  # a must-declare game too big to count: its pages go without odds
        files = write_report(game, folder, analysis=analysis, odds=False, found=found)
    return (files.html.name, *((files.replay.name,) if files.replay else ()))


def _beyond_limits(exc: RecursionError | ValueError | MemoryError) -> str:
    """Why Python could not read a record, in the reader's words (a bad record, never a bug)."""
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    if isinstance(exc, MemoryError) or "digits" in str(exc):  # an integer of thousands of digits
        return "a value too big to read"
    return str(exc)


def _unwritable(outcome: GameOutcome) -> tuple[str, str] | None:
    """The first field of the outcome's rows with a character UTF-8 cannot encode, and that character."""
    for row in (outcome.game or {}, *outcome.players):
        for key, value in row.items():
            if isinstance(value, str) and value != _clean(value):
                return key, next(c for c in value if "\ud800" <= c <= "\udfff")
    return None


def _clean(text: str) -> str:
    """Text the tables can hold: a lone surrogate (from a file name that is not UTF-8) as ``\\udcff``."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def failure_row(name: str, exc: HalfsuitError) -> dict[str, Any]:
    return _failure(name, exc.code, exc.exit_code, exc.line, str(exc))


def _failure(name: str, code: str, exit_code: int, line: int | None, message: str) -> dict[str, Any]:
    return {"file": name, "code": code, "exit_code": exit_code, "line": line, "message": _clean(message)}


def run_batch(
    folder: str | Path,
    out_dir: str | Path,
    workers: int | None = None,
    progress: Progress | None = None,
    *,
    lenient: bool = False,
    reports: bool = False,
    cluster: str | None = None,
) -> BatchResult:
    """Analyze every record in ``folder`` and write the tables and the summary into ``out_dir``.

    ``workers`` processes share the records (default: one per core; 1 runs them here, in this
    process). ``progress`` is called after each record with (done, total, file name), in the
    order records finish. ``lenient`` reads past rule breaks (each record's breaks counted among
    its mistakes) instead of listing such a record as failed. With ``reports`` each game's report
    and replay page are written under ``games/<file>/`` and the summary links them (this counts
    exact odds for every step of every view: seconds a game). Raises UsageError when the folder
    holds no record, OutputError when
    ``out_dir`` cannot take the outputs (it holds other files, another run is writing it, the
    disk is full...). ``out_dir`` changes only when every output is written: Ctrl-C or an error
    on the way leaves it as it was.

    Workers come from ``analyzer.pool``: safe after threads, stopped at once by Ctrl-C. Where
    the platform has no fork server they are spawned, and a script that calls this with more
    than one worker then needs the usual ``if __name__ == "__main__":`` guard. With ``cluster``
    (``local`` or a Dask scheduler's address, see ``analyzer.cluster``) the records are analyzed
    on the cluster instead, with the same results; its workers must see the records' paths (and,
    with ``reports``, the output folder).
    """
    paths, skipped = find_records(folder)
    if not paths and not skipped:
        raise UsageError("no records to analyze (*.fish, *.json)", path=str(folder))
    if workers is not None and workers < 1:
        raise UsageError(f"--workers must be at least 1, not {workers}")
    check_not_input([out_dir], [folder])
    out = Path(out_dir)
    with published_folder(out, PUBLISHED) as fresh:
        count = min(workers or os.cpu_count() or 1, max(len(paths), 1))
        pages_dir = str(fresh / GAMES) if reports else None
        outcomes = skipped + _run(paths, count, progress, lenient, pages_dir, cluster)
        outcomes.sort(key=lambda o: o.file)
        games = pl.DataFrame([o.game for o in outcomes if o.game], schema=GAME_SCHEMA, orient="row")
        rows = [r for o in outcomes for r in o.players]
        players = pl.DataFrame(rows, schema=PLAYER_GAME_SCHEMA, orient="row")
        failures = pl.DataFrame([o.failure for o in outcomes if o.failure], schema=FAILURE_SCHEMA, orient="row")
        for stem, table in zip(TABLES, (games, players, failures), strict=True):
            for ext, write in (("parquet", table.write_parquet), ("csv", table.write_csv)):
                buffer = io.BytesIO()
                write(buffer)
                write_bytes_atomic(fresh / f"{stem}.{ext}", buffer.getvalue())
        name = Path(folder).resolve().name
        pages = {o.file: o.pages for o in outcomes if o.pages}
        charts = summary_charts(games, players)
        for chart in charts.values():
            write_text_atomic(fresh / chart.file, chart.svg)
        blocks = summary_blocks(name, games, players, failures, DATA_FILES, charts, pages)
        write_text_atomic(fresh / "summary.html", html_page(f"Batch summary: {name}", blocks))
        write_text_atomic(fresh / "summary.md", markdown_page(blocks))
    # The charts a batch has no data for (no claims, no judged player) are not drawn.
    drawn = {chart.file for chart in charts.values()}
    names = [n for n in OUTPUT_NAMES if not n.endswith(".svg") or n in drawn]
    written = [out / n for n in names] + [out / page for o in outcomes for page in o.pages]
    return BatchResult(games, players, failures, tuple(written), tuple(line for o in outcomes for line in o.breaks))


def _run(
    paths: Sequence[Path],
    workers: int,
    progress: Progress | None,
    lenient: bool,
    reports: str | None,
    cluster: str | None = None,
) -> list[GameOutcome]:
    done = [0]

    def each(outcome: GameOutcome) -> None:
        done[0] += 1
        if progress is not None:
            progress(done[0], len(paths), outcome.file)

    job = functools.partial(analyze_file, lenient=lenient, reports=reports)
    items = [str(p) for p in paths]
    if cluster is not None:
        from .cluster import cluster_client, cluster_map

        with cluster_client(cluster, workers) as client:
            return cluster_map(client, job, items, each)
    return process_map(job, items, workers, each)


# ---------------------------------------------------------------- the summary page


def _num(value: object) -> str:
    return "—" if value is None else str(value)


def summary_blocks(
    folder: str,
    games: pl.DataFrame,
    players: pl.DataFrame,
    failures: pl.DataFrame,
    files: Sequence[str],
    charts: dict[str, Chart] | None = None,
    pages: dict[str, tuple[str, ...]] | None = None,
) -> tuple[Block, ...]:
    """The summary page: overview, wins by team, claim accuracy, mistakes, games, failures, files.

    ``charts`` (``summary_charts``) head their sections; ``pages`` link each game to its report
    and replay page (file -> their paths).
    """
    total = games.height + failures.height
    overview = f"{plural(total, 'record')} in {folder}: {games.height} analyzed, {failures.height} failed."
    figures = charts or {}

    def chart(key: str, caption: str) -> tuple[Block, ...]:
        return (Figure(figures[key], (caption,)),) if key in figures else ()

    return (
        Heading(1, (f"Batch summary: {folder}",)),
        Para((overview,), "sub"),
        Section("wins", "Wins by team", (*chart("wins", "Games won, lost and tied by each team."), *_wins(games))),
        Section(
            "claims",
            "Claim accuracy",
            (*chart("claims", "Each player's claims, right and wrong, over every game."), _claims(players)),
        ),
        Section(
            "mistakes",
            "Mistakes per player per game",
            (*chart("mistakes", "Mistakes per judged game (games with the player's Hand line)."), *_mistakes(players)),
        ),
        Section(
            "games",
            "Games",
            (*chart("length", "How many events each game took."), _games(games, pages or {})),
        ),
        Section("failures", "Failures", (_failures(failures),)),
        Section("files", "Data files", (Items(tuple((link(quote(name), name),) for name in files)),)),
    )


def summary_charts(games: pl.DataFrame, players: pl.DataFrame) -> dict[str, Chart]:
    """The summary's charts (none without a game): wins by team, claims and mistakes by player,
    and the games' lengths."""
    if games.is_empty():
        return {}
    charts = {}
    by_team: dict[str, list[int]] = {}
    for r in games.iter_rows(named=True):
        for team in (1, 2):
            row = by_team.setdefault(r[f"team{team}"], [0, 0, 0, 0])
            result = r["result"]
            row[0 if r["winner"] == team else 1 if r["winner"] == 3 - team else 2 if result == "tie" else 3] += 1
    teams = sorted(by_team)
    outcomes = {k: [by_team[t][i] for t in teams] for i, k in enumerate(("won", "lost", "tied", "unfinished"))}
    outcomes = {k: v for k, v in outcomes.items() if any(v) or k in ("won", "lost")}
    charts["wins"] = stacked_bars("summary-wins", teams, outcomes, "games")
    claims = players.group_by("player").agg(pl.col("claims_right").sum(), pl.col("claims_wrong").sum()).sort("player")
    claims = claims.filter(pl.col("claims_right") + pl.col("claims_wrong") > 0)
    if not claims.is_empty():
        series = {
            "right": claims.get_column("claims_right").to_list(),
            "wrong": claims.get_column("claims_wrong").to_list(),
        }
        charts["claims"] = stacked_bars("summary-claims", claims.get_column("player").to_list(), series, "claims")
    judged = players.filter(pl.col("hand")).group_by("player").agg(pl.len().alias("n"), pl.col("mistakes").sum())
    judged = judged.sort("player")
    if not judged.is_empty():
        rates = [
            m / n
            for m, n in zip(judged.get_column("mistakes").to_list(), judged.get_column("n").to_list(), strict=True)
        ]
        names = judged.get_column("player").to_list()
        charts["mistakes"] = stacked_bars(
            "summary-mistakes", names, {"per game": rates}, "mistakes per judged game", ("#b45309",)
        )
    lengths = games.get_column("events").to_list()
    if games.height <= 30:
        files = games.get_column("file").to_list()
        charts["length"] = stacked_bars("summary-length", files, {"events": lengths}, "events", ("#64748b",))
    else:
        charts["length"] = histogram("summary-length", lengths, "events in the game", "games")
    alts = {
        "wins": "Wins by team",
        "claims": "Claims right and wrong by player",
        "mistakes": "Mistakes per player per judged game",
        "length": "Events per game",
    }
    return {key: Chart(f"summary-{key}.svg", svg, alts[key]) for key, svg in charts.items()}


def _wins(games: pl.DataFrame) -> tuple[Block, ...]:
    if games.is_empty():
        return (Para(("No game was analyzed.",)),)
    sides = []
    for us, them in ((1, 2), (2, 1)):
        sides.append(
            games.select(
                pl.col(f"team{us}").alias("team"),
                (pl.col("winner") == us).fill_null(False).alias("win"),
                (pl.col("winner") == them).fill_null(False).alias("loss"),
                (pl.col("result") == "tie").alias("tie"),
                (pl.col("result") == "unfinished").alias("unfinished"),
                pl.col(f"score{us}").alias("points_for"),
                pl.col(f"score{them}").alias("points_against"),
            )
        )
    by_team = (
        pl.concat(sides)
        .group_by("team")
        .agg(
            pl.len().alias("games"),
            pl.col("win").sum(),
            pl.col("loss").sum(),
            pl.col("tie").sum(),
            pl.col("unfinished").sum(),
            pl.col("points_for").sum(),
            pl.col("points_against").sum(),
        )
        .sort("team")
    )
    rows = tuple(
        Row(
            (
                (r["team"],),
                (str(r["games"]),),
                (strong(str(r["win"])),),
                (str(r["loss"]),),
                (str(r["tie"]),),
                (str(r["unfinished"]),),
                (f"{r['points_for']}–{r['points_against']}",),
            )
        )
        for r in by_team.iter_rows(named=True)
    )
    head = (("team",), ("games",), ("won",), ("lost",), ("tied",), ("unfinished",), ("points",))
    results = games.get_column("result").to_list()
    seats = (
        f"By seat: the first team of the Teams line won {results.count('team 1')}, "
        f"the second {results.count('team 2')}; {results.count('tie')} tied, "
        f"{results.count('unfinished')} unfinished."
    )
    return (Table(head, rows, align="lrrrrrr"), Para((seats,)))


def _team_cell(team: int) -> tuple[Inline, ...]:
    return (styled(f"t{team}", f"team {team}"),)


def _claims(players: pl.DataFrame) -> Block:
    claimed = players.filter(pl.col("claims") > 0)
    by_player = (
        claimed.group_by("player").agg(pl.col("claims_right").sum(), pl.col("claims_wrong").sum()).sort("player")
    )
    rows = [
        Row(
            (
                (r["player"],),
                (str(r["claims_right"] + r["claims_wrong"]),),
                (str(r["claims_right"]),),
                (str(r["claims_wrong"]),),
                (rate_text(r["claims_right"], r["claims_right"] + r["claims_wrong"]),),
            )
        )
        for r in by_player.iter_rows(named=True)
    ]
    right = int(players.get_column("claims_right").sum())
    wrong = int(players.get_column("claims_wrong").sum())
    if rows:
        cells = ((strong("all"),), (str(right + wrong),), (str(right),), (str(wrong),))
        rows.append(Row((*cells, (rate_text(right, right + wrong),)), "total"))
    head = (("player",), ("claims",), ("right",), ("wrong",), ("accuracy",))
    return table_or_none(Table(head, tuple(rows), align="lrrrr"), "No claims were made.")


def _mistakes(players: pl.DataFrame) -> tuple[Block, ...]:
    kinds = [kind_key(k) for k in KINDS]
    judged = players.filter(pl.col("hand"))
    per_player = (
        players.group_by("player")
        .agg(pl.len().alias("games"), pl.col("mistakes").sum().alias("all_mistakes"))
        .join(
            judged.group_by("player").agg(
                pl.len().alias("judged"),
                pl.col("mistakes").sum(),
                *(pl.col(k).sum() for k in kinds),
            ),
            on="player",
            how="left",
        )
        .sort("player")
    )
    rows = []
    for r in per_player.iter_rows(named=True):
        n = r["judged"] or 0
        rate = f"{r['mistakes'] / n:.1f}" if n else "—"
        cells = tuple((_num(r[k]),) for k in kinds)
        counts = ((str(r["games"]),), (str(n),), (_num(r["mistakes"]),), (rate,))
        rows.append(Row(((r["player"],), *counts, *cells)))
    head = (
        ("player",), ("games",), ("judged",), ("mistakes",), ("per judged game",),
        *((k.replace("-", " "),) for k in KINDS),
    )  # fmt: skip
    note = Para(
        (
            "A player is judged in a game when their hand is known (a Hand line, or worked out from the record); "
            "mistakes are counted in those games only.",
        )
    )
    table = Table(head, tuple(rows), align="l" + "r" * (len(head) - 1))
    return (note, table_or_none(table, "No players."))


def _games(games: pl.DataFrame, pages: dict[str, tuple[str, ...]]) -> Block:
    rows = []
    for r in games.iter_rows(named=True):
        winner = r["winner"]
        result = (*_team_cell(winner), " wins") if winner is not None else (r["result"],)
        mine = pages.get(r["file"], ())
        links = joined(
            ((link(quote(page), label),) for page, label in zip(mine, ("report", "replay"), strict=False)), " · "
        )
        cells = (
            (r["file"],),
            *((links,) if pages else ()),
            (r["title"] or "",),
            (f"{r['score1']}–{r['score2']}",),
            result,
            (str(r["events"]),),
            (f"{r['claims_right']}/{r['claims']}",),
            (str(r["mistakes"]),),
        )
        rows.append(Row(cells))
    head = (
        ("file",), *((("pages",),) if pages else ()), ("title",), ("score",), ("result",), ("events",),
        ("claims right",), ("mistakes",),
    )  # fmt: skip
    align = "l" + "l" * bool(pages) + "llcrrr"
    return table_or_none(Table(head, tuple(rows), align=align), "No game was analyzed.")


def _failures(failures: pl.DataFrame) -> Block:
    rows = tuple(
        Row(((r["file"],), (r["code"],), (str(r["exit_code"]),), (r["message"],)), "")
        for r in failures.iter_rows(named=True)
    )
    head = (("file",), ("error",), ("exit code",), ("message",))
    return table_or_none(Table(head, rows, align="llrl"), "None: every record was analyzed.")
