"""Simulated games: legal under every variant, complete, deterministic, varied, and round-trip."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import record as fish
from analyzer.cards import DeckKind
from analyzer.record import Ask, Claim, Pass, Record
from analyzer.replay import Game, replay
from analyzer.rules import GameRules, HouseRule, Outcome, RuleSet, deal_sizes
from analyzer.simulate import Simulation, Style, simulate

SEEDS = st.integers(0, 10**6)
FEW = settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])

VARIANTS: list[dict[str, object]] = [
    dict(players=p, deck=d, rule_set=r, bluffing=b)
    for p in (4, 6, 8)
    for d in DeckKind
    for r in RuleSet
    for b in (False, True)
]
HOUSES: list[dict[str, object]] = [
    dict(players=6, rule_set=r, house=frozenset(h))
    for r in RuleSet
    for h in [*({x} for x in HouseRule), set(HouseRule)]
]


def _id(variant: dict[str, object]) -> str:
    parts = []
    for v in variant.values():
        if isinstance(v, frozenset):
            parts.append("+".join(sorted(h.value for h in v)))
        elif isinstance(v, bool):
            parts.append("bluff" if v else "honest")
        else:
            parts.append(str(getattr(v, "value", v)))
    return "-".join(parts)


def check_game(record: Record) -> Game:
    """Everything a simulated game promises, whatever the variant."""
    game = replay(record)  # strict: a rule break raises
    assert game.finished
    assert len(record.events) < 1000  # far from the safety cap
    text = fish.dumps(record)
    assert fish.dumps(fish.loads(text)) == text
    # Every hand is written down, in seat order, with the sizes of the deal, the whole deck dealt.
    assert list(record.hands) == list(record.players)
    sizes = deal_sizes(len(record.rules.deck.cards), len(record.players))
    assert [len(h) for h in record.hands.values()] == list(sizes)
    assert sorted(c.code for h in record.hands.values() for c in h) == sorted(c.code for c in record.rules.deck.cards)
    # The first seat has the first turn: it makes the first ask or pass.
    first = next(e for e in record.events if not isinstance(e, Claim))
    assert (first.asker if isinstance(first, Ask) else first.player) == record.players[0]
    # Every book is scored once, by one team or by nobody when forfeited.
    books = game.final.books.values()
    points = sum(record.rules.points(b.book) for b in books if b.outcome is not Outcome.FORFEITED)
    assert sum(game.final.score) == points
    if HouseRule.HIGH_DOUBLE not in record.rules.house:
        forfeits = sum(b.outcome is Outcome.FORFEITED for b in books)
        assert sum(game.final.score) == len(record.rules.deck.books) - forfeits
    return game


@pytest.mark.parametrize("variant", VARIANTS + HOUSES, ids=_id)
@FEW
@given(seed=SEEDS)
def test_games_are_legal_complete_and_deterministic(variant: dict[str, object], seed: int) -> None:
    record = simulate(seed=seed, **variant)  # type: ignore[arg-type]
    check_game(record)
    assert record.info == {"Title": f"simulated game {seed}"}
    assert fish.dumps(simulate(seed=seed, **variant)) == fish.dumps(record)  # type: ignore[arg-type]


def test_seeds_give_different_games() -> None:
    texts = {fish.dumps(simulate(seed=seed)) for seed in range(10)}
    assert len(texts) == 10


@pytest.mark.parametrize("players", [4, 6, 8])
def test_teams_and_seats(players: int) -> None:
    record = simulate(players)
    side = players // 2
    assert record.table.teams == (("Anna", "Ben", "Cara", "Gus")[:side], ("Dev", "Eli", "Fay", "Hal")[:side])
    assert record.players[:2] == ("Anna", "Dev")


@pytest.mark.parametrize("players", [3, 5, 10])
def test_other_table_sizes_are_refused(players: int) -> None:
    with pytest.raises(ValueError, match="4, 6 or 8"):
        simulate(players)


def test_the_cap_leaves_a_legal_unfinished_game() -> None:
    record = simulate(8, seed=3, max_events=25)
    assert len(record.events) == 25
    game = replay(record)
    assert not game.finished


def _kinds(record: Record, game: Game) -> Counter[str]:
    """What happened in a game, by kind."""
    seen: Counter[str] = Counter()
    table = record.table
    holder = {c: p for p, cards in record.hands.items() for c in cards}
    for i, e in enumerate(record.events):
        before = game.steps[i]
        if isinstance(e, Ask):
            seen["failed ask" if not e.yes else "ask"] += 1
            if holder[e.card] == e.asker:
                seen["bluff"] += 1
            if e.yes:
                holder[e.card] = e.asker
        elif isinstance(e, Pass):
            seen["pass with cards" if before.counts[e.player] else "pass"] += 1
        else:
            outcome = game.steps[i + 1].books[e.book.name].outcome
            seen[outcome.value] += 1
            if any(sum(before.counts[p] for p in team) == 0 for team in table.teams):
                seen["team out"] += 1
    return seen


VARIED: list[dict[str, object]] = [
    dict(players=6),
    dict(players=8),
    dict(players=6, rule_set=RuleSet.FISH),
    dict(players=8, deck=DeckKind.JOKERS, bluffing=True),
    dict(players=6, rule_set=RuleSet.FISH, house=frozenset({HouseRule.NEXT_ASKER})),
]


@pytest.mark.parametrize("variant", VARIED, ids=_id)
def test_games_show_variety(variant: dict[str, object]) -> None:
    seen: Counter[str] = Counter()
    games_with: Counter[str] = Counter()
    for seed in range(24):
        record = simulate(seed=seed, **variant)  # type: ignore[arg-type]
        kinds = _kinds(record, replay(record))
        seen.update(kinds)
        games_with.update(kinds.keys())
    rules = record.rules
    assert games_with["failed ask"] == 24
    assert games_with["team out"] >= 16
    assert games_with["pass"] >= 8
    assert games_with["wrong"] >= 4
    # Most claims are sure ones: the bots play sensibly (bluffs leave them less sure).
    assert seen["correct"] > (1 if rules.bluffing else 3) * (seen["wrong"] + seen["forfeited"])
    if rules.rule_set is RuleSet.LITERATURE:
        assert games_with["forfeited"] >= 3
    else:
        assert seen["forfeited"] == 0
    assert (seen["bluff"] > 0) == rules.bluffing
    assert (seen["pass with cards"] > 0) == rules.next_asker


@pytest.mark.parametrize(
    ("players", "rules"),
    [(6, GameRules()), (8, GameRules(RuleSet.FISH, DeckKind.JOKERS, bluffing=True)), (4, GameRules())],
)
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS)
def test_bots_know_only_what_is_true(players: int, rules: GameRules, seed: int) -> None:
    """The true holder of every card in play is always among those a bot allows, and any
    card a bot is sure of is where it thinks."""
    sim = Simulation(players, rules, seed)
    while not sim.finished:
        sim.step()
        for bot in sim.bots:
            sure = bot.sure()
            for card, holder in enumerate(sim.holder):
                if holder < 0:
                    continue
                assert bot.possible[holder] >> card & 1
                assert all(not m >> card & 1 for p, m in enumerate(sure) if p != holder)


# Every house rule alone and all at once, under both rule sets; the decks and bluffing in turn.
TURN_VARIANTS: list[GameRules] = [
    GameRules(r, list(DeckKind)[i % len(DeckKind)], i % 3 == 0, frozenset(h))
    for i, (r, h) in enumerate((r, h) for r in RuleSet for h in [set(), *({x} for x in HouseRule), set(HouseRule)])
]


@pytest.mark.parametrize("rules", TURN_VARIANTS, ids=lambda r: f"{r.rule_set.value}-{r.house_text or 'plain'}")
def test_the_simulator_takes_its_turns_from_the_rules(rules: GameRules) -> None:
    """After every event the simulator's state of play (whose turn, card counts, books claimed,
    the last claimant) is the replay's, ``Game.play_state``: one rule of who may act. Before
    anyone has had the turn the simulator gives it to the first seat, where the replay, which
    names no dealer, waits for whoever acts first."""
    for seed in range(3):
        for players in (4, 6, 8):
            style = Style.PROBING if seed == 2 else Style.STANDARD
            sim = Simulation(players, rules, seed, style)
            states = [sim.state()]
            while not sim.finished:
                sim.step()
                states.append(sim.state())
            game = replay(sim.record)
            assert len(states) == len(game.steps)
            for k, state in enumerate(states):
                expected = game.play_state(k)
                if game.steps[k].turn is None:
                    expected = replace(expected, turn=sim.names[0])
                assert state == expected, (seed, players, k)
