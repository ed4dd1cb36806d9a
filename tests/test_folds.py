"""The count that folds each player into the total once no later book concerns it."""

from __future__ import annotations

import functools
import itertools
import math
import random
import tracemalloc
from typing import Any

import numpy as np
import pytest

from analyzer import knowledge
from analyzer.cards import Card, DeckKind, make_deck, parse_card
from analyzer.knowledge import PUBLIC, Position, Requirement
from analyzer.odds import Counter, Routes, TooLarge, arithmetic, card_odds, card_ways, count_deals, parallel, route
from analyzer.odds import folds as folds_module
from analyzer.odds.arithmetic import PRIMES
from analyzer.odds.folds import FoldCount
from analyzer.replay import replay
from analyzer.rules import HouseRule
from analyzer.simulate import Style, simulate
from analyzer.solver import NoFit

from .odds_oracle import brute_force, odds_from_counts, unseen

FOLDS = Routes(counter=Counter.FOLDS)
BOOKS = Routes(counter=Counter.BOOKS)
BOARDS = Routes(counter=Counter.BOARDS)
DECK = make_deck(DeckKind.STANDARD)


def _probing(players: int, deck: DeckKind, house: frozenset[HouseRule] = frozenset()) -> Any:
    return replay(simulate(players=players, deck=DeckKind(deck), house=house, seed=0, style=Style.PROBING))


@pytest.mark.parametrize(
    ("players", "deck", "at", "view"),
    [
        (8, DeckKind.STANDARD, 12, PUBLIC),  # every player asked: no one is left out of the box
        (8, DeckKind.JOKERS, 20, "Hal"),  # a hand: the walk's view, ten times faster folded
        (8, DeckKind.RANKS, 17, PUBLIC),
        (6, DeckKind.STANDARD, 15, "Cara"),
        (6, DeckKind.JOKERS, 9, PUBLIC),
    ],
)
def test_probing_views_count_alike_every_way(players: int, deck: DeckKind, at: int, view: str) -> None:
    pos = knowledge.position(_probing(players, deck), at, view)
    folded = card_odds(pos, FOLDS)
    assert folded == card_odds(pos, BOOKS)
    assert folded == card_odds(pos, BOARDS)


def test_must_declare_forces_a_whole_book_onto_one_player() -> None:
    """Under must-declare "not all of a book" is a term with the book forced onto the player:
    the direct form, which singles out that player only."""
    game = _probing(6, DeckKind.STANDARD, frozenset({HouseRule.MUST_DECLARE}))
    pos = knowledge.position(game, 8, PUBLIC)
    assert pos.not_all
    count = FoldCount(pos)
    assert any(not complement for forms in count.forms for complement, _ in forms.values())
    assert card_odds(pos, FOLDS) == card_odds(pos, BOOKS)


def _opening(untouched: int) -> Position:
    """Three players ask in a book each and are told no, by players who asked too; ``untouched``
    more players hold cards and are in no requirement and no failed ask; some books are free."""
    names = ("Ann", "Bob", "Cid", "Dee", "Eve")[: 3 + untouched]
    books = list(DECK.books)
    allowed: dict[Card, tuple[str, ...]] = {c: names for b in books[:4] for c in b.cards}
    at_least = []
    for i, p in enumerate(names[:3]):
        asked, *_ = books[i].cards
        allowed[asked] = tuple(q for q in names if q not in (p, names[(i + 1) % 3]))
        at_least.append(Requirement(p, books[i], frozenset(books[i].cards), 1))
    per = len(allowed) // len(names)
    slots = {p: per for p in names}
    slots[names[0]] += len(allowed) - per * len(names)
    return unseen(DECK, names, allowed, slots, at_least)


@pytest.mark.parametrize("untouched", [0, 1, 2])
def test_players_no_book_concerns_and_free_cards(untouched: int) -> None:
    pos = _opening(untouched)
    count = FoldCount(pos)
    assert len(count.untouched) == untouched
    assert count.model.free  # a book nobody asked in: its cards are free
    odds = card_odds(pos, FOLDS)
    assert odds == card_odds(pos, BOARDS) == card_odds(pos, BOOKS)


def _small_opening() -> Position:
    names = ("Ann", "Bob", "Cid")
    books = list(DECK.books)[:2]
    cards = [c for b in books for c in b.cards][:9]
    allowed = {c: names for c in cards}
    allowed[cards[0]] = ("Cid",)
    allowed[cards[7]] = ("Ann", "Bob")
    at_least = [Requirement("Ann", books[0], frozenset(c for c in books[0].cards if c in allowed), 1)]
    not_all = [Requirement("Bob", books[1], frozenset(c for c in books[1].cards if c in allowed), 1)]
    return unseen(DECK, names, allowed, {"Ann": 3, "Bob": 3, "Cid": 3}, at_least, not_all)


def test_small_opening_matches_listing_every_deal() -> None:
    pos = _small_opening()
    total, at = brute_force(pos)
    assert FoldCount(pos).by_difference == 2  # (Cid's deals in the first book, by difference)
    odds = card_odds(pos, FOLDS)
    assert odds.deals == total
    assert odds.cards == odds_from_counts(pos, total, at)
    assert count_deals(pos, FOLDS) == total  # (without the odds: no families)


@pytest.mark.parametrize(
    "case", ["small opening", "opening", "8p standard", "6p jokers hand", "8p jokers late", "shared book", "untouched"]
)
def test_modulo_2_64_and_primes_alone_count_alike_and_as_listing_every_deal(
    case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counted as a big box is (``_APART`` at 1, a modulus a run): modulo 2**64 and primes, and
    modulo primes alone, the deals (with the odds and without) are the same, and on small
    positions those of listing every deal; the late jokers view goes through books multiplied
    out. A view where a player no group concerns shares its odds out by a division is counted
    modulo primes alone, as the book-by-book count does. The router weighs the fold in rows of
    primes alone either way."""
    late = case == "8p jokers late"
    if case == "small opening":
        pos = _small_opening()
    elif case == "shared book":
        pos = _shared_book()
    elif case == "untouched":
        pos = _opening(2)
    elif case == "opening":
        pos = _opening(0)
    elif case == "8p standard":
        pos = knowledge.position(_probing(8, DeckKind.STANDARD), 12, PUBLIC)
    elif late:
        pos = knowledge.position(_probing(8, DeckKind.JOKERS), 35, PUBLIC)
    else:
        pos = knowledge.position(_probing(6, DeckKind.JOKERS), 15, "Cara")
    monkeypatch.setattr(folds_module, "_APART", 1)
    monkeypatch.setattr(folds_module, "_RUN_STATES", 1)
    fold = FoldCount(pos)
    assert fold.apart and fold.chunk == 1
    assert bool(fold.untouched) == (case in ("shared book", "untouched"))
    assert (fold.moduli[0] == arithmetic.WRAP) == (not fold.untouched)
    assert any(step.multiplied[0] and step.multiplied[1] for step in fold.steps) == late
    assert any(q in arithmetic.WIDE_PRIMES for q in fold.moduli) == late  # (with 2**64, past the guess of its deals)
    wrapped, deals, cost = card_odds(pos, FOLDS), count_deals(pos, FOLDS), fold.cost
    monkeypatch.setattr(FoldCount, "_sequence", property(lambda self: PRIMES))
    primes = FoldCount(pos)
    assert primes.moduli[0] != arithmetic.WRAP and primes.cost == cost
    assert card_odds(pos, FOLDS) == wrapped and count_deals(pos, FOLDS) == deals == wrapped.deals
    # The widest prime first: every product by pieces.
    widest = (arithmetic.WIDE_PRIMES[-1], *PRIMES)
    monkeypatch.setattr(FoldCount, "_sequence", property(lambda self: widest))
    assert FoldCount(pos).moduli[0] == widest[0]
    assert card_odds(pos, FOLDS) == wrapped and count_deals(pos, FOLDS) == deals
    if fold.untouched:
        assert card_odds(pos, BOOKS) == wrapped
    if case in ("small opening", "shared book"):
        total, at = brute_force(pos)
        assert wrapped.deals == total and wrapped.cards == odds_from_counts(pos, total, at)


def test_binomials_modulo_2_64_and_primes() -> None:
    table = arithmetic.binomials((arithmetic.WRAP,), 70)  # (C(70, 35) is past 2**64: it wraps)
    for n in range(71):
        for k in range(71):
            assert table[0, n, k] == arithmetic.wrapped(math.comb(n, k))
    table = arithmetic.binomials(tuple(PRIMES[:2]), 60)
    assert all(
        table[r, n, k] == math.comb(n, k) % q for r, q in enumerate(PRIMES[:2]) for n in range(61) for k in range(61)
    )


def test_2_64_takes_a_run_of_its_own() -> None:
    fold = FoldCount(_small_opening())
    with pytest.raises(ValueError, match="run of its own"):
        folds_module._Run(fold, [arithmetic.WRAP, PRIMES[0]])
    folds_module._Run(fold, [arithmetic.WRAP])
    with pytest.raises(ValueError, match="by a division"):
        folds_module._Run(FoldCount(_shared_book()), [arithmetic.WRAP])  # (Cid: in no group)


def _shared_book() -> Position:
    """Four players; Ann and Bob each must hold one of the first book's six cards (each asked in
    it), Ann was told no for one of them and Dee for another; Dee must hold one of the second
    book's three."""
    names = ("Ann", "Bob", "Cid", "Dee")
    first, second = (list(b.cards) for b in list(DECK.books)[:2])
    allowed: dict[Card, tuple[str, ...]] = {c: names for c in first + second[:3]}
    allowed[first[0]] = ("Bob", "Cid", "Dee")
    allowed[first[1]] = ("Ann", "Bob", "Cid")
    at_least = [Requirement(p, DECK.books[0], frozenset(first), 1) for p in names[:2]]
    at_least.append(Requirement("Dee", DECK.books[1], frozenset(second[:3]), 1))
    return unseen(DECK, names, allowed, {"Ann": 2, "Bob": 2, "Cid": 2, "Dee": 3}, at_least)


def test_requirements_narrow_the_counts_and_the_odds_stay_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """A player required to hold one of a book gets one exception at least from it (``_raises``),
    and with two players required in one book the top counts cancel (``_most``): the boxes
    are narrower than the cards singling each player out, and the odds are those of listing
    every deal, as they are with the boxes as wide as those cards."""
    pos = _shared_book()
    count = FoldCount(pos)
    book = next(g for g, group in enumerate(count.model.groups) if len(group.cards) == 6)
    players = count.model.players
    for name in ("Ann", "Bob"):
        p = players.index(name)
        assert count.rises[book][p] == 1
        assert count.tops[book][p] < count.most[book][p]
    assert count.rises[book][players.index("Dee")] == 0  # (told no, not required)
    total, at = brute_force(pos)
    narrow = card_odds(pos, FOLDS)
    assert narrow.deals == total
    assert narrow.cards == odds_from_counts(pos, total, at)
    monkeypatch.setattr(folds_module, "_bounds", folds_module._bounds.__wrapped__)  # (not remembered)
    monkeypatch.setattr(folds_module, "_raises", lambda terms, q: False)
    monkeypatch.setattr(
        folds_module,
        "_most",
        lambda terms, q: max(sum(n for (_, w), n in zip(fs, ns, strict=True) if w >> q & 1) for _, fs, ns in terms),
    )
    assert any(step.total_low or any(step.low) for step in count.steps)
    assert not any(step.total_low or any(step.low) for step in FoldCount(pos).steps)
    assert card_odds(pos, FOLDS) == narrow


def test_boxes_join_late_and_are_cut_on_the_way_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forward, a player a group starts joins the box at the first card singling it out in each
    term. On the way back, each product keeps only the counts it still needs: those of the box on
    the way in and one more, and one more per card still to come singling the player out. The
    odds are those of the whole boxes from each group's start to its end (every card taken to
    single out every player the group starts, nothing cut), as the count once was (and those, on
    this view, the book-by-book count's: ``test_probing_views_count_alike_every_way``)."""
    pos = knowledge.position(_probing(8, DeckKind.STANDARD), 12, PUBLIC)
    fold = FoldCount(pos)
    late = [
        (step, p)
        for step in fold.steps
        for p in step.born
        for _, masks in step.group.terms
        if not all(step.starts(m) >> p & 1 for m in masks)
    ]
    assert late  # (some term goes through cards before the player joins)
    assert any(step.needed != step.ranges for step in fold.steps)
    assert sum(step.forward_work for step in fold.steps) < sum(step.ahead * step.cards for step in fold.steps)
    cut = folds_module._Run._cut_shape
    smaller: list[bool] = []

    def watched(x: np.ndarray[Any, Any], tops: list[int]) -> tuple[int, ...]:
        out = cut(x, tops)
        smaller.append(math.prod(out) < x.size)
        return out

    monkeypatch.setattr(folds_module._Run, "_cut_shape", staticmethod(watched))
    odds = card_odds(pos, FOLDS)
    assert any(smaller) and not all(smaller)  # (cut where it pays, not everywhere)
    monkeypatch.setattr(folds_module._Step, "starts", lambda step, mask: step.newborn)
    monkeypatch.setattr(folds_module._Step, "needed", property(lambda step: step.ranges))
    monkeypatch.setattr(folds_module._Run, "_cut_shape", staticmethod(lambda x, tops: x.shape))
    whole = FoldCount(pos)
    assert sum(step.forward_work for step in whole.steps) == sum(step.ahead * step.cards for step in whole.steps)
    assert card_odds(pos, FOLDS) == odds


@pytest.mark.parametrize(("players", "deck", "at"), [(8, DeckKind.STANDARD, 12), (6, DeckKind.JOKERS, 18)])
def test_the_order_searched_is_the_least_work_of_all_orders(
    players: int, deck: DeckKind, at: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The work of an order, from its steps (each group's box times its card factors), over every
    order of seven groups: the search finds the least, and says what it is; the greedy order's
    stated cost is its work too."""
    fold = FoldCount(knowledge.position(_probing(players, deck), at, PUBLIC))
    assert len(fold.model.groups) == 7

    def work(order: list[int]) -> int:
        fold.order = order
        return sum(step.states * step.cards for step in fold._steps())

    order, least = fold._order()
    assert least == work(order) == min(work(list(o)) for o in itertools.permutations(range(7)))
    monkeypatch.setattr(folds_module, "_EXACT_ORDER", 0)
    greedy, cost = fold._order()
    assert cost == work(greedy) >= least


def test_greedy_order_counts_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``_EXACT_ORDER`` groups the order is greedy: another order, the same odds."""
    pos = knowledge.position(_probing(8, DeckKind.STANDARD), 12, PUBLIC)
    best = FoldCount(pos)
    least = best._order()[1]  # (the search's own measure of the work)
    odds = card_odds(pos, FOLDS)
    monkeypatch.setattr(folds_module, "_EXACT_ORDER", 0)
    greedy = FoldCount(pos)
    assert greedy.order != best.order
    assert greedy._order()[1] > least
    assert card_odds(pos, FOLDS) == odds


@pytest.mark.parametrize(("deck", "at"), [(DeckKind.STANDARD, 19), (DeckKind.JOKERS, 20)])
def test_one_player_counted_by_difference_before_it_starts(deck: DeckKind, at: int) -> None:
    """Third-round public views: the player whose family on the way back would cost the most is
    not given one; its deals with each card before it starts are the deals less the others'.
    The same odds as with every family made, for a fifth less work."""
    pos = knowledge.position(_probing(8, deck), at, PUBLIC)
    count = FoldCount(pos)
    assert count.by_difference is not None
    first = count.steps[0].born
    assert count.by_difference not in first
    # The dots run over the box on the way in: a player a group starts is at 0 there.
    assert all(step.inward[step.work.index(p)] == 1 for step in count.steps for p in step.born)
    assert all(step.coming <= step.ahead for step in count.steps)
    assert sum(step.coming for step in count.steps) * 3 < sum(step.ahead for step in count.steps)
    odds = count.run(True)
    every = FoldCount(pos)
    every.by_difference = None
    assert every.cost > count.cost * 1.15
    assert every.run(True) == odds


@pytest.mark.parametrize("untouched", [0, 2])
def test_one_forward_family_counted_from_all_of_them_together(untouched: int) -> None:
    """The first player folded (or, when there are any, the players no group concerns) is given
    no family with a card forced on it: all the families together are the base moved by one in
    the total, so its deals are those less the other families'. The same odds as with every
    family made, the deals of the free cards too, and those of the book-by-book count."""
    pos = _opening(untouched)
    count = FoldCount(pos)
    if untouched:
        assert count.by_sum == folds_module._UNTOUCHED
    else:
        assert count.by_sum in {p for step in count.steps[:-1] for p in step.dying}
    assert count.model.free
    odds = count.run(True)
    every = FoldCount(pos)
    every.by_sum = None
    assert every.cost > count.cost
    assert every.run(True) == odds
    assert card_odds(pos, FOLDS) == card_odds(pos, BOOKS)


def test_the_player_counted_by_difference_and_from_all_the_families() -> None:
    """A player started late, ended by the group that starts it, is both ``by_difference`` (its
    deals before it starts) and ``by_sum`` (its deals once folded): each group counts it by the
    one that applies there. Against listing every deal."""
    cards = {t: parse_card(t) for t in ["7H", "4H", "5S", "3H", "2S", "6H", "KS", "QS"]}
    names = ("A", "B", "C")
    allowed = {card: names for card in cards.values()}
    allowed[cards["7H"]], allowed[cards["QS"]] = ("B",), ("A", "B")

    def req(p: str, *them: str) -> Requirement:
        held = frozenset(cards[t] for t in them)
        return Requirement(p, DECK.book_of(next(iter(held))), held, 1)

    at_least = [req("A", "KS"), req("B", "KS", "QS"), req("B", "2S", "5S")]
    pos = unseen(DECK, names, allowed, {"A": 3, "B": 3, "C": 2}, at_least, [req("A", "2S", "5S"), req("C", "3H")])
    count = FoldCount(pos)
    assert count.by_sum == count.by_difference == 0
    total, at = brute_force(pos)
    odds = card_odds(pos, FOLDS)
    assert odds.deals == total
    assert odds.cards == odds_from_counts(pos, total, at)


def test_the_sum_of_the_families_stands_for_one_on_a_slow_view() -> None:
    """The jokers game's public view after event 22: the first player folded carries no family
    through the four groups after it, a sixth of the work less, and the odds are the same."""
    pos = knowledge.position(_probing(8, DeckKind.JOKERS), 22, PUBLIC)
    count = FoldCount(pos)
    assert count.by_sum in {p for step in count.steps[:2] for p in step.dying}
    every = FoldCount(pos)
    every.by_sum = None
    assert every.cost > count.cost * 1.15
    assert every.run(True) == count.run(True)


def test_values_reduced_inside_a_group_when_they_would_grow_past_int64(monkeypatch: pytest.MonkeyPatch) -> None:
    """Eighteen cards forbidden to the same four players: each factor can multiply the values by
    five, so the chain is reduced modulo the primes part way through a group, forward and back.
    With the limit lowered, every group is reduced at every card: the same odds."""
    names = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal")
    cards = list(DECK.cards)[:40]
    allowed = {c: names[:4] if i < 18 else names[4:] if i < 30 else names for i, c in enumerate(cards)}
    book = DECK.books[5]
    at_least = [Requirement("Eve", book, frozenset(c for c in book.cards if c in allowed), 1)]
    pos = unseen(DECK, names, allowed, dict.fromkeys(names, 5), at_least)
    odds = card_odds(pos, FOLDS)
    assert odds == card_odds(pos, BOOKS)
    monkeypatch.setattr(folds_module, "_SAFE", 1 << 33)
    assert card_odds(pos, FOLDS) == odds


@pytest.mark.parametrize("runs", [1, 1 << 30])
def test_flat_moves_or_sliced_moves_give_the_same_odds(runs: int, monkeypatch: pytest.MonkeyPatch) -> None:
    pos = knowledge.position(_probing(8, DeckKind.JOKERS), 14, PUBLIC)
    odds = card_odds(pos, FOLDS)
    monkeypatch.setattr(arithmetic, "_FLAT_RUNS", runs)
    assert card_odds(pos, FOLDS) == odds == card_odds(pos, BOOKS)


def test_no_deal_fits() -> None:
    pos = _opening(0)
    only_ann = dict.fromkeys([*DECK.books[0].cards, *DECK.books[1].cards], ("Ann",))  # 12 cards, 8 slots
    pos = Position(**{**vars(pos), "allowed": {**pos.allowed, **only_ann}})
    with pytest.raises(NoFit):
        count_deals(pos, FOLDS)


def test_sums_in_pieces_never_overflow() -> None:
    """A dot product over a box: residues just below 2**31 on both sides, as many states as the
    pieces allow, against Python's integers."""
    pos = _opening(0)
    run = folds_module._Run(FoldCount(pos), list(PRIMES[:2]))
    rng = random.Random(5)
    for states in (1, 1000, (1 << 16) - 1, 70_000, 1 << 19):  # (the most states of 16-bit pieces; 15-bit)
        a = np.array([[[p - 1 - rng.randrange(4) for _ in range(states)] for p in PRIMES[:2]]] * 2, dtype=np.int64)
        b = np.array([[p - 1 - rng.randrange(4) for _ in range(states)] for p in PRIMES[:2]], dtype=np.int64)
        got = run._dot(run._split(a), b, "kp", "p", "kp")
        for k, p in enumerate(PRIMES[:2]):
            want = sum(int(x) * int(y) for x, y in zip(a[0, k].tolist(), b[k].tolist(), strict=True)) % p
            assert got[0, k] == got[1, k] == want


@pytest.mark.parametrize("wide", [arithmetic.WIDE_PRIMES[-1], arithmetic.WIDE_PRIMES[-2], arithmetic.WIDE_PRIMES[7]])
def test_wide_sums_in_halves_never_overflow(wide: int) -> None:
    """The dot product modulo wide primes (of 48, 47 and 39 bits: an odd width's high half is the
    longer): residues just below the prime on both sides, as many states as a block of its
    halves holds and more, against Python's integers; a run with a prime below 2**31 beside it
    takes the same halves."""
    primes = [wide, PRIMES[0]]
    run = folds_module._Run(FoldCount(_opening(0)), primes)
    assert run.wide
    block = min(folds_module._WIDE_BLOCK, (1 << (63 - 2 * run._half)) - 1)
    rng = random.Random(7)
    for states in (1, 1000, block, block + 1, 2 * block + 5):
        a = np.array([[[p - 1 - rng.randrange(4) for _ in range(states)] for p in primes]] * 2, dtype=np.int64)
        b = np.array([[p - 1 - rng.randrange(4) for _ in range(states)] for p in primes], dtype=np.int64)
        got = run._dot(run._split(a), b, "kp", "p", "kp")
        for k, p in enumerate(primes):
            want = sum(int(x) * int(y) for x, y in zip(a[0, k].tolist(), b[k].tolist(), strict=True)) % p
            assert got[0, k] == got[1, k] == want


@pytest.mark.parametrize("prime", [PRIMES[0], *arithmetic.WIDE_PRIMES[::4], arithmetic.WIDE_PRIMES[-1]])
def test_products_of_residues_by_pieces(prime: int) -> None:
    """``times`` against Python's integers: residues at the edges and at random, a row per prime
    (one wide and one below 2**31), the weights broadcast along the row."""
    rng = random.Random(prime)
    primes = [prime, PRIMES[1]]
    rows = [[0, 1, q - 1, q - 2, *(rng.randrange(q) for _ in range(300))] for q in primes]
    a = np.array(rows, dtype=np.int64)
    w = np.array([[q - 1] for q in primes], dtype=np.int64)
    for weights in (w, np.array([[rng.randrange(q)] for q in primes], dtype=np.int64), a[:, ::-1].copy()):
        got = arithmetic.times(a, weights, primes, 0)
        for k, q in enumerate(primes):
            y = weights[k].tolist() * (a.shape[1] // weights.shape[1])
            assert got[k].tolist() == [x * z % q for x, z in zip(a[k].tolist(), y, strict=True)]


def test_wide_primes_are_the_largest_below_each_power() -> None:
    def prime(n: int) -> bool:  # (Miller-Rabin on the first twelve primes: exact below 3 * 10**24)
        bases = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37]
        d, s = n - 1, 0
        while d % 2 == 0:
            d, s = d // 2, s + 1
        for a in bases:
            x = pow(a, d, n)
            if x in (1, n - 1):
                continue
            for _ in range(s - 1):
                x = x * x % n
                if x == n - 1:
                    break
            else:
                return False
        return True

    for k, q in zip(range(32, arithmetic.WIDEST + 1), arithmetic.WIDE_PRIMES, strict=True):
        assert q < 1 << k and prime(q) and not any(prime(x) for x in range(q + 2, 1 << k, 2))
    assert arithmetic.wide_prime(PRIMES[0] - 1) is None  # (the first prime below 2**31 passes it)
    assert arithmetic.wide_prime(PRIMES[0]) == arithmetic.WIDE_PRIMES[0]
    assert arithmetic.wide_prime(1 << 40) == arithmetic.WIDE_PRIMES[41 - 32]
    assert arithmetic.wide_prime(arithmetic.WIDE_PRIMES[-1]) is None


@pytest.mark.parametrize("room", ["terms", "monomials"])
def test_a_wide_prime_only_where_the_groups_leave_it_room(room: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A wide prime's residues must add up inside int64: through a group's terms (the sizes of
    their coefficients, times what a card's factor multiplies by), and through its monomials
    where it is multiplied out (the sizes of their coefficients)."""
    pos = knowledge.position(_probing(8, DeckKind.JOKERS), 35, PUBLIC)
    fold = FoldCount(pos)
    assert fold.moduli[1] in arithmetic.WIDE_PRIMES
    multiplied = [step for step in fold.steps if any(step.multiplied)]
    assert 0 < fold._coefficients == max(step.coefficients for step in multiplied)
    if room == "terms":
        monkeypatch.setattr(folds_module, "_SAFE", arithmetic.WIDE_PRIMES[-1] * fold._growth - 1)
        monkeypatch.setattr(FoldCount, "_coefficients", 1)
    else:
        monkeypatch.setattr(folds_module, "_SAFE", arithmetic.WIDE_PRIMES[-1] * fold._coefficients - 1)
        monkeypatch.setattr(FoldCount, "_growth", 1)
    assert FoldCount(pos).moduli[:3] == [arithmetic.WRAP, *PRIMES[:2]]
    assert card_odds(pos, FOLDS) == card_odds(pos, BOOKS)


@pytest.mark.parametrize("bits", [1, 2, 7, 11, 15, 16, 30, 31])
def test_bit_pieces_add_back_up_to_the_residues(bits: int) -> None:
    edges = [0, 1, (1 << bits) - 1, 1 << bits, (1 << 31) - 1]
    values = [v for v in edges if v < 1 << 31] + random.Random(bits).sample(range(1 << 31), 200)
    a = np.array(values, dtype=np.int64)
    parts = list(arithmetic.bit_pieces(a, bits))
    assert len(parts) == -(-31 // bits)
    assert all(int(part.min()) >= 0 and int(part.max()) < 1 << bits for part in parts)
    assert [sum(int(part[i]) << (j * bits) for j, part in enumerate(parts)) for i in range(len(values))] == values


def test_a_count_without_the_odds_is_planned_and_bounded_as_one() -> None:
    """The jokers game's public view in its third round: the count alone carries no family of a
    card forced on a player, costs a fourth as much as the count with the odds or less, holds an
    eighth of its memory or less (a prime at a time; ``chunk`` sets how many a run takes), and is
    folded. Book by book, the count alone is costed by its way
    forward too."""
    from analyzer.odds.books import BookCount

    pos = knowledge.position(_probing(8, DeckKind.JOKERS), 22, PUBLIC)
    with_odds, alone = FoldCount(pos), FoldCount(pos, odds=False)
    assert with_odds.fits and alone.fits
    assert alone.cost * 4 < with_odds.cost and alone._biggest(1) * 8 < with_odds._biggest(1)
    books, books_alone = BookCount(pos), BookCount(pos, odds=False)
    assert books_alone.cost * 2 < books.cost and books_alone.plain_cost
    assert books.plain_cost and books_alone.plain_cost * 2 < books.plain_cost
    assert route(pos, odds=False) is Counter.FOLDS
    assert count_deals(pos) == count_deals(pos, BOOKS)
    tracemalloc.start()
    try:
        alone.run(False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < alone.biggest * 8 * 1.25 + (1 << 20)  # (array elements of 8 bytes; numpy's own)
    tracemalloc.start()  # ... and with the odds, on a view this big the bound is not passed
    try:
        with_odds.run(True)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < with_odds.biggest * 8
    with pytest.raises(ValueError, match="without the odds"):
        alone.run(True)


def test_too_big_for_its_memory_bound_is_refused_not_wrong() -> None:
    pos = knowledge.position(_probing(8, DeckKind.STANDARD), 12, PUBLIC)
    tight = Routes(counter=Counter.FOLDS, max_states=1)
    with pytest.raises(TooLarge):
        card_odds(pos, tight)


def test_the_router_takes_the_fold_where_it_is_likely_fastest() -> None:
    """A hand of the jokers game after its third round of asks: the board walk's view before,
    now folded (the book-by-book count is not quick there)."""
    pos = knowledge.position(_probing(8, DeckKind.JOKERS), 20, "Hal")
    assert route(pos) is Counter.FOLDS
    routes = Routes()
    asked: list[str] = []

    def walk() -> int:
        asked.append("walk")
        return 10**20

    def folds() -> int | None:
        asked.append("folds")
        return 1000

    quick = 10  # a book-by-book plan likely under ``folds_worth``: nothing else is planned
    assert routes.likely_books_ns(quick) <= routes.folds_worth
    assert routes.choose(lambda: quick, walk, folds) is Counter.BOOKS and asked == []
    slow = 10**9
    assert routes.choose(lambda: slow, walk, folds) is Counter.FOLDS and asked == ["folds"]
    asked.clear()
    assert routes.choose(lambda: slow, walk, lambda: None) is Counter.BOOKS and asked == ["walk"]

    # Given the plainest book-by-book plan's cost, a quick fold is taken without the search for
    # a cheaper book-by-book plan; a slow one is weighed against the plan that search finds.
    def search() -> int:
        asked.append("search")
        return slow

    asked.clear()
    assert routes.choose(search, walk, folds, plain=slow) is Counter.FOLDS and asked == ["folds"]
    asked.clear()
    assert routes.choose(search, walk, lambda: 10**12, plain=slow) is Counter.BOOKS and asked == ["search", "walk"]


def test_a_quick_fold_skips_the_search_for_a_cheaper_book_by_book_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    """A must-declare hand in the second round: the fold is likely under 20 ms and quicker than
    the plainest book-by-book plan, so the search for a cheaper one (10-12 ms here) is not made."""
    game = _probing(8, DeckKind.STANDARD, frozenset({HouseRule.MUST_DECLARE}))
    pos = knowledge.position(game, 12, "Cara")
    assert _plans_made(pos, monkeypatch) == [False]
    assert card_odds(pos) == card_odds(pos, BOOKS)


def _plans_made(pos: Position, monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Routes the view to the fold (asserted), and says which book-by-book plans were made on the
    way: the plainest (False), and the search for a cheaper one (True)."""
    from analyzer.odds import books

    searched: list[bool] = []
    original = books._plan

    def spy(model: Any, search: bool = True, plain: Any = None) -> Any:
        searched.append(search)
        return original(model, search, plain)

    monkeypatch.setattr(books, "_plan", spy)
    assert route(pos) is Counter.FOLDS
    return searched


@pytest.mark.parametrize(("at", "view", "search"), [(22, PUBLIC, False), (24, "Ben", True)])
def test_the_search_is_skipped_when_the_fold_is_likely_far_quicker(
    at: int, view: str, search: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The jokers game's third round: on the public view the fold is likely 5 times quicker
    than the plainest book-by-book plan, more than a search has ever gained (``search_gain``),
    so there is no search; on Ben's, 3 times, and the search is made. Either way the fold
    counts, and as the book-by-book count does."""
    pos = knowledge.position(_probing(8, DeckKind.JOKERS), at, view)
    assert _plans_made(pos, monkeypatch) == ([False, True] if search else [False])
    assert card_odds(pos) == card_odds(pos, BOOKS)


def test_a_run_takes_as_many_primes_as_keep_its_biggest_box_small(monkeypatch: pytest.MonkeyPatch) -> None:
    """The jokers game's public view after event 22 (a box of 181,440 states), counted modulo
    2**64 and three primes: ``_RUN_STATES`` would let a run take five, the memory bound leaves
    room for four; with room in states for two a run, two, or for one, one. 2**64 goes in a run
    of its own: the odds take it and two primes (one run of two, where there is room for two or
    more: four and two make the same runs here), the third prime counts the deals alone. Runs of
    two and runs of one give the same deals and odds, and each run takes the moduli it was given.
    With room in memory for two a run alone, two."""
    monkeypatch.setenv(parallel.THREADS, "1")  # (one run after another, in the order they go)
    pos = _jokers_22()
    most = max(step.states for step in FoldCount(pos).steps)
    assert most > folds_module._APART
    taken = runs_taken(monkeypatch)
    results = {}
    for room, chunk in [(folds_module._RUN_STATES, 4), (2 * most, 2), (most, 1)]:
        monkeypatch.setattr(folds_module, "_RUN_STATES", room)
        fold = FoldCount(pos)
        assert fold.moduli[0] == arithmetic.WRAP and len(fold.moduli) == 4
        assert fold.odds_moduli == 3 and fold.chunk == chunk
        assert fold.fits and fold.biggest == fold._biggest(fold.chunk) <= fold.routes.max_states * 8
        taken.clear()
        results[chunk] = fold.run(True)
        wrap, *primes = fold.moduli
        odds, alone = primes[:2], primes[2:]
        assert taken == [[wrap], *(odds[i : i + chunk] for i in range(0, 2, chunk)), alone]
    assert results[4] == results[2] == results[1]
    tight = Routes(max_states=-(-FoldCount(pos)._biggest(2) // 8))  # (room in memory for two primes a run)
    monkeypatch.setattr(folds_module, "_RUN_STATES", 1 << 30)
    assert FoldCount(pos, tight).chunk == 2


def test_runs_of_two_primes_take_the_primes_missing_when_the_guess_falls_short(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A guess of the deals far too low (one modulus, 2**64): it takes the odds, the primes count
    the deals alone two a run, then the primes the deals need take the odds, two a run. The odds
    are the book-by-book count's."""
    monkeypatch.setenv(parallel.THREADS, "1")  # (one run after another, in the order they go)
    monkeypatch.setattr(folds_module, "_MARGIN", -300)
    monkeypatch.setattr(folds_module, "_APART", 1)  # (a quick view, as a big one)
    pos = knowledge.position(_probing(8, DeckKind.STANDARD), 12, PUBLIC)
    monkeypatch.setattr(folds_module, "_RUN_STATES", 2 * max(step.states for step in FoldCount(pos).steps))
    runs: list[tuple[list[int], bool]] = []
    count = folds_module._Run.count

    def spy(self: Any, odds: bool) -> Any:
        runs.append((list(self.moduli), odds))
        return count(self, odds)

    monkeypatch.setattr(folds_module._Run, "count", spy)
    fold = FoldCount(pos)
    assert fold.chunk == 2 and fold.odds_moduli == 1 and fold.moduli[0] == arithmetic.WRAP
    deals, ways = fold.run(True)
    need, moduli = len(arithmetic.primes_for(deals, fold._sequence)), fold.moduli
    assert need > 2  # (the primes missing take more than one run)
    alone = [(moduli[i : i + 2], False) for i in range(1, len(moduli), 2)]
    assert runs == [(moduli[:1], True), *alone, *[(moduli[i : min(i + 2, need)], True) for i in range(1, need, 2)]]
    want_deals, want = card_ways(pos, BOOKS)
    assert deals == want_deals
    assert {c: {q: v for q, v in ways[c].items() if v} for c in want} == want


@pytest.mark.parametrize("threads", ["1", "3"])
@pytest.mark.parametrize("margin", [-300, 4, 300])
def test_the_odds_take_the_primes_the_deals_need_however_the_guess_falls(
    margin: int, threads: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On big boxes, the moduli a guess of the deals needs take the odds and the others count
    the deals alone; a guess too low takes the moduli missing once the deals are known, one too
    high takes them all. The odds are the same every way, the runs one after another or in
    threads (where they start in any order, but the moduli missing only once the deals are
    known)."""
    monkeypatch.setenv(parallel.THREADS, threads)
    monkeypatch.setattr(folds_module, "_MARGIN", margin)
    monkeypatch.setattr(folds_module, "_APART", 1)  # (a quick view, as a big one)
    monkeypatch.setattr(folds_module, "_RUN_STATES", 1)  # (one prime a run)
    runs: list[tuple[int, bool]] = []
    count = folds_module._Run.count

    def spy(self: Any, odds: bool) -> Any:
        runs.append((self.moduli[0], odds))
        return count(self, odds)

    monkeypatch.setattr(folds_module._Run, "count", spy)
    pos = _jokers_22()
    fold = FoldCount(pos)
    assert fold.apart and fold.chunk == 1
    deals, ways = fold.run(True)
    needed = arithmetic.primes_for(deals, fold._sequence)
    assert len(needed) < len(fold.moduli)  # (the bound is for every count: it asks for more)
    with_odds = [q for q, odds in runs if odds]
    if threads != "1":
        assert fold.workers == 3
        with_odds.sort()
    if margin < 0:  # one modulus guessed: the count in the others, then the odds in those needed
        first, *rest = needed
        at_once = [(first, True)] + [(q, False) for q in fold.moduli[1:]]
        assert sorted(runs[: len(at_once)]) == sorted(at_once)
        assert sorted(runs[len(at_once) :]) == sorted((q, True) for q in rest)
        assert threads != "1" or runs == at_once + [(q, True) for q in rest]
    elif margin == 300:
        assert with_odds == (fold.moduli if threads == "1" else sorted(fold.moduli))
    else:  # (the guess is within two bits of this view's deals)
        assert with_odds == (needed if threads == "1" else sorted(needed))
    want_deals, want = _jokers_22_by_books()
    assert deals == want_deals
    assert {c: {q: v for q, v in ways[c].items() if v} for c in want} == want


def runs_taken(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """The moduli of each run the fold makes from now on, as the runs start."""
    taken: list[list[int]] = []
    count = folds_module._Run.count

    def spy(self: Any, odds: bool) -> Any:
        taken.append(list(self.moduli))
        return count(self, odds)

    monkeypatch.setattr(folds_module._Run, "count", spy)
    return taken


@functools.cache
def _jokers_22() -> Position:
    """The 8-player jokers opening's public view after event 22: its deals need a modulus less
    than its bound asks for (2**64 and two primes of three)."""
    return knowledge.position(_probing(8, DeckKind.JOKERS), 22, PUBLIC)


@functools.cache
def _jokers_22_by_books() -> tuple[int, dict[Card, dict[str, int]]]:
    return card_ways(_jokers_22(), BOOKS)
