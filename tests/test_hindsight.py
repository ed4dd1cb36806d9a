"""The deal in hindsight: exact against listing every fitting deal, and whole on finished records."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyzer import record as fish
from analyzer.cards import Card, DeckKind, parse_card
from analyzer.errors import RuleBreak
from analyzer.explain import Explanation, lacks
from analyzer.hindsight import deal_in_hindsight, judged_analysis
from analyzer.knowledge import PUBLIC
from analyzer.record import Record
from analyzer.replay import replay
from analyzer.report import build_report
from analyzer.rules import HouseRule, RuleSet
from analyzer.simulate import simulate
from analyzer.tactics import NotKnown, explain_mistakes, mistake_view, mistakes
from cli.main import app

from .explain_checker import Checker
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


def small_cuts(record: Record, seed: int, limit: int = 150, per_game: int = 2) -> list[tuple[int, str]]:
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
    check_against_the_oracle(variant, range(8))


@pytest.mark.slow
@pytest.mark.parametrize(
    "variant", VARIANTS, ids=lambda v: "-".join(str(x.value if hasattr(x, "value") else x) for x in v.values())
)
def test_the_deal_in_hindsight_equals_the_oracle_on_many_games(variant: dict[str, object]) -> None:
    check_against_the_oracle(variant, range(8, 80))


def check_against_the_oracle(variant: dict[str, object], seeds: range) -> None:
    """The deal in hindsight of simulated records cut where the oracle can list every fitting deal."""
    checked = fixed_somewhere = open_somewhere = 0
    for seed in seeds:
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
    assert result.stderr == f"{path}:24: Anna answers yes, but was not dealt 2♠\n"


# ------------------------------------------------------------ judging with hands worked out, or none


@pytest.mark.parametrize("path", finished_records(), ids=lambda p: p.name)
def test_mistakes_of_a_stripped_record_are_those_of_the_full_one_marked_worked_out(path: Path) -> None:
    full = mistakes(judged_analysis(replay(fish.load(path)))[0])
    record, hands = stripped(path)
    analysis, found = judged_analysis(replay(record))
    assert found.worked_out == analysis.worked_out and set(analysis.worked_out) == set(hands)
    bare = mistakes(analysis)
    assert bare.worked_out == list(record.players) and not bare.unjudged
    assert [replace(m, hand="written") for m in bare.mistakes] == full.mistakes
    assert all(m.hand == "worked out" for m in bare.mistakes)
    assert all(m.hand_note.endswith("hand worked out from the record") for m in bare.mistakes if m.kind != "rule-break")


DI_AND_ANN = """\
Teams: Ann Ben Cy vs Di Ed Flo

1. Ann asks Di for 2S: no
2. Di asks Ben for 3S: no
3. Ben asks Di for 7H: no
4. Di asks Ann for 9C: no
5. Ann asks Di for 7H: no
"""


def test_asking_again_after_a_no_is_hopeless_without_any_hand_line() -> None:
    report = mistakes(judged_analysis(replay(fish.loads(DI_AND_ANN)))[0])
    assert report.unjudged == ["Ann", "Di", "Ben", "Ed", "Cy", "Flo"] and report.unfinished
    [m] = report.mistakes
    assert (m.event, m.player, m.kind, m.book, m.hand) == (5, "Ann", "hopeless-ask", "low-hearts", "unknown")
    assert "Di could not hold 7♥ in the public view" in m.why
    assert m.hand_note == "Ann's hand not known: judged from the public view, a lower bound of what Ann knew"
    assert m.to_dict()["hand"] == "unknown"


def test_the_public_view_sees_a_broken_lockout_without_hand_lines() -> None:
    record, _ = stripped(SAMPLES / "lockout.fish")
    [m] = mistakes(judged_analysis(replay(record))[0]).mistakes
    assert (m.event, m.player, m.kind, m.book, m.hand) == (12, "Ben", "broken-lockout", "low-spades", "unknown")
    assert m.hand_note.startswith("Eli's hand not known") and "the whole table could see it" in m.why


def test_a_claim_left_unmade_where_the_record_stops_is_missed() -> None:
    # After event 5 the whole table knows every low spade: five shown, and 7♠ is the one Ann
    # must have held to ask. Ann, on turn, never claims before the record stops.
    text = """\
Teams: Ann Ben Cy vs Di Ed Flo

1. Ann asks Di for 2S: yes
2. Ann asks Ed for 3S: yes
3. Ann asks Flo for 4S: yes
4. Ann asks Di for 5S: yes
5. Ann asks Ed for 6S: yes
"""
    game = replay(fish.loads(text))
    report = mistakes(judged_analysis(game)[0])
    missed = [m for m in report.mistakes if m.kind == "missed-claim"]
    assert [(m.event, m.player, m.book) for m in missed] == [(5, "Ann", "low-spades")]
    assert "where the record stops, after event 5" in missed[0].why
    assert "the whole table could see every card of low spades" in missed[0].why
    assert "the record is unfinished" in missed[0].cost and report.unfinished


def test_worked_out_hands_are_marked_in_the_text_json_and_report(tmp_path: Path) -> None:
    record, _ = stripped(SAMPLES / "simulated-game.fish")
    path = tmp_path / "game.fish"
    path.write_text(fish.dumps(record))
    shown = runner.invoke(app, ["mistakes", str(path)])
    assert shown.exit_code == 0
    assert "96. Dev — missed claim (high spades)  line 102  (Dev's hand worked out from the record)" in shown.stdout
    said = " ".join(shown.stderr.split())  # the error console wraps long lines
    assert "judged with their hand worked out from the record: Anna, Dev, Ben, Eli, Cara, Fay" in said
    analysis = judged_analysis(replay(record))[0]
    listed = [m.to_dict() for m in mistakes(analysis).mistakes]  # what --json prints
    assert listed and all(m["hand"] == "worked out" for m in listed)
    md = build_report(replay(record), analysis=analysis, odds=False).markdown()
    assert "Judged with their hand worked out from the record" in md
    assert "(*Dev's hand worked out from the record*)" in md


def test_mistakes_name_events_as_the_file_numbers_them() -> None:
    # The part of a game someone wrote down, numbered from 11, with 14 left out.
    text = DI_AND_ANN.replace("1. ", "11. ").replace("2. ", "12. ").replace("3. ", "13. ")
    text = text.replace("4. Di", "15. Di").replace("5. Ann", "16. Ann")
    [m] = mistakes(judged_analysis(replay(fish.loads(text)))[0]).mistakes
    assert (m.event, m.number, m.line) == (5, 16, 7)
    assert m.to_dict()["event"] == 16 and m.to_dict()["line"] == 7 and m.to_dict()["index"] == 5
    game = replay(
        fish.loads(
            text.replace("16. Ann asks Di for 7H: no", "16. Ann asks Di for 7H: no\n17. Di asks Ann for 10C: no")
        )
    )
    assert game.record.after_label(6) == "after event 17" and game.record.event_label(4) == "event 15"
    assert game.record.after_label(0) == "after the deal"


# ------------------------------------------------------------ explanations under the mistakes


def test_a_hopeless_ask_explains_why_the_asked_player_could_not_hold_the_card() -> None:
    analysis = judged_analysis(replay(fish.loads(DI_AND_ANN)))[0]
    [m] = explain_mistakes(analysis, mistakes(analysis)).mistakes
    [told] = m.explanations
    assert isinstance(told, Explanation) and told.conclusion == lacks("Di", parse_card("7H"))
    assert told.text == "1. Di answered no when Ben asked for 7♥ at event 3."
    assert m.to_dict()["explanations"] == [told.to_dict()]
    assert m.to_dict()["explanations"][0]["facts"][0]["source"] == {"event": 3, "line": 5}


@pytest.mark.parametrize(
    "name", ["lockout.fish", "simulated-game.fish", "wrong-claim-opponent.fish", "fish-rules.fish"]
)
def test_every_mistake_of_a_sample_is_explained(name: str) -> None:
    record = fish.load(SAMPLES / name)
    analysis = judged_analysis(replay(record))[0]
    found = explain_mistakes(analysis, mistakes(analysis)).mistakes
    assert found
    for m in found:
        assert m.explanations, m
        view = m.judged or m.player
        holders = analysis.holders(view, m.at)
        for told in m.explanations:
            if isinstance(told, Explanation):
                assert told.conclusion is not None and told.text.startswith("1. ")
                c, p = told.conclusion.card, told.conclusion.player
                assert c is not None
                assert (holders[c] == (p,)) if told.conclusion.kind == "holds" else (p not in holders[c])
            else:
                assert len(told.holders) > 1 and told.holder in told.holders
                assert witness_fits(record, m.at, view, told.witness), (m, told)


def witness_fits(record: Record, at: int, view: str, witness: dict[Card, str]) -> bool:
    """Whether a deal of the never-shown cards fits the view: replay the events with every hand
    it makes (the cards shown are where they were first shown, the view's own hand is its own)."""
    deal = {**shown_origins(record, at), **{c: view for c in record.hands[view]}, **witness}
    if set(deal) != set(record.rules.deck.cards):
        return False
    hands = {p: tuple(c for c in record.rules.deck.cards if deal[c] == p) for p in record.players}
    if any(len(hands[p]) != n for p, n in record.deal_sizes.items()):
        return False
    try:
        replay(Record(record.table, record.rules, hands, body=list(record.events[:at])))
    except RuleBreak:
        return False
    return True


def test_a_guessed_claim_says_which_card_was_open_with_a_deal_that_fits() -> None:
    record = fish.load(SAMPLES / "wrong-claim-opponent.fish")
    analysis = judged_analysis(replay(record))[0]
    [m] = explain_mistakes(analysis, mistakes(analysis)).mistakes
    open_cards = [t for t in m.explanations if isinstance(t, NotKnown)]
    assert open_cards and all(t.text.startswith(f"{t.card.pretty} was not known: ") for t in open_cards)
    shown = runner.invoke(app, ["mistakes", str(SAMPLES / "wrong-claim-opponent.fish")])
    assert f"- {open_cards[0].text}" in " ".join(shown.stdout.split())
    data = json.loads(runner.invoke(app, ["mistakes", str(SAMPLES / "wrong-claim-opponent.fish"), "--json"]).stdout)
    assert data[0]["line"] == m.line and any(e.get("known") is False for e in data[0]["explanations"])


def test_analyze_json_lists_the_hands_worked_out_and_judges_them(tmp_path: Path) -> None:
    record, _ = stripped(SAMPLES / "team-out.fish")
    path = tmp_path / "team-out.fish"
    path.write_text(fish.dumps(record))
    result = runner.invoke(app, ["analyze", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["worked_out"] == list(record.players) and data["views"] == ["public", *record.players]
    assert all(m["hand"] == "worked out" for m in data["mistakes"])


@pytest.mark.parametrize("name", ["simulated-game.fish", "lockout.fish"])
def test_explanations_of_the_mistakes_of_a_stripped_record_pass_the_independent_checker(name: str) -> None:
    record, _ = stripped(SAMPLES / name)
    game = replay(record)
    analysis, hindsight = judged_analysis(game)
    filled = hindsight.filled()  # the checker reads a view's own hand from its Hand line
    checked = 0
    for m in explain_mistakes(analysis, mistakes(analysis)).mistakes:
        view = mistake_view(analysis, m)
        checker = Checker(filled, view, m.at)
        for told in m.explanations:
            if isinstance(told, Explanation):
                assert not checker.errors(told.to_dict()), (m, told.text)
                checked += 1
    assert checked
