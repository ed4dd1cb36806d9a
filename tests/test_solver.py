"""Exactness of the holders: the shared expected answers, an independent oracle, and sweeps."""

from __future__ import annotations

import random
import re

import networkx as nx
import pytest

from analyzer import record as fish
from analyzer.analysis import analyze, solve_position
from analyzer.cards import DeckKind, parse_card
from analyzer.errors import Contradiction
from analyzer.knowledge import PUBLIC, ViewTracker, position
from analyzer.replay import replay
from analyzer.rules import HouseRule, RuleSet
from analyzer.simulate import simulate
from analyzer.solver import NoFit, _solve_classes, solve, strong_components
from analyzer.tactics import claimable, threats

from .fixtures import SHARED, committed_json
from .oracle import deal_count_bound, location_after, oracle_holders

# A copy of the shared simulated records and their independently computed answers.
EXPECTED = committed_json(SHARED / "expected.json")


def _views() -> list[tuple[str, dict[str, object]]]:
    return [(name, v) for name, d in EXPECTED.items() for v in d["views"]]


@pytest.mark.parametrize(("name", "row"), _views(), ids=lambda x: x if isinstance(x, str) else f"{x['as']}@{x['at']}")
def test_expected_holders_and_claimable(name: str, row: dict[str, object]) -> None:
    game = replay(fish.load(SHARED / name))
    view, at = str(row["as"]), int(str(row["at"]))
    _, holders = solve_position(ViewTracker(game, view), at)
    assert {c.code: sorted(h) for c, h in holders.items()} == row["holders"]
    # Holders come out in seat order, as the spec's contract says.
    seats = game.record.players
    assert all(list(h) == sorted(h, key=seats.index) for h in holders.values())
    got = sorted([c.book.name, c.team - 1] for c in claimable(game, holders, view))  # the file counts teams from 0
    assert got == sorted(row["claimable"])  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_expected_threats(name: str) -> None:
    game = replay(fish.load(SHARED / name))
    row = EXPECTED[name]["threats"]
    result = analyze(game, upto=row["at"])
    got = {p: None if bs is None else sorted(b.name for b in bs) for p, bs in threats(result, row["at"]).items()}
    assert got == {p: None if bs is None else sorted(bs) for p, bs in row["by"].items()}


# ------------------------------------------------------------ the oracle on small positions

VARIANTS = [
    dict(players=4, deck=DeckKind.STANDARD),
    dict(players=4, deck=DeckKind.RANKS),
    dict(players=4, deck=DeckKind.NO_2S, bluffing=True),
    dict(players=6, deck=DeckKind.STANDARD),
    dict(players=6, deck=DeckKind.JOKERS, rule_set=RuleSet.FISH),
    dict(players=6, deck=DeckKind.NO_7S, house=frozenset({HouseRule.MUST_DECLARE})),
    dict(players=8, deck=DeckKind.STANDARD, bluffing=True),
    dict(players=8, deck=DeckKind.RANKS, rule_set=RuleSet.FISH),
]


def _small_views(variant: dict[str, object], seed: int, limit: int = 400, per_game: int = 3) -> list[tuple[str, int]]:
    record = simulate(seed=seed, **variant)  # type: ignore[arg-type]
    views = [PUBLIC, *record.hands]
    rng = random.Random(seed)
    found = []
    for at in range(len(record.events), 0, -1):
        for view in views:
            if 1 < deal_count_bound(record, at, view) <= limit:
                found.append((view, at))
    rng.shuffle(found)
    return found[:per_game]


@pytest.mark.parametrize(
    "variant", VARIANTS, ids=lambda v: "-".join(str(x.value if hasattr(x, "value") else x) for x in v.values())
)
def test_holders_equal_the_oracle(variant: dict[str, object]) -> None:
    checked = 0
    for seed in range(12):
        record = simulate(seed=seed, **variant)  # type: ignore[arg-type]
        game = replay(record)
        for view, at in _small_views(variant, seed):
            expected, deals = oracle_holders(record, at, view)
            assert deals > 0, "the true deal always fits"
            got = solve(position(game, at, view)).holders
            assert {c: set(h) for c, h in got.items()} == expected, (seed, view, at)
            checked += 1
    assert checked >= 5


# ------------------------------------------------------------ soundness sweep over many games

ALL_VARIANTS = [
    dict(players=p, deck=d, rule_set=r, bluffing=b)
    for p in (4, 6, 8)
    for d in DeckKind
    for r in RuleSet
    for b in (False, True)
]


def _sweep(games: int, every: int) -> int:
    checked = 0
    for seed in range(games):
        variant = ALL_VARIANTS[seed % len(ALL_VARIANTS)]
        record = simulate(seed=seed, **variant)  # type: ignore[arg-type]
        truth_deal = {c: p for p, cards in record.hands.items() for c in cards}
        game = replay(record)
        result = analyze(game)
        for at in range(0, len(game.events) + 1, every):
            truth = location_after(record, truth_deal, at)
            for view, va in result.views.items():
                for card, holders in va.at(at).items():
                    assert truth[card] in holders, (seed, view, at, card)
                checked += 1
    return checked


def test_soundness_sweep_quick() -> None:
    assert _sweep(games=24, every=7) > 1000


@pytest.mark.slow
def test_soundness_sweep_300_games() -> None:
    """The true holder is always listed (so every known card is right), in every view and step."""
    assert _sweep(games=360, every=1) > 100_000


# ------------------------------------------------------------ the deductions of the rules texts

SIX_AND_SEVEN = """\
Title: B asks for the 7, C asks for the 6
Rules: literature
Deck: standard
Teams: Anna Ben Cara vs Dev Eli Fay
Hand Anna: 2C 3C 4C 5C 10H JH QH KH
Hand Dev: 9H AH 4H 5H 6H 7H 2D 3D
Hand Ben: 6C 2S 3S 4S 5S 6S 7S 9S
Hand Eli: 4D 5D 6D 7D 9D 10D JD QD
Hand Cara: 7C 10S JS QS KS AS 2H 3H
Hand Fay: KD AD 9C 10C JC QC KC AC

1. Anna asks Eli for 9H: no
2. Eli asks Ben for 2D: no
3. Ben asks Eli for 7C: no
4. Eli asks Cara for 3D: no
5. Cara asks Fay for 6C: no
6. Fay asks Anna for 9D: no
7. Anna claims low-clubs: Anna 2C 3C 4C 5C, Ben 6C, Cara 7C: correct
"""

COLLECT_FOUR = """\
Title: a teammate collects four
Rules: literature
Deck: standard
Teams: Anna Ben Cara vs Dev Eli Fay
Hand Anna: 2S 9H 10H JH QH KH AH 9C
Hand Dev: 3S 4S 2H 3H 4H 5H 6H 7H
Hand Ben: 7S 2D 3D 4D 5D 6D 7D 10C
Hand Eli: 5S 9D 10D JD QD KD AD JC
Hand Cara: 9S 10S JS QS KS AS QC KC
Hand Fay: 6S 2C 3C 4C 5C 6C 7C AC

1. Anna asks Dev for 10C: no
2. Dev asks Ben for 5S: no
3. Ben asks Dev for 3S: yes
4. Ben asks Dev for 4S: yes
5. Ben asks Eli for 5S: yes
6. Ben asks Fay for 6S: yes
7. Ben asks Fay for 9C: no
"""


def _holders(text: str, at: int, view: str) -> dict[str, tuple[str, ...]]:
    game = replay(fish.loads(text))
    return {c.code: h for c, h in solve(position(game, at, view)).holders.items()}


def test_b_asks_for_the_seven_c_asks_for_the_six() -> None:
    before = _holders(SIX_AND_SEVEN, 2, "Anna")
    assert before["6C"] == ("Dev", "Ben", "Eli", "Cara", "Fay")
    after = _holders(SIX_AND_SEVEN, 5, "Anna")
    assert after["6C"] == ("Ben",) and after["7C"] == ("Cara",)
    game = replay(fish.loads(SIX_AND_SEVEN))
    holders = solve(position(game, 5, "Anna")).holders
    found = claimable(game, holders, "Anna")
    assert [c.book.name for c in found] == ["low-clubs"]
    assert found[0].declaration("Anna") == "Claim low clubs: I have 2♣ 3♣ 4♣ 5♣, Ben has 6♣, Cara has 7♣"
    # The public does not know Anna's clubs, so it cannot place them.
    public = _holders(SIX_AND_SEVEN, 5, PUBLIC)
    assert len(public["6C"]) > 1


def test_a_teammate_collecting_four_holds_the_fifth() -> None:
    # Anna holds 2S; Ben took 3S-6S from opponents, so the low spade he asked with is 7S.
    holders = _holders(COLLECT_FOUR, 6, "Anna")
    assert holders["7S"] == ("Ben",)
    game = replay(fish.loads(COLLECT_FOUR))
    found = claimable(game, solve(position(game, 6, "Anna")).holders, "Anna")
    assert "low-spades" in [c.book.name for c in found]
    before = claimable(game, solve(position(game, 2, "Anna")).holders, "Anna")
    assert "low-spades" not in [c.book.name for c in before]
    # Before Ben's first ask, 7S could be anywhere but with Anna.
    assert _holders(COLLECT_FOUR, 2, "Anna")["7S"] == ("Dev", "Ben", "Eli", "Cara", "Fay")
    # The public cannot tell: Ben asked with 2S or 7S, and it does not know Anna holds 2S.
    public = _holders(COLLECT_FOUR, 6, PUBLIC)
    assert "Ben" in public["7S"] and len(public["7S"]) > 1
    assert "Ben" in public["2S"] and len(public["2S"]) > 1


def test_answers_rule_players_out() -> None:
    holders = _holders(SIX_AND_SEVEN, 1, PUBLIC)
    assert "Eli" not in holders["9H"] and "Anna" not in holders["9H"]


# ------------------------------------------------------------ contradictions


def test_contradiction_names_the_first_event_after_which_nothing_fits() -> None:
    # Ben answers no for 7C at event 2 but gives it at event 4.
    text = COLLECT_FOUR.split("\n1.")[0].replace("Title: a teammate collects four", "Title: broken")
    text += "\n1. Anna asks Dev for 10C: no\n2. Dev asks Ben for 7S: no\n3. Ben asks Dev for 3S: yes\n"
    record = fish.loads(text)
    record.hands = {}
    game = replay(record)
    tracker = ViewTracker(game, PUBLIC)
    _, holders = solve_position(tracker, 3)
    assert "Ben" not in holders[parse_card("7S")]
    # Now a claim shows 7S with Ben, who said no to it at event 2 and never got it.
    claim = "4. Ben claims low-spades: Anna 2S, Ben 3S 7S, Cara 4S 5S 6S: wrong; actual Anna 2S, Ben 3S 7S, Dev 4S, Eli 5S, Fay 6S\n"
    record = fish.loads(text + claim)
    record.hands = {}
    game = replay(record, lenient=True)
    with pytest.raises(Contradiction) as info:
        solve_position(ViewTracker(game, PUBLIC), 4)
    assert info.value.event == 4
    assert info.value.line == record.events[3].line
    assert "7♠" in info.value.message


def test_counting_contradiction_is_explained() -> None:
    record = fish.loads(COLLECT_FOUR)
    record.hands = {}
    game = replay(record)
    pos = position(game, 6, PUBLIC)
    pos.slots["Ben"] = 0
    pos.slots["Anna"] += 1
    with pytest.raises(NoFit) as info:
        solve(pos)
    assert "Ben" in info.value.why


def test_a_counting_contradiction_says_what_is_true() -> None:
    """The words of a counting contradiction, "N unseen cards can only be with X or Y, who have
    room for M" (or, when they are every player, "N unseen cards have room for only M in the
    players' hands"), are true: on random classes of cards and rooms that do not fit, the
    players named have room for M in all, at least N cards may go to no one else, and N > M;
    the names come in seat order. It once left out the classes the search met without going
    through them ("6 unseen cards can only be with A or B, who have room for 6", where 7 could)."""
    rng = random.Random(11)
    said = {"some": 0, "all": 0}
    for _ in range(3000):
        seats = ("D", "B", "A", "C")[: rng.randint(2, 4)]
        sizes: dict[tuple[str, tuple[str, ...], tuple[()]], int] = {}
        for _ in range(rng.randint(1, 5)):
            who = tuple(p for p in seats if rng.random() < 0.5) or (seats[0],)
            sizes[("", who, ())] = sizes.get(("", who, ()), 0) + rng.randint(1, 4)
        rooms = {p: rng.randint(0, 5) for p in seats}
        try:
            _solve_classes(
                tuple(sorted(sizes.items())), tuple(sorted(((p, ""), n) for p, n in rooms.items())), seats=seats
            )
        except NoFit as exc:
            some = re.fullmatch(r"(\d+) unseen cards? can only be with (.+), who ha(?:s|ve) room for (\d+)", exc.why)
            every = re.fullmatch(r"(\d+) unseen cards? ha(?:s|ve) room for only (\d+) in the players' hands", exc.why)
            if some is not None:
                cards, names, room = int(some[1]), re.findall(r"[A-D]", some[2]), int(some[3])
                assert names == [p for p in seats if p in names] and set(names) != set(seats), exc.why
                said["some"] += 1
            else:
                assert every is not None, exc.why
                cards, names, room = int(every[1]), list(seats), int(every[2])
                said["all"] += 1
            assert sum(rooms[p] for p in names) == room, exc.why
            assert sum(n for (_, who, _), n in sizes.items() if set(who) <= set(names)) >= cards > room, exc.why
    assert min(said.values()) > 100, said


def test_a_counting_contradiction_says_which_owed_cards_it_sets_aside() -> None:
    """Ann owes a low spade she cannot hold: the three hearts and 2♠ have room for only 3 of
    the hands' 4 places, once Ann's place for the low spade is set aside (it once said "room for
    only 3 in the players' hands" alone, where the hands have room for 4)."""
    sizes = ((("", ("Ann", "Ben"), ()), 3), (("low-spades", ("Ben",), ()), 1))
    capacity = ((("Ann", ""), 1), (("Ann", "low-spades"), 1), (("Ben", ""), 2))
    with pytest.raises(NoFit) as info:
        _solve_classes(sizes, capacity, seats=("Ann", "Ben"))
    assert info.value.why == (
        "4 unseen cards have room for only 3 in the players' hands once the cards they owe to the low spades are"
        " set aside"
    )


def test_strong_components_match_networkx() -> None:
    rng = random.Random(7)
    for _ in range(50):
        n = rng.randint(1, 30)
        succ: dict[object, list[object]] = {i: [j for j in range(n) if rng.random() < 0.08] for i in range(n)}
        ours = strong_components(succ)
        graph: nx.DiGraph[object] = nx.DiGraph()
        graph.add_nodes_from(range(n))
        graph.add_edges_from((i, j) for i, js in succ.items() for j in js)
        theirs = {frozenset(c) for c in nx.strongly_connected_components(graph)}
        groups: dict[int, set[object]] = {}
        for node, k in ours.items():
            groups.setdefault(k, set()).add(node)
        assert {frozenset(g) for g in groups.values()} == theirs


def test_flow_reference_agrees_on_shared_views() -> None:
    """A second method: force each (card, player) pair and ask networkx's max flow if it fits."""
    game = replay(fish.load(SHARED / "g208.fish"))
    for at in (10, 20, 30):
        pos = position(game, at, PUBLIC)
        ours = solve(pos).holders
        for card, allowed in pos.allowed.items():
            feasible = {p for p in allowed if _flow_fits(pos, card, p)}
            assert set(ours[card]) == feasible


def _flow_fits(pos: object, card: object, player: str) -> bool:
    from analyzer.knowledge import Position

    assert isinstance(pos, Position)
    graph: nx.DiGraph[object] = nx.DiGraph()
    demand = 0
    for c, ps in pos.allowed.items():
        graph.add_edge("s", c, capacity=1)
        for p in ps if c != card else (player,):
            if p in ps:
                graph.add_edge(c, ("pb", p, pos.deck.book_of(c).name), capacity=1)
        demand += 1
    required = {(r.player, r.book.name) for r in pos.at_least}
    for p in pos.players:
        reserved = [b.name for b in pos.deck.books if (p, b.name) in required]
        graph.add_edge(("p", p), "t", capacity=pos.slots[p] - len(reserved))
        for b in pos.deck.books:
            node = ("pb", p, b.name)
            if node not in graph:
                continue
            if (p, b.name) in required:
                graph.add_edge(node, ("r", p, b.name), capacity=1)
                graph.add_edge(("r", p, b.name), "t", capacity=1)
                graph.add_edge(node, ("p", p), capacity=len(b.cards))
            else:
                graph.add_edge(node, ("p", p), capacity=len(b.cards))
    if any(pos.slots[p] < sum(1 for r in pos.at_least if r.player == p) for p in pos.players):
        return False
    value: int = nx.maximum_flow_value(graph, "s", "t")
    return value == demand
