"""Tournaments, the cost of a mistake, and the commands around them, as a user runs them."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app

runner = CliRunner()


def test_resuming_with_other_options_is_refused(tmp_path: Path) -> None:
    # A game's file name says only its seed and bots: resuming with --players 8 or another deck
    # counted the 6-player standard games already written as games of the new tournament.
    args = ["tournament", "--bots", "simple,random", "--games", "1", "--out", str(tmp_path), "-j", "1"]
    assert runner.invoke(app, args).exit_code == 0
    for other in (["--players", "8"], ["--deck", "jokers"], ["--rules", "fish"], ["--house", "high-double"]):
        result = runner.invoke(app, [*args, "--resume", *other])
        assert result.exit_code == 2, (other, result.output)
        assert "was played with 6 players, standard deck, literature rules, not" in result.output
    assert runner.invoke(app, [*args, "--resume"]).exit_code == 0


def test_a_folder_with_other_records_is_refused(tmp_path: Path) -> None:
    """Resumed with other bots, a tournament's games went in beside the first's; pointed at a
    club's folder, among its records (and batch then read both as one lot). Both are refused."""
    args = ["tournament", "--bots", "simple,random", "--games", "1", "--out", str(tmp_path)]
    assert runner.invoke(app, args).exit_code == 0
    other = runner.invoke(
        app, ["tournament", "--bots", "counter,random", "--games", "1", "--out", str(tmp_path), "--resume"]
    )
    assert other.exit_code == 2 and "is not a game of this tournament (counter vs random)" in other.output
    club = tmp_path / "club"
    club.mkdir()
    (club / "friday.fish").write_text("Rules: literature\n")
    result = runner.invoke(app, ["tournament", "--bots", "simple,random", "--games", "1", "--out", str(club)])
    assert result.exit_code == 2 and "friday.fish is not a game of this tournament" in result.output
    assert sorted(p.name for p in club.iterdir()) == ["friday.fish"]


def test_a_bot_against_itself_says_how_its_games_are_counted(tmp_path: Path) -> None:
    args = ["tournament", "--bots", "simple,simple", "--games", "2", "--out", str(tmp_path)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0 and "simple against itself: 2 games, each counted for both teams" in result.output


def test_bench_refuses_no_games() -> None:
    # With no game to time, the table's medians raised StatisticsError with a traceback.
    result = runner.invoke(app, ["bench", "--games", "0", "--no-cpsat"])
    assert result.exit_code == 2 and "--games" in result.output


def test_one_pair_and_one_record_are_said_in_the_singular(tmp_path: Path) -> None:
    result = runner.invoke(app, ["tournament", "--bots", "simple,random", "--games", "1", "--out", str(tmp_path)])
    assert result.exit_code == 0 and "simple vs random: 1 duplicate pair, 2 games" in result.output
    result = runner.invoke(app, ["mistake-costs", str(tmp_path), "--limit", "1", "-j", "1"])
    assert result.exit_code == 0 and "The cost of a mistake, over 1 record\n" in result.output
    assert "│ wrong claim " in result.output and "wrong-claim" not in result.output  # words, as the README's table


def test_the_standings_fit_80_columns_without_cutting_a_figure(tmp_path: Path) -> None:
    # In a box, at 80 columns, the 95% interval came out as "34.2…" and books per game as "7.…".
    args = ["tournament", "--bots", "counter,random", "--games", "1", "--out", str(tmp_path), "-j", "1"]
    result = runner.invoke(app, args, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80 and "…" not in result.stdout
    row = next(line.split() for line in lines if line.split()[:2] == ["counter", "2"])
    assert row[5:7] == ["100.0%", "34.2%–100.0%"] and row[-1] == "1/1"


def test_bench_startup_refuses_to_time_a_command_that_fails(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # Without the sample record (a copy installed without sample_logs) every command failed at
    # once and the table showed the time of an error message as the start-up time.
    from cli import bench

    monkeypatch.setattr(bench, "STARTUP_RECORD", tmp_path / "missing.fish")
    monkeypatch.setattr(bench, "STARTUP_COMMANDS", (("validate", "{record}"),))
    result = runner.invoke(app, ["bench", "--startup", "--runs", "1", "--json"])
    assert result.exit_code == 2
    assert f"cannot time 'halfsuit validate {tmp_path / 'missing.fish'}': it fails (exit 2)" in result.output
    assert "missing.fish" in result.output and result.stdout.strip() == ""


def test_bench_says_one_game_in_the_singular(monkeypatch: pytest.MonkeyPatch) -> None:
    from analyzer.benchmark import SizeFigures

    one = [SizeFigures(n, 1, [190], [0.8], [0.4], [1300], 13.1, 1.7) for n in (6, 8)]
    monkeypatch.setattr("analyzer.benchmark.run_benchmark", lambda **_: one)
    result = runner.invoke(app, ["bench", "--games", "1"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert "1 game per size;" in result.stdout


def test_a_bot_against_itself_plays_each_deal_once(tmp_path: Path) -> None:
    # Both seatings of a mirror match are the same game under the same name: it was played twice
    # and counted twice in the standings (4 games of one bot for one game written).
    import json

    args = ["tournament", "--bots", "simple,simple", "--games", "2", "--out", str(tmp_path), "-j", "1", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert len(list(tmp_path.glob("*.fish"))) == data["games"] == 2
    assert [s["games"] for s in data["standings"]] == [4]  # both sides of each game


def test_simulate_refuses_an_opening_style_that_bots_would_ignore() -> None:
    # --style shapes the simulator's own play; with --bots it was silently ignored.
    result = runner.invoke(app, ["simulate", "--bots", "counter,random", "--style", "probing", "--seed", "3"])
    assert result.exit_code == 2 and "--style" in result.output
    probing = runner.invoke(app, ["simulate", "--style", "probing", "--seed", "3"])
    standard = runner.invoke(app, ["simulate", "--seed", "3"])
    assert probing.exit_code == standard.exit_code == 0 and probing.stdout != standard.stdout
