"""The checked replay: the samples are legal, each rule break is caught at its line, lenient
reading collects breaks, and books are scored as the rules say."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer import record
from analyzer.cards import DeckKind
from analyzer.errors import RuleBreak
from analyzer.record import Ask, Claim, Pass
from analyzer.replay import Game, replay
from analyzer.rules import Outcome, RuleSet

from .fixtures import committed

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = committed(ROOT / "sample_logs", "*.fish")

TEAMS = "Teams: Anna Ben Cara vs Dev Eli Fay\n"
DEAL = TEAMS + (
    "Hand Anna: 2H 2S 9S 9H 2D 9D 2C 9C\n"
    "Hand Dev: 3H 6H 3S 10S 10H 3D 10D 3C\n"
    "Hand Ben: 7H 4S JS JH 4D 4C 10C JC\n"
    "Hand Eli: 4H 5S QS QH 5D JD 5C QC\n"
    "Hand Cara: 6S KS KH 6D QD 6C KC 7S\n"
    "Hand Fay: 5H AS AH 7D KD AD 7C AC\n"
)


def sample(name: str) -> str:
    return (ROOT / "sample_logs" / f"{name}.fish").read_text(encoding="utf-8")


def play(name: str) -> Game:
    return replay(record.loads(sample(name), name))


def events_of(name: str, upto: int | None = None) -> list[str]:
    """The event lines of a sample (numbers and comments dropped), the first ``upto`` of them."""
    rec = record.loads(sample(name))
    return [record.event_text(e) for e in rec.events][:upto]


def text(header: str, events: list[str]) -> str:
    return header + "\n" + "".join(f"{e}\n" for e in events)


# ---------------------------------------------------------------- the samples


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_sample_is_legal_and_complete(path: Path) -> None:
    rec = record.load(path)
    game = replay(rec)
    assert game.violations == []
    assert set(rec.hands) == set(rec.players), "every sample has every Hand line"
    assert rec.info.get("Title")
    assert any(e.comment for e in rec.events), "samples explain their events"


def test_samples_cover_the_variants() -> None:
    recs = [record.load(p) for p in SAMPLES]
    assert {r.rules.deck_kind for r in recs} == set(DeckKind)
    assert {r.rules.rule_set for r in recs} == set(RuleSet)
    assert any(len(r.players) == 8 for r in recs)
    assert any(r.rules.bluffing for r in recs)
    assert any(r.rules.house for r in recs)
    assert any(replay(r).finished for r in recs)


def test_turn_and_counts_follow_the_events() -> None:
    game = play("run-out-and-pass")
    assert game.step(0).turn is None
    assert game.step(1).turn == "Dev" and game.step(1).counts["Anna"] == 5
    assert game.step(3).turn == "Ben"  # a failed ask hands the turn to the player asked
    assert game.step(8).turn == "Anna" and game.step(8).counts["Anna"] == 0  # a claim keeps the turn
    assert game.step(9).turn == "Cara"
    assert game.step(8).in_play == 48 - 6
    assert game.final.shown  # 9H, 10H are shown at Cara
    assert {c.code: p for c, p in game.final.shown.items()}["10H"] == "Cara"


def test_card_history() -> None:
    game = play("collect-four")
    deck = game.record.rules.deck
    h3 = game.history[deck.book("low-hearts").cards[1]]  # 3H
    assert h3.reveal == (1, "Dev")
    assert h3.moves == [(1, "Anna")]
    assert h3.claimed == 7
    assert h3.holder_at(0, "Dev") == "Dev" and h3.holder_at(1, "Dev") == "Anna"


# ---------------------------------------------------------------- scoring


def test_literature_wrong_split_in_the_team_is_forfeited() -> None:
    game = play("wrong-claim-forfeit")
    result = game.final.books["low-clubs"]
    assert (result.outcome, result.team, result.claimant, result.event) == (Outcome.FORFEITED, None, "Anna", 7)
    assert game.final.score == (0, 0)
    assert game.winner() is None


def test_literature_card_with_an_opponent_scores_for_them() -> None:
    game = play("wrong-claim-opponent")
    result = game.final.books["low-clubs"]
    assert (result.outcome, result.team) == (Outcome.WRONG, 2)
    assert game.final.score == (0, 1)
    assert game.winner() == 2


def test_fish_wrong_claim_gives_the_book_to_the_other_team() -> None:
    game = play("fish-rules")
    assert game.final.books["low-hearts"].outcome is Outcome.CORRECT
    result = game.final.books["high-clubs"]
    assert (result.outcome, result.team) == (Outcome.WRONG, 2)  # literature would forfeit this one
    assert game.final.score == (0, 2)
    same = record.loads(sample("fish-rules").replace("Rules: fish", "Rules: literature"))
    with pytest.raises(RuleBreak) as info:
        replay(same)
    assert info.value.code == "claim-turn"  # Fay's off-turn claim is not allowed under literature
    lenient = replay(same, lenient=True)
    assert lenient.final.books["high-clubs"].outcome is Outcome.FORFEITED


def test_high_double() -> None:
    game = play("no-7s")
    assert game.final.books["high-hearts"].points == 2
    assert game.final.books["low-diamonds"].points == 1
    assert game.final.score == (2, 1)
    plain = replay(record.loads(sample("no-7s").replace("House: high-double\n", "")))
    assert plain.final.score == (1, 1)
    assert plain.winner() is None


def test_complete_game_tie() -> None:
    game = play("team-out")
    assert game.finished
    assert game.final.score == (4, 4)
    assert game.winner() is None
    assert sum(game.final.counts.values()) == 0
    assert game.trusted_until == len(game.events)


def test_winner_of_a_complete_game() -> None:
    # Anna's split of the low spades made wrong: forfeited, so the other team wins 4 to 3.
    wrong = "21. Anna claims low-spades: Anna 5S 6S 7S, Ben 2S 3S 4S: correct"
    assert wrong in sample("team-out")
    rec = record.loads(
        sample("team-out").replace(
            wrong,
            "21. Anna claims low-spades: Anna 5S 6S, Ben 2S 3S 4S 7S: wrong; actual Anna 5S 6S 7S, Ben 2S 3S 4S",
        )
    )
    game = replay(rec)
    assert game.final.books["low-spades"].outcome is Outcome.FORFEITED
    assert game.final.score == (3, 4)
    assert game.winner() == 2


# ---------------------------------------------------------------- rule breaks

RUN_OUT = events_of("run-out-and-pass")
TEAM_OUT = events_of("team-out")
COLLECT = events_of("collect-four")
EIGHT = "Teams: Anna Ben Cara Gus vs Dev Eli Fay Hal\n"

BREAKS = [
    # (label, header, events; the last one breaks the rule, code)
    ("ask-teammate", DEAL, ["Anna asks Ben for 7H: no"], "ask-teammate"),
    ("ask-self", DEAL, ["Anna asks Anna for 7H: no"], "ask-teammate"),
    ("ask-out-of-turn", DEAL, ["Anna asks Dev for 3H: yes", "Ben asks Eli for 4H: no"], "not-on-turn"),
    ("ask-after-a-failed-ask", DEAL, ["Anna asks Dev for 4H: no", "Anna asks Eli for 4H: yes"], "not-on-turn"),
    ("ask-for-own-dealt-card", DEAL, ["Anna asks Dev for 2S: no"], "asks-own-card"),
    (
        "ask-for-own-shown-card",
        TEAMS,
        ["Anna asks Dev for 7S: yes", "Anna asks Eli for 7S: no"],
        "asks-own-card",
    ),
    ("ask-without-a-card-of-the-book", DEAL, ["Ben asks Dev for 10D: no"], "no-card-of-book"),
    ("ask-for-a-claimed-card", DEAL, [*COLLECT, "Ben asks Dev for 3H: no"], "claimed-card"),
    (
        "ask-a-player-with-no-cards",
        sample("run-out-and-pass").split("\n\n")[0] + "\n",
        [*RUN_OUT, "Hal asks Anna for 2H: no"],
        "target-empty",
    ),
    ("ask-with-no-cards", EIGHT, [*RUN_OUT[:8], "Anna asks Dev for 9H: yes"], "asker-empty"),
    ("yes-from-a-player-not-dealt-it", DEAL, ["Anna asks Dev for 4H: yes"], "yes-not-held"),
    (
        "yes-for-a-card-shown-elsewhere",
        TEAMS,
        ["Anna asks Dev for 7S: yes", "Anna asks Eli for 6S: no", "Eli asks Ben for 7S: yes"],
        "yes-not-held",
    ),
    ("no-from-a-player-who-holds-it", DEAL, ["Anna asks Dev for 3H: no"], "no-but-held"),
    (
        "claim-naming-an-opponent",
        DEAL,
        ["Anna claims low-hearts: Anna 2H 3H 4H 5H 6H, Dev 7H: correct"],
        "claim-opponent",
    ),
    ("claim-leaving-out-a-card", TEAMS, ["Anna claims low-hearts: Anna 2H 3H 4H 5H 6H: correct"], "claim-cards"),
    (
        "claim-naming-a-card-twice",
        TEAMS,
        ["Anna claims low-hearts: Anna 2H 3H 4H 5H 6H, Ben 7H 3H: correct"],
        "claim-cards",
    ),
    (
        "claim-naming-a-card-of-another-book",
        TEAMS,
        ["Anna claims low-hearts: Anna 2H 3H 4H 5H 6H 7H 9H: correct"],
        "claim-cards",
    ),
    (
        "wrong-claim-actual-leaves-out-a-card",
        TEAMS,
        ["Anna claims low-hearts: Anna 2H 3H 4H 5H 6H 7H: wrong; actual Anna 2H 3H 4H 5H 6H"],
        "claim-cards",
    ),
    (
        "claim-with-a-holder-who-was-not-dealt-it",
        DEAL,
        ["Anna claims low-hearts: Anna 2H 3H 4H 5H 6H, Ben 7H: correct"],
        "claim-holder",
    ),
    (
        "wrong-claim-that-was-right",
        TEAMS,
        ["Anna claims low-hearts: Anna 2H 3H 4H 5H 6H 7H: wrong; actual Anna 2H 3H 4H 5H 6H 7H"],
        "wrong-but-right",
    ),
    (
        "claim-out-of-turn",
        TEAMS,
        ["Anna asks Dev for 7S: no", "Anna claims low-spades: Anna 2S 3S 4S 5S 6S 7S: correct"],
        "claim-turn",
    ),
    (
        "claim-of-a-claimed-book",
        DEAL,
        [*COLLECT, "Ben claims low-hearts: Anna 2H 3H 4H 5H 6H, Ben 7H: correct"],
        "claimed-twice",
    ),
    (
        "claim-more-cards-than-held",
        EIGHT,
        [*RUN_OUT[:9], "Cara claims high-clubs: Anna 9C 10C JC QC KC AC: correct"],
        "claim-count",
    ),
    ("pass-with-cards", DEAL, ["Anna asks Dev for 3H: yes", "Anna passes to Ben"], "pass-with-cards"),
    ("pass-out-of-turn", DEAL, ["Anna asks Dev for 4H: no", "Anna passes to Ben"], "not-on-turn"),
    ("pass-to-an-opponent", EIGHT, [*RUN_OUT[:8], "Anna passes to Dev"], "pass-team"),
    ("pass-to-a-player-with-no-cards", EIGHT, [*RUN_OUT[:9], "Cara passes to Anna"], "pass-empty"),
    ("event-after-game-over", TEAMS, [*TEAM_OUT, "Anna passes to Ben"], "game-over"),
    ("ask-after-game-over", TEAMS, [*TEAM_OUT, "Anna asks Dev for 2S: no"], "game-over"),
    (
        "must-declare",
        TEAMS + "House: must-declare\nHand Anna: 2S 3S 4S 5S 6S 7S 9H 10H\n",
        ["Anna asks Dev for JH: no"],
        "must-declare",
    ),
    (
        "must-declare-after-collecting",
        TEAMS + "House: must-declare\n",
        [
            "Anna asks Dev for 2S: yes",
            "Anna asks Dev for 3S: yes",
            "Anna asks Eli for 4S: yes",
            "Anna asks Eli for 5S: yes",
            "Anna asks Fay for 6S: yes",
            "Anna asks Fay for 7S: yes",
            "Anna asks Fay for 9H: no",
        ],
        "must-declare",
    ),
]


@pytest.mark.parametrize(
    ("header", "events", "code"),
    [b[1:] for b in BREAKS],
    ids=[b[0] for b in BREAKS],
)
def test_rule_break(header: str, events: list[str], code: str) -> None:
    source = text(header, events)
    rec = record.loads(source, "game.fish")
    with pytest.raises(RuleBreak) as info:
        replay(rec)
    exc = info.value
    assert (exc.code, exc.event, exc.line) == (code, len(events), len(source.splitlines()))
    assert exc.exit_code == 1
    assert str(exc).startswith(f"game.fish:{exc.line}: ")
    # Every event before the break is legal.
    assert replay(record.loads(text(header, events[:-1]))).violations == []


@pytest.mark.parametrize(
    "header",
    [TEAMS.replace("Teams", "Rules: fish\nTeams"), TEAMS + "House: claim-any-time\n"],
    ids=["fish", "claim-any-time"],
)
def test_claim_out_of_turn_allowed(header: str) -> None:
    game = replay(
        record.loads(
            text(header, ["Anna asks Dev for 7S: no", "Anna claims low-spades: Anna 2S 3S 4S 5S 6S 7S: correct"])
        )
    )
    assert game.final.turn == "Dev"  # a claim does not move the turn
    assert game.final.score == (1, 0)


def test_the_other_team_claims_when_a_team_is_out() -> None:
    game = play("team-out")
    after = game.step(20)
    assert sum(after.counts[p] for p in ("Dev", "Eli", "Fay")) == 0
    assert after.turn == "Dev"
    claims = [e for e in game.events[20:] if isinstance(e, Claim)]
    assert [c.claimant for c in claims] == ["Anna", "Anna"]
    # ...but not the team that ran out.
    broken = record.loads(text(TEAMS, [*TEAM_OUT[:20], "Dev claims low-spades: Anna 5S 6S 7S, Ben 2S 3S 4S: correct"]))
    with pytest.raises(RuleBreak) as info:
        replay(broken)
    assert info.value.code == "claim-turn"


def test_next_asker_allows_a_pass_after_a_claim() -> None:
    game = play("stalemate-breaker")
    passes = [i for i, e in enumerate(game.events, start=1) if isinstance(e, Pass)]
    assert passes == [11]
    assert game.step(11).turn == "Ben" and game.step(11).counts["Cara"] > 0
    without = record.loads(sample("stalemate-breaker").replace("House: next-asker\n", ""))
    with pytest.raises(RuleBreak) as info:
        replay(without)
    assert (info.value.code, info.value.event) == ("pass-with-cards", 11)


def test_next_asker_lets_an_off_turn_claimant_take_the_turn_under_fish() -> None:
    header = "Rules: fish\nHouse: next-asker\n" + TEAMS
    events = [
        "Anna asks Dev for 3S: no",
        "Eli claims low-hearts: Eli 2H 3H 4H 5H 6H 7H: correct",
        "Eli passes to Eli",
        "Eli asks Anna for 9S: no",
    ]
    game = replay(record.loads(text(header, events)))
    assert game.step(2).turn == "Dev" and game.step(3).turn == "Eli"
    plain = record.loads(text("Rules: fish\n" + TEAMS, events))
    with pytest.raises(RuleBreak) as info:
        replay(plain)
    assert (info.value.code, info.value.event) == ("pass-team", 3)


def test_bluffing_allows_asking_for_your_own_card() -> None:
    game = play("bluffing")
    assert game.violations == []
    strict = record.loads(sample("bluffing").replace("Bluffing: yes\n", ""))
    with pytest.raises(RuleBreak) as info:
        replay(strict)
    assert (info.value.code, info.value.event) == ("asks-own-card", 1)


def test_bluffing_still_needs_a_card_of_the_book() -> None:
    rec = record.loads(text(DEAL.replace("Teams", "Bluffing: yes\nTeams"), ["Ben asks Dev for 10D: no"]))
    with pytest.raises(RuleBreak) as info:
        replay(rec)
    assert info.value.code == "no-card-of-book"


# ---------------------------------------------------------------- lenient reading


def test_lenient_reading_collects_every_break() -> None:
    events = [
        "Anna asks Dev for 3H: yes",
        "Anna asks Ben for 4H: no",  # a teammate
        "Dev asks Eli for 5H: no",  # out of turn (Ben's), and a teammate
        "Eli asks Anna for 2S: yes",  # out of turn (Eli has it by event 3), fine otherwise
        "Anna passes to Ben",  # out of turn and Anna has cards
    ]
    rec = record.loads(text(DEAL, events))
    with pytest.raises(RuleBreak) as info:
        replay(rec)
    assert (info.value.event, info.value.code) == (2, "ask-teammate")
    game = replay(rec, lenient=True)
    found = [(v.event, v.code) for v in game.violations]
    assert found == [(2, "ask-teammate"), (3, "not-on-turn"), (3, "ask-teammate"), (5, "not-on-turn")]
    assert [v.line for v in game.violations][:2] == [10, 11]  # events start on line 9
    assert all(v.player for v in game.violations)
    assert game.trusted_until == 1
    assert len(game.steps) == len(events) + 1
    assert game.final.turn == "Ben"


def test_lenient_reading_of_a_legal_record_trusts_everything() -> None:
    game = replay(record.loads(sample("lockout")), lenient=True)
    assert game.violations == []
    assert game.trusted_until == 15


def test_lenient_violations_name_the_player() -> None:
    header = TEAMS + "House: must-declare\nHand Anna: 2S 3S 4S 5S 6S 7S 9H 10H\n"
    game = replay(record.loads(text(header, ["Anna asks Dev for JH: no"])), lenient=True)
    assert [(v.code, v.player) for v in game.violations] == [("must-declare", "Anna")]


def without(name: str, numbers: set[int]) -> str:
    """A sample with the events of these numbers left out: each leaves a slip in the turn order."""
    keep = [line for line in sample(name).splitlines() if not any(line.startswith(f"{n}. ") for n in numbers)]
    return "\n".join(keep) + "\n"


def test_lenient_reading_does_not_snowball() -> None:
    # Two asks answered 'no' left out: the turn then looks wrong twice, and only twice (it used
    # to be eight times: each 'yes' after a slip left the turn with the player who lost it).
    rec = record.loads(without("simulated-game", {27, 48}), "slips.fish")
    game = replay(rec, lenient=True)
    # Events 28 and 49 as written are the 27th and 47th left.
    assert [(v.event, v.code) for v in game.violations] == [(27, "not-on-turn"), (47, "not-on-turn")]
    assert [v.line for v in game.violations] == [e.line for e in (rec.events[26], rec.events[46])]
    # The player who acted is taken to have had the turn, and breaks of the order of play alone
    # leave the cards trusted.
    assert game.step(27).turn == record.actor(rec.events[26])
    assert game.trusted_until == len(rec.events)


@pytest.mark.parametrize("name", ["simulated-game", "team-out"])
def test_each_slip_is_one_break(name: str) -> None:
    """Leaving out any one ask answered 'no' (the turn then looks wrong once) gives at most one break."""
    rec = record.loads(sample(name))
    for n, e in enumerate(rec.events, start=1):
        if isinstance(e, Ask) and not e.yes:
            game = replay(record.loads(without(name, {n})), lenient=True)
            assert len(game.violations) <= 1, (n, [(v.event, v.code) for v in game.violations])


def test_an_out_of_turn_claim_gives_the_claimant_the_turn() -> None:
    # The ask that gave Anna the turn is missing; she claims and asks on: one break.
    events = [
        "Dev asks Anna for 2S: no",
        "Ben claims low-hearts: Ben 2H 3H 4H 5H 6H 7H: correct",
        "Ben asks Dev for 9S: no",
    ]
    game = replay(record.loads(text(TEAMS, events)), lenient=True)
    assert [(v.event, v.code) for v in game.violations] == [(2, "claim-turn")]
    assert game.step(2).turn == "Ben"
