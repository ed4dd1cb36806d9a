"""The deal in hindsight: exact against listing every fitting deal, and whole on finished records."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyzer import record as fish
from analyzer.cards import Card, DeckKind
from analyzer.hindsight import deal_in_hindsight
from analyzer.knowledge import PUBLIC
from analyzer.record import Record
from analyzer.replay import replay
from analyzer.rules import HouseRule, RuleSet
from analyzer.simulate import simulate
from cli.main import app

from .oracle import deal_count_bound, fitting_deals, shown_origins

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_logs"
SHARED = ROOT / "tests" / "data" / "shared"


def finished_records() -> list[Path]:
    """Every finished record of the samples and the shared games (the test fails if there are none)."""
    paths = sorted(SAMPLES.glob("*.fish")) + sorted(SHARED.glob("g2*.fish"))
    return [p for p in paths if replay(fish.load(p)).finished]


def stripped(path: Path) -> tuple[Record, dict[str, tuple[Card, ...]]]:
    """The record without its Hand lines, and the lines taken out."""
    record = fish.load(path)
    hands = dict(record.hands)
    record.hands = {}
    return record, hands


def test_there_are_finished_records_to_check() -> None:
    names = {p.name for p in finished_records()}
    assert {"simulated-game.fish", "team-out.fish"} <= names
    assert sum(n.startswith("g2") for n in names) == 8


@pytest.mark.parametrize("path", finished_records(), ids=lambda p: p.name)
def test_a_finished_record_fixes_every_hand_that_was_taken_out(path: Path) -> None:
    record, hands = stripped(path)
    assert hands, "the full record has its Hand lines"
    found = deal_in_hindsight(replay(record))
    assert found.worked_out == {p: tuple(c for c in record.rules.deck.cards if c in hands[p]) for p in hands}
    filled = found.filled()
    assert {p: set(cs) for p, cs in filled.hands.items()} == {p: set(cs) for p, cs in hands.items()}
    again = fish.loads(fish.dumps(filled))
    assert again.hands == filled.hands


# ------------------------------------------------------------ exact: the oracle lists every fitting deal

VARIANTS = [
    dict(players=4, deck=DeckKind.STANDARD),
    dict(players=4, deck=DeckKind.NO_2S, bluffing=True),
    dict(players=6, deck=DeckKind.STANDARD),
    dict(players=6, deck=DeckKind.JOKERS, rule_set=RuleSet.FISH),
    dict(players=6, deck=DeckKind.NO_7S, house=frozenset({HouseRule.MUST_DECLARE})),
    dict(players=8, deck=DeckKind.STANDARD, bluffing=True),
]


def oracle_dealt(record: Record, at: int, view: str, hands: dict[str, tuple[Card, ...]]) -> dict[Card, set[str]]:
    """Who was dealt each card over every deal that fits the first ``at`` events and ``hands``."""
    dealt: dict[Card, set[str]] = {}
    for deal in fitting_deals(record, at, view):
        if all(deal[c] == p for p, cards in hands.items() for c in cards):
            for c, p in deal.items():
                dealt.setdefault(c, set()).add(p)
    return dealt


def small_cuts(record: Record, seed: int, limit: int = 300, per_game: int = 3) -> list[tuple[int, str]]:
    """Places to cut the record where the oracle can list the deals: (events kept, view)."""
    found = []
    for at in range(len(record.events), 0, -1):
        bounds = {view: deal_count_bound(record, at, view) for view in (PUBLIC, *record.hands)}
        found += [(at, view) for view, n in bounds.items() if 1 < n <= limit]
        if min(bounds.values()) > limit:
            break  # going back, fewer cards have been shown: the counts only grow
    random.Random(seed).shuffle(found)
    return found[:per_game]


@pytest.mark.parametrize(
    "variant", VARIANTS, ids=lambda v: "-".join(str(x.value if hasattr(x, "value") else x) for x in v.values())
)
def test_the_deal_in_hindsight_equals_the_oracle(variant: dict[str, object]) -> None:
    checked = fixed_somewhere = open_somewhere = 0
    for seed in range(10):
        full = simulate(seed=seed, **variant)  # type: ignore[arg-type]
        for at, view in small_cuts(full, seed):
            # The record cut after ``at`` events, with the view's Hand line (and, for a player,
            # one more: a record may hold any set of Hand lines).
            written: dict[str, tuple[Card, ...]] = {}
            if view != PUBLIC:
                written[view] = full.hands[view]
                other = full.players[(full.players.index(view) + 1) % len(full.players)]
                written[other] = full.hands[other]
            cut = Record(full.table, full.rules, written, body=list(full.events[:at]))
            expected = oracle_dealt(cut, at, view, written)
            assert expected, "the true deal always fits"
            got = deal_in_hindsight(replay(cut)).dealt
            assert {c: set(ps) for c, ps in got.items()} == expected, (seed, at, view)
            checked += 1
            hidden = [c for c in got if c not in shown_origins(cut, at) and all(c not in h for h in written.values())]
            fixed_somewhere += any(len(got[c]) == 1 for c in hidden)  # worked out, never shown
            open_somewhere += any(len(ps) > 1 for ps in got.values())
    assert checked >= 5 and fixed_somewhere and open_somewhere


# ------------------------------------------------------------ the command


runner = CliRunner()


def test_deal_fill_writes_the_hand_lines_taken_out(tmp_path: Path) -> None:
    path = tmp_path / "game.fish"
    full = fish.load(SAMPLES / "simulated-game.fish")
    record, _ = stripped(SAMPLES / "simulated-game.fish")
    path.write_text(fish.dumps(record))
    result = runner.invoke(app, ["deal", str(path), "--fill"])
    assert result.exit_code == 0, result.output
    assert "worked out from the record" in result.stdout
    back = fish.load(path)
    assert {p: set(cs) for p, cs in back.hands.items()} == {p: set(cs) for p, cs in full.hands.items()}
    assert path.read_text() == fish.dumps(back)  # canonical form
    assert not list(tmp_path.glob(".*.tmp"))


def test_deal_never_writes_a_partial_hand(tmp_path: Path) -> None:
    path = tmp_path / "lockout.fish"
    record, _ = stripped(SAMPLES / "lockout.fish")
    text = fish.dumps(record).replace("1. ", "1.  ", 1)  # not canonical: an unchanged file keeps it
    path.write_text(text)
    result = runner.invoke(app, ["deal", str(path), "--fill", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["filled"] == []
    assert data["players"]["Anna"] == {"hand": "unknown", "size": 8, "fixed": ["2S", "3S"], "unknown": 6}
    assert data["open"]["QS"] == ["Anna", "Ben", "Eli", "Fay"]
    assert path.read_text() == text
    shown = runner.invoke(app, ["deal", str(path)])
    assert "Anna  2♠ 3♠ ? ? ? ? ? ?  (6 cards open)" in shown.stdout
    assert "Q♠: Anna, Ben, Eli or Fay" in shown.stdout


def test_deal_of_a_record_against_its_hand_lines_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.fish"
    record, _ = stripped(SAMPLES / "lockout.fish")
    text = fish.dumps(record).replace(
        "Teams: Anna Ben Cara vs Dev Eli Fay",
        "Teams: Anna Ben Cara vs Dev Eli Fay\nHand Anna: 7S 3S 9H 10H 2D 3D 9C 10C",
    )
    path.write_text(text)
    result = runner.invoke(app, ["deal", str(path)])
    assert result.exit_code == 1
    assert result.stderr == f"{path}:24: Anna answers yes, but was not dealt 2S\n"
