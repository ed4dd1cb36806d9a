"""Exact odds of who holds each card in a view, by counting every fitting deal.

Every fitting deal is equally likely, so the odds that card ``c`` is with ``p`` are (deals with
``c`` at ``p``) / (all deals). Three counters do the counting, each exact:

- ``boards``: inclusion-exclusion over the board of forbidden (card, player) pairs and over the
  requirements, player by player; fast when few pairs are forbidden (openings: every player
  asks once, most asks fail).
- ``books``: a generating function built book by book over the players' free slots; fast when
  the free slots are few (later in a game).
- ``folds``: the same generating function written as exceptions to a deal of every card to
  anyone, each player folded into the total once no later book concerns it; fast when every
  player is concerned by a few books (openings of many asks, each in a different book).

``route`` picks one per view by their estimated costs (``Routes`` forces one); all work modulo
primes (``arithmetic``) and give the exact integers back. A view too costly for every one raises
``TooLarge``; ``odds_or_reason`` turns that into a sentence for the caller to print.
"""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from ..cards import Card
from ..knowledge import Position
from ..solver import NoFit, solve
from . import parallel
from .routes import DEFAULT, Counter, Routes, TooLarge

if TYPE_CHECKING:
    from .boards import Board
    from .books import BookCount
    from .folds import FoldCount

__all__ = [
    "Counter",
    "Odds",
    "Routes",
    "TooLarge",
    "card_odds",
    "card_ways",
    "count_deals",
    "information",
    "keep_freed_memory",
    "odds_or_reason",
    "route",
]


@dataclass(frozen=True)
class Odds:
    """Exact odds of every card in play: ``cards[c][p]`` > 0 for exactly the possible holders."""

    deals: int
    cards: dict[Card, dict[str, Fraction]]


def keep_freed_memory() -> bool:
    """Ask the C allocator (glibc) to keep freed memory for reuse, for the whole process.

    A big count makes and drops arrays of a few hundred KiB many times; by default glibc hands
    such blocks back to the system and each new one is faulted in again, page by page, which
    costs 10-30% of a slow view. And one arena serves every thread: by default each thread of a
    count (``parallel``) has its own, and keeps what it freed for itself alone; sweeping the
    whole 8-player jokers game of seed 0 up to the public view after event 50, the process
    grew to 542 and 555 MiB that way (two runs), and to 256 and 275 MiB with one arena, that
    view taking 268 ms where it took 287 and 300. Applications (the command line, the
    benchmarks) call this once; it does nothing, and returns False, where the allocator is not
    glibc.
    """
    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError, TypeError):  # not a C library that has it
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    m_trim_threshold, m_mmap_threshold, m_arena_max = -1, -3, -8
    kept = bool(mallopt(m_mmap_threshold, 32 << 20)) and bool(mallopt(m_trim_threshold, 256 << 20))
    return kept and bool(mallopt(m_arena_max, 1))


def information(before: int, after: int) -> float:
    """Bits an event gives a view: log2 of the fitting deals before over those after."""
    return math.log2(before) - math.log2(after)


def route(pos: Position, odds: bool = True, routes: Routes = DEFAULT) -> Counter:
    """The counter for a view: the one likely the fastest by the estimates (``Routes.weigh``),
    the book-by-book count without planning the others when it is likely quick, or without
    weighing them further when the fold is likely much slower (``Routes.plain_beats_folds``).
    ``TooLarge`` when none is likely within the budget (``Routes.budget_ns``) and fits its memory
    bound (``Routes.max_states``)."""
    from .boards import Board
    from .folds import FoldCount

    counter = _counter(pos, odds, routes)
    if isinstance(counter, Board):
        return Counter.BOARDS
    return Counter.FOLDS if isinstance(counter, FoldCount) else Counter.BOOKS


def _counter(pos: Position, odds: bool, routes: Routes) -> Board | BookCount | FoldCount:
    """The chosen counter, ready to run (its plan made once). Imported here: numpy loads only
    when odds are counted."""
    from .boards import Board
    from .books import BookCount
    from .folds import FoldCount

    if routes.counter is Counter.BOARDS:
        return Board(pos)
    books = BookCount(pos, routes, odds)
    if routes.counter is Counter.FOLDS:
        return FoldCount(pos, routes, books.model, odds)
    if routes.plain_is_quick(books.plain_cost, books.unknown):
        books.take_plain()  # (most views of a game: weighing the others would take longer)
        return books
    board: Board | None = None
    estimate: int | None = None
    folded: FoldCount | None = None
    plain = books.plain_cost

    def folds_ns() -> float:
        """How long the fold planned likely takes by its law (never, when not planned or past
        its memory bound)."""
        return routes.likely_folds_ns(folded.cost) if folded is not None and folded.fits else math.inf

    if routes.folds_first(plain):
        # The fold is weighed first (``Routes.weigh``): where it is likely much slower than the
        # plainest count by their laws, that count is taken, nothing else weighed.
        folded = FoldCount(pos, routes, books.model, odds)
        if folded.fits and routes.plain_beats_folds(plain, books.unknown, folds_ns()):
            books.take_plain()
            return books

    def folds() -> int | None:
        nonlocal folded
        if folded is None:
            folded = FoldCount(pos, routes, books.model, odds)
        return folded.cost if folded.fits else None

    def walk() -> int:
        nonlocal board, estimate
        if estimate is None:
            board = Board(pos)  # (making it is most of a cheap view's time: only when needed)
            estimate = board.estimate(odds)
        return estimate

    def multiplied() -> int | None:
        return folded.multiplied_cost if folded is not None else None

    def searched() -> int | None:
        # The search for a cheaper plan only where it may pay for itself (``plain_will_do``).
        if routes.plain_will_do(plain, books.unknown, folds_ns()):
            books.take_plain()
        return books.cost if books.fits else None

    choice, likely = routes.weigh(searched, walk, folds, plain, multiplied)
    if choice is Counter.BOOKS:
        return books
    if choice is Counter.FOLDS:
        assert folded is not None
        return folded
    if choice is Counter.BOARDS:
        return board if board is not None else Board(pos)
    best = min(likely.values())
    raise TooLarge(_too_large(pos, f"about {best / 1e9:,.0f} s by the cheapest of the three counters"))


def _too_large(pos: Position, detail: str) -> str:
    binding = pos.binding_not_all()
    why = " (the house rule must-declare adds a requirement per book and asker)" if binding else ""
    return f"the exact odds of this view cost more than the counter's budget: {detail}{why}"


def _count(pos: Position, odds: bool, routes: Routes) -> tuple[int, dict[Card, dict[str, int]]]:
    from .boards import Board

    parallel.threads()  # (``HALFSUIT_THREADS`` set wrong is an error of every count, not the big ones' alone)
    counter = _counter(pos, odds, routes)
    try:  # (a forced counter may be past its memory bound: its run says by how much)
        return counter.count(odds) if isinstance(counter, Board) else counter.run(odds)
    except TooLarge as exc:
        raise TooLarge(_too_large(pos, exc.message)) from None


def count_deals(pos: Position, routes: Routes = DEFAULT) -> int:
    """The exact number of deals of the never-shown cards that fit ``pos``; NoFit when none."""
    deals = _count(pos, False, routes)[0]
    if deals == 0:
        raise NoFit(_why(pos))
    return deals


def card_ways(pos: Position, routes: Routes = DEFAULT) -> tuple[int, dict[Card, dict[str, int]]]:
    """The fitting deals and, for every card in play whose holder is not known, the deals with
    it at each player who holds it in some (players in seat order): ``card_odds`` as whole
    numbers, without fractions. NoFit when no deal fits."""
    deals, at = _count(pos, True, routes)
    if deals == 0:
        raise NoFit(_why(pos))
    players = pos.players
    ways: dict[Card, dict[str, int]] = {}
    for c in pos.in_play:
        if c not in pos.known:
            here = at[c]
            ways[c] = {p: here[p] for p in players if here.get(p, 0) > 0}
    return deals, ways


def card_odds(pos: Position, routes: Routes = DEFAULT) -> Odds:
    """Exact odds of every card in play, players in seat order; NoFit when no deal fits."""
    deals, ways = card_ways(pos, routes)
    cards: dict[Card, dict[str, Fraction]] = {}
    for c in pos.in_play:
        if c in pos.known:
            cards[c] = {pos.known[c]: Fraction(1)}
        else:
            cards[c] = {p: Fraction(w, deals) for p, w in ways[c].items()}
    return Odds(deals, cards)


def odds_or_reason(pos: Position, routes: Routes = DEFAULT) -> Odds | str:
    """The exact odds, or (when they cost more than the budget) a sentence saying why not, for
    the caller to print in their place; NoFit when no deal fits."""
    try:
        return card_odds(pos, routes)
    except TooLarge as exc:
        return exc.message


def _why(pos: Position) -> str:
    try:
        solve(pos)
    except NoFit as exc:
        return exc.why
    return "no deal fits: the requirements on the books cannot all be met at once"
