"""Bots that see only a player's view, tournaments of duplicate pairs, and the same run on a cluster."""

from __future__ import annotations

import gc
import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyzer import record as fish
from analyzer.bots import BotTable, BotView, IllegalMove, Move, RandomBot, play_deal, view_of
from analyzer.cards import DeckKind
from analyzer.replay import replay
from analyzer.rules import GameRules, RuleSet
from analyzer.tournament import duplicate_pairs, local_mapper, play_tournament, standings, wilson
from cli.app import app

runner = CliRunner()


def reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through references (what a bot could dig out of it)."""
    seen: dict[int, object] = {}
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen[id(obj)] = obj
        todo.extend(gc.get_referents(obj))
    return list(seen.values())


class PeekingBot:
    """Digs through everything its view can reach for the game, the deal or another hand; then plays at random."""

    name = "random"

    def __init__(self, table: BotTable, seat: int) -> None:
        self.table = table
        self.seat = seat
        self.found: list[object] = []
        self.inner = RandomBot(random.Random(seat))

    def move(self, view: BotView) -> Move:
        view.holders  # noqa: B018  (what the view computes may be searched too)
        view.game  # noqa: B018
        others = {p: h for p, h in self.table.dealt.items() if p != view.player}
        for obj in reachable(view):
            deal = obj is self.table or obj is self.table.holder or obj is self.table.dealt
            if deal or (
                isinstance(obj, dict) and any(k in others and obj[k] == others[k] for k in obj if isinstance(k, str))
            ):
                self.found.append(obj)
        return self.inner.move(view)


def test_a_view_holds_the_public_record_and_the_own_hand_only() -> None:
    table = BotTable(("random", "random"), 6, None, seed=4)
    peekers = [PeekingBot(table, p) for p in range(6)]
    table.seats = list(peekers)
    record = table.run(2000)
    assert replay(record).finished
    assert all(not p.found for p in peekers)
    view = view_of(table, 0)
    assert view.record().hands == {"Anna": table.dealt["Anna"]}
    # The check itself can fail: the table's own deal is reachable from the table.
    assert table.holder in reachable(table)


@pytest.mark.parametrize(
    ("bots", "players", "rules"),
    [
        (("simple", "random"), 6, GameRules()),
        (("counter", "random"), 6, GameRules()),
        (("counter", "random"), 8, GameRules(RuleSet.FISH, DeckKind.JOKERS)),
        (("simple", "counter"), 4, GameRules(RuleSet.FISH, bluffing=True)),
    ],
)
def test_bots_play_complete_legal_games(bots: tuple[str, str], players: int, rules: GameRules) -> None:
    record = play_deal(bots, players, rules, seed=11)
    game = replay(record)  # strict: every rule kept
    assert game.finished
    again = play_deal(bots, players, rules, seed=11)
    assert fish.dumps(again) == fish.dumps(record)  # a seed gives one game


def test_odds_bot_follows_suggest_for_its_first_moves() -> None:
    from analyzer.advice import suggest

    table = BotTable(("odds", "counter"), 4, None, seed=2)
    for _ in range(4):
        seat = table.turn
        view = view_of(table, seat)
        table.step()
        last = table.events[-1]
        if seat % 2 == 0 and isinstance(last, fish.Ask):
            best = suggest(view.game, view.player, view.at).asks[0]
            assert (last.target, last.card) == (best.target, best.card)
    assert replay(table.record).steps


def test_counter_asks_only_who_may_hold_the_card() -> None:
    table = BotTable(("counter", "counter"), 6, None, seed=5)
    for _ in range(30):
        if table.finished:
            break
        view = view_of(table, table.turn)
        move = table.seats[table.turn].move(view)
        if hasattr(move, "target"):
            assert move.target in view.holders[move.card]
        table.play(table.turn, move)


def test_an_illegal_move_is_refused() -> None:
    table = BotTable(("random", "random"), 6, None, seed=1)
    view = view_of(table, 0)
    card = next(c for c in table.rules.deck.cards if c not in view.hand)
    book = next(b for b in table.rules.deck.books if card in b.cards)
    from analyzer.bots import AskMove

    if not any(c in view.hand for c in book.cards):
        with pytest.raises(IllegalMove):
            table.play(0, AskMove("Dev", card))
    with pytest.raises(IllegalMove):
        table.play(0, AskMove("Ben", view.hand[0]))


def test_duplicate_pairs_deal_each_hand_twice_with_teams_swapped() -> None:
    specs = duplicate_pairs(("counter", "random"), 2, base_seed=7)
    assert [(s.seed, s.bots) for s in specs] == [
        (7, ("counter", "random")),
        (7, ("random", "counter")),
        (8, ("counter", "random")),
        (8, ("random", "counter")),
    ]
    a, b = (play_deal(s.bots, 6, None, s.seed) for s in specs[:2])
    assert a.hands == b.hands


def test_wilson_interval() -> None:
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(100, 100)
    assert high == 1.0 and round(low, 4) == 0.963


def test_tournament_writes_records_and_resumes(tmp_path: Path) -> None:
    specs = duplicate_pairs(("simple", "random"), 2, base_seed=3)
    first = play_tournament(specs, tmp_path, local_mapper(1))
    files = sorted(tmp_path.glob("*.fish"))
    assert len(files) == 4
    texts = {f.name: f.read_text() for f in files}
    for f in files:
        assert replay(fish.load(f)).finished
    files[1].unlink()
    with pytest.raises(FileExistsError):
        play_tournament(specs, tmp_path, local_mapper(1))
    again = play_tournament(specs, tmp_path, local_mapper(1), resume=True)
    assert again == first
    assert {f.name: f.read_text() for f in sorted(tmp_path.glob("*.fish"))} == texts
    table = {s.bot: s for s in standings(first)}
    assert table["simple"].games == table["random"].games == 4
    assert table["simple"].wins + table["random"].wins + table["simple"].draws == 4
    assert table["simple"].elo + table["random"].elo == pytest.approx(3000)


def test_tournament_command_json(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["tournament", "--bots", "simple,random", "--games", "2", "--out", str(tmp_path), "-j", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 4 and {s["bot"] for s in data["standings"]} == {"simple", "random"}
    again = runner.invoke(app, ["tournament", "--bots", "simple,random", "--games", "2", "--out", str(tmp_path)])
    assert again.exit_code == 2 and "--resume" in again.output
    bad = runner.invoke(app, ["tournament", "--bots", "simple,wizard", "--out", str(tmp_path)])
    assert bad.exit_code == 2 and "wizard" in bad.output
    record = tmp_path / "game.fish"
    record.write_text("Teams: A B C vs D E F\n")
    onto = runner.invoke(app, ["tournament", "--bots", "simple,random", "--games", "1", "--out", str(record)])
    assert onto.exit_code == 2 and f"{record}: is a file, not a folder" in onto.output


def test_simulate_seats_bots_by_team() -> None:
    result = runner.invoke(app, ["simulate", "--bots", "counter,random", "--seed", "3"])
    assert result.exit_code == 0, result.output
    record = fish.loads(result.stdout)
    assert dict(record.extra)["X-Bots"] == "counter vs random"
    assert replay(record).finished


@pytest.mark.cluster
def test_tournament_on_a_local_cluster_matches_the_single_machine_run(tmp_path: Path) -> None:
    args = ["tournament", "--bots", "simple,random", "--games", "2", "--json"]
    here = runner.invoke(app, [*args, "-j", "1", "--out", str(tmp_path / "here")])
    there = runner.invoke(app, [*args, "-j", "2", "--out", str(tmp_path / "there"), "--cluster", "local"])
    assert here.exit_code == 0 and there.exit_code == 0, there.output
    assert json.loads(here.stdout) == json.loads(there.stdout)
    names = sorted(p.name for p in (tmp_path / "here").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "there").iterdir())
    for name in names:
        assert (tmp_path / "here" / name).read_text() == (tmp_path / "there" / name).read_text()


@pytest.mark.slow
@pytest.mark.parametrize("bots", [("odds", "counter"), ("counter", "odds")])
def test_odds_bot_plays_complete_legal_games(bots: tuple[str, str]) -> None:
    record = play_deal(bots, 6, None, seed=0)
    assert replay(record).finished


@pytest.mark.cluster
def test_batch_on_a_local_cluster_matches_the_single_machine_run(tmp_path: Path) -> None:
    from analyzer.batch import run_batch

    games = tmp_path / "games"
    play_tournament(duplicate_pairs(("simple", "random"), 1, base_seed=5), games, local_mapper(1))
    run_batch(games, tmp_path / "here", 1)
    there = runner.invoke(app, ["batch", str(games), "--out", str(tmp_path / "there"), "-j", "2", "--cluster", "local"])
    assert there.exit_code == 0, there.output
    for name in ("games.csv", "players.csv", "summary.md"):
        assert (tmp_path / "here" / name).read_text() == (tmp_path / "there" / name).read_text()


def test_mistake_costs_follow_each_book_s_fate(tmp_path: Path) -> None:
    from analyzer.analysis import analyze
    from analyzer.mistake_cost import BASELINE, measure, record_costs
    from analyzer.tactics import mistakes

    play_tournament(duplicate_pairs(("simple", "random"), 1, base_seed=9), tmp_path, local_mapper(1))
    paths = sorted(tmp_path.glob("*.fish"))
    by_hand: dict[str, list[int]] = {}
    for path in paths:
        game = replay(fish.load(path))
        for m in mistakes(analyze(game)).mistakes:
            if m.book is not None and m.book in game.final.books:
                lost = game.final.books[m.book].team != game.record.table.team_of(m.player)
                by_hand.setdefault(m.kind, []).append(int(lost))
        costs = record_costs(path)
        assert costs[BASELINE].mistakes == 2 * len(game.final.books)
    total = {c.kind: c for c in measure(paths)}
    assert by_hand, "these games have mistakes about books"
    for kind, lost in by_hand.items():
        assert (total[kind].mistakes, total[kind].lost) == (len(lost), sum(lost))
        assert total[kind].points == pytest.approx(sum(lost) / len(lost))  # a standard book is worth 1
    result = runner.invoke(app, ["mistake-costs", str(tmp_path), "--json", "-j", "1"])
    assert result.exit_code == 0, result.output
    rows = {r["kind"]: r for r in json.loads(result.stdout)["costs"]}
    assert {k: r["n"] for k, r in rows.items() if k != BASELINE} == {k: len(v) for k, v in by_hand.items()}
    # A record that cannot be read is left out and named; the others are still measured.
    (tmp_path / "broken.fish").write_text(
        "Title: broken\nTeams: Anna Ben Cara vs Dev Eli Fay\n\n1. Anna asks Zed for 7S: no\n"
    )
    result = runner.invoke(app, ["mistake-costs", str(tmp_path), "--json", "-j", "1"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["records"] == len(paths) and len(data["skipped"]) == 1
    assert data["skipped"][0].startswith(f"{tmp_path / 'broken.fish'}:4:")
    assert {r["kind"]: r for r in data["costs"]} == rows
    assert "broken.fish:4:" in result.stderr and "(left out)" in result.stderr
