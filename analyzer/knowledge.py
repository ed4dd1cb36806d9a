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

from dataclasses import dataclass, field

from .cards import Book, Card, Deck
from .errors import Contradiction, UsageError
from .record import Ask, Claim, Record
from .replay import Game

PUBLIC = "public"


@dataclass(frozen=True)
class Requirement:
    """``player`` was dealt at least one of ``cards`` (or, for ``not_all``, not all of them)."""

    player: str
    book: Book
    cards: frozenset[Card]
    event: int  # the latest ask that says so


@dataclass
class Position:
    """The constraints on the deal in one view after ``at`` events."""

    at: int
    view: str
    deck: Deck
    players: tuple[str, ...]
    in_play: tuple[Card, ...]
    known: dict[Card, str]  # current holder of every in-play card whose holder the view knows
    allowed: dict[Card, tuple[str, ...]]  # never-shown cards: who may have been dealt them
    slots: dict[str, int]  # never-shown cards each player was dealt
    at_least: list[Requirement] = field(default_factory=list)
    not_all: list[Requirement] = field(default_factory=list)
    ruled_out: dict[Card, dict[str, int]] = field(default_factory=dict)  # 0: the view's own hand

    @property
    def unknown(self) -> tuple[Card, ...]:
        return tuple(self.allowed)


def view_hands(record: Record, view: str) -> dict[str, tuple[Card, ...]]:
    """The hands a view may use: none for ``public``, the player's own otherwise."""
    if view == PUBLIC:
        return {}
    player = record.table.resolve(view)
    if player is None:
        raise UsageError(f"'{view}' is neither 'public' nor a player of this game", path=record.path)
    if player not in record.hands:
        raise UsageError(
            f"{player} has no Hand line in this record, so their view cannot be taken", path=record.path
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


def position(game: Game, at: int, view: str = PUBLIC, hands: dict[str, tuple[Card, ...]] | None = None) -> Position:
    """The constraints of ``view`` after ``at`` events.

    ``hands`` overrides the hands the view uses (all written hands, for checking a record).
    Raises Contradiction when the record directly contradicts itself in this view.
    """
    record = game.record
    if hands is None:
        hands = view_hands(record, view)
        if view != PUBLIC:
            view = next(iter(hands))
    players = record.players
    deck = record.rules.deck
    history = game.history
    events = record.events
    sizes = record.deal_sizes

    def contradiction(event: int, message: str) -> Contradiction:
        line = events[event - 1].line if event > 0 else record.header_lines.get("Teams")
        return Contradiction(message, line=line, path=record.path, event=event)

    origin: dict[Card, str] = {}
    for p, cards in hands.items():
        for c in cards:
            origin[c] = p
    for card, h in history.items():
        if h.reveal is not None and h.reveal[0] <= at:
            event, holder = h.reveal
            if origin.get(card, holder) != holder:
                raise contradiction(event, f"{card} was shown at {holder}, but {origin[card]} was dealt it")
            origin[card] = holder

    in_play = tuple(c for c in deck.cards if history[c].claimed is None or history[c].claimed > at)
    known = {c: history[c].holder_at(at, origin[c]) for c in in_play if c in origin}
    hidden = [p for p in players if p not in hands]
    allowed_sets: dict[Card, set[str]] = {c: set(hidden) for c in in_play if c not in origin}
    ruled_out: dict[Card, dict[str, int]] = {c: {p: 0 for p in hands} for c in allowed_sets}

    dealt_known = {p: 0 for p in players}
    for p in origin.values():
        dealt_known[p] += 1
    slots = {p: sizes[p] - dealt_known[p] for p in players}
    for p, s in slots.items():
        if s < 0:
            raise contradiction(at, f"{p} was dealt {sizes[p]} cards, but {dealt_known[p]} are shown as dealt to them")

    unknown_by_book: dict[str, frozenset[Card]] = {
        b.name: frozenset(c for c in b.cards if c in allowed_sets) for b in deck.books
    }
    at_least: dict[tuple[str, str], Requirement] = {}
    not_all: dict[tuple[str, str], Requirement] = {}

    def held_at(card: Card, step: int) -> str | None:
        o = origin.get(card)
        return None if o is None else history[card].holder_at(step, o)

    def rule_out(card: Card, player: str, event: int) -> None:
        if card in allowed_sets:
            allowed_sets[card].discard(player)
            ruled_out[card].setdefault(player, event)

    bluffing = record.rules.bluffing
    must_declare = record.rules.must_declare
    for i, e in enumerate(events[:at], start=1):
        before = i - 1
        if isinstance(e, Ask):
            book = deck.book_of(e.card)
            where = held_at(e.card, before)
            if where is None:
                if not bluffing:
                    rule_out(e.card, e.asker, i)
                rule_out(e.card, e.target, i)
            elif where == e.asker and not bluffing:
                raise contradiction(i, f"{e.asker} asks for {e.card}, but held it then")
            elif e.yes and where != e.target:
                raise contradiction(i, f"{e.target} gives {e.card}, but {where} held it then")
            elif not e.yes and where == e.target:
                raise contradiction(i, f"{e.target} answers no, but held {e.card} then")
            if not any(held_at(c, before) == e.asker for c in book.cards if c in origin):
                unseen = unknown_by_book[book.name]
                if not unseen:
                    raise contradiction(i, f"{e.asker} asks for {e.card} without holding a card of {book.name}")
                at_least[(e.asker, book.name)] = Requirement(e.asker, book, unseen, i)
            if must_declare:
                for b in deck.books:
                    if any(history[c].claimed is not None and history[c].claimed <= before for c in b.cards):
                        continue
                    if all(held_at(c, before) == e.asker for c in b.cards if c in origin):
                        unseen = unknown_by_book[b.name]
                        if not unseen:
                            raise contradiction(i, f"{e.asker} held all of {b.name} and asked instead of claiming")
                        not_all[(e.asker, b.name)] = Requirement(e.asker, b, unseen, i)
        elif isinstance(e, Claim):
            for card, holder in e.truth.items():
                where = held_at(card, before)
                if where is not None and where != holder:
                    raise contradiction(i, f"the claim shows {card} at {holder}, but {where} held it")

    allowed: dict[Card, tuple[str, ...]] = {}
    for c, ps in allowed_sets.items():
        if not ps:
            raise contradiction(at, f"nobody can hold {c}: every player is ruled out")
        allowed[c] = tuple(p for p in players if p in ps)
    return Position(
        at=at,
        view=view,
        deck=deck,
        players=players,
        in_play=in_play,
        known=known,
        allowed=allowed,
        slots=slots,
        at_least=list(at_least.values()),
        not_all=list(not_all.values()),
        ruled_out=ruled_out,
    )
