"""Replay a record event by event, checking every rule, and keep the public state of each step.

The public state is what everyone at the table sees: card counts, the cards that have been
shown (asked for with a ``yes`` or revealed by a claim) and where they are, whose turn it is,
and the books won. With ``Hand`` lines the replay also checks the record against those hands.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property

from .cards import Book, Card
from .errors import RuleBreak, UsageError
from .record import Ask, Claim, Event, Pass, Record, actor
from .rules import (
    TURN_CODES,
    Break,
    Outcome,
    PlayState,
    RuleSet,
    ask_breaks,
    claim_breaks,
    pass_breaks,
    turn_after_ask,
    turn_after_claim,
)
from .wording import plural


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
    # After a wrong claim written without its split, ``counts`` are the most each player can
    # hold: ``unsure`` is how many of them each may have lost to it, ``unplaced`` how many cards
    # left play from holders the record does not name.
    unsure: dict[str, int] = field(default_factory=dict)
    unplaced: int = 0

    @property
    def in_play(self) -> int:
        return sum(self.counts.values()) - self.unplaced

    def count_text(self, player: str) -> str:
        """The player's card count as a person would read it: ``≤5`` when it is only a bound."""
        return f"≤{self.counts[player]}" if self.unsure.get(player) else str(self.counts[player])


@dataclass(frozen=True)
class Violation:
    """A rule break found while replaying (kept in lenient reading)."""

    event: int
    line: int
    code: str
    message: str
    player: str | None

    @property
    def turn_only(self) -> bool:
        """A break of the order of play alone (who asked, claimed or passed when): what the event
        shows of the cards still holds, so the deductions go on past it."""
        return self.code in TURN_CODES


@dataclass
class CardHistory:
    """What the record shows of one card: who was dealt it (once shown), and where it moved."""

    reveal: tuple[int, str] | None = None  # (event, holder) when first shown; it never moved before
    moves: list[tuple[int, str]] = field(default_factory=list)  # (event, new holder)
    claimed: int | None = None

    def shown_by(self, at: int) -> bool:
        """Whether the card was shown (to every player) in the first ``at`` events."""
        return self.reveal is not None and self.reveal[0] <= at

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

    @cached_property
    def events(self) -> list[Event]:
        """The record's events, listed once (steps look them up by number again and again)."""
        return self.record.events

    @property
    def final(self) -> Step:
        return self.steps[-1]

    @property
    def finished(self) -> bool:
        return len(self.final.books) == len(self.record.rules.deck.books)

    @property
    def trusted_until(self) -> int:
        """The last trusted step: events after the first rule break about the cards are untrusted
        (a break of the order of play alone leaves what is known of the cards as it was)."""
        first = next((v for v in self.violations if not v.turn_only), None)
        return first.event - 1 if first else len(self.events)

    def winner(self) -> int | None:
        """1 or 2 for the team ahead, None for a tie (or an unfinished level game)."""
        a, b = self.final.score
        return None if a == b else (1 if a > b else 2)

    def step(self, at: int) -> Step:
        return self.steps[at]

    def break_lines(self) -> list[str]:
        """``FILE:LINE: event N: message [code]`` for each rule break of a lenient replay."""
        where = self.record.path or "<record>"
        return [f"{where}:{v.line}: event {self.numbers[v.event - 1]}: {v.message} [{v.code}]" for v in self.violations]

    def checked_step(self, at: int | None, last: int | None = None, option: str = "at=") -> int:
        """The step asked for, 0 to ``last`` (default: the end of the game; less for an analysis
        that stops early); refused outside, where a list index would fail or, below 0, silently
        count from the end, in words that name it as ``option`` (the command line's ``"--at "``).
        None is the end, or the last trusted step of a lenient replay."""
        end = len(self.events) if last is None else last
        if at is None:
            return min(end, self.trusted_until)
        if not 0 <= at <= end:
            n = len(self.events)
            steps = "steps go" if end == n else "the analysis covers steps"
            told = f"{steps} from 0 to {end} (the record has {plural(n, 'event')})"
            raise UsageError(f"{option}{at} is out of range: {told}", path=self.record.path)
        return at

    @cached_property
    def numbers(self) -> list[int]:
        """The number the file gives each event (``Record.numbers``)."""
        return self.record.numbers()

    def play_state(self, at: int) -> PlayState:
        """The state the rules of who may act look at after ``at`` events. Before the first event
        the turn is the first actor's: the record names no dealer, and whoever acts first had the
        first turn (so nobody else could have claimed then under literature rules)."""
        step = self.steps[at]
        turn = step.turn
        if turn is None and at < len(self.events):
            turn = actor(self.events[at])
        last = self.events[at - 1] if at > 0 else None
        claimed = {name: self.numbers[r.event - 1] for name, r in step.books.items()}
        return PlayState(
            self.record.rules,
            self.record.table,
            step.counts,
            turn,
            claimed,
            last.claimant if isinstance(last, Claim) else None,
            step.unsure,
        )


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
        self.unsure: dict[str, int] = {}
        self.unplaced = 0
        self.last: Event | None = None
        self.n = 0
        self.numbers = record.numbers()

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
            self.n,
            dict(self.counts),
            self.turn,
            (self.score[0], self.score[1]),
            dict(self.books),
            dict(self.shown),
            {p: k for p, k in self.unsure.items() if k},
            self.unplaced,
        )

    def brk(self, code: str, message: str, player: str | None = None) -> None:
        line = self.event.line
        if not self.lenient:
            raise RuleBreak(message, code=code, line=line, path=self.record.path, event=self.numbers[self.n - 1])
        self.violations.append(Violation(self.n, line, code, message, player))

    def brk_all(self, found: list[Break]) -> None:
        for b in found:
            self.brk(b.code, b.message, b.player)

    # -- helpers

    def state(self) -> PlayState:
        """The state the rules of who may act look at, before the current event."""
        claimed = {name: self.numbers[r.event - 1] for name, r in self.books.items()}
        last = self.last.claimant if isinstance(self.last, Claim) else None
        return PlayState(self.rules, self.table, self.counts, self.turn, claimed, last, self.unsure)

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
        self.brk_all(ask_breaks(self.state(), e.asker, e.target, book))
        if self.book_claimed(book):
            return self.after_ask(e, moved=False)
        where = self.tracked.get(e.card)
        source = "shown" if e.card in self.shown else "dealt"
        if where == e.asker and not self.rules.bluffing:
            self.brk("asks-own-card", f"{e.asker} asks for {e.card.pretty}, which they hold ({source})", e.asker)
        held = [c for c in book.cards if self.tracked.get(c) == e.asker]
        knows_whole_hand = e.asker in self.record.hands
        if not held and (
            knows_whole_hand or all(c in self.tracked for c in book.cards if c != e.card or self.rules.bluffing)
        ):
            self.brk(
                "no-card-of-book",
                f"{e.asker} asks for {e.card.pretty} without holding a card of {book.pretty}",
                e.asker,
            )
        if self.rules.must_declare:
            for b in self.deck.books:
                if not self.book_claimed(b) and all(self.tracked.get(c) == e.asker for c in b.cards):
                    self.brk(
                        "must-declare", f"{e.asker} holds all of {b.pretty} and must claim it before asking", e.asker
                    )
        if e.yes:
            if where is not None and where != e.target:
                self.brk("yes-not-held", f"{e.target} answers yes, but {e.card.pretty} is with {where}", e.asker)
            elif where is None and e.target in self.record.hands:
                self.brk("yes-not-held", f"{e.target} answers yes, but was not dealt {e.card.pretty}", e.asker)
        elif where == e.target:
            self.brk("no-but-held", f"{e.target} answers no, but holds {e.card.pretty} ({source})", e.asker)
        self.after_ask(e, moved=e.yes)

    def after_ask(self, e: Ask, moved: bool) -> None:
        if moved:
            self.show(e.card, e.target)
            self.shown[e.card] = e.asker
            self.tracked[e.card] = e.asker
            self.history[e.card].moves.append((self.n, e.asker))
            self.lose(e.target)
            self.counts[e.asker] += 1
        self.turn = turn_after_ask(e.asker, e.target, moved)

    # -- claims

    def claim(self, e: Claim) -> None:
        book = e.book
        team = self.table.team_of(e.claimant)
        state = self.state()
        self.brk_all(claim_breaks(state, e.claimant, book))
        if self.book_claimed(book):
            return
        self.turn = turn_after_claim(state, e.claimant)
        said = e.said_map
        self.check_names_book(e, [c for _, cards in e.said for c in cards], "the claim")
        for p in dict.fromkeys(p for p, _ in e.said):
            if self.table.team_of(p) != team:
                self.brk("claim-opponent", f"the claim gives cards to {p}, an opponent of {e.claimant}", e.claimant)
        if e.correct:
            truth = said
        elif e.short:
            truth = {}  # the record does not say where the cards were
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
                self.brk("claim-holder", f"{card.pretty} is with {where}, not {holder}", e.claimant)
            elif where is None and holder in self.record.hands:
                self.brk("claim-holder", f"{holder} was not dealt {card.pretty}", e.claimant)
        for holder, k in Counter(truth.values()).items():
            if self.counts[holder] < k:
                self.brk(
                    "claim-count",
                    f"{holder} holds {plural(self.counts[holder], 'card')}, not {k} of {book.pretty}",
                    e.claimant,
                )
        self.settle(e, book, team, truth)

    def check_names_book(self, e: Claim, cards: list[Card], what: str) -> None:
        book = e.book
        extra = [c for c in cards if c not in book.cards]
        twice = sorted({c.pretty for c in cards if cards.count(c) > 1})
        missing = [c for c in book.cards if c not in cards]
        if extra:
            self.brk("claim-cards", f"{what} names {extra[0].pretty}, which is not in {book.pretty}", e.claimant)
        if twice:
            self.brk("claim-cards", f"{what} names {twice[0]} twice", e.claimant)
        if missing:
            self.brk("claim-cards", f"{what} leaves out {' '.join(c.pretty for c in missing)}", e.claimant)

    def settle(self, e: Claim, book: Book, team: int, truth: dict[Card, str]) -> None:
        points = self.rules.points(book)
        if e.correct:
            outcome = Outcome.CORRECT
        elif e.short:
            outcome = self.short_outcome(e, team)
        else:
            all_in_team = all(self.table.team_of(p) == team for p in truth.values())
            outcome = self.rules.wrong_claim_outcome(all_in_team)
        won_by = {Outcome.CORRECT: team, Outcome.WRONG: 3 - team, Outcome.FORFEITED: None}[outcome]
        if won_by is not None:
            self.score[won_by - 1] += points
        self.books[book.name] = BookResult(book, self.n, e.claimant, outcome, won_by, points)
        unplaced = 0
        for card in book.cards:
            holder = truth.get(card)
            if holder is not None:
                self.show(card, holder)
            else:
                # A short wrong claim: the holder is public only for a card shown before (Hand
                # lines are not used, so every view sees the same counts); nothing is shown now.
                holder = self.shown.get(card)
            if holder is not None:
                self.lose(holder)
            else:
                unplaced += 1
            self.shown.pop(card, None)
            self.tracked.pop(card, None)
            self.history[card].claimed = self.n
        if unplaced:
            # Who held them is unknown: any player who may have had them may now hold fewer.
            may = self.table.teammates(e.claimant) if outcome is Outcome.FORFEITED else self.table.seats
            for p in may:
                self.unsure[p] = min(self.counts[p], self.unsure.get(p, 0) + unplaced)
            self.unplaced += unplaced

    def lose(self, player: str) -> None:
        """``player`` gives up a card (taken by an ask, or out of play in a claim)."""
        self.counts[player] = max(0, self.counts[player] - 1)
        if self.unsure.get(player, 0) > self.counts[player]:
            self.unsure[player] = self.counts[player]

    def short_outcome(self, e: Claim, team: int) -> Outcome:
        """How a wrong claim written without its split was settled, as the record says."""
        fish = self.rules.rule_set is RuleSet.FISH
        if e.forfeited:
            if not fish:
                return Outcome.FORFEITED
            self.brk(
                "claim-score",
                "under fish rules a wrong claim goes to the other team; it is never forfeited",
                e.claimant,
            )
        elif e.to_team == team:
            self.brk("claim-score", f"a wrong claim never scores for the claiming team (team {team})", e.claimant)
        elif e.to_team is None and not fish:
            self.brk(
                "claim-score",
                "under literature rules a wrong claim without its split says who scored it: "
                "': wrong, to team N' or ': wrong, forfeited'",
                e.claimant,
            )
        return Outcome.WRONG

    # -- passes

    def pass_turn(self, e: Pass) -> None:
        self.brk_all(pass_breaks(self.state(), e.player, e.to))
        self.turn = e.to
