"""Exact odds: the shared golden odds, two slow oracles, and the solver's holders on every view."""

from __future__ import annotations

import importlib
import itertools
import math
import time
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import knowledge, record, solver
from analyzer.cards import Card, DeckKind, make_deck, parse_card
from analyzer.knowledge import PUBLIC, Position, Requirement
from analyzer.odds import (
    Counter,
    Odds,
    Routes,
    TooLarge,
    card_odds,
    card_ways,
    count_deals,
    information,
    odds_or_reason,
)
from analyzer.replay import Game, replay
from analyzer.rules import HouseRule
from analyzer.simulate import Style, simulate
from analyzer.solver import NoFit

from .fixtures import SHARED, committed, committed_json
from .odds_oracle import brute_force, odds_from_counts, plain_count, unseen

# The counter's module (``analyzer.odds`` itself is the API's function of that name).
odds_module = importlib.import_module("analyzer.odds.books")

# A copy of the shared simulated records and their independently computed odds.
GOLDEN = committed_json(SHARED / "odds.json")
RECORDS = committed(SHARED, "g2*.fish")
DECK = make_deck(DeckKind.STANDARD)


def _text(f: Fraction) -> str:
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def _game(name: str) -> Game:
    return replay(record.load(SHARED / name))


# ------------------------------------------------------------ the shared golden odds


def _golden() -> list[tuple[str, dict[str, object]]]:
    return [(name, row) for name, rows in GOLDEN.items() for row in rows]


@pytest.mark.parametrize(("name", "row"), _golden(), ids=lambda x: x if isinstance(x, str) else f"{x['as']}@{x['at']}")
def test_shared_odds_exactly(name: str, row: dict[str, object]) -> None:
    pos = knowledge.position(_game(name), int(str(row["at"])), str(row["as"]))
    odds = card_odds(pos)
    assert str(odds.deals) == row["deals"]
    assert str(count_deals(pos)) == row["deals"]
    got = {c.code: {p: _text(f) for p, f in share.items()} for c, share in odds.cards.items()}
    assert got == row["cards"]


# ------------------------------------------------------------ hand-built positions


def _position(
    slots: dict[str, int],
    allowed: dict[str, str],
    known: dict[str, str] | None = None,
    at_least: tuple[tuple[str, str], ...] = (),
    not_all: tuple[tuple[str, str], ...] = (),
) -> Position:
    """A position over the standard deck; ``allowed`` maps a card to the players allowed it,
    space-separated; requirements name (player, book) and cover the book's never-shown cards."""
    players = tuple(slots)
    cards = {parse_card(c): tuple(ps.split()) for c, ps in allowed.items()}
    held = {parse_card(c): p for c, p in (known or {}).items()}
    in_play = tuple(c for c in DECK.cards if c in cards or c in held)

    def reqs(pairs: tuple[tuple[str, str], ...]) -> list[Requirement]:
        out = []
        for player, name in pairs:
            book = DECK.book(name)
            out.append(Requirement(player, book, frozenset(c for c in book.cards if c in cards), 1))
        return out

    return Position(
        at=0,
        view=PUBLIC,
        deck=DECK,
        players=players,
        in_play=in_play,
        known=held,
        allowed=cards,
        slots=dict(slots),
        at_least=reqs(at_least),
        not_all=reqs(not_all),
    )


def _check_against_oracle(pos: Position, routes: Routes | None = None) -> None:
    """The odds (by the given routes, else by each counter in turn) against listing every deal."""
    if routes is None:
        for counter in (Counter.BOARDS, Counter.BOOKS, Counter.FOLDS):
            _check_against_oracle(pos, Routes(counter=counter))
        return
    total, at = brute_force(pos)
    if total == 0:
        with pytest.raises(NoFit):
            count_deals(pos, routes)
        with pytest.raises(NoFit):
            card_odds(pos, routes)
        with pytest.raises(NoFit):
            card_ways(pos, routes)
        with pytest.raises(NoFit):
            solver.solve(pos)
        return
    odds = card_odds(pos, routes)
    assert odds.deals == total == count_deals(pos, routes)
    # The whole numbers themselves: every card not known, its holders in seat order.
    deals, ways = card_ways(pos, routes)
    assert deals == total
    unknown = [c for c in pos.in_play if c not in pos.known]
    assert list(ways) == unknown
    for c in unknown:
        assert list(ways[c].items()) == [(p, at[c][p]) for p in pos.players if at[c][p] > 0]
    expected = odds_from_counts(pos, total, at)
    assert odds.cards == expected
    for c, share in odds.cards.items():
        assert list(share) == list(expected[c])  # seat order
    holders = solver.solve(pos).holders
    assert {c: tuple(share) for c, share in odds.cards.items()} == holders


def test_two_players_one_card_each() -> None:
    pos = _position({"Ann": 1, "Bob": 1}, {"2S": "Ann Bob", "3S": "Ann Bob"})
    odds = card_odds(pos)
    assert odds.deals == 2
    assert odds.cards[parse_card("2S")] == {"Ann": Fraction(1, 2), "Bob": Fraction(1, 2)}


def test_at_least_one_of_a_book() -> None:
    # Ann asked for a low spade: she holds 2S or 3S; then the other two cards go one each.
    pos = _position(
        {"Ann": 1, "Bob": 1, "Cid": 1},
        {"2S": "Ann Bob Cid", "3S": "Ann Bob Cid", "9H": "Ann Bob Cid"},
        at_least=(("Ann", "low-spades"),),
    )
    odds = card_odds(pos)
    assert odds.deals == 4
    assert odds.cards[parse_card("9H")] == {"Bob": Fraction(1, 2), "Cid": Fraction(1, 2)}
    assert odds.cards[parse_card("2S")] == {"Ann": Fraction(1, 2), "Bob": Fraction(1, 4), "Cid": Fraction(1, 4)}
    _check_against_oracle(pos)


def test_not_all_of_a_book() -> None:
    # Must-declare: Ann did not hold both unseen low spades, so 9H is hers.
    pos = _position(
        {"Ann": 2, "Bob": 1},
        {"2S": "Ann Bob", "3S": "Ann Bob", "9H": "Ann Bob"},
        known={"4S": "Ann"},
        not_all=(("Ann", "low-spades"),),
    )
    odds = card_odds(pos)
    assert odds.deals == 2
    assert odds.cards[parse_card("9H")] == {"Ann": Fraction(1)}
    assert odds.cards[parse_card("4S")] == {"Ann": Fraction(1)}
    assert odds.cards[parse_card("3S")] == {"Ann": Fraction(1, 2), "Bob": Fraction(1, 2)}
    _check_against_oracle(pos)


def test_not_all_that_cannot_fail_is_left_out() -> None:
    """Must-declare after a round: Ann asked in low spades, so she holds one of them; with two
    slots she cannot also hold both never-shown low hearts, and "not all of them" binds nothing.
    With three slots it can fail, and stays."""
    allowed = {"2S": "Ann Bob", "3S": "Ann Bob", "2H": "Ann Bob", "3H": "Ann Bob", "9D": "Ann Bob"}
    tight = _position(
        {"Ann": 2, "Bob": 3}, allowed, at_least=(("Ann", "low-spades"),), not_all=(("Ann", "low-hearts"),)
    )
    assert tight.not_all and tight.binding_not_all() == []
    roomy = _position(
        {"Ann": 3, "Bob": 2}, allowed, at_least=(("Ann", "low-spades"),), not_all=(("Ann", "low-hearts"),)
    )
    assert roomy.binding_not_all() == roomy.not_all
    alone = _position({"Ann": 2, "Bob": 3}, allowed, not_all=(("Ann", "low-hearts"),))
    assert alone.binding_not_all() == alone.not_all  # nothing else she must hold
    for pos in (tight, roomy, alone):
        _check_against_oracle(pos)


def test_ruled_out_players_and_empty_hands() -> None:
    pos = _position(
        {"Ann": 0, "Bob": 2, "Cid": 1, "Dee": 1},
        {"2S": "Bob Cid", "3S": "Bob Dee", "9H": "Bob Cid Dee", "10H": "Cid Dee"},
        at_least=(("Dee", "high-hearts"),),
    )
    _check_against_oracle(pos)


@pytest.mark.parametrize(
    "pos",
    [
        # Ann must hold a low spade but may hold none.
        _position({"Ann": 1, "Bob": 1}, {"2S": "Bob", "9H": "Ann Bob"}, at_least=(("Ann", "low-spades"),)),
        # Two cards only Bob may hold, one slot.
        _position({"Ann": 1, "Bob": 1}, {"2S": "Bob", "3S": "Bob"}),
        # Bob must not hold all low spades, and can hold nothing else.
        _position({"Ann": 0, "Bob": 2}, {"2S": "Bob", "3S": "Bob"}, not_all=(("Bob", "low-spades"),)),
        # More unseen cards than unseen slots.
        _position({"Ann": 1, "Bob": 1}, {"2S": "Ann Bob", "3S": "Ann Bob", "4S": "Ann Bob"}),
    ],
)
def test_no_fitting_deal_raises(pos: Position) -> None:
    with pytest.raises(NoFit):
        count_deals(pos)
    with pytest.raises(NoFit):
        card_odds(pos)
    with pytest.raises(NoFit):
        card_ways(pos)


def test_card_ways_are_the_odds_as_whole_numbers() -> None:
    """``card_ways`` (what the replay page's counts use) is ``card_odds`` times the deals, in every
    view a third and two thirds into a simulated game."""
    rec = simulate(players=6, seed=3)
    game = replay(rec)
    for at in (len(rec.events) // 3, 2 * len(rec.events) // 3):
        for view in [PUBLIC, *rec.hands]:
            pos = knowledge.position(game, at, view)
            odds = card_odds(pos)
            deals, ways = card_ways(pos)
            assert deals == odds.deals
            assert ways == {
                c: {p: f * deals for p, f in odds.cards[c].items()} for c in odds.cards if c not in pos.known
            }
            assert all(list(ways[c]) == list(odds.cards[c]) for c in ways)


def test_public_view_at_the_deal_is_a_multinomial() -> None:
    game = _game("g201.fish")
    pos = knowledge.position(game, 0, PUBLIC)
    odds = card_odds(pos)
    assert odds.deals == math.factorial(48) // math.factorial(8) ** 6
    assert all(share == dict.fromkeys(pos.players, Fraction(1, 6)) for share in odds.cards.values())


def test_player_view_at_the_deal() -> None:
    game = _game("g202.fish")  # eight players, six cards each
    view = game.record.players[0]
    pos = knowledge.position(game, 0, view)
    odds = card_odds(pos)
    assert odds.deals == math.factorial(42) // math.factorial(6) ** 7
    for c, share in odds.cards.items():
        if c in game.record.hands[view]:
            assert share == {view: Fraction(1)}
        else:
            assert share == {p: Fraction(1, 7) for p in pos.players if p != view}


def test_information_is_bits() -> None:
    assert information(8, 2) == 2.0
    assert information(5, 5) == 0.0


# ------------------------------------------------------------ random positions against the oracles

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve")
POOL = [c for name in ("low-spades", "high-hearts", "low-clubs", "high-diamonds") for c in DECK.book(name).cards]


@st.composite
def positions(draw: st.DrawFn, least_cards: int = 2, most_cards: int = 8, most_players: int = 4) -> Position:
    """Random small positions: cards of four books, random ruled-out players, random asks.

    Slots come half the time from a hidden true deal (so something fits), else at random (so
    often nothing does); requirements cover a book's never-shown cards, as in real views.
    """
    players = NAMES[: draw(st.integers(2, most_players))]
    unknown = draw(st.lists(st.sampled_from(POOL), min_size=least_cards, max_size=most_cards, unique=True))
    shown = [c for c in POOL if c not in unknown]
    known = {c: draw(st.sampled_from(players)) for c in draw(st.lists(st.sampled_from(shown), max_size=3, unique=True))}
    allowed: dict[Card, tuple[str, ...]] = {}
    truth: dict[Card, str] = {}
    for c in unknown:
        ps = draw(st.lists(st.sampled_from(players), min_size=1, unique=True))
        allowed[c] = tuple(p for p in players if p in ps)
        truth[c] = draw(st.sampled_from(allowed[c]))
    if draw(st.booleans()) or not unknown:
        slots = {p: sum(1 for h in truth.values() if h == p) for p in players}
    else:
        cuts = sorted(draw(st.integers(0, len(unknown))) for _ in players[1:])
        bounds = [0, *cuts, len(unknown)]
        slots = {p: bounds[i + 1] - bounds[i] for i, p in enumerate(players)}
    books = sorted({DECK.book_of(c).name for c in unknown})

    def reqs() -> list[Requirement]:
        out = {}
        for _ in range(draw(st.integers(0, 3)) if books else 0):
            player, name = draw(st.sampled_from(players)), draw(st.sampled_from(books))
            book = DECK.book(name)
            out[(player, name)] = Requirement(player, book, frozenset(c for c in book.cards if c in allowed), 1)
        return list(out.values())

    return Position(
        at=0,
        view=PUBLIC,
        deck=DECK,
        players=players,
        in_play=tuple(c for c in DECK.cards if c in known or c in allowed),
        known=known,
        allowed=allowed,
        slots=slots,
        at_least=reqs(),
        not_all=reqs(),
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_random_positions_match_brute_force(pos: Position) -> None:
    _check_against_oracle(pos)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(least_cards=10, most_cards=18, most_players=5))
def test_bigger_random_positions_match_the_plain_count(pos: Position) -> None:
    deals = plain_count(pos)
    if deals == 0:
        with pytest.raises(NoFit):
            card_odds(pos)
        return
    odds = card_odds(pos, Routes(counter=Counter.BOARDS))
    assert odds == card_odds(pos, Routes(counter=Counter.BOOKS))
    assert odds.deals == deals
    for c in list(pos.allowed)[:3]:
        _check_card_by_plain_count(pos, odds.cards[c], c, deals)
        assert sum(odds.cards[c].values()) == 1


def _check_card_by_plain_count(pos: Position, shares: dict[str, Fraction], c: Card, deals: int) -> None:
    """Each holder's share of card c is the plain count with c forced to that holder, over all."""
    for p, share in shares.items():
        forced = Position(**{**vars(pos), "allowed": {**pos.allowed, c: (p,)}})
        assert share == Fraction(plain_count(forced), deals), (pos.view, pos.at, c, p)


# ------------------------------------------------------------ the counter's shortcuts


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 4).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.integers(1, (1 << n) - 1), min_size=1, max_size=5),
            st.lists(st.tuples(st.booleans(), st.integers(0, n - 1), st.integers(1, 31)), max_size=3),
        )
    )
)
def test_a_books_share_per_player_is_bounded_by_listing_its_deals(
    case: tuple[int, list[int], list[tuple[bool, int, int]]],
) -> None:
    """The fewest and most cards of a book each player holds over the deals of it that meet its
    requirements, which bound the counter's boxes, equal those of listing every such deal."""
    n, masks, raw = case
    needs = tuple(
        (at, 1 << q, cards & ((1 << len(masks)) - 1)) for at, q, cards in raw if cards & ((1 << len(masks)) - 1)
    )
    shares: list[list[int]] = []
    for deal in itertools.product(*[[q for q in range(n) if m >> q & 1] for m in masks]):
        held = [{i for i, q in enumerate(deal) if q == p} for p in range(n)]
        if all(
            bool(held[bit.bit_length() - 1] & cards_of(cards))
            if at
            else not cards_of(cards) <= held[bit.bit_length() - 1]
            for at, bit, cards in needs
        ):
            shares.append([len(h) for h in held])
    expected = tuple((min(s[p] for s in shares), max(s[p] for s in shares)) for p in range(n)) if shares else None
    assert odds_module._reach(tuple(masks), needs, n) == expected


def cards_of(bits: int) -> set[int]:
    return {i for i in range(bits.bit_length()) if bits >> i & 1}


@pytest.mark.parametrize("loose", [24, 30])
def test_a_big_group_of_like_cards_is_not_expanded(loose: int) -> None:
    """Loose cards allowed to all but two players have multinomial coefficients far past what
    the arrays' arithmetic allows: the counter goes through their box whole, and stays exact."""
    names = ("A", "B", "C", "D", "E", "F")
    books = [b.name for b in DECK.books]
    allowed = {str(c): " ".join(names if i >= loose else names[:-2]) for i, c in enumerate(DECK.cards)}
    pos = _position(
        dict.fromkeys(names, 8),
        allowed,
        at_least=(("A", books[-1]), ("B", books[-2]), ("F", books[-1]), ("E", books[-2])),
        not_all=(("C", books[-2]),),
    )
    deals = plain_count(pos)
    for state_by_state in (False, True):
        routes = Routes.always_sparse(state_by_state)
        assert card_odds(pos, routes).deals == count_deals(pos, routes) == deals


def test_eight_dims_fit_the_packed_test_of_a_move() -> None:
    """With 8 tracked players the room left in the last dim sits in the top bits of 64."""
    box = odds_module._Box([0] * 8, [1, 2, 1, 1, 1, 1, 1, 3])
    every = np.arange(box.size)
    live = every[odds_module._coords(every, box)[-1] < box.ranges[-1]]  # not the last dim's pad
    coords = odds_module._coords(live, box)
    keys = [1 << (8 * t) for t in range(8)] + [2 << 56, 1 | 1 << 56]
    moved = odds_module._Engine._targets(live, coords, box, keys)
    for j, key in enumerate(keys):
        v = odds_module._unpack(key, 8)
        for i in range(live.size):
            fits = all(c + x < r for c, x, r in zip(coords[:, i], v, box.ranges, strict=True))
            assert (moved[j, i] != box.size) == fits


def test_the_runs_of_a_count_move_a_groups_live_states_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A big count goes in several runs (2**64, then a prime or two each), forward and back, and
    each moves a sparse group's live states by the same monomials: the states moved to are made
    once for all of them, and the odds are those of runs that each make their own."""
    rec = simulate(players=8, deck=DeckKind.JOKERS, seed=1, style=Style.PROBING)
    pos = knowledge.ViewTracker(replay(rec), PUBLIC).position(44)
    made: list[tuple[int, bytes, bytes]] = []
    targets = odds_module._Engine._targets

    def counted(live: np.ndarray, coords: np.ndarray, box: object, keys: object) -> np.ndarray:
        made.append((id(box), live.tobytes(), np.asarray(keys).tobytes()))
        moved: np.ndarray = targets(live, coords, box, keys)
        return moved

    monkeypatch.setattr(odds_module._Engine, "_targets", staticmethod(counted))
    routes = Routes(counter=Counter.BOOKS)
    once = card_ways(pos, routes)
    assert made and len(made) == len(set(made))
    made.clear()
    monkeypatch.setattr(odds_module, "_KEEP_TARGETS", 0)  # (nothing kept: each run makes its own)
    assert card_ways(pos, routes) == once
    assert len(made) > len(set(made))


def test_kept_targets_are_only_for_the_same_live_states() -> None:
    """A run whose live states differ (a count a multiple of its prime somewhere) makes its own;
    a run that waited on one that failed makes its own too."""
    kept = odds_module._Targets()
    live = np.arange(5)
    calls: list[int] = []

    def make(value: int) -> Callable[[], np.ndarray]:
        return lambda: calls.append(value) or np.full(3, value)  # type: ignore[func-returns-value]

    assert kept.get((0, "odds"), live, make(1)).tolist() == [1, 1, 1]
    assert kept.get((0, "odds"), live.copy(), make(2)).tolist() == [1, 1, 1]
    assert kept.get((0, "odds"), live[:4], make(3)).tolist() == [3, 3, 3]
    assert calls == [1, 3]

    def fail() -> np.ndarray:
        raise MemoryError

    with pytest.raises(MemoryError):
        kept.get((1, "odds"), live, fail)
    assert kept.get((1, "odds"), live, make(4)).tolist() == [4, 4, 4]


def test_runs_waiting_for_targets_make_their_own_when_the_maker_fails() -> None:
    """Runs go in threads: those that ask while another makes the targets wait for it, and when
    it fails (a count given up), make their own rather than wait for ever."""
    import threading

    kept = odds_module._Targets()
    live = np.arange(5)
    started, release = threading.Event(), threading.Event()

    def slow_failure() -> np.ndarray:
        started.set()
        release.wait(timeout=10)
        raise MemoryError

    def own() -> np.ndarray:
        return np.full(3, 7)

    failed: list[BaseException] = []

    def first() -> None:
        try:
            kept.get((2, "forward"), live, slow_failure)
        except MemoryError as exc:
            failed.append(exc)

    maker = threading.Thread(target=first)
    maker.start()
    assert started.wait(timeout=10)
    got: list[list[int]] = []
    waiters = [
        threading.Thread(target=lambda: got.append(kept.get((2, "forward"), live, own).tolist())) for _ in range(3)
    ]
    for t in waiters:
        t.start()
    release.set()
    for t in [maker, *waiters]:
        t.join(timeout=10)
        assert not t.is_alive()
    assert len(failed) == 1 and got == [[7, 7, 7]] * 3


def test_an_eight_player_view_with_eight_dims() -> None:
    rec = simulate(players=8, seed=0)
    pos = knowledge.position(replay(rec), int(len(rec.events) * 0.2), PUBLIC)
    odds = card_odds(pos, Routes(counter=Counter.BOOKS))
    assert card_odds(pos, Routes.whole_boxes()) == odds


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.booleans())
def test_sparse_passes_match_brute_force(pos: Position, state_by_state: bool) -> None:
    _check_against_oracle(pos, Routes.always_sparse(state_by_state))


def test_sparse_passes_match_whole_box_passes_on_shared_views() -> None:
    games: dict[str, Game] = {}
    for name, view, at in _views(step=7, players=1):
        pos = knowledge.position(games.setdefault(name, _game(name)), at, view)
        try:
            plain = card_odds(pos, Routes.whole_boxes())
        except NoFit:
            continue
        for state_by_state in (False, True):
            assert card_odds(pos, Routes.always_sparse(state_by_state)) == plain, (name, view, at, state_by_state)


def test_books_expanded_monomial_by_monomial_match_the_simplex_rows() -> None:
    """Books too big for a simplex of exponent vectors are expanded monomial by monomial: the
    same polynomials, so the same odds."""
    games: dict[str, Game] = {}
    for name, view, at in _views(step=11, players=1):
        pos = knowledge.position(games.setdefault(name, _game(name)), at, view)
        try:
            by_rows = card_odds(pos, Routes.always_sparse(True))
        except NoFit:
            continue
        by_monomials = replace(Routes.always_sparse(True), simplex_least=1 << 62)
        assert card_odds(pos, by_monomials) == by_rows, (name, view, at)


# ------------------------------------------------------------ games not in the repo


def _check_simulated(players: int, seed: int, fractions: tuple[float, ...], cards: int) -> None:
    """Exact odds on a freshly simulated game (public and a player's view, part-way through)
    equal a plain count: the deals, and the deals with each of a few cards at each holder."""
    rec = simulate(players=players, seed=seed)
    game = replay(rec)
    for fraction in fractions:
        for view in (PUBLIC, rec.players[0]):
            pos = knowledge.position(game, int(len(rec.events) * fraction), view)
            deals = plain_count(pos)
            odds = card_odds(pos)
            assert odds.deals == deals, (players, seed, fraction, view)
            unknown = sorted(pos.allowed, key=lambda c: -len(pos.allowed[c]))  # the least known first
            for c in unknown[:cards]:
                _check_card_by_plain_count(pos, odds.cards[c], c, deals)


@pytest.mark.parametrize(("players", "fractions"), [(4, (0.4, 0.6)), (6, (0.4, 0.6)), (8, (0.6,))])
def test_simulated_games_match_the_plain_count(players: int, fractions: tuple[float, ...]) -> None:
    # (The plain count of an 8-player view much before 0.6 of the game takes a minute.)
    _check_simulated(players, seed=900 + players, fractions=fractions, cards=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(("players", "fractions"), [(4, (0.3, 0.5, 0.7)), (6, (0.3, 0.5, 0.7)), (8, (0.5, 0.7))])
def test_more_simulated_games_match_the_plain_count(players: int, fractions: tuple[float, ...], seed: int) -> None:
    _check_simulated(players, seed=910 + seed, fractions=fractions, cards=3)


# ------------------------------------------------------------ every view of the shared records


def _views(step: int, players: int) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    for path in RECORDS:
        rec = record.load(path)
        for view in [PUBLIC, *list(rec.hands)[:players]]:
            out.extend((path.name, view, at) for at in range(0, len(rec.events) + 1, step))
    return out


def _check_view(game: Game, view: str, at: int) -> None:
    pos = knowledge.position(game, at, view)
    odds = card_odds(pos)
    holders = solver.solve(pos).holders
    assert set(odds.cards) == set(pos.in_play)
    for c, share in odds.cards.items():
        assert tuple(share) == holders[c], (view, at, c)
        assert sum(share.values()) == 1
        assert all(f > 0 for f in share.values())


def test_support_is_the_solvers_holders_on_a_sample_of_views() -> None:
    games: dict[str, Game] = {}
    for name, view, at in _views(step=9, players=1):
        game = games.setdefault(name, _game(name))
        _check_view(game, view, at)


@pytest.mark.slow
@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_support_is_the_solvers_holders_on_every_view(path: Path) -> None:
    game = _game(path.name)
    for view in [PUBLIC, *game.record.hands]:
        for at in range(len(game.record.events) + 1):
            _check_view(game, view, at)


# ------------------------------------------------------------ house rules the shared records lack


def _simulated_views(players: int, seed: int, bluffing: bool, step: int) -> None:
    rec = simulate(players=players, house=frozenset({HouseRule.MUST_DECLARE}), bluffing=bluffing, seed=seed)
    game = replay(rec)
    for view in (PUBLIC, rec.players[0]):
        for at in range(0, len(rec.events) + 1, step):
            _check_view(game, view, at)


def test_support_is_the_solvers_holders_under_must_declare() -> None:
    _simulated_views(players=4, seed=0, bluffing=False, step=6)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("bluffing", [False, True])
def test_support_is_the_solvers_holders_under_must_declare_six_players(seed: int, bluffing: bool) -> None:
    _simulated_views(players=6, seed=seed, bluffing=bluffing, step=5)


# ------------------------------------------------------------ sparse boards: openings


@st.composite
def sparse_boards(draw: st.DrawFn, sizes: tuple[int, ...] = (4, 6, 8)) -> Position:
    """Opening-like positions: 4 to 8 players, 16 to 30 never-shown cards of several books, few
    (card, player) pairs ruled out, a requirement or two per player (at least one card of a
    book, and now and then not all of it), slots from a hidden true deal."""
    names = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal")
    players = names[: draw(st.sampled_from(sizes))]
    books = [b for b in DECK.books][: draw(st.integers(3, 5))]
    cards = [c for b in books for c in b.cards]
    unknown = draw(st.lists(st.sampled_from(cards), min_size=16, max_size=min(30, len(cards)), unique=True))
    truth = {c: draw(st.sampled_from(players)) for c in unknown}
    allowed: dict[Card, tuple[str, ...]] = {c: players for c in unknown}
    for _ in range(draw(st.integers(0, 10))):
        c, p = draw(st.sampled_from(unknown)), draw(st.sampled_from(players))
        if p != truth[c]:
            allowed[c] = tuple(q for q in allowed[c] if q != p)
    slots = {p: sum(1 for h in truth.values() if h == p) for p in players}

    def reqs(most: int) -> list[Requirement]:
        out = {}
        for _ in range(draw(st.integers(0, most))):
            player, book = draw(st.sampled_from(players)), draw(st.sampled_from(books))
            out[(player, book.name)] = Requirement(player, book, frozenset(c for c in book.cards if c in allowed), 1)
        return list(out.values())

    return unseen(DECK, players, allowed, slots, reqs(len(players)), reqs(2))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sparse_boards())
def test_sparse_boards_count_alike_every_way(pos: Position) -> None:
    """The three counters agree (the book-by-book count when it fits its bound)."""
    try:
        by_books = card_odds(pos, Routes(counter=Counter.BOOKS, max_states=1 << 18))
    except TooLarge:
        by_books = None
    except NoFit:
        with pytest.raises(NoFit):
            card_odds(pos, Routes(counter=Counter.BOARDS))
        return
    by_boards = card_odds(pos, Routes(counter=Counter.BOARDS))
    if by_books is not None:
        assert by_boards == by_books
    assert card_odds(pos, Routes(counter=Counter.FOLDS)) == by_boards
    assert {c: tuple(share) for c, share in by_boards.cards.items()} == solver.solve(pos).holders


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sparse_boards(sizes=(4,)))
def test_sparse_boards_match_the_plain_count(pos: Position) -> None:
    deals = plain_count(pos)
    if deals == 0:
        with pytest.raises(NoFit):
            count_deals(pos, Routes(counter=Counter.BOARDS))
        return
    odds = card_odds(pos, Routes(counter=Counter.BOARDS))
    assert odds.deals == deals
    c = max(pos.allowed, key=lambda c: len(pos.allowed[c]))
    _check_card_by_plain_count(pos, odds.cards[c], c, deals)


OPENING = Path(__file__).resolve().parent.parent / "sample_logs" / "probing-opening.fish"


def test_the_probing_opening_counts_fast_and_alike() -> None:
    """Eight failed asks, one per player, each in another book: the view the book-by-book count
    could not hold. The board walk counts every step in well under a second, agrees with the
    book-by-book count while that fits, and its support is the solver's holders."""
    game = replay(record.load(OPENING))
    for at in range(len(game.events) + 1):
        pos = knowledge.position(game, at, PUBLIC)
        started = time.perf_counter()
        odds = card_odds(pos)
        assert time.perf_counter() - started < 2.0  # well under a second on a quiet machine
        assert {c: tuple(share) for c, share in odds.cards.items()} == solver.solve(pos).holders
        if at <= 3:
            assert card_odds(pos, Routes(counter=Counter.BOOKS)) == odds
    assert odds.deals == 104108732615463431529896878723654218


def test_the_route_is_the_counter_likely_the_faster_within_the_budget() -> None:
    routes = Routes()
    asked: list[int] = []

    def walk(estimate: int) -> Callable[[], int]:
        def ask() -> int:
            asked.append(estimate)
            return estimate

        return ask

    cheap = 1000  # a plan likely well under ``books_cheap``: the board is not even made
    assert routes.likely_books_ns(cheap) <= routes.books_cheap
    assert routes.choose(lambda: cheap, walk(1)) is Counter.BOOKS and asked == []
    # Past ``books_cheap``: the one likely the faster.
    cost = 10**8
    by_books = routes.likely_books_ns(cost)
    assert by_books > routes.books_cheap
    faster = next(e for e in (10**k for k in range(30)) if routes.likely_walk_ns(e) > by_books) // 10
    slower = faster * 1000
    assert routes.likely_walk_ns(faster) < by_books < routes.likely_walk_ns(slower)
    assert routes.choose(lambda: cost, walk(faster)) is Counter.BOARDS
    assert routes.choose(lambda: cost, walk(slower)) is Counter.BOOKS
    assert routes.choose(lambda: None, walk(slower)) is Counter.BOARDS  # the book-by-book count does not fit
    # Neither within the budget.
    tight = Routes(budget_ns=int(min(by_books, routes.likely_walk_ns(faster))) - 1)
    assert tight.choose(lambda: cost, walk(faster)) is None and tight.choose(lambda: None, walk(faster)) is None
    # ... and how long each likely takes, for the caller to say.
    likely = {Counter.BOOKS: by_books, Counter.BOARDS: routes.likely_walk_ns(faster)}
    assert tight.weigh(lambda: cost, walk(faster)) == (None, likely)
    # A forced counter is taken as it is, without asking for the walk's estimate.
    asked.clear()
    assert Routes(counter=Counter.BOARDS).choose(lambda: cost, walk(slower)) is Counter.BOARDS and asked == []


def test_a_quick_plainest_count_is_taken_without_weighing_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    routes = Routes()
    assert routes.plain_is_quick(1, 0) and not routes.plain_is_quick(None, 0)
    assert not routes.plain_is_quick(10**12, 0)
    assert not Routes(counter=Counter.BOOKS).plain_is_quick(1, 0)  # (a forced counter is as forced)
    # The same plan likely takes longer the more cards are still to place.
    edge = next(c for c in (2**k for k in range(60)) if not routes.plain_is_quick(c, 30))
    assert routes.plain_is_quick(edge, 10) and routes.likely_plain_ns(edge, 40) > routes.likely_plain_ns(edge, 30)
    # Ben after event 200 of a probing jokers game: the book-by-book law puts its count past
    # ``folds_worth``, so the fold would be planned; the plainest plan's own law says it is quick.
    game = _probing_jokers()
    pos = knowledge.position(game, 200, "Ben")
    expected = card_ways(pos, Routes(counter=Counter.BOOKS))
    folds = importlib.import_module("analyzer.odds.folds")
    monkeypatch.setattr(folds.FoldCount, "__init__", _never)
    counter = importlib.import_module("analyzer.odds")._counter(pos, True, routes)
    assert isinstance(counter, odds_module.BookCount) and counter.plan is counter.plain
    assert routes.likely_books_ns(counter.plain.cost) > routes.folds_worth
    assert card_ways(pos) == expected


def test_the_search_for_a_cheaper_plan_is_made_where_it_may_pay_alone() -> None:
    # Probing jokers game, public view. After event 200 the search would find a plan of a
    # fourth the cost, but the plainest count likely takes less than ``search_from_ns`` by its
    # own law and the fold is likely slower than it: counted with the plainest plan.
    # (The rule that takes the plainest count where the fold is likely much slower is off here:
    # it would take these views first, ``test_a_fold_likely_much_slower_...``.)
    game = _probing_jokers()
    router = importlib.import_module("analyzer.odds")._counter
    routes = Routes(plain_over_folds=math.inf)
    pos = knowledge.position(game, 200, PUBLIC)
    counter = router(pos, True, routes)
    assert isinstance(counter, odds_module.BookCount) and counter.plain is not None
    assert counter.plain.cost > odds_module._WORTH_SEARCHING
    assert not routes.plain_is_quick(counter.plain.cost, counter.unknown)
    assert routes.likely_plain_ns(counter.plain.cost, counter.unknown) < routes.search_from_ns
    assert counter.plan is counter.plain
    searched = router(pos, True, replace(routes, search_from_ns=0))
    assert isinstance(searched, odds_module.BookCount) and searched.plan is not None
    assert searched.plan.cost * 3 < counter.plain.cost
    assert searched.run(True) == counter.run(True)
    # After event 217 the plainest count is as likely quick, but the fold is likely quicker than
    # the plainest plan: the plan is searched, and the book-by-book count with it is chosen.
    pos = knowledge.position(game, 217, PUBLIC)
    counter = router(pos, True, routes)
    assert isinstance(counter, odds_module.BookCount) and counter.plain is not None and counter.plan is not None
    assert routes.likely_plain_ns(counter.plain.cost, counter.unknown) < routes.search_from_ns
    assert counter.plan.cost * 3 < counter.plain.cost


def test_a_fold_likely_much_slower_than_the_plainest_count_is_not_weighed_further(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Hal after event 56 of the probing jokers game: the plainest book-by-book count is not quick
    # by its own law, and the fold is likely over twice as slow by its law (measured about 80 ms
    # against 300 ms). The plainest plan is counted as soon as the fold is planned: no search,
    # no board for the walk.
    game = _probing_jokers()
    router = importlib.import_module("analyzer.odds")._counter
    folds = importlib.import_module("analyzer.odds.folds")
    boards = importlib.import_module("analyzer.odds.boards")
    pos = knowledge.position(game, 56, "Hal")
    routes = Routes()
    with monkeypatch.context() as patch:
        patch.setattr(boards.Board, "__init__", _never)
        patch.setattr(odds_module.BookCount, "cost", property(_never))
        counter = router(pos, True, routes)
    assert isinstance(counter, odds_module.BookCount) and counter.plain is not None
    assert counter.plan is counter.plain
    assert not routes.plain_is_quick(counter.plain.cost, counter.unknown)
    assert routes.likely_plain_ns(counter.plain.cost, counter.unknown) <= routes.plain_sure_ns
    off = router(pos, True, Routes(plain_over_folds=math.inf))
    assert isinstance(off, folds.FoldCount)
    assert counter.run(True) == off.run(True)
    # The public view after event 217: the fold's law alone puts it under twice the plainest
    # count's; with the fold's fixed work (``folds_floor_ns``) it is over, and the plainest plan
    # is counted (measured 15 ms, against 33 ms with the plan searched).
    pos = knowledge.position(game, 217, PUBLIC)
    counter = router(pos, True, routes)
    assert isinstance(counter, odds_module.BookCount) and counter.plan is counter.plain
    without = router(pos, True, Routes(folds_floor_ns=0))
    assert isinstance(without, odds_module.BookCount) and without.plan is not without.plain


def test_a_forced_counter_plans_nothing_else(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forced book by book, a view the router would plan the fold for first counts without it."""
    game = _probing_jokers()
    pos = knowledge.position(game, 56, "Hal")
    expected = card_ways(pos)
    folds = importlib.import_module("analyzer.odds.folds")
    monkeypatch.setattr(folds.FoldCount, "__init__", _never)
    assert card_ways(pos, Routes(counter=Counter.BOOKS)) == expected


def _never(*args: object, **kwargs: object) -> None:
    raise AssertionError("planned, though it should not have been")


@cache
def _probing_jokers() -> Game:
    """The probing 8-player jokers game of seed 0, replayed once for the router's tests (they
    read its positions, never change it)."""
    return replay(simulate(players=8, deck=DeckKind.JOKERS, seed=0, style=Style.PROBING))


def test_a_view_past_the_budget_says_so_without_blaming_the_record() -> None:
    game = replay(record.load(OPENING))
    pos = knowledge.position(game, 8, PUBLIC)
    tight = Routes(max_states=1, budget_ns=0)
    with pytest.raises(TooLarge) as exc:
        card_odds(pos, tight)
    assert exc.value.exit_code != 2
    assert "must-declare" not in exc.value.message
    assert " s by the cheapest of the three counters" in exc.value.message
    reason = odds_or_reason(pos, tight)
    assert isinstance(reason, str) and "budget" in reason
    assert isinstance(odds_or_reason(pos), Odds)
    # A counter forced past its memory bound says by how much, in the same sentence.
    for forced, how in ((Counter.BOOKS, "states book by book"), (Counter.FOLDS, "MiB of arrays with players folded")):
        reason = odds_or_reason(pos, Routes(counter=forced, max_states=1))
        assert isinstance(reason, str) and reason.startswith("the exact odds of this view cost more") and how in reason
