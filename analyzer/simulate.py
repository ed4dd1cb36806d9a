"""Simulated games: a shuffled deal played to the end by simple bots, as a ``Record``.

Simulated games are the test bed for the replay and the solver, so they keep every rule
(``replay`` checks them), answers are honest, and the bots play from what they saw: the games
look like real ones, with failed asks, passes, wrong and forfeited claims and team-out endgames.
Everything random comes from ``random.Random(seed)``: a seed always gives the same game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from enum import Enum

from .cards import DeckKind
from .record import Ask, Claim, Comment, Event, Holding, Pass, Record
from .rules import (
    GameRules,
    HouseRule,
    PlayState,
    RuleSet,
    Table,
    can_claim,
    can_pass,
    turn_after_ask,
    turn_after_claim,
)

TEAM_NAMES = (("Anna", "Ben", "Cara", "Gus"), ("Dev", "Eli", "Fay", "Hal"))

# How the bots play. Stalls count asks since the last claim, per player at the table.
HUNCH_CHANCE = 0.05  # now and then a bot thinks of claiming on a hunch ...
HUNCH_ODDS = 0.5  # ... and does when its guess has these odds,
STALL_HUNCH = 8  # which fall after this many asks per player
STALL_FORCE = 18  # to nothing here: the player on turn must claim something.
# So a game has at most books * (STALL_FORCE * players + 2) events: 1898 for 13 books and 8
# players, below the default cap of 2000 (at most one pass follows a claim).
IDLE_HUNCH_CHANCE = 0.3  # nothing worth asking: claim the best guess rather than ask in vain
ASK_INTEREST = 2.0  # an opponent who asked for a card of the book likely holds the one you want
ASK_FOCUS = 3.0  # how strongly a bot prefers its likeliest, most useful ask
BLUFF_CHANCE = 0.08  # with bluffing: ask for a card you hold
HANDOVER_CHANCE = 0.5  # next-asker: hand the turn to a teammate who holds more cards


class Style(Enum):
    """How the bots open a game.

    ``standard``: from the first ask, each bot asks where its deductions point. ``probing``: as
    people open, for the first two rounds each bot probes one book it holds a card of, one that
    nobody else has asked about (when there is one), for cards it lacks, of opponents picked at
    random: most of those asks fail, and each player's lie in a different book. Then as
    ``standard``.
    """

    STANDARD = "standard"
    PROBING = "probing"


PROBING_ROUNDS = 2  # asks per player in a probing opening


def _bits(mask: int) -> Iterator[int]:
    """The indices of the set bits, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Bot:
    """What one player knows, as the set of cards each seat may hold (a bitmask over the deck).

    Sources: the bot's own hand, cards seen moving, claims, card counts, that an asker holds a
    card of the asked book (and, without bluffing, not the card asked for), and that a ``no``
    means the target lacks the card. Deductions stay sound: the true holder of every card in
    play is always among its possible holders.
    """

    def __init__(self, seat: int, hand: int, game: Simulation) -> None:
        self.seat = seat
        self.game = game
        rest = game.all_cards & ~hand
        self.possible = [hand if p == seat else rest for p in range(game.players)]
        self.holds_book = [0] * game.players  # books a seat surely holds a card of, as bits
        self._sure: list[int] | None = None  # per seat: the cards nobody else may hold

    # -- what the bot sees

    def saw_ask(self, asker: int, target: int, card: int, yes: bool) -> None:
        bit = 1 << card
        book = 1 << self.game.card_book[card]
        possible = self.possible
        self.holds_book[asker] |= book
        if yes:
            for p in range(len(possible)):
                possible[p] &= ~bit
            possible[asker] |= bit
            # The target may have given away its only card of the book.
            self.holds_book[target] &= ~book
        else:
            possible[target] &= ~bit
            if not self.game.rules.bluffing:
                possible[asker] &= ~bit
        self._sure = None

    def saw_claim(self, book: int) -> None:
        keep = ~self.game.book_masks[book]
        for p in range(len(self.possible)):
            self.possible[p] &= keep
            self.holds_book[p] &= ~(1 << book)
        self._sure = None

    # -- deduction

    def sure(self) -> list[int]:
        """Per seat, the cards only that seat may hold, after deducing all the bot can."""
        if self._sure is None:
            counts = self.game.counts
            for p, n in enumerate(counts):
                if n == 0:
                    self.possible[p] = 0
            multi = self._multi()
            while self._deduce(counts, multi):
                multi = self._multi()
            self._sure = [m & ~multi for m in self.possible]
        return self._sure

    def _multi(self) -> int:
        """The cards more than one seat may hold."""
        seen = multi = 0
        for m in self.possible:
            multi |= seen & m
            seen |= m
        return multi

    def _deduce(self, counts: list[int], multi: int) -> bool:
        """One deduction step, given the cards several seats may hold; False when none follows."""
        possible = self.possible
        book_masks = self.game.book_masks
        for p, mine in enumerate(possible):
            n = counts[p]
            if mine.bit_count() == n:
                # A seat whose possible cards number its count holds exactly those.
                if mine & multi:
                    self._give(p, mine)
                    return True
                continue
            only = mine & ~multi
            if only.bit_count() == n:
                # Its count is filled by cards nobody else may hold: it holds nothing else.
                possible[p] = only
                return True
            books = self.holds_book[p]
            while books:
                low = books & -books
                books ^= low
                m = mine & book_masks[low.bit_length() - 1]
                # A seat that holds a card of the book and may hold only one: that is it.
                if m & multi and not m & (m - 1):
                    self._give(p, m)
                    return True
        return False

    def _give(self, seat: int, cards: int) -> None:
        for p in range(len(self.possible)):
            if p != seat:
                self.possible[p] &= ~cards

    def holders(self, card: int) -> list[int]:
        bit = 1 << card
        return [p for p, m in enumerate(self.possible) if m & bit]

    # -- decisions

    @property
    def team(self) -> tuple[int, ...]:
        return self.game.teams[self.seat % 2]

    def known_book(self) -> tuple[int, dict[int, int]] | None:
        """A book whose every card the bot can place with its team, and where each card is."""
        sure = self.sure()
        placed = 0
        for p in self.team:
            placed |= sure[p]
        for book in self.game.live:
            if not self.game.book_masks[book] & ~placed:
                cards = self.game.book_masks[book]
                return book, {c: p for p in self.team for c in _bits(sure[p] & cards)}
        return None

    def chance(self, book: int) -> float:
        """A rough chance that the best guess at the book's holders is right."""
        chance = 1.0
        for card in _bits(self.game.book_masks[book]):
            holders = self.holders(card)
            if not any(p % 2 == self.seat % 2 for p in holders):
                return 0.0
            chance /= len(holders)
        return chance

    def best_guess(self) -> tuple[float, int]:
        """The book the bot would most like to claim on a hunch, with its chance."""
        self.sure()
        rng = self.game.rng
        chance, _, book = max((self.chance(b), rng.random(), b) for b in self.game.live)
        return chance, book

    def guess(self, book: int) -> dict[int, int]:
        """Holders for the book's cards: possible teammates, within the cards each holds."""
        rng = self.game.rng
        room = {p: self.game.counts[p] for p in self.team}
        options = {c: [p for p in self.holders(c) if p in room] for c in _bits(self.game.book_masks[book])}
        said: dict[int, int] = {}
        for card in sorted(options, key=lambda c: len(options[c])):
            choices = options[card] or list(self.team)
            p = rng.choice([p for p in choices if room[p] > 0] or choices)
            said[card] = p
            room[p] -= 1
        return dict(sorted(said.items()))

    def choose_ask(self) -> tuple[int, int] | None:
        """(target, card) to ask for, or None when every missing card is with the team."""
        game = self.game
        rng = game.rng
        mine = self.possible[self.seat]
        opponents = [o for o in game.teams[1 - self.seat % 2] if game.counts[o] > 0]
        if game.rules.bluffing and rng.random() < BLUFF_CHANCE:
            return rng.choice(opponents), rng.choice(list(_bits(mine)))
        sure = self.sure()
        books = 0
        for c in _bits(mine):
            books |= game.book_masks[game.card_book[c]]
        wanted = books & ~mine
        sure_asks = [(o, c) for o in opponents for c in _bits(sure[o] & wanted)]
        if sure_asks:
            return rng.choice(sure_asks)
        ours = 0
        for p in self.team:
            ours |= sure[p]
        asks: list[tuple[int, int]] = []
        weights: list[float] = []
        for card in _bits(wanted):
            book = game.card_book[card]
            cards = game.book_masks[book]
            # Books the team has nearly placed are worth the most.
            worth = 1 + (cards & ours).bit_count() / cards.bit_count()
            holders = self.holders(card)
            for o in opponents:
                if o in holders:
                    # Someone who asked for a card of the book holds one: likelier.
                    interest = ASK_INTEREST if self.holds_book[o] >> book & 1 else 1.0
                    asks.append((o, card))
                    weights.append((worth * interest / len(holders)) ** ASK_FOCUS)
        if asks:
            return rng.choices(asks, weights)[0]
        return None

    def probe_ask(self, probed: dict[int, int]) -> tuple[int, int] | None:
        """(target, card) of a probing ask: the book this bot probed before if it still can, else
        a book held that nobody asked about yet if any; a card of it not held, an opponent with
        cards at random. None when no book has a card to ask for. ``probed``: book -> seat."""
        game = self.game
        rng = game.rng
        mine = self.possible[self.seat]
        open_books = sorted(
            {game.card_book[c] for c in _bits(mine) if game.book_masks[game.card_book[c]] & ~mine & game.all_cards}
        )
        if not open_books:
            return None
        again = [b for b in open_books if probed.get(b) == self.seat]
        fresh = [b for b in open_books if b not in probed]
        book = rng.choice(again or fresh or open_books)
        card = rng.choice(list(_bits(game.book_masks[book] & ~mine)))
        opponents = [o for o in game.teams[1 - self.seat % 2] if game.counts[o] > 0]
        return rng.choice(opponents), card

    def idle_ask(self) -> tuple[int, int]:
        """A legal ask that cannot succeed: the card is known to be with the team."""
        game = self.game
        mine = self.possible[self.seat]
        missing = [c for c in _bits(game.all_cards & ~mine) if game.book_masks[game.card_book[c]] & mine]
        opponents = [o for o in game.teams[1 - self.seat % 2] if game.counts[o] > 0]
        return game.rng.choice(opponents), game.rng.choice(missing)


class Simulation:
    """A game between bots in progress: ``step`` plays one event, ``record`` is the game so far.

    Who may ask, claim and pass, and where the turn goes after each event, are the rules'
    (``rules.can_claim``, ``can_pass``, ``turn_after_*`` on ``state()``), as for the replay; the
    bots only choose among what the rules allow.
    """

    def __init__(
        self, players: int = 6, rules: GameRules | None = None, seed: int = 0, style: Style = Style.STANDARD
    ) -> None:
        if players not in (4, 6, 8):
            raise ValueError(f"a simulated game has 4, 6 or 8 players, not {players}")
        self.rules = rules or GameRules()
        self.players = players
        self.seed = seed
        self.rng = random.Random(seed)
        side = players // 2
        self.table = Table((TEAM_NAMES[0][:side], TEAM_NAMES[1][:side]))
        self.names = self.table.seats
        self.teams = (tuple(range(0, players, 2)), tuple(range(1, players, 2)))
        deck = self.rules.deck
        self.cards = deck.cards
        self.books = deck.books
        index = {c: i for i, c in enumerate(self.cards)}
        self.card_book = [0] * len(self.cards)
        self.book_masks = [0] * len(self.books)
        for b, book in enumerate(self.books):
            for c in book.cards:
                self.card_book[index[c]] = b
                self.book_masks[b] |= 1 << index[c]
        self.all_cards = (1 << len(self.cards)) - 1
        order = list(range(len(self.cards)))
        self.rng.shuffle(order)
        # One card at a time in seat order from the first seat: earlier seats get the extras.
        self.holder = [0] * len(self.cards)
        for k, card in enumerate(order):
            self.holder[card] = k % players
        hands = [0] * players
        for card, p in enumerate(self.holder):
            hands[p] |= 1 << card
        self.dealt = {self.names[p]: tuple(self.cards[c] for c in _bits(m)) for p, m in enumerate(hands)}
        self.counts = [m.bit_count() for m in hands]
        self.live = list(range(len(self.books)))
        self.turn = 0  # the first seat asks first
        self.claimed: dict[str, int] = {}  # book -> the event that claimed it
        self.last_claimant: int | None = None  # the claimant, when the last event is a claim
        self.events: list[Event] = []
        self.stall = 0  # asks since the last claim
        self.handover: int | None = None  # next-asker: the claimant who may hand the turn over
        self.bots = [Bot(p, hand, self) for p, hand in enumerate(hands)]
        self.probes = PROBING_ROUNDS * players if style is Style.PROBING else 0  # probing asks left
        self.probed: dict[int, int] = {}  # books probed so far, and by whom first

    @property
    def finished(self) -> bool:
        return not self.live

    @property
    def record(self) -> Record:
        body: list[Event | Comment] = list(self.events)
        return Record(
            table=self.table,
            rules=self.rules,
            hands=dict(self.dealt),
            info={"Title": f"simulated game {self.seed}"},
            body=body,
        )

    def run(self, max_events: int) -> Record:
        while self.live and len(self.events) < max_events:
            self.step()
        return self.record

    def state(self) -> PlayState:
        """What the rules of who may act look at now: the state the replay of the record so far
        gives (``Game.play_state``), the first seat on turn before anyone has acted."""
        counts = {self.names[p]: n for p, n in enumerate(self.counts)}
        last = None if self.last_claimant is None else self.names[self.last_claimant]
        return PlayState(self.rules, self.table, counts, self.names[self.turn], dict(self.claimed), last)

    def seat(self, name: str | None) -> int:
        """The seat of a player named by the rules (the player on turn when None)."""
        return self.turn if name is None else self.names.index(name)

    # -- one event

    def step(self) -> None:
        """Play the next event: a pass, a claim or an ask."""
        claimant, self.handover = self.handover, None
        if claimant is not None and self.hand_over(claimant):
            return
        turn = self.turn
        state = self.state()
        if self.counts[turn] == 0:
            mates = [p for p in self.teams[turn % 2] if p != turn and can_pass(state, self.names[turn], self.names[p])]
            if mates:
                return self.pass_turn(turn, self.rng.choice(mates))
        out = state.team_out()
        if out is not None:
            return self.claim_out(2 - out)
        # Whoever may claim now (the player on turn, or anyone under claims at any time), from the turn on.
        seats = [(turn + i) % self.players for i in range(self.players)]
        for p in (p for p in seats if can_claim(state, self.names[p])):
            known = self.bots[p].known_book()
            if known is not None:
                return self.claim(p, *known)
        bot = self.bots[turn]
        if self.probes > 0:
            self.probes -= 1
            probe = bot.probe_ask(self.probed)
            if probe is not None:
                self.probed.setdefault(self.card_book[probe[1]], turn)
                return self.ask(turn, *probe)
        odds = self.hunch_odds()
        if odds <= 0 or self.rng.random() < HUNCH_CHANCE:
            chance, book = bot.best_guess()
            if chance >= odds:
                return self.claim(turn, book, bot.guess(book))
        ask = bot.choose_ask()
        if ask is None:
            if self.rng.random() < IDLE_HUNCH_CHANCE:
                book = bot.best_guess()[1]
                return self.claim(turn, book, bot.guess(book))
            ask = bot.idle_ask()
        self.ask(turn, *ask)

    def hunch_odds(self) -> float:
        """The odds a hunch needs: lower as the game stalls, none when it is stuck."""
        start, force = STALL_HUNCH * self.players, STALL_FORCE * self.players
        return HUNCH_ODDS * min(1.0, max(0.0, (force - self.stall) / (force - start)))

    def claim_out(self, team: int) -> None:
        """The other team has no cards: this team claims the books left, sure ones first.

        Under literature rules the player on turn claims; when the team on turn is out, it names
        an opponent with cards, who takes the turn (``rules.claim_breaks``).
        """
        state = self.state()
        seats = [p for p in self.teams[team] if can_claim(state, self.names[p])]
        claim = next(((p, k) for p in seats if (k := self.bots[p].known_book()) is not None), None)
        if claim is None:
            (_, book), p = max((self.bots[p].best_guess(), p) for p in seats)
            claim = p, (book, self.bots[p].guess(book))
        p, (book, said) = claim
        self.claim(p, book, said)

    def hand_over(self, claimant: int) -> bool:
        """next-asker: after its claim the team may name who asks next; True when it did."""
        passer = self.turn if self.turn % 2 == claimant % 2 else claimant
        if self.counts[passer] == 0 and passer == self.turn:
            return False  # the ordinary pass of a player out of cards follows
        state = self.state()
        mates = [
            p for p in self.teams[claimant % 2] if p != passer and can_pass(state, self.names[passer], self.names[p])
        ]
        if not mates or self.rng.random() >= HANDOVER_CHANCE:
            return False
        best = max(mates, key=lambda p: (self.counts[p], self.rng.random()))
        if self.turn % 2 == claimant % 2 and self.counts[best] <= self.counts[self.turn]:
            return False
        self.pass_turn(passer, best)
        return True

    # -- moves

    def ask(self, asker: int, target: int, card: int) -> None:
        yes = self.holder[card] == target
        self.events.append(Ask(self.names[asker], self.names[target], self.cards[card], yes))
        if yes:
            self.holder[card] = asker
            self.counts[target] -= 1
            self.counts[asker] += 1
        self.turn = self.seat(turn_after_ask(self.names[asker], self.names[target], yes))
        self.last_claimant = None
        for bot in self.bots:
            bot.saw_ask(asker, target, card, yes)
        self.stall += 1

    def claim(self, claimant: int, book: int, said: dict[int, int]) -> None:
        truth = {c: self.holder[c] for c in _bits(self.book_masks[book])}
        correct = said == truth
        self.turn = self.seat(turn_after_claim(self.state(), self.names[claimant]))
        self.events.append(
            Claim(
                self.names[claimant],
                self.books[book],
                self.holding(said),
                correct,
                None if correct else self.holding(truth),
            )
        )
        for card, p in truth.items():
            self.holder[card] = -1
            self.counts[p] -= 1
        self.live.remove(book)
        self.claimed[self.books[book].name] = len(self.events)
        self.last_claimant = claimant
        for bot in self.bots:
            bot.saw_claim(book)
        self.stall = 0
        if self.rules.next_asker and self.live:
            self.handover = claimant

    def pass_turn(self, player: int, to: int) -> None:
        self.events.append(Pass(self.names[player], self.names[to]))
        self.turn = to
        self.last_claimant = None

    def holding(self, where: dict[int, int]) -> Holding:
        """Cards grouped by holder, holders in the order of their first card."""
        groups: dict[int, list[int]] = {}
        for card in sorted(where):
            groups.setdefault(where[card], []).append(card)
        return tuple((self.names[p], tuple(self.cards[c] for c in cards)) for p, cards in groups.items())


def simulate(
    players: int = 6,
    deck: DeckKind = DeckKind.STANDARD,
    rule_set: RuleSet = RuleSet.LITERATURE,
    bluffing: bool = False,
    house: frozenset[HouseRule] = frozenset(),
    seed: int = 0,
    max_events: int = 2000,
    style: Style = Style.STANDARD,
) -> Record:
    """A complete legal game between bots, every hand written down; a seed always gives one game.

    Teams are ``Anna Ben Cara Gus`` vs ``Dev Eli Fay Hal``, cut to ``players // 2`` a side; the
    first seat asks first. ``max_events`` is a safety cap never reached in practice: a game cut
    there is returned as it stands, a legal unfinished record. ``style`` is how the bots open.
    """
    rules = GameRules(rule_set, deck, bluffing, frozenset(house))
    return Simulation(players, rules, seed, style).run(max_events)
