"""The deal in hindsight: who was dealt each card, as far as the whole record fixes it.

Every move is public, so a card that has been shown (asked for with a ``yes``, or revealed by a
claim) was dealt to the player it was first shown with, and a card never shown has never moved:
whoever holds it when the record stops was dealt it. So the deal is the record's last position,
with every ``Hand`` line and every event, read back to the deal: the first holder of each shown
card, and the exact holders (``solver``) of each card never shown. A card's dealt holder is
*fixed* when every deal that fits the whole record gives it to the same player; a hand is fixed
when all its cards are.

A hand fixed this way is as good as a ``Hand`` line: the player knew it from the deal on, so
tactics judge them in their own view, marked as worked out from the record.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from .analysis import Analysis, Progress, analyze, analyze_at, solve_position
from .cards import Card
from .knowledge import ViewTracker
from .record import Record
from .replay import Game
from .solver import solve

WHOLE_RECORD = "the Hand lines"  # the name of the view that takes every Hand line at once


@dataclass(frozen=True)
class Hindsight:
    """Who may have been dealt each card, in every deal that fits the record up to ``upto``."""

    record: Record
    upto: int
    dealt: dict[Card, tuple[str, ...]]  # every card of the deck, in deck order; players in seat order

    def fixed(self, player: str) -> tuple[Card, ...]:
        """The cards only ``player`` can have been dealt, in deck order."""
        return tuple(c for c, ps in self.dealt.items() if ps == (player,))

    def hand(self, player: str) -> tuple[Card, ...] | None:
        """The player's whole hand when the record fixes every card of it, else None."""
        cards = self.fixed(player)
        return cards if len(cards) == self.record.deal_sizes[player] else None

    def unknown(self, player: str) -> int:
        """How many of the player's dealt cards the record leaves open."""
        return self.record.deal_sizes[player] - len(self.fixed(player))

    @cached_property
    def worked_out(self) -> dict[str, tuple[Card, ...]]:
        """Players without a Hand line whose whole hand the record fixes, in seat order."""
        found = {}
        for p in self.record.players:
            if p in self.record.hands:
                continue
            cards = self.hand(p)
            if cards is not None:
                found[p] = cards
        return found

    def hand_status(self, player: str) -> str:
        """``written`` (a Hand line), ``worked out`` (fixed by the record) or ``unknown``."""
        if player in self.record.hands:
            return "written"
        return "worked out" if player in self.worked_out else "unknown"

    def filled(self) -> Record:
        """The record with a Hand line for every hand it fixes completely (never a partial one)."""
        hands = {**self.record.hands, **self.worked_out}
        return replace(self.record, hands={p: hands[p] for p in self.record.players if p in hands})

    def to_dict(self) -> dict[str, Any]:
        """Each player's hand as far as it is fixed, and the cards still open with their possible players."""
        players = {}
        for p in self.record.players:
            players[p] = {
                "hand": self.hand_status(p),
                "size": self.record.deal_sizes[p],
                "fixed": [c.code for c in self.fixed(p)],
                "unknown": self.unknown(p),
            }
        open_cards = {c.code: list(ps) for c, ps in self.dealt.items() if len(ps) > 1}
        return {"events": self.upto, "players": players, "open": open_cards}


def deal_in_hindsight(game: Game, upto: int | None = None) -> Hindsight:
    """The deal as the record up to ``upto`` events (default: every trusted event) fixes it.

    Raises Contradiction, naming the first event after which nothing fits, when no deal fits
    every Hand line and event together.
    """
    last = game.trusted_until if upto is None else upto
    record = game.record
    tracker = ViewTracker(game, WHOLE_RECORD, hands=dict(record.hands))
    pos, _ = solve_position(tracker, last)
    unseen = solve(pos).dealt  # never shown, so never moved (or left play unseen): who may have been dealt it
    dealt: dict[Card, tuple[str, ...]] = {}
    for card in record.rules.deck.cards:
        if tracker.reveal.get(card, last + 1) <= last:
            dealt[card] = (tracker.origin[card],)  # shown by then: dealt to whom it was first shown with
        else:
            dealt[card] = unseen[card]
    return Hindsight(record, last, dealt)


def judged_analysis(
    game: Game, upto: int | None = None, workers: int = 1, progress: Progress | None = None
) -> tuple[Analysis, Hindsight]:
    """Every view to judge: public, each Hand line, and each hand the whole record works out.

    The hands are worked out from every trusted event, whatever ``upto`` stops the analysis at:
    a player knew their hand from the deal on. ``progress(done, total)`` as each view is solved.
    """
    hindsight = deal_in_hindsight(game)
    last = game.trusted_until if upto is None else upto
    analysis = analyze(game, upto=last, workers=workers, worked_out=hindsight.worked_out, progress=progress)
    return analysis, hindsight


def judged_at(game: Game, at: int) -> Analysis:
    """Every view to judge, as ``judged_analysis``, solved at step ``at`` alone (``analyze_at``):
    threats and lockouts of one moment, without solving every step before it."""
    return analyze_at(game, at, deal_in_hindsight(game).worked_out)
