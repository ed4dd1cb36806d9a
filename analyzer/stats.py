"""The numbers of one game: a row for the game, a row per player, as plain data.

Reports show them for one game; batches gather them over many (in worker processes, so the rows
are plain dicts) into polars tables whose columns are named here with their polars types
(``polars_schema``). Counting is from the public events, plus the mistakes found by ``tactics``.
Polars loads only where a table is made: a report needs the rows alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .record import Ask, Claim
from .replay import Game
from .rules import Outcome
from .tactics import KINDS, MistakeReport

if TYPE_CHECKING:
    import polars as pl


def kind_key(kind: str) -> str:
    """A mistake kind as a column name: ``missed-claim`` becomes ``missed_claim``."""
    return kind.replace("-", "_")


PLAYER_COLUMNS: dict[str, str] = {
    "player": "String",
    "team": "Int64",
    "hand": "Boolean",
    "asks": "Int64",
    "asks_yes": "Int64",
    "ask_rate": "Float64",
    "cards_won": "Int64",
    "cards_lost": "Int64",
    "claims": "Int64",
    "claims_right": "Int64",
    "claims_wrong": "Int64",
    "mistakes": "Int64",
    **{kind_key(k): "Int64" for k in KINDS},
}


def player_rows(game: Game, found: MistakeReport) -> list[dict[str, Any]]:
    """One row per player in seat order (keys of ``PLAYER_COLUMNS``), as plain data.

    Asks answered yes win a card from the target; claims are right or wrong (a forfeited claim
    is wrong); mistakes are counted in total and by kind.
    """
    table = game.record.table
    rows: dict[str, dict[str, Any]] = {}
    for p in game.record.players:
        counts: dict[str, Any] = dict.fromkeys(PLAYER_COLUMNS, 0)
        counts.update(player=p, team=table.team_of(p), hand=p in game.record.hands or p in found.worked_out)
        rows[p] = counts
    for e in game.events:
        if isinstance(e, Ask):
            rows[e.asker]["asks"] += 1
            if e.yes:
                rows[e.asker]["asks_yes"] += 1
                rows[e.asker]["cards_won"] += 1
                rows[e.target]["cards_lost"] += 1
        elif isinstance(e, Claim):
            rows[e.claimant]["claims"] += 1
            rows[e.claimant]["claims_right" if e.correct else "claims_wrong"] += 1
    for m in found.mistakes:
        if m.player in rows:
            rows[m.player]["mistakes"] += 1
            rows[m.player][kind_key(m.kind)] += 1
    for r in rows.values():
        r["ask_rate"] = r["asks_yes"] / r["asks"] if r["asks"] else None
    return list(rows.values())


def player_stats(game: Game, found: MistakeReport) -> pl.DataFrame:
    """``player_rows`` as a polars table with the columns of ``PLAYER_COLUMNS``."""
    import polars as pl

    return pl.DataFrame(player_rows(game, found), schema=polars_schema(PLAYER_COLUMNS), orient="row")


def polars_schema(columns: Mapping[str, str]) -> dict[str, Any]:
    """Columns named with their polars types (``PLAYER_COLUMNS``, ``GAME_COLUMNS``) as a polars schema."""
    import polars as pl

    return {name: getattr(pl, kind) for name, kind in columns.items()}


def rate_text(part: int, whole: int) -> str:
    """``12/20 (60%)``, or ``—`` when there is nothing to rate."""
    return f"{part}/{whole} ({part / whole:.0%})" if whole else "—"


GAME_COLUMNS: dict[str, str] = {
    "file": "String",
    "title": "String",
    "date": "String",
    "rules": "String",
    "deck": "String",
    "players": "Int64",
    "team1": "String",
    "team2": "String",
    "hands": "Int64",
    "events": "Int64",
    "finished": "Boolean",
    "score1": "Int64",
    "score2": "Int64",
    "winner": "Int64",  # 1 or 2; null for a tie or an unfinished game
    "result": "String",  # "team 1", "team 2", "tie" or "unfinished"
    "claims": "Int64",
    "claims_right": "Int64",
    "claims_wrong": "Int64",
    "forfeited": "Int64",
    "mistakes": "Int64",
    "unjudged": "String",  # players without a Hand line, space-separated
}


def game_row(name: str, game: Game, found: MistakeReport) -> dict[str, Any]:
    """One game's row (keys of ``GAME_COLUMNS``)."""
    record = game.record
    a, b = game.final.score
    winner = game.winner() if game.finished else None
    result = "tie" if winner is None else f"team {winner}"
    if not game.finished:
        result = "unfinished"
    claims = [e for e in game.events if isinstance(e, Claim)]
    outcomes = [r.outcome for r in game.final.books.values()]
    return {
        "file": name,
        "title": record.info.get("Title"),
        "date": record.info.get("Date"),
        "rules": record.rules.rule_set.value,
        "deck": record.rules.deck_kind.value,
        "players": len(record.players),
        "team1": " ".join(record.table.teams[0]),
        "team2": " ".join(record.table.teams[1]),
        "hands": len(record.hands),
        "events": len(game.events),
        "finished": game.finished,
        "score1": a,
        "score2": b,
        "winner": winner,
        "result": result,
        "claims": len(claims),
        "claims_right": sum(1 for c in claims if c.correct),
        "claims_wrong": sum(1 for c in claims if not c.correct),
        "forfeited": outcomes.count(Outcome.FORFEITED),
        "mistakes": len(found.mistakes),
        "unjudged": " ".join(found.unjudged),
    }
