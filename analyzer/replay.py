"""Replay a record event by event, checking every rule, and keep the public state of each step.

The public state is what everyone at the table sees: card counts, the cards that have been
shown (asked for with a ``yes`` or revealed by a claim) and where they are, whose turn it is,
and the books won. With ``Hand`` lines the replay also checks the record against those hands.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field

from .cards import Book, Card
from .errors import RuleBreak
from .record import Ask, Claim, Event, Pass, Record
from .rules import Outcome


@dataclass(frozen=True)
class BookResult:
    """How a book left play."""

    book: Book
    event: int  # 1-based event number of the claim
    claimant: str
    outcome: Outcome
    team: int | None  # the team that scored it, None when forfeited
    points: int


@dataclass(frozen=True)
class Step:
    """The public state after ``at`` events (``at == 0`` is right after the deal)."""

    at: int
    counts: dict[str, int]
    turn: str | None
    score: tuple[int, int]
    books: dict[str, BookResult]  # claimed books by name
    shown: dict[Card, str]  # cards in play whose holder is public, and that holder

    @property
    def in_play(self) -> int:
        return sum(self.counts.values())


@dataclass(frozen=True)
class Violation:
    """A rule break found while replaying (kept in lenient reading)."""

    event: int
    line: int
    code: str
    message: str
    player: str | None


@dataclass
class CardHistory:
    """What the record shows of one card: who was dealt it (once shown), and where it moved."""

    reveal: tuple[int, str] | None = None  # (event, holder) when first shown; it never moved before
    moves: list[tuple[int, str]] = field(default_factory=list)  # (event, new holder)
    claimed: int | None = None

    def claimed_after(self, at: int) -> bool:
        """Whether the card is still in play after ``at`` events."""
        return self.claimed is None or self.claimed > at

    def holder_at(self, at: int, origin: str) -> str:
        """Where the card was after ``at`` events, given who was dealt it."""
        k = bisect_right(self.moves, at, key=lambda move: move[0])  # moves are in event order
        return self.moves[k - 1][1] if k else origin


@dataclass
class Game:
    """A replayed record: the public state at every step and what each card did."""

    record: Record
    steps: list[Step]
    history: dict[Card, CardHistory]
    violations: list[Violation]

    @property
    def events(self) -> list[Event]:
        return self.record.events

    @property
    def final(self) -> Step:
        return self.steps[-1]

    @property
    def finished(self) -> bool:
        return len(self.final.books) == len(self.record.rules.deck.books)

    @property
    def trusted_until(self) -> int:
        """Events after the first rule break are untrusted; this is the last trusted step."""
        return self.violations[0].event - 1 if self.violations else len(self.events)

    def winner(self) -> int | None:
        """1 or 2 for the team ahead, None for a tie (or an unfinished level game)."""
        a, b = self.final.score
        return None if a == b else (1 if a > b else 2)

    def step(self, at: int) -> Step:
        return self.steps[at]


def replay(record: Record, *, lenient: bool = False) -> Game:
    """Play the record's events from the deal, checking every rule.

    Strict (the default) raises RuleBreak at the first event against the rules; lenient
    reading records every break and goes on as well as the record allows.
    """
    return _Replayer(record, lenient).run()


class _Replayer:
    def __init__(self, record: Record, lenient: bool) -> None:
        self.record = record
        self.lenient = lenient
        self.rules = record.rules
        self.table = record.table
        self.deck = record.rules.deck
        self.counts = dict(record.deal_sizes)
        self.turn: str | None = None
        self.books: dict[str, BookResult] = {}
        self.score = [0, 0]
        self.shown: dict[Card, str] = {}
        # Where each card is, as far as the written hands and the public events tell.
        self.tracked: dict[Card, str] = {c: p for p, cards in record.hands.items() for c in cards}
        self.history: dict[Card, CardHistory] = {c: CardHistory() for c in self.deck.cards}
        self.violations: list[Violation] = []
        self.last: Event | None = None
        self.n = 0

    def run(self) -> Game:
        steps = [self.snapshot()]
        for i, event in enumerate(self.record.events, start=1):
            self.n = i
            self.event = event
            if isinstance(event, Ask):
                self.ask(event)
            elif isinstance(event, Claim):
                self.claim(event)
            else:
                self.pass_turn(event)
            self.last = event
            steps.append(self.snapshot())
        return Game(self.record, steps, self.history, self.violations)

    def snapshot(self) -> Step:
        return Step(
            self.n, dict(self.counts), self.turn, (self.score[0], self.score[1]), dict(self.books), dict(self.shown)
        )

    def brk(self, code: str, message: str, player: str | None = None) -> None:
        line = self.event.line
        if not self.lenient:
            raise RuleBreak(message, code=code, line=line, path=self.record.path, event=self.n)
        self.violations.append(Violation(self.n, line, code, message, player))

    # -- helpers

    def team_cards(self, team: int) -> int:
        return sum(self.counts[p] for p in self.table.teams[team - 1])

    def game_over(self) -> bool:
        return len(self.books) == len(self.deck.books)

    def show(self, card: Card, holder: str) -> None:
        """The card is seen at holder (an answered ask or a checked claim)."""
        h = self.history[card]
        if h.reveal is None:
            h.reveal = (self.n, holder)
        self.shown[card] = holder

    def book_claimed(self, book: Book) -> bool:
        return book.name in self.books

    # -- asks

    def ask(self, e: Ask) -> None:
        book = self.deck.book_of(e.card)
        if self.game_over():
            self.brk("game-over", "the game is over: every book has been claimed", e.asker)
        if self.turn is None:
            self.turn = e.asker
        if e.asker != self.turn:
            self.brk("not-on-turn", f"{e.asker} asks, but it is {self.turn}'s turn", e.asker)
        if self.table.team_of(e.target) == self.table.team_of(e.asker):
            what = "themselves" if e.target == e.asker else f"a teammate ({e.target})"
            self.brk("ask-teammate", f"{e.asker} asks {what}; asks go to an opponent", e.asker)
        if self.counts[e.asker] == 0:
            self.brk("asker-empty", f"{e.asker} has no cards and cannot ask", e.asker)
        if self.counts[e.target] == 0:
            self.brk("target-empty", f"{e.target} has no cards and cannot be asked", e.asker)
        if self.book_claimed(book):
            self.brk("claimed-card", f"{e.card} was claimed at event {self.books[book.name].event}", e.asker)
            return self.after_ask(e, moved=False)
        where = self.tracked.get(e.card)
        source = "shown" if e.card in self.shown else "dealt"
        if where == e.asker and not self.rules.bluffing:
            self.brk("asks-own-card", f"{e.asker} asks for {e.card}, which they hold ({source})", e.asker)
        held = [c for c in book.cards if self.tracked.get(c) == e.asker]
        knows_whole_hand = e.asker in self.record.hands
        if not held and (
            knows_whole_hand or all(c in self.tracked for c in book.cards if c != e.card or self.rules.bluffing)
        ):
            self.brk(
                "no-card-of-book",
                f"{e.asker} asks for {e.card} without holding a card of {book.name}",
                e.asker,
            )
        if self.rules.must_declare:
            for b in self.deck.books:
                if not self.book_claimed(b) and all(self.tracked.get(c) == e.asker for c in b.cards):
                    self.brk(
                        "must-declare", f"{e.asker} holds all of {b.name} and must claim it before asking", e.asker
                    )
        if e.yes:
            if where is not None and where != e.target:
                self.brk("yes-not-held", f"{e.target} answers yes, but {e.card} is with {where}", e.asker)
            elif where is None and e.target in self.record.hands:
                self.brk("yes-not-held", f"{e.target} answers yes, but was not dealt {e.card}", e.asker)
        elif where == e.target:
            self.brk("no-but-held", f"{e.target} answers no, but holds {e.card} ({source})", e.asker)
        self.after_ask(e, moved=e.yes)

    def after_ask(self, e: Ask, moved: bool) -> None:
        if moved:
            self.show(e.card, e.target)
            self.shown[e.card] = e.asker
            self.tracked[e.card] = e.asker
            self.history[e.card].moves.append((self.n, e.asker))
            self.counts[e.target] -= 1
            self.counts[e.asker] += 1
        else:
            self.turn = e.target

    # -- claims

    def claim(self, e: Claim) -> None:
        book = e.book
        team = self.table.team_of(e.claimant)
        if self.game_over():
            self.brk("game-over", "the game is over: every book has been claimed", e.claimant)
        if self.book_claimed(book):
            self.brk(
                "claimed-twice", f"{book.name} was already claimed at event {self.books[book.name].event}", e.claimant
            )
            return
        self.check_claim_turn(e, team)
        said = e.said_map
        self.check_names_book(e, [c for _, cards in e.said for c in cards], "the claim")
        for p in dict.fromkeys(p for p, _ in e.said):
            if self.table.team_of(p) != team:
                self.brk("claim-opponent", f"the claim gives cards to {p}, an opponent of {e.claimant}", e.claimant)
        if e.correct:
            truth = said
        else:
            assert e.actual is not None
            self.check_names_book(e, [c for _, cards in e.actual for c in cards], "the actual holders")
            truth = e.truth
            if truth == said:
                self.brk(
                    "wrong-but-right", "the actual holders are the ones claimed: the claim was correct", e.claimant
                )
        for card, holder in truth.items():
            where = self.tracked.get(card)
            if where is not None and where != holder:
                self.brk("claim-holder", f"{card} is with {where}, not {holder}", e.claimant)
            elif where is None and holder in self.record.hands:
                self.brk("claim-holder", f"{holder} was not dealt {card}", e.claimant)
        for holder, k in Counter(truth.values()).items():
            if self.counts[holder] < k:
                self.brk(
                    "claim-count", f"{holder} holds {self.counts[holder]} cards, not {k} of {book.name}", e.claimant
                )
        self.settle(e, book, team, truth)

    def check_claim_turn(self, e: Claim, team: int) -> None:
        if self.rules.claims_any_time:
            return
        if self.turn is None:
            self.turn = e.claimant
            return
        turn_team = self.table.team_of(self.turn)
        if self.team_cards(turn_team) == 0:
            if team == turn_team:
                self.brk("claim-turn", f"{e.claimant}'s team has no cards; the other team claims", e.claimant)
            else:
                # The team on turn is out: the opponent named to claim takes the turn and claims the rest.
                if self.counts[e.claimant] == 0:
                    self.brk(
                        "claim-turn", f"the opponent named to claim needs cards; {e.claimant} has none", e.claimant
                    )
                self.turn = e.claimant
            return
        if e.claimant != self.turn:
            self.brk("claim-turn", f"{e.claimant} claims on {self.turn}'s turn (literature rules)", e.claimant)

    def check_names_book(self, e: Claim, cards: list[Card], what: str) -> None:
        book = e.book
        extra = [c for c in cards if c not in book.cards]
        twice = sorted({c.code for c in cards if cards.count(c) > 1})
        missing = [c for c in book.cards if c not in cards]
        if extra:
            self.brk("claim-cards", f"{what} names {extra[0]}, which is not in {book.name}", e.claimant)
        if twice:
            self.brk("claim-cards", f"{what} names {twice[0]} twice", e.claimant)
        if missing:
            self.brk("claim-cards", f"{what} leaves out {', '.join(c.code for c in missing)}", e.claimant)

    def settle(self, e: Claim, book: Book, team: int, truth: dict[Card, str]) -> None:
        points = self.rules.points(book)
        if e.correct:
            outcome, scorer = Outcome.CORRECT, team
        else:
            all_in_team = all(self.table.team_of(p) == team for p in truth.values())
            outcome = self.rules.wrong_claim_outcome(all_in_team)
            scorer = 3 - team
        won_by = None if outcome is Outcome.FORFEITED else scorer
        if won_by is not None:
            self.score[won_by - 1] += points
        self.books[book.name] = BookResult(book, self.n, e.claimant, outcome, won_by, points)
        for card in book.cards:
            holder = truth.get(card)
            if holder is not None:
                self.show(card, holder)
                self.counts[holder] = max(0, self.counts[holder] - 1)
            self.shown.pop(card, None)
            self.tracked.pop(card, None)
            self.history[card].claimed = self.n

    # -- passes

    def last_claimant(self) -> str | None:
        return self.last.claimant if isinstance(self.last, Claim) else None

    def pass_turn(self, e: Pass) -> None:
        if self.game_over():
            self.brk("game-over", "the game is over: every book has been claimed", e.player)
        after_claim = (
            self.rules.next_asker
            and isinstance(self.last, Claim)
            and self.table.team_of(self.last.claimant) == self.table.team_of(e.player)
            and e.player in (self.last.claimant, self.turn)
        )
        # After its claim the team names who asks next, which may be the claimant (``X passes to X``).
        to_self = e.to == e.player and not (after_claim and e.player == self.last_claimant())
        if self.table.team_of(e.to) != self.table.team_of(e.player) or to_self:
            self.brk("pass-team", f"{e.player} can pass the turn only to a teammate, not {e.to}", e.player)
        if self.counts[e.to] == 0:
            self.brk("pass-empty", f"{e.to} has no cards and cannot take the turn", e.player)
        if not after_claim:
            if self.turn is not None and e.player != self.turn:
                self.brk("not-on-turn", f"{e.player} passes, but it is {self.turn}'s turn", e.player)
            elif self.counts[e.player] > 0:
                why = " (house rule next-asker lets a team pass right after its claim)" if self.rules.next_asker else ""
                self.brk(
                    "pass-with-cards",
                    f"{e.player} still has cards; the turn passes only when a player runs out{why}",
                    e.player,
                )
        self.turn = e.to
