"""Which way the odds are counted: a choice made per view, and per book inside the book-by-book
counter, that callers (and tests) can force by passing a ``Routes``."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from functools import cache

from ..errors import HalfsuitError


class TooLarge(HalfsuitError):
    """A view whose exact odds cost more than the counters' budget. Not a fault of the record:
    callers report the odds as not counted and go on (exit status 1 if it ever reaches the top)."""

    exit_code = 1
    code = "too-large"


class Counter(Enum):
    """The three counters: over the board of forbidden pairs, book by book, or book by book with
    players folded into the total."""

    AUTO = "auto"  # whichever the estimates say is cheapest
    BOARDS = "boards"
    BOOKS = "books"
    FOLDS = "folds"


@dataclass(frozen=True)
class Routes:
    """The choices of route, with the defaults fitted on this project's machine.

    - ``counter``: the counter for a view (``AUTO``: by estimated cost).
    - ``sparse_bias_ns``: added to the fixed cost of the book-by-book counter's sparse way
      through a book; very large forces the whole boxes, very negative the sparse way.
    - ``small_keep``: going back sparsely, a box this small is read state by state.
    - ``simplex_least``: books are expanded as rows over a simplex from this many rows on,
      monomial by monomial below (and above ``books._SIMPLEX_MOST``).
    - ``max_states``: the book-by-book counter's memory bound, in states of a box (the count
      folding players holds at most eight times as many array elements a run, and runs going at
      once in threads twice that; book by book, runs at once keep their boxes together within it).
    - ``books_scale``, ``books_power``: how long the book-by-book count likely takes, in
      nanoseconds, from its plan's cost: ``books_scale * cost ** books_power``.
    - ``walk_scale``, ``walk_power``: the same for the board walk, from its estimate
      (``Board.estimate``, in nanoseconds as the walk once was: it errs high, the more so the
      bigger the view).
    - ``folds_scale``, ``folds_power``: the same for the count with players folded
      (``FoldCount.cost``).
    - ``books_cheap``: a count likely to take less than this (nanoseconds) is taken at once,
      without making the board walk (most of a cheap view's routing).
    - ``folds_worth``: the counter folding players is planned only when the book-by-book count
      likely takes longer than this (its plan costs a few milliseconds).
    - ``search_gain``: the book-by-book count's search for a cheaper plan (a few to 15
      milliseconds on the slow views) is skipped when the fold is likely this many times
      quicker than the plainest plan. On every third view of the probing openings whose plainest
      plan is not quick (310 views, 6 and 8 players), the plan searched was likely at most 2.5
      times quicker than the plainest.
    - ``budget_ns``: a view whose counters are all likely to take longer than this is not
      counted (``TooLarge``).
    - ``multiplied_from_ns``, ``multiplied_gain``: where the book-by-book count is chosen and
      likely takes this long or more, the count folding players is weighed again with its
      heaviest groups multiplied out (``FoldCount.multiplied_cost``, through the same law), and
      taken when likely this many times quicker; ``multiplied_reach``: but only when the fold
      through card factors is likely at most this many times slower than the book-by-book count
      (multiplying out takes milliseconds: on the jokers game's public views after events 34 to
      39 it made the fold a fifth quicker). Worth it only on the slowest views: the law was
      fitted on the count through card factors, and on quicker views it puts the fold
      multiplied out too quick. Likely quicker at all is enough (a gain of 1): there the
      book-by-book law errs low. On the whole 8-player probing games (seeds 0 to 3; standard,
      jokers and must-declare; every view), the views whose fold multiplied out was likely
      0.95 to 0.99 of the book-by-book count took 1.3 to 1.6 times as long book by book as
      folded (each code in a process of its own: the jokers game's public views after events 42
      to 45 of seed 0, 860 to 1,016 ms against 556 to 634 ms; after events 40 and 41 of seed 2,
      682 to 709 ms against 500 to 567 ms); of the two likely slower folded (1.06 and 1.14
      times), one was a tenth quicker folded, the other 2.5 times slower.
    - ``plain_scale``, ``plain_power``, ``plain_growth``, ``plain_quick_ns``: the book-by-book
      count with its plainest plan, made and run, likely takes ``plain_scale * cost **
      plain_power * plain_growth ** unknown`` ns (``unknown``: the cards whose holder the view
      does not know); where that is at most ``plain_quick_ns``, the view is counted so at once,
      nothing else planned (``plain_is_quick``). The laws above were fitted to choose well on
      the slow views of openings, where the count goes through whole boxes; later in a game it
      goes through few states of them, and on the views of whole games they put it 3 to 7
      times too slow, so the router spent more time weighing the others (10 ms and more) than
      the count took. Least squares on the logarithms over 3,349 views (whole 8-player games of
      seed 0, every fourth view, in every variant; the probing openings of seed 0, 6 and 8
      players, every view; each count the better of two), four views in five within 0.48 to 2.2
      times. No view it takes at once took more than 24 ms so. Replayed on those views
      (``scripts/fit_plain.py``), no group's median view is slower and none's worst changes
      (the jokers whole game's median 19.1 to 17.0 ms); at 20 ms, the 6-player openings'
      medians rise (the fold was quicker there).
    - ``search_from_ns``: the book-by-book count's search for a cheaper plan (3 to 10 ms) is
      made only where it may pay (and ``plain_beats_folds``, weighed before, has not taken the
      plainest plan: it takes most views the fold is planned for first): where its plainest
      count likely takes this long or more by that law, or where the fold is likely quicker than
      the plainest plan (by their laws: the plan searched may be quicker than both). Elsewhere
      the plan searched was often a fourth the cost, but the plainest count took a few
      milliseconds, about what the search takes.
    - ``plain_sure_ns``, ``plain_over_folds``, ``folds_floor_ns``: where the fold is planned
      first (``folds_first``) and is likely ``plain_over_folds`` times slower or more than the
      plainest count, that count likely taking at most ``plain_sure_ns`` by its own law, the
      plainest plan is counted at once (``plain_beats_folds``). On the views the router weighs
      later in a game, the book-by-book law puts the count 2 to 3 times too slow, and the fold's
      law puts the fold 1.5 to 2 times too quick on the slow ones and 10 times and more on
      small ones (it leaves out the fold's fixed work, a few dozen array steps per term of each
      book): the router folded views the plainest count took in a third of the time or less.
      Hence the fold is weighed here by its law and ``folds_floor_ns`` more, chosen by a replay
      of the router over 0, 10, 20 and 30 ms; and the bound, as past 80 ms the plainest count's
      law errs low (the jokers game's public views after events 28 to 40, plainest plans of
      10**8 and more, are likely 125 to 155 ms by it and take 1.2 to 1.7 s that way). The
      replay (``scripts/replay_router.py``) and its figures: docs/speed-history.md, "The fold left where the
      plainest count is much quicker".
    - ``multiply``: whether the count folding players goes through a group monomial by
      monomial, its terms multiplied out (``folds._Step.multiplied``): None by the work of each
      way, True wherever the coefficients allow, False never.

    Fitted with ``scripts/fit_routes.py`` on 3,498 views: every view at every step of the probing
    openings (6 and 8 players, three decks and must-declare, seeds 0 and 1) and the counts of the
    128-event sample's report, each counter timed on each (processor time, on this project's
    machine). Least squares on the logarithms give the book-by-book count about ``317 *
    cost ** 0.726`` ns and the walk about ``16,330 * estimate ** 0.386`` ns (the walk's estimate
    errs from 3 times low on the smallest views to 2,000 times high on the biggest; four
    views in five are within 0.55 to 1.7 times either law, fitted on the views that took at
    least 5 ms). The defaults below are not those least-squares laws but the ones the script's
    grid search then chose about them (their powers, the ratio of their scales, ``books_cheap``)
    to make the slowest view of each group, then the total, least, refusing no view and keeping
    the report's counts as fast as before: books ``888.2 * cost ** 0.676``, the walk
    ``22,870 * estimate ** 0.386`` (its least-squares law, 1.4 times slower). The measurements
    are cached in ``build/fit_routes.jsonl``; ``python scripts/fit_routes.py`` fits them again.

    The count folding players came later: its law, ``76.6 * cost ** 0.823`` ns, is least squares
    on the logarithms over the probing views (8 players seed 0, 6 players seeds 0 and 1) whose
    cost is at least 10**6 (680 views, each timed once; four in five within 0.76 to 1.37 times
    the law). Since its moves along inner axes are made flat and its dots run over the box on the
    way in, the fold takes about 0.7 of that law (median over the 619 such views now). Least
    squares again give ``690.1 * cost ** 0.663``; with each counter timed on each of those views,
    routing by it would be no quicker (23.6 s in all either way; the quickest counter on each view
    would take 21.9 s), so the law stays.

    A count without the odds (``count_deals``) is weighed by its own costs (``BookCount.cost``
    and ``FoldCount.cost`` made with ``odds=False``: the way forward only, and no family of a
    card forced on a player), through the same laws. On the 8-player probing openings (seed 0,
    each count timed once), over the views whose count-only cost is at least 10**6 (533 book by
    book, 194 folded), both laws put them about 1.5 times too slow (timed over likely, median 0.64
    book by book and 0.68 folded), alike, so the choice between the two holds.
    """

    counter: Counter = Counter.AUTO
    sparse_bias_ns: float = 0.0
    small_keep: int = 1 << 12
    simplex_least: int = 1 << 9
    max_states: int = 1 << 21
    books_scale: float = 888.2
    books_power: float = 0.676
    walk_scale: float = 22_870.0
    walk_power: float = 0.386
    folds_scale: float = 76.6
    folds_power: float = 0.823
    books_cheap: int = 20_000_000
    folds_worth: int = 5_000_000
    search_gain: float = 4.0
    budget_ns: int = 20_000_000_000
    multiplied_from_ns: int = 400_000_000
    multiplied_gain: float = 1.0
    multiplied_reach: float = 1.4
    multiply: bool | None = None
    plain_scale: float = 117_986.0
    plain_power: float = 0.2982
    plain_growth: float = 1.0198
    plain_quick_ns: int = 15_000_000
    search_from_ns: int = 40_000_000
    plain_sure_ns: int = 80_000_000
    plain_over_folds: float = 2.0
    folds_floor_ns: int = 20_000_000

    def likely_plain_ns(self, cost: int, unknown: int) -> float:
        """How long the book-by-book count with its plainest plan, of this cost, likely takes,
        made and run (nanoseconds), with ``unknown`` cards whose holder is not known."""
        return self.plain_scale * math.pow(max(1, cost), self.plain_power) * math.pow(self.plain_growth, unknown)

    def plain_is_quick(self, cost: int | None, unknown: int) -> bool:
        """Whether a view (``AUTO``) is counted book by book with its plainest plan at once,
        without planning anything else: its cost known (the plan fits) and the count likely
        quick (``plain_quick_ns``, and within the budget). A count without the odds is weighed
        on its own cost (``plain_cost``) by the same law, fitted with the odds: it errs slow
        there, towards weighing the others as before."""
        return (
            self.counter is Counter.AUTO
            and cost is not None
            and self.likely_plain_ns(cost, unknown) <= min(self.plain_quick_ns, self.budget_ns)
        )

    def folds_first(self, plain: int | None) -> bool:
        """Whether the router (``AUTO``) plans the fold before anything else: the plainest
        book-by-book plan's cost known and, by the book-by-book law, past ``folds_worth``."""
        return self.counter is Counter.AUTO and plain is not None and self.likely_books_ns(plain) > self.folds_worth

    def plain_beats_folds(self, plain: int | None, unknown: int, folds_ns: float) -> bool:
        """Whether a view not quick (``plain_is_quick``, ``AUTO``) is counted book by book with its
        plainest plan as soon as the fold is planned, nothing else weighed, the fold likely taking
        ``folds_ns`` by its law: where the plainest count likely takes at most ``plain_sure_ns``
        by its own law (and within the budget), and the fold, with ``folds_floor_ns`` more,
        ``plain_over_folds`` times that or more."""
        if self.counter is not Counter.AUTO or plain is None:
            return False
        likely = self.likely_plain_ns(plain, unknown)
        slower = likely * self.plain_over_folds <= folds_ns + self.folds_floor_ns
        return likely <= min(self.plain_sure_ns, self.budget_ns) and slower

    def plain_will_do(self, plain: int | None, unknown: int, folds_ns: float) -> bool:
        """Whether a view not quick (``plain_is_quick``) is counted book by book with its plainest
        plan, without the search for a cheaper one (3 to 10 ms), the fold likely taking
        ``folds_ns``: where the plainest count likely takes less than ``search_from_ns`` by its
        own law, and the fold is likely slower than the plainest plan by the book-by-book law
        (where it is likely quicker, the plan searched may be quicker than both)."""
        return (
            plain is not None
            and folds_ns >= self.likely_books_ns(plain)
            and self.likely_plain_ns(plain, unknown) < self.search_from_ns
        )

    def likely_books_ns(self, cost: int) -> float:
        """How long the book-by-book count of a plan of this cost likely takes (nanoseconds)."""
        return self.books_scale * math.pow(cost, self.books_power)

    def likely_walk_ns(self, estimate: int) -> float:
        """How long a board walk of this estimate likely takes (nanoseconds)."""
        return self.walk_scale * math.pow(estimate, self.walk_power)

    def likely_folds_ns(self, cost: int) -> float:
        """How long the count folding players, of this cost, likely takes (nanoseconds)."""
        return self.folds_scale * math.pow(max(1, cost), self.folds_power)

    def choose(
        self,
        books: Callable[[], int | None],
        walk: Callable[[], int],
        folds: Callable[[], int | None] | None = None,
        plain: int | None = None,
    ) -> Counter | None:
        """``weigh``'s choice alone."""
        return self.weigh(books, walk, folds, plain)[0]

    def weigh(
        self,
        books: Callable[[], int | None],
        walk: Callable[[], int],
        folds: Callable[[], int | None] | None = None,
        plain: int | None = None,
        multiplied: Callable[[], int | None] | None = None,
    ) -> tuple[Counter | None, dict[Counter, float]]:
        """The counter for a view by the estimates (``AUTO``; a forced counter is returned as it
        is, nothing asked for). ``books()``: the book-by-book plan's cost (None when it does not
        fit ``max_states``), the plan searched or, where the search would likely not pay, the
        plainest (``plain_will_do``); ``folds()``: the cost of the count folding players (None
        when it does not fit), asked for only when the book-by-book count is not quick
        (``folds_first``); ``walk()``: the board walk's estimate, asked for only when neither
        is cheap (``books_cheap``). ``plain``: the cost of the plainest book-by-book plan, known
        before ``books()`` searches for a cheaper one (which takes milliseconds): when the fold
        is likely cheap and quicker than that plan, it is taken without the search.
        ``multiplied()``: the fold's cost with its heavy groups multiplied out, asked for only
        when the book-by-book count is chosen and slow (``multiplied_from_ns``). The one likely
        the fastest, when it is likely within the budget, else None; and how long each counter
        weighed likely takes (nanoseconds; nothing for a forced counter)."""
        if self.counter is not Counter.AUTO:
            return self.counter, {}
        fold = cache(folds) if folds is not None else (lambda: None)
        likely: dict[Counter, float] = {}
        search = True
        if self.folds_first(plain):
            assert plain is not None
            cost = fold()
            quick = math.inf if cost is None else self.likely_folds_ns(cost)
            if quick <= min(self.books_cheap, self.likely_books_ns(plain)):
                return Counter.FOLDS, {Counter.FOLDS: quick}  # (without searching for a cheaper book-by-book plan)
            search = quick * self.search_gain > self.likely_books_ns(plain)
            if not search:
                likely[Counter.BOOKS] = self.likely_books_ns(plain)
        searched = books() if search else None
        if searched is not None:
            likely[Counter.BOOKS] = self.likely_books_ns(searched)
            if likely[Counter.BOOKS] <= self.folds_worth:
                return Counter.BOOKS, likely  # (without planning the others)
        cost = fold()
        if cost is not None:
            likely[Counter.FOLDS] = self.likely_folds_ns(cost)
        if not likely or min(likely.values()) > self.books_cheap:
            likely[Counter.BOARDS] = self.likely_walk_ns(walk())
        best = min(likely, key=likely.__getitem__)
        slow = best is Counter.BOOKS and likely[best] >= self.multiplied_from_ns
        near = likely.get(Counter.FOLDS, math.inf) <= self.multiplied_reach * likely[best]
        if slow and near and multiplied is not None:
            cost = multiplied()
            if cost is not None and self.likely_folds_ns(cost) * self.multiplied_gain < likely[best]:
                best = Counter.FOLDS
                likely[best] = self.likely_folds_ns(cost)
        return (best if likely[best] <= self.budget_ns else None), likely

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
