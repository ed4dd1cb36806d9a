"""Which way the odds are counted: a choice made per view, and per book inside the book-by-book
counter, that callers (and tests) can force by passing a ``Routes``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from ..errors import HalfsuitError


class TooLarge(HalfsuitError):
    """A view whose exact odds cost more than the counters' budget. Not a fault of the record:
    callers report the odds as not counted and go on (exit status 1 if it ever reaches the top)."""

    exit_code = 1
    code = "too-large"


class Counter(Enum):
    """The two counters: over the board of forbidden pairs, or book by book."""

    AUTO = "auto"  # whichever the estimates say is cheaper
    BOARDS = "boards"
    BOOKS = "books"


@dataclass(frozen=True)
class Routes:
    """The choices of route, with the defaults fitted on this project's machine.

    - ``counter``: the counter for a view (``AUTO``: by estimated cost).
    - ``sparse_bias_ns``: added to the fixed cost of the book-by-book counter's sparse way
      through a book; very large forces the whole boxes, very negative the sparse way.
    - ``small_keep``: going back sparsely, a box this small is read state by state.
    - ``simplex_least``: books are expanded as rows over a simplex from this many rows on,
      monomial by monomial below (and above ``books._SIMPLEX_MOST``).
    - ``max_states``: the book-by-book counter's memory bound, in states of a box.
    - ``books_cheap``: a book-by-book count estimated under this (nanoseconds, by
      ``books_versus_walk``) is taken at once, without making the board walk.
    - ``boards_cheap``: else a board walk estimated under this is taken.
    - ``budget_ns``: a view whose cheaper counter is estimated to take longer than this (in
      nanoseconds, on this project's machine) is not counted (``TooLarge``).
    - ``books_weight``: one unit of the book-by-book plan's cost in steps of the board walk
      (both fitted on this project's machine: about 400 ns and 1 ns), for saying how long a
      view past the budget would take.
    - ``books_likely``: the same, as the book-by-book count usually turns out (its plan errs high,
      5 to 160 times on probing openings), and ``walk_likely`` what the walk's estimate is over
      what it usually takes (it errs high 25 to 330 times on the biggest views): a view whose
      board walk is past the budget goes to the one likely the faster of those likely to fit it.
    - ``books_versus_walk``: one unit of the plan's cost in nanoseconds of the walk's estimate,
      for choosing between them below the budget (and with ``books_cheap``). Both estimates err
      high, the plan's the more (it ignores the sparse way through a book, which the views of
      early and middle game take): fitted on the 530 views of the 128-event sample's report and
      the 6-player probing openings, where 40 picks the faster counter nearly everywhere.
    """

    counter: Counter = Counter.AUTO
    sparse_bias_ns: float = 0.0
    small_keep: int = 1 << 12
    simplex_least: int = 1 << 9
    max_states: int = 1 << 21
    boards_cheap: int = 3_000_000
    books_cheap: int = 40_000_000
    budget_ns: int = 20_000_000_000
    books_weight: int = 400
    books_versus_walk: int = 40
    books_likely: int = 10
    walk_likely: int = 64

    def choose(self, books: int | None, walk: Callable[[], int]) -> Counter | None:
        """The counter for a view by the estimates (``AUTO``; a forced counter is returned as it
        is): ``books`` the book-by-book plan's cost (None when it does not fit ``max_states``),
        ``walk()`` the board walk's estimate in nanoseconds, asked for only when the book-by-book
        count is not cheap (making the board is most of a cheap view's time). None when neither
        fits the budget.

        The book-by-book count when it is cheap (``books_cheap``); else the walk when it is cheap
        (``boards_cheap``); else the book-by-book count when it is the cheaper (weighed by
        ``books_versus_walk``); else the walk when it fits the budget; else, past the budget by
        both estimates, the one likely the faster of those likely to fit it (``books_likely``,
        ``walk_likely``)."""
        if self.counter is not Counter.AUTO:
            return self.counter
        versus_walk = None if books is None else books * self.books_versus_walk
        if versus_walk is not None and versus_walk <= self.books_cheap:
            return Counter.BOOKS  # (on every view of the sample report and probing openings with a cheap walk)
        estimate = walk()
        if estimate <= self.boards_cheap:
            return Counter.BOARDS
        if versus_walk is not None and versus_walk <= min(estimate, self.budget_ns):
            return Counter.BOOKS  # (its estimate errs high early in a game, where it goes sparse)
        if estimate <= self.budget_ns:
            return Counter.BOARDS
        # Past the budget by their estimates: the one likely the faster, as each usually turns out.
        likely_books = None if books is None else books * self.books_likely
        likely_walk = estimate / self.walk_likely
        if likely_books is not None and likely_books <= min(likely_walk, self.budget_ns):
            return Counter.BOOKS
        if likely_walk <= self.budget_ns:
            return Counter.BOARDS
        return None

    @staticmethod
    def whole_boxes() -> Routes:
        """Book by book, every book through its whole box."""
        return Routes(counter=Counter.BOOKS, sparse_bias_ns=float(1 << 60))

    @staticmethod
    def always_sparse(state_by_state: bool) -> Routes:
        """Book by book, every book it can expand the sparse way; going back, the values before a
        book computed state by state where needed, or else as a whole box."""
        return Routes(
            counter=Counter.BOOKS, sparse_bias_ns=-float(1 << 60), small_keep=1 << 30 if state_by_state else 0
        )


DEFAULT = Routes()
