"""Bots that play from what a player sees, and a table that seats them.

A bot is handed a ``BotView`` on its turn: the public record so far and its own dealt hand,
copied out of the game by ``view_of``. The view holds no reference to the game, the deal or any
other hand, so a bot cannot look further than a player at the table could.

The ladder, weakest first:

- ``random``: any legal ask or claim, chosen at random (``rules.can_ask`` / ``rules.can_claim``);
- ``simple``: the simulator's play (``analyzer.simulate``), run on the bot's own view;
- ``counter``: asks only opponents who may hold the card (exact holders, ``solver.solve`` on its
  own view), claims as soon as a book is certain (``tactics.claimable``), and prefers asks that
  do not hand the turn to an opponent who threatens a book;
- ``odds``: follows ``advice.suggest`` (exact odds, information given away, lockout danger) and
  claims when certain.

``BotTable`` plays one deal between bots; a seed gives one game, bots' choices included.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Protocol

from .cards import Book, Card
from .knowledge import Position, ViewTracker
from .record import Ask, Claim, Event, Record
from .replay import Game, replay
from .rules import GameRules, PlayState, Table, can_ask, can_claim
from .simulate import STALL_FORCE, Bot, Simulation, _bits
from .solver import solve
from .tactics import claimable, threatened

if TYPE_CHECKING:
    from .advice import Adviser


@dataclass(frozen=True)
class AskMove:
    target: str
    card: Card


@dataclass(frozen=True)
class ClaimMove:
    book: Book
    holders: dict[Card, str]  # the declaration: who on the team holds each card


Move = AskMove | ClaimMove


@dataclass(frozen=True)
class BotView:
    """What one player sees: the table, the rules, their own dealt hand and the public events.

    ``must_claim`` is set when the player has to claim (the other team is out of cards, or the
    game has stalled). Everything else a bot wants it derives from these fields.
    """

    player: str
    table: Table
    rules: GameRules
    hand: tuple[Card, ...]  # as dealt
    events: tuple[Event, ...]
    must_claim: bool = False

    @property
    def at(self) -> int:
        return len(self.events)

    def record(self) -> Record:
        return Record(table=self.table, rules=self.rules, hands={self.player: self.hand}, body=list(self.events))

    @cached_property
    def game(self) -> Game:
        return replay(self.record())

    @cached_property
    def state(self) -> PlayState:
        """The rules' state with this player on turn (a bot is only asked to move on its turn)."""
        last = self.events[-1] if self.events else None
        claimant = last.claimant if isinstance(last, Claim) else None
        claimed = {name: 1 for name in self._claimed}
        return PlayState(self.rules, self.table, self.counts, self.player, claimed, claimant)

    @cached_property
    def _claimed(self) -> set[str]:
        return {e.book.name for e in self.events if isinstance(e, Claim)}

    @cached_property
    def counts(self) -> dict[str, int]:
        """Every player's card count, from the deal sizes and the public events."""
        from .rules import deal_sizes

        sizes = deal_sizes(len(self.rules.deck.cards), len(self.table.seats))
        counts = dict(zip(self.table.seats, sizes, strict=True))
        for e in self.events:
            if isinstance(e, Ask) and e.yes:
                counts[e.asker] += 1
                counts[e.target] -= 1
            elif isinstance(e, Claim):
                for p in e.truth.values():
                    counts[p] -= 1
        return counts

    @property
    def live_books(self) -> list[Book]:
        return [b for b in self.rules.deck.books if b.name not in self._claimed]

    @cached_property
    def position(self) -> Position:
        """The constraints on the deal in this player's view."""
        return ViewTracker(self.game, self.player).position(self.at)

    @cached_property
    def holders(self) -> dict[Card, tuple[str, ...]]:
        """Exactly who may hold each card in play, in this player's view."""
        return solve(self.position).holders

    @property
    def my_cards(self) -> list[Card]:
        """The cards this player holds now: the dealt hand and what the public events moved."""
        mine = set(self.hand)
        for e in self.events:
            if isinstance(e, Ask) and e.yes:
                if e.asker == self.player:
                    mine.add(e.card)
                elif e.target == self.player:
                    mine.discard(e.card)
            elif isinstance(e, Claim):
                mine -= set(e.book.cards)
        return sorted(mine, key=self.rules.deck.cards.index)

    @property
    def stall(self) -> int:
        """Asks since the last claim."""
        n = 0
        for e in reversed(self.events):
            if isinstance(e, Claim):
                break
            n += isinstance(e, Ask)
        return n


def view_of(sim: Simulation, seat: int, must_claim: bool = False) -> BotView:
    """The view of ``seat``: only copies of the public record and the seat's own dealt hand."""
    name = sim.names[seat]
    return BotView(
        player=name,
        table=Table((tuple(sim.table.teams[0]), tuple(sim.table.teams[1]))),
        rules=sim.rules,
        hand=tuple(sim.dealt[name]),
        events=tuple(sim.events),
        must_claim=must_claim,
    )


class Player(Protocol):
    """A bot: a name on the ladder and a move for each view it is given."""

    name: str

    def move(self, view: BotView) -> Move: ...


# -- shared choices


def legal_asks(view: BotView) -> list[AskMove]:
    """Every ask the rules allow: a card of a book the player holds (not one they hold, unless
    bluffing), from an opponent with cards."""
    state = view.state
    mine = set(view.my_cards)
    books = [b for b in view.live_books if any(c in mine for c in b.cards)]
    found = []
    for book in books:
        for card in book.cards:
            if card in mine and not view.rules.bluffing:
                continue
            for target in view.table.opponents(view.player):
                if can_ask(state, view.player, target, book):
                    found.append(AskMove(target, card))
    return found


def guessed_claim(view: BotView, book: Book, rng: random.Random) -> ClaimMove:
    """A declaration for the book: each card given to a teammate who may hold it (any teammate
    with cards when none may), the likeliest ones kept within the cards each holds."""
    team = view.table.teammates(view.player)
    counts = view.counts
    room = {p: counts[p] for p in team}
    holders = view.holders
    said: dict[Card, str] = {}
    cards = [c for c in book.cards if c in holders]
    for card in sorted(cards, key=lambda c: len(holders[c])):
        options = [p for p in holders[card] if p in room] or [p for p in team if counts[p]] or list(team)
        p = rng.choice([p for p in options if room[p] > 0] or options)
        said[card] = p
        room[p] -= 1
    return ClaimMove(book, said)


def best_guess(view: BotView, rng: random.Random) -> ClaimMove:
    """The live book whose cards the team most likely holds, declared as ``guessed_claim``."""
    team = set(view.table.teammates(view.player))
    holders = view.holders

    def chance(book: Book) -> float:
        p = 1.0
        for c in book.cards:
            if c not in holders:
                continue
            ours = [h for h in holders[c] if h in team]
            p *= len(ours) / len(holders[c]) / max(1, len(ours))
        return p

    book = max(view.live_books, key=lambda b: (chance(b), rng.random()))
    return guessed_claim(view, book, rng)


def certain_claim(view: BotView) -> ClaimMove | None:
    found = claimable(view.game, view.holders, view.player)
    return ClaimMove(found[0].book, found[0].holders) if found else None


# -- the ladder


class RandomBot:
    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def move(self, view: BotView) -> Move:
        claims = [b for b in view.live_books if can_claim(view.state, view.player, b)]
        asks = [] if view.must_claim else legal_asks(view)
        k = self.rng.randrange(len(asks) + len(claims))
        if k < len(asks):
            return asks[k]
        book = claims[k - len(asks)]
        team = [p for p in view.table.teammates(view.player) if view.counts[p]] or [view.player]
        return ClaimMove(book, {c: self.rng.choice(team) for c in book.cards})


class _Shadow:
    """What ``simulate.Bot`` reads of its game, rebuilt from a view's public record."""

    def __init__(self, view: BotView, rng: random.Random) -> None:
        self.rules = view.rules
        self.players = len(view.table.seats)
        self.names = view.table.seats
        self.teams = (tuple(range(0, self.players, 2)), tuple(range(1, self.players, 2)))
        deck = view.rules.deck
        self.cards = deck.cards
        self.books = deck.books
        self.index = {c: i for i, c in enumerate(self.cards)}
        self.card_book = [0] * len(self.cards)
        self.book_masks = [0] * len(self.books)
        for b, book in enumerate(self.books):
            for c in book.cards:
                self.card_book[self.index[c]] = b
                self.book_masks[b] |= 1 << self.index[c]
        self.all_cards = (1 << len(self.cards)) - 1
        self.rng = rng
        self.counts: list[int] = []
        self.live: list[int] = []


class SimpleBot:
    """The simulator's play: its deductions and choices, fed only with this player's view."""

    name = "simple"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.shadow: _Shadow | None = None
        self.bot: Bot | None = None
        self.seen = 0

    def _catch_up(self, view: BotView) -> tuple[_Shadow, Bot]:
        if self.shadow is None or self.bot is None:
            self.shadow = _Shadow(view, self.rng)
            hand = 0
            for c in view.hand:
                hand |= 1 << self.shadow.index[c]
            self.bot = Bot(view.table.seats.index(view.player), hand, self.shadow)  # type: ignore[arg-type]
        shadow, bot = self.shadow, self.bot
        seat = {p: i for i, p in enumerate(shadow.names)}
        for e in view.events[self.seen :]:
            if isinstance(e, Ask):
                bot.saw_ask(seat[e.asker], seat[e.target], shadow.index[e.card], e.yes)
            elif isinstance(e, Claim):
                bot.saw_claim(shadow.books.index(e.book))
        self.seen = len(view.events)
        counts = view.counts
        shadow.counts = [counts[p] for p in shadow.names]
        claimed = {b.name for b in shadow.books if b not in view.live_books}
        shadow.live = [b for b, book in enumerate(shadow.books) if book.name not in claimed]
        bot._sure = None
        return shadow, bot

    def move(self, view: BotView) -> Move:
        from .simulate import HUNCH_CHANCE, HUNCH_ODDS, IDLE_HUNCH_CHANCE, STALL_HUNCH

        shadow, bot = self._catch_up(view)
        names = shadow.names

        def claim(book: int, said: dict[int, int]) -> ClaimMove:
            return ClaimMove(shadow.books[book], {shadow.cards[c]: names[p] for c, p in said.items()})

        known = bot.known_book()
        if known is not None:
            return claim(*known)
        if view.must_claim:
            book = bot.best_guess()[1]
            return claim(book, bot.guess(book))
        start, force = STALL_HUNCH * shadow.players, STALL_FORCE * shadow.players
        odds = HUNCH_ODDS * min(1.0, max(0.0, (force - view.stall) / (force - start)))
        if odds <= 0 or self.rng.random() < HUNCH_CHANCE:
            chance, book = bot.best_guess()
            if chance >= odds:
                return claim(book, bot.guess(book))
        ask = bot.choose_ask()
        if ask is None:
            if self.rng.random() < IDLE_HUNCH_CHANCE:
                book = bot.best_guess()[1]
                return claim(book, bot.guess(book))
            ask = bot.idle_ask()
        return AskMove(names[ask[0]], shadow.cards[ask[1]])


class CounterBot:
    """Exact holders: asks only who may hold the card, claims as soon as a book is certain."""

    name = "counter"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def move(self, view: BotView) -> Move:
        sure = certain_claim(view)
        if sure is not None:
            return sure
        if view.must_claim:
            return best_guess(view, self.rng)
        holders = view.holders
        counts = view.counts
        threats = {o for o in view.table.opponents(view.player) if counts[o] and threatened(view.game, holders, o)}
        scored = []
        for ask in legal_asks(view):
            may = holders.get(ask.card, ())
            if ask.target not in may:
                continue
            # Likelier first; then an ask whose failure does not give a threatening opponent the turn.
            scored.append((1 / len(may), ask.target not in threats or len(may) == 1, self.rng.random(), ask))
        if scored:
            return max(scored, key=lambda s: s[:3])[3]
        return best_guess(view, self.rng)


class OddsBot:
    """Follows ``suggest``: the best-ranked ask (exact odds, then no lockout warning, then the
    least information given away); claims when a book is certain.

    It makes ``suggest``'s choice without counting all of ``suggest``: the bits given away only
    to break a tie, the claims only when it claims (``advice.Adviser``)."""

    name = "odds"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def move(self, view: BotView) -> Move:
        sure = certain_claim(view)
        if sure is not None:
            return sure
        if view.must_claim:
            return self._best_claim(view)
        best = self._adviser(view).best_ask()
        if best is not None and best.odds > 0:
            return AskMove(best.target, best.card)
        return self._best_claim(view)

    def _adviser(self, view: BotView) -> Adviser:
        from .advice import Adviser

        return Adviser(view.game, view.player, view.at, view.position, view.holders)

    def _best_claim(self, view: BotView) -> ClaimMove:
        # When the other team is out, a player named to claim may not have the turn yet in the
        # record; ``suggest`` is for the player on turn.
        if view.game.play_state(view.at).turn in (None, view.player):
            claim = self._adviser(view).best_claim()
            if claim is not None:
                return ClaimMove(claim.book, dict(claim.holders))
        return best_guess(view, self.rng)


BOTS: dict[str, Callable[[random.Random], Player]] = {
    "random": RandomBot,
    "simple": SimpleBot,
    "counter": CounterBot,
    "odds": OddsBot,
}
LADDER = ("random", "simple", "counter", "odds")


def make_bot(name: str, rng: random.Random) -> Player:
    if name not in BOTS:
        raise ValueError(f"no bot called '{name}': the bots are {', '.join(LADDER)}")
    return BOTS[name](rng)


class IllegalMove(Exception):
    """A bot chose a move the rules do not allow (a bug in the bot)."""


class BotTable(Simulation):
    """One deal played by bots, one per team (``bots[0]`` for the first seat's team).

    The deal comes from ``seed`` exactly as in ``simulate``, so the same seed deals the same
    hands whichever bots sit down; each seat's bot draws its choices from its own seeded
    generator.
    """

    def __init__(self, bots: tuple[str, str], players: int = 6, rules: GameRules | None = None, seed: int = 0) -> None:
        super().__init__(players, rules, seed)
        self.bot_names = bots
        self.seats: list[Player] = [
            make_bot(bots[p % 2], random.Random(f"{seed}:{p}:{bots[p % 2]}")) for p in range(players)
        ]
        self.bots = []  # the simulator's all-seeing bots are not used here

    @property
    def record(self) -> Record:
        record = super().record
        record.info["Title"] = f"bots game {self.seed}: {self.bot_names[0]} vs {self.bot_names[1]}"
        record.extra.extend([("X-Seed", str(self.seed)), ("X-Bots", f"{self.bot_names[0]} vs {self.bot_names[1]}")])
        return record

    def step(self) -> None:
        self.handover = None  # next-asker: the team may hand the turn over; bots never do
        turn = self.turn
        if self.counts[turn] == 0:
            mates = [p for p in self.teams[turn % 2] if self.counts[p] > 0]
            if mates:
                return self.pass_turn(turn, max(mates, key=lambda p: (self.counts[p], -p)))
        for team in (0, 1):
            if not any(self.counts[p] for p in self.teams[team]):
                return self.claim_out(1 - team)
        forced = self.stall >= STALL_FORCE * self.players
        self.play(turn, self.seats[turn].move(view_of(self, turn, forced)))

    def claim_out(self, team: int) -> None:
        if self.turn % 2 == team or self.rules.claims_any_time:
            seat = self.turn if self.turn % 2 == team else next(p for p in self.teams[team] if self.counts[p])
        else:
            seat = next(p for p in self.teams[team] if self.counts[p])
            self.turn = seat
        self.play(seat, self.seats[seat].move(view_of(self, seat, must_claim=True)))

    def play(self, seat: int, move: Move) -> None:
        index = {c: i for i, c in enumerate(self.cards)}
        name = self.names[seat]
        if isinstance(move, AskMove):
            target = self.names.index(move.target)
            book = self.books[self.card_book[index[move.card]]]
            holds = any(self.holder[index[c]] == seat for c in book.cards)
            if not holds or (self.holder[index[move.card]] == seat and not self.rules.bluffing):
                raise IllegalMove(f"{name} asks for {move.card.code} without holding its book, or holding it")
            if not can_ask(self.state(), name, move.target, book):
                raise IllegalMove(f"{name} may not ask {move.target} for {move.card.code} now")
            return self.ask(seat, target, index[move.card])
        b = self.books.index(move.book)
        if b not in self.live or not can_claim(self.state(), name, move.book):
            raise IllegalMove(f"{name} may not claim {move.book.name} now")
        said = {index[c]: self.names.index(p) for c, p in move.holders.items()}
        if set(said) != set(_bits(self.book_masks[b])):
            raise IllegalMove(f"{name}'s claim of {move.book.name} does not name its cards")
        if any(p % 2 != seat % 2 for p in said.values()):
            raise IllegalMove(f"{name}'s claim of {move.book.name} names an opponent")
        self.claim(seat, b, dict(sorted(said.items())))


def play_deal(bots: tuple[str, str], players: int = 6, rules: GameRules | None = None, seed: int = 0) -> Record:
    """One complete game between two bots (``bots[0]`` has the first seat) on the deal of ``seed``."""
    return BotTable(bots, players, rules, seed).run(2000)
