"""Advice for the player on turn: every legal ask ranked by its exact odds, and the claims worth making.

Everything is judged in the player's own view (their hand and the public events). For each ask
it gives the odds that the target holds the card, the bits the ask would give away about the
asker's hand (in the public view), and a warning when a failure would hand the turn to an
opponent who could then take a book. For claims it gives the exact odds that a declaration is
right when it is not certain.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from .analysis import solve_position
from .cards import Book, Card
from .errors import UsageError
from .information import asker_side
from .knowledge import PUBLIC, Position, ViewTracker, resolve_view
from .odds import Odds, card_odds, count_deals, information
from .record import Ask
from .replay import Game
from .rules import PlayState, can_ask
from .solver import NoFit, solve
from .tactics import Claimable, exact_text, threatened


@dataclass(frozen=True)
class AskAdvice:
    target: str
    card: Card
    odds: Fraction
    given: float  # bits this ask gives away about the asker's hand, publicly
    warning: str | None

    def to_dict(self) -> dict[str, object]:
        return {
            "target": self.target,
            "card": self.card.code,
            "odds": exact_text(self.odds),
            "bits_given": round(self.given, 3),
            "warning": self.warning,
        }


@dataclass(frozen=True)
class ClaimAdvice:
    book: Book
    holders: dict[Card, str]  # the most likely declaration
    right: Fraction  # odds that this declaration is right
    in_team: Fraction  # odds that every card of the book is with the team

    def declaration(self, speaker: str) -> str:
        return Claimable(self.book, 0, self.holders).declaration(speaker)

    def to_dict(self) -> dict[str, object]:
        return {
            "book": self.book.name,
            "holders": {c.code: p for c, p in self.holders.items()},
            "odds_right": exact_text(self.right),
            "odds_in_team": exact_text(self.in_team),
            "certain": self.right == 1,
        }


@dataclass(frozen=True)
class Advice:
    player: str
    at: int
    deals: int
    asks: list[AskAdvice]
    claims: list[ClaimAdvice]


def suggest(game: Game, player: str, at: int) -> Advice:
    """Ranked asks and claims for ``player``, who must be on turn after ``at`` events."""
    record = game.record
    name = resolve_view(record, player)
    if name == PUBLIC:
        raise UsageError("advice is for a player: name one with --as", path=record.path)
    state = game.play_state(at)
    if state.over:
        raise UsageError(f"the game is over {record.after_label(at)}", path=record.path)
    if state.turn is not None and state.turn != name:
        raise UsageError(f"{name} is not on turn {record.after_label(at)}: it is {state.turn}'s turn", path=record.path)
    mine, _ = solve_position(ViewTracker(game, name), at)  # a contradiction, with its event
    odds = card_odds(mine)
    public = ViewTracker(game, PUBLIC).position(at)
    return Advice(name, at, odds.deals, _asks(game, name, state, mine, odds, public), _claims(game, name, mine, odds))


def _asks(game: Game, player: str, state: PlayState, mine: Position, odds: Odds, public: Position) -> list[AskAdvice]:
    """Every ask the rules let the player make (``rules.can_ask``: the one rule the replay uses)."""
    record = game.record
    holders = solve(mine).holders
    public_deals = count_deals(public)
    # What an opponent could take if given the turn, as far as the player can see.
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
    return replace(pos, allowed=allowed)
