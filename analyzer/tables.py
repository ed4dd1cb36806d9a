"""Tables of a game as polars DataFrames, for notebooks: holders and odds (one row per step, view,
card and player), events (one row per event), players (one row per player).

Every table converts with ``.to_pandas()`` once the ``pandas`` extra is installed
(``pip install 'halfsuit[pandas]'``).

    >>> from analyzer import load, replay, analyze
    >>> game = replay(load("sample_logs/lockout.fish"))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from .analysis import Analysis, Progress, counter
from .knowledge import PUBLIC, ViewTracker
from .record import Ask, Claim, Pass
from .replay import Game
from .stats import player_stats
from .tactics import MistakeReport, mistakes

HOLDERS_SCHEMA: dict[str, Any] = {
    "step": pl.Int64,
    "view": pl.String,
    "card": pl.String,
    "player": pl.String,
    "possible": pl.Boolean,
    "known": pl.Boolean,
}
ODDS_SCHEMA: dict[str, Any] = {
    "step": pl.Int64,
    "view": pl.String,
    "card": pl.String,
    "player": pl.String,
    "odds": pl.Float64,
    "exact": pl.String,  # the fraction, "3/7" (numerators and denominators outgrow 64 bits)
}
EVENT_SCHEMA: dict[str, Any] = {
    "event": pl.Int64,  # its place: the step after it in the holders and odds tables
    "number": pl.Int64,  # the number the record gives it, as every text names it ("event 24")
    "line": pl.Int64,
    "kind": pl.String,
    "player": pl.String,
    "target": pl.String,
    "card": pl.String,
    "yes": pl.Boolean,
    "book": pl.String,
    "outcome": pl.String,
    "turn": pl.String,
    "score1": pl.Int64,
    "score2": pl.Int64,
    "comment": pl.String,
}


def holders_table(analysis: Analysis) -> pl.DataFrame:
    """Every card in play at every step in every view, with each player: may they hold it, is it
    known to be theirs.

    >>> t = holders_table(analyze(game))
    >>> t.filter(step=11, view="public", card="7S", possible=True).select("player", "known").rows()
    [('Eli', True)]
    """
    game = analysis.game
    players = game.record.players
    rows = [
        (step, name, card.code, p, p in h, h == (p,))
        for name, view in analysis.views.items()
        for step, holders in enumerate(view.holders)
        for card, h in holders.items()
        for p in players
    ]
    return pl.DataFrame(rows, schema=HOLDERS_SCHEMA, orient="row")


def odds_table(
    game: Game,
    views: Sequence[str] = (PUBLIC,),
    steps: Sequence[int] | None = None,
    progress: Progress | None = None,
) -> pl.DataFrame:
    """Exact odds of every card in play for every player, at each of ``steps`` (default: every
    step) in each of ``views``; ``progress(done, total)`` after each (view, step) counted.

    >>> t = odds_table(game, steps=[3])
    >>> t.filter(pl.col("card") == "2S", pl.col("odds") > 0).select("player", "odds").rows()
    [('Anna', 0.34...), ('Ben', 0.32...), ('Eli', 0.32...)]
    """
    from .odds import card_odds

    chosen = (
        list(range(len(game.events) + 1)) if steps is None else [game.checked_step(s, option="steps: ") for s in steps]
    )
    tick = counter(len(views) * len(chosen), progress)
    players = game.record.players
    rows = []
    for name in views:
        tracker = ViewTracker(game, name)
        for step in chosen:
            for card, share in card_odds(tracker.position(step)).cards.items():
                for p in players:
                    f = share.get(p)
                    exact = "0" if f is None else str(f)
                    rows.append((step, tracker.view, card.code, p, 0.0 if f is None else float(f), exact))
            if tick is not None:
                tick(step)
    return pl.DataFrame(rows, schema=ODDS_SCHEMA, orient="row")


def events_table(game: Game) -> pl.DataFrame:
    """One row per event: its place (``event``, the step after it) and the number the record
    gives it (``number``, as the command line names it), who did what, the turn and the score
    after it, its comment.

    >>> t = events_table(game)
    >>> t.row(11, named=True)["kind"], t.row(11, named=True)["player"], t.row(11, named=True)["turn"]
    ('ask', 'Ben', 'Eli')
    """
    rows = []
    numbers = game.numbers
    for n, e in enumerate(game.events, start=1):
        step = game.step(n)
        row: dict[str, Any] = {"event": n, "number": numbers[n - 1], "line": e.line, "turn": step.turn}
        row["comment"] = e.comment
        row["score1"], row["score2"] = step.score
        if isinstance(e, Ask):
            row |= {"kind": "ask", "player": e.asker, "target": e.target, "card": e.card.code, "yes": e.yes}
        elif isinstance(e, Claim):
            outcome = step.books[e.book.name].outcome.value
            row |= {"kind": "claim", "player": e.claimant, "book": e.book.name, "outcome": outcome}
        elif isinstance(e, Pass):
            row |= {"kind": "pass", "player": e.player, "target": e.to}
        rows.append(row)
    return pl.DataFrame(rows, schema=EVENT_SCHEMA)


def players_table(analysis: Analysis, found: MistakeReport | None = None) -> pl.DataFrame:
    """One row per player: team, asks, claims right and wrong, mistakes by kind.

    >>> t = players_table(analyze(game))
    >>> t.filter(player="Ben").select("team", "mistakes").row(0)
    (1, 1)
    """
    return player_stats(analysis.game, mistakes(analysis) if found is None else found)
