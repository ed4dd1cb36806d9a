"""What a view knows at a step, reduced to the constraints on the deal.

Every move after the deal is public, so a card still in play either has been shown (and is
where it moved to) or has never moved and is still with the player who was dealt it. The
only unknown is who was dealt each never-shown card, and the record constrains it in three
ways:

- per card: players ruled out (a ``no`` answer; an asker does not hold the card asked for,
  unless bluffing; the view's own hand holds no other card);
- per player: how many never-shown cards they were dealt (``slots``);
- per player and book: an ask says the asker held a card of the book, so when no shown card
  of the book was with them then, at least one never-shown card of the book is theirs
  (``at_least``); under house ``must-declare`` an asker did not hold a whole book (``not_all``).

A deal fits the view exactly when it meets all three, which is what ``solver`` and ``odds``
work on.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from functools import cached_property

from .cards import Book, Card, Deck
from .errors import Contradiction, UsageError
from .record import Ask, Claim, Record
from .replay import Game
from .wording import plural

PUBLIC = "public"


@dataclass(frozen=True)
class Requirement:
    """``player`` was dealt at least one of ``cards`` (or, for ``not_all``, not all of them)."""

    player: str
    book: Book
    cards: frozenset[Card]
    event: int  # the latest ask that says so (its place among the events, from 1)
    number: int | None = None  # that event's number as the file writes it, when known

    @property
    def label(self) -> str:
        """``event 24``: the ask named as the file numbers it."""
        return f"event {self.event if self.number is None else self.number}"


@dataclass
class Position:
    """The constraints on the deal in one view after ``at`` events."""

    at: int
    view: str
    deck: Deck
    players: tuple[str, ...]
    in_play: tuple[Card, ...]
    known: dict[Card, str]  # current holder of every in-play card whose holder the view knows
    allowed: dict[Card, tuple[str, ...]]  # never-shown cards (some gone in a short wrong claim): who was dealt them
    slots: dict[str, int]  # never-shown cards each player was dealt
    at_least: list[Requirement] = field(default_factory=list)
    not_all: list[Requirement] = field(default_factory=list)
    ruled_out: dict[Card, dict[str, int]] = field(default_factory=dict)  # 0: the view's own hand

    @property
    def unknown(self) -> tuple[Card, ...]:
        return tuple(self.allowed)

    def binding_not_all(self) -> list[Requirement]:
        """The "not all" requirements a deal could break. A player dealt every card of one also
        holds a card of each of its "at least one" requirements on other books: when those do not
        all fit beside them in its slots (under must-declare, an asker with a book's six never-shown
        cards on six slots, who asked in another book), no deal breaks it. (One with no cards
        left, which every deal breaks, is kept.)"""
        binding = []
        for r in self.not_all:
            others: list[frozenset[Card]] = []
            for a in self.at_least:
                if a.player == r.player and a.cards and not a.cards & r.cards and not any(a.cards & o for o in others):
                    others.append(a.cards)
            if not r.cards or len(r.cards) + len(others) <= self.slots.get(r.player, 0):
                binding.append(r)
        return binding


def view_hands(record: Record, view: str) -> dict[str, tuple[Card, ...]]:
    """The hands a view may use: none for ``public``, the player's own otherwise."""
    if view == PUBLIC:
        return {}
    player = record.table.resolve(view)
    if player is None:
        raise UsageError(f"'{view}' is neither 'public' nor a player of this game", path=record.path)
    if player not in record.hands:
        raise UsageError(
            f"{player} has no Hand line in this record, so their view cannot be taken "
            "('halfsuit deal --fill' writes the Hand lines the record fixes)",
            path=record.path,
        )
    return {player: record.hands[player]}


def resolve_view(record: Record, view: str) -> str:
    """Canonical name of a view (``public`` or the seated spelling of a player with a hand)."""
    if view.lower() == PUBLIC:
        return PUBLIC
    view_hands(record, view)
    resolved = record.table.resolve(view)
    assert resolved is not None
    return resolved


def position(game: Game, at: int, view: str = PUBLIC) -> Position:
    """The constraints of ``view`` after ``at`` events (see ``ViewTracker`` to walk every step)."""
    return ViewTracker(game, view).position(at)


INF = 1 << 30


@dataclass(frozen=True)
class _Found:
    """A direct contradiction and the first step from which the view can see it."""

    step: int
    event: int
    message: str


class ViewTracker:
    """The constraints of one view at every step, prepared once so each step is cheap.

    A card's *reveal* is the first step at which the view knows who was dealt it: 0 for the
    view's own hand, the event that first showed it otherwise. What an ask says about a card
    or a book depends on which cards the view knows at the step asked about, so each ask keeps
    the earliest step from which a known card settles it.
    """

    def __init__(self, game: Game, view: str = PUBLIC, hands: dict[str, tuple[Card, ...]] | None = None) -> None:
        record = game.record
        if hands is None:
            hands = view_hands(record, view)
            if view != PUBLIC:
                view = next(iter(hands))
        self.game = game
        self.view = view
        self.record = record
        self.deck = record.rules.deck
        self.players = record.players
        self.sizes = record.deal_sizes
        self.hidden = tuple(p for p in self.players if p not in hands)
        self.hands = hands
        history = game.history
        self.history = history
        events = record.events
        self.found: list[_Found] = []
        self._allowed_cache: dict[tuple[Card, int], tuple[dict[str, int], tuple[str, ...]]] = {}

        def note(step: int, event: int, message: str) -> None:
            self.found.append(_Found(step, event, message))

        origin: dict[Card, str] = {}
        reveal: dict[Card, int] = {}
        for p, cards in hands.items():
            for c in cards:
                origin[c], reveal[c] = p, 0
        for card, h in history.items():
            if h.reveal is None:
                continue
            event, holder = h.reveal
            if card in origin and origin[card] != holder:
                note(event, event, f"{card.pretty} was shown at {holder}, but {origin[card]} was dealt it")
                continue
            origin[card] = holder
            reveal.setdefault(card, event)
        self.origin = origin
        self.reveal = reveal

        # Where each card shown (or in a hand) is before the event at hand: where it was dealt, or
        # where its last move took it.
        where_now: dict[Card, str] = dict(origin)
        moves: dict[int, list[tuple[Card, str]]] = {}
        for card, h in history.items():
            if card in origin:
                for event, holder in h.moves:
                    moves.setdefault(event, []).append((card, holder))

        bluffing = record.rules.bluffing
        # The first event that rules each player out of each card (later ones add nothing), so a
        # card asked about thousands of times keeps a handful of entries.
        self.exclusions: dict[Card, list[tuple[int, str]]] = {c: [] for c in self.deck.cards}
        excluded: set[tuple[Card, str]] = set()

        def exclude(card: Card, event: int, player: str) -> None:
            if (card, player) not in excluded:
                excluded.add((card, player))
                self.exclusions[card].append((event, player))

        self.asks: list[tuple[int, str, Book, int]] = []  # (event, asker, book, settled from step)
        declared: list[tuple[int, str, Book, int]] = []  # must-declare: the asker did not hold a whole book
        for i, e in enumerate(events, start=1):
            before = i - 1
            if isinstance(e, Ask):
                book = self.deck.book_of(e.card)
                r = reveal.get(e.card, INF)
                where = where_now.get(e.card)
                if not bluffing:
                    exclude(e.card, i, e.asker)
                    if where == e.asker:
                        note(max(i, r), i, f"{e.asker} asks for {e.card.pretty}, but held it then")
                if not e.yes:
                    exclude(e.card, i, e.target)
                    if where == e.target:
                        note(max(i, r), i, f"{e.target} answers no, but held {e.card.pretty} then")
                elif where is not None and where != e.target:
                    note(max(i, r), i, f"{e.target} gives {e.card.pretty}, but {where} held it then")
                settled = min((reveal[c] for c in book.cards if where_now.get(c) == e.asker), default=INF)
                self.asks.append((i, e.asker, book, max(i, settled)))
                if record.rules.must_declare:
                    for b in self.deck.books:
                        claimed = history[b.cards[0]].claimed
                        if claimed is None or claimed > before:
                            # A card of the book shown elsewhere than with the asker (where it was then).
                            shown = [reveal[c] for c in b.cards if c in where_now and where_now[c] != e.asker]
                            declared.append((i, e.asker, b, max(i, min(shown, default=INF))))
            elif isinstance(e, Claim):
                for card, holder in e.truth.items():
                    where = where_now.get(card)
                    if where is not None and where != holder:
                        note(max(i, reveal[card]), i, f"the claim shows {card.pretty} at {holder}, but {where} held it")
            for card, holder in moves.get(i, ()):
                where_now[card] = holder
        # A player ruled out of a card while it is unseen never held its whole book: per player
        # and book, (the event that ruled the player out, the step the card is shown) of such cards.
        lacking: dict[tuple[str, str], list[tuple[int, int]]] = {}
        for c, found in self.exclusions.items():
            book_name = self.deck.book_of(c).name
            r = reveal.get(c, INF)
            for event, p in found:  # the first exclusion of each player
                if event < r and p not in hands:
                    lacking.setdefault((p, book_name), []).append((event, r))
        for p, cards in hands.items():  # the view's own player holds no card but their own
            for b in self.deck.books:
                lacking[(p, b.name)] = [(0, reveal.get(c, INF)) for c in b.cards if c not in cards]

        def settles(event: int, player: str, book: Book, shown: int) -> int:
            """The first step from which the ask's must-declare requirement surely holds: a card of
            the book shown elsewhere, or one the player is ruled out of while it is still unseen."""
            found = shown
            for out, r in lacking.get((player, book.name), ()):
                start = max(event, out)
                if start < min(r, found):
                    found = start
            return found

        self.declares = [(i, p, b, settles(i, p, b, shown)) for i, p, b, shown in declared]

    def contradiction(self, at: int) -> Contradiction | None:
        """The direct contradiction the view sees after ``at`` events, if any (earliest first)."""
        f = self._first_found
        if f is None or f.step > at:
            return None
        return self._error(f.step, f.event, f.message)

    @cached_property
    def _first_found(self) -> _Found | None:
        return min(self.found, key=lambda x: (x.step, x.event), default=None)

    def _error(self, step: int, event: int, message: str) -> Contradiction:
        """The error for a contradiction seen after ``step`` events, caused by ``event``.

        It points at the line of the first event after which nothing fits, and names the
        earlier event it clashes with.
        """
        events = self.record.events
        line = events[step - 1].line if step > 0 else self.record.header_lines.get("Teams")
        if 0 < event < step:
            message = f"{self.record.event_label(event)}: {message}"
        return Contradiction(message, line=line, path=self.record.path, event=self.record.written_number(step))

    def position(self, at: int) -> Position:
        """The constraints after ``at`` events; raises Contradiction when they contradict directly."""
        found = self.contradiction(at)
        if found is not None:
            raise found
        history = self.history
        reveal = self.reveal
        in_play = tuple(c for c in self.deck.cards if history[c].claimed_after(at))
        known: dict[Card, str] = {}
        allowed: dict[Card, tuple[str, ...]] = {}
        ruled_out: dict[Card, dict[str, int]] = {}
        for c in self.deck.cards:
            shown = reveal.get(c, INF) <= at
            if not history[c].claimed_after(at):
                if shown:
                    continue
                # Out of play in a wrong claim written without its split, never shown: who was
                # dealt it is as unknown as for a card in play, and a deal must still place it.
            elif shown:
                known[c] = history[c].holder_at(at, self.origin[c])
                continue
            out, ps = self._allowed(c, at)
            if not ps:
                raise self._error(at, max(out.values()), f"nobody can hold {c.pretty}: every player is ruled out")
            allowed[c] = ps
            ruled_out[c] = out
        dealt_known = {p: 0 for p in self.players}
        for c, p in self.origin.items():
            if reveal[c] <= at:
                dealt_known[p] += 1
        slots = {p: self.sizes[p] - dealt_known[p] for p in self.players}
        for p, n in slots.items():
            if n < 0:
                raise self._error(
                    at,
                    at,
                    f"{p} was dealt {plural(self.sizes[p], 'card')}, but {dealt_known[p]} are shown as dealt to them",
                )
        unseen = {b.name: frozenset(c for c in b.cards if c in allowed) for b in self.deck.books}
        at_least = self._requirements(self._active_asks, at, unseen, "asks for a card of {book} without holding one")
        not_all = self._requirements(
            self._active_declares, at, unseen, "held all of {book} and asked instead of claiming"
        )
        return Position(
            at=at,
            view=self.view,
            deck=self.deck,
            players=self.players,
            in_play=in_play,
            known=known,
            allowed=allowed,
            slots=slots,
            at_least=at_least,
            not_all=not_all,
            ruled_out=ruled_out,
        )

    def _allowed(self, card: Card, at: int) -> tuple[dict[str, int], tuple[str, ...]]:
        """Who is ruled out for a never-shown card after ``at`` events (and by which event), and who is left."""
        exclusions = self.exclusions[card]
        k = bisect_right(exclusions, (at, "~"))
        cached = self._allowed_cache.get((card, k))
        if cached is None:
            out = {p: 0 for p in self.hands}
            for event, p in exclusions[:k]:
                out.setdefault(p, event)
            cached = (out, tuple(p for p in self.hidden if p not in out))
            self._allowed_cache[(card, k)] = cached
        return cached

    @cached_property
    def _active_asks(self) -> list[list[tuple[int, str, Book]]]:
        return self._sweep(self.asks)

    @cached_property
    def _active_declares(self) -> list[list[tuple[int, str, Book]]]:
        return self._sweep(self.declares)

    def _sweep(self, asks: list[tuple[int, str, Book, int]]) -> list[list[tuple[int, str, Book]]]:
        """For every step, the asks still unsettled then: the latest per (asker, book)."""
        # One pass over the steps (linear in the record): an ask joins its (asker, book) at its
        # event and leaves at the step that settles it. The steps' lists keep the pairs in the
        # order of their earliest unsettled ask, each with its latest one.
        starting: dict[int, list[int]] = {}
        settling: dict[int, list[int]] = {}
        for index, (event, _, _, settled) in enumerate(asks):
            if settled > event:
                starting.setdefault(event, []).append(index)
                settling.setdefault(settled, []).append(index)
        active: dict[tuple[str, str], dict[int, None]] = {}  # unsettled asks of each pair, by event
        steps: list[list[tuple[int, str, Book]]] = []
        for at in range(len(self.game.events) + 1):
            for index in settling.get(at, ()):
                _, asker, book, _ = asks[index]
                pair = active[(asker, book.name)]
                del pair[index]
                if not pair:
                    del active[(asker, book.name)]
            for index in starting.get(at, ()):
                _, asker, book, _ = asks[index]
                active.setdefault((asker, book.name), {})[index] = None
            pairs = sorted(active.values(), key=lambda pair: next(iter(pair)))
            steps.append([asks[next(reversed(pair))][:3] for pair in pairs])
        return steps

    def _requirements(
        self, active: list[list[tuple[int, str, Book]]], at: int, unseen: dict[str, frozenset[Card]], broken: str
    ) -> list[Requirement]:
        found = []
        for event, asker, book in active[at]:
            cards = unseen[book.name]
            if not cards:
                raise self._error(at, event, f"{asker} " + broken.format(book=book.pretty))
            found.append(Requirement(asker, book, cards, event, self.game.numbers[event - 1]))
        return found
