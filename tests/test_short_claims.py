"""Wrong claims written without the real split (``: wrong``, ``: wrong, to team 2``, ``: wrong,
forfeited``): read, written back, scored as the record says, and deduced from as far as the
record goes and no further (checked against the oracle that lists every deal)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from analyzer import record, record_json
from analyzer.cards import DeckKind
from analyzer.errors import RuleBreak
from analyzer.explain import COUNT, HOLDS, Explainer
from analyzer.hindsight import deal_in_hindsight
from analyzer.knowledge import PUBLIC, ViewTracker, position
from analyzer.odds import count_deals
from analyzer.record import Claim, Comment, Event, Record
from analyzer.replay import replay
from analyzer.rules import Outcome, RuleSet
from analyzer.simulate import simulate
from analyzer.solver import solve

from .oracle import deal_count_bound, location_after, oracle_holders

ROOT = Path(__file__).resolve().parents[1]
TEAMS = "Teams: Anna Ben Cara vs Dev Eli Fay\n"
CLAIM = "Anna claims low-spades: Anna 2S 3S 4S 5S 6S 7S"


def game_of(header: str, *events: str) -> record.Record:
    return record.loads(header + "\n" + "".join(f"{e}\n" for e in events), "short.fish")


@pytest.mark.parametrize(
    "ending", [": wrong", ": wrong, to team 2", ": wrong, forfeited", ": wrong; actual Anna 2S 3S 4S 5S 6S, Dev 7S"]
)
def test_both_forms_round_trip(ending: str) -> None:
    rules = "Rules: fish\n" if ending == ": wrong" else ""
    text = record.dumps(game_of(rules + TEAMS, CLAIM + ending))
    assert text.endswith(f"1. {CLAIM}{ending}\n")
    assert record.dumps(record.loads(text)) == text
    assert record.dumps(record_json.loads(record_json.dumps(record.loads(text)))) == text


def test_json_form_of_a_short_wrong_claim() -> None:
    rec = game_of(TEAMS, CLAIM + ": wrong, scored by Eli")
    claim = record_json.to_dict(rec)["events"][0]
    assert claim["result"] == "wrong" and claim["to_team"] == 2 and "actual" not in claim
    forfeited = record_json.to_dict(game_of(TEAMS, CLAIM + ": wrong, forfeited"))["events"][0]
    assert forfeited["forfeited"] is True and "to_team" not in forfeited


def test_scored_as_the_record_says() -> None:
    fish = replay(game_of("Rules: fish\n" + TEAMS, CLAIM + ": wrong"))
    assert fish.final.books["low-spades"].outcome is Outcome.WRONG and fish.final.score == (0, 1)
    to_them = replay(game_of(TEAMS, CLAIM + ": wrong, to team 2"))
    assert to_them.final.score == (0, 1)
    forfeited = replay(game_of(TEAMS, CLAIM + ": wrong, forfeited"))
    assert forfeited.final.books["low-spades"].outcome is Outcome.FORFEITED and forfeited.final.score == (0, 0)


@pytest.mark.parametrize(
    ("header", "ending", "message"),
    [
        (TEAMS, ": wrong", "says who scored it"),  # literature: forfeited or to the opponents?
        (TEAMS, ": wrong, to team 1", "never scores for the claiming team"),
        ("Rules: fish\n" + TEAMS, ": wrong, forfeited", "never forfeited"),
    ],
)
def test_who_scored_must_fit_the_rules(header: str, ending: str, message: str) -> None:
    rec = game_of(header, CLAIM + ending)
    with pytest.raises(RuleBreak, match=message) as info:
        replay(rec)
    assert (info.value.code, info.value.line) == ("claim-score", len(header.splitlines()) + 2)
    assert replay(rec, lenient=True).final.score == (0, 1)  # read on: the other team scored


def test_the_cards_stay_unknown() -> None:
    # The sample's wrong claim showed the whole split (Eli held 7C); written short, it shows nothing.
    full = record.load(ROOT / "sample_logs" / "wrong-claim-opponent.fish")
    short = _shortened(full, lambda c: not c.correct)
    game = replay(short)
    assert game.violations == []
    clubs = next(b for b in full.rules.deck.books if b.name == "low-clubs")
    assert all(game.history[c].reveal is None for c in clubs.cards)
    step = game.step(5)
    # Who lost how many cards is not public: the counts are the most each may still hold.
    assert step.unsure and step.unplaced == 6
    assert step.in_play == 48 - 6 == sum(step.counts.values()) - step.unplaced
    # Out of play, but who was dealt 7C is still open: Ben or Eli (the others asked or said no).
    seven = next(c for c in clubs.cards if c.code == "7C")
    assert seven not in position(replay(full), 5).allowed
    assert position(game, 5).allowed[seven] == ("Ben", "Eli")
    assert seven not in solve(position(game, 5)).holders  # out of play: no holder is reported


def _shortened(rec: Record, pick: Callable[[Claim], bool] | None) -> Record:
    """The record with the chosen claims (all by default) written short, saying who scored where
    the rules need it."""
    game = replay(rec)
    body: list[Event | Comment] = []
    for item in rec.body:
        if isinstance(item, Claim) and (pick is None or pick(item)):
            result = game.step(rec.events.index(item) + 1).books[item.book.name]
            if result.outcome is Outcome.FORFEITED:
                item = replace(item, correct=False, actual=None, forfeited=True)
            elif rec.rules.rule_set is RuleSet.FISH:
                item = replace(item, correct=False, actual=None)
            else:
                item = replace(item, correct=False, actual=None, to_team=3 - rec.table.team_of(item.claimant))
        body.append(item)
    return replace(rec, body=body)


SMALL = [
    dict(players=4, deck=DeckKind.STANDARD),
    dict(players=4, deck=DeckKind.STANDARD, rule_set=RuleSet.FISH),
    dict(players=4, deck=DeckKind.NO_2S, bluffing=True),
]


@pytest.mark.parametrize("variant", SMALL, ids=["literature", "fish", "no-2s-bluffing"])
def test_holders_and_counts_equal_the_oracle(variant: dict[str, object]) -> None:
    """Every claim written short (right ones too: the record then just says 'wrong'): the holders
    and the number of fitting deals equal the oracle's, which replays every deal in full."""
    checked = 0
    for seed in range(30):
        rec = _shortened(simulate(seed=seed, **variant), None)  # type: ignore[arg-type]
        game = replay(rec)
        assert game.violations == []
        truth_deal = {c: p for p, cards in rec.hands.items() for c in cards}
        first = next(i for i, e in enumerate(rec.events, start=1) if isinstance(e, Claim))
        small = [
            (at, view)
            for at in range(first, len(rec.events) + 1)
            for view in (PUBLIC, *rec.hands)
            if 1 < deal_count_bound(rec, at, view) <= 400
        ]
        for at, view in small[-2:]:
            expected, deals = oracle_holders(rec, at, view)
            pos = position(game, at, view)
            got = solve(pos).holders
            assert {c: set(h) for c, h in got.items()} == expected, (seed, view, at)
            assert count_deals(pos) == deals, (seed, view, at)
            truth = location_after(rec, truth_deal, at)
            assert all(truth[c] in h for c, h in got.items())
            checked += 1
        if checked >= 6:
            break
    assert checked >= 4


def test_the_deal_in_hindsight_leaves_them_open() -> None:
    full = record.load(ROOT / "sample_logs" / "wrong-claim-opponent.fish")
    full.hands.clear()
    seven = next(c for c in full.rules.deck.cards if c.code == "7C")
    assert deal_in_hindsight(replay(full)).dealt[seven] == ("Eli",)  # the actual split showed it
    short = _shortened(full, lambda c: not c.correct)
    assert deal_in_hindsight(replay(short)).dealt[seven] == ("Ben", "Eli")


def test_explanations_use_no_count_the_record_does_not_fix() -> None:
    # After a wrong claim without its split, card counts are bounds and the asks about the book
    # it took say nothing of what anyone holds now: explanations stand on the rest.
    full = record.load(ROOT / "sample_logs" / "wrong-claim-opponent.fish")
    full.hands.clear()
    game = replay(_shortened(full, lambda c: not c.correct))
    at = len(game.events)
    explainer = Explainer(ViewTracker(game, PUBLIC), at)
    assert not any(f.statement.kind == COUNT for f in explainer.facts)
    holders = solve(position(game, at)).holders
    for card, who in holders.items():
        for player, why in explainer.card(card).items():
            assert why.conclusion is not None
            assert (why.conclusion.kind == HOLDS) == (player in who and len(who) == 1)


def test_counts_that_are_only_bounds_read_as_bounds() -> None:
    full = record.load(ROOT / "sample_logs" / "wrong-claim-opponent.fish")
    step = replay(_shortened(full, lambda c: not c.correct)).final
    assert step.count_text("Anna") == f"≤{step.counts['Anna']}"
    assert replay(full).final.count_text("Anna") == str(replay(full).final.counts["Anna"])
