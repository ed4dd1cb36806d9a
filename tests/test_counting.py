"""The board walk on openings: every ask forbids its card to the asker and to whoever said no, and
ties the asker to a card of the book. Checked against listing every deal, the plain count and the
book-by-book count, on hypothesis-made openings where open classes of cards merge (cards asked
of the same player by players already walked)."""

from __future__ import annotations

import importlib
import itertools
import math
import os
from fractions import Fraction
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import knowledge, record, solver
from analyzer.cards import Card, DeckKind, make_deck
from analyzer.knowledge import PUBLIC, Position, Requirement
from analyzer.odds import Counter, Routes, TooLarge, card_odds, count_deals, parallel, route
from analyzer.odds.boards import Board
from analyzer.replay import replay
from analyzer.rules import HouseRule
from analyzer.simulate import Style, simulate
from analyzer.solver import NoFit

from .fixtures import SHARED
from .odds_oracle import brute_force, odds_from_counts, plain_count, unseen

DECK = make_deck(DeckKind.STANDARD)
NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal")
BOARDS = Routes(counter=Counter.BOARDS)
FOLDS = Routes(counter=Counter.FOLDS)
MULTIPLIED = Routes(counter=Counter.FOLDS, multiply=True)  # every group through its monomials


@st.composite
def openings(draw: st.DrawFn, sizes: tuple[int, ...] = (3, 4, 6, 8), most_cards: int = 30) -> Position:
    """A hidden deal of some books' cards, then asks that fail: the card is forbidden to the asker
    and the player asked, and the asker holds another card of its book (at least one; now and
    then, as under must-declare, not all of it)."""
    players = NAMES[: draw(st.sampled_from(sizes))]
    books = list(DECK.books)[: draw(st.integers(2, 6))]
    cards = [c for b in books for c in b.cards][:most_cards]
    unknown = draw(st.lists(st.sampled_from(cards), min_size=len(players), max_size=len(cards), unique=True))
    truth = {c: draw(st.sampled_from(players)) for c in unknown}
    forbidden: dict[Card, set[str]] = {c: set() for c in unknown}
    at_least: dict[tuple[str, str], Requirement] = {}
    not_all: dict[tuple[str, str], Requirement] = {}
    for _ in range(draw(st.integers(0, 3 * len(players)))):
        asker, target, c = (
            draw(st.sampled_from(players)),
            draw(st.sampled_from(players)),
            draw(st.sampled_from(unknown)),
        )
        book = DECK.book_of(c)
        if asker == target or truth[c] in (asker, target):
            continue
        if not any(truth[o] == asker for o in unknown if o != c and DECK.book_of(o) == book):
            continue  # the asker holds none of the book: no such ask
        forbidden[c] |= {asker, target}
        book_cards = frozenset(o for o in book.cards if o in truth)
        at_least[(asker, book.name)] = Requirement(asker, book, book_cards, 1)
        if draw(st.integers(0, 3)) == 0:
            not_all[(asker, book.name)] = Requirement(asker, book, book_cards, 1)
    allowed = {c: tuple(p for p in players if p not in forbidden[c]) for c in unknown}
    slots = {p: sum(1 for h in truth.values() if h == p) for p in players}
    kept = [r for r in not_all.values() if not all(truth[c] == r.player for c in r.cards)]
    return unseen(DECK, players, allowed, slots, list(at_least.values()), kept)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(openings(sizes=(3, 4), most_cards=9))
def test_small_openings_match_listing_every_deal(pos: Position) -> None:
    total, at = brute_force(pos)
    odds = card_odds(pos, BOARDS)
    assert odds.deals == total == count_deals(pos, BOARDS) == count_deals(pos, FOLDS)
    assert odds.cards == odds_from_counts(pos, total, at)
    assert card_odds(pos, FOLDS) == odds == card_odds(pos, MULTIPLIED)
    assert count_deals(pos, MULTIPLIED) == total


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(openings())
def test_openings_count_alike_every_way(pos: Position) -> None:
    by_boards = card_odds(pos, BOARDS)
    try:
        by_books = card_odds(pos, Routes(counter=Counter.BOOKS, max_states=1 << 17))
    except TooLarge:
        by_books = None
    if by_books is not None:
        assert by_boards == by_books
    assert card_odds(pos, FOLDS) == by_boards == card_odds(pos, MULTIPLIED)
    assert {c: tuple(share) for c, share in by_boards.cards.items()} == solver.solve(pos).holders


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(openings(sizes=(4,), most_cards=20))
def test_openings_match_the_plain_count(pos: Position) -> None:
    deals = plain_count(pos)
    odds = card_odds(pos, BOARDS)
    assert odds.deals == deals
    c = max(pos.allowed, key=lambda c: (len(pos.players) - len(pos.allowed[c]), str(c)))  # a card asked for
    for p, share in odds.cards[c].items():
        forced = Position(**{**vars(pos), "allowed": {**pos.allowed, c: (p,)}})
        assert share == Fraction(plain_count(forced), deals)


def _ring(players: int) -> Position:
    """Each player asked the next for a card of a book of its own and was told no: every card
    asked is forbidden to two players, and the asker holds another card of its book."""
    names = NAMES[:players]
    books = list(DECK.books)[:players]
    allowed: dict[Card, tuple[str, ...]] = {}
    at_least = []
    for i, (p, book) in enumerate(zip(names, books, strict=True)):
        asked, *rest = book.cards
        target = names[(i + 1) % players]
        allowed[asked] = tuple(q for q in names if q not in (p, target))
        allowed |= {c: names for c in rest}
        at_least.append(Requirement(p, book, frozenset(book.cards), 1))
    n = len(allowed) // players
    return unseen(DECK, names, allowed, {p: n for p in names}, at_least)


def test_cards_asked_of_the_same_player_are_one_count() -> None:
    """Open classes alike for every player still to come are merged: once Ann and Bob are walked,
    the card Ann asked Cid for and the one Bob asked Cid for are one count of 0..2 left (3
    states, not 4), and the count stays the plain one."""
    x, y, *rest = [c for c in DECK.cards][:9]
    names = NAMES[:3]
    allowed = {x: ("Bob",), y: ("Ann",)} | {c: names for c in rest}
    pos = Position(
        at=0,
        view=PUBLIC,
        deck=DECK,
        players=names,
        in_play=tuple(DECK.cards[:9]),
        known={},
        allowed=allowed,
        slots={p: 3 for p in names},
    )
    board = Board(pos)
    coupling = [k for k in board.classes if k.involved.bit_count() > 1]
    assert board._open_states(coupling, 0b011) == 3
    assert board._open_states(coupling, 0b001) == 2
    total, at = brute_force(pos)
    assert card_odds(pos, BOARDS).cards == odds_from_counts(pos, total, at)


@pytest.mark.parametrize("players", [4, 6])
def test_a_ring_of_failed_asks_counts_alike_every_way(players: int) -> None:
    pos = _ring(players)
    odds = card_odds(pos, BOARDS)
    assert odds == card_odds(pos, Routes(counter=Counter.BOOKS)) == card_odds(pos, FOLDS)
    if players == 4:
        assert odds.deals == plain_count(pos)


def test_no_deal_fits_an_impossible_opening() -> None:
    pos = _ring(4)
    pos = Position(**{**vars(pos), "slots": {**pos.slots, "Ann": pos.slots["Ann"] + 1, "Bob": pos.slots["Bob"] - 1}})
    pos.allowed = {c: tuple(p for p in ps if p != "Bob") for c, ps in pos.allowed.items()}
    with pytest.raises(NoFit):
        count_deals(pos, BOARDS)


@pytest.mark.slow
@pytest.mark.parametrize("players", [6, 8])
@pytest.mark.parametrize(
    ("deck", "house"),
    [
        (DeckKind.STANDARD, frozenset()),
        (DeckKind.JOKERS, frozenset()),
        (DeckKind.RANKS, frozenset()),
        (DeckKind.STANDARD, frozenset({HouseRule.MUST_DECLARE})),
    ],
)
def test_every_view_of_probing_openings_has_a_counter_within_the_budget(
    players: int, deck: DeckKind, house: frozenset[HouseRule]
) -> None:
    """The routes of the benchmark's corpus (``scripts/bench_odds.py --corpus probing``, seeds 0
    and 1): no view is left uncounted (``TooLarge``)."""
    for seed in (0, 1):
        rec = simulate(players=players, deck=deck, house=house, seed=seed, style=Style.PROBING)
        game = replay(rec)
        for at in range(min(len(rec.events), 3 * players) + 1):
            for view in [PUBLIC, *rec.hands]:
                route(knowledge.position(game, at, view))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(openings(sizes=(3, 4, 6), most_cards=18))
def test_book_by_book_in_little_memory_counts_the_same(pos: Position) -> None:
    """With no memory to keep the forward walks inside groups (``books._KEEP_BYTES``), the way back
    walks them again from every c-th card, as it does on the biggest views: the same odds."""
    routes = Routes(counter=Counter.BOOKS, max_states=1 << 17, sparse_bias_ns=float(1 << 60))
    _books_alike_with(pos, routes, "_KEEP_BYTES", 0)


def _books_alike_with(pos: Position, routes: Routes, name: str, value: object) -> None:
    """The book-by-book odds with ``books.<name>`` set to ``value`` are those without and the
    walk's (nothing to compare where the book-by-book count cannot count the position)."""
    books = importlib.import_module("analyzer.odds.books")
    try:
        before = card_odds(pos, routes)
    except (TooLarge, NoFit):
        return
    with mock.patch.object(books, name, value):
        assert card_odds(pos, routes) == before == card_odds(pos, BOARDS)


def _small_primes(lowest: int) -> list[int]:
    """Primes from ``lowest`` (above the factorial tables' top of the positions counted with them)
    below 2,000: several of them to a count, and counts that are zero modulo one and not another,
    as the real primes meet only on the biggest views."""
    return [n for n in range(lowest, 2000) if all(n % d for d in range(2, math.isqrt(n) + 1))]


ROUTES = {
    "whole boxes": Routes.whole_boxes(),
    "as chosen": Routes(counter=Counter.BOOKS),
    "sparse, state by state": Routes.always_sparse(True),
    "sparse": Routes.always_sparse(False),
}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(openings(sizes=(3, 4, 6), most_cards=18), st.sampled_from(sorted(ROUTES)))
def test_book_by_book_one_prime_at_a_time_counts_the_same(pos: Position, way: str) -> None:
    """Boxes gone forward and back one prime at a time (``books._RUN_STATES`` 0), the free cards
    counted right after each prime's way forward: the same odds as all primes at once and as the
    walk, whichever way the groups are gone through, with primes small enough that states are
    zero modulo some of them only."""
    books = importlib.import_module("analyzer.odds.books")
    small = _small_primes(31)
    with mock.patch.object(books, "PRIMES", tuple(small)):
        _books_alike_with(pos, ROUTES[way], "_RUN_STATES", 0)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(openings(sizes=(3, 4, 6), most_cards=18), st.sampled_from(sorted(ROUTES)), st.integers(2, 3))
def test_book_by_book_a_few_primes_a_run_counts_the_same(pos: Position, way: str, primes: int) -> None:
    """Boxes a few primes a run (``books._RUN_STATES``: so many times the biggest box), the last
    run taking the primes left: the same odds as all primes at once and as the walk, with small
    primes (several to a count)."""
    books = importlib.import_module("analyzer.odds.books")
    small = _small_primes(31)
    routes = ROUTES[way]
    with mock.patch.object(books, "PRIMES", tuple(small)):
        try:
            before = card_odds(pos, routes)
        except (TooLarge, NoFit):
            return
        runs: list[int] = []  # (the primes of each way forward)
        forward = books._Engine.forward

        def spy(self: Any, odds: bool) -> Any:
            runs.append(self.k)
            return forward(self, odds)

        counter = importlib.import_module("analyzer.odds")._counter(pos, True, routes)  # (as card_odds plans it)
        biggest = counter.biggest
        with (
            mock.patch.object(books, "_RUN_STATES", primes * max(1, biggest)),
            mock.patch.object(books, "_ONE_A_RUN", 1 << 40),  # (whatever the box)
            mock.patch.object(books._Engine, "forward", spy),
        ):
            assert card_odds(pos, routes) == before == card_odds(pos, BOARDS)
    count = sum(runs)  # (the primes of the count, each in one run)
    assert runs == [min(primes, count - r) for r in range(0, count, primes)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(openings(sizes=(3, 4, 6), most_cards=18), st.sampled_from(sorted(ROUTES)))
def test_book_by_book_modulo_2_64_counts_the_same(pos: Position, way: str) -> None:
    """Every box counted modulo 2**64 first (``books._WRAP_FROM`` 0: big boxes only, as a rule),
    in whole numbers, then modulo small primes: the same odds as primes alone and as the walk,
    whichever way the groups are gone through."""
    books = importlib.import_module("analyzer.odds.books")
    with mock.patch.object(books, "PRIMES", tuple(_small_primes(31))):
        _books_alike_with(pos, ROUTES[way], "_WRAP_FROM", 0)


@pytest.mark.parametrize("threads", ["1", "2"])
@pytest.mark.parametrize(("name", "at", "lowest"), [("g207.fish", 14, 1000), ("g201.fish", 3, 3000)])
def test_the_free_cards_odds_come_from_the_other_cards(name: str, at: int, lowest: int, threads: str) -> None:
    """No count gives the free cards' deals: a player's are its slots times the deals less its
    deals with each other card, shared among the free cards. After event 14 of g207 free cards
    go to direct and pooled players; after event 3 of g201, to pooled players from a pool of up
    to 30 cards. With 2**64 and primes from ``lowest`` on, the odds are the walk's, in the runs
    of the count alone (when the free cards were counted modulo 2**64, dividing by the pools took
    bits off the top, and g201's odds took a prime more)."""
    books = importlib.import_module("analyzer.odds.books")
    pos = knowledge.position(replay(record.load(SHARED / name)), at, PUBLIC)
    count = books.BookCount(pos)
    assert count.plan is not None and count.model.free
    assert any(count.plan.pool >> p & 1 for p in count.plan.tracked)
    made: list[int] = []
    forward = books._Engine.forward

    def spy(self: Any, odds: bool) -> Any:
        made.append(self.k)
        return forward(self, odds)

    with (
        mock.patch.object(books, "PRIMES", tuple(_primes_from(lowest))),
        mock.patch.object(books, "_WRAP_FROM", 0),
        mock.patch.object(books._Engine, "forward", spy),
        mock.patch.dict(os.environ, {parallel.THREADS: threads}),
    ):
        assert card_odds(pos, Routes(counter=Counter.BOOKS)) == card_odds(pos, BOARDS)
    assert sorted(made) == [1, 4]


def _primes_from(lowest: int) -> list[int]:
    """The first 40 primes from ``lowest`` on."""
    found: list[int] = []
    n = lowest
    while len(found) < 40:
        if all(n % d for d in range(2, math.isqrt(n) + 1)):
            found.append(n)
        n += 1
    return found


def test_book_by_book_big_boxes_go_a_prime_a_run() -> None:
    """From a box of ``_ONE_A_RUN`` states a run takes one prime, whatever ``_RUN_STATES`` would
    let it take; below, as many as keep the box within ``_RUN_STATES``, all of them on small
    boxes. A view counted with its own box as that bound goes a prime a run, and its odds are
    those of all primes at once and the walk's."""
    books = importlib.import_module("analyzer.odds.books")
    arithmetic = importlib.import_module("analyzer.odds.arithmetic")
    one, most = books._ONE_A_RUN, books._RUN_STATES
    assert books._run_primes(one, 5) == 1 and books._run_primes(10 * one, 5) == 1
    assert books._run_primes(one - 1, 5) == 5 and books._run_primes(1 << 16, 4) == 4
    assert books._run_primes(one - 1, 8) == most // (one - 1) == 5
    pos = knowledge.position(replay(record.load(SHARED / "g207.fish")), 14, PUBLIC)
    routes = Routes(counter=Counter.BOOKS)
    count = importlib.import_module("analyzer.odds")._counter(pos, True, routes)  # (as card_odds plans it)
    k = len(arithmetic.primes_for(count.model.bound))
    assert books._run_primes(count.biggest, k) == k > 1  # (a small box: all primes at once)
    runs: list[int] = []
    forward = books._Engine.forward

    def spy(self: Any, odds: bool) -> Any:
        runs.append(self.k)
        return forward(self, odds)

    before, walk = card_odds(pos, routes), card_odds(pos, BOARDS)
    with mock.patch.object(books, "_ONE_A_RUN", count.biggest), mock.patch.object(books._Engine, "forward", spy):
        assert card_odds(pos, routes) == before == walk
    assert runs == [1] * k


def test_free_cards_at_direct_and_pooled_players_one_prime_at_a_time() -> None:
    """A view whose free cards go to direct players and to a pooled one (two weights): their
    odds, book by book one prime at a time or all at once, are the walk's; also with primes from
    101 up, where states of its sparse groups are zero modulo one prime and not the next."""
    pos = knowledge.position(replay(record.load(SHARED / "g207.fish")), 14, PUBLIC)
    books = importlib.import_module("analyzer.odds.books")
    count = books.BookCount(pos)
    plan = count.plan
    assert count.model.free and plan is not None
    assert any(plan.direct >> p & 1 for p in plan.tracked) and any(plan.pool >> p & 1 for p in plan.tracked)
    walk = card_odds(pos, BOARDS)
    assert card_odds(pos, Routes(counter=Counter.BOOKS)) == walk
    with mock.patch.object(books, "_RUN_STATES", 0):
        assert card_odds(pos, Routes(counter=Counter.BOOKS)) == walk
        small = _small_primes(101)
        with mock.patch.object(books, "PRIMES", tuple(small)):
            assert card_odds(pos, Routes(counter=Counter.BOOKS)) == walk
            # A prime whose sparse way leaves out a pair (its count zero modulo that prime) joins
            # the others with a zero there: every other prime here leaves out its zeros.
            real = books._Engine.backward
            calls: list[int] = []

            def leaving_out_zeros(engine: object, forward: object, k: int) -> dict[object, np.ndarray]:
                found = real(engine, forward, k)
                calls.append(k)
                return {key: ways for key, ways in found.items() if ways.any()} if len(calls) % 2 else found

            with mock.patch.object(books._Engine, "backward", leaving_out_zeros):
                assert card_odds(pos, Routes(counter=Counter.BOOKS)) == walk
            assert len(calls) > 2


def test_little_memory_walks_again_from_checkpoints() -> None:
    """The way back's states after a group's first cards, kept every c-th and walked again a
    stretch at a time, asked for from the last down: the same arrays as walking them all."""
    game = replay(simulate(players=6, seed=0, style=Style.PROBING))
    pos = knowledge.position(game, 12, PUBLIC)
    books = importlib.import_module("analyzer.odds.books")
    count = books.BookCount(pos, Routes(counter=Counter.BOOKS))
    assert count.plan is not None
    engine = books._Engine(count.plan, [2147483647, 2147483629], Routes())
    g = max(count.plan.order, key=lambda g: len(count.model.groups[g].kinds))
    box = count.plan.work[g]
    factors = count.plan.factors[g][0][1][: len(count.model.groups[g].kinds) - 1]
    assert len(factors) >= 3, "a group of several kinds of card"
    start = np.arange(2 * box.size, dtype=np.int64).reshape(2, box.size) % 1000
    with mock.patch.object(books, "_KEEP_BYTES", 1 << 40):
        every = engine._ahead(start, box, factors, None)
        wanted = [every(i) for i in range(len(factors), -1, -1)]
    with mock.patch.object(books, "_KEEP_BYTES", 0):
        again = engine._ahead(start, box, factors, None)
        got = [again(i) for i in range(len(factors), -1, -1)]
    assert all(np.array_equal(a, b) for a, b in zip(got, wanted, strict=True))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=2, max_size=4).filter(lambda slots: sum(slots) <= 8), st.data())
def test_the_bound_on_deals_passes_every_count_of_cards_to_allowed_players(slots: list[int], data: Any) -> None:
    """Bregman's bound, or the multinomial: never below the deals of cards to players allowed
    them (listed one by one), never above the multinomial, and the multinomial itself when
    every card may go to everyone."""
    arithmetic = importlib.import_module("analyzer.odds.arithmetic")
    n, everyone = sum(slots), (1 << len(slots)) - 1
    masks = data.draw(st.lists(st.integers(1, everyone), min_size=n, max_size=n))
    allowed = [[i for i in range(len(slots)) if m >> i & 1] for m in masks]
    deals = sum(1 for deal in itertools.product(*allowed) if all(deal.count(i) == s for i, s in enumerate(slots)))
    bound = arithmetic.fit_bound(slots, masks)
    assert deals <= bound <= arithmetic.deal_bound(slots)
    assert arithmetic.fit_bound(slots, [everyone] * n) == arithmetic.deal_bound(slots)


def test_the_bound_on_deals_takes_a_modulus_fewer_late_in_a_game() -> None:
    """On the slowest views of whole 8-player jokers games, many cards ruled out for many
    players: Bregman's bound is a modulus below the multinomial, and still above the count."""
    arithmetic = importlib.import_module("analyzer.odds.arithmetic")
    books = importlib.import_module("analyzer.odds.books")
    game = replay(simulate(players=8, deck=DeckKind.JOKERS, seed=0, style=Style.PROBING))
    pos = knowledge.position(game, 50, PUBLIC)
    model = books.BookCount(pos).model
    assert len(arithmetic.primes_for(model.bound)) == len(arithmetic.primes_for(arithmetic.deal_bound(model.slots))) - 1
    assert count_deals(pos) < model.bound < arithmetic.deal_bound(model.slots) >> 12


@pytest.mark.parametrize(
    ("shape", "axis"),
    [((3, 50_000), 0), ((2, 3, 40, 40), 1), ((2, 4, 3, 1024), 2), ((3, 4096), 0), ((3, 4095), 0), ((3, 10), -2)],
)
def test_residues_one_prime_at_a_time_equal_numpys_remainder(shape: tuple[int, ...], axis: int) -> None:
    """From 4,096 elements per prime, arrays are reduced prime by prime (``x - (x // p) * p``);
    below, by ``np.remainder``. Against Python's own ``%``: the same residues of negative and
    positive values up to 2**62, into a new array, into another, into the array itself and into
    a view of it."""
    from analyzer.odds.arithmetic import PRIMES, residues

    primes = list(PRIMES[: shape[axis]])
    a = np.random.default_rng(7).integers(-(1 << 62), 1 << 62, size=shape, dtype=np.int64)
    moved = np.moveaxis(a, axis, 0)
    want = np.moveaxis(
        np.array([[int(x) % q for x in row.ravel().tolist()] for row, q in zip(moved, primes, strict=True)]).reshape(
            moved.shape
        ),
        0,
        axis,
    )
    assert np.array_equal(residues(a, primes, axis), want)
    other = np.zeros_like(a)
    assert residues(a, primes, axis, out=other) is other and np.array_equal(other, want)
    view = a.copy()
    assert np.array_equal(residues(view, primes, axis, out=view.view()), want)
    assert residues(a, primes, axis, out=a) is a and np.array_equal(a, want)
    with pytest.raises(ValueError, match="primes"):
        residues(a, primes[:-1], axis)


def test_a_move_along_an_inner_axis_made_flat_is_the_move_made_by_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    """``move`` along an axis with few states after it moves the whole array flat and takes back
    what crossed from one run into the next: the same as slicing the axis, and as the move
    written out state by state, every way (down or up, added or taken away, onto y, x or zero)."""
    from analyzer.odds import arithmetic

    rng = np.random.default_rng(7)
    for _ in range(400):
        shape = tuple(int(k) for k in rng.integers(1, 5, size=int(rng.integers(2, 7))))
        x = rng.integers(-(1 << 40), 1 << 40, size=shape, dtype=np.int64)
        before = rng.integers(-(1 << 40), 1 << 40, size=shape, dtype=np.int64)
        ax = int(rng.integers(0, len(shape)))
        back, sign, start = bool(rng.integers(2)), int(rng.choice([-1, 1])), str(rng.choice(["", "x", "zero"]))
        want = {"": before, "x": x, "zero": np.zeros_like(x)}[start].copy()
        for index in np.ndindex(*shape):
            other = list(index)
            other[ax] += 1 if back else -1
            if 0 <= other[ax] < shape[ax]:
                want[index] += sign * x[tuple(other)]
        for runs in (1 << 30, 1):  # every axis flat; no axis flat
            monkeypatch.setattr(arithmetic, "_FLAT_RUNS", runs)
            y = before.copy() if not start else np.full_like(x, 12345)
            arithmetic.move(y, x, ax, back, sign, start)
            assert np.array_equal(y, want), (shape, ax, back, sign, start, runs)


def test_a_move_refuses_arrays_sharing_memory_and_leaves_empty_ones_alone() -> None:
    """Flat, the crossings are taken back from ``x`` after ``y`` is written: the same memory
    would give a wrong move, so it is refused; an array with no state has nothing to move."""
    from analyzer.odds import arithmetic

    x = np.arange(6, dtype=np.int64).reshape(2, 3)
    with pytest.raises(ValueError, match="memory"):
        arithmetic.move(x, x, 1, False, 1)
    with pytest.raises(ValueError, match="memory"):
        arithmetic.move(x[:, 1:], x[:, :2], 1, False, 1)
    for shape in ((0,), (3, 0), (2, 0, 3)):
        empty = np.zeros(shape, dtype=np.int64)
        arithmetic.move(np.empty_like(empty), empty, len(shape) - 1, True, -1, "x")


@pytest.mark.parametrize(
    "extents", [[5], [40_000], [9, 8, 7, 6, 5, 4], [2, 70_000], [3, 5, 3000], [2, 3, 200, 300], [70_000, 2]]
)
def test_dots_book_by_book_in_blocks_never_overflow(extents: list[int]) -> None:
    """The odds' sums over a box: a 16-bit piece against values up to 2**32, the most the
    book-by-book count lets through on a box of a block or more, summed in blocks, moved along
    every dim or none (boxes of one dim, of a last dim or of dims after the move over a block);
    against Python's integers."""
    from analyzer.odds.arithmetic import PRIMES
    from analyzer.odds.books import _blocked_dot

    rng = np.random.default_rng(len(extents))
    size = math.prod(extents)
    p = np.array(PRIMES[:2], dtype=np.int64)
    h = np.full((2, size), (1 << 16) - 1, dtype=np.int64) - rng.integers(0, 3, size=(2, size))
    b = np.full((2, size), (1 << 32) - 1, dtype=np.int64) - rng.integers(0, 3, size=(2, size))
    if len(extents) > 1:  # (the pad state ending each row of the last dim, zero in the forward pass)
        h.reshape(2, -1, extents[-1])[:, :, -1] = 0
    for t in range(-1, len(extents)):
        got = _blocked_dot(h, b, extents, t, p)
        for k, q in enumerate(PRIMES[:2]):
            x = h[k].reshape(extents)
            y = b[k].reshape(extents)
            if t >= 0:
                x = np.take(x, range(extents[t] - 1), axis=t)
                y = np.take(y, range(1, extents[t]), axis=t)
            want = sum(int(u) * int(v) for u, v in zip(x.ravel().tolist(), y.ravel().tolist(), strict=True)) % q
            assert got[k] == want, (t, k)
