"""Who may ask, claim and pass: one set of rules that the replay refuses events by and the
tactics judge players by, so the two can never disagree."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer import record
from analyzer.errors import RuleBreak
from analyzer.record import Claim, actor, event_text
from analyzer.replay import replay
from analyzer.rules import can_ask, can_claim, can_pass, check_claim
from analyzer.tactics import may_claim

ROOT = Path(__file__).resolve().parents[1]
TEAMS = "Teams: Anna Ben Cara vs Dev Eli Fay\n"


def load(name: str) -> record.Record:
    return record.load(ROOT / "sample_logs" / f"{name}.fish")


def test_a_cardless_opponent_cannot_claim_for_a_team_that_is_out() -> None:
    # Team 2 is out on Dev's turn: Dev names an opponent *with cards* to claim what is left.
    game = replay(load("team-out"))
    state = game.play_state(20)
    assert state.turn == "Dev" and state.counts["Cara"] == 0 and state.counts["Anna"] > 0
    assert can_claim(state, "Anna") and can_claim(state, "Ben")
    assert not can_claim(state, "Cara")  # no cards: she cannot be the one named
    assert not can_claim(state, "Dev")  # the team that is out never claims
    assert not may_claim(game, game.step(20), "Cara")
    with pytest.raises(RuleBreak) as info:
        check_claim(state, "Cara", record.load(ROOT / "sample_logs" / "team-out.fish").rules.deck.book("low-spades"))
    assert info.value.code == "claim-turn"


def test_the_first_player_to_act_had_the_first_turn() -> None:
    # A literature game opening on a claim: legal (whoever acts first has the first turn), so
    # the claimant could claim before the first event; nobody else could.
    events = ["Anna claims low-hearts: Anna 2H 3H 4H 5H 6H 7H: correct", "Anna asks Dev for 9S: no"]
    game = replay(record.loads(TEAMS + "\n" + "\n".join(events) + "\n"))
    assert game.violations == [] and game.step(1).turn == "Anna"
    assert may_claim(game, game.step(0), "Anna")
    assert not may_claim(game, game.step(0), "Ben")
    # With nothing recorded yet, anyone may open.
    empty = replay(record.loads(TEAMS))
    assert all(can_claim(empty.play_state(0), p) for p in empty.record.players)


WHO_CODES = {
    "claim-turn",
    "claimed-twice",
    "game-over",
    "not-on-turn",
    "ask-teammate",
    "asker-empty",
    "target-empty",
    "claimed-card",
    "pass-team",
    "pass-empty",
    "pass-with-cards",
}
AGREE = ["team-out", "lockout", "stalemate-breaker", "run-out-and-pass", "wrong-claim-forfeit", "fish-rules"]


@pytest.mark.parametrize("name", AGREE)
def test_replay_and_tactics_agree_on_who_may_act(name: str) -> None:
    """After every step, each player's claim, ask and pass is refused by the replay exactly when
    the rules say they may not make it."""
    rec = load(name)
    game = replay(rec)
    lines = [event_text(e) for e in rec.events]
    header = record.dumps(rec).split("\n\n", 1)[0] + "\n\n"
    refusals = 0
    for at in range(1, len(lines)):
        state = game.play_state(at)
        book = next(b for b in rec.rules.deck.books if b.name not in state.claimed)
        cards = " ".join(c.code for c in book.cards)
        for player in rec.players:
            mate = next(p for p in rec.table.teammates(player) if p != player)
            opponent = rec.table.opponents(player)[0]
            tries = [
                (f"{player} claims {book.name}: {mate} {cards}: correct", may_claim(game, game.step(at), player)),
                (f"{player} asks {opponent} for {book.cards[0].code}: no", can_ask(state, player, opponent, book)),
                (f"{player} passes to {mate}", can_pass(state, player, mate)),
            ]
            for line, allowed in tries:
                trial = replay(record.loads(header + "\n".join([*lines[:at], line]) + "\n"), lenient=True)
                refused = {v.code for v in trial.violations if v.event == at + 1} & WHO_CODES
                assert (not refused) == allowed, (at, line, refused)
                refusals += bool(refused)
    assert refusals


def test_claims_in_the_records_were_allowed() -> None:
    for name in AGREE:
        game = replay(load(name))
        for i, e in enumerate(game.events, start=1):
            assert actor(e)
            if isinstance(e, Claim):
                assert may_claim(game, game.step(i - 1), e.claimant)
