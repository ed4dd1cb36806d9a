"""A group's terms multiplied out, and the count folding players going through such groups."""

from __future__ import annotations

import math
import random
from collections import defaultdict

import numpy as np
import pytest

from analyzer import knowledge
from analyzer.cards import DeckKind
from analyzer.knowledge import PUBLIC
from analyzer.odds import Counter, Routes, card_ways, count_deals
from analyzer.odds.folds import FoldCount, _Step
from analyzer.odds.monomials import BOUND, Factor, expand
from analyzer.replay import replay
from analyzer.simulate import Style, simulate

Poly = dict[tuple[int, ...], int]


def _naive(
    coefs: list[int], kinds: list[tuple[list[tuple[bool, set[int]]], int]], limits: list[int], terms: list[int]
) -> Poly:
    """The chosen terms multiplied out factor by factor, as dictionaries."""
    out: Poly = defaultdict(int)
    for t in terms:
        poly: Poly = {(0,) * len(limits): coefs[t]}
        for forms, count in kinds:
            complement, singled = forms[t]
            for _ in range(count):
                grown: Poly = defaultdict(int)
                for e, c in poly.items():
                    if complement:
                        grown[e] += c
                    for d in singled:
                        if e[d] + 1 < limits[d]:
                            grown[(*e[:d], e[d] + 1, *e[d + 1 :])] += -c if complement else c
                poly = grown
        for e, c in poly.items():
            out[e] += c
    return {e: c for e, c in out.items() if c}


def _as_dict(made: tuple[np.ndarray, np.ndarray]) -> Poly:
    exps, coefs = made
    return {tuple(int(x) for x in e): int(c) for e, c in zip(exps, coefs, strict=True)}


@pytest.mark.parametrize("seed", range(40))
def test_terms_multiplied_out_match_multiplying_factor_by_factor(seed: int) -> None:
    """Random terms (inclusion–exclusion alike: terms sharing most factors, coefficients of both
    signs), summed whole and per mark, against dictionaries."""
    rng = random.Random(seed)
    axes = rng.randint(1, 5)
    limits = [rng.randint(1, 5) for _ in range(axes)]
    terms = rng.choice([1, 2, 4, 8])
    kinds = []
    for _ in range(rng.randint(1, 4)):
        base = (rng.random() < 0.7, {d for d in range(axes) if rng.random() < 0.4})
        forms = [
            base if rng.random() < 0.5 else (rng.random() < 0.7, {d for d in range(axes) if rng.random() < 0.4})
            for _ in range(terms)
        ]
        kinds.append((forms, rng.randint(0, 3)))
    coefs = [rng.choice([1, -1, 2, -3]) for _ in range(terms)]
    marks = np.array([rng.randint(0, 2) for _ in range(terms)], dtype=np.intp)
    factors = [
        (
            Factor(
                np.array([c for c, _ in forms], dtype=np.bool_),
                np.array([[d in who for d in range(axes)] for _, who in forms], dtype=np.bool_).reshape(terms, axes),
            ),
            count,
        )
        for forms, count in kinds
    ]
    made = expand(coefs, factors, limits, marks)
    assert made is not None
    assert _as_dict(made.total()) == _naive(coefs, kinds, limits, list(range(terms)))
    for m in range(3):
        chosen = np.arange(3) == m
        assert _as_dict(made.total(chosen)) == _naive(coefs, kinds, limits, [t for t in range(terms) if marks[t] == m])


def test_coefficients_that_could_pass_the_bound_are_not_multiplied_out() -> None:
    singles = np.ones((1, 3), dtype=np.bool_)
    cards = next(n for n in range(1, 60) if 4**n >= BOUND)
    assert expand([1], [(Factor(np.array([True]), singles), cards)], [60, 60, 60]) is None
    assert expand([1], [(Factor(np.array([True]), singles), cards - 1)], [60, 60, 60]) is not None


def _late(deck: DeckKind, at: int) -> knowledge.Position:
    game = replay(simulate(players=8, deck=deck, seed=0, style=Style.PROBING))
    return knowledge.position(game, at, PUBLIC)


@pytest.mark.parametrize(("deck", "at"), [(DeckKind.STANDARD, 41), (DeckKind.JOKERS, 35)])
def test_late_public_views_multiply_their_heavy_groups_out_and_count_the_same(deck: DeckKind, at: int) -> None:
    """Late in a probing game a book under four or five requirements (16 or 32 terms) cancels
    down to a handful of monomials: the fold goes through it monomial by monomial, both ways,
    and counts what it counts through the card factors."""
    pos = _late(deck, at)
    count = FoldCount(pos)
    assert any(all(step.multiplied) for step in count.steps)
    assert any(len(step.group.terms) >= 16 and step.multiplied[1] for step in count.steps)
    folds = Routes(counter=Counter.FOLDS)
    never = Routes(counter=Counter.FOLDS, multiply=False)
    assert card_ways(pos, folds) == card_ways(pos, never)
    assert count_deals(pos, folds) == count_deals(pos, never)


def test_weighing_a_view_that_is_not_slow_never_multiplies_out() -> None:
    """The router weighs the card factors' work: multiplying out (milliseconds on a heavy
    group) waits for a count that goes through the fold, but on the slowest views."""
    count = FoldCount(_late(DeckKind.STANDARD, 41))
    assert count.cost > 0 and count.fits
    assert all("multiplied" not in vars(step) and "whole_sum_back" not in vars(step) for step in count.steps)


def _weigh(books_ms: float, folds_ms: float, multiplied_ms: float | None) -> tuple[Counter | None, list[str]]:
    """``Routes.weigh`` with counts likely taking these times (the costs made from the laws),
    and which costs it asked for."""
    routes = Routes()

    def cost(ms: float, scale: float, power: float) -> int:
        return round((ms * 1e6 / scale) ** (1 / power))

    asked: list[str] = []

    def ask(name: str, value: int | None) -> int | None:
        asked.append(name)
        return value

    books = cost(books_ms, routes.books_scale, routes.books_power)
    folds = cost(folds_ms, routes.folds_scale, routes.folds_power)
    multiplied = None if multiplied_ms is None else cost(multiplied_ms, routes.folds_scale, routes.folds_power)
    choice, _ = routes.weigh(
        lambda: ask("books", books),
        lambda: ask("walk", 1 << 62) or 0,
        lambda: ask("folds", folds),
        books,
        lambda: ask("multiplied", multiplied),
    )
    return choice, asked


def test_the_router_weighs_the_fold_multiplied_out_only_on_slow_views() -> None:
    """Book by book likely 800 ms, the fold through card factors 850 ms: multiplied out it is
    likely 700 ms, and taken, as at 790 ms (likely quicker at all); at 810 ms not. A
    book-by-book count likely 300 ms, or a fold twice as slow, is not worth multiplying out:
    not asked."""
    assert _weigh(800, 850, 700) == (Counter.FOLDS, ["folds", "books", "walk", "multiplied"])
    assert _weigh(800, 850, 790) == (Counter.FOLDS, ["folds", "books", "walk", "multiplied"])
    assert _weigh(800, 850, 810) == (Counter.BOOKS, ["folds", "books", "walk", "multiplied"])
    assert _weigh(300, 320, 100) == (Counter.BOOKS, ["folds", "books", "walk"])
    assert _weigh(800, 1600, 100) == (Counter.BOOKS, ["folds", "books", "walk"])


def test_the_jokers_games_slowest_book_by_book_views_go_to_the_fold_multiplied_out() -> None:
    """The jokers game's public view after event 34: book by book and through card factors alike
    likely 840 ms; with its books under requirements multiplied out the fold is likely a fifth
    quicker (measured: 730 ms book by book, 570 ms folded), and counts the same."""
    from analyzer.odds import card_odds, route

    pos = _late(DeckKind.JOKERS, 34)
    assert route(pos, routes=Routes(multiplied_from_ns=1 << 62)) is Counter.BOOKS
    assert route(pos) is Counter.FOLDS
    assert card_odds(pos) == card_odds(pos, Routes(counter=Counter.BOOKS))


def test_a_fold_multiplied_out_likely_quicker_at_all_is_taken() -> None:
    """The jokers game's public view after event 42: book by book likely 645 ms, the fold
    multiplied out about 620 ms, less than a tenth quicker, and taken (measured, each code in a
    process of its own: 860 to 943 ms book by book, 561 to 591 ms folded); asking a tenth, the
    book-by-book count was kept."""
    from analyzer.odds import route

    pos = _late(DeckKind.JOKERS, 42)
    assert route(pos) is Counter.FOLDS
    assert route(pos, routes=Routes(multiplied_gain=1.1)) is Counter.BOOKS


def test_the_way_back_is_multiplied_out_where_the_card_factors_moves_weigh_more() -> None:
    """The public view after event 21 of the jokers opening of seed 3: the high diamonds, under
    three requirements (8 terms), most of its cards moving three to five counts. Multiplied out,
    the way back is likely more work than the card factors' steps (``back_work``) but less than
    their moves (``back_moves``), and goes monomial by monomial (measured: 166 against 63 ms for
    the group, 270 against 180 ms for the view), counting the same."""
    game = replay(simulate(players=8, deck=DeckKind.JOKERS, seed=3, style=Style.PROBING))
    pos = knowledge.position(game, 21, PUBLIC)
    count = FoldCount(pos)
    step = next(s for s in count.steps if "QD" in map(str, s.group.cards))
    behind = step.multiplied_work[1]
    assert behind is not None and step.back_work < behind < step.back_moves
    assert step.multiplied[1]
    never = Routes(counter=Counter.FOLDS, multiply=False)
    assert card_ways(pos, Routes(counter=Counter.FOLDS)) == card_ways(pos, never)


def _moves_as_the_way_back_makes_them(step: _Step) -> int:
    """``_Run._back_through``'s products, card by card: each over its counts, times the players
    its card singles out, and the sums against the forward pass."""
    kinds, order, work = len(step.group.kinds), step.back_order, 0
    for term, (_, masks) in enumerate(step.group.terms):
        for at in reversed(range(len(order))):
            if at < kinds:
                for k, j in enumerate(order[:at]):
                    work += math.prod(step.tops(term, k + 1, at)) * step.forms[masks[j]][1].bit_count()
            work += math.prod(step.tops(term, 0, at)) * step.forms[masks[order[at]]][1].bit_count()
    return step.total * work + step.masks * step.coming


@pytest.mark.parametrize(("deck", "seed", "at"), [(DeckKind.JOKERS, 3, 21), (DeckKind.STANDARD, 3, 23)])
def test_the_moves_of_the_way_back_are_those_it_makes(deck: DeckKind, seed: int, at: int) -> None:
    """``back_moves`` is the loop of the way back, every group of two slow opening views; a
    group going back monomial by monomial is weighed by the router at its monomials' work in
    the unit of ``back_work``."""
    game = replay(simulate(players=8, deck=deck, seed=seed, style=Style.PROBING))
    count = FoldCount(knowledge.position(game, at, PUBLIC))
    for step in count.steps:
        assert step.back_moves == _moves_as_the_way_back_makes_them(step)
        behind = step.multiplied_work[1]
        if step.multiplied[1]:
            assert behind is not None
            assert step.run_work[1] == behind * step.back_work // step.back_moves
        else:
            assert step.run_work[1] == step.back_work


def test_a_group_over_no_tracked_player_sums_to_one_monomial() -> None:
    made = expand([1, -1, 3], [(Factor(np.ones(3, dtype=np.bool_), np.zeros((3, 0), dtype=np.bool_)), 2)], [])
    assert made is not None
    exps, coefs = made.total()
    assert exps.shape == (1, 0) and coefs.tolist() == [3]


def test_the_last_cards_of_a_game_multiplied_out() -> None:
    """Near the end one player may hold every card left: a group then tracks no one (its
    factors are all ``X``), and multiplied out it is the one monomial 1."""
    game = replay(simulate(players=8, deck=DeckKind.STANDARD, seed=1, style=Style.PROBING))
    pos = knowledge.position(game, 249, "Anna")
    assert any(not step.work for step in FoldCount(pos).steps)
    forced = Routes(counter=Counter.FOLDS, multiply=True)
    assert card_ways(pos, forced) == card_ways(pos, Routes(counter=Counter.FOLDS, multiply=False))
