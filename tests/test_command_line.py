"""The command line, finished: version, completion, clean help with an example per command,
simulating many games with their seeds, suit symbols and comments in show, one format for odds,
and sentences with the right plurals."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyzer import record as fish
from analyzer.wording import percent
from cli.main import app

ROOT = Path(__file__).resolve().parents[1]
LOCKOUT = str(ROOT / "sample_logs" / "lockout.fish")
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), env={"COLUMNS": "100"})
    return result.exit_code, result.stdout, result.stderr


def commands() -> list[str]:
    _, out, _ = run("--help")
    listed = out.split("Commands:", 1)[1]
    return [line.split()[0] for line in listed.splitlines() if line.startswith("  ") and line.split()]


def test_version_and_completion() -> None:
    code, out, _ = run("--version")
    assert code == 0 and re.fullmatch(r"halfsuit \d+\.\d+\.\d+\n", out)
    _, out, _ = run("--help")
    assert "--install-completion" in out and "--show-completion" in out


def test_help_has_no_type_noise_and_an_example_for_every_command() -> None:
    names = commands()
    assert {"validate", "who-has", "report", "simulate", "bench"} <= set(names)
    for name in names:
        code, out, _ = run(name, "--help")
        assert code == 0
        assert "<bool>" not in out and "list[" not in out and "<path>" not in out and "<str>" not in out, name
        assert f"Example: halfsuit {name}" in out, name


def test_simulate_many_games_each_with_its_fresh_seed(tmp_path: Path) -> None:
    code, out, _ = run("simulate", "--count", "3", "--out", str(tmp_path / "games"))
    assert out.count("simulated-") == 3
    assert code == 0
    files = sorted((tmp_path / "games").glob("*.fish"))
    assert len(files) == 3
    seeds = [dict(fish.load(f).extra)["X-Seed"] for f in files]
    assert [f.name for f in files] == [f"simulated-{s}.fish" for s in seeds]
    # The seed written in a record gives the same record again.
    code, again, _ = run("simulate", "--seed", seeds[0])
    assert code == 0 and again == files[0].read_text()
    # Without --seed, each run is a different game.
    _, one, _ = run("simulate")
    _, two, _ = run("simulate")
    assert one != two
    code, _, err = run("simulate", "--count", "2")
    assert code == 2 and "--out" in err
    code, _, err = run("simulate", "--count", "2", "--out", str(files[0]))
    assert code == 2 and f"{files[0]}: is a file, not a folder" in err


def test_show_speaks_with_suit_symbols_and_keeps_comments() -> None:
    code, out, _ = run("show", LOCKOUT)
    assert code == 0
    assert "Fay asks Cara for 2♠" in out and "2S: no" not in out
    assert "# Eli asked for 5S, 6S, 3S and 2S" in out  # a comment line, in its place
    assert out.index("# Eli asked for") > out.index("Eli asks Ben for 2♠") and "comment line(s)" not in out


@pytest.mark.parametrize(
    ("f", "text"),
    [
        (Fraction(1, 3), "33.3%"),
        (Fraction(0), "0%"),
        (Fraction(1), "100%"),
        (Fraction(1, 10**6), "<0.1%"),
        (Fraction(10**6 - 1, 10**6), ">99.9%"),
    ],
)
def test_one_format_for_odds(f: Fraction, text: str) -> None:
    assert percent(f) == text


def test_odds_in_text_are_percentages_and_fractions_in_json() -> None:
    code, out, _ = run("who-has", "7S", LOCKOUT, "--at", "8")
    assert code == 0 and re.search(r"Cara\s+36\.2%", out) and "/" not in out
    code, out, _ = run("who-has", "7S", LOCKOUT, "--at", "8", "--json")
    assert "/" in json.loads(out)["odds"]["Cara"]
    code, out, _ = run("suggest", LOCKOUT, "--as", "Ben", "--at", "11")
    assert code == 0 and "35.8%" in out and "(" not in out.split("35.8%")[1].split("\n")[0]


def test_mistakes_quote_odds_as_sentences() -> None:
    code, out, _ = run("mistakes", str(ROOT / "sample_logs" / "simulated-game.fish"))
    assert code == 0
    quotes = [line for line in out.splitlines() if "odds:" in line]
    assert quotes
    for line in quotes:
        assert not re.search(r" at (0|1)\b", line), line
        assert re.search(r"\d%|<0\.1%", line), line


def test_plurals(tmp_path: Path) -> None:
    one = tmp_path / "one.fish"
    one.write_text("Teams: Anna Ben Cara vs Dev Eli Fay\n\n1. Anna asks Dev for 7S: no\n")
    code, out, _ = run("validate", str(one))
    assert code == 0 and "1 event," in out
    code, _, err = run("state", str(one), "--at", "5")
    assert code == 2 and "the record has 1 event" in err
    code, out, _ = run("hand", "Eli", LOCKOUT, "--at", "11")
    assert "holds 11 cards" in out and "4 are known" in out
