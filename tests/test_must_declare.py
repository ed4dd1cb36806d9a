"""House rule must-declare: the solver's "not the whole book" requirements as gates of the flow,
and the tracker's early settling of them, against listing every deal.

The solver turns each binding ``not_all`` requirement into a gate, a capacity on how many of
the book's cards its player may hold, and reads the holders off one flow; it skips the gates
when a fitting deal leaves each of them two cards short of shutting, routes the placement through
the tight ones, finds a flow through all of them afresh when the placement breaks one, and
branches on sets that overlap (only a hand-made position has them). Every one of those routes is
checked here against ``odds_oracle.brute_force``, which lists every deal.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import solver
from analyzer.analysis import hand_views
from analyzer.cards import Book, Card, Deck, DeckKind, make_deck
from analyzer.knowledge import INF, PUBLIC, Position, Requirement, ViewTracker
from analyzer.replay import replay
from analyzer.rules import HouseRule, RuleSet
from analyzer.simulate import simulate
from analyzer.solver import NoFit, solve

from .odds_oracle import brute_force, unseen
from .oracle import oracle_holders
from .test_solver import _small_views

DECK = make_deck(DeckKind.RANKS)  # books of four cards keep brute force small
POOL = [c for b in DECK.books[:4] for c in b.cards]
WIDE = make_deck(DeckKind.STANDARD)  # two books of six cards: room for slack gates
WIDE_POOL = [c for b in WIDE.books[:2] for c in b.cards]
NAMES = ("Ann", "Bob", "Cy", "Di")


def _requirement(player: str, cards: list[Card], deck: Deck = DECK) -> Requirement:
    return Requirement(player, deck.book_of(cards[0]), frozenset(cards), 1)


def random_position(
    rng: random.Random, shapes: tuple[str, ...] = ("book", "part", "any"), wide: bool = False
) -> Position:
    """A small position with at-least requirements over a book's never-shown cards, as a record
    gives them, and not-all requirements of the given shapes: ``book`` (a book's never-shown
    cards, as a record gives them), ``part`` (some of them), ``any`` (any cards at all).
    ``wide``: two or three players, two books of six cards, most cards open to everyone."""
    deck = WIDE if wide else DECK
    players = NAMES[: rng.randint(2, 3 if wide else 4)]
    unknown = rng.sample(WIDE_POOL, rng.randint(7, 11)) if wide else rng.sample(POOL, rng.randint(3, 10))
    allowed: dict[Card, tuple[str, ...]] = {}
    truth: dict[Card, str] = {}
    for c in unknown:
        open_to_all = wide and rng.random() < 0.8
        ps = set(players if open_to_all else rng.sample(players, rng.randint(1, len(players))))
        allowed[c] = tuple(p for p in players if p in ps)
        truth[c] = rng.choice(allowed[c])
    slots = {p: sum(1 for h in truth.values() if h == p) for p in players}
    books = sorted({deck.book_of(c).name for c in unknown})

    def book_cards(name: str) -> list[Card]:
        return [c for c in deck.book(name).cards if c in allowed]

    at_least = {}
    for _ in range(rng.randint(0, 3)):
        player, name = rng.choice(players), rng.choice(books)
        at_least[(player, name)] = _requirement(player, book_cards(name), deck)
    not_all = []
    for _ in range(rng.randint(1, 5)):
        player, shape = rng.choice(players), rng.choice(shapes)
        cards = book_cards(rng.choice(books))
        if shape == "part":
            cards = rng.sample(cards, rng.randint(1, len(cards)))
        elif shape == "any":
            cards = rng.sample(unknown, rng.randint(1, min(4, len(unknown))))
        not_all.append(_requirement(player, cards, deck))
    return unseen(deck, players, allowed, slots, list(at_least.values()), not_all)


def _check(pos: Position) -> bool:
    """The solver's holders and witness against every deal; True when some deal fits."""
    total, at = brute_force(pos)
    if total == 0:
        with pytest.raises(NoFit):
            solve(pos)
        return False
    found = solve(pos)
    assert {c: set(found.holders[c]) for c in pos.allowed} == {c: {p for p, n in at[c].items() if n} for c in at}
    assert all(list(h) == sorted(h, key=pos.players.index) for h in found.holders.values())
    deal = found.witness
    assert set(deal) == set(pos.allowed) and all(deal[c] in pos.allowed[c] for c in deal)
    assert all(sum(1 for p in deal.values() if p == q) == n for q, n in pos.slots.items())
    assert all(any(deal[c] == r.player for c in r.cards) for r in pos.at_least)
    assert not any(all(deal[c] == r.player for c in r.cards) for r in pos.not_all)
    return True


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_gates_of_whole_books_match_brute_force(rng: random.Random) -> None:
    _check(random_position(rng, ("book",)))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_gates_of_any_sets_match_brute_force(rng: random.Random) -> None:
    _check(random_position(rng))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_gates_of_wide_books_match_brute_force(rng: random.Random) -> None:
    _check(random_position(rng, ("book", "book", "part"), wide=True))


class _Spy:
    """Wraps a function of the solver and keeps what each call returned."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.real: Callable[..., Any] = getattr(solver, name)
        self.results: list[object] = []

    def __call__(self, *args: object) -> object:
        result = self.real(*args)
        self.results.append(result)
        return result


def test_every_route_of_the_gates_is_taken_and_exact() -> None:
    """On random positions, each route is taken many times and every answer is exact."""
    rng = random.Random(15)
    through, fresh, branch = _Spy("_through_gates"), _Spy("_gate_flow"), _Spy("_branch")
    fits = 0
    with (
        mock.patch.object(solver, "_through_gates", through),
        mock.patch.object(solver, "_gate_flow", fresh),
        mock.patch.object(solver, "_branch", branch),
    ):
        solver._solve_classes.cache_clear()
        for k in range(400):
            fits += _check(random_position(rng, wide=k % 4 == 0))
    solver._solve_classes.cache_clear()
    skipped = sum(1 for r in through.results if r is None)
    assert fits > 150
    assert skipped > 10  # the gates changed nothing: the answer without them stands
    assert len(through.results) - skipped > 50  # routed through the tight gates or a fresh flow
    assert len(fresh.results) > 20  # the placement broke a gate
    assert len(branch.results) > 10  # overlapping sets


# ------------------------------------------------------------ real games against the oracles


MUST_DECLARE = frozenset({HouseRule.MUST_DECLARE})
VARIANTS = [
    pytest.param(dict(players=4, deck=DeckKind.STANDARD, house=MUST_DECLARE), 5, id="4-standard"),
    pytest.param(
        dict(players=4, deck=DeckKind.RANKS, rule_set=RuleSet.FISH, house=MUST_DECLARE), 12, marks=pytest.mark.slow
    ),
    pytest.param(
        dict(players=6, deck=DeckKind.STANDARD, bluffing=True, house=MUST_DECLARE), 12, marks=pytest.mark.slow
    ),
    pytest.param(dict(players=8, deck=DeckKind.JOKERS, house=MUST_DECLARE), 12, marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("variant", "games"), VARIANTS)
def test_holders_of_must_declare_games_equal_the_record_oracle(variant: dict[str, object], games: int) -> None:
    """Listing every deal by replaying the record (``tests/oracle.py``) gives the same holders."""
    checked = 0
    for seed in range(games):
        record = simulate(seed=seed, **variant)  # type: ignore[arg-type]
        game = replay(record)
        for view, at in _small_views(variant, seed, limit=300, per_game=3):
            expected, deals = oracle_holders(record, at, view)
            assert deals > 0
            got = solve(ViewTracker(game, view).position(at)).holders
            assert {c: set(h) for c, h in got.items()} == expected, (seed, view, at)
            checked += 1
    assert checked >= 2 * games


def test_requirements_settled_early_change_no_holder() -> None:
    """The tracker settles a requirement once its player is ruled out of a card of the book still
    unseen (or is the view's own player and lacks one). The holders are those of the requirements
    settled only when a card of the book is shown elsewhere than with the player, as before."""
    settled_early = 0
    for seed, players in ((1, 6), (2, 8)):
        record = simulate(players=players, seed=seed, house=MUST_DECLARE)
        game = replay(record)
        for view in hand_views(game):
            tracker, shown_only = ViewTracker(game, view), ViewTracker(game, view)
            shown_only.declares = [(i, p, b, _shown_elsewhere(tracker, i, p, b)) for i, p, b, _ in tracker.declares]
            settled_early += sum(a[3] < b[3] for a, b in zip(tracker.declares, shown_only.declares, strict=True))
            for at in range(0, len(game.events) + 1, 4):
                pos, before = tracker.position(at), shown_only.position(at)
                assert {(r.player, r.book) for r in pos.not_all} <= {(r.player, r.book) for r in before.not_all}
                assert solve(pos).holders == solve(before).holders, (seed, view, at)
    assert settled_early > 100


def _shown_elsewhere(tracker: ViewTracker, event: int, player: str, book: Book) -> int:
    """The step from which a card of the book is shown, and was not with the player at the ask."""
    steps = [
        tracker.reveal[c]
        for c in book.cards
        if c in tracker.origin and tracker.history[c].holder_at(event - 1, tracker.origin[c]) != player
    ]
    return max(event, min(steps, default=INF))


def test_no_deal_without_a_whole_book_names_the_requirement() -> None:
    """Ann may hold only the three twos left to her and has three slots: she held the whole book
    when she asked, which the rule forbids; the contradiction names her ask."""
    twos = DECK.books[0]
    mine = list(twos.cards[:3])
    pos = Position(
        at=5,
        view=PUBLIC,
        deck=DECK,
        players=("Ann", "Bob"),
        in_play=twos.cards,
        known={},
        allowed={**{c: ("Ann",) for c in mine}, twos.cards[3]: ("Bob",)},
        slots={"Ann": 3, "Bob": 1},
        not_all=[Requirement("Ann", twos, frozenset(mine), 5)],
    )
    with pytest.raises(
        NoFit, match=r"gives a whole book to a player who asked instead of claiming: Ann \(twos, event 5\)"
    ):
        solve(pos)


def test_overlapping_requirements_without_a_deal_name_the_rule_too() -> None:
    """Ann's two asks say she lacks one of two twos each, the pairs overlapping (no gate for
    them: every way of leaving a card out is tried); she can hold nothing but the three twos, so
    the contradiction says, as the gates' does, that she asked instead of claiming."""
    twos = DECK.books[0]
    a, b, c, d = twos.cards[:4]
    pos = Position(
        at=5,
        view=PUBLIC,
        deck=DECK,
        players=("Ann", "Bob"),
        in_play=twos.cards,
        known={},
        allowed={a: ("Ann",), b: ("Ann",), c: ("Ann",), d: ("Bob",)},
        slots={"Ann": 3, "Bob": 1},
        not_all=[Requirement("Ann", twos, frozenset({a, b}), 4), Requirement("Ann", twos, frozenset({b, c}), 5)],
    )
    with pytest.raises(
        NoFit, match=r"gives a whole book to a player who asked instead of claiming: Ann \(twos, event 4\)"
    ):
        solve(pos)
