"""Many games at once: analyze every record in a folder on all cores, and summarize them.

Each record (``*.fish`` or ``*.json`` directly in the folder) is read, replayed strictly,
analyzed and judged for mistakes in a worker process. The results become three tables, written
as Parquet and CSV: one row per game, one per player and game, one per record that failed
(malformed, against the rules, or contradicting itself; its error is kept as ``FILE:LINE:
message``). A summary page (HTML and Markdown) gives wins by team, claim accuracy and mistakes
per player per game, and lists the failures. A failed record never stops the others, and
every output is ordered by file name, so the same folder always gives the same files.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from . import record as fish
from . import record_json
from .analysis import analyze
from .errors import HalfsuitError, UsageError
from .pool import process_map
from .record import Record
from .render import (
    Block,
    Heading,
    Inline,
    Items,
    Para,
    Row,
    Section,
    Table,
    html_page,
    markdown_page,
    strong,
    styled,
    table_or_none,
)
from .replay import replay
from .stats import GAME_SCHEMA, PLAYER_SCHEMA, game_row, kind_key, player_rows, rate_text
from .tactics import KINDS, mistakes
from .wording import plural

RECORD_SUFFIXES = (".fish", ".json")
Progress = Callable[[int, int, str], None]  # (records done, records in all, file just done)

PLAYER_GAME_SCHEMA: dict[str, Any] = {"file": pl.String, **PLAYER_SCHEMA}
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


@dataclass(frozen=True)
class BatchResult:
    """The tables of a batch, ordered by file name, and the files written."""

    games: pl.DataFrame
    players: pl.DataFrame
    failures: pl.DataFrame
    files: tuple[Path, ...]

    @property
    def total(self) -> int:
        return self.games.height + self.failures.height

    @property
    def failed(self) -> int:
        return self.failures.height


def find_records(folder: str | Path) -> list[Path]:
    """The records directly in ``folder``, by file name."""
    root = Path(folder)
    if not root.is_dir():
        raise UsageError("not a folder", path=str(root))
    found = [p for p in root.iterdir() if p.is_file() and p.suffix.lower() in RECORD_SUFFIXES]
    return sorted(found, key=lambda p: p.name)


def load_record(path: Path) -> Record:
    """Read a record in the ``.fish`` text form or the JSON form, by extension."""
    if path.suffix.lower() == ".json":
        return record_json.load(path)
    return fish.load(path)


def analyze_file(path: str) -> GameOutcome:
    """Read, replay, analyze and judge one record (the work of one worker process)."""
    name = Path(path).name
    try:
        game = replay(load_record(Path(path)))
        found = mistakes(analyze(game))
    except HalfsuitError as exc:
        return GameOutcome(name, failure=failure_row(name, exc))
    except Exception as exc:  # a bug must not sink the batch; it is listed like any failure
        message = f"{path}: internal error: {type(exc).__name__}: {exc}"
        return GameOutcome(name, failure=_failure(name, "internal", 1, None, message))
    players = [{"file": name, **row} for row in player_rows(game, found)]
    return GameOutcome(name, game_row(name, game, found), players)


def failure_row(name: str, exc: HalfsuitError) -> dict[str, Any]:
    return _failure(name, exc.code, exc.exit_code, exc.line, str(exc))


def _failure(name: str, code: str, exit_code: int, line: int | None, message: str) -> dict[str, Any]:
    return {"file": name, "code": code, "exit_code": exit_code, "line": line, "message": message}


def run_batch(
    folder: str | Path,
    out_dir: str | Path,
    workers: int | None = None,
    progress: Progress | None = None,
) -> BatchResult:
    """Analyze every record in ``folder`` and write the tables and the summary into ``out_dir``.

    ``workers`` processes share the records (default: one per core; 1 runs them here, in this
    process). ``progress`` is called after each record with (done, total, file name), in the
    order records finish. Raises UsageError when the folder holds no record.

    Workers come from ``analyzer.pool``: safe after threads, stopped at once by Ctrl-C. Where
    the platform has no fork server they are spawned, and a script that calls this with more
    than one worker then needs the usual ``if __name__ == "__main__":`` guard.
    """
    paths = find_records(folder)
    if not paths:
        raise UsageError("no records to analyze (*.fish, *.json)", path=str(folder))
    if workers is not None and workers < 1:
        raise UsageError(f"--workers must be at least 1, not {workers}")
    count = min(workers or os.cpu_count() or 1, len(paths))
    outcomes = _run(paths, count, progress)
    outcomes.sort(key=lambda o: o.file)
    games = pl.DataFrame([o.game for o in outcomes if o.game], schema=GAME_SCHEMA, orient="row")
    players = pl.DataFrame([r for o in outcomes for r in o.players], schema=PLAYER_GAME_SCHEMA, orient="row")
    failures = pl.DataFrame([o.failure for o in outcomes if o.failure], schema=FAILURE_SCHEMA, orient="row")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for stem, table in (("games", games), ("players", players), ("failures", failures)):
        table.write_parquet(out / f"{stem}.parquet")
        table.write_csv(out / f"{stem}.csv")
        written += [out / f"{stem}.parquet", out / f"{stem}.csv"]
    name = Path(folder).resolve().name
    blocks = summary_blocks(name, games, players, failures, [p.name for p in written])
    for path, text in (
        (out / "summary.html", html_page(f"Batch summary: {name}", blocks)),
        (out / "summary.md", markdown_page(blocks)),
    ):
        with path.open("w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        written.append(path)
    return BatchResult(games, players, failures, tuple(written))


def _run(paths: Sequence[Path], workers: int, progress: Progress | None) -> list[GameOutcome]:
    done = [0]

    def each(outcome: GameOutcome) -> None:
        done[0] += 1
        if progress is not None:
            progress(done[0], len(paths), outcome.file)

    return process_map(analyze_file, [str(p) for p in paths], workers, each)


# ---------------------------------------------------------------- the summary page


def _num(value: object) -> str:
    return "—" if value is None else str(value)


def summary_blocks(
    folder: str,
    games: pl.DataFrame,
    players: pl.DataFrame,
    failures: pl.DataFrame,
    files: Sequence[str],
) -> tuple[Block, ...]:
    """The summary page: overview, wins by team, claim accuracy, mistakes, games, failures."""
    total = games.height + failures.height
    overview = f"{plural(total, 'record')} in {folder}: {games.height} analyzed, {failures.height} failed."
    return (
        Heading(1, (f"Batch summary: {folder}",)),
        Para((overview,), "sub"),
        Section("wins", "Wins by team", _wins(games)),
        Section("claims", "Claim accuracy", (_claims(players),)),
        Section("mistakes", "Mistakes per player per game", _mistakes(players)),
        Section("games", "Games", (_games(games),)),
        Section("failures", "Failures", (_failures(failures),)),
        Section("files", "Data files", (Items(tuple((name,) for name in files)),)),
    )


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
        ("A player is judged in a game when the record has their Hand line; mistakes are counted in those games only.",)
    )
    table = Table(head, tuple(rows), align="l" + "r" * (len(head) - 1))
    return (note, table_or_none(table, "No players."))


def _games(games: pl.DataFrame) -> Block:
    rows = []
    for r in games.iter_rows(named=True):
        winner = r["winner"]
        result = (*_team_cell(winner), " wins") if winner is not None else (r["result"],)
        cells = (
            (r["file"],),
            (r["title"] or "",),
            (f"{r['score1']}–{r['score2']}",),
            result,
            (str(r["events"]),),
            (f"{r['claims_right']}/{r['claims']}",),
            (str(r["mistakes"]),),
        )
        rows.append(Row(cells))
    head = (
        ("file",), ("title",), ("score",), ("result",), ("events",), ("claims right",),
        ("mistakes",),
    )  # fmt: skip
    return table_or_none(Table(head, tuple(rows), align="lllcrrr"), "No game was analyzed.")


def _failures(failures: pl.DataFrame) -> Block:
    rows = tuple(
        Row(((r["file"],), (r["code"],), (str(r["exit_code"]),), (r["message"],)), "")
        for r in failures.iter_rows(named=True)
    )
    head = (("file",), ("error",), ("exit code",), ("message",))
    return table_or_none(Table(head, rows, align="llrl"), "None: every record was analyzed.")
