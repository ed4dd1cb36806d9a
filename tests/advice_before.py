"""The advice as it was first written, one deal count per question: the reference the faster
``analyzer.advice`` and the ``odds`` bot are checked against (the same numbers, the same moves).

It counts the deals after every ask it weighs (the bits given away, card by card) and three
times per book for the claims; ``analyzer.advice`` now gets the same integers from fewer counts.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

from analyzer.advice import Advice, AskAdvice, ClaimAdvice
from analyzer.analysis import solve_position
from analyzer.bots import AskMove, BotView, ClaimMove, Move, best_guess, certain_claim
from analyzer.cards import Card
from analyzer.errors import UsageError
from analyzer.information import asker_side
from analyzer.knowledge import PUBLIC, Position, ViewTracker, resolve_view
from analyzer.odds import Odds, card_odds, count_deals, information
from analyzer.record import Ask
from analyzer.replay import Game
from analyzer.rules import PlayState, can_ask
from analyzer.solver import NoFit, solve
from analyzer.tactics import threatened


def suggest_before(game: Game, player: str, at: int) -> Advice:
    record = game.record
    name = resolve_view(record, player)
    if name == PUBLIC:
        raise UsageError("advice is for a player: name one with --as", path=record.path)
    state = game.play_state(at)
    if state.over:
        raise UsageError(f"the game is over {record.after_label(at)}", path=record.path)
    if state.turn is not None and state.turn != name:
        raise UsageError(f"{name} is not on turn {record.after_label(at)}: it is {state.turn}'s turn", path=record.path)
    mine, _ = solve_position(ViewTracker(game, name), at)
    odds = card_odds(mine)
    public = ViewTracker(game, PUBLIC).position(at)
    return Advice(name, at, odds.deals, _asks(game, name, state, mine, odds, public), _claims(game, name, mine, odds))


def _asks(game: Game, player: str, state: PlayState, mine: Position, odds: Odds, public: Position) -> list[AskAdvice]:
    record = game.record
    holders = solve(mine).holders
    public_deals = count_deals(public)
    threats = {o: books for o in record.table.opponents(player) if (books := threatened(game, holders, o))}
    hand = {c for c, h in holders.items() if h == (player,)}
    books = [b for b in record.rules.deck.books if any(c in hand for c in b.cards)]
    found = []
    for book in books:
        for card in book.cards:
            if card not in holders or card in hand:
                continue
            ask = Ask(player, player, card, False)
            given = information(public_deals, count_deals(asker_side(public, ask, record.rules.bluffing)))
            for target in record.table.opponents(player):
                if not can_ask(state, player, target, book):
                    continue
                chance = odds.cards[card].get(target, Fraction(0))
                warning = None
                if target in threats and chance < 1:
                    taken = ", ".join(b.pretty for b in threats[target])
                    warning = f"if this fails, {target} gets the turn and can take {taken}"
                found.append(AskAdvice(target, card, chance, given, warning))
    found.sort(key=lambda a: (-a.odds, a.warning is not None, a.given, a.card.code, a.target))
    return found


def _claims(game: Game, player: str, mine: Position, odds: Odds) -> list[ClaimAdvice]:
    table = game.record.table
    team = set(table.teammates(player))
    found = []
    for book in game.record.rules.deck.books:
        cards = [c for c in book.cards if c in odds.cards]
        if not cards or any(c in mine.known and mine.known[c] not in team for c in cards):
            continue
        unknown = [c for c in cards if c not in mine.known]
        try:
            in_team_pos = _restrict(mine, {c: tuple(p for p in mine.allowed[c] if p in team) for c in unknown})
            team_deals = count_deals(in_team_pos)
        except NoFit:
            continue
        team_odds = card_odds(in_team_pos)
        best = {c: mine.known[c] if c in mine.known else _likeliest(team_odds, c) for c in cards}
        try:
            right_deals = count_deals(_restrict(mine, {c: (best[c],) for c in unknown}))
        except NoFit:
            continue
        found.append(ClaimAdvice(book, best, Fraction(right_deals, odds.deals), Fraction(team_deals, odds.deals)))
    found.sort(key=lambda c: (-c.right, c.book.name))
    return found


def _likeliest(odds: Odds, card: Card) -> str:
    share = odds.cards[card]
    return max(share, key=lambda p: share[p])


def _restrict(pos: Position, narrowed: dict[Card, tuple[str, ...]]) -> Position:
    allowed = dict(pos.allowed)
    for c, ps in narrowed.items():
        if not ps:
            raise NoFit(f"nobody on the team can hold {c}")
        allowed[c] = ps
    allowed_pos = replace(pos, allowed=allowed)
    return allowed_pos


class OddsBotBefore:
    """The ``odds`` bot as first written: the whole of ``suggest`` at every decision."""

    name = "odds"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def move(self, view: BotView) -> Move:
        sure = certain_claim(view)
        if sure is not None:
            return sure
        if view.must_claim:
            return self._best_claim(view)
        advice = suggest_before(view.game, view.player, view.at)
        if advice.asks and advice.asks[0].odds > 0:
            best = advice.asks[0]
            return AskMove(best.target, best.card)
        return self._best_claim(view)

    def _best_claim(self, view: BotView) -> ClaimMove:
        if view.game.play_state(view.at).turn in (None, view.player):
            claims = suggest_before(view.game, view.player, view.at).claims
            if claims:
                return ClaimMove(claims[0].book, dict(claims[0].holders))
        return best_guess(view, self.rng)
