"""Claimable books, threats, lockouts and mistakes: the rules texts' situations and properties."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import record as fish
from analyzer.analysis import analyze
from analyzer.cards import DeckKind
from analyzer.record import Ask, Claim
from analyzer.replay import Game, replay
from analyzer.rules import RuleSet
from analyzer.simulate import simulate
from analyzer.tactics import claimable, lockouts, may_claim, mistakes, quote_odds, threatened, threats

from .oracle import location_after

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"


def sample(name: str) -> Game:
    return replay(fish.load(SAMPLES / f"{name}.fish"))


# ------------------------------------------------------------ the rules texts' situations


def test_lockout_is_seen_and_its_breaking_reported() -> None:
    game = sample("lockout")
    result = analyze(game)
    found = lockouts(result, 11)
    assert [lk.book.name for lk in found] == ["low-spades"]
    assert found[0].threats == {1: ["Anna"], 2: ["Eli"]}
    assert found[0].avoid(1) == ["Eli"] and found[0].avoid(2) == ["Anna"]
    broken = [m for m in mistakes(result).mistakes if m.kind == "broken-lockout"]
    assert [(m.event, m.player, m.book) for m in broken] == [(12, "Ben", "low-spades")]
    assert "Eli" in broken[0].why and "event 15" in broken[0].cost


def test_a_broken_lockout_the_asker_could_see_is_explained_as_the_asker_saw_it() -> None:
    """Ben could see Eli's threat: the mistake is judged in Ben's view, and its explanations are
    what Ben could have known (once in Eli's view: "7♠ is in Eli's hand", which Ben never saw)."""
    from analyzer.tactics import explain_mistakes, mistake_moment

    result = analyze(sample("lockout"))
    (m,) = [m for m in explain_mistakes(result, mistakes(result)).mistakes if m.kind == "broken-lockout"]
    assert m.why.endswith("; Ben could see this too") and m.judged is None
    assert mistake_moment(result, m) == ("Ben", 11)
    assert m.to_dict()["hand_of"] == "Ben"
    facts = [f for e in m.explanations for f in e.facts]  # type: ignore[union-attr]
    assert facts and all(f.source.how != "hand" or f.statement.player == "Ben" for f in facts)
    assert "7♠ is in Eli's hand" not in " ".join(e.text for e in m.explanations)


def test_the_explanations_of_a_view_share_one_tracker(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each mistake's explainer made the view's tracker again, and each tracker swept the whole
    record: the mistakes of 1,000 events of failed asks took 9.6 s, of 2,000 39 s."""
    import analyzer.analysis as analysis_module
    from analyzer.tactics import explain_mistakes

    made: list[str] = []
    tracker = analysis_module.view_tracker
    monkeypatch.setattr(
        analysis_module, "view_tracker", lambda game, view, *rest: made.append(view) or tracker(game, view, *rest)
    )
    result = analyze(sample("simulated-game"))
    made.clear()
    found = explain_mistakes(result, mistakes(result)).mistakes
    assert len(found) > 10 and made and len(made) == len(set(made))


def test_a_broken_lockout_the_asker_could_not_see_is_judged_as_the_opponent_saw_it() -> None:
    for seed in range(40):
        result = analyze(replay(simulate(players=6, seed=seed)))
        unseen = [m for m in mistakes(result).mistakes if m.kind == "broken-lockout" and "could not see" in m.why]
        if unseen:
            break
    else:
        pytest.fail("no broken lockout the asker could not see in 40 games")
    m = unseen[0]
    ask = result.game.events[m.event - 1]
    assert isinstance(ask, Ask) and m.judged == ask.target != m.player


def test_asking_for_a_card_one_holds_is_a_rule_break_not_also_a_hopeless_ask(tmp_path: Path) -> None:
    import analyzer

    text = (SAMPLES / "lockout.fish").read_text().replace("5. Anna asks Dev for 5S: no", "5. Ben asks Dev for 5S: no")
    assert "5. Ben asks Dev for 5S: no" in text  # (Ben was dealt 5♠; and it is Anna's turn)
    path = tmp_path / "own-card.fish"
    path.write_text(text)
    found = analyzer.mistakes(analyzer.replay(analyzer.load(path), lenient=True)).mistakes
    at_five = [(m.kind, m.why) for m in found if m.event == 5]
    assert ("rule-break", "Ben asks for 5♠, which they hold (dealt)") in at_five
    assert all(kind == "rule-break" for kind, _ in at_five)


def test_the_odds_of_an_ask_are_set_beside_the_other_opponents_only() -> None:
    """At event 95 Cara asks Dev for A♦ (5.0%): Ben, her teammate, more likely held it (43.1%),
    but Cara could not ask him; Fay, the likeliest opponent, did at 22.6%."""
    from analyzer.tactics import explain_mistakes

    result = analyze(sample("simulated-game"))
    found = quote_odds(result, explain_mistakes(result, mistakes(result)))
    (m,) = [m for m in found.mistakes if m.event == 95]
    assert m.odds == "the chance that Dev held A♦ was 5.0%, while Fay's was 22.6%"
    for m in found.mistakes:
        ask = result.game.events[m.event - 1]
        if m.odds and "while" in m.odds and isinstance(ask, Ask):
            rival = m.odds.split("while ")[1].split("'s")[0]
            assert rival in result.game.record.table.opponents(ask.asker), m.odds


def test_collect_four_claim_is_claimable_for_the_watching_teammate() -> None:
    game = sample("collect-four")
    result = analyze(game)
    claim_at = next(i for i, e in enumerate(game.events, start=1) if isinstance(e, Claim))
    claimant = game.events[claim_at - 1].claimant  # type: ignore[union-attr]
    found = claimable(game, result.holders(claimant, claim_at - 1), claimant)
    book = game.events[claim_at - 1].book  # type: ignore[union-attr]
    assert book in [c.book for c in found]


def test_stalemate_breaker_kept_at_no_cost_is_not_a_missed_claim() -> None:
    game = sample("stalemate-breaker")
    result = analyze(game)
    held = [
        at
        for at in range(len(game.events))
        if any(c.book.name == "high-diamonds" for c in claimable(game, result.holders("Cara", at), "Cara"))
    ]
    assert held, "the team knows the book well before claiming it"
    assert not [m for m in mistakes(result).mistakes if m.kind == "missed-claim"]


def test_a_missed_claim_that_cost_the_book() -> None:
    game = sample("simulated-game")
    found = mistakes(analyze(game)).mistakes
    missed = [(m.event, m.player, m.book) for m in found if m.kind == "missed-claim"]
    assert (96, "Dev", "high-spades") in missed
    m = next(m for m in found if m.kind == "missed-claim")
    assert "forfeited" in m.cost


def test_wrong_claims_are_all_listed_and_judged() -> None:
    game = sample("wrong-claim-opponent")
    report = quote_odds(analyze(game), mistakes(analyze(game)))
    wrong = [m for m in report.mistakes if m.kind == "wrong-claim"]
    failed = [i for i, e in enumerate(game.events, start=1) if isinstance(e, Claim) and not e.correct]
    assert [m.event for m in wrong] == failed
    assert all(m.odds and m.odds.startswith("the declared split had a") for m in wrong)


def test_mistakes_say_who_could_not_be_judged() -> None:
    record = fish.load(SAMPLES / "lockout.fish")
    record.hands.pop("Ben")
    result = analyze(replay(record))
    report = mistakes(result)
    assert report.unjudged == ["Ben"]
    assert not [m for m in report.mistakes if m.player == "Ben" and m.kind == "hopeless-ask"]
    assert threats(result, 11)["Ben"] is None


def test_missed_claims_respect_the_rule_set() -> None:
    for rule_set in RuleSet:
        for seed in range(6):
            game = replay(simulate(players=6, rule_set=rule_set, seed=seed))
            for m in mistakes(analyze(game)).mistakes:
                if m.kind == "missed-claim":
                    assert may_claim(game, game.step(m.event - 1), m.player)
                    if rule_set is RuleSet.LITERATURE:
                        step = game.step(m.event - 1)
                        team_out = sum(step.counts[p] for p in game.record.table.teammates(step.turn or m.player)) == 0
                        assert step.turn == m.player or team_out


# ------------------------------------------------------------ properties on simulated games

VARIANTS = [
    dict(players=6, deck=DeckKind.STANDARD),
    dict(players=8, deck=DeckKind.JOKERS, rule_set=RuleSet.FISH),
    dict(players=4, deck=DeckKind.RANKS),
    dict(players=6, deck=DeckKind.NO_2S, bluffing=True),
]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), which=st.integers(0, len(VARIANTS) - 1))
def test_claimable_books_and_threats_hold_on_the_true_deal(seed: int, which: int) -> None:
    record = simulate(seed=seed, **VARIANTS[which])  # type: ignore[arg-type]
    truth = {c: p for p, cards in record.hands.items() for c in cards}
    game = replay(record)
    result = analyze(game)
    for at in range(0, len(game.events) + 1, 3):
        where = location_after(record, truth, at)
        for view, va in result.views.items():
            for c in claimable(game, va.at(at), view):
                # Claiming these holders on the true deal is correct.
                assert all(where[card] == holder for card, holder in c.holders.items())
            if view == "public":
                continue
            for book in threatened(game, va.at(at), view):
                # Every ask for an opponent's card of the book would succeed, and the asker may ask.
                assert any(where[card] == view for card in book.cards)
                team = game.record.table.team_of(view)
                for card in book.cards:
                    holder = va.at(at)[card][0]
                    assert where[card] == holder
                    if game.record.table.team_of(holder) != team:
                        assert game.step(at).counts[holder] > 0


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_hopeless_asks_always_fail_and_broken_lockouts_fail(seed: int) -> None:
    game = replay(simulate(players=6, seed=seed))
    for m in mistakes(analyze(game)).mistakes:
        e = game.events[m.event - 1]
        if m.kind in ("hopeless-ask", "broken-lockout"):
            assert isinstance(e, Ask) and not e.yes


@pytest.mark.slow
def test_tactics_properties_over_many_games() -> None:
    for seed in range(200):
        variant = VARIANTS[seed % len(VARIANTS)]
        record = simulate(seed=seed, **variant)  # type: ignore[arg-type]
        truth = {c: p for p, cards in record.hands.items() for c in cards}
        game = replay(record)
        result = analyze(game)
        for at in range(len(game.events) + 1):
            where = location_after(record, truth, at)
            for view, va in result.views.items():
                for c in claimable(game, va.at(at), view):
                    assert all(where[card] == holder for card, holder in c.holders.items())
