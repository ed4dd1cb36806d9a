"""``suggest`` and the ``odds`` bot count fewer deals than they did, and answer exactly as before.

The reference is ``tests/advice_before.py``: the advice as first written, one deal count per
question. Every number of the new advice (odds, bits given away, claims) must equal it, on the
sample records and on simulated games of every kind (bluffing, must-declare, jokers and ranks
decks, probing openings), and the ``odds`` bot must play the same games byte for byte.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from analyzer import bots
from analyzer import record as fish
from analyzer.advice import Adviser, suggest
from analyzer.cards import DeckKind
from analyzer.errors import UsageError
from analyzer.replay import Game, replay
from analyzer.rules import GameRules, HouseRule, RuleSet
from analyzer.simulate import Style, simulate

from .advice_before import OddsBotBefore, suggest_before

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"
MUST_DECLARE = frozenset({HouseRule.MUST_DECLARE})


def _advice_module() -> object:
    # ``analyzer.advice`` as an attribute is the package's function of that name: the module itself.
    return sys.modules["analyzer.advice"]


def turns(game: Game, every: int = 1, limit: int | None = None) -> Iterator[tuple[str, int]]:
    """(player on turn, step) for the steps where that player's hand is known, every ``every``-th."""
    hands = game.record.hands
    found = 0
    for at in range(0, len(game.events), every):
        state = game.play_state(at)
        if state.over or state.turn is None or state.turn not in hands:
            continue
        yield state.turn, at
        found += 1
        if limit is not None and found >= limit:
            return


def check_same(game: Game, player: str, at: int) -> None:
    """The new advice equals the old in every number, and its shortcuts agree with its full lists."""
    before = suggest_before(game, player, at)
    now = suggest(game, player, at)
    assert now == before, f"{game.record.path or 'game'}: {player} after {at}"
    adviser = Adviser(game, player, at)
    for top in (1, 3, 10):
        assert adviser.asks(top) == before.asks[:top]
    assert len(adviser.options()) == len(before.asks)
    least = Fraction(1, 100)
    assert Adviser(game, player, at).claims(least) == [c for c in before.claims if c.right >= least]
    fresh = Adviser(game, player, at)  # nothing counted yet: the shortcuts from scratch
    best = fresh.best_ask()
    if before.asks:
        first = before.asks[0]
        assert best is not None and (best.target, best.card, best.odds, best.warning) == (
            first.target,
            first.card,
            first.odds,
            first.warning,
        )
    else:
        assert best is None
    assert Adviser(game, player, at).best_claim() == (before.claims[0] if before.claims else None)


SLOW = pytest.mark.slow


@pytest.mark.parametrize(
    ("name", "limit"),
    [
        ("lockout.fish", 3),
        ("six-and-seven.fish", 2),
        ("bluffing.fish", 2),
        ("probing-opening.fish", 0),
        pytest.param("jokers.fish", 6, marks=SLOW),
        pytest.param("simulated-game.fish", 12, marks=SLOW),
        pytest.param("lockout.fish", 100, marks=SLOW),
    ],
)
def test_advice_equals_the_count_by_count_advice_on_the_samples(name: str, limit: int) -> None:
    game = replay(fish.load(SAMPLES / name))
    checked = 0
    for player, at in turns(game, every=3, limit=limit) if limit else ():
        check_same(game, player, at)
        checked += 1
    if name == "probing-opening.fish":
        check_same(game, "Anna", len(game.events))
        checked += 1
    assert checked


@pytest.mark.parametrize(
    ("players", "deck", "bluffing", "house", "style", "seed", "limit"),
    [
        (6, DeckKind.STANDARD, True, frozenset(), Style.STANDARD, 4, 2),
        (4, DeckKind.JOKERS, True, MUST_DECLARE, Style.STANDARD, 6, 2),
        (4, DeckKind.STANDARD, False, MUST_DECLARE, Style.PROBING, 8, 2),
        pytest.param(6, DeckKind.STANDARD, False, frozenset(), Style.STANDARD, 3, 6, marks=SLOW),
        pytest.param(6, DeckKind.STANDARD, False, MUST_DECLARE, Style.STANDARD, 5, 6, marks=SLOW),
        pytest.param(6, DeckKind.RANKS, False, frozenset(), Style.PROBING, 7, 6, marks=SLOW),
        pytest.param(8, DeckKind.STANDARD, False, frozenset(), Style.PROBING, 9, 6, marks=SLOW),
    ],
)
def test_advice_equals_the_count_by_count_advice_on_simulated_games(
    players: int, deck: DeckKind, bluffing: bool, house: frozenset[HouseRule], style: Style, seed: int, limit: int
) -> None:
    game = replay(simulate(players=players, deck=deck, bluffing=bluffing, house=house, seed=seed, style=style))
    checked = 0
    for player, at in turns(game, every=11, limit=limit):
        check_same(game, player, at)
        checked += 1
    assert checked == limit


@pytest.mark.parametrize("batch", [1, 1000])
def test_the_bits_given_away_are_the_same_batched_or_card_by_card(batch: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # From _BATCH_GIVEN cards on, the bits come from the public odds and one count per book.
    monkeypatch.setattr(_advice_module(), "_BATCH_GIVEN", batch)
    game = replay(fish.load(SAMPLES / "lockout.fish"))
    for player, at in turns(game, every=9, limit=2):
        assert Adviser(game, player, at).asks() == suggest_before(game, player, at).asks
    game = replay(simulate(players=4, house=MUST_DECLARE, seed=12))
    for player, at in turns(game, every=13, limit=2):
        assert Adviser(game, player, at).asks() == suggest_before(game, player, at).asks


def test_the_adviser_refuses_as_suggest_did() -> None:
    game = replay(fish.load(SAMPLES / "six-and-seven.fish"))
    at = len(game.events) - 1
    for player in ("Ben", "public"):
        with pytest.raises(UsageError):
            Adviser(game, player, at)
        with pytest.raises(UsageError):
            suggest_before(game, player, at)


def test_suggest_on_the_eight_failed_asks_counts_little() -> None:
    # The probing opening: the old advice counted the deals once per card it weighed and three
    # times per book; the first ten asks and the claims worth showing need far fewer counts.
    game = replay(fish.load(SAMPLES / "probing-opening.fish"))
    counts = _count_calls(lambda: suggest_before(game, "Anna", 8))
    adviser = Adviser(game, "Anna", 8)
    fewer = _count_calls(lambda: (adviser.asks(10), adviser.claims(Fraction(1, 100))))
    assert fewer * 2 < counts, (fewer, counts)
    full = _count_calls(lambda: suggest(game, "Anna", 8))
    assert full < counts, (full, counts)


def _count_calls(run: object) -> int:
    odds = sys.modules["analyzer.odds"]
    calls = 0
    real = odds._count

    def counting(*args: object, **kwargs: object) -> object:
        nonlocal calls
        calls += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    mp = pytest.MonkeyPatch()
    mp.setattr(odds, "_count", counting)
    try:
        run()  # type: ignore[operator]
    finally:
        mp.undo()
    return calls


def _play(pair: tuple[str, str], players: int, rules: GameRules | None, seed: int, old: bool) -> tuple[str, float]:
    saved = bots.BOTS["odds"]
    if old:
        bots.BOTS["odds"] = OddsBotBefore
    try:
        start = time.process_time()
        text = fish.dumps(bots.play_deal(pair, players, rules, seed))
        return text, time.process_time() - start
    finally:
        bots.BOTS["odds"] = saved


def test_the_odds_bot_plays_the_same_game_as_before() -> None:
    new = _play(("odds", "counter"), 4, None, 2, old=False)[0]
    old = _play(("odds", "counter"), 4, None, 2, old=True)[0]
    assert new == old
    assert "X-Bots: odds vs counter" in new


@pytest.mark.slow
@pytest.mark.parametrize(
    ("pair", "players", "rules", "seed"),
    [
        (("odds", "counter"), 6, None, 0),
        (("counter", "odds"), 6, None, 0),
        (("odds", "counter"), 6, None, 17),
        (("counter", "odds"), 6, None, 17),
        (("odds", "odds"), 6, None, 1000),
        (("odds", "simple"), 6, None, 3),
        (("odds", "counter"), 6, GameRules(RuleSet.LITERATURE, DeckKind.STANDARD, True, frozenset()), 5),
        (("odds", "counter"), 6, GameRules(RuleSet.LITERATURE, DeckKind.STANDARD, False, MUST_DECLARE), 6),
        (("counter", "odds"), 6, GameRules(RuleSet.FISH, DeckKind.JOKERS, False, frozenset()), 7),
    ],
)
def test_the_odds_bot_plays_the_same_games_as_before_and_faster(
    pair: tuple[str, str], players: int, rules: GameRules | None, seed: int
) -> None:
    new, new_cpu = _play(pair, players, rules, seed, old=False)
    old, old_cpu = _play(pair, players, rules, seed, old=True)
    assert new == old
    assert new_cpu < old_cpu


@pytest.mark.slow
def test_advice_equals_the_count_by_count_advice_over_whole_games() -> None:
    for seed, (bluffing, house) in enumerate([(False, frozenset()), (True, frozenset()), (False, MUST_DECLARE)]):
        game = replay(simulate(players=6 + 2 * (seed % 2), bluffing=bluffing, house=house, seed=100 + seed))
        for player, at in turns(game, every=2):
            check_same(game, player, at)


@pytest.mark.slow
def test_the_odds_bot_finishes_an_eight_player_game_the_first_way_could_not() -> None:
    # The first way counted the bits of every ask it could make; after 15 events of this deal one
    # of those counts cost more than the counter's budget and the game stopped there. The counters
    # have since become fast enough for that count too, so only the finish is checked.
    record = bots.play_deal(("odds", "simple"), 8, None, 3)
    assert replay(record).finished


@pytest.mark.parametrize(
    ("name", "at", "player"),
    [
        ("simulated-game.fish", 44, "Fay"),  # two risky claims, 48 asks
        ("six-and-seven.fish", 8, "Anna"),  # a certain claim
        ("lockout.fish", 11, "Ben"),  # a lockout warning
    ],
)
def test_suggest_prints_what_it_printed_when_it_counted_everything(
    name: str, at: int, player: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from cli.main import app

    runner = CliRunner()
    args = ["suggest", str(SAMPLES / name), "--at", str(at), "--as", player]
    shown = runner.invoke(app, args)
    assert shown.exit_code == 0, shown.output
    # The table counted only what it prints; counting every ask and claim prints the same.
    monkeypatch.setattr(Adviser, "asks", lambda self, top=None: suggest_before(self.game, self.player, self.at).asks)
    monkeypatch.setattr(Adviser, "claims", lambda self, least=0: suggest_before(self.game, self.player, self.at).claims)
    everything = runner.invoke(app, args)
    assert everything.exit_code == 0, everything.output
    assert shown.stdout == everything.stdout
    assert "Risky claim" in shown.stdout or "Claim now" in shown.stdout or "warning" in shown.stdout
