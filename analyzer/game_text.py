"""A game's players, teams, score and events in words, as inline runs for pages.

The report, the replay page and the batch summary say these things the same way: players in
their team's colour, cards with suit symbols. Only the light ``render`` model is needed, so the
replay page can use it without loading the report's charting libraries.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .cards import Card
from .record import Ask, Event, Holding, Pass
from .replay import Game

if TYPE_CHECKING:  # the page model loads with the functions that build runs (left_play needs none)
    from .render import Inline


def who(game: Game, player: str) -> Inline:
    """A player's name in the team's colour."""
    from .render import styled

    return styled(f"t{game.record.table.team_of(player)}", player)


def names(game: Game, players: Iterable[str]) -> tuple[Inline, ...]:
    from .render import joined

    return joined((who(game, p),) for p in players)


def team_label(game: Game, team: int) -> tuple[Inline, ...]:
    """``team 1 (Anna, Ben, Cara)`` with the team's colour."""
    from .render import styled

    players = game.record.table.teams[team - 1]
    return (styled(f"t{team}", f"team {team}"), f" ({', '.join(players)})")


def score_text(game: Game) -> str:
    """``5–3``, ``4–4 tie``, or ``2–1 so far`` for an unfinished record (first team first)."""
    a, b = game.final.score
    score = f"{a}–{b}"
    if not game.finished:
        return f"{score} so far"
    return f"{score} tie" if a == b else score


def left_play(game: Game, n: int, card: Card) -> str | None:
    """``2♠ left play when low spades was claimed at event 15`` once the card's book is claimed
    by step ``n`` (the event as the file numbers it); else None."""
    claimed = next((r for r in game.step(n).books.values() if card in r.book.cards), None)
    if claimed is None:
        return None
    return f"{card.pretty} left play when {claimed.book.pretty} was claimed at {game.record.event_label(claimed.event)}"


def kind_text(kind: str) -> str:
    """A mistake kind or book name in words: ``missed-claim`` is ``missed claim``."""
    return kind.replace("-", " ")


def _holding(game: Game, holding: Holding) -> tuple[Inline, ...]:
    from .render import joined

    return joined((who(game, p), " ", " ".join(c.pretty for c in cards)) for p, cards in holding)


def event_inline(game: Game, event: Event) -> tuple[Inline, ...]:
    """An event in words, players in their team's colour, cards with suit symbols."""
    from .render import styled

    if isinstance(event, Ask):
        card = f" for {event.card.pretty}"
        return (who(game, event.asker), " asks ", who(game, event.target), card)
    if isinstance(event, Pass):
        return (who(game, event.player), " passes to ", who(game, event.to))
    text: tuple[Inline, ...] = (who(game, event.claimant), f" claims {event.book.pretty}: ")
    text += _holding(game, event.said)
    if not event.correct:
        if event.actual is not None:
            text += (styled("muted", "; actually "), *_holding(game, event.actual))
        else:
            text += (styled("muted", "; the split was not written down"),)
    return text
