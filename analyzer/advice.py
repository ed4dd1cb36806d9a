"""Advice for the player on turn: every legal ask ranked by its exact odds, and the claims worth making.

Everything is judged in the player's own view (their hand and the public events). For each ask
it gives the odds that the target holds the card, the bits the ask would give away about the
asker's hand (in the public view), and a warning when a failure would hand the turn to an
opponent who could then take a book. For claims it gives the exact odds that a declaration is
right when it is not certain.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property

from .analysis import Holders, solve_position
from .cards import Book, Card
from .errors import UsageError
from .information import asker_side
from .knowledge import PUBLIC, Position, ViewTracker, resolve_view
from .odds import Odds, TooLarge, card_odds, count_deals, information
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
    adviser = Adviser(game, player, at)
    return Advice(adviser.player, at, adviser.odds.deals, adviser.asks(), adviser.claims())


_BATCH_GIVEN = 4  # from this many cards, the bits given away come from the public odds and a count per book


@dataclass(frozen=True)
class AskOption:
    """A legal ask with its odds and lockout warning, before its bits given away are counted."""

    target: str
    card: Card
    odds: Fraction
    warning: str | None


class Adviser:
    """The advice for the player on turn, counted only as far as each question needs.

    ``asks()`` and ``claims()`` are ``suggest``'s lists (or their first entries, ``top`` and
    ``least``); ``best_ask()`` and ``best_claim()`` are their first entries, found with fewer
    deal counts (the bits given away only for the asks tied on odds and warning, the claims only
    of the books that can still come first). Every number is the one a count per question gives:
    the bits of many asks come from the public odds and one count per book (``_middles``), cards
    the public view cannot tell apart are counted once (``_twin``), and a claim reuses odds
    already counted. ``mine`` and ``holders`` may be passed in when the caller has them (the
    player's position after ``at`` events and ``solve``'s holders of it).
    """

    def __init__(
        self, game: Game, player: str, at: int, mine: Position | None = None, holders: Holders | None = None
    ) -> None:
        record = game.record
        name = resolve_view(record, player)
        if name == PUBLIC:
            raise UsageError("advice is for a player: name one with --as", path=record.path)
        state = game.play_state(at)
        if state.over:
            raise UsageError(f"the game is over {record.after_label(at)}", path=record.path)
        if state.turn is not None and state.turn != name:
            raise UsageError(
                f"{name} is not on turn {record.after_label(at)}: it is {state.turn}'s turn", path=record.path
            )
        if mine is None:
            mine, holders = solve_position(ViewTracker(game, name), at)  # a contradiction, with its event
        elif holders is None:
            holders = solve(mine).holders
        assert holders is not None
        self.game, self.player, self.at = game, name, at
        self.state: PlayState = state
        self.mine, self.holders = mine, holders
        self._given: dict[Card, float] = {}

    @cached_property
    def odds(self) -> Odds:
        return card_odds(self.mine)

    @cached_property
    def public(self) -> Position:
        return ViewTracker(self.game, PUBLIC).position(self.at)

    @cached_property
    def public_odds(self) -> Odds:
        return card_odds(self.public)

    @cached_property
    def public_deals(self) -> int:
        if "public_odds" in self.__dict__:
            return self.public_odds.deals
        return count_deals(self.public)

    @cached_property
    def threats(self) -> dict[str, list[Book]]:
        """What an opponent could take if given the turn, as far as the player can see."""
        opponents = self.game.record.table.opponents(self.player)
        return {o: books for o in opponents if (books := threatened(self.game, self.holders, o))}

    # -- asks

    @cached_property
    def _asked(self) -> list[Card]:
        """The cards the player may ask for: not held, in a book they hold, in play."""
        holders = self.holders
        hand = {c for c, h in holders.items() if h == (self.player,)}
        books = [b for b in self.game.record.rules.deck.books if any(c in hand for c in b.cards)]
        return [c for b in books for c in b.cards if c in holders and c not in hand]

    def options(self) -> list[AskOption]:
        """Every ask the rules let the player make (``rules.can_ask``: the one rule the replay uses)."""
        record = self.game.record
        opponents = record.table.opponents(self.player)
        found = []
        for card in self._asked:
            book = record.rules.deck.book_of(card)
            for target in opponents:
                if not can_ask(self.state, self.player, target, book):
                    continue
                chance = self.odds.cards[card].get(target, Fraction(0))
                warning = None
                if target in self.threats and chance < 1:
                    taken = ", ".join(b.pretty for b in self.threats[target])
                    warning = f"if this fails, {target} gets the turn and can take {taken}"
                found.append(AskOption(target, card, chance, warning))
        return found

    def asks(self, top: int | None = None) -> list[AskAdvice]:
        """Every legal ask, best first: likeliest, then without a warning, then the fewest bits given
        away. With ``top``, only the first ``top`` of them, the bits counted only for the asks that
        could be among them."""
        options = self.options()
        if top is not None and 0 < top < len(options):
            ranks = sorted((-o.odds, o.warning is not None) for o in options)
            last = ranks[top - 1]
            options = [o for o in options if (-o.odds, o.warning is not None) <= last]
        given = self.given([o.card for o in options])
        found = [AskAdvice(o.target, o.card, o.odds, given[o.card], o.warning) for o in options]
        found.sort(key=lambda a: (-a.odds, a.warning is not None, a.given, a.card.code, a.target))
        return found if top is None else found[:top]

    def best_ask(self) -> AskOption | None:
        """The ask ``asks()`` ranks first (None when no ask is legal); bits are counted only to
        break a tie of odds and warning between different cards."""
        options = self.options()
        if not options:
            return None
        top = min((-o.odds, o.warning is not None) for o in options)
        tied = [o for o in options if (-o.odds, o.warning is not None) == top]
        if len({o.card for o in tied}) == 1 or len({self._twin(o.card) for o in tied}) == 1:
            return min(tied, key=lambda o: (o.card.code, o.target))  # the same bits given away
        given = self.given([o.card for o in tied])
        return min(tied, key=lambda o: (given[o.card], o.card.code, o.target))

    def given(self, cards: list[Card]) -> dict[Card, float]:
        """The bits asking for each card gives away about the player's hand, in the public view:
        log2 of the public deals over those where the player holds a card of the book (and,
        unless bluffing, not the card asked for). Cards the public view cannot tell apart give
        away the same bits, counted once."""
        first: dict[Hashable, Card] = {}
        for c in cards:
            first.setdefault(self._twin(c), c)
        todo = [c for c in first.values() if c not in self._given]
        if todo:
            self._given.update(self._count_given(todo))
        return {c: self._given[first[self._twin(c)]] for c in cards}

    def _twin(self, card: Card) -> Hashable:
        """Equal for two cards exactly when swapping them maps the public view, and the view after
        asking for either, onto itself: same book, same possible holders, same requirements. Their
        asks then leave the same number of deals."""
        public = self.public
        book = public.deck.book_of(card)
        if card not in public.allowed or self.game.record.rules.bluffing:
            return (book.name, None)  # the ask says only that the player holds a card of the book
        at_least = tuple(i for i, r in enumerate(public.at_least) if card in r.cards)
        not_all = tuple(i for i, r in enumerate(public.not_all) if card in r.cards)
        return (book.name, public.allowed[card], at_least, not_all)

    def _count_given(self, cards: list[Card]) -> dict[Card, float]:
        deck, bluffing = self.game.record.rules.deck, self.game.record.rules.bluffing
        books: dict[Book, list[Card]] = {}
        for c in cards:
            books.setdefault(deck.book_of(c), []).append(c)
        middle: dict[Card, int] = {}
        if bluffing:
            # The ask says only that the player holds a card of the book: one count per book.
            for book_cards in books.values():
                deals = count_deals(self._asked_for(book_cards[0], True))
                middle.update(dict.fromkeys(book_cards, deals))
        elif len(cards) >= _BATCH_GIVEN:
            try:
                middle = self._middles(books)
            except TooLarge:
                middle = {}  # the public odds may cost more than single counts: count card by card
        for c in cards:
            if c not in middle:
                middle[c] = count_deals(self._asked_for(c, bluffing))
        before = self.public_deals
        return {c: information(before, middle[c]) for c in cards}

    def _asked_for(self, card: Card, bluffing: bool) -> Position:
        return asker_side(self.public, Ask(self.player, self.player, card, False), bluffing)

    def _middles(self, books: dict[Book, list[Card]]) -> dict[Card, int]:
        """The public deals after each ask's first part, without bluffing, from the public odds and
        one count per book: the deals where the player holds a card of the book and not ``c`` are
        those where they do not hold ``c``, less those where they hold none of the book."""
        public, player = self.public, self.player
        at_public = self.public_odds
        deals = at_public.deals
        middle = {}
        for book_cards in books.values():
            side = self._asked_for(book_cards[0], True)
            if len(side.at_least) == len(public.at_least):
                none = 0  # the player has shown a card of the book, or is already known to hold one
            else:
                unseen = side.at_least[-1].cards
                allowed = dict(public.allowed)
                for c in unseen:
                    allowed[c] = tuple(p for p in allowed[c] if p != player)
                try:
                    none = count_deals(replace(public, allowed=allowed))
                except NoFit:
                    none = 0
            for c in book_cards:
                held = at_public.cards[c].get(player, Fraction(0)) if c in public.allowed else Fraction(0)
                middle[c] = deals - int(held * deals) - none
                if middle[c] <= 0:
                    raise NoFit(f"no deal fits {player} asking for {c.pretty}")
        return middle

    # -- claims

    def claims(self, least: Fraction = Fraction(0)) -> list[ClaimAdvice]:
        """The books the team could claim, likeliest declaration first; with ``least``, only the
        declarations at least that likely to be right (a book is counted in full only when its
        cards' odds and then the odds that the team holds it all allow that)."""
        found = []
        for book in self.game.record.rules.deck.books:
            if least > 0:
                bound = self._claim_bound(book)
                if bound is None or bound < least or self._in_team(book) < least:
                    continue
            claim = self._claim(book)
            if claim is not None and claim.right >= least:
                found.append(claim)
        found.sort(key=lambda c: (-c.right, c.book.name))
        return found

    def _in_team(self, book: Book) -> Fraction:
        """The odds that every card of the book in play is with the team (0 when none can be)."""
        mine, team = self.mine, set(self.game.record.table.teammates(self.player))
        unknown = [c for c in book.cards if c in self.odds.cards and c not in mine.known]
        narrowed = {c: tuple(p for p in mine.allowed[c] if p in team) for c in unknown}
        if all(narrowed[c] == mine.allowed[c] for c in unknown):
            return Fraction(1)
        try:
            return Fraction(count_deals(_restrict(mine, narrowed)), self.odds.deals)
        except NoFit:
            return Fraction(0)

    def best_claim(self) -> ClaimAdvice | None:
        """The claim ``claims()`` lists first, counting only the books that could still come first:
        a declaration is never likelier than its least likely card is to be with the team."""
        bounds = [(bound, b) for b in self.game.record.rules.deck.books if (bound := self._claim_bound(b)) is not None]
        bounds.sort(key=lambda x: (-x[0], x[1].name))
        best: ClaimAdvice | None = None
        for bound, book in bounds:
            if best is not None and (bound < best.right or (bound == best.right and book.name > best.book.name)):
                continue
            claim = self._claim(book)
            if claim is not None and (best is None or (-claim.right, book.name) < (-best.right, best.book.name)):
                best = claim
        return best

    def _claim_cards(self, book: Book) -> list[Card] | None:
        """The book's cards in play, or None when it is not the team's to claim (a card is known elsewhere)."""
        mine, team = self.mine, set(self.game.record.table.teammates(self.player))
        cards = [c for c in book.cards if c in self.odds.cards]
        if not cards or any(c in mine.known and mine.known[c] not in team for c in cards):
            return None
        return cards

    def _claim_bound(self, book: Book) -> Fraction | None:
        cards = self._claim_cards(book)
        if cards is None:
            return None
        team = set(self.game.record.table.teammates(self.player))
        shares = self.odds.cards
        unknown = [c for c in cards if c not in self.mine.known]
        with_team = (max((f for p, f in shares[c].items() if p in team), default=Fraction(0)) for c in unknown)
        return min(with_team, default=Fraction(1))

    def _claim(self, book: Book) -> ClaimAdvice | None:
        cards = self._claim_cards(book)
        if cards is None:
            return None
        mine, odds = self.mine, self.odds
        team = set(self.game.record.table.teammates(self.player))
        unknown = [c for c in cards if c not in mine.known]
        narrowed = {c: tuple(p for p in mine.allowed[c] if p in team) for c in unknown}
        try:
            if all(narrowed[c] == mine.allowed[c] for c in unknown):
                team_odds = odds  # every card the team lacks sure is with the team already
            else:
                team_odds = card_odds(_restrict(mine, narrowed))
        except NoFit:
            return None
        team_deals = team_odds.deals
        best = {c: mine.known[c] if c in mine.known else _likeliest(team_odds, c) for c in cards}
        if not unknown:
            right_deals = team_deals
        elif len(unknown) == 1:
            (c,) = unknown
            right_deals = int(team_odds.cards[c][best[c]] * team_deals)
        else:
            try:
                right_deals = count_deals(_restrict(mine, {c: (best[c],) for c in unknown}))
            except NoFit:
                return None
        return ClaimAdvice(book, best, Fraction(right_deals, odds.deals), Fraction(team_deals, odds.deals))


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
