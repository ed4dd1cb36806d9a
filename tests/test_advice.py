"""Information in bits, advice for the player on turn, and the odds commands."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyzer import record as fish
from analyzer.advice import suggest
from analyzer.errors import UsageError
from analyzer.information import ask_information, asker_side, player_information
from analyzer.knowledge import PUBLIC, ViewTracker
from analyzer.odds import card_odds, count_deals
from analyzer.record import Ask
from analyzer.replay import replay
from cli.main import app

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"
runner = CliRunner()


def test_given_and_gained_add_up_to_the_information_of_each_ask() -> None:
    game = replay(fish.load(SAMPLES / "lockout.fish"))
    tracker = ViewTracker(game, PUBLIC)
    found = ask_information(game)
    asks = [i for i, e in enumerate(game.events, start=1) if isinstance(e, Ask)]
    assert [a.event for a in found] == asks
    for a in found:
        total = math.log2(count_deals(tracker.position(a.event - 1)) / count_deals(tracker.position(a.event)))
        assert a.given >= 0 and a.gained >= -1e-12
        assert a.given + a.gained == pytest.approx(total)
    totals = player_information(game, found)
    assert totals["Eli"].asks == 6
    assert totals["Eli"].sentence().startswith("asked 6 times, gave away ")


def test_a_failed_ask_gains_what_its_no_was_worth() -> None:
    # A "no" rules one player out of one card: the bits gained are -log2(1 - the odds it was there).
    game = replay(fish.load(SAMPLES / "lockout.fish"))
    first = ask_information(game)[0]
    e = game.events[0]
    assert isinstance(e, Ask) and not e.yes
    middle = asker_side(ViewTracker(game, PUBLIC).position(0), e, bluffing=False)
    chance = card_odds(middle).cards[e.card].get(e.target, Fraction(0))
    assert first.gained == pytest.approx(-math.log2(1 - float(chance)))


def test_suggest_ranks_legal_asks_by_their_exact_odds() -> None:
    game = replay(fish.load(SAMPLES / "lockout.fish"))
    advice = suggest(game, "Ben", 11)
    mine = card_odds(ViewTracker(game, "Ben").position(11))
    hand = set(game.record.hands["Ben"])
    assert advice.asks, "Ben has legal asks"
    assert [a.odds for a in advice.asks] == sorted((a.odds for a in advice.asks), reverse=True)
    for a in advice.asks:
        assert a.target in game.record.table.opponents("Ben")
        assert a.card not in hand
        assert any(c in hand for c in game.record.rules.deck.book_of(a.card).cards)
        assert a.odds == mine.cards[a.card].get(a.target, Fraction(0))
        assert a.given >= 0
    # Asking Eli risks handing him the turn and the low spades.
    warned = {a.target for a in advice.asks if a.warning}
    assert warned == {"Eli"}


def test_suggest_names_a_certain_claim_and_refuses_a_player_off_turn() -> None:
    game = replay(fish.load(SAMPLES / "six-and-seven.fish"))
    claim_at = len(game.events) - 1
    advice = suggest(game, "Anna", claim_at)
    certain = [c for c in advice.claims if c.right == 1]
    assert [c.book.name for c in certain] == ["low-clubs"]
    assert all(0 <= c.right <= c.in_team <= 1 for c in advice.claims)
    with pytest.raises(UsageError):
        suggest(game, "Ben", claim_at)


def test_odds_and_suggest_commands(tmp_path: Path) -> None:
    path = SAMPLES / "lockout.fish"
    result = runner.invoke(app, ["odds", str(path), "--at", "11", "--as", "Ben", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["at"] == 11 and data["as"] == "Ben" and int(data["deals"]) > 0
    for share in data["cards"].values():
        assert sum(Fraction(f) for f in share.values()) == 1
    assert data["cards"]["2S"] == {"Anna": "1"}
    result = runner.invoke(app, ["suggest", str(path), "--as", "Ben", "--at", "11", "--json"])
    assert result.exit_code == 0
    asks = json.loads(result.stdout)["asks"]
    assert asks and all({"target", "card", "odds", "bits_given", "warning"} <= set(a) for a in asks)
    result = runner.invoke(app, ["suggest", str(path), "--as", "Anna", "--at", "11"])
    assert result.exit_code == 2 and "not on turn" in result.stderr
    assert result.stderr.startswith(f"{path}: ")  # the record it is about
    result = runner.invoke(app, ["simulate", "--players", "5"])
    assert result.exit_code == 2 and result.stderr.startswith("--players")  # about no record
    result = runner.invoke(app, ["who-has", "9H", str(path), "--at", "11", "--as", "Ben", "--json"])
    odds = json.loads(result.stdout)["odds"]
    assert sum(Fraction(f) for f in odds.values()) == 1
    result = runner.invoke(app, ["mistakes", str(path), "--bits"])
    assert result.exit_code == 0 and "gave away" in result.stdout


def test_a_short_record_s_bits_are_counted_without_worker_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    # Eight asks are a few counts: starting worker processes for them cost seconds of wall time.
    import sys

    information = sys.modules["analyzer.information"]
    game = replay(fish.load(SAMPLES / "probing-opening.fish"))
    alone = ask_information(game)

    def no_workers(*args: object) -> None:
        raise AssertionError("a short record went to worker processes")

    monkeypatch.setattr(information, "game_map", no_workers)
    seen: list[tuple[int, int]] = []
    assert ask_information(game, workers=2, progress=lambda done, total: seen.append((done, total))) == alone
    assert seen == [(0, 1), (1, 1)]
    assert [a.event for a in alone] == list(range(1, 9))
