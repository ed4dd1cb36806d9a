"""Openings as people play them: the probing bots, and every command on the eight-failed-asks
record answering exactly, fast, with exit 0."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyzer import knowledge, record, solver
from analyzer.cards import DeckKind, parse_card
from analyzer.knowledge import PUBLIC
from analyzer.odds import TooLarge, card_odds
from analyzer.record import Ask
from analyzer.replay import replay
from analyzer.rules import HouseRule
from analyzer.simulate import PROBING_ROUNDS, Style, simulate
from analyzer.tactics import exact_text
from cli.main import app

from .test_simulate import check_game

OPENING = Path(__file__).resolve().parent.parent / "sample_logs" / "probing-opening.fish"
runner = CliRunner()


@pytest.mark.parametrize("players", [6, 8])
@pytest.mark.parametrize("deck", [DeckKind.STANDARD, DeckKind.JOKERS, DeckKind.RANKS])
def test_probing_bots_open_in_books_of_their_own(players: int, deck: DeckKind) -> None:
    rec = simulate(players=players, deck=deck, seed=5, style=Style.PROBING)
    check_game(rec)
    opening = [e for e in rec.events[: PROBING_ROUNDS * players] if isinstance(e, Ask)]
    first_book: dict[str, str] = {}
    for e in opening:
        first_book.setdefault(e.asker, rec.rules.deck.book_of(e.card).name)
    # Each player probes a book nobody else opened with, while there are books to go round.
    books = list(first_book.values())
    assert len(set(books)) == min(len(books), len(rec.rules.deck.books))
    assert sum(not e.yes for e in opening) > len(opening) / 2  # most probes fail
    assert simulate(players=players, deck=deck, seed=5, style=Style.PROBING) == rec  # a seed, one game


def test_the_standard_style_is_the_default_and_unchanged() -> None:
    assert simulate(players=6, seed=3) == simulate(players=6, seed=3, style=Style.STANDARD)


def test_simulate_command_takes_the_style() -> None:
    result = runner.invoke(app, ["simulate", "--players", "8", "--style", "probing", "--seed", "2"])
    assert result.exit_code == 0
    assert result.stdout.startswith("Title: simulated game 2")


def _run(*args: str) -> tuple[int, str, float]:
    started = time.perf_counter()
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, time.perf_counter() - started


def test_every_command_answers_the_eight_failed_asks_exactly() -> None:
    path = str(OPENING)
    pos = knowledge.position(replay(record.load(OPENING)), 8, PUBLIC)
    expected = card_odds(pos)
    code, out, took = _run("odds", path, "--json")
    assert code == 0 and took < 5
    data = json.loads(out)
    assert data["deals"] == str(expected.deals) == "104108732615463431529896878723654218"
    assert data["cards"]["2S"] == {p: exact_text(f) for p, f in expected.cards[parse_card("2S")].items()}
    assert list(data["cards"]["2S"]) == ["Ben", "Eli", "Cara", "Fay", "Gus", "Hal"]
    code, out, took = _run("who-has", "2S", path, "--json")
    assert code == 0 and took < 5
    assert json.loads(out)["holders"] == ["Ben", "Eli", "Cara", "Fay", "Gus", "Hal"]
    code, out, took = _run("suggest", path, "--as", "Anna", "--json")
    assert code == 0 and took < 30  # (it counts the deals after every ask it weighs)
    assert json.loads(out)["asks"]
    code, out, took = _run("mistakes", path, "--bits")
    assert code == 0 and took < 10
    assert "Anna: asked once" in out
    for command in (["state", path], ["hand", "Dev", path], ["claims", path], ["who-has", "10D", path]):
        code, _, _ = _run(*command)
        assert code == 0, command


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
def test_holders_with_odds_are_the_solvers_in_every_view_of_probing_openings(
    players: int, deck: DeckKind, house: frozenset[HouseRule]
) -> None:
    rec = simulate(players=players, deck=deck, house=house, seed=1, style=Style.PROBING)
    game = replay(rec)
    for at in range(min(len(rec.events), 3 * players) + 1):
        for view in [PUBLIC, *rec.hands]:
            pos = knowledge.position(game, at, view)
            try:
                odds = card_odds(pos)
            except TooLarge:
                continue  # past the budget: the commands say so (scripts/bench_odds.py counts them)
            assert {c: tuple(share) for c, share in odds.cards.items()} == solver.solve(pos).holders, (at, view)
