"""Cards, books and the decks of every variant, as data."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import ClassVar

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("S", "H", "D", "C")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SYMBOL_SUITS = {v: k for k, v in SUIT_SYMBOLS.items()}
JOKERS = ("BJ", "RJ")
RANK_BOOK_NAMES = (
    "twos", "threes", "fours", "fives", "sixes", "sevens", "eights",
    "nines", "tens", "jacks", "queens", "kings", "aces",
)  # fmt: skip
SHORT_BOOKS = {
    f"{half[0].upper()}{suit}": f"{half}-{name}" for half in ("low", "high") for suit, name in SUIT_NAMES.items()
}


class Card:
    """A playing card: ``rank`` is ``2``..``A`` (``JOKER`` for a joker, with suit ``B``/``R``).

    Cards are interned: ``Card("10", "H") is Card("10", "H")``, so equality and hashing are
    identity, which keeps the solver's dictionaries fast. Instances are immutable.
    """

    __slots__ = ("code", "rank", "suit")
    _interned: ClassVar[dict[tuple[str, str], Card]] = {}
    rank: str
    suit: str
    code: str

    def __new__(cls, rank: str, suit: str) -> Card:
        card = cls._interned.get((rank, suit))
        if card is None:
            card = object.__new__(cls)
            object.__setattr__(card, "rank", rank)
            object.__setattr__(card, "suit", suit)
            object.__setattr__(card, "code", f"{suit}J" if rank == "JOKER" else f"{rank}{suit}")
            cls._interned[(rank, suit)] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[str, str]]:
        return (Card, (self.rank, self.suit))

    @property
    def pretty(self) -> str:
        """Spelling with a suit symbol: ``10♥``; jokers as ``BJ``/``RJ``."""
        if self.rank == "JOKER":
            return self.code
        return f"{self.rank}{SUIT_SYMBOLS[self.suit]}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"


_CARD_RE = re.compile(r"^(10|[2-9TJQKA])([SHDC♠♥♦♣])$", re.IGNORECASE)


@cache
def parse_card(text: str) -> Card:
    """Read a card in any accepted spelling (``10h``, ``TH``, ``10♥``, ``rj``).

    Raises ValueError with a short reason when the text is not a card.
    """
    t = text.strip()
    if t.upper() in JOKERS:
        return Card("JOKER", t.upper()[0])
    m = _CARD_RE.match(t)
    if not m:
        raise ValueError(f"'{text}' is not a card (write e.g. 7S, 10H, QD, RJ)")
    rank = m.group(1).upper()
    rank = "10" if rank == "T" else rank
    suit = m.group(2)
    suit = _SYMBOL_SUITS.get(suit, suit.upper())
    return Card(rank, suit)


class DeckKind(Enum):
    STANDARD = "standard"
    NO_2S = "no-2s"
    NO_7S = "no-7s"
    JOKERS = "jokers"
    RANKS = "ranks"


@dataclass(frozen=True, slots=True)
class Book:
    """A set of cards claimed together (a half-suit, the eights-and-jokers, or a rank)."""

    name: str
    cards: tuple[Card, ...]
    high: bool

    @property
    def pretty(self) -> str:
        """Spoken name: ``low spades``."""
        return self.name.replace("-", " ")

    def __str__(self) -> str:
        return self.name


class Deck:
    """The cards and books of one deck variant, in a fixed display order.

    One instance per variant (``make_deck`` is cached), so identity is equality.
    """

    def __init__(self, kind: DeckKind, books: tuple[Book, ...]) -> None:
        self.kind = kind
        self.books = books
        self.cards: tuple[Card, ...] = tuple(c for b in books for c in b.cards)
        self._book_index = {c: b for b in books for c in b.cards}

    def __repr__(self) -> str:
        return f"Deck({self.kind.value})"

    @property
    def name(self) -> str:
        return self.kind.value

    def book_of(self, card: Card) -> Book:
        return self._book_index[card]

    def has(self, card: Card) -> bool:
        return card in self._book_index

    def book(self, name: str) -> Book:
        """Find a book by any accepted spelling (``low-spades``, ``LS``, ``Low-Spades``)."""
        key = name.strip().lower()
        key = SHORT_BOOKS.get(key.upper(), key)
        for b in self.books:
            if b.name == key:
                return b
        raise ValueError(f"'{name}' is not a book of the {self.name} deck")


def _half_suits(low_ranks: tuple[str, ...], high_ranks: tuple[str, ...]) -> list[Book]:
    books = []
    for suit in SUITS:
        for half, ranks in (("low", low_ranks), ("high", high_ranks)):
            books.append(Book(f"{half}-{SUIT_NAMES[suit]}", tuple(Card(r, suit) for r in ranks), half == "high"))
    return books


@cache
def make_deck(kind: DeckKind) -> Deck:
    """Build the deck of a variant (see the record format's ``Deck`` header)."""
    high = ("9", "10", "J", "Q", "K", "A")
    if kind is DeckKind.RANKS:
        books = [
            Book(name, tuple(Card(r, s) for s in SUITS), False) for name, r in zip(RANK_BOOK_NAMES, RANKS, strict=True)
        ]
        return Deck(kind, tuple(books))
    removed = {DeckKind.NO_2S: "2", DeckKind.NO_7S: "7"}.get(kind, "8")
    low = tuple(r for r in ("2", "3", "4", "5", "6", "7", "8") if r != removed)
    books = _half_suits(low, high)
    if kind is DeckKind.JOKERS:
        eights = (*(Card("8", s) for s in SUITS), Card("JOKER", "B"), Card("JOKER", "R"))
        books.append(Book("eights", eights, False))
    return Deck(kind, tuple(books))


def deck_kind(text: str) -> DeckKind:
    try:
        return DeckKind(text.strip().lower())
    except ValueError:
        names = ", ".join(k.value for k in DeckKind)
        raise ValueError(f"unknown deck '{text.strip()}' (one of: {names})") from None
