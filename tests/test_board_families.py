"""The board walk's odds by families per player (``boards.by_players``) against its odds by
families per class (``_Walk.run``) and against listing every deal."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings

from analyzer.cards import DeckKind, make_deck
from analyzer.knowledge import Position, Requirement
from analyzer.odds.arithmetic import SMALL_PRIMES, crt, deal_bound, primes_for
from analyzer.odds.boards import Board, _Walk, by_players

from .odds_oracle import brute_force, unseen
from .test_counting import openings

DECK = make_deck(DeckKind.STANDARD)


def _both(
    pos: Position,
) -> tuple[Board, list[int], tuple[int, dict[tuple[int, int], int]], tuple[int, dict[tuple[int, int], int]]]:
    board = Board(pos)
    primes = primes_for(deal_bound(board.slots), SMALL_PRIMES)
    by_class = _Walk(board, primes, True).run(True)
    by_player = by_players(board, primes)
    return (
        board,
        primes,
        (crt(by_class[0], primes), {key: crt(w, primes) for key, w in by_class[1].items()}),
        (crt(by_player[0], primes), {key: crt(w, primes) for key, w in by_player[1].items()}),
    )


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(openings(sizes=(3, 4, 6, 8), most_cards=24))
def test_families_per_player_count_as_families_per_class(pos: Position) -> None:
    pos = Position(**{**vars(pos), "not_all": []})  # "not all" requirements keep the families per class
    board, _, (deals, by_class), (same, by_player) = _both(pos)
    if board.zero:
        return
    assert same == deals
    if deals == 0:
        return
    for (kind, q), ways in by_class.items():
        if kind >= 0 or board.free:
            assert by_player[(kind, q)] == ways, (kind, board.players[q])


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(openings(sizes=(3, 4), most_cards=9))
def test_families_per_player_match_listing_every_deal(pos: Position) -> None:
    pos = Position(**{**vars(pos), "not_all": []})
    board = Board(pos)
    if board.zero:
        return
    total, at = brute_force(pos)
    deals, shares = by_players(board, primes_for(deal_bound(board.slots), SMALL_PRIMES))
    primes = primes_for(deal_bound(board.slots), SMALL_PRIMES)
    assert crt(deals, primes) == total
    if total == 0:
        return
    for (kind, q), ways in shares.items():
        for c in board.free if kind < 0 else board.classes[kind].cards:
            assert Fraction(crt(ways, primes), total) == Fraction(at[c][board.players[q]], total), (c, board.players[q])


def test_a_requirement_switched_off_reaches_states_the_position_cancels() -> None:
    """Cid must hold K♠ (only Cid may) and Bob 9♠; Cid asked for a spade. With K♠ at Cid, Cid's
    requirement is met and off, and the walk reaches states where, with it on, the requirement's
    two terms cancel out: the families must go through those states themselves."""
    cards = {c.code: c for c in DECK.cards}
    players = ("Ann", "Bob", "Cid")
    allowed = {cards["9S"]: ("Bob",), cards["KS"]: ("Cid",)}
    allowed |= {cards[x]: players for x in ["10S", "JS", "QS", "2S", "3S", "4S", "5S", "6S", "7S"]}
    book = DECK.book_of(cards["9S"])
    at_least = [
        Requirement("Cid", book, frozenset(cards[x] for x in ["KS", "10S", "JS", "QS"]), 1),
        Requirement("Ann", book, frozenset(cards[x] for x in ["10S", "JS", "QS"]), 1),
    ]
    pos = unseen(DECK, players, allowed, {"Ann": 9, "Bob": 1, "Cid": 1}, at_least)
    board, _, (deals, by_class), (same, by_player) = _both(pos)
    assert deals == same == 1
    assert by_player == by_class
    king = next(i for i, k in enumerate(board.classes) if cards["KS"] in k.cards)
    assert by_player[(king, board.players.index("Cid"))] == 1
